// expect: more than one signal-strength qualifier
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
struct pair {
  int a, b;
};
PORTSHMEM_GLOBAL void k(portshmem::ctx c, long* l, std::uint64_t* s, int* iv, double* d, float* f, short* sh,
                        long long* ll, pair* pr) {
  portshmem::put_signal(c, l, l, 4, s, 1, portshmem::signal_set, 1, mm::weak, mm::strong);
}
