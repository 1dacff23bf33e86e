// The relaxed lowering's premises (src/gpu/premises.hpp): every fact combination of the amd platform under each
// PORTSHMEM_RELAXED value, the host and nvidia platforms, and the job-wide agreement.
#include "gpu/premises.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

namespace detail = portshmem::detail;
using detail::amd_arch;
using detail::fact;
using detail::log_level;
using detail::lowering_decision;
using detail::mapping_fact;
using detail::platform_family;
using detail::premise_facts;
using detail::relaxed_choice;

constexpr relaxed_choice kAuto = relaxed_choice::automatic, kOn = relaxed_choice::on, kOff = relaxed_choice::off;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

mapping_fact mapping(int pe, bool own, fact fine, std::string observed = "") {
  mapping_fact m;
  m.pe = pe;
  m.own = own;
  m.fine_grained = fine;
  m.observed = std::move(observed);
  return m;
}

/// An AMD PE 0 with one peer (PE 1) whose every premise holds.
premise_facts amd(const std::string& arch = "gfx90a:sramecc+:xnack-") {
  premise_facts f;
  f.platform = platform_family::amd;
  f.gpu_arch = arch;
  f.heap_allocated_fine_grained = fact::yes;
  f.coherence_query_trusted = fact::yes;
  f.coherence_query_observed = "of a coarse-grained hipMalloc block, HIP reports coarse-grained";
  f.mappings = {mapping(0, true, fact::yes), mapping(1, false, fact::yes)};
  f.versions = "HIP runtime 50221153, HIP driver 50221153, Linux 6.1.0";
  return f;
}

TEST(Premises, ArchitectureIsThePartBeforeTheFirstColon) {
  EXPECT_EQ(detail::classify_amd_arch("gfx90a:sramecc+:xnack-"), amd_arch::gfx90a);
  EXPECT_EQ(detail::classify_amd_arch("gfx90a"), amd_arch::gfx90a);
  EXPECT_EQ(detail::classify_amd_arch("gfx940"), amd_arch::gfx94x);
  EXPECT_EQ(detail::classify_amd_arch("gfx941:xnack+"), amd_arch::gfx94x);
  EXPECT_EQ(detail::classify_amd_arch("gfx942:sramecc+:xnack-"), amd_arch::gfx94x);
  EXPECT_EQ(detail::classify_amd_arch(""), amd_arch::unknown);
  EXPECT_EQ(detail::classify_amd_arch(":xnack-"), amd_arch::unknown);
  for (const char* other : {"gfx908", "gfx90", "gfx90a0", "gfx943", "gfx1100", "GFX90A", "gfx90a-", "sm_90"})
    EXPECT_EQ(detail::classify_amd_arch(other), amd_arch::unsupported) << other;
}

TEST(Premises, HostAndNvidiaHoldTriviallyAndHonourOff) {
  for (platform_family p : {platform_family::host, platform_family::nvidia}) {
    premise_facts f;
    f.platform = p;
    for (relaxed_choice choice : {kAuto, kOn}) {
      const lowering_decision d = detail::decide_lowering(f, choice);
      EXPECT_FALSE(d.strict);
      EXPECT_EQ(d.level, log_level::info);
      EXPECT_TRUE(contains(d.reason, "relaxed lowering on the")) << d.reason;
    }
    const lowering_decision off = detail::decide_lowering(f, kOff);
    EXPECT_TRUE(off.strict);
    EXPECT_EQ(off.level, log_level::info);
    EXPECT_TRUE(contains(off.reason, "PORTSHMEM_RELAXED=off")) << off.reason;
  }
  premise_facts nv;
  nv.platform = platform_family::nvidia;
  EXPECT_TRUE(contains(detail::decide_lowering(nv, kAuto).reason, "PTX memory model"));
  EXPECT_TRUE(contains(detail::decide_lowering(premise_facts{}, kAuto).reason, "C++ memory model"));
}

TEST(Premises, AmdRelaxedWhenEveryPremiseIsEstablished) {
  for (const char* arch : {"gfx90a:sramecc+:xnack-", "gfx940", "gfx941", "gfx942:sramecc+:xnack-"}) {
    for (relaxed_choice choice : {kAuto, kOn}) {
      const lowering_decision d = detail::decide_lowering(amd(arch), choice);
      EXPECT_FALSE(d.strict) << arch;
      EXPECT_EQ(d.level, log_level::info) << arch << ": " << d.reason;
      EXPECT_TRUE(contains(d.reason, "1 peer heap mapping(s) are fine-grained")) << d.reason;
      EXPECT_TRUE(contains(d.reason, "HIP runtime 50221153")) << d.reason;
    }
  }
}

TEST(Premises, AmdOffIsStrictAndSaysWhatItCosts) {
  const lowering_decision a = detail::decide_lowering(amd("gfx90a:xnack-"), kOff);
  EXPECT_TRUE(a.strict);
  EXPECT_EQ(a.level, log_level::info);
  EXPECT_TRUE(contains(a.reason, "PORTSHMEM_RELAXED=off")) << a.reason;
  EXPECT_TRUE(contains(a.reason, "buffer_wbl2") && contains(a.reason, "buffer_invl2")) << a.reason;
  const lowering_decision b = detail::decide_lowering(amd("gfx942"), kOff);
  EXPECT_TRUE(b.strict);
  EXPECT_TRUE(contains(b.reason, "buffer_wbl2 sc0 sc1") && contains(b.reason, "buffer_inv sc0 sc1")) << b.reason;
}

TEST(Premises, AmdUnvalidatedArchitectureIsStrictEvenUnderOn) {
  for (relaxed_choice choice : {kAuto, kOn}) {
    const lowering_decision d = detail::decide_lowering(amd("gfx908:sramecc+:xnack-"), choice);
    EXPECT_TRUE(d.strict);
    EXPECT_EQ(d.level, log_level::warn);
    EXPECT_TRUE(contains(d.reason, "no relaxed lowering is validated for gfx908 ")) << d.reason;
    EXPECT_EQ(contains(d.reason, "does not override"), choice == kOn) << d.reason;
  }
}

TEST(Premises, AmdUnknownArchitectureIsStrictUnderAutoOnly) {
  const lowering_decision a = detail::decide_lowering(amd(""), kAuto);
  EXPECT_TRUE(a.strict);
  EXPECT_EQ(a.level, log_level::warn);
  EXPECT_TRUE(contains(a.reason, "architecture could not be read")) << a.reason;
  EXPECT_TRUE(contains(a.reason, "PORTSHMEM_RELAXED=on")) << "the line should say how to take responsibility";
  const lowering_decision on = detail::decide_lowering(amd(""), kOn);
  EXPECT_FALSE(on.strict);
  EXPECT_EQ(on.level, log_level::warn);
  EXPECT_TRUE(contains(on.reason, "took responsibility")) << on.reason;
}

TEST(Premises, AmdCoarsePeerMappingIsStrictAndNamed) {
  premise_facts f = amd();
  f.mappings[1] = mapping(1, false, fact::no, "HIP reports coarse-grained");
  for (relaxed_choice choice : {kAuto, kOn}) {
    const lowering_decision d = detail::decide_lowering(f, choice);
    EXPECT_TRUE(d.strict);
    EXPECT_EQ(d.level, log_level::warn);
    EXPECT_TRUE(contains(d.reason, "PE 1's heap as mapped here through IPC is not fine-grained")) << d.reason;
    EXPECT_TRUE(contains(d.reason, "(HIP reports coarse-grained)")) << d.reason;
    EXPECT_TRUE(contains(d.reason, "gfx90a premise")) << d.reason;
    EXPECT_TRUE(contains(d.reason, "buffer_wbl2")) << "the line should say what strict costs: " << d.reason;
  }
}

TEST(Premises, AmdUnestablishedMappingIsStrictUnderAutoAndRelaxedUnderOn) {
  premise_facts f = amd("gfx942");
  f.mappings[0] = mapping(0, true, fact::unknown, "hipMemRangeGetAttribute failed");
  const lowering_decision a = detail::decide_lowering(f, kAuto);
  EXPECT_TRUE(a.strict);
  EXPECT_EQ(a.level, log_level::warn);
  EXPECT_TRUE(contains(a.reason, "could not be established that this PE's heap is fine-grained")) << a.reason;
  EXPECT_TRUE(contains(a.reason, "hipMemRangeGetAttribute failed")) << a.reason;
  EXPECT_TRUE(contains(a.reason, "gfx942 premise")) << a.reason;
  const lowering_decision on = detail::decide_lowering(f, kOn);
  EXPECT_FALSE(on.strict);
  EXPECT_EQ(on.level, log_level::warn);
}

TEST(Premises, AmdWithoutAnyCheckedMappingIsUnestablished) {
  premise_facts f = amd();
  f.mappings.clear();
  EXPECT_TRUE(detail::decide_lowering(f, kAuto).strict);
  EXPECT_FALSE(detail::decide_lowering(f, kOn).strict);
}

// A runtime that calls every range fine-grained (the kernel driver's default for memory it does not manage) gives
// no evidence: neither its "fine-grained" nor its "coarse-grained" about the heaps counts.
TEST(Premises, AnUntrustedCoherenceQueryEstablishesNothing) {
  for (fact mapped : {fact::yes, fact::no}) {
    premise_facts f = amd();
    f.coherence_query_trusted = fact::unknown;
    f.coherence_query_observed = "of a coarse-grained hipMalloc block, HIP reports fine-grained";
    f.mappings = {mapping(0, true, mapped), mapping(1, false, mapped)};
    const lowering_decision a = detail::decide_lowering(f, kAuto);
    EXPECT_TRUE(a.strict);
    EXPECT_EQ(a.level, log_level::warn);
    EXPECT_TRUE(contains(a.reason, "coherence query does not tell fine- from coarse-grained")) << a.reason;
    EXPECT_TRUE(contains(a.reason, "of a coarse-grained hipMalloc block, HIP reports fine-grained")) << a.reason;
    EXPECT_FALSE(contains(a.reason, "PE 1's heap")) << a.reason;
    const lowering_decision on = detail::decide_lowering(f, kOn);
    EXPECT_FALSE(on.strict) << on.reason;
    EXPECT_EQ(on.level, log_level::warn);
  }
  premise_facts f = amd("gfx908");
  f.coherence_query_trusted = fact::unknown;
  EXPECT_TRUE(detail::decide_lowering(f, kOn).strict) << "a known-false architecture still decides";
}

TEST(Premises, AKnownFalsePremiseOutweighsUnknownOnes) {
  premise_facts f = amd("");
  f.heap_allocated_fine_grained = fact::unknown;
  f.mappings = {mapping(0, true, fact::unknown), mapping(1, false, fact::no), mapping(2, false, fact::no),
                mapping(3, false, fact::no)};
  const lowering_decision d = detail::decide_lowering(f, kOn);
  EXPECT_TRUE(d.strict);
  EXPECT_TRUE(contains(d.reason, "PE 1's heap")) << d.reason;
  EXPECT_TRUE(contains(d.reason, "(and 2 more like it)")) << d.reason;
}

// Every combination against the rules as the documentation states them: off is strict; a fact known false is
// strict; a fact not established is strict under auto and relaxed under on; otherwise relaxed. Info when all
// holds (or off), warn otherwise.
TEST(Premises, EveryAmdCombination) {
  const std::vector<std::string> arches = {"gfx90a:sramecc+:xnack-", "gfx942", "gfx908", ""};
  const std::vector<fact> facts = {fact::yes, fact::no, fact::unknown};
  int cases = 0;
  for (const std::string& arch : arches) {
    for (fact alloc : facts) {
      for (bool trusted : {true, false}) {
        for (fact own : facts) {
          for (fact peer : facts) {
            for (relaxed_choice choice : {kAuto, kOn, kOff}) {
              premise_facts f = amd(arch);
              f.heap_allocated_fine_grained = alloc;
              f.coherence_query_trusted = trusted ? fact::yes : fact::unknown;
              f.mappings = {mapping(0, true, own), mapping(1, false, peer)};
              const amd_arch a = detail::classify_amd_arch(arch);
              // An untrusted query turns both mapping answers into "not established".
              const fact own_seen = trusted ? own : fact::unknown, peer_seen = trusted ? peer : fact::unknown;
              const bool any_false =
                  a == amd_arch::unsupported || alloc == fact::no || own_seen == fact::no || peer_seen == fact::no;
              const bool any_unknown = a == amd_arch::unknown || alloc == fact::unknown || own_seen == fact::unknown ||
                                       peer_seen == fact::unknown;
              const bool strict = choice == kOff || any_false || (any_unknown && choice == kAuto);
              const bool quiet = choice == kOff || (!any_false && !any_unknown);
              const lowering_decision d = detail::decide_lowering(f, choice);
              const std::string label = "arch '" + arch + "' alloc " + std::to_string(int(alloc)) + " trusted " +
                                        std::to_string(trusted) + " own " + std::to_string(int(own)) + " peer " +
                                        std::to_string(int(peer)) + " choice " + std::to_string(int(choice)) + ": " +
                                        d.reason;
              EXPECT_EQ(d.strict, strict) << label;
              EXPECT_EQ(d.level, quiet ? log_level::info : log_level::warn) << label;
              EXPECT_FALSE(d.reason.empty()) << label;
              EXPECT_EQ(d.reason.find('\n'), std::string::npos) << label;
              ++cases;
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 4 * 3 * 2 * 9 * 3);
}

lowering_decision decision(bool strict, log_level level, const std::string& reason) {
  return {strict, level, reason};
}

TEST(Premises, OnePeIsReportedAsIs) {
  const std::vector<lowering_decision> one = {decision(false, log_level::info, "relaxed lowering: fine")};
  const lowering_decision job = detail::combine_decisions(one);
  EXPECT_FALSE(job.strict);
  EXPECT_EQ(job.reason, "relaxed lowering: fine");
}

TEST(Premises, TheJobIsStrictWhenAnyPeIs) {
  const std::vector<lowering_decision> pes = {decision(false, log_level::info, "relaxed here"),
                                              decision(false, log_level::info, "relaxed there"),
                                              decision(true, log_level::warn, "strict lowering: coarse")};
  const lowering_decision job = detail::combine_decisions(pes);
  EXPECT_TRUE(job.strict);
  EXPECT_EQ(job.level, log_level::warn);
  EXPECT_EQ(job.reason.rfind("PE 2: strict lowering: coarse", 0), 0u) << job.reason;
  EXPECT_TRUE(contains(job.reason, "all 3 PEs lower strictly (2 could have lowered relaxed")) << job.reason;
}

TEST(Premises, AStrictJobByChoiceStaysQuiet) {
  const std::vector<lowering_decision> pes(4, decision(true, log_level::info, "strict lowering (off)"));
  const lowering_decision job = detail::combine_decisions(pes);
  EXPECT_TRUE(job.strict);
  EXPECT_EQ(job.level, log_level::info);
  EXPECT_EQ(job.reason, "strict lowering (off)") << "every PE said the same: no PE is named";
}

TEST(Premises, ARelaxedJobReportsTheFirstWarning) {
  const std::vector<lowering_decision> pes = {decision(false, log_level::info, "relaxed: all established"),
                                              decision(false, log_level::warn, "relaxed on your word"),
                                              decision(false, log_level::warn, "relaxed on your word too")};
  const lowering_decision job = detail::combine_decisions(pes);
  EXPECT_FALSE(job.strict);
  EXPECT_EQ(job.level, log_level::warn);
  EXPECT_EQ(job.reason, "PE 1: relaxed on your word");
  const std::vector<lowering_decision> quiet(2, decision(false, log_level::info, "relaxed"));
  EXPECT_EQ(detail::combine_decisions(quiet).reason, "relaxed");
  const std::vector<lowering_decision> differing = {decision(false, log_level::info, "relaxed: 1 peer"),
                                                    decision(false, log_level::info, "relaxed: 2 peers")};
  EXPECT_EQ(detail::combine_decisions(differing).reason, "PE 0: relaxed: 1 peer");
}

TEST(Premises, NoDecisionIsStrict) {
  EXPECT_TRUE(detail::combine_decisions({}).strict);
}

} // namespace
