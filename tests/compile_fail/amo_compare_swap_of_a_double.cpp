// expect: this AMO takes the OpenSHMEM standard AMO types
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
struct pair {
  int a, b;
};
PORTSHMEM_GLOBAL void k(portshmem::ctx c, long* l, std::uint64_t* s, int* iv, double* d, float* f, short* sh,
                        long long* ll, pair* pr) {
  portshmem::atomic_compare_swap(c, d, 0.0, 1.0, 1);
}
