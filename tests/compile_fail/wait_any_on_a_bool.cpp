// expect: take integer types of 1, 2, 4 or 8 bytes, float and double
#include <portshmem/portshmem.hpp>
PORTSHMEM_GLOBAL void k(portshmem::ctx c, bool* b) {
  portshmem::wait_until_any(c, b, 4, nullptr, portshmem::cmp::eq, true);
}
