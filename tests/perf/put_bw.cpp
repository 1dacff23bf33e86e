// Put bandwidth, block form, against a plain copy kernel writing into the peer's IPC-mapped buffer, in one run.
// PE 0 sends to PE 1 (the other PEs wait); each size is timed with events around the kernel, median of repeats.
//   portshmem-run -np 2 ./put_bw [max_bytes]
// Prints one row per size: bytes, put GB/s with the bypass data path (the default) and with keep, copy GB/s, and
// the ratio of the default put to the copy.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <portshmem/portshmem.hpp>

namespace {

constexpr int kRepeats = 9;

/// Block b of the grid puts its contiguous share of the buffer with the block form, then completes it.
template <class Path>
PORTSHMEM_GLOBAL void put_kernel(portshmem::ctx c, char* dest, const char* src, std::size_t bytes, int pe) {
  const std::size_t b = portshmem::arch::block_rank(), blocks = portshmem::arch::grid_blocks();
  const std::size_t begin = bytes * b / blocks, end = bytes * (b + 1) / blocks;
  portshmem::putmem_nbi_block(c, dest + begin, src + begin, end - begin, pe, Path{});
  if (portshmem::arch::thread_rank() == 0) portshmem::quiet(c);
}

/// The yardstick: what a kernel author writes by hand — a grid-stride 16-byte copy through the peer pointer.
PORTSHMEM_GLOBAL void copy_kernel(portshmem::arch::vec16* dest, const portshmem::arch::vec16* src, std::size_t n) {
  const std::size_t stride = std::size_t(portshmem::arch::grid_blocks()) * portshmem::arch::block_threads();
  for (std::size_t i = std::size_t(portshmem::arch::block_rank()) * portshmem::arch::block_threads() +
                       portshmem::arch::thread_rank();
       i < n; i += stride) {
    dest[i] = src[i];
  }
}

template <class Launch>
double median_ms(const Launch& launch) {
  hipEvent_t start, stop;
  hipEventCreate(&start);
  hipEventCreate(&stop);
  launch(); // warm-up: first touch, caches, clocks
  hipDeviceSynchronize();
  std::vector<float> ms;
  for (int r = 0; r < kRepeats; ++r) {
    hipEventRecord(start);
    launch();
    hipEventRecord(stop);
    hipEventSynchronize(stop);
    float t = 0;
    hipEventElapsedTime(&t, start, stop);
    ms.push_back(t);
  }
  hipEventDestroy(start);
  hipEventDestroy(stop);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  const std::size_t max_bytes = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::size_t(1) << 30);
  // The heap must hold the largest destination; the source is private memory.
  const std::string heap = std::to_string(max_bytes + (64u << 20));
  setenv("PORTSHMEM_HEAP_SIZE", heap.c_str(), 0);
  if (portshmem_init() != PORTSHMEM_SUCCESS) return 1;
  const int me = portshmem_my_pe();
  if (portshmem_n_pes() < 2) {
    std::fprintf(stderr, "put_bw needs at least 2 PEs\n");
    portshmem_finalize();
    return 1;
  }
  portshmem::ctx c;
  portshmem_get_ctx(&c);
  char* dest = static_cast<char*>(portshmem_malloc(max_bytes)); // collective: fails on every PE or on none
  char* src = nullptr;
  if (!dest || hipMalloc(&src, max_bytes) != hipSuccess) {
    std::fprintf(stderr, "put_bw: PE %d could not allocate %zu bytes (%s); the heap needs PORTSHMEM_HEAP_SIZE >= %s\n",
                 me, max_bytes, dest ? "private buffer" : portshmem_status_string(portshmem_last_status()),
                 heap.c_str());
    portshmem_finalize();
    return 1;
  }
  hipMemset(src, 0x5a, max_bytes); // never time on zeros
  hipDeviceSynchronize();

  // One block per multiprocessor (per CPU core on the host platform), as NVSHMEM's bandwidth tests run.
  int device = 0;
  hipGetDevice(&device);
  hipDeviceProp_t prop;
  hipGetDeviceProperties(&prop, device);
  const unsigned blocks = unsigned(prop.multiProcessorCount), threads = PORTSHMEM_PLATFORM_HOST ? 1 : 1024;
  portshmem_barrier_all();
  if (me == 0) {
    auto* peer = static_cast<portshmem::arch::vec16*>(portshmem_ptr(dest, 1));
    std::printf("# put_bw: PE 0 -> PE 1, %s platform, %u blocks x %u threads, median of %d\n", portshmem_platform(),
                blocks, threads, kRepeats);
    std::printf("%12s %14s %12s %12s %8s\n", "bytes", "put_GB/s", "put_keep", "copy_GB/s", "put/copy");
    for (std::size_t bytes = std::size_t(1) << 20; bytes <= max_bytes; bytes *= 2) {
      const double put_ms = median_ms([&] {
        portshmem::launch(put_kernel<portshmem::mm::bypass_t>, dim3(blocks), dim3(threads), c, dest,
                          static_cast<const char*>(src), bytes, 1);
      });
      const double keep_ms = median_ms([&] {
        portshmem::launch(put_kernel<portshmem::mm::keep_t>, dim3(blocks), dim3(threads), c, dest,
                          static_cast<const char*>(src), bytes, 1);
      });
      const double copy_ms = median_ms([&] {
        portshmem::launch(copy_kernel, dim3(blocks), dim3(threads), peer,
                          reinterpret_cast<const portshmem::arch::vec16*>(src), bytes / 16);
      });
      const double put_gbs = double(bytes) / put_ms / 1e6, copy_gbs = double(bytes) / copy_ms / 1e6;
      std::printf("%12zu %14.1f %12.1f %12.1f %8.3f\n", bytes, put_gbs, double(bytes) / keep_ms / 1e6, copy_gbs,
                  put_gbs / copy_gbs);
    }
    std::fflush(stdout);
  }
  portshmem_barrier_all();
  const bool ok = portshmem_check_device_errors() == PORTSHMEM_SUCCESS;
  hipFree(src);
  portshmem_free(dest);
  portshmem_finalize();
  return ok ? 0 : 1;
}
