// 01_hello: each PE writes its number into the next PE's symmetric variable, then all meet at a barrier.
//   mpirun -np 4 ./01_hello
#include <cstdio>

#include <portshmem/portshmem.hpp>

#include "check.hpp"

PORTSHMEM_GLOBAL void hello(portshmem::ctx c, int* inbox) {
  const int next = (portshmem::my_pe(c) + 1) % portshmem::n_pes(c);
  portshmem::p(c, inbox, portshmem::my_pe(c), next); // one int into the next PE's inbox
  portshmem::barrier_all(c);                         // quiet (the p is complete) + every PE has arrived
}

int main() {
  if (portshmem_init() != PORTSHMEM_SUCCESS) return 1;
  const int me = portshmem_my_pe(), n = portshmem_n_pes();
  portshmem::ctx c;
  portshmem_get_ctx(&c);
  int* inbox = static_cast<int*>(portshmem_calloc(1, sizeof(int)));

  example::check_kernel(portshmem::launch(hello, dim3(1), dim3(1), c, inbox), "hello"); // or the job ends here
  int got = -1;
  const bool copied = hipMemcpy(&got, inbox, sizeof got, hipMemcpyDeviceToHost) == hipSuccess;

  const int expected = (me + n - 1) % n;
  std::printf("PE %d of %d (%s): received %d from PE %d\n", me, n, portshmem_platform(), got, expected);
  const bool ok = copied && got == expected;
  portshmem_free(inbox);
  portshmem_finalize();
  return ok ? 0 : 1;
}
