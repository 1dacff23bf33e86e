// expect: this AMO takes the OpenSHMEM standard AMO types
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
struct pair {
  int a, b;
};
PORTSHMEM_GLOBAL void k(portshmem::ctx c, long* l, std::uint64_t* s, int* iv, double* d, float* f, short* sh,
                        long long* ll, pair* pr) {
  portshmem::atomic_fetch_add(c, f, 1.0f, 1);
}
