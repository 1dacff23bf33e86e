// Init's agreement on the configuration: every PE tells the others whether its environment parsed and what its
// job-wide variables hold, and every PE reaches the same verdict, so a bad or differing PORTSHMEM_* value on one PE
// fails init on all of them with one message instead of leaving the others blocked in a collective.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "bootstrap.hpp"
#include "env.hpp"

namespace portshmem::detail {

/// One PE's report, as it travels through the bootstrap's allgather (plain bytes, the same size on every PE).
struct config_report {
  static constexpr std::size_t kValueBytes = 32;
  std::int32_t status;                        ///< load_config's status
  char error[476];                            ///< load_config's message when status is not success
  std::uint64_t hashes[kMaxEnvVariables];     ///< of each registered variable's shown value
  char values[kMaxEnvVariables][kValueBytes]; ///< each variable's shown value, cut to fit, for messages
};

/// This PE's report: its parse status and message, and the value of every registered variable in cfg.
config_report make_config_report(portshmem_status_t parsed, const std::string& error, const config& cfg);

/// The verdict from every PE's report (all[r] is PE r's), the same on every PE: PORTSHMEM_SUCCESS when every PE
/// parsed its environment and every job-wide variable has one value; otherwise PORTSHMEM_ERR_ENV and *message is one
/// line naming the PEs and, for a parse failure, their messages, or, for values that differ, the first variable that
/// differs, its values and the PEs holding each.
portshmem_status_t judge_config_reports(std::span<const config_report> all, std::string* message);

/// Collective over boot: exchanges the reports and returns the verdict, logged once on every PE when it fails.
portshmem_status_t agree_config(bootstrap& boot, portshmem_status_t parsed, const std::string& error,
                                const config& cfg);

} // namespace portshmem::detail
