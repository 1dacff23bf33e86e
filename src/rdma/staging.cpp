#include "rdma/staging.hpp"

#include "log.hpp"
#include "portshmem/gpu_runtime.hpp"

namespace portshmem::rdma {

portshmem_status_t bounce_pool::create(std::size_t bytes, std::unique_ptr<bounce_pool>* out) {
  char* base = nullptr;
  if (hipHostMalloc(&base, bytes, 0) != hipSuccess) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU,
                          "could not allocate %zu bytes of pinned host memory for the network's "
                          "bounce buffers",
                          bytes);
  }
  out->reset(new bounce_pool(base, bytes));
  return PORTSHMEM_SUCCESS;
}

bounce_pool::~bounce_pool() {
  (void)hipHostFree(base_); // teardown: nothing left to protect if it fails
}

void* bounce_pool::take(std::size_t bytes) {
  const std::size_t rounded = (bytes + 15) & ~std::size_t(15);
  if (rounded > bytes_ - used_) return nullptr;
  void* p = base_ + used_;
  used_ += rounded;
  return p;
}

namespace {

/// The calling thread's copy stream (the proxy thread's, in practice), created on first use.
struct copy_stream {
  hipStream_t stream = nullptr;
  bool made = false;
  ~copy_stream() {
    if (made) (void)hipStreamDestroy(stream);
  }
  hipStream_t get() {
    if (!made) made = hipStreamCreateWithFlags(&stream, hipStreamNonBlocking) == hipSuccess;
    return stream;
  }
};

} // namespace

portshmem_status_t bounce_pool::copy(void* dst, const void* src, std::size_t bytes) {
  thread_local copy_stream mine;
  const hipStream_t stream = mine.get();
  if (!mine.made) return PORTSHMEM_ERR_GPU;
  if (hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, stream) != hipSuccess) return PORTSHMEM_ERR_GPU;
  return hipStreamSynchronize(stream) == hipSuccess ? PORTSHMEM_SUCCESS : PORTSHMEM_ERR_GPU;
}

} // namespace portshmem::rdma
