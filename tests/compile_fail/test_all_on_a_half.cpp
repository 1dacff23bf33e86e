// expect: take integer types of 1, 2, 4 or 8 bytes, float and double
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
struct pair {
  int a, b;
};
PORTSHMEM_GLOBAL void k(portshmem::ctx c, long* l, std::uint64_t* s, int* iv, double* d, float* f, short* sh,
                        long long* ll, pair* pr, portshmem::half_t* h) {
  portshmem::test_all(c, h, 4, nullptr, portshmem::cmp::eq, portshmem::half_t{});
}
