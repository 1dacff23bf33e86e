// Gathers, at init, the facts the relaxed lowering's premises are checked against (src/gpu/premises.hpp). Only the
// amd platform has any to gather; what HIP cannot tell stays "unknown", never "yes".
#pragma once

#include "gpu/premises.hpp"
#include "runtime.hpp"

namespace portshmem::detail {

/// This PE's facts: its GPU's architecture, how its heap was allocated, and what HIP reports about the coherence of
/// its heap and of every node peer's heap mapped here (rt.peer_heaps), plus versions for the log line. Never fails:
/// a query that fails leaves its fact unknown and says why in the fact's text.
premise_facts gather_premise_facts(const runtime& rt);

} // namespace portshmem::detail
