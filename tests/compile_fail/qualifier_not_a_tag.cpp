// expect: is not a portshmem::mm qualifier
#include <portshmem/portshmem.hpp>
PORTSHMEM_GLOBAL void k(portshmem::ctx c, char* d, const char* s) {
  portshmem::putmem(c, d, s, 4, 1, 7);
}
