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

std::string describe_pes(const std::vector<int>& pes) {
  constexpr int kRunsShown = 8;
  std::string text = pes.size() == 1 ? "PE " : "PEs ";
  int runs = 0;
  for (std::size_t i = 0; i < pes.size();) {
    std::size_t j = i;
    while (j + 1 < pes.size() && pes[j + 1] == pes[j] + 1) ++j;
    if (runs == kRunsShown) return text + " and " + std::to_string(pes.size() - i) + " more";
    text += (runs++ ? ", " : "") + std::to_string(pes[i]) + (j > i ? "-" + std::to_string(pes[j]) : "");
    i = j + 1;
  }
  return text;
}

} // namespace portshmem::detail
