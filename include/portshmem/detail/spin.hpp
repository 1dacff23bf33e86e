// The one spin loop every wait of the device API uses: polls until a predicate holds, and — when PORTSHMEM_TIMEOUT
// is set — gives up after that long with a diagnosis (PE, call, address, awaited value) instead of hanging.
#pragma once

#include <cstdint>

#include "portshmem/arch.hpp"
#include "portshmem/detail/checks.hpp"

namespace portshmem::detail {

/// Polls before a waiting thread starts pausing between polls.
inline constexpr std::uint32_t kHotPolls = 4096;

/// Polls ready() until it returns true. On timeout records PORTSHMEM_ERR_TIMEOUT with the call, the address and the
/// awaited value, then traps: the kernel fails and the host prints the record (portshmem_check_device_errors).
template <class Ready>
PORTSHMEM_DEVICE void spin_until(const portshmem_ctx_t& c, const Ready& ready, portshmem_call_id_t call,
                                 const void* address, std::uint64_t awaited) {
  if (ready()) return;
  const std::uint64_t start = c.timeout_ns ? arch::time_ns() : 0;
  for (std::uint32_t polls = 1;; ++polls) {
    if (ready()) return;
    // Poll hot first: a pause (GPU sleep, CPU yield) between polls adds its length to the latency of a wait that is
    // about to end. Long waits back off so the waited-for work gets the issue slots (or the CPU core).
    if (polls > kHotPolls) arch::spin_pause();
    if (c.timeout_ns && polls % 1024 == 0 && arch::time_ns() - start > c.timeout_ns) {
      record_error(c, PORTSHMEM_ERR_TIMEOUT, call, c.my_pe, address, awaited);
      arch::trap();
    }
  }
}

} // namespace portshmem::detail
