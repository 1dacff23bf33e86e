// GPU heaps. By default each PE allocates its heap on its GPU and shares it with the PEs of its node through IPC memory
// handles (cudaIpc / hipIpc), exchanged over the bootstrap. With PORTSHMEM_HEAP_MEMORY=host (and for rocSHMEM programs
// on NVIDIA, whose host code touches the heap) the heaps are POSIX shared memory that every process of the node maps
// and pins for its GPU: one pointer then serves host code and kernels. PE -> GPU is local rank modulo the GPU count
// unless PORTSHMEM_DEVICE says otherwise; several PEs may share a GPU (then MPS keeps their kernels concurrent). The
// device allocation is kHeapBaseAlignment larger than the heap, which starts at its first aligned address; a handle
// opens the whole allocation, so each PE's distance from allocation to heap travels with its handle.
#include <cstdint>
#include <cstring>
#include <string>

#include "gpu_heaps.hpp"
#include "log.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "shm_segments.hpp"

namespace portshmem::detail {

#define PORTSHMEM_GPU_CHECK(call)                                                                                      \
  do {                                                                                                                 \
    if (hipError_t e_ = (call); e_ != hipSuccess) {                                                                    \
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "%s failed: %s", #call, hipGetErrorString(e_));                         \
    }                                                                                                                  \
  } while (0)

portshmem_status_t select_device(bootstrap& boot, const config& cfg, int* device) {
  int count = 0;
  PORTSHMEM_GPU_CHECK(hipGetDeviceCount(&count));
  if (count <= 0) return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "no GPU is visible to this process");
  *device = cfg.device >= 0 ? cfg.device : boot.node_rank() % count;
  if (*device >= count) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_ENV, "PORTSHMEM_DEVICE=%d but only %d GPU(s) are visible", *device, count);
  }
  PORTSHMEM_GPU_CHECK(hipSetDevice(*device));
  const int sharing = (int(boot.node_ranks().size()) + count - 1) / count;
  if (sharing > 1 && boot.node_rank() == 0) {
    PORTSHMEM_LOG(info,
                  "%d PEs share each GPU of this node: run under MPS (scripts/portshmem-run starts "
                  "it) or their kernels time-slice",
                  sharing);
  }
  return PORTSHMEM_SUCCESS;
}

namespace {

class gpu_ipc_heap final : public heap_backend {
 public:
  gpu_ipc_heap(std::size_t size, bool /*one_range: IPC mappings land where the driver puts them*/) : size_(size) {}
  ~gpu_ipc_heap() override {
    for (char* p : opened_) (void)hipIpcCloseMemHandle(p); // teardown: nothing to do about a failure
    if (allocation_) (void)hipFree(allocation_);
  }
  char* local() const override { return local_; }
  const char* name() const override { return "gpu-ipc"; }
  int device() const override { return device_; }
  bool in_host_memory() const override { return false; }

  portshmem_status_t start(bootstrap& boot, const config& cfg, std::vector<char*>* peers) {
    portshmem_status_t status = create(boot, cfg);
    // Handles travel even when this PE failed (zeroed), so every PE reaches the same collective calls.
    shared_heap mine;
    std::memset(&mine, 0, sizeof mine);
    if (status == PORTSHMEM_SUCCESS) status = export_handle(&mine.handle);
    mine.heap_offset = std::uint64_t(local_ - allocation_);
    std::vector<shared_heap> shared(boot.size());
    if (auto s = boot.allgather(&mine, shared.data(), sizeof mine); s != PORTSHMEM_SUCCESS) return s;
    status = agree_status(boot, status);
    if (status != PORTSHMEM_SUCCESS) return status;

    peers->assign(boot.size(), nullptr);
    for (int r : boot.node_ranks()) {
      if (r == boot.rank()) {
        (*peers)[r] = local_;
        continue;
      }
      void* p = nullptr;
      if (hipError_t e = hipIpcOpenMemHandle(&p, shared[r].handle, hipIpcMemLazyEnablePeerAccess); e != hipSuccess) {
        status = PORTSHMEM_FAIL(PORTSHMEM_ERR_UNREACHABLE,
                                "opening PE %d's heap (IPC handle) on GPU %d failed: %s; its GPU may have no peer "
                                "access to this one",
                                r, device_, hipGetErrorString(e));
        break;
      }
      opened_.push_back(static_cast<char*>(p));
      (*peers)[r] = static_cast<char*>(p) + shared[r].heap_offset;
    }
    return agree_status(boot, status);
  }

 private:
  /// What a PE tells its node peers: the handle of its allocation and where in it the heap starts.
  struct shared_heap {
    hipIpcMemHandle_t handle;
    std::uint64_t heap_offset;
  };

  portshmem_status_t create(bootstrap& boot, const config& cfg) {
    if (auto s = select_device(boot, cfg, &device_); s != PORTSHMEM_SUCCESS) return s;
    void* p = nullptr;
    if (size_ > SIZE_MAX - kHeapBaseAlignment) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_OUT_OF_MEMORY,
                            "a %zu-byte symmetric heap cannot be allocated; lower "
                            "PORTSHMEM_HEAP_SIZE",
                            size_);
    }
    if (hipError_t e = portshmem_malloc_heap(&p, size_ + kHeapBaseAlignment); e != hipSuccess) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_OUT_OF_MEMORY,
                            "allocating the %zu-byte symmetric heap on GPU %d failed: %s (PORTSHMEM_HEAP_SIZE sets it)",
                            size_, device_, hipGetErrorString(e));
    }
    allocation_ = static_cast<char*>(p);
    const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(p);
    local_ = allocation_ + ((kHeapBaseAlignment - start % kHeapBaseAlignment) % kHeapBaseAlignment);
    PORTSHMEM_GPU_CHECK(hipMemset(local_, 0, size_));
    PORTSHMEM_GPU_CHECK(hipDeviceSynchronize());
    return PORTSHMEM_SUCCESS;
  }

  portshmem_status_t export_handle(hipIpcMemHandle_t* handle) {
    PORTSHMEM_GPU_CHECK(hipIpcGetMemHandle(handle, allocation_));
    return PORTSHMEM_SUCCESS;
  }

  std::size_t size_;
  int device_ = -1;
  char* allocation_ = nullptr; // what portshmem_malloc_heap returned; the heap starts kHeapBaseAlignment-aligned in it
  char* local_ = nullptr;
  std::vector<char*> opened_;
};

/// The heaps in pinned host memory: every PE's heap is a shared-memory segment (shm_segments.hpp) that each process
/// of the node maps and registers with its GPU, so host code and kernels use the same addresses. GPU accesses cross
/// the host link (PCIe or C2C), so puts run at its speed, not at HBM's.
class gpu_host_heap final : public heap_backend {
 public:
  gpu_host_heap(std::size_t size, bool one_range) : segments_(size, one_range) {}
  ~gpu_host_heap() override {
    for (void* m : registered_) (void)hipHostUnregister(m); // teardown: nothing to do about a failure
  }
  char* local() const override { return segments_.local(); }
  const char* name() const override { return "pinned-shm"; }
  int device() const override { return device_; }
  bool in_host_memory() const override { return true; }

  portshmem_status_t start(bootstrap& boot, const config& cfg, std::vector<char*>* peers) {
    if (auto s = agree_status(boot, select_device(boot, cfg, &device_)); s != PORTSHMEM_SUCCESS) return s;
    if (auto s = segments_.start(boot, peers); s != PORTSHMEM_SUCCESS) return s;
    portshmem_status_t status = PORTSHMEM_SUCCESS;
    for (void* m : segments_.mappings()) {
      status = register_for_gpu(m);
      if (status != PORTSHMEM_SUCCESS) break;
    }
    return agree_status(boot, status);
  }

 private:
  portshmem_status_t register_for_gpu(void* m) {
    if (hipError_t e = hipHostRegister(m, segments_.size(), hipHostRegisterMapped | hipHostRegisterPortable);
        e != hipSuccess) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU,
                            "pinning a %zu-byte heap in host memory for GPU %d failed: %s (PORTSHMEM_HEAP_MEMORY=host; "
                            "lower PORTSHMEM_HEAP_SIZE or check the locked-memory limit, ulimit -l)",
                            segments_.size(), device_, hipGetErrorString(e));
    }
    registered_.push_back(m);
    void* seen = nullptr;
    PORTSHMEM_GPU_CHECK(hipHostGetDevicePointer(&seen, m, 0));
    if (seen != m) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU,
                            "GPU %d sees the pinned heap at %p, the host at %p: one pointer cannot serve both, so "
                            "PORTSHMEM_HEAP_MEMORY=host is not possible here; use PORTSHMEM_HEAP_MEMORY=device",
                            device_, seen, m);
    }
    return PORTSHMEM_SUCCESS;
  }

  shm_segments segments_;
  int device_ = -1;
  std::vector<void*> registered_;
};

/// Whether this job's heap goes to host memory (PORTSHMEM_HEAP_MEMORY; docs/env.md).
bool heap_in_host_memory(const config& cfg) {
  if (cfg.heap_memory != heap_memory_choice::automatic) return cfg.heap_memory == heap_memory_choice::host;
  // NVIDIA's device memory cannot be touched from the host; AMD's fine-grained heap is reachable through the large
  // BAR of MI-series cards.
  return heap_touched_by_host() && PORTSHMEM_PLATFORM_NVIDIA;
}

template <class Heap>
portshmem_status_t make_started(bootstrap& boot, const config& cfg, std::unique_ptr<heap_backend>* out,
                                std::vector<char*>* peers) {
  auto heap = std::make_unique<Heap>(cfg.heap_size, cfg.symmetric_range != symmetric_range_choice::off);
  if (auto s = heap->start(boot, cfg, peers); s != PORTSHMEM_SUCCESS) return s;
  *out = std::move(heap);
  return PORTSHMEM_SUCCESS;
}

/// Device memory in one symmetric range where the platform can make one (NVIDIA: the CUDA virtual memory API), else
/// IPC handles, whose mappings land wherever the driver puts them (device code then reads the peer table).
portshmem_status_t make_device_heap(bootstrap& boot, const config& cfg, std::unique_ptr<heap_backend>* out,
                                    std::vector<char*>* peers) {
  if (cfg.symmetric_range == symmetric_range_choice::off) return make_started<gpu_ipc_heap>(boot, cfg, out, peers);
#if PORTSHMEM_PLATFORM_NVIDIA
  int device = -1;
  if (auto s = agree_status(boot, select_device(boot, cfg, &device)); s != PORTSHMEM_SUCCESS) return s;
  if (make_vmm_heap(boot, cfg, device, out, peers) == PORTSHMEM_SUCCESS) return PORTSHMEM_SUCCESS;
  if (boot.rank() == 0) {
    PORTSHMEM_LOG(warn, "the heaps could not be mapped into one symmetric range (the reason is logged above): they are "
                        "shared through IPC handles, and device code looks peers up in a table (+1 memory load per "
                        "call; PORTSHMEM_SYMMETRIC_RANGE=off takes this path without trying)");
  }
#else
  // HIP's virtual memory API cannot ask for fine-grained memory (hipMemAllocationProp has no such attribute), which
  // the relaxed lowering's premises require of the heap (docs/memory_model.md), so AMD keeps hipExtMallocWithFlags.
  if (boot.rank() == 0) {
    PORTSHMEM_LOG(info, "AMD: the heaps are fine-grained allocations shared through IPC handles; device code looks "
                        "peers up in a table (HIP's virtual memory API cannot request fine-grained memory)");
  }
#endif
  return make_started<gpu_ipc_heap>(boot, cfg, out, peers);
}

} // namespace

portshmem_status_t make_heap_backend(bootstrap& boot, const config& cfg, std::unique_ptr<heap_backend>* out,
                                     std::vector<char*>* peers) {
  if (heap_in_host_memory(cfg)) {
    if (boot.rank() == 0) {
      PORTSHMEM_LOG(info,
                    "the symmetric heaps are pinned host memory (PORTSHMEM_HEAP_MEMORY=%s%s): host code may "
                    "read and write them; GPU accesses cross the host link",
                    cfg.heap_memory == heap_memory_choice::host ? "host" : "auto",
                    cfg.heap_memory == heap_memory_choice::host ? "" : ", a rocSHMEM program");
    }
    return make_started<gpu_host_heap>(boot, cfg, out, peers);
  }
  return make_device_heap(boot, cfg, out, peers);
}

} // namespace portshmem::detail
