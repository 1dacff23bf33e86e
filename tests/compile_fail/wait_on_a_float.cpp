// expect: wait_until takes integer types of 1, 2, 4 or 8 bytes
#include <portshmem/portshmem.hpp>
PORTSHMEM_GLOBAL void k(portshmem::ctx c, float* f) {
  portshmem::wait_until(c, f, portshmem::cmp::eq, 1.0f);
}
