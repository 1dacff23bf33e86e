// expect: this call does not take that qualifier
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
PORTSHMEM_GLOBAL void k(portshmem::ctx c, const short* s, short* out) {
  *out = portshmem::g(c, s, 1, mm::device);
}
