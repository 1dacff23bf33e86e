// expect: more than one coverage qualifier
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
PORTSHMEM_GLOBAL void k(portshmem::ctx c) {
  portshmem::quiet(c, mm::all, mm::comm);
}
