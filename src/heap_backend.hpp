// The memory behind the symmetric heaps: this PE's heap and the node peers' heaps mapped into this process.
// One implementation per platform family: POSIX shared memory on the host platform (src/ipc/shm_heap.cpp); on GPUs
// (src/ipc/gpu_ipc_heap.cpp) GPU memory shared through IPC handles, or pinned shared memory (PORTSHMEM_HEAP_MEMORY).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "bootstrap.hpp"
#include "env.hpp"
#include "portshmem/status.h"

namespace portshmem::detail {

/// Every backend's local() is aligned to this, on every PE: then an allocation offset aligned to any power of two up
/// to it gives addresses aligned alike everywhere, and alignment is decided from offsets alone. It is also the
/// largest alignment portshmem_align accepts (docs/api.md).
inline constexpr std::size_t kHeapBaseAlignment = std::size_t{2} << 20;

class heap_backend {
 public:
  virtual ~heap_backend() = default;
  /// This PE's heap (device memory on GPUs unless PORTSHMEM_HEAP_MEMORY=host), heap_size bytes, zeroed at creation,
  /// aligned to kHeapBaseAlignment.
  virtual char* local() const = 0;
  /// Which mechanism maps peers ("posix-shm", "gpu-ipc", "pinned-shm"), for logs and portshmem-info.
  virtual const char* name() const = 0;
  /// The GPU this PE uses (-1 on the host platform).
  virtual int device() const = 0;
  /// Whether the heap is host memory (the host platform, or PORTSHMEM_HEAP_MEMORY=host): the CPU, and an MPI without
  /// GPU support, can then use its addresses.
  virtual bool in_host_memory() const = 0;
};

/// Whether the program's host code reads and writes the heap (rocshmem_init says so before init: rocSHMEM programs do).
/// PORTSHMEM_HEAP_MEMORY=auto then puts the heap in host memory where device memory is not host-accessible (NVIDIA).
inline bool& heap_touched_by_host() {
  static bool touched = false;
  return touched;
}

/// Creates this PE's heap and maps every node peer's heap: peers[r] receives rank r's heap as seen here for each
/// rank r on this node (its own included); other entries stay null. Collective over boot.
portshmem_status_t make_heap_backend(bootstrap& boot, const config& cfg, std::unique_ptr<heap_backend>* out,
                                     std::vector<char*>* peers);

} // namespace portshmem::detail
