// expect: wait_until takes 4- or 8-byte integer types
#include <portshmem/portshmem.hpp>
PORTSHMEM_GLOBAL void k(portshmem::ctx c, short* f) {
  portshmem::wait_until(c, f, portshmem::cmp::eq, short(1));
}
