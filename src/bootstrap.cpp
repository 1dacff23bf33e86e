// Helpers on top of any bootstrap.
#include "bootstrap.hpp"
#include "log.hpp"

namespace portshmem::detail {

portshmem_status_t agree_status(bootstrap& boot, portshmem_status_t mine) {
  std::uint64_t lo = 0, hi = 0;
  int lo_rank = 0, hi_rank = 0;
  if (auto s = boot.min_max(std::uint64_t(mine), &lo, &lo_rank, &hi, &hi_rank); s != PORTSHMEM_SUCCESS) return s;
  if (hi != PORTSHMEM_SUCCESS && mine == PORTSHMEM_SUCCESS) {
    PORTSHMEM_LOG(error, "PE %d failed (%s; see its message), so this PE stops too", hi_rank,
                  portshmem_status_string(portshmem_status_t(hi)));
  }
  return portshmem_status_t(hi);
}

} // namespace portshmem::detail
