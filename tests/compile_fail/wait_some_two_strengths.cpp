// expect: more than one acquire-strength qualifier
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
struct pair {
  int a, b;
};
PORTSHMEM_GLOBAL void k(portshmem::ctx c, long* l, std::uint64_t* s, int* iv, double* d, float* f, short* sh,
                        long long* ll, pair* pr) {
  std::size_t x[4];
  portshmem::wait_until_some_vector(c, iv, 4, x, nullptr, portshmem::cmp::eq, iv, mm::comm, mm::relaxed);
}
