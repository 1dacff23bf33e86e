// The relaxed lowering's premises: whether device code may lower each call with the qualifiers it names
// (ctx.strict = 0) or must lower every call as with its strict defaults (ctx.strict = 1). A pure function of facts
// gathered at init (src/gpu/premise_facts.cpp) and of PORTSHMEM_RELAXED, platform-neutral so every rule is
// unit-tested on the host platform.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "env.hpp"
#include "log.hpp"

namespace portshmem::detail {

/// One fact gathered at init: established, known false, or not established (the query is unavailable or failed).
/// A failed query is never read as "yes".
enum class fact { unknown, yes, no };

enum class platform_family { host, nvidia, amd };

/// The AMD architectures a relaxed lowering is validated for, from hipDeviceProp_t::gcnArchName.
enum class amd_arch {
  unknown,    ///< the name could not be read
  gfx90a,     ///< MI200 (CDNA2)
  gfx94x,     ///< MI300: gfx940, gfx941, gfx942 (CDNA3)
  unsupported ///< any other name: no relaxed lowering is validated for it
};

/// Classifies a gcnArchName such as "gfx90a:sramecc+:xnack-" by the part before the first ':'.
amd_arch classify_amd_arch(std::string_view gcn_arch_name);

/// Whether one heap, as mapped in this process, is fine-grained (AMD): this PE's heap or a node peer's through IPC.
struct mapping_fact {
  int pe = -1;      ///< whose heap
  bool own = false; ///< this PE's heap (not an IPC mapping)
  fact fine_grained = fact::unknown;
  std::string observed; ///< what the query returned, for the log ("coarse-grained", "... failed: ...")
};

/// Everything the decision reads. Host and NVIDIA need nothing but the platform: their relaxed lowering rests on
/// the C++ / PTX memory models only.
struct premise_facts {
  platform_family platform = platform_family::host;
  std::string gpu_arch;                             ///< AMD: gcnArchName as reported; empty when it could not be read
  fact heap_allocated_fine_grained = fact::unknown; ///< AMD: the heap was allocated as fine-grained memory
  /// AMD: HIP's coherence query tells fine from coarse in this runtime (it reports a plain hipMalloc block, which is
  /// coarse-grained, as coarse-grained). Unless yes, the mappings' answers are not evidence either way.
  fact coherence_query_trusted = fact::unknown;
  std::string coherence_query_observed; ///< AMD: what the query said of that control block, for the log
  std::vector<mapping_fact> mappings;   ///< AMD: this PE's heap and every node peer's heap mapped here
  std::string versions;                 ///< AMD: "HIP runtime R, HIP driver D, Linux K", for the log line
};

/// The outcome for one PE, or for the job.
struct lowering_decision {
  bool strict = true;
  log_level level = log_level::warn; ///< info: as expected; warn: strict under auto, or relaxed on the user's word
  std::string reason;                ///< one line for the log: what was decided, why, and what it costs
};

/// This PE's decision. off: strict. host and nvidia: relaxed otherwise. amd: a premise known false (an unvalidated
/// architecture, a heap or peer mapping that a trusted query reports not fine-grained) means strict whatever the
/// variable says; a premise not established (including every mapping when the query is not trusted) means strict
/// under auto and relaxed under on; all established means relaxed.
lowering_decision decide_lowering(const premise_facts& facts, relaxed_choice choice);

/// The job's decision from every PE's (index = PE): strict when any PE is strict, since a relaxed writer and
/// reader rely on each other's premises. The reason is that of the first strict PE (or, when all are relaxed, the
/// first that warns, else PE 0), naming the PE unless every PE gave the same decision and reason.
lowering_decision combine_decisions(std::span<const lowering_decision> per_pe);

} // namespace portshmem::detail
