// The thread-index helpers and function markers of the workloads' portshmem-side kernels, from the library's handle
// header (the NVSHMEM side's are in cuda_thread.hpp). Included by the backend_portshmem.hpp files only, which alias
// `dev` to this namespace.
#pragma once

#include <portshmem/portshmem.hpp>

#define WL_DEVICE PORTSHMEM_DEVICE
#define WL_GLOBAL PORTSHMEM_GLOBAL
#define WL_HOST_DEVICE PORTSHMEM_HOST_DEVICE
// The policies' messages and waits stay out of line: the kernels call them from several places, and inlined everywhere
// they made one workload file minutes of nvcc (a call costs nanoseconds against a message's microseconds).
#define WL_OUTLINED PORTSHMEM_DEVICE_OUTLINED

namespace workloads::portshmem_thread {
WL_DEVICE unsigned thread_rank() {
  return portshmem::thread_rank();
}
WL_DEVICE unsigned block_threads() {
  return portshmem::block_threads();
}
WL_DEVICE unsigned block_rank() {
  return portshmem::block_rank();
}
WL_DEVICE unsigned grid_blocks() {
  return portshmem::grid_blocks();
}
WL_DEVICE unsigned wave_size() {
  return portshmem::wave_size();
}
WL_DEVICE void block_sync() {
  portshmem::arch::block_sync();
}
/// The lanes of this wave that exist (the host launches whole waves only).
WL_DEVICE void wave_sync() {
  portshmem::arch::wave_sync();
}
} // namespace workloads::portshmem_thread
