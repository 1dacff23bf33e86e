// The init step that sets the device handle's strict flag: each PE gathers its premise facts and decides, the PEs
// agree (strict when any PE is), and PE 0 logs the job's decision once.
#pragma once

#include "runtime.hpp"

namespace portshmem::detail {

/// Collective: sets rt.ctx.strict for the job from PORTSHMEM_RELAXED (rt.cfg.relaxed) and every PE's premise facts.
/// Call after build_device_handle has succeeded on every PE. Fails only when the bootstrap does.
portshmem_status_t choose_lowering(runtime& rt);

} // namespace portshmem::detail
