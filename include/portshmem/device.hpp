// The device API: everything a kernel calls. Functions take the device handle (portshmem::ctx, from
// portshmem_get_ctx on the host) by reference to a by-value kernel argument; no relocatable device code is needed.
// Layout: handle.hpp (the handle and the kernel's place in the launch) and one contract header per family (rma, amo,
// signal, sync, wait, wait_vector) declaring every public call; detail/ holds their transport-neutral bodies and
// transport/ the code that reaches a peer (ipc.hpp: load/store on mapped heaps).
#pragma once

#include "portshmem/platform.hpp"

#if PORTSHMEM_HAS_DEVICE_API
#include "portshmem/arch.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "portshmem/group.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/rma.hpp"
#include "portshmem/sync.hpp"
#include "portshmem/wait.hpp"
#include "portshmem/amo.hpp"
#include "portshmem/signal.hpp"
#include "portshmem/wait_vector.hpp"
#include "portshmem/team.hpp"
#include "portshmem/collectives.hpp"
#include "portshmem/compat/rma_names.hpp"
#include "portshmem/compat/amo_names.hpp"
#include "portshmem/compat/signal_names.hpp"

namespace portshmem {

/// Launches kernel(args...) on grid x block threads: <<<>>> on GPUs, CPU threads on the host platform.
template <class... Params, class... Args>
inline hipError_t launch(void (*kernel)(Params...), dim3 grid, dim3 block, Args&&... args) {
  return arch::launch(kernel, grid, block, 0, hipStream_t{}, static_cast<Args&&>(args)...);
}

} // namespace portshmem
#endif
