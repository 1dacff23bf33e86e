// expect: this call does not take that qualifier
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
PORTSHMEM_GLOBAL void k(portshmem::ctx c, const std::uint64_t* s, std::uint64_t* out) {
  *out = portshmem::signal_fetch(c, s, mm::node);
}
