// The bodies of collectives.hpp: each collective is a fixed number of rounds (detail/team_rounds.hpp) of puts with
// signals between the members of a team, chosen by size and team shape (docs/api.md, "Collectives", states the
// choices, their crossovers and what each call promises). Everything moves through the public transport-neutral
// paths (put_signal_bytes, signal_update_on), so collectives run over IPC and the proxy alike; the team's words and
// scratch are named as the runtime's addresses (area::runtime), the caller's dest as a user's.
// Relaxed forms used, and why the model allows them:
//  - data messages: coverage mm::comm with a strong signal (message_q): every byte a collective sends is a bypass put,
//    which a comm-covered release publishes, so no cache write-back of the caller's ordinary stores is paid;
//  - the waits poll with relaxed loads and acquire once after the last word (acquire_after_polls), instead of one
//    acquire per member;
//  - barrier's arrivals are comm-covered: the quiet before them already completed and published everything.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "portshmem/arch.hpp"
#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/copy.hpp"
#include "portshmem/detail/reduce_ops.hpp"
#include "portshmem/detail/sync.hpp"
#include "portshmem/detail/team_rounds.hpp"
#include "portshmem/group.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/team.hpp"

namespace portshmem::detail {

inline constexpr unsigned kCollectiveQualifiers = mm::cat::scope;
inline constexpr unsigned kBarrierQualifiers = mm::cat::coverage | mm::cat::scope;

/// Bytes from which broadcast scatters slices and lets every member forward its slice (two rounds, the root sends
/// each byte once) instead of the root putting everything to everyone (one round, root sends (n-1) copies).
inline constexpr std::size_t kBroadcastScatterBytes = 64 * 1024;
/// Bytes up to which reduce sends every member's whole input to every member (one round); beyond it, or when n copies
/// do not fit a scratch half, it reduces slices (two rounds per scratch-sized chunk: reduce-scatter, then all-gather).
inline constexpr std::size_t kReduceOneShotBytes = 16 * 1024;

/// The scope qualifier tag of R, to pass on to the calls a collective makes.
template <class R>
using scope_tag = std::conditional_t<R::scope_of == mm::scope_kind::device, mm::device_t,
                                     std::conditional_t<R::scope_of == mm::scope_kind::node, mm::node_t, mm::system_t>>;

/// The waits' qualifiers: acquire (or comm, for a comm-covered barrier) at the call's scope.
template <class R>
using await_q =
    mm::resolve<kWaitQualifiers, std::conditional_t<R::cover == mm::coverage_kind::comm, mm::comm_t, mm::acquire_t>,
                scope_tag<R>>;

/// Teams up to this size synchronize in one round: every member notifies every other, the group's threads sending and
/// polling in parallel. Larger teams take a dissemination's ceil(log2(n)) rounds. The choice depends on the team size
/// alone, so every member takes the same number of rounds.
inline constexpr int kOneShotSyncMembers = 16;

/// ceil(log2(n)): the rounds of a dissemination among n members.
PORTSHMEM_DEVICE int dissemination_rounds(int n) {
  int k = 0;
  for (int reach = 1; reach < n; reach *= 2) ++k;
  return k;
}

/// Barrier (Quiet: quiet first) or sync among t's members. Up to kOneShotSyncMembers members: one round, in which the
/// group's threads notify the other members in parallel and then poll their words in parallel. Larger teams: a
/// dissemination run by the group's leader, in round k notifying member (me + 2^k) mod n and waiting for member
/// (me - 2^k) mod n.
template <class Group, bool Quiet, class R>
PORTSHMEM_DEVICE void team_barrier(const ctx& c, const team& t) {
  arch::join_comm_stores();
  if (!team_usable<Group>(c, t)) return Group::sync();
  const int n = t.size, me = t.my_index;
  const bool one_shot = n <= kOneShotSyncMembers;
  const int count = one_shot ? (n > 1 ? 1 : 0) : dissemination_rounds(n);
  const rounds r =
      take_rounds<Group>(c, t, std::uint64_t(count), 0, fingerprint(Quiet ? coll_kind::barrier : coll_kind::sync));
  if (one_shot) {
    if constexpr (Quiet) {
      if (Group::rank() == 0) quiet_all<R>(c);
      Group::sync();
    }
    // Each arrival publishes as sync_all's does (coverage all): the notifying threads are not the one that quieted.
    using notify_q = mm::resolve<kSignalOpQualifiers, mm::all_t, scope_tag<R>>;
    for (int k = 1 + int(Group::rank()); k < n; k += int(Group::size())) {
      signal_update_on<notify_q, area::runtime>(c, word_of(c, t, me), r.first, signal_set,
                                                team_world_pe(t, (me + k) % n));
    }
    await_members<Group, await_q<R>>(c, t, r.first, [](int) { return true; });
    return;
  }
  if (Group::rank() == 0) {
    if constexpr (Quiet) quiet_all<R>(c);
    // After a quiet the arrival needs no release of its own (comm); sync's arrival publishes as sync_all's does.
    using notify_q = mm::resolve<kSignalOpQualifiers, std::conditional_t<Quiet, mm::comm_t, mm::all_t>, scope_tag<R>>;
    for (int k = 0, dist = 1; k < count; ++k, dist *= 2) {
      const std::uint64_t value = r.first + std::uint64_t(k) * kRoundStep;
      signal_update_on<notify_q, area::runtime>(c, word_of(c, t, me), value, signal_set,
                                                team_world_pe(t, (me + dist) % n));
      await_word(c, t, (me - dist % n + n) % n, value);
      acquire_after_polls<await_q<R>>(c); // each round's acquire is what the next round's arrival passes on
    }
  }
  Group::sync();
}

/// broadcast: root's src to every member's dest (root's too).
template <class Group, class R>
PORTSHMEM_DEVICE void broadcast_bytes(const ctx& c, const team& t, void* dest, const void* src, std::size_t bytes,
                                      int root) {
  using S = scope_tag<R>;
  if (!team_usable<Group>(c, t)) return;
  if (root < 0 || root >= t.size) {
    if (Group::rank() == 0) record_error(c, PORTSHMEM_ERR_INVALID_PE, PORTSHMEM_CALL_COLLECTIVE, root, dest, bytes);
    return;
  }
  const int n = t.size, me = t.my_index;
  const bool scatter = bytes >= kBroadcastScatterBytes && n > 2;
  const rounds r = take_rounds<Group>(c, t, scatter ? 2 : 1, 0, fingerprint(coll_kind::broadcast, bytes, root));
  auto* d = static_cast<char*>(dest);
  const auto* s = static_cast<const char*>(src);
  if (!scatter) {
    if (me == root) {
      send_each<Group, S>(c, t, n - 1, bytes, [&](int k) { return message{dest, src, bytes, (me + k) % n, r.first}; });
      send<Group, S>(c, t, dest, src, bytes, me, 0); // self last: src is read by every send before dest is written
    } else {
      await_members<Group, await_q<R>>(c, t, r.first, [&](int i) { return i == root; });
    }
    return;
  }
  // Slices of 256-byte multiples (whole lines for the copies); the last ones may be short or empty. The root keeps
  // its whole src in its own dest and sends each member one slice; every member then forwards its slice to the others
  // but the root (the root sends its own slice in that round too).
  const std::size_t q = ((bytes + std::size_t(n) - 1) / std::size_t(n) + 255) & ~std::size_t(255);
  auto at = [&](int j) { return q * std::size_t(j) < bytes ? q * std::size_t(j) : bytes; };
  auto length = [&](int j) { return at(j + 1) - at(j); };
  const std::uint64_t scattered = r.first, gathered = r.first + kRoundStep;
  if (me == root) {
    send_each<Group, S>(c, t, n - 1, q, [&](int k) {
      const int j = (me + k) % n;
      return message{d + at(j), s + at(j), length(j), j, scattered};
    });
    send<Group, S>(c, t, dest, src, bytes, me, 0);
    send_each<Group, S>(c, t, n - 1, q, [&](int k) {
      return message{d + at(me), s + at(me), length(me), (me + k) % n, gathered};
    });
    return;
  }
  await_members<Group, await_q<R>>(c, t, scattered, [&](int i) { return i == root; });
  // Every member but the root, which has everything (its turn in the order below is skipped).
  send_each<Group, S>(c, t, n - 2, q, [&](int k) {
    const int j = (me + k) % n, to = j == root || (root - me + n) % n < k ? (j + 1) % n : j;
    return message{d + at(me), d + at(me), length(me), to, gathered};
  });
  await_members<Group, await_q<R>>(c, t, gathered, [](int) { return true; });
}

/// fcollect: member i's src to dest + i * bytes on every member.
template <class Group, class R>
PORTSHMEM_DEVICE void fcollect_bytes(const ctx& c, const team& t, void* dest, const void* src, std::size_t bytes) {
  using S = scope_tag<R>;
  if (!team_usable<Group>(c, t)) return;
  const int n = t.size, me = t.my_index;
  const rounds r = take_rounds<Group>(c, t, 1, 0, fingerprint(coll_kind::fcollect, bytes));
  char* mine = static_cast<char*>(dest) + std::size_t(me) * bytes;
  send_each<Group, S>(c, t, n - 1, bytes, [&](int k) { return message{mine, src, bytes, (me + k) % n, r.first}; });
  send<Group, S>(c, t, mine, src, bytes, me, r.first);
  await_members<Group, await_q<R>>(c, t, r.first, [](int) { return true; });
}

/// alltoall: member i's src + j * bytes to member j's dest + i * bytes.
template <class Group, class R>
PORTSHMEM_DEVICE void alltoall_bytes(const ctx& c, const team& t, void* dest, const void* src, std::size_t bytes) {
  using S = scope_tag<R>;
  if (!team_usable<Group>(c, t)) return;
  const int n = t.size, me = t.my_index;
  const rounds r = take_rounds<Group>(c, t, 1, 0, fingerprint(coll_kind::alltoall, bytes));
  char* mine = static_cast<char*>(dest) + std::size_t(me) * bytes;
  auto to_member = [&](int j) {
    return message{mine, static_cast<const char*>(src) + std::size_t(j) * bytes, bytes, j, r.first};
  };
  send_each<Group, S>(c, t, n - 1, bytes, [&](int k) { return to_member((me + k) % n); });
  const message own = to_member(me);
  send<Group, S>(c, t, own.dest, own.src, own.bytes, me, r.first);
  await_members<Group, await_q<R>>(c, t, r.first, [](int) { return true; });
}

/// collect: members' srcs of any sizes, concatenated in member order into every member's dest. Round 1 exchanges the
/// sizes through scratch, round 2 puts each member's data at its offset.
template <class Group, class R>
PORTSHMEM_DEVICE void collect_bytes(const ctx& c, const team& t, void* dest, const void* src, std::size_t bytes) {
  using S = scope_tag<R>;
  if (!team_usable<Group>(c, t)) return;
  const int n = t.size, me = t.my_index;
  if (std::size_t(n) * sizeof(std::uint64_t) > scratch_half(t)) {
    if (Group::rank() == 0)
      record_error(c, PORTSHMEM_ERR_OUT_OF_MEMORY, PORTSHMEM_CALL_COLLECTIVE, c.my_pe, dest, bytes);
    return;
  }
  const rounds r = take_rounds<Group>(c, t, 2, 1, fingerprint(coll_kind::collect));
  auto* sizes = reinterpret_cast<std::uint64_t*>(scratch_of(c, t, r.scratch_first));
  if (Group::rank() == 0) sizes[me] = bytes;
  Group::sync();
  send_each<Group, S, area::runtime>(c, t, n - 1, sizeof(std::uint64_t), [&](int k) {
    return message{sizes + me, sizes + me, sizeof(std::uint64_t), (me + k) % n, r.first};
  });
  await_members<Group, await_q<R>>(c, t, r.first, [](int) { return true; });
  std::size_t offset = 0;
  for (int i = 0; i < me; ++i) offset += std::size_t(sizes[i]);
  char* mine = static_cast<char*>(dest) + offset;
  const std::uint64_t placed = r.first + kRoundStep;
  send_each<Group, S>(c, t, n - 1, bytes, [&](int k) { return message{mine, src, bytes, (me + k) % n, placed}; });
  send<Group, S>(c, t, mine, src, bytes, me, placed);
  await_members<Group, await_q<R>>(c, t, placed, [](int) { return true; });
}

/// The inputs of one local reduction step: member i's elements are at mine for i == me, at others + i * stride for
/// the others (their copies in scratch).
template <class T>
struct reduce_parts {
  const T* mine;
  const T* others;
  std::size_t stride;
  int me;
  PORTSHMEM_DEVICE const T* operator()(int i) const { return i == me ? mine : others + std::size_t(i) * stride; }
  /// The same parts seen as elements of U, a type of T's size (a run-time combiner's view of its storage words).
  template <class U>
  PORTSHMEM_DEVICE reduce_parts<U> as() const {
    static_assert(sizeof(U) == sizeof(T), "reduce_parts::as keeps the element size");
    return {reinterpret_cast<const U*>(mine), reinterpret_cast<const U*>(others), stride, me};
  }
};

/// dest[k] = Op over the members, in member order, of part(i)[k] for k in [0, count), by the group's threads.
template <class Group, class Op, class T, class Part>
PORTSHMEM_DEVICE void reduce_local(T* dest, std::size_t count, int n, const Part& part) {
  for (std::size_t k = Group::rank(); k < count; k += Group::size()) {
    T acc = part(0)[k];
    for (int i = 1; i < n; ++i) acc = Op::apply(acc, part(i)[k]);
    dest[k] = acc;
  }
}

/// The combining step of reduce_with and reduce_scatter_with when the operator is known at compile time (the device
/// API's calls): the loop of reduce_local, specialized for T and Op. A combiner whose operator and element type are
/// known only at run time has the same two members (src/stream/reduction_kernels.hpp): only the combining step
/// depends on them, so the rounds and puts around it are compiled once per element size.
template <class Op>
struct static_combiner {
  /// Op's id, for the call's fingerprint.
  PORTSHMEM_DEVICE unsigned op_id() const { return Op::id; }
  /// dest[k] = Op over the members of parts(i)[k], for k in [0, count).
  template <class Group, class T>
  PORTSHMEM_DEVICE void combine(T* dest, std::size_t count, int n, const reduce_parts<T>& parts) const {
    reduce_local<Group, Op>(dest, count, n, parts);
  }
};

/// reduce: dest = the combiner's operator over the members of their src (nreduce elements); dest may be src.
template <class Group, class R, class T, class Combiner>
PORTSHMEM_DEVICE void reduce_with(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce,
                                  const Combiner& combiner) {
  using S = scope_tag<R>;
  if (!team_usable<Group>(c, t)) return;
  const int n = t.size, me = t.my_index;
  const std::size_t bytes = nreduce * sizeof(T), half = scratch_half(t);
  const std::uint64_t fp = fingerprint(coll_kind::reduce, nreduce, sizeof(T), combiner.op_id());
  if (n == 1) {
    if (dest != src)
      copy_bytes<arch::cache::keep, arch::cache::keep, kDataScope>(dest, src, bytes, Group::rank(), Group::size());
    Group::sync();
    return;
  }
  if (bytes <= kReduceOneShotBytes && std::size_t(n) * bytes <= half) {
    const rounds r = take_rounds<Group>(c, t, 1, 1, fp);
    T* buf = reinterpret_cast<T*>(scratch_of(c, t, r.scratch_first));
    send_each<Group, S, area::runtime>(c, t, n - 1, bytes, [&](int k) {
      return message{buf + std::size_t(me) * nreduce, src, bytes, (me + k) % n, r.first};
    });
    await_members<Group, await_q<R>>(c, t, r.first, [](int) { return true; });
    combiner.template combine<Group>(dest, nreduce, n, reduce_parts<T>{src, buf, nreduce, me});
    Group::sync();
    return;
  }
  // Two-shot, by chunks that fit a scratch half: member j reduces slice j of the chunk, then puts it to everyone.
  const std::size_t slice_max = half / (std::size_t(n) * sizeof(T));
  if (slice_max == 0) {
    if (Group::rank() == 0)
      record_error(c, PORTSHMEM_ERR_OUT_OF_MEMORY, PORTSHMEM_CALL_COLLECTIVE, c.my_pe, dest, bytes);
    return;
  }
  const std::size_t chunk_max = slice_max * std::size_t(n), chunks = (nreduce + chunk_max - 1) / chunk_max;
  const rounds r = take_rounds<Group>(c, t, 2 * chunks, chunks, fp);
  for (std::size_t ch = 0; ch < chunks; ++ch) {
    const std::size_t base = ch * chunk_max, len = nreduce - base < chunk_max ? nreduce - base : chunk_max;
    const std::size_t q = (len + std::size_t(n) - 1) / std::size_t(n);
    auto begin = [&](int j) { return base + (q * std::size_t(j) < len ? q * std::size_t(j) : len); };
    auto count = [&](int j) { return begin(j + 1) - begin(j); };
    T* buf = reinterpret_cast<T*>(scratch_of(c, t, r.scratch_first + ch));
    const std::uint64_t scattered = r.first + 2 * ch * kRoundStep, gathered = scattered + kRoundStep;
    send_each<Group, S, area::runtime>(c, t, n - 1, q * sizeof(T), [&](int k) {
      const int j = (me + k) % n;
      return message{buf + std::size_t(me) * q, src + begin(j), count(j) * sizeof(T), j, scattered};
    });
    await_members<Group, await_q<R>>(c, t, scattered, [](int) { return true; });
    combiner.template combine<Group>(dest + begin(me), count(me), n, reduce_parts<T>{src + begin(me), buf, q, me});
    Group::sync();
    send_each<Group, S>(c, t, n - 1, q * sizeof(T), [&](int k) {
      return message{dest + begin(me), dest + begin(me), count(me) * sizeof(T), (me + k) % n, gathered};
    });
    await_members<Group, await_q<R>>(c, t, gathered, [](int) { return true; });
  }
}

/// reduce_scatter: member j's dest (nelems) = the combiner's operator over the members of their src + j * nelems.
template <class Group, class R, class T, class Combiner>
PORTSHMEM_DEVICE void reduce_scatter_with(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems,
                                          const Combiner& combiner) {
  using S = scope_tag<R>;
  if (!team_usable<Group>(c, t)) return;
  const int n = t.size, me = t.my_index;
  const std::size_t slice_max = scratch_half(t) / (std::size_t(n) * sizeof(T));
  if (slice_max == 0) {
    if (Group::rank() == 0)
      record_error(c, PORTSHMEM_ERR_OUT_OF_MEMORY, PORTSHMEM_CALL_COLLECTIVE, c.my_pe, dest, nelems);
    return;
  }
  const std::size_t chunks = nelems == 0 ? 1 : (nelems + slice_max - 1) / slice_max;
  const rounds r = take_rounds<Group>(c, t, chunks, chunks,
                                      fingerprint(coll_kind::reduce_scatter, nelems, sizeof(T), combiner.op_id()));
  for (std::size_t ch = 0; ch < chunks; ++ch) {
    const std::size_t off = ch * slice_max, len = nelems - off < slice_max ? nelems - off : slice_max;
    T* buf = reinterpret_cast<T*>(scratch_of(c, t, r.scratch_first + ch));
    const std::uint64_t value = r.first + ch * kRoundStep;
    send_each<Group, S, area::runtime>(c, t, n - 1, len * sizeof(T), [&](int k) {
      const int j = (me + k) % n;
      return message{buf + std::size_t(me) * len, src + std::size_t(j) * nelems + off, len * sizeof(T), j, value};
    });
    await_members<Group, await_q<R>>(c, t, value, [](int) { return true; });
    combiner.template combine<Group>(dest + off, len, n,
                                     reduce_parts<T>{src + std::size_t(me) * nelems + off, buf, len, me});
    Group::sync();
  }
}

/// The device API's reduce with the operator Op (collectives.hpp).
template <class Group, class R, class Op, class T>
PORTSHMEM_DEVICE void reduce_elems(const ctx& c, const team& t, T* dest, const T* src, std::size_t nreduce) {
  static_assert(Op::template accepts<T>,
                "portshmem: this reduction does not take this element type "
                "(and/or/xor: integers; sum/prod/min/max: arithmetic types, half_t, bfloat16_t)");
  reduce_with<Group, R>(c, t, dest, src, nreduce, static_combiner<Op>{});
}

/// The device API's reduce_scatter with the operator Op (collectives.hpp).
template <class Group, class R, class Op, class T>
PORTSHMEM_DEVICE void reduce_scatter_elems(const ctx& c, const team& t, T* dest, const T* src, std::size_t nelems) {
  static_assert(Op::template accepts<T>,
                "portshmem: this reduction does not take this element type "
                "(and/or/xor: integers; sum/prod/min/max: arithmetic types, half_t, bfloat16_t)");
  reduce_scatter_with<Group, R>(c, t, dest, src, nelems, static_combiner<Op>{});
}

} // namespace portshmem::detail
