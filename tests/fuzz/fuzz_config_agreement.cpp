// Fuzz target: init's agreement on the configuration (src/config_agreement.hpp) for 1 to 8 PEs, each with its own
// random PORTSHMEM_* environment (often a copy of PE 0's with a few changes). Each PE's report is made as init makes
// it; the verdict must be success exactly when every PE parsed its environment and every job-wide variable shows
// one value, and otherwise PORTSHMEM_ERR_ENV with one line that starts as documented: the PEs that failed to parse,
// or the first job-wide variable in registry order whose values differ.
#include <cstdint>
#include <string>
#include <vector>

#include "bootstrap.hpp"
#include "config_agreement.hpp"
#include "env_records.hpp"
#include "fuzz_input.hpp"

namespace {

namespace detail = portshmem::detail;

struct pe_state {
  portshmem_status_t parsed;
  std::string error;
  detail::config cfg;
};

pe_state load(const fuzz::environment& env) {
  pe_state pe{PORTSHMEM_SUCCESS, "", detail::default_config()}; // init keeps the defaults when parsing fails
  pe.parsed = detail::load_config(env.lookup(), &pe.cfg, &pe.error);
  return pe;
}

/// The verdict from the PEs' parsed states, written from the contract in config_agreement.hpp.
std::string expected_start(const std::vector<pe_state>& pes) {
  std::vector<int> failed;
  for (std::size_t r = 0; r < pes.size(); ++r)
    if (pes[r].parsed != PORTSHMEM_SUCCESS) failed.push_back(int(r));
  if (!failed.empty()) return "the PORTSHMEM_* environment of " + detail::describe_pes(failed) + " does not parse";
  for (const auto& entry : detail::env_registry()) {
    if (!entry.job_wide) continue;
    for (const pe_state& pe : pes)
      if (entry.show(pe.cfg) != entry.show(pes[0].cfg))
        return std::string(entry.name) + " must be the same on every PE";
  }
  return "";
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::input in(data, size);
  const std::size_t n = 1 + in.byte() % 8;
  std::vector<fuzz::environment> envs(n);
  for (std::size_t r = 0; r < n; ++r) {
    if (r > 0 && in.byte() % 4 != 0) envs[r] = envs[0]; // mostly a copy of PE 0's, so agreement is reached too
    for (std::size_t changes = in.byte() % 4; changes > 0; --changes) envs[r].read_record(in);
  }
  std::vector<pe_state> pes;
  std::vector<detail::config_report> reports;
  for (const auto& env : envs) {
    pes.push_back(load(env));
    reports.push_back(detail::make_config_report(pes.back().parsed, pes.back().error, pes.back().cfg));
  }
  std::string message = "untouched";
  const portshmem_status_t status = detail::judge_config_reports(reports, &message);
  const std::string want = expected_start(pes);
  if (want.empty()) {
    fuzz::check(status == PORTSHMEM_SUCCESS, std::string("no agreement on agreeing PEs: ") + message);
    fuzz::check(message == "untouched", "a success wrote a message");
    return 0;
  }
  fuzz::check(status == PORTSHMEM_ERR_ENV, std::string("status ") + portshmem_status_string(status) + " for: " + want);
  fuzz::check(message.compare(0, want.size(), want) == 0,
              "the verdict \"" + message + "\" does not start \"" + want + "\"");
  fuzz::check(message.find('\n') == std::string::npos, "a verdict of more than one line: " + message);
  return 0;
}
