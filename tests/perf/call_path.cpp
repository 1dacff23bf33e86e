// call_path: what a p, g or fetch_add costs the calling thread on its way to the access — the library's call against
// the same loop with the address arithmetic alone (no checks, no dispatch). One process and no runtime: a hand-made
// handle whose two heaps are regions of one allocation, laid out as the runtime lays out one symmetric range (the
// table too, which AMD uses), so both loops make the same accesses to the same memory and differ only in the path.
// Prints µs per iteration (median of the launches); exits 1 when a loop's result is wrong or a call recorded an error.
//   usage: call_path [-n ITERATIONS per launch, default 200] [-r LAUNCHES, default 7]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <portshmem/gpu_runtime.hpp>
#include <portshmem/portshmem.hpp>

namespace {

namespace ps = portshmem;
using word = std::uint32_t;
using counter = unsigned long long;

/// Where PE pe's copy of addr is, by arithmetic alone (the loops' yardstick).
template <class T>
PORTSHMEM_DEVICE T* bare(const ps::ctx& c, const T* addr, int pe) {
  const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(addr) - reinterpret_cast<std::uintptr_t>(c.heap);
  return reinterpret_cast<T*>(c.peer_heaps[pe] + offset);
}

/// Per iteration: the thread's p of elems words (block-strided), then its quiet and the block's barrier.
template <bool Library>
PORTSHMEM_GLOBAL void p_loop(ps::ctx c, word* dest, const word* src, unsigned elems, int pe, int iters) {
  word* const theirs = bare(c, dest, pe); // loaded once, outside the loop: arithmetic alone inside it
  for (int i = 0; i < iters; ++i) {
    for (unsigned j = ps::thread_rank(); j < elems; j += ps::block_threads()) {
      if constexpr (Library) {
        ps::p(c, dest + j, src[j], pe);
      } else {
        ps::transport::ipc::store_element(theirs + j, src[j]);
      }
    }
    ps::quiet(c);
    ps::arch::block_sync();
  }
}

/// Per iteration: the thread's g of elems words; the sum goes to *sum (so the loads stay, and are checked).
template <bool Library>
PORTSHMEM_GLOBAL void g_loop(ps::ctx c, word* sum, const word* src, unsigned elems, int pe, int iters) {
  const word* const theirs = bare(c, src, pe);
  word acc = 0;
  for (int i = 0; i < iters; ++i) {
    for (unsigned j = ps::thread_rank(); j < elems; j += ps::block_threads()) {
      if constexpr (Library) {
        acc += ps::g(c, src + j, pe);
      } else {
        acc += ps::transport::ipc::load_element(theirs + j);
      }
    }
  }
  sum[ps::thread_rank()] = acc;
}

/// Per iteration: one fetch_add of 1 on the peer's word, its old value summed into *sum.
template <bool Library>
PORTSHMEM_GLOBAL void fetch_add_loop(ps::ctx c, counter* sum, counter* target, int pe, int iters) {
  counter* const theirs = bare(c, target, pe);
  counter acc = 0;
  for (int i = 0; i < iters; ++i) {
    if constexpr (Library) {
      acc += ps::atomic_fetch_add(c, target, counter(1), pe);
    } else {
      acc += ps::transport::ipc::fetch_modify<ps::detail::rmw::add>(theirs, counter(1));
    }
  }
  *sum = acc;
}

void must(hipError_t e, const char* what) {
  if (e == hipSuccess) return;
  std::fprintf(stderr, "call_path: %s: %s\n", what, hipGetErrorString(e));
  std::exit(1);
}

/// Median µs per iteration of `launches` timed launches of launch() (after one untimed), each running iters.
template <class F>
double median_us(F launch, int iters, int launches) {
  hipEvent_t start, stop;
  must(hipEventCreate(&start), "hipEventCreate");
  must(hipEventCreate(&stop), "hipEventCreate");
  must(launch(), "launch");
  must(hipDeviceSynchronize(), "hipDeviceSynchronize");
  std::vector<double> us;
  for (int r = 0; r < launches; ++r) {
    must(hipEventRecord(start), "hipEventRecord");
    must(launch(), "launch");
    must(hipEventRecord(stop), "hipEventRecord");
    must(hipEventSynchronize(stop), "hipEventSynchronize");
    float ms = 0;
    must(hipEventElapsedTime(&ms, start, stop), "hipEventElapsedTime");
    us.push_back(double(ms) * 1000.0 / iters);
  }
  must(hipEventDestroy(start), "hipEventDestroy");
  must(hipEventDestroy(stop), "hipEventDestroy");
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

int arg(int argc, char** argv, const char* flag, int fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], flag) == 0) return std::max(1, std::atoi(argv[i + 1]));
  }
  return fallback;
}

} // namespace

int main(int argc, char** argv) {
  const int iters = arg(argc, argv, "-n", 200), launches = arg(argc, argv, "-r", 7);
  constexpr std::size_t kReserved = ps::detail::kInternalHeapBytes, kUser = 1 << 16, kStride = kReserved + kUser;
  constexpr unsigned kMaxElems = 32;

  // Two heaps one stride apart, each behind its reserved area, as the runtime maps a node's heaps.
  char* heaps = nullptr;
  must(hipMalloc(&heaps, 2 * kStride), "hipMalloc");
  must(hipMemset(heaps, 0, 2 * kStride), "hipMemset");
  char* const user[2] = {heaps + kReserved, heaps + kStride + kReserved};
  char** table = nullptr;
  must(hipMalloc(&table, sizeof user), "hipMalloc");
  must(hipMemcpy(table, user, sizeof user, hipMemcpyHostToDevice), "hipMemcpy");
  portshmem_device_error_t* error = nullptr;
  must(hipHostMalloc(&error, sizeof *error), "hipHostMalloc");
  std::memset(static_cast<void*>(error), 0, sizeof *error);

  ps::ctx c{};
  c.my_pe = 0;
  c.n_pes = 2;
  c.heap = user[0];
  c.heap_size = kUser;
  c.peer_heaps = table;
  c.peer_stride = PORTSHMEM_HAS_SYMMETRIC_RANGE ? std::int64_t(kStride) : 0;
  c.mapped_first = 0;
  c.mapped_count = PORTSHMEM_HAS_SYMMETRIC_RANGE ? 2 : 0;
  c.error = error;
  c.strict = 1;

  // The symmetric words: p's destinations, g's sources (the peer's copy holds 1..kMaxElems), the AMO's counter.
  auto* dest = reinterpret_cast<word*>(user[0]);
  auto* src_sym = reinterpret_cast<word*>(user[0] + 4096);
  auto* target = reinterpret_cast<counter*>(user[0] + 8192);
  std::vector<word> pattern(kMaxElems);
  for (unsigned j = 0; j < kMaxElems; ++j) pattern[j] = j + 1;
  must(hipMemcpy(user[1] + 4096, pattern.data(), kMaxElems * sizeof(word), hipMemcpyHostToDevice), "hipMemcpy");
  word* src = nullptr;    // p's source, ordinary device memory
  word* sums = nullptr;   // g's per-thread sums
  counter* old = nullptr; // fetch_add's sum of old values
  must(hipMalloc(&src, kMaxElems * sizeof(word)), "hipMalloc");
  must(hipMemcpy(src, pattern.data(), kMaxElems * sizeof(word), hipMemcpyHostToDevice), "hipMemcpy");
  must(hipMalloc(&sums, 256 * sizeof(word)), "hipMalloc");
  must(hipMalloc(&old, sizeof(counter)), "hipMalloc");

  bool ok = true;
  auto check_p = [&](unsigned elems) {
    std::vector<word> got(elems);
    must(hipMemcpy(got.data(), user[1], elems * sizeof(word), hipMemcpyDeviceToHost), "hipMemcpy");
    must(hipMemset(user[1], 0, kMaxElems * sizeof(word)), "hipMemset");
    if (!std::equal(got.begin(), got.end(), pattern.begin())) ok = false;
  };
  auto check_g = [&](unsigned elems) {
    word got = 0, want = 0;
    must(hipMemcpy(&got, sums, sizeof got, hipMemcpyDeviceToHost), "hipMemcpy");
    for (unsigned j = 0; j < elems; ++j) want += pattern[j];
    if (got != word(want * word(iters))) ok = false;
  };

  std::printf("# call_path (%s platform): us per iteration, median of %d launches of %d iterations, 1 thread unless "
              "said\n",
              PORTSHMEM_PLATFORM_NAME, launches, iters);
  std::printf("%-8s %10s %10s %12s %14s %10s %10s %10s\n", "loop", "p x 2", "p x 32", "per more p", "p x 8, 256 t",
              "g x 2", "g x 32", "fetch_add");
  for (int round = 0; round < 2; ++round) {
    for (bool library : {false, true}) {
      auto p = [&](unsigned elems, unsigned threads) {
        const double us = median_us(
            [&] {
              return library ? ps::launch(p_loop<true>, dim3(1), dim3(threads), c, dest, src, elems, 1, iters)
                             : ps::launch(p_loop<false>, dim3(1), dim3(threads), c, dest, src, elems, 1, iters);
            },
            iters, launches);
        check_p(elems);
        return us;
      };
      auto g = [&](unsigned elems) {
        const double us = median_us(
            [&] {
              return library ? ps::launch(g_loop<true>, dim3(1), dim3(1), c, sums, src_sym, elems, 1, iters)
                             : ps::launch(g_loop<false>, dim3(1), dim3(1), c, sums, src_sym, elems, 1, iters);
            },
            iters, launches);
        check_g(elems);
        return us;
      };
      must(hipMemset(user[1] + 8192, 0, sizeof(counter)), "hipMemset");
      const double fa = median_us(
          [&] {
            return library ? ps::launch(fetch_add_loop<true>, dim3(1), dim3(1), c, old, target, 1, iters)
                           : ps::launch(fetch_add_loop<false>, dim3(1), dim3(1), c, old, target, 1, iters);
          },
          iters, launches);
      counter total = 0;
      must(hipMemcpy(&total, user[1] + 8192, sizeof total, hipMemcpyDeviceToHost), "hipMemcpy");
      if (total != counter(launches + 1) * counter(iters)) ok = false;
      const double p2 = p(2, 1), p32 = p(32, 1), p256 = p(8, 256), g2 = g(2), g32 = g(32);
      std::printf("%-8s %10.3f %10.3f %12.4f %14.3f %10.3f %10.3f %10.3f\n", library ? "library" : "bare", p2, p32,
                  (p32 - p2) / 30, p256, g2, g32, fa);
    }
  }
  if (error->count != 0) {
    std::fprintf(stderr, "call_path: FAIL: %llu device errors recorded (first: status %u)\n",
                 static_cast<unsigned long long>(error->count), error->status);
    ok = false;
  }
  if (!ok) std::fprintf(stderr, "call_path: FAIL: a loop's result is wrong\n");
  return ok ? 0 : 1;
}
