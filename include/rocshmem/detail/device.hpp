// rocSHMEM's device-only basics: workgroup init/finalize, contexts, fences and quiets with a PE, the PE queries on a
// context, and the barriers. Calls without a context use this translation unit's ROCSHMEM_CTX_DEFAULT.
#pragma once

#include "rocshmem/detail/common.hpp"

namespace rocshmem {

/// A workgroup collective in rocSHMEM that sets up per-workgroup state; portshmem keeps none, so it does nothing.
PORTSHMEM_DEVICE void rocshmem_wg_init() {}

/// Pairs with rocshmem_wg_init; nothing to release.
PORTSHMEM_DEVICE void rocshmem_wg_finalize() {}

/// rocshmem_wg_init; *provided = ROCSHMEM_THREAD_MULTIPLE (any thread may call the device API).
PORTSHMEM_DEVICE void rocshmem_wg_init_thread(int /*requested*/, int* provided) {
  *provided = ROCSHMEM_THREAD_MULTIPLE;
}

/// Workgroup collective: *ctx = the default context (portshmem's contexts are its device handle; every one orders and
/// completes like the default). Thread 0 writes it and the block synchronizes, so ctx may be __shared__. Returns 0.
PORTSHMEM_DEVICE int rocshmem_wg_ctx_create(int64_t /*options*/, rocshmem_ctx_t* ctx) {
  if (portshmem::thread_rank() == 0) *ctx = ROCSHMEM_CTX_DEFAULT;
  portshmem::block_group::sync();
  return 0;
}

/// Workgroup collective: completes what the calling thread issued through *ctx (quiet) and synchronizes the block.
PORTSHMEM_DEVICE void rocshmem_wg_ctx_destroy(rocshmem_ctx_t* ctx) {
  portshmem::quiet(*ctx);
  portshmem::block_group::sync();
}

/// rocshmem_ctx_fence (portshmem's fence orders per destination for all PEs at once).
PORTSHMEM_DEVICE void rocshmem_ctx_fence(rocshmem_ctx_t ctx, int /*pe*/) {
  portshmem::fence(ctx);
}
PORTSHMEM_DEVICE void rocshmem_fence(int /*pe*/) {
  portshmem::fence(detail::default_ctx());
}

/// The calling thread's memory accesses before it are ordered before those after it for every observer of the system
/// (HIP's __threadfence_system: a sequentially consistent system-scope fence). It covers ordinary loads and stores and
/// RMA over the load/store transport; commands the RDMA proxy carries are ordered by rocshmem_ctx_fence.
PORTSHMEM_DEVICE void rocshmem_ctx_threadfence_system(rocshmem_ctx_t /*ctx*/) {
  portshmem::arch::fence<portshmem::arch::order::seq_cst, portshmem::arch::scope::system>();
}
PORTSHMEM_DEVICE void rocshmem_threadfence_system() {
  portshmem::arch::fence<portshmem::arch::order::seq_cst, portshmem::arch::scope::system>();
}

/// rocshmem_ctx_quiet for the operations toward target_pes[0, npes) (portshmem::pe_quiet: on the load/store transport
/// a quiet, through the RDMA proxy only the commands to those PEs are waited for).
PORTSHMEM_DEVICE void rocshmem_ctx_pe_quiet(rocshmem_ctx_t ctx, const int* target_pes, size_t npes) {
  portshmem::pe_quiet(ctx, target_pes, npes);
}
PORTSHMEM_DEVICE void rocshmem_pe_quiet(const int* target_pes, size_t npes) {
  portshmem::pe_quiet(detail::default_ctx(), target_pes, npes);
}

/// Workgroup collective: *ctx = a context whose PE numbers are team's. portshmem's contexts address PEs by world
/// number only, so this succeeds (returns 0, *ctx = the default context) when team numbers its members as the world
/// does (start 0, stride 1, every PE), and otherwise returns 1 (rocSHMEM: nonzero = failed), leaving *ctx unchanged.
PORTSHMEM_DEVICE int rocshmem_wg_team_create_ctx(rocshmem_team_t team, long /*options*/, rocshmem_ctx_t* ctx) {
  const rocshmem_ctx_t c = detail::default_ctx();
  const bool world_numbering = team && team->start == 0 && team->stride == 1 && team->size == c.n_pes;
  portshmem::block_group::sync(); // every thread has read *ctx's old value (it may be __shared__)
  if (world_numbering && portshmem::thread_rank() == 0) *ctx = c;
  portshmem::block_group::sync();
  return world_numbering ? 0 : 1;
}

namespace detail {
/// rocshmem_<T>_alltoallv_wg, by every thread of the block: this PE receives dest_nelems[j] elements from member j,
/// read at member j's source + its source_displs[me] and written at dest + dest_displs[j]. Member j's displacement
/// for this PE is local to member j, so an alltoall of one word per pair first moves every member's source_displs into
/// the team's symmetric offsets (portshmem::alltoall_block: on return, offsets[j] is member j's source_displs[me]);
/// then the block gets each member's elements (portshmem::getmem_block, which returns when they have arrived); then a
/// team sync: every member has read this PE's source and offsets before any member returns (source may be reused,
/// and the next call's alltoall may write offsets).
template <class T>
PORTSHMEM_DEVICE void alltoallv_block(const rocshmem_ctx_t& c, rocshmem_team_t team, T* dest, const size_t* dest_nelems,
                                      const size_t* dest_displs, const T* source, const size_t* source_displs) {
  static_assert(sizeof(size_t) == sizeof(std::uint64_t), "displacements are exchanged as 64-bit words");
  const portshmem_team_handle_t& t = *team;
  std::uint64_t* const offsets = reinterpret_cast<const team_object*>(team)->alltoallv_offsets;
  portshmem::alltoall_block(c, t, offsets, reinterpret_cast<const std::uint64_t*>(source_displs), 1);
  for (int j = 0; j < t.size; ++j) {
    // getmem of bytes: T may be a type portshmem's typed RMA does not take (half, bfloat16).
    portshmem::getmem_block(c, dest + dest_displs[j], source + offsets[j], dest_nelems[j] * sizeof(T),
                            portshmem::team_world_pe(t, j));
  }
  portshmem::team_sync_block(c, t);
}
} // namespace detail

/// This PE's number and the number of PEs, from ctx.
PORTSHMEM_DEVICE int rocshmem_ctx_my_pe(rocshmem_ctx_t ctx) {
  return portshmem::my_pe(ctx);
}
PORTSHMEM_DEVICE int rocshmem_ctx_n_pes(rocshmem_ctx_t ctx) {
  return portshmem::n_pes(ctx);
}

/// Workgroup collective: quiet, then every PE's workgroup has arrived (portshmem::barrier_all_block).
PORTSHMEM_DEVICE void rocshmem_ctx_wg_barrier_all(rocshmem_ctx_t ctx) {
  portshmem::barrier_all_block(ctx);
}
PORTSHMEM_DEVICE void rocshmem_wg_barrier_all() {
  portshmem::barrier_all_block(detail::default_ctx());
}

/// Workgroup collective: every PE's workgroup has arrived; completes nothing (portshmem::sync_all_block).
PORTSHMEM_DEVICE void rocshmem_ctx_wg_sync_all(rocshmem_ctx_t ctx) {
  portshmem::sync_all_block(ctx);
}
PORTSHMEM_DEVICE void rocshmem_wg_sync_all() {
  portshmem::sync_all_block(detail::default_ctx());
}

/// Workgroup collective over team: every member's workgroup has arrived (portshmem::team_sync_block).
PORTSHMEM_DEVICE void rocshmem_ctx_wg_team_sync(rocshmem_ctx_t ctx, rocshmem_team_t team) {
  portshmem::team_sync_block(ctx, *team);
}
PORTSHMEM_DEVICE void rocshmem_wg_team_sync(rocshmem_team_t team) {
  portshmem::team_sync_block(detail::default_ctx(), *team);
}

// Barriers and syncs by one thread, a wave (_wave: every thread of the wave calls) or a workgroup (_wg). A barrier
// quiets first (what the caller issued is complete), then waits for every member; a sync only waits. The thread forms
// without a context, rocshmem_barrier_all() and rocshmem_sync_all(), share their names with the host calls
// (detail/both.hpp). A team is a rocshmem_team_t passed to the kernel (its handle lives in device memory).

/// Quiet, then every PE's wave has entered the barrier (portshmem::barrier_all_wave / _block).
PORTSHMEM_DEVICE void rocshmem_barrier_all_wave() {
  portshmem::barrier_all_wave(detail::default_ctx());
}
PORTSHMEM_DEVICE void rocshmem_barrier_all_wg() {
  portshmem::barrier_all_block(detail::default_ctx());
}
/// The same on ctx (portshmem::barrier_all, _wave, _block).
PORTSHMEM_DEVICE void rocshmem_ctx_barrier_all(rocshmem_ctx_t ctx) {
  portshmem::barrier_all(ctx);
}
PORTSHMEM_DEVICE void rocshmem_ctx_barrier_all_wave(rocshmem_ctx_t ctx) {
  portshmem::barrier_all_wave(ctx);
}
PORTSHMEM_DEVICE void rocshmem_ctx_barrier_all_wg(rocshmem_ctx_t ctx) {
  portshmem::barrier_all_block(ctx);
}

/// Every PE's wave (workgroup) has entered the sync; completes nothing (portshmem::sync_all_wave / _block).
PORTSHMEM_DEVICE void rocshmem_sync_all_wave() {
  portshmem::sync_all_wave(detail::default_ctx());
}
PORTSHMEM_DEVICE void rocshmem_sync_all_wg() {
  portshmem::sync_all_block(detail::default_ctx());
}
/// The same on ctx (portshmem::sync_all, _wave, _block).
PORTSHMEM_DEVICE void rocshmem_ctx_sync_all(rocshmem_ctx_t ctx) {
  portshmem::sync_all(ctx);
}
PORTSHMEM_DEVICE void rocshmem_ctx_sync_all_wave(rocshmem_ctx_t ctx) {
  portshmem::sync_all_wave(ctx);
}
PORTSHMEM_DEVICE void rocshmem_ctx_sync_all_wg(rocshmem_ctx_t ctx) {
  portshmem::sync_all_block(ctx);
}

/// Quiet, then every member of team has entered the barrier (portshmem::barrier, _wave, _block).
PORTSHMEM_DEVICE void rocshmem_ctx_barrier(rocshmem_ctx_t ctx, rocshmem_team_t team) {
  portshmem::barrier(ctx, *team);
}
PORTSHMEM_DEVICE void rocshmem_ctx_barrier_wave(rocshmem_ctx_t ctx, rocshmem_team_t team) {
  portshmem::barrier_wave(ctx, *team);
}
PORTSHMEM_DEVICE void rocshmem_ctx_barrier_wg(rocshmem_ctx_t ctx, rocshmem_team_t team) {
  portshmem::barrier_block(ctx, *team);
}
/// rocSHMEM's team-world barriers without arguments: a barrier over every PE is barrier_all.
PORTSHMEM_DEVICE void rocshmem_barrier() {
  portshmem::barrier_all(detail::default_ctx());
}
PORTSHMEM_DEVICE void rocshmem_barrier_wave() {
  portshmem::barrier_all_wave(detail::default_ctx());
}
PORTSHMEM_DEVICE void rocshmem_barrier_wg() {
  portshmem::barrier_all_block(detail::default_ctx());
}

/// Every member of team has entered the sync; completes nothing (portshmem::team_sync, _wave, _block).
PORTSHMEM_DEVICE void rocshmem_ctx_sync(rocshmem_ctx_t ctx, rocshmem_team_t team) {
  portshmem::team_sync(ctx, *team);
}
PORTSHMEM_DEVICE void rocshmem_ctx_sync_wave(rocshmem_ctx_t ctx, rocshmem_team_t team) {
  portshmem::team_sync_wave(ctx, *team);
}
PORTSHMEM_DEVICE void rocshmem_ctx_sync_wg(rocshmem_ctx_t ctx, rocshmem_team_t team) {
  portshmem::team_sync_block(ctx, *team);
}

} // namespace rocshmem
