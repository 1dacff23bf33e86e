// Pinned host memory a network hands to the NIC or MPI in place of a caller's buffer: operands that must outlive the
// call that passed them (MPI reads origin buffers until local completion), and copies of GPU buffers for an MPI that
// cannot take GPU pointers. A bump allocator, emptied when everything taken from it is complete.
#pragma once

#include <cstddef>
#include <memory>

#include "portshmem/status.h"

namespace portshmem::rdma {

class bounce_pool {
 public:
  /// bytes of pinned (page-locked, GPU-mapped on GPU platforms) host memory.
  static portshmem_status_t create(std::size_t bytes, std::unique_ptr<bounce_pool>* out);
  ~bounce_pool();
  bounce_pool(const bounce_pool&) = delete;
  bounce_pool& operator=(const bounce_pool&) = delete;

  /// bytes (rounded up to 16) that stay valid until reset(), or nullptr when the pool cannot hold them now.
  void* take(std::size_t bytes);
  /// Makes all of the pool free again: only once nothing taken from it is still in use.
  void reset() { used_ = 0; }
  std::size_t capacity() const { return bytes_; }
  /// The pool's memory, for networks that register it with a NIC.
  void* base() const { return base_; }
  bool empty() const { return used_ == 0; }

  /// Copies between any two of host memory, pinned memory and GPU memory (hipMemcpyDefault): every copy the proxy
  /// makes to or from a local buffer goes through here. It never waits for running kernels (their threads may be
  /// waiting for this very copy): it runs on a stream of the calling thread's own that does not synchronize with the
  /// default stream (hipStreamNonBlocking), and waits for that stream only.
  static portshmem_status_t copy(void* dst, const void* src, std::size_t bytes);

 private:
  bounce_pool(char* base, std::size_t bytes) : base_(base), bytes_(bytes) {}
  char* base_;
  std::size_t bytes_, used_ = 0;
};

} // namespace portshmem::rdma
