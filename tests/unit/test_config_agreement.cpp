// The verdict init reaches from every PE's configuration report: pure, so every case runs here without MPI.
#include "config_agreement.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

namespace detail = portshmem::detail;
using detail::config;
using detail::config_report;

constexpr std::size_t kMiB = std::size_t{1} << 20;

config_report parsed(const config& c) {
  return detail::make_config_report(PORTSHMEM_SUCCESS, "", c);
}

config_report failed(const std::string& error) {
  return detail::make_config_report(PORTSHMEM_ERR_ENV, error, detail::default_config());
}

std::string judge(const std::vector<config_report>& all, portshmem_status_t want) {
  std::string message;
  EXPECT_EQ(detail::judge_config_reports(all, &message), want);
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  return message;
}

TEST(ConfigAgreement, SameConfigurationEverywhereAgrees) {
  const config c = detail::default_config();
  EXPECT_EQ(judge({parsed(c), parsed(c), parsed(c)}, PORTSHMEM_SUCCESS), "");
  EXPECT_EQ(judge({parsed(c)}, PORTSHMEM_SUCCESS), "");
}

TEST(ConfigAgreement, PerPeVariablesMayDiffer) {
  config a = detail::default_config(), b = a;
  b.device = 3;
  b.debug = detail::log_level::trace;
  b.info = true;
  b.run_mps = detail::mps_choice::off;
  EXPECT_EQ(judge({parsed(a), parsed(b)}, PORTSHMEM_SUCCESS), "");
}

TEST(ConfigAgreement, AParseFailureOnOnePeFailsEveryPeAndQuotesIt) {
  const config c = detail::default_config();
  const std::string why = "PORTSHMEM_HEAP_SIZE=\"lots\" is not a size; accepted: a byte count.";
  EXPECT_EQ(judge({parsed(c), failed(why), parsed(c)}, PORTSHMEM_ERR_ENV),
            "the PORTSHMEM_* environment of PE 1 does not parse, so init fails on every PE; PE 1: " + why);
}

TEST(ConfigAgreement, ManyParseFailuresAreListedAndTwoQuoted) {
  const config c = detail::default_config();
  const std::string message =
      judge({failed("A."), parsed(c), failed("B."), failed("C."), failed("D.")}, PORTSHMEM_ERR_ENV);
  EXPECT_EQ(message, "the PORTSHMEM_* environment of PEs 0, 2-4 does not parse, so init fails on every PE; PE 0: A.; "
                     "PE 2: B.; (2 more PEs)");
}

TEST(ConfigAgreement, DifferingHeapSizesNameTheValuesAndThePes) {
  config big = detail::default_config(), small = big;
  big.heap_size = 64 * kMiB;
  small.heap_size = 32 * kMiB;
  EXPECT_EQ(judge({parsed(big), parsed(big), parsed(small), parsed(big)}, PORTSHMEM_ERR_ENV),
            "PORTSHMEM_HEAP_SIZE must be the same on every PE, but PEs 0-1, 3 have 64M and PE 2 has 32M; set it "
            "once for the whole job (mpirun -x PORTSHMEM_HEAP_SIZE=...)");
}

TEST(ConfigAgreement, EveryJobWideVariableIsCompared) {
  const config base = detail::default_config();
  config timeout = base, transport = base, relaxed = base;
  timeout.timeout_ns = 30'000'000'000;
  transport.transport = detail::transport_choice::ipc;
  relaxed.relaxed = detail::relaxed_choice::off;
  EXPECT_NE(judge({parsed(base), parsed(timeout)}, PORTSHMEM_ERR_ENV).find("PORTSHMEM_TIMEOUT must be the same"),
            std::string::npos);
  EXPECT_NE(judge({parsed(base), parsed(transport)}, PORTSHMEM_ERR_ENV).find("PORTSHMEM_TRANSPORT must be the same"),
            std::string::npos);
  EXPECT_NE(judge({parsed(relaxed), parsed(base)}, PORTSHMEM_ERR_ENV).find("PE 0 has off and PE 1 has auto"),
            std::string::npos);
}

TEST(ConfigAgreement, TheFirstDifferingVariableIsDescribedAndTheOthersNamed) {
  config a = detail::default_config(), b = a, c = a;
  b.heap_size = 2 * kMiB;
  b.timeout_ns = 1'000'000'000;
  c.heap_size = 4 * kMiB;
  c.relaxed = detail::relaxed_choice::on;
  EXPECT_EQ(judge({parsed(a), parsed(b), parsed(c)}, PORTSHMEM_ERR_ENV),
            "PORTSHMEM_HEAP_SIZE must be the same on every PE, but PE 0 has 1G, PE 1 has 2M and PE 2 has 4M; set it "
            "once for the whole job (mpirun -x PORTSHMEM_HEAP_SIZE=...) (these differ too: PORTSHMEM_TIMEOUT, "
            "PORTSHMEM_RELAXED)");
}

TEST(ConfigAgreement, ALongErrorIsCutNotOverrun) {
  const config_report r = failed(std::string(5000, 'x'));
  EXPECT_EQ(r.error[sizeof r.error - 1], '\0');
  const std::string message = judge({r}, PORTSHMEM_ERR_ENV);
  EXPECT_EQ(message.size(), std::string("the PORTSHMEM_* environment of PE 0 does not parse, so init fails on every "
                                        "PE; PE 0: ")
                                    .size() +
                                sizeof r.error - 1);
}

TEST(DescribePes, FoldsRunsAndCutsLongLists) {
  EXPECT_EQ(detail::describe_pes({3}), "PE 3");
  EXPECT_EQ(detail::describe_pes({0, 1, 2, 5, 7, 8}), "PEs 0-2, 5, 7-8");
  std::vector<int> odd;
  for (int pe = 1; pe < 40; pe += 2) odd.push_back(pe);
  EXPECT_EQ(detail::describe_pes(odd), "PEs 1, 3, 5, 7, 9, 11, 13, 15 and 12 more");
}

} // namespace
