// expect: typed RMA takes the OpenSHMEM standard RMA types
#include <portshmem/portshmem.hpp>
struct pair {
  int a, b;
};
PORTSHMEM_GLOBAL void k(portshmem::ctx c, pair* d, const pair* s) {
  portshmem::put(c, d, s, 1, 1);
}
