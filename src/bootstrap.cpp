// Helpers on top of any bootstrap.
#include "bootstrap.hpp"

#include <unistd.h>

#include <random>

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

portshmem_status_t worst_status(bootstrap& boot, portshmem_status_t mine) {
  std::uint64_t lo = 0, hi = 0;
  int lo_rank = 0, hi_rank = 0;
  if (auto s = boot.min_max(std::uint64_t(mine), &lo, &lo_rank, &hi, &hi_rank); s != PORTSHMEM_SUCCESS) return s;
  return portshmem_status_t(hi);
}

portshmem_status_t job_key(bootstrap& boot, std::uint64_t* key) {
  std::uint64_t mine = std::random_device{}() * 4294967296ull + std::uint64_t(getpid());
  std::vector<std::uint64_t> keys(std::size_t(boot.size()));
  if (auto s = boot.allgather(&mine, keys.data(), sizeof mine); s != PORTSHMEM_SUCCESS) return s;
  *key = keys[0];
  return PORTSHMEM_SUCCESS;
}

void bootstrap::split_nodes(int groups) {
  const int n = size();
  if (groups <= 1 || n <= 1) return;
  // A node is now (real node, group); numbered in the order of their lowest ranks, as the real nodes are.
  std::vector<int> index(std::size_t(n) * std::size_t(groups), -1), grouped(static_cast<std::size_t>(n));
  int nodes = 0;
  for (int r = 0; r < n; ++r) {
    const std::size_t key =
        std::size_t(node_of_[std::size_t(r)]) * std::size_t(groups) + std::size_t(std::int64_t(r) * groups / n);
    if (index[key] < 0) index[key] = nodes++;
    grouped[std::size_t(r)] = index[key];
  }
  node_of_ = grouped;
  node_ranks_.clear();
  for (int r = 0; r < n; ++r) {
    if (node_of_[std::size_t(r)] != node_of_[std::size_t(rank())]) continue;
    if (r == rank()) node_rank_ = int(node_ranks_.size());
    node_ranks_.push_back(r);
  }
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
