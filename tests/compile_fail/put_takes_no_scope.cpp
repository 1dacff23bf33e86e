// expect: this call does not take that qualifier
// A put's data is always written coherently at system scope: a scope belongs on the call that orders it.
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
PORTSHMEM_GLOBAL void k(portshmem::ctx c, char* d, const char* s) {
  portshmem::putmem_block(c, d, s, 4, 1, mm::device);
}
