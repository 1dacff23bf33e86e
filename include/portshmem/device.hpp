// The device API: everything a kernel calls. Functions take the device handle (portshmem::ctx, from
// portshmem_get_ctx on the host) by reference to a by-value kernel argument; no relocatable device code is needed.
#pragma once

#include "portshmem/platform.hpp"

#if PORTSHMEM_HAS_DEVICE_API
#include "portshmem/arch.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "portshmem/group.hpp"
#include "portshmem/rma.hpp"
#include "portshmem/sync.hpp"
#include "portshmem/wait.hpp"
#include "portshmem/amo.hpp"
#include "portshmem/signal.hpp"
#include "portshmem/wait_vector.hpp"
#include "portshmem/compat/rma_names.hpp"
#include "portshmem/compat/amo_names.hpp"
#include "portshmem/compat/signal_names.hpp"

namespace portshmem {

PORTSHMEM_DEVICE int my_pe(const ctx& c) {
  return c.my_pe;
}
PORTSHMEM_DEVICE int n_pes(const ctx& c) {
  return c.n_pes;
}

/// A pointer for ordinary loads/stores to pe's copy of the symmetric object at addr, or nullptr when pe has no
/// load/store path from here (or addr is not symmetric; no error is recorded: asking is not a bad call).
template <class T>
PORTSHMEM_DEVICE T* ptr(const ctx& c, T* addr, int pe) {
  const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(addr) - reinterpret_cast<std::uintptr_t>(c.heap);
  if (pe < 0 || pe >= c.n_pes || offset >= c.heap_size || !c.peer_heaps[pe]) return nullptr;
  return reinterpret_cast<T*>(c.peer_heaps[pe] + offset);
}

/// Launches kernel(args...) on grid x block threads: <<<>>> on GPUs, CPU threads on the host platform.
template <class... Params, class... Args>
inline hipError_t launch(void (*kernel)(Params...), dim3 grid, dim3 block, Args&&... args) {
  return arch::launch(kernel, grid, block, 0, hipStream_t{}, static_cast<Args&&>(args)...);
}

} // namespace portshmem
#endif
