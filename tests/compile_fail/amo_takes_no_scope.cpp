// expect: this call does not take that qualifier
// An AMO is performed coherently at system scope: what it orders is the business of fence, quiet and the waits.
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
PORTSHMEM_GLOBAL void k(portshmem::ctx c, long* l) {
  portshmem::atomic_fetch_add(c, l, 1L, 1, mm::device);
}
