// 03_put_signal: each PE hands a block of floats to the next PE with one put-with-signal, covered by mm::comm: the
// data travels past the caches and the signal is ordered after it with no cache write-back. The receiver waits on
// its signal (acquire) and checks every element.
//   portshmem-run -np 4 ./03_put_signal
#include <cstdio>
#include <vector>

#include <portshmem/portshmem.hpp>

#include "check.hpp"

namespace mm = portshmem::mm;

constexpr std::size_t kFloats = 1 << 16;

PORTSHMEM_GLOBAL void pass(portshmem::ctx c, float* inbox, const float* mine, std::size_t n, std::uint64_t* ready) {
  const int next = (portshmem::my_pe(c) + 1) % portshmem::n_pes(c);
  // Bypass data + a comm-covered signal: ordered without an L2 write-back (MI300: a wait, not buffer_wbl2).
  portshmem::put_signal_block(c, inbox, mine, n, ready, 1, portshmem::signal_set, next, mm::comm);
  if (portshmem::thread_rank() == 0) portshmem::signal_wait_until(c, ready, portshmem::cmp::eq, std::uint64_t(1));
}

int main() {
  if (portshmem_init() != PORTSHMEM_SUCCESS) return 1;
  const int me = portshmem_my_pe(), n = portshmem_n_pes();
  portshmem::ctx c;
  portshmem_get_ctx(&c);
  auto* inbox = static_cast<float*>(portshmem_malloc(kFloats * sizeof(float)));
  auto* ready = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  float* mine = nullptr;
  std::vector<float> host(kFloats);
  for (std::size_t i = 0; i < kFloats; ++i) host[i] = float(me) + float(i) / kFloats;
  bool ok = hipMalloc(&mine, kFloats * sizeof(float)) == hipSuccess &&
            hipMemcpy(mine, host.data(), kFloats * sizeof(float), hipMemcpyHostToDevice) == hipSuccess;
  portshmem_barrier_all(); // every PE's signal word is cleared before anyone signals

  // A PE whose signal never comes gives up after PORTSHMEM_TIMEOUT, prints why, and ends the job here.
  example::check_kernel(portshmem::launch(pass, dim3(1), dim3(PORTSHMEM_PLATFORM_HOST ? 8 : 256), c, inbox,
                                          static_cast<const float*>(mine), kFloats, ready),
                        "pass");
  ok = ok && hipMemcpy(host.data(), inbox, kFloats * sizeof(float), hipMemcpyDeviceToHost) == hipSuccess;
  const int from = (me + n - 1) % n;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < kFloats; ++i) wrong += host[i] != float(from) + float(i) / kFloats;
  std::printf("PE %d of %d (%s): %zu floats from PE %d, %zu wrong\n", me, n, portshmem_platform(), kFloats, from,
              wrong);
  ok = ok && wrong == 0;
  portshmem_barrier_all();
  (void)hipFree(mine);
  portshmem_free(ready);
  portshmem_free(inbox);
  portshmem_finalize();
  return ok ? 0 : 1;
}
