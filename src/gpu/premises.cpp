#include "gpu/premises.hpp"

#include <cstddef>
#include <initializer_list>

namespace portshmem::detail {
namespace {

/// A premise that did not hold: known false, or not established.
struct gap {
  fact state;
  std::string text; ///< completes "strict lowering: ..." / "relaxed lowering although ..."
};

const char* platform_name(platform_family p) {
  return p == platform_family::nvidia ? "nvidia" : p == platform_family::amd ? "amd" : "host";
}

/// "gfx90a" of "gfx90a:sramecc+:xnack-".
std::string_view arch_base(std::string_view name) {
  return name.substr(0, name.find(':'));
}

/// The premise this architecture's relaxed lowering rests on; for an unknown or unvalidated one, which exist.
std::string premise_of(amd_arch arch, std::string_view name) {
  if (arch == amd_arch::gfx90a) {
    return "gfx90a premise: a bypass store (glc slc) acknowledged by s_waitcnt vmcnt(0) is visible system-wide only "
           "when no non-coherent cache holds it, so this PE's heap and every peer heap mapped here must be "
           "fine-grained";
  }
  if (arch == amd_arch::gfx94x) {
    return std::string(arch_base(name)) +
           " premise: a store with sc0 sc1 is counted done by vmcnt only once system-coherent (CDNA3 ISA), and is "
           "of that kind only in fine-grained memory, so this PE's heap and every peer heap mapped here must be "
           "fine-grained";
  }
  if (arch == amd_arch::unknown) return "a relaxed lowering exists for gfx90a and gfx940/gfx941/gfx942 only";
  return ""; // unsupported: the gap itself names the validated architectures
}

/// What lowering strictly costs on this architecture, beyond the relaxed lowering.
std::string cost_of(amd_arch arch) {
  const char* wb = arch == amd_arch::gfx90a   ? " (buffer_wbl2)"
                   : arch == amd_arch::gfx94x ? " (buffer_wbl2 sc0 sc1)"
                                              : "";
  const char* inv = arch == amd_arch::gfx90a   ? " (buffer_invl2)"
                    : arch == amd_arch::gfx94x ? " (buffer_inv sc0 sc1)"
                                               : "";
  return std::string("cost: every fence, quiet and wait qualified mm::comm writes back the L2") + wb +
         " on release and invalidates it" + inv + " on acquire, as with coverage all";
}

std::string whose(const mapping_fact& m) {
  return m.own ? "this PE's heap" : "PE " + std::to_string(m.pe) + "'s heap as mapped here through IPC";
}

/// Every premise of the amd platform that does not hold, in the order they are checked.
std::vector<gap> amd_gaps(const premise_facts& facts, amd_arch arch) {
  std::vector<gap> gaps;
  if (arch == amd_arch::unknown) {
    gaps.push_back({fact::unknown, "the GPU architecture could not be read (hipGetDeviceProperties)"});
  } else if (arch == amd_arch::unsupported) {
    gaps.push_back({fact::no, "no relaxed lowering is validated for " + std::string(arch_base(facts.gpu_arch)) +
                                  " (validated: gfx90a, gfx940, gfx941, gfx942)"});
  }
  if (facts.heap_allocated_fine_grained == fact::no) {
    gaps.push_back({fact::no, "this PE's heap was not allocated as fine-grained memory"});
  } else if (facts.heap_allocated_fine_grained == fact::unknown) {
    gaps.push_back({fact::unknown, "it is not known whether this PE's heap was allocated as fine-grained memory"});
  }
  if (facts.coherence_query_trusted != fact::yes) {
    // The answers about the heaps are no evidence either way: one gap stands for all of them.
    const std::string seen = facts.coherence_query_observed.empty() ? "" : " (" + facts.coherence_query_observed + ")";
    gaps.push_back({fact::unknown, "HIP's coherence query does not tell fine- from coarse-grained memory in this "
                                   "runtime, so no heap mapping could be established as fine-grained" +
                                       seen});
    return gaps;
  }
  if (facts.mappings.empty()) {
    gaps.push_back({fact::unknown, "no heap mapping was checked for fine-grained coherence"});
  }
  for (const mapping_fact& m : facts.mappings) {
    const std::string seen = m.observed.empty() ? std::string() : " (" + m.observed + ")";
    if (m.fine_grained == fact::no) {
      gaps.push_back({fact::no, whose(m) + " is not fine-grained" + seen});
    } else if (m.fine_grained == fact::unknown) {
      gaps.push_back({fact::unknown, "it could not be established that " + whose(m) + " is fine-grained" + seen});
    }
  }
  return gaps;
}

/// The first gap in state, and how many more of that state follow it.
std::string first_of(const std::vector<gap>& gaps, fact state) {
  std::string text;
  std::size_t more = 0;
  for (const gap& g : gaps) {
    if (g.state != state) continue;
    if (text.empty()) {
      text = g.text;
    } else {
      ++more;
    }
  }
  if (more > 0) text += " (and " + std::to_string(more) + " more like it)";
  return text;
}

/// The non-empty parts, separated by "; ".
std::string joined(std::initializer_list<std::string> parts) {
  std::string text;
  for (const std::string& part : parts) {
    if (part.empty()) continue;
    if (!text.empty()) text += "; ";
    text += part;
  }
  return text;
}

std::string suffix(const premise_facts& facts) {
  return facts.versions.empty() ? std::string() : " [" + facts.versions + "]";
}

lowering_decision decide_amd(const premise_facts& facts, relaxed_choice choice) {
  const amd_arch arch = classify_amd_arch(facts.gpu_arch);
  const std::string base(arch_base(facts.gpu_arch));
  const std::string name = base.empty() ? "an unknown GPU" : base;
  const std::string premise = premise_of(arch, facts.gpu_arch), cost = cost_of(arch), tail = suffix(facts);
  if (choice == relaxed_choice::off) {
    return {true, log_level::info, "strict lowering on " + name + " (PORTSHMEM_RELAXED=off); " + cost + tail};
  }
  const std::vector<gap> gaps = amd_gaps(facts, arch);
  if (const std::string known_false = first_of(gaps, fact::no); !known_false.empty()) {
    const std::string override_note =
        choice == relaxed_choice::on ? "PORTSHMEM_RELAXED=on does not override a premise known to be false" : "";
    return {true, log_level::warn, joined({"strict lowering: " + known_false, premise, override_note, cost}) + tail};
  }
  const std::string unknown = first_of(gaps, fact::unknown);
  if (!unknown.empty() && choice == relaxed_choice::automatic) {
    return {true, log_level::warn,
            joined({"strict lowering (PORTSHMEM_RELAXED=auto): " + unknown, premise, cost,
                    "PORTSHMEM_RELAXED=on lowers relaxed on your responsibility"}) +
                tail};
  }
  if (!unknown.empty()) {
    return {false, log_level::warn,
            "relaxed lowering on " + name + " (PORTSHMEM_RELAXED=on: the user took responsibility) although " +
                joined({unknown, premise}) + tail};
  }
  std::size_t peers = 0;
  for (const mapping_fact& m : facts.mappings) peers += m.own ? 0 : 1;
  return {false, log_level::info,
          "relaxed lowering on " + name + ": this PE's heap and its " + std::to_string(peers) +
              " peer heap mapping(s) are fine-grained; " + premise + tail};
}

} // namespace

amd_arch classify_amd_arch(std::string_view gcn_arch_name) {
  const std::string_view base = arch_base(gcn_arch_name);
  if (base.empty()) return amd_arch::unknown;
  if (base == "gfx90a") return amd_arch::gfx90a;
  if (base == "gfx940" || base == "gfx941" || base == "gfx942") return amd_arch::gfx94x;
  return amd_arch::unsupported;
}

lowering_decision decide_lowering(const premise_facts& facts, relaxed_choice choice) {
  if (facts.platform == platform_family::amd) return decide_amd(facts, choice);
  const std::string platform = platform_name(facts.platform);
  if (choice == relaxed_choice::off) {
    return {true, log_level::info,
            "strict lowering on the " + platform +
                " platform (PORTSHMEM_RELAXED=off): every call lowers as with its default qualifiers"};
  }
  const char* model = facts.platform == platform_family::nvidia
                          ? "the PTX memory model only (a comm fence is the full fence; nothing is assumed)"
                          : "the C++ memory model only (nothing is assumed)";
  return {false, log_level::info, "relaxed lowering on the " + platform + " platform: it rests on " + model};
}

lowering_decision combine_decisions(std::span<const lowering_decision> per_pe) {
  if (per_pe.empty()) return {true, log_level::warn, "strict lowering: no PE reported a decision"};
  std::size_t chosen = per_pe.size();
  for (std::size_t pe = 0; pe < per_pe.size() && chosen == per_pe.size(); ++pe) {
    if (per_pe[pe].strict) chosen = pe;
  }
  const bool strict = chosen != per_pe.size();
  for (std::size_t pe = 0; pe < per_pe.size() && chosen == per_pe.size(); ++pe) {
    if (per_pe[pe].level == log_level::warn) chosen = pe;
  }
  if (chosen == per_pe.size()) chosen = 0;
  lowering_decision job = per_pe[chosen];
  bool uniform = true; // every PE says the same: no PE need be named
  for (const lowering_decision& d : per_pe) uniform = uniform && d.strict == job.strict && d.reason == job.reason;
  if (!uniform) {
    job.reason = "PE " + std::to_string(chosen) + ": " + job.reason;
    if (strict) {
      std::size_t relaxed = 0;
      for (const lowering_decision& d : per_pe) relaxed += d.strict ? 0 : 1;
      if (relaxed > 0) {
        job.reason += "; all " + std::to_string(per_pe.size()) + " PEs lower strictly (" + std::to_string(relaxed) +
                      " could have lowered relaxed, but a relaxed writer and reader rely on each other's premises)";
        job.level = log_level::warn;
      }
    }
  }
  return job;
}

} // namespace portshmem::detail
