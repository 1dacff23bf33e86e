// expect: this call does not take that qualifier
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
PORTSHMEM_GLOBAL void k(portshmem::ctx c, int* d, const int* s) {
  portshmem::get(c, d, s, 4, 1, mm::keep, mm::system);
}
