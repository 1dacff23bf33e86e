// The litmus runner's device side: an interpreter kernel that runs one litmus thread's encoded ops (program.hpp) for
// many instances, each op through the real device API call with the op's qualifiers as mm:: tags; plus the
// per-instance rendezvous, random delays and memory-stress threads. Portable kernel code: no threadIdx, no printf,
// no libm, no host constexpr functions (compiled by g++ on the host platform, nvcc, or clang in HIP mode).
//
// Ordinary accesses (litmus `store` / `load`) go through arch::store_data / load_data with cache::keep: on GPUs that
// is a plain, non-volatile ld/st with default caching — what a user's `*p = v` compiles to (volatile would add
// ordering the model does not promise) — while on the host platform it is a relaxed std::atomic_ref access, so a
// racing store and load stay defined C++ (a plain C++ race is undefined behaviour, and the compiler could hoist or
// merge the access). Stores and loads to a peer's copy use the pointer from portshmem::ptr(c, addr, pe).
//
// Every location is an 8-byte slot; a typed one (u8, u16, u32) is accessed at its first bytes as that type
// (with_width, dispatch.hpp). put, get, p, g and AMOs take no scope: the library accesses symmetric memory coherently
// at system scope, and the litmus parser refuses a scope on them.
#include <cstdint>
#include <type_traits>

#include "portshmem/device.hpp"
#include "dispatch.hpp"
#include "program.hpp"

namespace litmus_runner {

namespace {

namespace arch = portshmem::arch;
using portshmem::ctx;

/// One instance being run by one thread.
struct Instance {
  const BatchArgs& a;
  std::uint32_t inst;
  std::uint64_t deadline;
  bool stuck;
};

PORTSHMEM_DEVICE std::uint64_t mix(std::uint64_t x) { // splitmix64 finalizer
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// This PE's address of the instance's word of the location array at `off` (a symmetric address).
PORTSHMEM_DEVICE std::int64_t* word(const BatchArgs& a, std::uint64_t off, std::uint32_t inst) {
  return a.heap + off + std::uint64_t(inst) * a.stride;
}

/// The instance's word viewed as the location's type T: its first sizeof(T) bytes.
template <class T>
PORTSHMEM_DEVICE T* as(std::int64_t* w) {
  return reinterpret_cast<T*>(w);
}
template <class T>
PORTSHMEM_DEVICE const T* as(const std::int64_t* w) {
  return reinterpret_cast<const T*>(w);
}

/// Polls ready() until it holds; false once the batch deadline has passed (the instance is then "stuck").
template <class Ready>
PORTSHMEM_DEVICE bool bounded_poll(const Instance& in, const Ready& ready) {
  for (std::uint32_t n = 0;; ++n) {
    if (ready()) return true;
    arch::spin_pause();
    if ((n & 63u) == 63u && arch::time_ns() > in.deadline) return false;
  }
}

// ---- one function per API call and qualifier combination ------------------------------------------------------------
// On GPUs these are noinline: each instantiation is compiled on its own, instead of every one of them being inlined
// into one enormous interpreter body (which took nvcc/ptxas and clang minutes). A call boundary orders nothing, so
// the calls keep their meaning; on the host platform they are ordinary inline functions.
#if PORTSHMEM_GPU_COMPILER
#define LITMUS_CALL __device__ __attribute__((noinline))
#else
#define LITMUS_CALL inline
#endif

template <class T, class DP>
LITMUS_CALL void call_put(const ctx& c, T* d, const T* s, int pe, DP dp) {
  portshmem::put(c, d, s, 1, pe, dp);
}
template <class T, class DP>
LITMUS_CALL void call_put_nbi(const ctx& c, T* d, const T* s, int pe, DP dp) {
  portshmem::put_nbi(c, d, s, 1, pe, dp);
}
template <class T, class DP>
LITMUS_CALL void call_get(const ctx& c, T* d, const T* s, int pe, DP dp) {
  portshmem::get(c, d, s, 1, pe, dp);
}
template <class T, class DP>
LITMUS_CALL void call_get_nbi(const ctx& c, T* d, const T* s, int pe, DP dp) {
  portshmem::get_nbi(c, d, s, 1, pe, dp);
}
template <class T>
LITMUS_CALL void call_p(const ctx& c, T* d, T v, int pe) {
  portshmem::p(c, d, v, pe);
}
template <class T>
LITMUS_CALL T call_g(const ctx& c, const T* s, int pe) {
  return portshmem::g(c, s, pe);
}
template <class... Q>
LITMUS_CALL void call_fence(const ctx& c, Q... q) {
  portshmem::fence(c, q...);
}
template <class... Q>
LITMUS_CALL void call_quiet(const ctx& c, Q... q) {
  portshmem::quiet(c, q...);
}
template <class... Q>
LITMUS_CALL void call_pe_quiet(const ctx& c, int pe, Q... q) {
  portshmem::pe_quiet(c, &pe, 1, q...);
}
template <class... Q>
LITMUS_CALL void call_barrier_all(const ctx& c, Q... q) {
  portshmem::barrier_all(c, q...);
}
template <class... Q>
LITMUS_CALL void call_sync_all(const ctx& c, Q... q) {
  portshmem::sync_all(c, q...);
}
template <class T, class... Q>
LITMUS_CALL bool call_test(const ctx& c, T* ivar, std::uint8_t cmp, std::int64_t v, Q... q) {
  return portshmem::test(c, ivar, to_api_cmp<portshmem::cmp>(cmp), T(v), q...);
}
template <class... Q>
LITMUS_CALL void call_signal_op(const ctx& c, std::uint64_t* sig, std::uint64_t v, portshmem::signal_update u, int pe,
                                Q... q) {
  portshmem::signal_op(c, sig, v, u, pe, q...);
}

PORTSHMEM_DEVICE portshmem::signal_update to_update(std::uint8_t u) {
  return u == kUpdateAdd ? portshmem::signal_add : portshmem::signal_set;
}

/// One put_signal / put_signal_nbi call with the given tags, of one element of op.width bytes from src: the untyped
/// putmem_signal, which is what the API's typed put_signal<T> calls with nelems * sizeof(T) (so the location's type
/// costs no further instantiations). Keep data under coverage comm does not compile (the API refuses it, and the
/// parser too), so that combination is never instantiated.
template <bool Nbi, class CV, class DP, class ST, class SC>
LITMUS_CALL void call_put_signal(const ctx& c, const DevOp& op, std::int64_t* dest, const std::int64_t* src,
                                 std::uint64_t* sig, CV cv, DP dp, ST st, SC sc) {
  if constexpr (std::is_same_v<CV, mm::comm_t> && std::is_same_v<DP, mm::keep_t>) {
    portshmem::detail::record_error(c, PORTSHMEM_ERR_INVALID_ARG, PORTSHMEM_CALL_SIGNAL, op.pe, dest, op.width);
  } else if constexpr (Nbi) {
    portshmem::putmem_signal_nbi(c, dest, src, op.width, sig, std::uint64_t(op.value2), to_update(op.update), op.pe, cv,
                                 dp, st, sc);
  } else {
    portshmem::putmem_signal(c, dest, src, op.width, sig, std::uint64_t(op.value2), to_update(op.update), op.pe, cv, dp,
                             st, sc);
  }
}

/// wait_until with the op's qualifiers on a location of type T, never hanging (see kWaitStable / kWaitByTest in
/// program.hpp).
template <class T, class... Q>
LITMUS_CALL void run_wait(Instance& in, const DevOp& op, T* ivar, Q... q) {
  const ctx& c = in.a.ctx;
  const T value = T(op.value);
  if (op.wait_mode == kWaitStable) {
    // The load wait_until polls with, but relaxed (orders nothing): the wait's own acquire comes after it.
    if (!bounded_poll(in, [&] {
          return holds(op.cmp, portshmem::detail::load_value<arch::order::relaxed, portshmem::detail::kDataScope>(ivar),
                       value);
        })) {
      in.stuck = true;
      return;
    }
    portshmem::wait_until(c, ivar, to_api_cmp<portshmem::cmp>(op.cmp), value, q...);
  } else if (!bounded_poll(in,
                           [&] { return portshmem::test(c, ivar, to_api_cmp<portshmem::cmp>(op.cmp), value, q...); })) {
    in.stuck = true;
  }
}

/// signal_wait_until with the op's qualifiers; only stable waits are encoded (the API has no signal test).
template <class... Q>
LITMUS_CALL void run_signal_wait(Instance& in, const DevOp& op, std::uint64_t* sig, std::int64_t* reg, Q... q) {
  const std::uint64_t value = std::uint64_t(op.value);
  if (op.wait_mode != kWaitStable || !bounded_poll(in, [&] {
        return holds(op.cmp, arch::load<arch::order::relaxed, portshmem::detail::kDataScope>(sig), value);
      })) {
    in.stuck = true;
    return;
  }
  const std::uint64_t seen =
      portshmem::signal_wait_until(in.a.ctx, sig, to_api_cmp<portshmem::cmp>(op.cmp), value, q...);
  if (reg) *reg = std::int64_t(seen);
}

/// The AMOs (the litmus format gives them no qualifier: the API's defaults) on a location of type T (4 or 8 bytes).
template <class T>
LITMUS_CALL void run_amo(const ctx& c, const DevOp& op, T* L, std::int64_t* reg) {
  const int pe = op.pe;
  const T v = T(op.value), v2 = T(op.value2);
  switch (op.kind) {
  case kAmoFetch:
    *reg = std::int64_t(portshmem::atomic_fetch(c, L, pe));
    break;
  case kAmoSet:
    portshmem::atomic_set(c, L, v, pe);
    break;
  case kAmoSwap:
    *reg = std::int64_t(portshmem::atomic_swap(c, L, v, pe));
    break;
  case kAmoCompareSwap:
    *reg = std::int64_t(portshmem::atomic_compare_swap(c, L, v, v2, pe));
    break;
  case kAmoFetchInc:
    *reg = std::int64_t(portshmem::atomic_fetch_inc(c, L, pe));
    break;
  case kAmoInc:
    portshmem::atomic_inc(c, L, pe);
    break;
  case kAmoFetchAdd:
    *reg = std::int64_t(portshmem::atomic_fetch_add(c, L, v, pe));
    break;
  case kAmoAdd:
    portshmem::atomic_add(c, L, v, pe);
    break;
  case kAmoFetchAnd:
    *reg = std::int64_t(portshmem::atomic_fetch_and(c, L, v, pe));
    break;
  case kAmoAnd:
    portshmem::atomic_and(c, L, v, pe);
    break;
  case kAmoFetchOr:
    *reg = std::int64_t(portshmem::atomic_fetch_or(c, L, v, pe));
    break;
  case kAmoOr:
    portshmem::atomic_or(c, L, v, pe);
    break;
  case kAmoFetchXor:
    *reg = std::int64_t(portshmem::atomic_fetch_xor(c, L, v, pe));
    break;
  default:
    portshmem::atomic_xor(c, L, v, pe);
    break;
  }
}

/// The pointer for an ordinary access to `pe`'s copy of the location at `p` (p itself when it is this PE's copy).
template <class T>
PORTSHMEM_DEVICE T* ordinary(const ctx& c, T* p, int pe) {
  if (pe == c.my_pe) return p;
  T* q = portshmem::ptr(c, p, pe);
  if (!q) portshmem::detail::record_error(c, PORTSHMEM_ERR_UNREACHABLE, PORTSHMEM_CALL_PTR, pe, p, sizeof(T));
  return q;
}

/// Runs one op of the instance through the real API call with the op's qualifiers.
PORTSHMEM_DEVICE void run_op(Instance& in, const DevOp& op) {
  const BatchArgs& a = in.a;
  const ctx& c = a.ctx;
  std::int64_t* const L = word(a, op.off, in.inst); // the accessed location (symmetric address)
  std::int64_t* const reg =
      op.reg >= 0 ? a.regs + (std::uint64_t(in.inst) * a.nregs + std::uint64_t(op.reg)) * a.stride : nullptr;
  const int pe = op.pe;
  // The source of a put: the caller's own instance word of the source location (relay), or the op's value.
  const std::int64_t* const src = op.relay ? word(a, op.src_off, in.inst) : &op.value;
  switch (op.kind) {
  // ---- RMA
  case kPut:
    with_width(op.width, [&](auto t) {
      using T = decltype(t);
      with_path(op.path, [&](auto dp) { call_put(c, as<T>(L), as<T>(src), pe, dp); });
    });
    break;
  case kPutNbi: // the source is the op's own word in device memory, or a location: unchanged until the quiet
    with_width(op.width, [&](auto t) {
      using T = decltype(t);
      with_path(op.path, [&](auto dp) { call_put_nbi(c, as<T>(L), as<T>(src), pe, dp); });
    });
    break;
  case kP:
    with_width(op.width, [&](auto t) {
      using T = decltype(t);
      call_p(c, as<T>(L), T(op.value), pe);
    });
    break;
  case kGet: // into the register's word, whose other bytes are 0
    with_width(op.width, [&](auto t) {
      using T = decltype(t);
      with_path(op.path, [&](auto dp) { call_get(c, as<T>(reg), as<T>(L), pe, dp); });
    });
    break;
  case kG:
    with_width(op.width, [&](auto t) {
      using T = decltype(t);
      *reg = std::int64_t(call_g(c, as<T>(L), pe));
    });
    break;
  case kGetNbi: {
    std::int64_t* dest = word(a, op.off2, in.inst); // the caller's own copy of the destination location
    with_width(op.width, [&](auto t) {
      using T = decltype(t);
      with_path(op.path, [&](auto dp) { call_get_nbi(c, as<T>(dest), as<T>(L), pe, dp); });
    });
    break;
  }
  case kAmoFetch:
  case kAmoSet:
  case kAmoSwap:
  case kAmoCompareSwap:
  case kAmoFetchInc:
  case kAmoInc:
  case kAmoFetchAdd:
  case kAmoAdd:
  case kAmoFetchAnd:
  case kAmoAnd:
  case kAmoFetchOr:
  case kAmoOr:
  case kAmoFetchXor:
  case kAmoXor:
    with_amo_width(op.width, [&](auto t) { run_amo(c, op, as<decltype(t)>(L), reg); });
    break;
  // ---- signals
  case kPutSignal:
  case kPutSignalNbi: {
    auto* sig = reinterpret_cast<std::uint64_t*>(word(a, op.off2, in.inst));
    const bool nbi = op.kind == kPutSignalNbi;
    with_cover(op.cover, [&](auto cv) {
      with_path(op.path, [&](auto dp) {
        with_signal_strength(op.signal, [&](auto st) {
          with_scope(op.scope, [&](auto sc) {
            if (nbi) {
              call_put_signal<true>(c, op, L, src, sig, cv, dp, st, sc);
            } else {
              call_put_signal<false>(c, op, L, src, sig, cv, dp, st, sc);
            }
          });
        });
      });
    });
    break;
  }
  case kSignalOp: {
    auto* sig = reinterpret_cast<std::uint64_t*>(L);
    with_cover(op.cover, [&](auto cv) {
      with_scope(op.scope,
                 [&](auto sc) { call_signal_op(c, sig, std::uint64_t(op.value), to_update(op.update), pe, cv, sc); });
    });
    break;
  }
  case kSignalFetch:
    *reg = std::int64_t(portshmem::signal_fetch(c, reinterpret_cast<std::uint64_t*>(L)));
    break;
  case kSignalWait:
    with_strength(op.strength, [&](auto st) {
      with_scope(op.scope, [&](auto sc) { run_signal_wait(in, op, reinterpret_cast<std::uint64_t*>(L), reg, st, sc); });
    });
    break;
  // ---- point-to-point synchronization
  case kWaitUntil:
    with_width(op.width, [&](auto t) {
      using T = decltype(t);
      with_strength(op.strength,
                    [&](auto st) { with_scope(op.scope, [&](auto sc) { run_wait(in, op, as<T>(L), st, sc); }); });
    });
    break;
  case kTest:
    with_width(op.width, [&](auto t) {
      using T = decltype(t);
      with_strength(op.strength, [&](auto st) {
        with_scope(op.scope, [&](auto sc) { *reg = call_test(c, as<T>(L), op.cmp, op.value, st, sc) ? 1 : 0; });
      });
    });
    break;
  // ---- ordering
  case kFence:
    with_cover(op.cover, [&](auto cv) { with_scope(op.scope, [&](auto sc) { call_fence(c, cv, sc); }); });
    break;
  case kQuiet:
    with_cover(op.cover, [&](auto cv) { with_scope(op.scope, [&](auto sc) { call_quiet(c, cv, sc); }); });
    break;
  case kPeQuiet:
    with_cover(op.cover, [&](auto cv) { with_scope(op.scope, [&](auto sc) { call_pe_quiet(c, op.pe2, cv, sc); }); });
    break;
  case kBarrierAll:
    with_cover(op.cover, [&](auto cv) { with_scope(op.scope, [&](auto sc) { call_barrier_all(c, cv, sc); }); });
    break;
  case kSyncAll:
    with_scope(op.scope, [&](auto sc) { call_sync_all(c, sc); });
    break;
  // ---- ordinary accesses
  case kStore:
    with_width(op.width, [&](auto t) {
      using T = decltype(t);
      if (T* p = ordinary(c, as<T>(L), pe)) arch::store_data<arch::cache::keep>(p, T(op.value));
    });
    break;
  case kLoad:
    with_width(op.width, [&](auto t) {
      using T = decltype(t);
      if (const T* p = ordinary(c, as<T>(L), pe)) *reg = std::int64_t(arch::load_data<arch::cache::keep>(p));
    });
    break;
  case kBypassLoad:
    with_width(op.width, [&](auto t) {
      using T = decltype(t);
      *reg = std::int64_t(arch::load_data<arch::cache::bypass>(static_cast<const T*>(as<T>(L))));
    });
    break;
  default:
    portshmem::detail::record_error(c, PORTSHMEM_ERR_INVALID_ARG, PORTSHMEM_CALL_PTR, pe, L, op.width);
    break;
  }
}

/// Polls of a rendezvous before it starts backing off.
constexpr std::uint32_t kBusyPolls = 2048;

/// The instance's rendezvous: every litmus thread bumps the instance's counter on the leader PE; the last to arrive
/// publishes a start time sync_ns ahead, and every thread spins on its clock until then (litmus7's "timebase" idea:
/// the last arriver does not get a head start while the others are still noticing). Relaxed atomics only: the
/// rendezvous is for timing, and an acquire here would add ordering (on AMD a cache invalidate) that could hide the
/// weak outcomes under test. Bounded by the deadline; clocks of different GPUs may disagree, so a start time too far
/// ahead is ignored.
PORTSHMEM_DEVICE void rendezvous(const Instance& in) {
  const BatchArgs& a = in.a;
  // Only where every participant reaches the leader by loads and stores: with proxied peers some cannot, and the
  // leader's threads would wait for them until the deadline.
  if (a.ctx.proxy_rings) return;
  std::uint64_t* counter = portshmem::ptr(a.ctx, a.rendezvous + 2 * std::uint64_t(in.inst), a.leader);
  if (!counter) return;
  std::uint64_t* start = counter + 1;
  const std::uint64_t all = std::uint64_t(a.participants);
  std::uint64_t go = 0;
  if (arch::fetch_add<arch::order::relaxed, arch::scope::system>(counter, std::uint64_t(1)) + 1 == all) {
    go = arch::time_ns() + a.sync_ns;
    arch::store<arch::order::relaxed, arch::scope::system>(start, go);
  } else {
    // Busy polls first, then back off: on the host platform the last thread may be waiting for a CPU.
    for (std::uint32_t n = 0;; ++n) {
      go = arch::load<arch::order::relaxed, arch::scope::system>(start);
      if (go != 0) break;
      if (n >= kBusyPolls) arch::spin_pause();
      if ((n & 63u) == 63u && arch::time_ns() > in.deadline) return;
    }
  }
  for (std::uint64_t now = arch::time_ns(); now < go && go - now <= 4 * a.sync_ns + 1000; now = arch::time_ns()) {
  }
}

/// A random delay of up to max_delay spin iterations before the instance's first call, so that the threads' calls
/// overlap in shifting ways. The loop's result is stored where it is never read, so the compiler keeps the loop.
PORTSHMEM_DEVICE void random_delay(const BatchArgs& a, std::uint32_t inst, std::int32_t* sink) {
  if (a.max_delay == 0) return;
  const std::uint64_t h = mix(a.seed ^ (std::uint64_t(inst) << 20) ^ std::uint64_t(a.ctx.my_pe));
  const std::uint32_t n = std::uint32_t(h % (std::uint64_t(a.max_delay) + 1));
  std::uint64_t x = h;
  for (std::uint32_t i = 0; i < n; ++i) x = x * 6364136223846793005ull + i;
  if (x == 0x5eedull) *sink = 2;
}

/// A worker thread: runs instances perm[tid], perm[tid + workers], ... — the same instance at the same step on every
/// PE, so the litmus threads of one instance run at about the same time.
PORTSHMEM_DEVICE void run_worker(const BatchArgs& a, unsigned tid, std::uint64_t deadline) {
  for (std::uint32_t j = tid; j < a.n; j += a.worker_threads) {
    Instance in{a, a.perm[j], deadline, false};
    if (a.role == kRoleThread && a.participants > 1) rendezvous(in);
    if (a.role == kRoleThread) random_delay(a, in.inst, a.stuck + in.inst);
    for (std::int32_t k = 0; k < a.nops; ++k) run_op(in, a.ops[k]);
    if (a.stuck) a.stuck[in.inst] = in.stuck ? 1 : 0;
  }
  if (a.ctx.proxy_rings) {
    // A job with proxied peers: every PE's atomic on the counter goes through the proxy (a network's atomics are
    // atomic only with its own), and PE 0's stress threads see the sum.
    portshmem::atomic_add(a.ctx, a.done, std::uint64_t(1), 0);
  } else if (std::uint64_t* done = portshmem::ptr(a.ctx, a.done, 0)) {
    arch::fetch_add<arch::order::relaxed, arch::scope::system>(done, std::uint64_t(1));
  }
}

/// A stress thread: random stores, loads, atomics and bypass stores to every PE's stress buffer (memory no litmus
/// location shares), until every worker of every PE is done or the deadline passes.
PORTSHMEM_DEVICE void run_stress(const BatchArgs& a, unsigned tid, std::uint64_t deadline) {
  const ctx& c = a.ctx;
  const std::uint64_t* done = portshmem::ptr(c, a.done, 0);
  if (!a.stress || a.stress_words == 0 || !done) return;
  // With proxied peers stress reaches no peer (it needs load/store paths), and spinning CPU threads would only starve
  // the proxy threads that carry the test's own calls.
  if (c.proxy_rings) return;
  std::uint64_t x = mix(a.seed ^ (std::uint64_t(tid) << 32) ^ std::uint64_t(c.my_pe));
  std::uint64_t sink = 0;
  for (;;) {
    for (int k = 0; k < 64; ++k) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const int pe = int((x >> 33) % std::uint64_t(c.n_pes));
      std::uint64_t* p = portshmem::ptr(c, a.stress + (x >> 13) % a.stress_words, pe);
      if (!p) continue;
      switch (x >> 62) {
      case 0:
        arch::store_data<arch::cache::keep>(p, x);
        break;
      case 1:
        sink += arch::load_data<arch::cache::keep>(static_cast<const std::uint64_t*>(p));
        break;
      case 2:
        arch::fetch_add<arch::order::relaxed, arch::scope::system>(p, std::uint64_t(1));
        break;
      default:
        arch::store_data<arch::cache::bypass>(p, x);
        break;
      }
    }
    if (arch::load<arch::order::relaxed, arch::scope::system>(done) >= a.workers_total || arch::time_ns() > deadline)
      break;
    arch::spin_pause();
  }
  if (sink == 0x5eedull) a.stress[0] = sink;
}

} // namespace

PORTSHMEM_GLOBAL void litmus_batch_kernel(BatchArgs a) {
  const unsigned tid = arch::block_rank() * arch::block_threads() + arch::thread_rank();
  const std::uint64_t deadline = arch::time_ns() + a.budget_ns;
  if (tid < a.worker_threads) {
    if (a.role != kRoleStress) run_worker(a, tid, deadline);
  } else {
    run_stress(a, tid, deadline);
  }
}

bool op_runnable(int kind) {
  return kind >= 0 && kind < kOpKinds;
}

const char* op_unavailable_reason(int kind) {
  return op_runnable(kind) ? "" : "unknown op kind";
}

int run_batch(const BatchArgs& args, unsigned blocks, unsigned threads) {
  if (blocks == 0 || threads == 0) return hipSuccess;
  hipError_t e = portshmem::launch(litmus_batch_kernel, dim3(blocks), dim3(threads), args);
  if (e != hipSuccess) return e;
  return hipDeviceSynchronize();
}

} // namespace litmus_runner
