#include "gpu/lowering_choice.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

#include "gpu/premise_facts.hpp"
#include "gpu/premises.hpp"
#include "log.hpp"

namespace portshmem::detail {
namespace {

/// One PE's decision as it travels through the bootstrap's allgather.
struct wire_decision {
  std::int32_t strict;
  std::int32_t level; ///< a log_level
  char reason[1016];  ///< NUL-terminated, cut to fit
};

wire_decision to_wire(const lowering_decision& d) {
  wire_decision w;
  std::memset(&w, 0, sizeof w);
  w.strict = d.strict ? 1 : 0;
  w.level = static_cast<std::int32_t>(d.level);
  std::strncpy(w.reason, d.reason.c_str(), sizeof w.reason - 1);
  return w;
}

lowering_decision from_wire(const wire_decision& w) {
  return {w.strict != 0, static_cast<log_level>(w.level), std::string(w.reason, strnlen(w.reason, sizeof w.reason))};
}

} // namespace

portshmem_status_t choose_lowering(runtime& rt) {
  const wire_decision mine = to_wire(decide_lowering(gather_premise_facts(rt), rt.cfg.relaxed));
  std::vector<wire_decision> all(std::size_t(rt.boot->size()));
  if (auto s = rt.boot->allgather(&mine, all.data(), sizeof mine); s != PORTSHMEM_SUCCESS) return s;
  std::vector<lowering_decision> per_pe;
  per_pe.reserve(all.size());
  for (const wire_decision& w : all) per_pe.push_back(from_wire(w));
  const lowering_decision job = combine_decisions(per_pe);
  rt.ctx.strict = job.strict ? 1 : 0;
  if (rt.boot->rank() == 0 && log_enabled(job.level))
    log_write(job.level, __FILE__, __LINE__, "%s", job.reason.c_str());
  return PORTSHMEM_SUCCESS;
}

} // namespace portshmem::detail
