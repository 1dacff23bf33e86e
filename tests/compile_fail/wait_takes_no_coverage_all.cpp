// expect: this call does not take that qualifier
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
PORTSHMEM_GLOBAL void k(portshmem::ctx c, long* f) {
  portshmem::wait_until(c, f, portshmem::cmp::eq, 1L, mm::all);
}
