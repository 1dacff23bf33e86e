// Heaps in POSIX shared memory: every PE of a node creates one segment and maps its node peers' segments. The host
// platform's heap (shm_heap.cpp) and the GPU platforms' host-memory heap (gpu_ipc_heap.cpp, PORTSHMEM_HEAP_MEMORY=host)
// both sit on this.
#pragma once

#include <cstddef>
#include <vector>

#include "bootstrap.hpp"
#include "portshmem/status.h"

namespace portshmem::detail {

class shm_segments {
 public:
  explicit shm_segments(std::size_t size) : size_(size) {}
  ~shm_segments();
  shm_segments(const shm_segments&) = delete;
  shm_segments& operator=(const shm_segments&) = delete;

  /// Creates this PE's segment (zeroed, size bytes, mapped at a kHeapBaseAlignment-aligned address) and maps every
  /// node peer's: peers[r] receives rank r's segment for each rank r on this node; other entries stay null. The names
  /// are unlinked before this returns, so nothing is left in /dev/shm even if a process dies later. Collective.
  portshmem_status_t start(bootstrap& boot, std::vector<char*>* peers);

  char* local() const { return local_; }
  /// Every segment mapped here (this PE's first), for a GPU platform to register with its driver.
  const std::vector<void*>& mappings() const { return mappings_; }
  std::size_t size() const { return size_; }

 private:
  char* map(int fd, const char* name, portshmem_status_t* status);

  std::size_t size_;
  char* local_ = nullptr;
  std::vector<void*> mappings_;
};

} // namespace portshmem::detail
