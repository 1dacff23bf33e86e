// expect: take integer types of 1, 2, 4 or 8 bytes
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
struct pair {
  int a, b;
};
PORTSHMEM_GLOBAL void k(portshmem::ctx c, long* l, std::uint64_t* s, int* iv, double* d, float* f, short* sh,
                        long long* ll, pair* pr) {
  portshmem::test_all(c, d, 4, nullptr, portshmem::cmp::eq, 1.0);
}
