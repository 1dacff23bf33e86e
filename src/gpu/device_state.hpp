// The device handle (portshmem_ctx_t): the PE placement table placed in device memory and the host-visible record
// device code reports bad calls into; the transports add their own tables (src/transport.hpp).
#pragma once

#include "runtime.hpp"

namespace portshmem::detail {

/// Fills rt.ctx: copies the placement table to device memory and allocates the error record. The transports' tables
/// are theirs (transport::fill_handle); the strict flag is set afterwards by choose_lowering
/// (gpu/lowering_choice.hpp), once every PE has its handle.
portshmem_status_t build_device_handle(runtime& rt);

/// Frees what build_device_handle allocated (safe after a partial build).
void release_device_handle(runtime& rt);

} // namespace portshmem::detail
