// expect: more than one scope qualifier
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
PORTSHMEM_GLOBAL void k(portshmem::ctx c, char* d, const char* s) {
  portshmem::putmem_block(c, d, s, 4, 1, mm::device, mm::system);
}
