// The library's kernels behind the team collectives of portshmem/stream.h, as launch functions host code can call
// (kernels.hpp has the point-to-point ones): each enqueues one block running the block form of the collective on the
// stream and returns the launch's error. Arguments must already have been checked (collectives_on_stream.cpp).
// Defined in collective_kernels.cpp and reduction_kernels.hpp, built by the device compiler.
#pragma once

#include <cstddef>

#include "portshmem/ctx.h"
#include "portshmem/gpu_runtime.hpp"
#include "portshmem/team.h"
#include "stream/element_kind.hpp"

namespace portshmem::detail::on_stream {

/// barrier_block(c, t).
hipError_t launch_team_barrier(const portshmem_ctx_t& c, const portshmem_team_handle_t& t, hipStream_t stream);
/// team_sync_block(c, t).
hipError_t launch_team_sync(const portshmem_ctx_t& c, const portshmem_team_handle_t& t, hipStream_t stream);
/// broadcastmem_block(c, t, dest, src, nbytes, root).
hipError_t launch_broadcast(const portshmem_ctx_t& c, const portshmem_team_handle_t& t, void* dest, const void* src,
                            std::size_t nbytes, int root, hipStream_t stream);
/// fcollectmem_block(c, t, dest, src, nbytes).
hipError_t launch_fcollect(const portshmem_ctx_t& c, const portshmem_team_handle_t& t, void* dest, const void* src,
                           std::size_t nbytes, hipStream_t stream);
/// alltoallmem_block(c, t, dest, src, nbytes).
hipError_t launch_alltoall(const portshmem_ctx_t& c, const portshmem_team_handle_t& t, void* dest, const void* src,
                           std::size_t nbytes, hipStream_t stream);
/// Which reduction: reduce (every member gets the whole result) or reduce_scatter (member j gets block j).
enum class reduction { reduce, reduce_scatter };

/// The block-form reduce (or reduce_scatter) of count elements (per member) of Size bytes whose bits are of kind,
/// combined with op, a portshmem_reduce_op_t; the caller has checked the pair (check_reduction). One kernel per
/// reduction and element size, whatever the type and operator (reduction_kernels.hpp), each instantiated in a unit of
/// its own (cmake/stream.cmake generates them) so that they compile in parallel.
template <reduction Which, std::size_t Size>
hipError_t launch_reduction(const portshmem_ctx_t& c, const portshmem_team_handle_t& t, void* dest, const void* src,
                            std::size_t count, element_kind kind, int op, hipStream_t stream);

} // namespace portshmem::detail::on_stream
