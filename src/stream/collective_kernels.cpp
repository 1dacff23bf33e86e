// The kernels of the on-stream barrier, sync, broadcast, fcollect and alltoall (collective_kernels.hpp): one block
// each, running the block form of the team collective with its default qualifiers (system scope; barrier: coverage
// all). Compiled by the platform's device compiler (cmake/stream.cmake).
#include "stream/collective_kernels.hpp"

#include "portshmem/device.hpp"
#include "stream/kernels.hpp"

namespace portshmem::detail::on_stream {
namespace {

PORTSHMEM_GLOBAL void team_barrier_kernel(portshmem::ctx c, portshmem::team t) {
  portshmem::barrier_block(c, t);
}

PORTSHMEM_GLOBAL void team_sync_kernel(portshmem::ctx c, portshmem::team t) {
  portshmem::team_sync_block(c, t);
}

PORTSHMEM_GLOBAL void broadcast_kernel(portshmem::ctx c, portshmem::team t, void* dest, const void* src,
                                       std::size_t nbytes, int root) {
  portshmem::broadcastmem_block(c, t, dest, src, nbytes, root);
}

PORTSHMEM_GLOBAL void fcollect_kernel(portshmem::ctx c, portshmem::team t, void* dest, const void* src,
                                      std::size_t nbytes) {
  portshmem::fcollectmem_block(c, t, dest, src, nbytes);
}

PORTSHMEM_GLOBAL void alltoall_kernel(portshmem::ctx c, portshmem::team t, void* dest, const void* src,
                                      std::size_t nbytes) {
  portshmem::alltoallmem_block(c, t, dest, src, nbytes);
}

} // namespace

hipError_t launch_team_barrier(const portshmem_ctx_t& c, const portshmem_team_handle_t& t, hipStream_t stream) {
  return arch::launch(team_barrier_kernel, dim3(1), dim3(kBlockThreads), 0, stream, c, t);
}

hipError_t launch_team_sync(const portshmem_ctx_t& c, const portshmem_team_handle_t& t, hipStream_t stream) {
  return arch::launch(team_sync_kernel, dim3(1), dim3(kBlockThreads), 0, stream, c, t);
}

hipError_t launch_broadcast(const portshmem_ctx_t& c, const portshmem_team_handle_t& t, void* dest, const void* src,
                            std::size_t nbytes, int root, hipStream_t stream) {
  return arch::launch(broadcast_kernel, dim3(1), dim3(kBlockThreads), 0, stream, c, t, dest, src, nbytes, root);
}

hipError_t launch_fcollect(const portshmem_ctx_t& c, const portshmem_team_handle_t& t, void* dest, const void* src,
                           std::size_t nbytes, hipStream_t stream) {
  return arch::launch(fcollect_kernel, dim3(1), dim3(kBlockThreads), 0, stream, c, t, dest, src, nbytes);
}

hipError_t launch_alltoall(const portshmem_ctx_t& c, const portshmem_team_handle_t& t, void* dest, const void* src,
                           std::size_t nbytes, hipStream_t stream) {
  return arch::launch(alltoall_kernel, dim3(1), dim3(kBlockThreads), 0, stream, c, t, dest, src, nbytes);
}

} // namespace portshmem::detail::on_stream
