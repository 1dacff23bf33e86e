// The device handle (portshmem_ctx_t): the tables kernels read (peer heaps, PE placement) placed in device memory,
// and the host-visible record device code reports bad calls into.
#pragma once

#include "runtime.hpp"

namespace portshmem::detail {

/// Fills rt.ctx: copies the peer and placement tables to device memory and allocates the error record. The strict
/// flag is set afterwards by choose_lowering (gpu/lowering_choice.hpp), once every PE has its handle.
portshmem_status_t build_device_handle(runtime& rt);

/// Frees what build_device_handle allocated (safe after a partial build).
void release_device_handle(runtime& rt);

} // namespace portshmem::detail
