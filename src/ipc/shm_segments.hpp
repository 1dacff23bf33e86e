// Heaps in POSIX shared memory: every PE of a node creates one segment and maps its node peers' segments. The host
// platform's heap (shm_heap.cpp) and the GPU platforms' host-memory heap (gpu_ipc_heap.cpp, PORTSHMEM_HEAP_MEMORY=host)
// both sit on this.
#pragma once

#include <cstddef>
#include <vector>

#include "bootstrap.hpp"
#include "symmetric_range.hpp"
#include "portshmem/status.h"

namespace portshmem::detail {

class shm_segments {
 public:
  /// one_range: map the node's segments into one symmetric range (symmetric_range.hpp); else each where it lands.
  shm_segments(std::size_t size, bool one_range) : size_(size), one_range_(one_range) {}
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
  /// Maps the segment open at fd at `at` (a slot of the range), or at an aligned address of its own when at is null.
  char* map(int fd, const char* name, char* at, portshmem_status_t* status);
  /// Reserves the symmetric range for boot's node (one_range_); sets range_ and layout_.
  portshmem_status_t reserve_range(const bootstrap& boot);
  /// Where rank's segment goes: its slot of the range, or null (anywhere aligned) without one.
  char* slot(int rank) const { return range_ ? range_ + layout_.offset_of(rank) : nullptr; }

  std::size_t size_;
  bool one_range_;
  char* local_ = nullptr;
  std::vector<void*> mappings_;
  char* range_ = nullptr; // the reservation (PROT_NONE where no segment is mapped), range_bytes_ long
  std::size_t range_bytes_ = 0;
  range_layout layout_;
};

} // namespace portshmem::detail
