// NVIDIA heaps in one symmetric range (symmetric_range.hpp) through the CUDA virtual-memory API: each PE creates its
// heap as a physical allocation on its GPU, exports it as a file descriptor, passes that to its node peers
// (fd_exchange.hpp), and every process maps all of the node's heaps into one reserved address range at a fixed
// stride, with read-write access for its own GPU. The memory is the same device memory cudaMalloc gives (the memory
// model's NVIDIA premises are about the GPU, not the allocator); what changes is only where peers appear, so device
// code computes a peer's address instead of loading it from a table. The driver's entry points are looked up at run
// time (no link to libcuda): a driver without them, a GPU without peer access, or anything else failing sends every PE
// back to the IPC heap (gpu_ipc_heap.cpp), with the reason logged.
#include <cuda.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "fd_exchange.hpp"
#include "gpu_heaps.hpp"
#include "log.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "symmetric_range.hpp"

namespace portshmem::detail {
namespace {

/// The driver calls this backend makes, resolved through the runtime (cudaGetDriverEntryPointByVersion).
struct driver_api {
  decltype(&::cuGetErrorString) get_error_string = nullptr;
  decltype(&::cuDeviceGet) device_get = nullptr;
  decltype(&::cuDeviceGetAttribute) device_get_attribute = nullptr;
  decltype(&::cuMemGetAllocationGranularity) granularity = nullptr;
  decltype(&::cuMemCreate) create = nullptr;
  decltype(&::cuMemRelease) release = nullptr;
  decltype(&::cuMemExportToShareableHandle) export_handle = nullptr;
  decltype(&::cuMemImportFromShareableHandle) import_handle = nullptr;
  decltype(&::cuMemAddressReserve) reserve = nullptr;
  decltype(&::cuMemAddressFree) address_free = nullptr;
  decltype(&::cuMemMap) map = nullptr;
  decltype(&::cuMemUnmap) unmap = nullptr;
  decltype(&::cuMemSetAccess) set_access = nullptr;

  /// Resolves every entry point; the name of the first the driver lacks, or nullptr.
  const char* load() {
    const char* missing = nullptr;
    auto get = [&missing](const char* name, auto& fn) {
      void* p = nullptr;
      cudaDriverEntryPointQueryResult found{};
      if (!missing && (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &found) != cudaSuccess ||
                       found != cudaDriverEntryPointSuccess || !p)) {
        missing = name;
      }
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
    };
    get("cuGetErrorString", get_error_string);
    get("cuDeviceGet", device_get);
    get("cuDeviceGetAttribute", device_get_attribute);
    get("cuMemGetAllocationGranularity", granularity);
    get("cuMemCreate", create);
    get("cuMemRelease", release);
    get("cuMemExportToShareableHandle", export_handle);
    get("cuMemImportFromShareableHandle", import_handle);
    get("cuMemAddressReserve", reserve);
    get("cuMemAddressFree", address_free);
    get("cuMemMap", map);
    get("cuMemUnmap", unmap);
    get("cuMemSetAccess", set_access);
    (void)cudaGetLastError();
    return missing;
  }

  std::string error(CUresult r) const {
    const char* text = nullptr;
    if (get_error_string && get_error_string(r, &text) == CUDA_SUCCESS && text) return text;
    return "CUresult " + std::to_string(int(r));
  }
};

#define PORTSHMEM_CU_CHECK(call)                                                                                       \
  do {                                                                                                                 \
    if (CUresult r_ = (call); r_ != CUDA_SUCCESS) {                                                                    \
      return PORTSHMEM_FAIL_AT(warn, PORTSHMEM_ERR_GPU, "%s failed: %s", #call, cu_.error(r_).c_str());                \
    }                                                                                                                  \
  } while (0)

class gpu_vmm_heap final : public heap_backend {
 public:
  gpu_vmm_heap(std::size_t size, int device) : size_(size), device_(device) {}
  ~gpu_vmm_heap() override { // teardown: nothing to do about a failure
    for (CUdeviceptr at : mapped_) (void)cu_.unmap(at, bytes_);
    for (CUmemGenericAllocationHandle h : handles_) (void)cu_.release(h);
    if (range_) (void)cu_.address_free(range_, layout_.bytes());
    if (exported_ >= 0) close(exported_);
  }
  char* local() const override { return local_; }
  const char* name() const override { return "gpu-vmm"; }
  int device() const override { return device_; }
  bool in_host_memory() const override { return false; }

  /// Collective: every PE maps the node's heaps, or every PE fails (and frees what it made).
  portshmem_status_t start(bootstrap& boot, std::vector<char*>* peers) {
    std::uint64_t job = 0;
    if (auto s = job_key(boot, &job); s != PORTSHMEM_SUCCESS) return s;
    portshmem_status_t status = create(boot);
    if (auto s = worst_status(boot, status); s != PORTSHMEM_SUCCESS) return s;
    std::vector<int> theirs;
    if (auto s = exchange_fds(boot, job, exported_, kExchangeTimeoutNs, &theirs); s != PORTSHMEM_SUCCESS) return s;
    status = map_all(boot, theirs, peers);
    for (int fd : theirs)
      if (fd >= 0) close(fd);
    if (status == PORTSHMEM_SUCCESS &&
        (hipMemset(local_, 0, size_) != hipSuccess || hipDeviceSynchronize() != hipSuccess))
      status = PORTSHMEM_FAIL_AT(warn, PORTSHMEM_ERR_GPU, "clearing the %zu-byte heap failed", size_);
    return worst_status(boot, status);
  }

 private:
  static constexpr std::uint64_t kExchangeTimeoutNs = 60'000'000'000ull;

  /// This PE's heap: a physical allocation on its GPU that can be exported as a file descriptor, and the range.
  portshmem_status_t create(const bootstrap& boot) {
    if (const char* missing = cu_.load()) {
      return PORTSHMEM_FAIL_AT(warn, PORTSHMEM_ERR_GPU, "the CUDA driver has no %s (the virtual memory API)", missing);
    }
    CUdevice dev = 0;
    PORTSHMEM_CU_CHECK(cu_.device_get(&dev, device_));
    int vmm = 0, fd_handles = 0;
    PORTSHMEM_CU_CHECK(cu_.device_get_attribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev));
    PORTSHMEM_CU_CHECK(
        cu_.device_get_attribute(&fd_handles, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, dev));
    if (!vmm || !fd_handles) {
      return PORTSHMEM_FAIL_AT(warn, PORTSHMEM_ERR_GPU, "GPU %d does not support %s", device_,
                               !vmm ? "the virtual memory API" : "exporting allocations as file descriptors");
    }
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    std::size_t granularity = 0;
    PORTSHMEM_CU_CHECK(cu_.granularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    layout_ = node_range_layout(boot, size_, granularity);
    if (layout_.slots == 0)
      return PORTSHMEM_FAIL_AT(warn, PORTSHMEM_ERR_GPU, "the node's heaps do not fit one address range");
    bytes_ = layout_.stride - layout_.unit; // the heap rounded up to whole units; the gap after it stays unmapped
    CUmemGenericAllocationHandle own = 0;
    PORTSHMEM_CU_CHECK(cu_.create(&own, bytes_, &prop, 0));
    handles_.push_back(own);
    PORTSHMEM_CU_CHECK(cu_.export_handle(&exported_, own, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    PORTSHMEM_CU_CHECK(cu_.reserve(&range_, layout_.bytes(), layout_.unit, 0, 0));
    return PORTSHMEM_SUCCESS;
  }

  /// Maps rank r's heap (this PE's own allocation, or the one imported from theirs[r]) into its slot, for every rank
  /// of the node, with read-write access for this PE's GPU.
  portshmem_status_t map_all(const bootstrap& boot, const std::vector<int>& theirs, std::vector<char*>* peers) {
    peers->assign(std::size_t(boot.size()), nullptr);
    CUmemAccessDesc access{};
    access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access.location.id = device_;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    for (int r : boot.node_ranks()) {
      CUmemGenericAllocationHandle h = handles_.front();
      if (r != boot.rank()) {
        void* fd = reinterpret_cast<void*>(std::intptr_t(theirs[std::size_t(r)]));
        PORTSHMEM_CU_CHECK(cu_.import_handle(&h, fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
        handles_.push_back(h);
      }
      const CUdeviceptr at = range_ + layout_.offset_of(r);
      PORTSHMEM_CU_CHECK(cu_.map(at, bytes_, 0, h, 0));
      mapped_.push_back(at);
      if (CUresult e = cu_.set_access(at, bytes_, &access, 1); e != CUDA_SUCCESS) {
        return PORTSHMEM_FAIL_AT(warn, PORTSHMEM_ERR_UNREACHABLE,
                                 "giving GPU %d access to PE %d's heap failed: %s (no peer "
                                 "access between the two GPUs?)",
                                 device_, r, cu_.error(e).c_str());
      }
      (*peers)[std::size_t(r)] = reinterpret_cast<char*>(at);
    }
    local_ = (*peers)[std::size_t(boot.rank())];
    return PORTSHMEM_SUCCESS;
  }

  driver_api cu_;
  std::size_t size_;
  int device_;
  range_layout layout_;
  std::size_t bytes_ = 0;                             // each mapping: the heap rounded up to the granularity
  CUdeviceptr range_ = 0;                             // the reserved range, layout_.bytes() long
  int exported_ = -1;                                 // this PE's allocation as a file descriptor
  std::vector<CUmemGenericAllocationHandle> handles_; // this PE's allocation first, then the imported ones
  std::vector<CUdeviceptr> mapped_;
  char* local_ = nullptr;
};

} // namespace

portshmem_status_t make_vmm_heap(bootstrap& boot, const config& cfg, int device, std::unique_ptr<heap_backend>* out,
                                 std::vector<char*>* peers) {
  auto heap = std::make_unique<gpu_vmm_heap>(cfg.heap_size, device);
  if (auto s = heap->start(boot, peers); s != PORTSHMEM_SUCCESS) {
    peers->clear();
    return s;
  }
  *out = std::move(heap);
  return PORTSHMEM_SUCCESS;
}

} // namespace portshmem::detail
