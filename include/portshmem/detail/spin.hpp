// The one spin loop every wait of the device API uses: polls until a predicate holds, and after PORTSHMEM_TIMEOUT (set
// by default; 0 turns it off) gives up with a diagnosis instead of hanging: PE, call, address, the value awaited, the
// value seen, and the PE that should have written it where the call knows. The RDMA proxy's producer loop
// (transport/proxy_ring.hpp) uses the same clock and record.
#pragma once

#include <cstdint>
#include <type_traits>

#include "portshmem/arch.hpp"
#include "portshmem/ctx.h"
#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/scalar.hpp"
#include "portshmem/types.hpp"

namespace portshmem::detail {

/// Polls before a waiting thread starts pausing between polls.
inline constexpr std::uint32_t kHotPolls = 4096;

/// Polls between two reads of the clock. The first read is at the kClockPolls-th poll, not at the start, so a wait
/// that ends sooner (nearly every wait: a ping-pong's ends in a few polls) never reads the clock, with or without a
/// timeout; the bound then counts from that read, a few microseconds after the wait began.
inline constexpr std::uint32_t kClockPolls = 1024;

/// The timeout's clock of one wait.
struct wait_clock {
  std::uint64_t start = 0; ///< the first reading; 0 before it
  /// Whether the wait has exceeded c.timeout_ns; reads the clock only every kClockPolls-th poll.
  PORTSHMEM_DEVICE bool expired(const portshmem_ctx_t& c, std::uint32_t polls) {
    if (polls % kClockPolls != 0 || !c.timeout_ns) return false;
    const std::uint64_t now = arch::time_ns();
    if (start == 0) {
      start = now;
      return false;
    }
    return now - start > c.timeout_ns;
  }
};

/// What a wait that timed out records (portshmem_device_error_t).
struct timeout_report {
  portshmem_call_id_t call;
  int target_pe; ///< the PE the call named (a wait on this PE's memory: this PE)
  const void* address;
  std::uint64_t awaited;
  std::uint64_t seen;
  cmp op; ///< seen op awaited is what the wait waited for
  bool is_signed;
  int awaited_pe; ///< the PE that should have written the word, or PORTSHMEM_PE_UNKNOWN
  portshmem_wait_kind_t kind;
};

/// Records a wait that timed out as record_error records a bad call (only the first error's details are kept), with
/// what it saw.
PORTSHMEM_DEVICE void record_timeout(const portshmem_ctx_t& c, const timeout_report& r) {
  portshmem_device_error_t* e = c.error;
  if (!e) return;
  if (!first_error(e)) return;
  e->status = std::uint32_t(PORTSHMEM_ERR_TIMEOUT);
  e->call = std::uint32_t(r.call);
  e->pe = c.my_pe;
  e->target_pe = r.target_pe;
  e->address = std::uint64_t(reinterpret_cast<std::uintptr_t>(r.address));
  e->size = r.awaited;
  e->seen = r.seen;
  e->awaited_pe = r.awaited_pe;
  e->wait_kind = std::uint8_t(r.kind);
  e->cmp = std::uint8_t(int(r.op) + 1);
  e->value_signed = r.is_signed ? 1 : 0;
  arch::fence<arch::order::release, arch::scope::system>();
}

/// The writer of a word no call can name (wait_until: any PE may write the variable). A writer is a callable giving
/// the PE, called only on timeout, so naming it costs a wait nothing.
struct unknown_writer {
  PORTSHMEM_DEVICE int operator()() const { return PORTSHMEM_PE_UNKNOWN; }
};

/// Polls ready() until it returns true; ready() polls *address for a value that compares op to awaited. On timeout
/// records PORTSHMEM_ERR_TIMEOUT with the call, the address, the awaited value, the value *address holds then and the
/// PE writer() names, then traps: the kernel fails and the host prints the record (portshmem_check_device_errors).
template <class T, class Ready, class Writer = unknown_writer>
PORTSHMEM_DEVICE void spin_until(const portshmem_ctx_t& c, const Ready& ready, portshmem_call_id_t call,
                                 const T* address, std::uint64_t awaited, cmp op, const Writer& writer = {}) {
  if (ready()) return;
  wait_clock clock;
  for (std::uint32_t polls = 1;; ++polls) {
    if (ready()) return;
    // Poll hot first: a pause (GPU sleep, CPU yield) between polls adds its length to the latency of a wait that is
    // about to end. Long waits back off so the waited-for work gets the issue slots (or the CPU core).
    if (polls > kHotPolls) arch::spin_pause();
    if (clock.expired(c, polls)) {
      if (c.error) { // the word's value now, read only to be recorded
        const T seen = load_value<arch::order::relaxed, arch::scope::system>(address);
        record_timeout(c, {call, c.my_pe, address, awaited, std::uint64_t(seen), op, std::is_signed_v<T>, writer(),
                           PORTSHMEM_WAIT_MEMORY});
      }
      arch::trap();
    }
  }
}

} // namespace portshmem::detail
