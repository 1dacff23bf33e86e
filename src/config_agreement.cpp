#include "config_agreement.hpp"

#include <cstring>
#include <vector>

#include "log.hpp"

namespace portshmem::detail {
namespace {

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

/// A NUL-terminated field of a report read back without trusting its terminator.
std::string field(const char* text, std::size_t bytes) {
  return std::string(text, strnlen(text, bytes));
}

std::string parse_failures(std::span<const config_report> all, const std::vector<int>& failed) {
  constexpr std::size_t kShown = 2; // one line stays readable; the others' messages differ only by value, usually
  std::string text =
      "the PORTSHMEM_* environment of " + describe_pes(failed) + " does not parse, so init fails on every PE";
  for (std::size_t i = 0; i < failed.size() && i < kShown; ++i) {
    const config_report& r = all[std::size_t(failed[i])];
    text += "; PE " + std::to_string(failed[i]) + ": " + field(r.error, sizeof r.error);
  }
  if (failed.size() > kShown) text += "; (" + std::to_string(failed.size() - kShown) + " more PEs)";
  return text;
}

/// The PEs grouped by their value of variable v, groups in order of their lowest PE.
std::vector<std::vector<int>> groups_of(std::span<const config_report> all, std::size_t v) {
  std::vector<std::vector<int>> groups;
  for (std::size_t pe = 0; pe < all.size(); ++pe) {
    std::size_t g = 0;
    while (g < groups.size() && all[std::size_t(groups[g][0])].hashes[v] != all[pe].hashes[v]) ++g;
    if (g == groups.size()) groups.emplace_back();
    groups[g].push_back(int(pe));
  }
  return groups;
}

std::string differing_values(std::span<const config_report> all, const env_entry& entry, std::size_t v,
                             const std::vector<std::vector<int>>& groups) {
  constexpr std::size_t kShown = 4;
  std::string text = std::string(entry.name) + " must be the same on every PE, but ";
  for (std::size_t g = 0; g < groups.size() && g < kShown; ++g) {
    const config_report& r = all[std::size_t(groups[g][0])];
    text += g == 0 ? "" : g + 1 == groups.size() ? " and " : ", ";
    text += describe_pes(groups[g]) + (groups[g].size() == 1 ? " has " : " have ") +
            field(r.values[v], config_report::kValueBytes);
  }
  if (groups.size() > kShown) text += " (and " + std::to_string(groups.size() - kShown) + " more values)";
  return text + "; set it once for the whole job (mpirun -x " + entry.name + "=...)";
}

} // namespace

config_report make_config_report(portshmem_status_t parsed, const std::string& error, const config& cfg) {
  config_report r;
  std::memset(&r, 0, sizeof r);
  r.status = std::int32_t(parsed);
  if (parsed != PORTSHMEM_SUCCESS) std::strncpy(r.error, error.c_str(), sizeof r.error - 1);
  const auto registry = env_registry();
  for (std::size_t v = 0; v < registry.size(); ++v) {
    const std::string shown = registry[v].show(cfg);
    r.hashes[v] = fnv1a(shown);
    std::strncpy(r.values[v], shown.c_str(), config_report::kValueBytes - 1);
  }
  return r;
}

portshmem_status_t judge_config_reports(std::span<const config_report> all, std::string* message) {
  std::vector<int> failed;
  for (std::size_t pe = 0; pe < all.size(); ++pe) {
    if (all[pe].status != PORTSHMEM_SUCCESS) failed.push_back(int(pe));
  }
  if (!failed.empty()) {
    *message = parse_failures(all, failed);
    return PORTSHMEM_ERR_ENV;
  }
  const auto registry = env_registry();
  std::string first, also;
  for (std::size_t v = 0; v < registry.size(); ++v) {
    if (!registry[v].job_wide) continue;
    const auto groups = groups_of(all, v);
    if (groups.size() < 2) continue;
    if (first.empty()) {
      first = differing_values(all, registry[v], v, groups);
    } else {
      also += std::string(also.empty() ? "" : ", ") + registry[v].name;
    }
  }
  if (first.empty()) return PORTSHMEM_SUCCESS;
  *message = first + (also.empty() ? "" : " (these differ too: " + also + ")");
  return PORTSHMEM_ERR_ENV;
}

portshmem_status_t agree_config(bootstrap& boot, portshmem_status_t parsed, const std::string& error,
                                const config& cfg) {
  const config_report mine = make_config_report(parsed, error, cfg);
  std::vector<config_report> all(std::size_t(boot.size()));
  if (auto s = boot.allgather(&mine, all.data(), sizeof mine); s != PORTSHMEM_SUCCESS) return s;
  std::string message;
  if (const portshmem_status_t s = judge_config_reports(all, &message); s != PORTSHMEM_SUCCESS) {
    return PORTSHMEM_FAIL(s, "%s", message.c_str());
  }
  return PORTSHMEM_SUCCESS;
}

} // namespace portshmem::detail
