// expect: take integer types of 1, 2, 4 or 8 bytes
#include <portshmem/portshmem.hpp>
PORTSHMEM_GLOBAL void k(portshmem::ctx c, float* f) {
  portshmem::wait_until_any(c, f, 4, nullptr, portshmem::cmp::eq, 1.0f);
}
