// The three issuing groups of the device API: a thread, a wave (warp), a block. A group form of a call is made by
// every thread of the group with the same arguments and acts as one operation of the group.
#pragma once

#include "portshmem/arch.hpp"

namespace portshmem {

/// One thread issues the call alone.
struct thread_group {
  PORTSHMEM_DEVICE static unsigned rank() { return 0; }
  PORTSHMEM_DEVICE static unsigned size() { return 1; }
  PORTSHMEM_DEVICE static void sync() {}
};

/// Every thread of the calling wave (AMD) / warp (NVIDIA) issues the call together.
struct wave_group {
  PORTSHMEM_DEVICE static unsigned rank() { return arch::lane(); }
  PORTSHMEM_DEVICE static unsigned size() { return arch::wave_threads(); }
  PORTSHMEM_DEVICE static void sync() { arch::wave_sync(); }
};

/// Every thread of the calling block (workgroup) issues the call together.
struct block_group {
  PORTSHMEM_DEVICE static unsigned rank() { return arch::thread_rank(); }
  PORTSHMEM_DEVICE static unsigned size() { return arch::block_threads(); }
  PORTSHMEM_DEVICE static void sync() { arch::block_sync(); }
};

} // namespace portshmem
