// The producer side of the reverse-offload queue (protocol: transport/proxy_queue.h): device threads reserve
// tickets, write commands into host-visible slots, publish each with one release store, and wait for completion or a
// fetched value. Written once against the arch layer's primitives, so it compiles for host, nvidia and amd.
#pragma once

#include <cstdint>

#include "portshmem/arch.hpp"
#include "portshmem/ctx.h"
#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/spin.hpp"
#include "portshmem/status.h"
#include "portshmem/transport/proxy_queue.h"

namespace portshmem::proxy {

using command = portshmem_proxy_cmd_t;
using ring = portshmem_proxy_ring_t;

/// What submit waits for after publishing: nothing (non-blocking forms), the command's completion (blocking put,
/// get, fence, quiet), or its fetched value (fetching AMOs; implies completion).
enum class wait_for { nothing, completion, value };

/// Polls before a waiting producer starts pausing between polls (as detail/spin.hpp).
inline constexpr std::uint32_t kHotPolls = portshmem::detail::kHotPolls;

namespace detail {
inline constexpr auto kSys = arch::scope::system;
inline constexpr auto kRelaxed = arch::order::relaxed;
inline constexpr auto kAcquire = arch::order::acquire;
inline constexpr auto kRelease = arch::order::release;

/// The symmetric address a command names (remote counts from the heap start, kInternalHeapBytes before ctx.heap), in
/// the caller's address space (for error records).
PORTSHMEM_DEVICE const void* named_address(const portshmem_ctx_t& c, std::uint64_t remote) {
  return portshmem::detail::heap_start(c) + remote;
}

/// Protocol step 3: words 1..7 relaxed, then seq with release (system scope: the reader is the proxy's CPU thread).
PORTSHMEM_DEVICE void write_and_publish(command* slot, const command& cmd, std::uint64_t ticket) {
  std::uint64_t words[PORTSHMEM_PROXY_CMD_BYTES / 8];
  __builtin_memcpy(words, &cmd, sizeof words);
  auto* out = reinterpret_cast<std::uint64_t*>(slot);
  for (unsigned i = 1; i < PORTSHMEM_PROXY_CMD_BYTES / 8; ++i) arch::store<kRelaxed, kSys>(out + i, words[i]);
  arch::store<kRelease, kSys>(&slot->seq, ticket + 1);
}

/// Whether r was made by code of this layout version (else records the mismatch): checked before taking a ticket,
/// since a ticket taken and never published would stop the ring.
PORTSHMEM_DEVICE bool same_layout(const portshmem_ctx_t& c, const ring& r, const command& cmd) {
  if (r.version == PORTSHMEM_PROXY_QUEUE_VERSION) return true;
  portshmem::detail::record_error(c, PORTSHMEM_ERR_INVALID_ARG, portshmem_call_id_t(cmd.call), cmd.pe, nullptr,
                                  r.version);
  return false;
}

/// The ring's sticky error, if it covers ticket (protocol step 7); recorded in the handle's error record too.
PORTSHMEM_DEVICE portshmem_status_t ring_error(const portshmem_ctx_t& c, const ring& r, const command& cmd,
                                               std::uint64_t ticket) {
  const portshmem_proxy_ring_state_t* s = r.state;
  if (arch::load<kRelaxed, kSys>(&s->error_count) == 0) return PORTSHMEM_SUCCESS;
  if (arch::load<kRelaxed, kSys>(&s->error_ticket) > ticket) return PORTSHMEM_SUCCESS; // a later command failed
  const auto status = portshmem_status_t(arch::load<kRelaxed, kSys>(&s->error_status));
  portshmem::detail::record_error(c, status, portshmem_call_id_t(cmd.call), arch::load<kRelaxed, kSys>(&s->error_pe),
                                  named_address(c, arch::load<kRelaxed, kSys>(&s->error_remote)), cmd.size);
  return status;
}
} // namespace detail

/// One ticket for the calling thread (protocol step 1).
PORTSHMEM_DEVICE std::uint64_t reserve(const ring& r) {
  return arch::fetch_add<detail::kRelaxed, detail::kSys>(r.reserve, std::uint64_t(1));
}

/// Wave form of reserve: every lane of the wave calls it together; the lanes with issues == true get consecutive
/// tickets from one atomic on the ring (the others get a value they must not use). scratch: two words the wave's
/// lanes can all reach (shared memory on GPUs), used by one wave at a time.
PORTSHMEM_DEVICE std::uint64_t reserve_wave(const ring& r, bool issues, std::uint64_t* scratch) {
  constexpr auto kWave = arch::scope::wave;
  const bool leader = arch::lane() == 0;
  if (leader) arch::store<detail::kRelaxed, kWave>(&scratch[0], std::uint64_t(0));
  arch::wave_sync();
  std::uint64_t index = 0;
  if (issues) index = arch::fetch_add<detail::kRelaxed, kWave>(&scratch[0], std::uint64_t(1));
  arch::wave_sync();
  if (leader) {
    const std::uint64_t n = arch::load<detail::kRelaxed, kWave>(&scratch[0]);
    const std::uint64_t first = n ? arch::fetch_add<detail::kRelaxed, detail::kSys>(r.reserve, n) : 0;
    arch::store<detail::kRelaxed, kWave>(&scratch[1], first);
  }
  arch::wave_sync();
  // The next call's leader rewrites scratch[1] only after two more wave_syncs, which every lane reaches after this.
  return arch::load<detail::kRelaxed, kWave>(&scratch[1]) + index;
}

/// Writes cmd into ticket's slot (a ticket from reserve or reserve_wave) once the slot is free, publishes it, and waits
/// for what w names. fetched receives the value of a fetching AMO (w == value). Returns the ring's error when the
/// command (or an earlier one of this ring) failed, PORTSHMEM_ERR_TIMEOUT when ctx.timeout_ns passed first; both are
/// also recorded in ctx.error. A command that fetches into its result cell is always waited for: its slot is not reused
/// before the value is read. Every stage is one loop, so lanes of one wave that wait for different things all make
/// progress.
PORTSHMEM_DEVICE portshmem_status_t submit(const portshmem_ctx_t& c, const ring& r, std::uint64_t ticket,
                                           const command& cmd, wait_for w, std::uint64_t* fetched = nullptr) {
  using namespace detail;
  const bool uses_cell = PORTSHMEM_PROXY_USES_CELL(cmd.op, cmd.kind, cmd.local);
  if (uses_cell) w = wait_for::value;
  const std::uint64_t index = ticket & (r.capacity - 1);
  enum stage { for_slot, for_completion, done };
  stage at = for_slot;
  portshmem_status_t status = PORTSHMEM_SUCCESS;
  portshmem::detail::wait_clock clock; // as detail/spin.hpp's: a command answered within 1024 polls reads no clock
  for (std::uint32_t polls = 1;; ++polls) {
    if (at == for_slot && ticket - arch::load<kAcquire, kSys>(&r.state->consumed) < r.capacity) {
      write_and_publish(r.slots + index, cmd, ticket);
      at = w == wait_for::nothing ? done : for_completion;
    } else if (at == for_completion && arch::load<kAcquire, kSys>(&r.state->completed) > ticket) {
      status = ring_error(c, r, cmd, ticket);
      if (uses_cell) {
        const std::uint64_t v = arch::load<kRelaxed, kSys>(&r.results[index].value);
        if (fetched) *fetched = v;
        arch::store<kRelease, kSys>(&r.results[index].ack, ticket + 1); // after the read: the cell may be reused
      }
      at = done;
    }
    if (at == done) return status;
    if (polls > kHotPolls) arch::spin_pause();
    if (clock.expired(c, polls)) {
      // A slot that never frees, or a completion that never comes: the proxy is stuck or gone. Say which, with the
      // count awaited (the slot frees once `consumed` passes ticket - capacity) and the count seen.
      const bool slot = at == for_slot;
      const std::uint64_t seen = arch::load<kRelaxed, kSys>(slot ? &r.state->consumed : &r.state->completed);
      portshmem::detail::record_timeout(c, {portshmem_call_id_t(cmd.call), cmd.pe, named_address(c, cmd.remote),
                                            slot ? ticket - r.capacity + 1 : ticket + 1, seen, cmp::ge, false, cmd.pe,
                                            slot ? PORTSHMEM_WAIT_PROXY_SLOT : PORTSHMEM_WAIT_PROXY_COMPLETED});
      return PORTSHMEM_ERR_TIMEOUT;
    }
  }
}

/// reserve + submit for one thread; PORTSHMEM_ERR_INVALID_ARG for a ring of another layout version.
PORTSHMEM_DEVICE portshmem_status_t post(const portshmem_ctx_t& c, const ring& r, const command& cmd, wait_for w,
                                         std::uint64_t* fetched = nullptr) {
  if (!detail::same_layout(c, r, cmd)) return PORTSHMEM_ERR_INVALID_ARG;
  return submit(c, r, reserve(r), cmd, w, fetched);
}

/// reserve_wave + submit: a wave-collective call; lanes with issues == false post nothing and return success.
PORTSHMEM_DEVICE portshmem_status_t post_wave(const portshmem_ctx_t& c, const ring& r, bool issues, const command& cmd,
                                              wait_for w, std::uint64_t* scratch, std::uint64_t* fetched = nullptr) {
  if (!detail::same_layout(c, r, cmd)) return PORTSHMEM_ERR_INVALID_ARG; // the same ring for every lane
  const std::uint64_t ticket = reserve_wave(r, issues, scratch);
  return issues ? submit(c, r, ticket, cmd, w, fetched) : PORTSHMEM_SUCCESS;
}

// ---- commands (protocol fields: transport/proxy_queue.h)
// -------------------------------------------------------------

PORTSHMEM_HOST_DEVICE command make_command(portshmem_proxy_op_t op, int pe, std::uint64_t remote,
                                           portshmem_call_id_t call) {
  command cmd{};
  cmd.op = std::uint8_t(op);
  cmd.pe = pe;
  cmd.remote = remote;
  cmd.call = std::uint32_t(call);
  return cmd;
}

/// bytes from local to pe's heap at offset remote; blocking: complete only once local may be reused.
PORTSHMEM_HOST_DEVICE command put_command(int pe, std::uint64_t remote, const void* local, std::uint64_t bytes,
                                          bool blocking) {
  command cmd = make_command(PORTSHMEM_PROXY_OP_PUT, pe, remote, PORTSHMEM_CALL_PUT);
  cmd.local = std::uint64_t(reinterpret_cast<std::uintptr_t>(local));
  cmd.size = bytes;
  cmd.flags = blocking ? PORTSHMEM_PROXY_FLAG_BLOCKING : 0;
  return cmd;
}

/// bytes (at most 8) of value, carried in the command, to pe's heap at offset remote.
PORTSHMEM_HOST_DEVICE command put_inline_command(int pe, std::uint64_t remote, std::uint64_t value,
                                                 std::uint64_t bytes) {
  command cmd = make_command(PORTSHMEM_PROXY_OP_PUT, pe, remote, PORTSHMEM_CALL_P);
  cmd.value = value;
  cmd.size = bytes;
  cmd.flags = PORTSHMEM_PROXY_FLAG_INLINE;
  return cmd;
}

/// bytes from pe's heap at offset remote to local; local nullptr: at most 8 bytes into the result cell (submit's
/// fetched).
PORTSHMEM_HOST_DEVICE command get_command(int pe, std::uint64_t remote, void* local, std::uint64_t bytes) {
  command cmd = make_command(PORTSHMEM_PROXY_OP_GET, pe, remote, PORTSHMEM_CALL_GET);
  cmd.local = std::uint64_t(reinterpret_cast<std::uintptr_t>(local));
  cmd.size = bytes;
  return cmd;
}

/// An atomic of width (4 or 8) bytes on pe's heap at offset remote; compare is compare_swap's expected value. A
/// fetching kind leaves its value in the result cell (submit's fetched), or at fetch_into when that is not null.
PORTSHMEM_HOST_DEVICE command amo_command(portshmem_proxy_amo_t kind, int pe, std::uint64_t remote, unsigned width,
                                          std::uint64_t value, std::uint64_t compare = 0, void* fetch_into = nullptr) {
  command cmd = make_command(PORTSHMEM_PROXY_OP_AMO, pe, remote, PORTSHMEM_CALL_AMO);
  cmd.kind = std::uint8_t(kind);
  cmd.width = std::uint8_t(width);
  cmd.value = value;
  cmd.aux = compare;
  cmd.local = std::uint64_t(reinterpret_cast<std::uintptr_t>(fetch_into));
  return cmd;
}

/// Sets or adds value to the 8-byte signal word at offset remote of pe's heap.
PORTSHMEM_HOST_DEVICE command signal_command(portshmem_proxy_signal_op_t op, int pe, std::uint64_t remote,
                                             std::uint64_t value) {
  command cmd = make_command(PORTSHMEM_PROXY_OP_SIGNAL, pe, remote, PORTSHMEM_CALL_SIGNAL);
  cmd.kind = std::uint8_t(op);
  cmd.value = value;
  return cmd;
}

/// A put, then a signal op on the word at signal_remote, which pe observes only after the data.
PORTSHMEM_HOST_DEVICE command put_signal_command(int pe, std::uint64_t remote, const void* local, std::uint64_t bytes,
                                                 std::uint64_t signal_remote, std::uint64_t signal_value,
                                                 portshmem_proxy_signal_op_t op, bool blocking) {
  command cmd = put_command(pe, remote, local, bytes, blocking);
  cmd.op = PORTSHMEM_PROXY_OP_PUT_SIGNAL;
  cmd.kind = std::uint8_t(op);
  cmd.value = signal_value;
  cmd.aux = signal_remote;
  cmd.call = PORTSHMEM_CALL_SIGNAL;
  return cmd;
}

/// FENCE, QUIET (pe ignored) or PE_QUIET; call names the API call for error records.
PORTSHMEM_HOST_DEVICE command ordering_command(portshmem_proxy_op_t op, int pe, portshmem_call_id_t call) {
  return make_command(op, pe, 0, call);
}

} // namespace portshmem::proxy
