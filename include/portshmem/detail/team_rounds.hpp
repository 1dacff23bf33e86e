// The synchronization every team collective is built from (the slot layout and the round rule: detail/team_state.hpp).
// A call takes its rounds from the team's counter, sends with put-with-signal or signal_op (the public transport-
// neutral paths, so IPC and the proxy both carry collectives), and waits by polling this PE's words of the slot. The
// slot lies in the runtime's team area at the heap's end, outside the user part device calls may name (ctx.heap,
// ctx.heap_size): its words and scratch go through those paths as the runtime's addresses (area::runtime, not range-
// checked; the slot's offsets are the team handle's, checked by team_usable).
// A word's value is round << kFingerprintBits | a fingerprint of the call (its kind, sizes, root, operator), so a
// debug-check build can tell a member that made a different call from one that is merely late.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "portshmem/arch.hpp"
#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/copy.hpp"
#include "portshmem/detail/publish.hpp"
#include "portshmem/detail/signal.hpp"
#include "portshmem/detail/spin.hpp"
#include "portshmem/detail/team_state.hpp"
#include "portshmem/group.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/team.hpp"

namespace portshmem::detail {

inline constexpr unsigned kFingerprintBits = 16;
inline constexpr std::uint64_t kFingerprintMask = (std::uint64_t{1} << kFingerprintBits) - 1;

/// The collective kinds, for fingerprints.
enum class coll_kind : std::uint32_t {
  barrier = 1,
  sync,
  broadcast,
  fcollect,
  collect,
  alltoall,
  reduce,
  reduce_scatter
};

/// A call's fingerprint: FNV-1a over what every member must pass alike.
PORTSHMEM_DEVICE std::uint64_t fingerprint(coll_kind kind, std::uint64_t a = 0, std::uint64_t b = 0,
                                           std::uint64_t d = 0) {
  constexpr std::uint64_t kPrime = 1099511628211ull;
  std::uint64_t h = (1469598103934665603ull ^ std::uint64_t(kind)) * kPrime;
  h = ((h ^ a) * kPrime ^ b) * kPrime;
  h = (h ^ d) * kPrime;
  return (h ^ (h >> 32)) & kFingerprintMask;
}

/// The rounds of one call: the first round's word value (later rounds add kRoundStep) and its scratch uses' first.
struct rounds {
  std::uint64_t first;         // word value of the call's first round
  std::uint64_t scratch_first; // the call's first scratch use (its parity picks the scratch half)
};
inline constexpr std::uint64_t kRoundStep = std::uint64_t{1} << kFingerprintBits;

PORTSHMEM_DEVICE team_header* header_of(const ctx& c, const team& t) {
  return reinterpret_cast<team_header*>(heap_start(c) + t.state_offset);
}

/// This PE's word for member `from` (symmetric: the same address names `from`'s word on any member).
PORTSHMEM_DEVICE std::uint64_t* word_of(const ctx& c, const team& t, int from) {
  return reinterpret_cast<std::uint64_t*>(heap_start(c) + t.state_offset + kTeamHeaderBytes) + from;
}

/// Bytes of each of the two scratch halves.
PORTSHMEM_DEVICE std::size_t scratch_half(const team& t) {
  return t.scratch_bytes / 2 / kTeamAlign * kTeamAlign;
}

/// The scratch half of scratch use u (symmetric).
PORTSHMEM_DEVICE char* scratch_of(const ctx& c, const team& t, std::uint64_t use) {
  return heap_start(c) + t.scratch_offset + (use % 2) * scratch_half(t);
}

/// Called by every member of the group: reserves `count` rounds and `scratch_uses` scratch uses on t. Members of a
/// team call collectives in the same order with the same arguments, so every PE numbers the same rounds alike.
template <class Group>
PORTSHMEM_DEVICE rounds take_rounds(const ctx& c, const team& t, std::uint64_t count, std::uint64_t scratch_uses,
                                    std::uint64_t fp) {
  team_header* h = header_of(c, t);
  Group::sync(); // the previous call's leader store is seen by every member
  const std::uint64_t round = arch::load<arch::order::relaxed, kDataScope>(&h->round);
  const std::uint64_t uses = arch::load<arch::order::relaxed, kDataScope>(&h->scratch_uses);
  Group::sync(); // every member read before the leader writes
  if (Group::rank() == 0) {
    arch::store<arch::order::relaxed, kDataScope>(&h->round, round + count);
    arch::store<arch::order::relaxed, kDataScope>(&h->scratch_uses, uses + scratch_uses);
  }
  return {((round + 1) << kFingerprintBits) | fp, uses};
}

/// Resolved qualifiers of the collectives' messages: comm coverage (every byte a collective sends is a bypass put, so
/// a comm-covered release publishes it without a cache write-back on AMD) and strong signals (a member's word then
/// vouches for everything it sent here before, across rounds and calls). Scope from the call.
template <class S>
using message_q = mm::resolve<kPutSignalQualifiers, mm::comm_t, mm::strong_t, S>;

/// The group sends bytes from src to member `to`'s dest and then sets this PE's word there to `value`; to == me
/// copies locally and sets nothing (nobody waits on a PE's own word). Either way the group is synchronized on return.
/// Dest: whose address dest is, the caller's (area::user, checked like a put's) or the slot's scratch (area::runtime).
template <class Group, class S, area Dest = area::user>
PORTSHMEM_DEVICE_OUTLINED void send(const ctx& c, const team& t, void* dest, const void* src, std::size_t bytes, int to,
                                    std::uint64_t value) {
  if (to == t.my_index) {
    if (bytes && dest != src) {
      copy_bytes<arch::cache::keep, arch::cache::keep, kDataScope>(dest, src, bytes, Group::rank(), Group::size());
    }
    Group::sync(); // as a put ends: the whole copy is done before any member goes on
    return;
  }
  put_signal_bytes<Group, message_q<S>, true, area::runtime, Dest>(c, dest, src, bytes, word_of(c, t, t.my_index),
                                                                   value, signal_set, team_world_pe(t, to));
}

/// Messages up to this size go to the members in parallel, one wave of the block per member; larger ones one member at
/// a time with the whole group, whose threads then share each copy (bandwidth is the limit there, not latency).
inline constexpr std::size_t kFanOutWaveBytes = 16 * 1024;

/// One message of a fan-out: bytes from src to member `to`'s dest, then this PE's word there set to value.
struct message {
  void* dest;
  const void* src;
  std::size_t bytes;
  int to;
  std::uint64_t value;
};

/// The group sends message_of(k) for k = 1 .. count, each to a member other than this one, and is synchronized on
/// return. A block sends messages of at most kFanOutWaveBytes (max_bytes bounds them all) in parallel, its waves taking
/// the members in turn; each wave's put-with-signal is the wave form of the same call, so each message promises what
/// send's does. Otherwise the messages go one after the other, each by the whole group. Dest: as send's.
template <class Group, class S, area Dest = area::user, class MessageOf>
PORTSHMEM_DEVICE void send_each(const ctx& c, const team& t, int count, std::size_t max_bytes,
                                const MessageOf& message_of) {
  if constexpr (std::is_same_v<Group, block_group>) {
    const unsigned waves = (arch::block_threads() + arch::wave_size() - 1) / arch::wave_size();
    if (waves > 1 && count > 1 && max_bytes <= kFanOutWaveBytes) {
      for (int k = 1 + int(arch::thread_rank() / arch::wave_size()); k <= count; k += int(waves)) {
        const message m = message_of(k);
        send<wave_group, S, Dest>(c, t, m.dest, m.src, m.bytes, m.to, m.value);
      }
      Group::sync();
      return;
    }
  }
  for (int k = 1; k <= count; ++k) {
    const message m = message_of(k);
    send<Group, S, Dest>(c, t, m.dest, m.src, m.bytes, m.to, m.value);
  }
}

/// The group sets this PE's word on member `to` to `value` (no data); R's coverage orders the caller's earlier ordinary
/// stores before it (barrier and sync, as sync_all).
template <class Group, class R>
PORTSHMEM_DEVICE void notify(const ctx& c, const team& t, int to, std::uint64_t value) {
  if (Group::rank() == 0) {
    signal_update_on<R, area::runtime>(c, word_of(c, t, t.my_index), value, signal_set, team_world_pe(t, to));
  }
}

/// One member of the group polls member from's word until it reaches the round of `value` (relaxed polls: the caller
/// acquires once, after all of them); a debug-check build records a member whose word shows this round with another
/// call's fingerprint.
PORTSHMEM_DEVICE_OUTLINED void await_word(const ctx& c, const team& t, int from, std::uint64_t value) {
  std::uint64_t* word = word_of(c, t, from);
  const std::uint64_t round_floor = value & ~kFingerprintMask;
  std::uint64_t seen = 0;
  spin_until(
      c,
      [&] {
        seen = arch::load<arch::order::relaxed, kDataScope>(word);
        return seen >= round_floor;
      },
      PORTSHMEM_CALL_COLLECTIVE, word, round_floor, cmp::ge, [&] { return team_world_pe(t, from); });
  if constexpr (PORTSHMEM_DEBUG_CHECKS) {
    if ((seen & ~kFingerprintMask) == round_floor && seen != value) {
      record_error(c, PORTSHMEM_ERR_MISMATCH, PORTSHMEM_CALL_COLLECTIVE, team_world_pe(t, from), word, value);
    }
  }
}

/// After the polls: the acquire of a wait with qualifiers R (later ordinary loads see what the members sent).
template <class R>
PORTSHMEM_DEVICE void acquire_after_polls(const ctx& c) {
  if (strict_run<R>(c)) {
    arch::fence<arch::order::acquire, arch::scope::system>();
  } else if constexpr (R::acquire_of == mm::acquire_kind::acquire) {
    arch::fence<arch::order::acquire, R::hw_scope>();
  } else if constexpr (R::acquire_of == mm::acquire_kind::comm) {
    arch::fence_comm<arch::order::acquire, R::hw_scope>();
  }
}

/// The group waits until every member i != me with expects(i) has reached `value`'s round: the group's threads poll
/// the members' words in parallel (thread r polls members r, r + size, ...: an arrived word costs one load, not one
/// load after each earlier member's), each poller acquires (R), then the group synchronizes so every thread may read
/// what arrived.
template <class Group, class R, class Expects>
PORTSHMEM_DEVICE void await_members(const ctx& c, const team& t, std::uint64_t value, const Expects& expects) {
  bool polled = false;
  for (int i = int(Group::rank()); i < t.size; i += int(Group::size())) {
    if (i != t.my_index && expects(i)) {
      await_word(c, t, i, value);
      polled = true;
    }
  }
  if (polled) acquire_after_polls<R>(c);
  Group::sync();
}

/// Whether the caller may run a collective on t: a member of a well-formed team whose slot lies in the team area
/// (past the heap's user part; its offsets count from the heap start), else recorded, once for the group's one call,
/// and skipped.
template <class Group>
PORTSHMEM_DEVICE bool team_usable(const ctx& c, const team& t) {
  if (t.size >= 1 && t.my_index >= 0 && t.my_index < t.size && t.state_offset >= kInternalHeapBytes + c.heap_size &&
      t.scratch_offset > t.state_offset && team_world_pe(t, t.my_index) == c.my_pe) {
    return true;
  }
  if (Group::rank() == 0) {
    record_error(c, PORTSHMEM_ERR_INVALID_ARG, PORTSHMEM_CALL_COLLECTIVE, c.my_pe, nullptr, std::uint64_t(t.slot));
  }
  return false;
}

} // namespace portshmem::detail
