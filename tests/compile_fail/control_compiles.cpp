// expect: COMPILES
// The harness's control: a correct use of every qualifier category must compile, so the failures above fail for
// their stated reason and not because the harness is broken.
#include <portshmem/portshmem.hpp>
namespace mm = portshmem::mm;
PORTSHMEM_GLOBAL void k(portshmem::ctx c, long* f, char* d, const char* s, unsigned short* h) {
  portshmem::putmem_nbi_block(c, d, s, 4, 1, mm::bypass);
  portshmem::putmem(c, d, s, 4, 1, mm::keep);
  portshmem::fence(c, mm::comm, mm::node);
  portshmem::quiet(c, mm::system, mm::all);
  portshmem::wait_until(c, f, portshmem::cmp::ge, 1L, mm::comm, mm::device);
  portshmem::wait_until(c, f, portshmem::cmp::ge, 1L, mm::relaxed);
  portshmem::barrier_all_block(c, mm::comm);
  portshmem::sync_all(c, mm::device);
  portshmem::wait_until(c, h, portshmem::cmp::eq, static_cast<unsigned short>(portshmem::g(c, h, 1) + 1), mm::comm);
  portshmem::p(c, d, portshmem::g(c, s, 0), 1);
}
