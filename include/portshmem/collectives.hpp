// Team collectives (OpenSHMEM 1.5 team-based collectives; docs/api.md, "Collectives"). Every member of the team calls
// the same collective with the same arguments, in the same order as the team's other collectives; a wave or block
// form is one call of this PE made by every thread of the group. Collectives on one team must not overlap; on
// disjoint teams (or different slots) they may run at once. Before a collective, the dest of every member must be ready
// to receive (as in OpenSHMEM: synchronize first when the previous contents are still in use); on return, this
// PE's dest holds the result and its src may be reused. Buffers are symmetric (dest and src), except that a root's
// src and any src that is only read locally may be too. A bad call (not a member, root outside the team, a scratch
// too small for the team) is recorded for the host (portshmem_check_device_errors) and does nothing.
// Qualifiers: scope mm::device | mm::node | mm::system (default), a promise that every member is within it; barrier
// also takes coverage (what its quiet completes: mm::all, default, or mm::comm). A debug-check build
// (PORTSHMEM_DEBUG_CHECKS) records PORTSHMEM_ERR_MISMATCH when members' calls differ (kind, sizes, root, operator).
#pragma once

#include <cstddef>

#include "portshmem/detail/collectives.hpp"
#include "portshmem/float16.hpp"
#include "portshmem/group.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/team.hpp"

namespace portshmem {

// ---- barrier and sync
// ------------------------------------------------------------------------------------------------

/// Quiet, then waits until every member of t has entered barrier: their operations before it are visible on return.
template <class... Q>
PORTSHMEM_DEVICE void barrier(const ctx& c, const team& t, Q...) {
  detail::team_barrier<thread_group, true, mm::resolve<detail::kBarrierQualifiers, Q...>>(c, t);
}

/// barrier by every thread of the wave as one call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void barrier_wave(const ctx& c, const team& t, Q...) {
  detail::team_barrier<wave_group, true, mm::resolve<detail::kBarrierQualifiers, Q...>>(c, t);
}

/// barrier by every thread of the block as one call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void barrier_block(const ctx& c, const team& t, Q...) {
  detail::team_barrier<block_group, true, mm::resolve<detail::kBarrierQualifiers, Q...>>(c, t);
}

/// Waits until every member of t has entered team_sync; completes nothing (pair it with quiet where data matters).
template <class... Q>
PORTSHMEM_DEVICE void team_sync(const ctx& c, const team& t, Q...) {
  detail::team_barrier<thread_group, false, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t);
}

/// team_sync by every thread of the wave as one call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void team_sync_wave(const ctx& c, const team& t, Q...) {
  detail::team_barrier<wave_group, false, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t);
}

/// team_sync by every thread of the block as one call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void team_sync_block(const ctx& c, const team& t, Q...) {
  detail::team_barrier<block_group, false, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t);
}

// ---- broadcast
// ----------------------------------------------------------------------------------------------------------

/// Copies root's src (nbytes) to dest on every member of t, the root included.
template <class... Q>
PORTSHMEM_DEVICE void broadcastmem(const ctx& c, const team& t, void* dest, const void* src, std::size_t nbytes,
                                   int root, Q...) {
  detail::broadcast_bytes<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src, nbytes,
                                                                                          root);
}

/// broadcastmem by every thread of the wave as one call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void broadcastmem_wave(const ctx& c, const team& t, void* dest, const void* src, std::size_t nbytes,
                                        int root, Q...) {
  detail::broadcast_bytes<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src, nbytes, root);
}

/// broadcastmem by every thread of the block as one call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void broadcastmem_block(const ctx& c, const team& t, void* dest, const void* src, std::size_t nbytes,
                                         int root, Q...) {
  detail::broadcast_bytes<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src, nbytes, root);
}

/// broadcastmem of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void broadcast(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, int root,
                                Q...) {
  detail::broadcast_bytes<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src,
                                                                                          nelems * sizeof(T), root);
}

/// broadcastmem_wave of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void broadcast_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, int root,
                                     Q...) {
  detail::broadcast_bytes<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src,
                                                                                        nelems * sizeof(T), root);
}

/// broadcastmem_block of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void broadcast_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, int root,
                                      Q...) {
  detail::broadcast_bytes<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src,
                                                                                         nelems * sizeof(T), root);
}

// ---- fcollect
// -----------------------------------------------------------------------------------------------------------

/// Copies each member i's src (nbytes, the same on every member) to dest + i * nbytes on every member.
template <class... Q>
PORTSHMEM_DEVICE void fcollectmem(const ctx& c, const team& t, void* dest, const void* src, std::size_t nbytes, Q...) {
  detail::fcollect_bytes<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src, nbytes);
}

/// fcollectmem by every thread of the wave as one call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void fcollectmem_wave(const ctx& c, const team& t, void* dest, const void* src, std::size_t nbytes,
                                       Q...) {
  detail::fcollect_bytes<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src, nbytes);
}

/// fcollectmem by every thread of the block as one call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void fcollectmem_block(const ctx& c, const team& t, void* dest, const void* src, std::size_t nbytes,
                                        Q...) {
  detail::fcollect_bytes<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src, nbytes);
}

/// fcollectmem of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void fcollect(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::fcollect_bytes<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src,
                                                                                         nelems * sizeof(T));
}

/// fcollectmem_wave of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void fcollect_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::fcollect_bytes<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src,
                                                                                       nelems * sizeof(T));
}

/// fcollectmem_block of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void fcollect_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::fcollect_bytes<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src,
                                                                                        nelems * sizeof(T));
}

// ---- collect
// ------------------------------------------------------------------------------------------------------------

/// Copies each member's src (nbytes, may differ per member) to every member's dest, concatenated in member order.
template <class... Q>
PORTSHMEM_DEVICE void collectmem(const ctx& c, const team& t, void* dest, const void* src, std::size_t nbytes, Q...) {
  detail::collect_bytes<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src, nbytes);
}

/// collectmem by every thread of the wave as one call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void collectmem_wave(const ctx& c, const team& t, void* dest, const void* src, std::size_t nbytes,
                                      Q...) {
  detail::collect_bytes<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src, nbytes);
}

/// collectmem by every thread of the block as one call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void collectmem_block(const ctx& c, const team& t, void* dest, const void* src, std::size_t nbytes,
                                       Q...) {
  detail::collect_bytes<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src, nbytes);
}

/// collectmem of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void collect(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::collect_bytes<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src,
                                                                                        nelems * sizeof(T));
}

/// collectmem_wave of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void collect_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::collect_bytes<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src,
                                                                                      nelems * sizeof(T));
}

/// collectmem_block of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void collect_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::collect_bytes<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src,
                                                                                       nelems * sizeof(T));
}

// ---- alltoall
// -----------------------------------------------------------------------------------------------------------

/// Copies member i's src + j * nbytes to member j's dest + i * nbytes, for every pair.
template <class... Q>
PORTSHMEM_DEVICE void alltoallmem(const ctx& c, const team& t, void* dest, const void* src, std::size_t nbytes, Q...) {
  detail::alltoall_bytes<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src, nbytes);
}

/// alltoallmem by every thread of the wave as one call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void alltoallmem_wave(const ctx& c, const team& t, void* dest, const void* src, std::size_t nbytes,
                                       Q...) {
  detail::alltoall_bytes<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src, nbytes);
}

/// alltoallmem by every thread of the block as one call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void alltoallmem_block(const ctx& c, const team& t, void* dest, const void* src, std::size_t nbytes,
                                        Q...) {
  detail::alltoall_bytes<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src, nbytes);
}

/// alltoallmem of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void alltoall(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::alltoall_bytes<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src,
                                                                                         nelems * sizeof(T));
}

/// alltoallmem_wave of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void alltoall_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::alltoall_bytes<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src,
                                                                                       nelems * sizeof(T));
}

/// alltoallmem_block of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void alltoall_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::alltoall_bytes<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>>(c, t, dest, src,
                                                                                        nelems * sizeof(T));
}

// ---- reduce
// -------------------------------------------------------------------------------------------------------------

// dest[k] = the reduction over the members, in member order, of src[k] (nreduce elements; dest may be src). sum,
// prod, min, max: arithmetic types, half_t and bfloat16_t (computed in float, rounded to nearest-even); and, or,
// xor: integer types. Every member gets the same bits.

/// dest = the sum over t's members of src, element by element.
template <class T, class... Q>
PORTSHMEM_DEVICE void sum_reduce(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_sum>(c, t, dest, src,
                                                                                                       nreduce);
}

/// sum_reduce by every thread of the wave as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void sum_reduce_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_sum>(c, t, dest, src,
                                                                                                     nreduce);
}

/// sum_reduce by every thread of the block as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void sum_reduce_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_sum>(c, t, dest, src,
                                                                                                      nreduce);
}

/// dest = the product over t's members of src, element by element.
template <class T, class... Q>
PORTSHMEM_DEVICE void prod_reduce(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_prod>(c, t, dest, src,
                                                                                                        nreduce);
}

/// prod_reduce by every thread of the wave as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void prod_reduce_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_prod>(c, t, dest, src,
                                                                                                      nreduce);
}

/// prod_reduce by every thread of the block as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void prod_reduce_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_prod>(c, t, dest, src,
                                                                                                       nreduce);
}

/// dest = the minimum over t's members of src, element by element.
template <class T, class... Q>
PORTSHMEM_DEVICE void min_reduce(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_min>(c, t, dest, src,
                                                                                                       nreduce);
}

/// min_reduce by every thread of the wave as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void min_reduce_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_min>(c, t, dest, src,
                                                                                                     nreduce);
}

/// min_reduce by every thread of the block as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void min_reduce_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_min>(c, t, dest, src,
                                                                                                      nreduce);
}

/// dest = the maximum over t's members of src, element by element.
template <class T, class... Q>
PORTSHMEM_DEVICE void max_reduce(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_max>(c, t, dest, src,
                                                                                                       nreduce);
}

/// max_reduce by every thread of the wave as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void max_reduce_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_max>(c, t, dest, src,
                                                                                                     nreduce);
}

/// max_reduce by every thread of the block as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void max_reduce_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_max>(c, t, dest, src,
                                                                                                      nreduce);
}

/// dest = the bitwise and over t's members of src, element by element.
template <class T, class... Q>
PORTSHMEM_DEVICE void and_reduce(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_and>(c, t, dest, src,
                                                                                                       nreduce);
}

/// and_reduce by every thread of the wave as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void and_reduce_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_and>(c, t, dest, src,
                                                                                                     nreduce);
}

/// and_reduce by every thread of the block as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void and_reduce_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_and>(c, t, dest, src,
                                                                                                      nreduce);
}

/// dest = the bitwise or over t's members of src, element by element.
template <class T, class... Q>
PORTSHMEM_DEVICE void or_reduce(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_or>(c, t, dest, src,
                                                                                                      nreduce);
}

/// or_reduce by every thread of the wave as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void or_reduce_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_or>(c, t, dest, src,
                                                                                                    nreduce);
}

/// or_reduce by every thread of the block as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void or_reduce_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_or>(c, t, dest, src,
                                                                                                     nreduce);
}

/// dest = the bitwise exclusive or over t's members of src, element by element.
template <class T, class... Q>
PORTSHMEM_DEVICE void xor_reduce(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_xor>(c, t, dest, src,
                                                                                                       nreduce);
}

/// xor_reduce by every thread of the wave as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void xor_reduce_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_xor>(c, t, dest, src,
                                                                                                     nreduce);
}

/// xor_reduce by every thread of the block as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void xor_reduce_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce, Q...) {
  detail::reduce_elems<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_xor>(c, t, dest, src,
                                                                                                      nreduce);
}

// ---- reduce_scatter
// -----------------------------------------------------------------------------------------------------

// Member j's dest (nelems elements) = the reduction over the members of their src + j * nelems (src: team size
// times nelems elements). Types as for reduce.

/// dest = the sum over t's members of their src block for this member.
template <class T, class... Q>
PORTSHMEM_DEVICE void sum_reduce_scatter(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::reduce_scatter_elems<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_sum>(
      c, t, dest, src, nelems);
}

/// sum_reduce_scatter by every thread of the wave as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void sum_reduce_scatter_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                              Q...) {
  detail::reduce_scatter_elems<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_sum>(
      c, t, dest, src, nelems);
}

/// sum_reduce_scatter by every thread of the block as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void sum_reduce_scatter_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                               Q...) {
  detail::reduce_scatter_elems<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_sum>(
      c, t, dest, src, nelems);
}

/// dest = the product over t's members of their src block for this member.
template <class T, class... Q>
PORTSHMEM_DEVICE void prod_reduce_scatter(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                          Q...) {
  detail::reduce_scatter_elems<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_prod>(
      c, t, dest, src, nelems);
}

/// prod_reduce_scatter by every thread of the wave as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void prod_reduce_scatter_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                               Q...) {
  detail::reduce_scatter_elems<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_prod>(
      c, t, dest, src, nelems);
}

/// prod_reduce_scatter by every thread of the block as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void prod_reduce_scatter_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                                Q...) {
  detail::reduce_scatter_elems<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_prod>(
      c, t, dest, src, nelems);
}

/// dest = the minimum over t's members of their src block for this member.
template <class T, class... Q>
PORTSHMEM_DEVICE void min_reduce_scatter(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::reduce_scatter_elems<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_min>(
      c, t, dest, src, nelems);
}

/// min_reduce_scatter by every thread of the wave as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void min_reduce_scatter_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                              Q...) {
  detail::reduce_scatter_elems<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_min>(
      c, t, dest, src, nelems);
}

/// min_reduce_scatter by every thread of the block as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void min_reduce_scatter_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                               Q...) {
  detail::reduce_scatter_elems<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_min>(
      c, t, dest, src, nelems);
}

/// dest = the maximum over t's members of their src block for this member.
template <class T, class... Q>
PORTSHMEM_DEVICE void max_reduce_scatter(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::reduce_scatter_elems<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_max>(
      c, t, dest, src, nelems);
}

/// max_reduce_scatter by every thread of the wave as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void max_reduce_scatter_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                              Q...) {
  detail::reduce_scatter_elems<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_max>(
      c, t, dest, src, nelems);
}

/// max_reduce_scatter by every thread of the block as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void max_reduce_scatter_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                               Q...) {
  detail::reduce_scatter_elems<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_max>(
      c, t, dest, src, nelems);
}

/// dest = the bitwise and over t's members of their src block for this member.
template <class T, class... Q>
PORTSHMEM_DEVICE void and_reduce_scatter(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::reduce_scatter_elems<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_and>(
      c, t, dest, src, nelems);
}

/// and_reduce_scatter by every thread of the wave as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void and_reduce_scatter_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                              Q...) {
  detail::reduce_scatter_elems<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_and>(
      c, t, dest, src, nelems);
}

/// and_reduce_scatter by every thread of the block as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void and_reduce_scatter_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                               Q...) {
  detail::reduce_scatter_elems<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_and>(
      c, t, dest, src, nelems);
}

/// dest = the bitwise or over t's members of their src block for this member.
template <class T, class... Q>
PORTSHMEM_DEVICE void or_reduce_scatter(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::reduce_scatter_elems<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_or>(
      c, t, dest, src, nelems);
}

/// or_reduce_scatter by every thread of the wave as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void or_reduce_scatter_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                             Q...) {
  detail::reduce_scatter_elems<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_or>(
      c, t, dest, src, nelems);
}

/// or_reduce_scatter by every thread of the block as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void or_reduce_scatter_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                              Q...) {
  detail::reduce_scatter_elems<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_or>(
      c, t, dest, src, nelems);
}

/// dest = the bitwise exclusive or over t's members of their src block for this member.
template <class T, class... Q>
PORTSHMEM_DEVICE void xor_reduce_scatter(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems, Q...) {
  detail::reduce_scatter_elems<thread_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_xor>(
      c, t, dest, src, nelems);
}

/// xor_reduce_scatter by every thread of the wave as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void xor_reduce_scatter_wave(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                              Q...) {
  detail::reduce_scatter_elems<wave_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_xor>(
      c, t, dest, src, nelems);
}

/// xor_reduce_scatter by every thread of the block as one call of this PE.
template <class T, class... Q>
PORTSHMEM_DEVICE void xor_reduce_scatter_block(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                               Q...) {
  detail::reduce_scatter_elems<block_group, mm::resolve<detail::kCollectiveQualifiers, Q...>, detail::op_xor>(
      c, t, dest, src, nelems);
}

} // namespace portshmem
