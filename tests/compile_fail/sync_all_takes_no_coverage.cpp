// expect: this call does not take that qualifier
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
PORTSHMEM_GLOBAL void k(portshmem::ctx c) {
  portshmem::sync_all_block(c, mm::comm);
}
