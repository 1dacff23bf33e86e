// expect: this call does not take that qualifier
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
struct pair {
  int a, b;
};
PORTSHMEM_GLOBAL void k(portshmem::ctx c, long* l, std::uint64_t* s, int* iv, double* d, float* f, short* sh,
                        long long* ll, pair* pr) {
  portshmem::signal_op(c, s, 1, portshmem::signal_add, 1, mm::acquire);
}
