// 02_ring: every PE's buffer travels once around the ring. Each round a block passes the buffer it holds to the next
// PE with put_nbi + quiet, adds one to every element it receives, and the PEs meet at a barrier; after n rounds each
// buffer is home again, bumped once by every PE, and each PE checks its own.
//   mpirun -np 4 ./02_ring
#include <cstdio>
#include <vector>

#include <portshmem/portshmem.hpp>

#include "check.hpp"

constexpr std::size_t kElements = 1 << 20;

PORTSHMEM_GLOBAL void ring(portshmem::ctx c, int* held, int* inbox) {
  const int n = portshmem::n_pes(c), next = (portshmem::my_pe(c) + 1) % n;
  const unsigned t = portshmem::thread_rank(), threads = portshmem::block_threads();
  for (int round = 0; round < n; ++round) {
    portshmem::put_nbi_block(c, inbox, held, kElements, next); // start passing the held buffer on
    if (t == 0) portshmem::quiet(c);                           // ...and complete it
    portshmem::barrier_all_block(c);                           // every PE's buffer has arrived
    for (std::size_t i = t; i < kElements; i += threads) held[i] = inbox[i] + 1;
    portshmem::sync_all_block(c); // nobody refills an inbox its owner is still reading
  }
}

int main() {
  if (portshmem_init() != PORTSHMEM_SUCCESS) return 1;
  const int me = portshmem_my_pe(), n = portshmem_n_pes();
  portshmem::ctx c;
  portshmem_get_ctx(&c);
  int* held = static_cast<int*>(portshmem_malloc(kElements * sizeof(int)));
  int* inbox = static_cast<int*>(portshmem_malloc(kElements * sizeof(int)));
  std::vector<int> host(kElements);
  for (std::size_t i = 0; i < kElements; ++i) host[i] = int(i) * 7 + me * 1000;
  bool ok = hipMemcpy(held, host.data(), kElements * sizeof(int), hipMemcpyHostToDevice) == hipSuccess;

  example::check_kernel(portshmem::launch(ring, dim3(1), dim3(PORTSHMEM_PLATFORM_HOST ? 8 : 256), c, held, inbox),
                        "ring"); // a device error ends the job here
  ok = ok && hipMemcpy(host.data(), held, kElements * sizeof(int), hipMemcpyDeviceToHost) == hipSuccess;

  std::size_t wrong = 0;
  for (std::size_t i = 0; i < kElements; ++i) wrong += host[i] != int(i) * 7 + me * 1000 + n;
  std::printf("PE %d of %d (%s): buffer of %zu ints came back after %d hops, %zu wrong\n", me, n, portshmem_platform(),
              kElements, n, wrong);
  ok = ok && wrong == 0;
  portshmem_free(inbox);
  portshmem_free(held);
  portshmem_finalize();
  return ok ? 0 : 1;
}
