// expect: take 4- or 8-byte integer types
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
struct pair {
  int a, b;
};
PORTSHMEM_GLOBAL void k(portshmem::ctx c, long* l, std::uint64_t* s, int* iv, double* d, float* f, short* sh,
                        long long* ll, pair* pr) {
  portshmem::wait_until_any(c, sh, 4, nullptr, portshmem::cmp::eq, short(1));
}
