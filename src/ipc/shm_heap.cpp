// Host platform heaps: every PE's heap is a POSIX shared-memory segment that all PEs of the node map
// (shm_segments.hpp), in one symmetric range unless PORTSHMEM_SYMMETRIC_RANGE=off.
#include "heap_backend.hpp"
#include "shm_segments.hpp"

namespace portshmem::detail {
namespace {

class shm_heap final : public heap_backend {
 public:
  shm_heap(std::size_t size, bool one_range) : segments_(size, one_range) {}
  char* local() const override { return segments_.local(); }
  const char* name() const override { return "posix-shm"; }
  int device() const override { return -1; }
  bool in_host_memory() const override { return true; }
  portshmem_status_t start(bootstrap& boot, std::vector<char*>* peers) { return segments_.start(boot, peers); }

 private:
  shm_segments segments_;
};

} // namespace

portshmem_status_t make_heap_backend(bootstrap& boot, const config& cfg, std::unique_ptr<heap_backend>* out,
                                     std::vector<char*>* peers) {
  auto heap = std::make_unique<shm_heap>(cfg.heap_size, cfg.symmetric_range != symmetric_range_choice::off);
  if (auto s = heap->start(boot, peers); s != PORTSHMEM_SUCCESS) return s;
  *out = std::move(heap);
  return PORTSHMEM_SUCCESS;
}

} // namespace portshmem::detail
