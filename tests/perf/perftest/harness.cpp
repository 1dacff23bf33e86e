// The timing loop, data patterns and checks of the suite (harness.hpp). Host code; GPU events and copies through the
// HIP names of portshmem/gpu_runtime.hpp (CUDA on NVIDIA, the CPU on the host platform), whatever the backend.
#include "harness.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <portshmem/gpu_runtime.hpp>

namespace pt {

namespace {

void must(hipError_t e, const char* what) {
  if (e == hipSuccess) return;
  std::fprintf(stderr, "perftest: %s failed: %s\n", what, hipGetErrorString(e));
  MPI_Abort(MPI_COMM_WORLD, 1);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

} // namespace

measured measure(const options& o, bool active, const launcher& launch, const std::function<void()>& reset) {
  hipEvent_t start, stop;
  must(hipEventCreate(&start), "hipEventCreate");
  must(hipEventCreate(&stop), "hipEventCreate");
  bool ok = true;
  host::barrier();
  reset(); // the warm-up starts from the same state as the timed launches (a ping-pong's flag at 0)
  must(hipDeviceSynchronize(), "hipDeviceSynchronize");
  host::barrier();
  if (active && o.warmup > 0) ok = launch(o.warmup);
  must(hipDeviceSynchronize(), "hipDeviceSynchronize");
  std::vector<double> us;
  for (int r = 0; r < o.repeats; ++r) {
    host::barrier(); // every PE's earlier launch has ended: the reset races with nothing
    reset();
    must(hipDeviceSynchronize(), "hipDeviceSynchronize");
    host::barrier(); // the guards are in place before any PE's launch writes
    double mine = 0;
    if (active) {
      must(hipEventRecord(start), "hipEventRecord");
      ok = launch(o.iters) && ok;
      must(hipEventRecord(stop), "hipEventRecord");
      must(hipEventSynchronize(stop), "hipEventSynchronize");
      float ms = 0;
      must(hipEventElapsedTime(&ms, start, stop), "hipEventElapsedTime");
      mine = double(ms) * 1000.0 / o.iters;
    }
    us.push_back(max_over_pes(mine));
  }
  host::barrier(); // every PE's last launch has ended before anyone checks
  must(hipEventDestroy(start), "hipEventDestroy");
  must(hipEventDestroy(stop), "hipEventDestroy");
  return {median(us), ok};
}

std::uint8_t pattern(int pe, std::size_t i) {
  const auto v = std::uint8_t((i * 131u) ^ (i >> 8) ^ (std::size_t(pe) * 77u + 29u));
  return v == kGuard ? std::uint8_t(0x5A) : v;
}

void fill_pattern(void* dev, std::size_t n, int pe) {
  std::vector<std::uint8_t> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = pattern(pe, i);
  must(hipMemcpy(dev, h.data(), n, hipMemcpyHostToDevice), "hipMemcpy");
}

void fill_bytes(void* dev, std::size_t n, std::uint8_t v) {
  must(hipMemset(dev, v, n), "hipMemset");
}

void copy_out(void* host_dst, const void* dev, std::size_t n) {
  must(hipMemcpy(host_dst, dev, n, hipMemcpyDeviceToHost), "hipMemcpy");
}

void copy_in(void* dev, const void* host_src, std::size_t n) {
  must(hipMemcpy(dev, host_src, n, hipMemcpyHostToDevice), "hipMemcpy");
}

std::size_t pattern_mismatches(const void* dev, std::size_t n, int pe, const char* what, std::size_t size) {
  std::vector<std::uint8_t> h(n);
  copy_out(h.data(), dev, n);
  static const bool corrupt = std::getenv("PERFTEST_CORRUPT") && std::string(std::getenv("PERFTEST_CORRUPT")) == "1";
  if (corrupt && n > 0) h[0] = std::uint8_t(~pattern(pe, 0)); // the smoke test's wrong byte (smoke.sh)
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (h[i] == pattern(pe, i)) continue;
    if (wrong++ == 0) {
      std::fprintf(stderr, "FAIL: %s, size %zu: PE %d byte %zu is 0x%02x, expected 0x%02x (PE %d's data)\n", what, size,
                   host::my_pe(), i, h[i], pattern(pe, i), pe);
    }
  }
  return wrong;
}

long sum_over_pes(long v) {
  long s = v;
  MPI_Allreduce(&v, &s, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

double max_over_pes(double v) {
  double m = v;
  MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

double value_of(metric m, double us, double bytes_per_iter, double calls_per_iter) {
  if (m == metric::latency) return us;
  const double seconds = us * 1e-6;
  return m == metric::bandwidth ? bytes_per_iter / seconds / 1e9 : calls_per_iter / seconds / 1e6;
}

} // namespace pt
