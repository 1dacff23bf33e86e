// What the GPU heap backends share (gpu_ipc_heap.cpp, gpu_vmm_heap.cpp).
#pragma once

#include <memory>
#include <vector>

#include "bootstrap.hpp"
#include "env.hpp"
#include "heap_backend.hpp"

namespace portshmem::detail {

/// Picks this PE's GPU (PORTSHMEM_DEVICE, else the local rank modulo the GPU count) and makes it current.
portshmem_status_t select_device(bootstrap& boot, const config& cfg, int* device);

/// NVIDIA: the node's heaps in one symmetric range through the CUDA virtual memory API, on GPU device (selected).
/// Collective: every PE gets a heap or every PE an error (logged at WARN: the caller falls back to IPC handles).
portshmem_status_t make_vmm_heap(bootstrap& boot, const config& cfg, int device, std::unique_ptr<heap_backend>* out,
                                 std::vector<char*>* peers);

} // namespace portshmem::detail
