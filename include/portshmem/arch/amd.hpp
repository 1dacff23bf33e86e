// AMD lowering (gfx90a = MI200, gfx942 = MI300; wave64): the memory model's primitives as clang builtins only (inline
// asm with cache bits does not assemble on both targets). Facts used below are from LLVM's AMDGPUUsage, sections
// "Memory Model GFX90A" and "Memory Model GFX942" (code-sequence tables), and the CDNA3 ISA's scope/NT table, and were
// checked against clang-19's output by tests/isa/check_arch.sh:
//  - A release at system scope writes back the whole L2 (buffer_wbl2; gfx942 also at agent scope, "sc1"), an acquire
//    invalidates it (buffer_invl2 / buffer_inv sc1 [sc0]). That bulk cost is what fence_comm avoids.
//  - Every vector store of gfx9 counts in vmcnt until the memory system acknowledges it, and L1 is write-through, so
//    "s_waitcnt vmcnt(0)" alone publishes every store that already bypassed the L2 (or writes through it).
//  - gfx942 stores/loads carry a scope in sc0/sc1: sc1 = agent, sc0 sc1 = system, and at system scope (and at agent
//    scope when the agent has several L2s, one per XCD) the L2 is bypassed coherently. nt alone means "streaming" and
//    still leaves the line in the XCD's L2, so it is not enough for another XCD, GPU or the CPU.
//  - gfx90a has one L2 per agent (device scope needs nothing), no ISA bit that bypasses L2; coherence with other
//    agents comes from the page type: fine-grained memory is MTYPE CC (local, written through) or UC (remote,
//    uncached), coarse-grained RW/NC lines stay dirty in L2 until buffer_wbl2. LLVM's own system-scope relaxed atomic
//    store is a plain store there, relying on the same thing. So on gfx90a the symmetric heap (and every flag the
//    library publishes at system scope) must be fine-grained memory: a premise checked at init (src/gpu/premises).
//  - Every access the library makes to symmetric memory is an atomic (relaxed at least) of at most 8 bytes, so the
//    LLVM memory model defines what a racing reader sees; fence_comm relies on the premises above, fence on LLVM's
//    own code sequences.
#pragma once

#include <cstdint>

#include "portshmem/platform.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "portshmem/arch/common.hpp"

#if defined(__HIP_DEVICE_COMPILE__) && !defined(__GFX9__)
#error "arch/amd.hpp supports gfx9 (gfx90a, gfx942): the s_waitcnt encoding and cache bits differ on gfx10+"
#endif
// gfx940/941/942 (MI300) take scope bits on stores; gfx90a (MI200) and older gfx9 do not.
#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
#define PORTSHMEM_AMD_SCOPE_BITS 1
#else
#define PORTSHMEM_AMD_SCOPE_BITS 0
#endif

namespace portshmem::arch {

namespace detail {
// Work-item builtins, not HIP's threadIdx/blockDim/gridDim: HIP 5.2 implements those with device-library calls
// (__ockl_get_local_size, ...) and device libraries are not linked (rocm-device-libs 5.2 has no gfx942).
PORTSHMEM_DEVICE unsigned thread_idx(int d) {
  return d == 0   ? __builtin_amdgcn_workitem_id_x()
         : d == 1 ? __builtin_amdgcn_workitem_id_y()
                  : __builtin_amdgcn_workitem_id_z();
}
PORTSHMEM_DEVICE unsigned block_idx(int d) {
  return d == 0   ? __builtin_amdgcn_workgroup_id_x()
         : d == 1 ? __builtin_amdgcn_workgroup_id_y()
                  : __builtin_amdgcn_workgroup_id_z();
}
PORTSHMEM_DEVICE unsigned block_dim(int d) {
  return d == 0   ? __builtin_amdgcn_workgroup_size_x()
         : d == 1 ? __builtin_amdgcn_workgroup_size_y()
                  : __builtin_amdgcn_workgroup_size_z();
}
// The dispatch packet holds the grid in work-items (HIP grids are whole blocks; the rounding is for safety).
PORTSHMEM_DEVICE unsigned grid_dim(int d) {
  const unsigned items = d == 0   ? __builtin_amdgcn_grid_size_x()
                         : d == 1 ? __builtin_amdgcn_grid_size_y()
                                  : __builtin_amdgcn_grid_size_z();
  const unsigned size = block_dim(d);
  return (items + size - 1) / size;
}
#ifdef __AMDGCN_WAVEFRONT_SIZE
inline constexpr unsigned kWaveSize = __AMDGCN_WAVEFRONT_SIZE; // 64 on gfx9
#else
inline constexpr unsigned kWaveSize = warpSize;
#endif
// What HIP's __syncthreads does in current ROCm (HIP 5.2's fences only LDS and calls a device library).
PORTSHMEM_DEVICE void block_barrier() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
} // namespace detail

} // namespace portshmem::arch

#include "portshmem/arch/gpu_common.hpp"

// __builtin_amdgcn_fence(O, <scope of S>): the builtin takes the scope as a string literal only.
#define PORTSHMEM_AMD_FENCE_SCOPED(O, S)                                                                               \
  if constexpr ((S) == scope::system) {                                                                                \
    __builtin_amdgcn_fence(O, "");                                                                                     \
  } else if constexpr ((S) == scope::device) {                                                                         \
    __builtin_amdgcn_fence(O, "agent");                                                                                \
  } else if constexpr ((S) == scope::block) {                                                                          \
    __builtin_amdgcn_fence(O, "workgroup");                                                                            \
  } else {                                                                                                             \
    __builtin_amdgcn_fence(O, "wavefront");                                                                            \
  }

namespace portshmem::arch {

namespace detail {
// Orders and scopes as variable templates, so each builtin sees a constant (a runtime order makes clang emit a switch
// over every order).
template <order O>
inline constexpr int hip_order = O == order::relaxed   ? __ATOMIC_RELAXED
                                 : O == order::acquire ? __ATOMIC_ACQUIRE
                                 : O == order::release ? __ATOMIC_RELEASE
                                 : O == order::acq_rel ? __ATOMIC_ACQ_REL
                                                       : __ATOMIC_SEQ_CST;
// A load may not be a release, a store not an acquire: each gets the strongest order it allows (as on the host).
template <order O>
inline constexpr int hip_load_order = O == order::release   ? __ATOMIC_RELAXED
                                      : O == order::acq_rel ? __ATOMIC_ACQUIRE
                                                            : hip_order<O>;
template <order O>
inline constexpr int hip_store_order = O == order::acquire   ? __ATOMIC_RELAXED
                                       : O == order::acq_rel ? __ATOMIC_RELEASE
                                                             : hip_order<O>;
template <scope S>
inline constexpr int hip_scope = S == scope::wave     ? __HIP_MEMORY_SCOPE_WAVEFRONT
                                 : S == scope::block  ? __HIP_MEMORY_SCOPE_WORKGROUP
                                 : S == scope::device ? __HIP_MEMORY_SCOPE_AGENT
                                                      : __HIP_MEMORY_SCOPE_SYSTEM;
// Keeps the compiler from moving any memory access across this point; emits nothing.
PORTSHMEM_DEVICE void compiler_barrier() {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
// s_waitcnt vmcnt(0) lgkmcnt(0) in the gfx9 encoding (vmcnt [3:0]+[15:14], expcnt [6:4], lgkmcnt [11:8]; the same
// on gfx90a and gfx942). lgkmcnt too because flat (generic-pointer) accesses count in both counters.
inline constexpr int kWaitVmLgkm = 0x0070;
} // namespace detail

// ---- fences ---------------------------------------------------------------------------------------------------------
/// C++ fence at scope S (relaxed: compiler barrier only); at system scope it writes back / invalidates the L2.
/// acq_rel and seq_cst are the release fence, an explicit wait, then the acquire fence: AMDGPUUsage's GFX90A and
/// GFX942 release-acquire sequences wait (s_waitcnt vmcnt(0)) for the L2 write-back between buffer_wbl2 and the
/// invalidate, and clang-19 drops that wait from its own acq_rel/seq_cst sequence (seen in its output; fixed in later
/// LLVM). seq_cst needs nothing more on gfx9: LLVM lowers a seq_cst fence exactly as an acq_rel one.
template <order O, scope S>
PORTSHMEM_DEVICE void fence() {
  if constexpr (O == order::relaxed) {
    detail::compiler_barrier();
  } else if constexpr (O == order::acquire) {
    PORTSHMEM_AMD_FENCE_SCOPED(__ATOMIC_ACQUIRE, S)
  } else {
    PORTSHMEM_AMD_FENCE_SCOPED(__ATOMIC_RELEASE, S)
    // The explicit wait after the write-back: never removed, free when the compiler kept its own. Without it a
    // following store (or the invalidate) can overtake the write-back (tests/isa/check_arch.sh demands it).
    if constexpr (S == scope::device || S == scope::system) {
      detail::compiler_barrier();
      __builtin_amdgcn_s_waitcnt(detail::kWaitVmLgkm);
      detail::compiler_barrier();
    }
    if constexpr (O != order::release) {
      PORTSHMEM_AMD_FENCE_SCOPED(__ATOMIC_ACQUIRE, S)
    }
  }
}

namespace detail {
// Releasing atomics at device/system scope are split into fence<release> + the atomic with only its acquire part,
// so they get the fence's explicit wait after the write-back (see fence()).
template <order O, scope S>
inline constexpr bool kSplitRelease = (S == scope::device || S == scope::system) &&
                                      (O == order::release || O == order::acq_rel || O == order::seq_cst);
template <order O, scope S>
inline constexpr order kAtomicPart = !kSplitRelease<O, S>  ? O
                                     : O == order::release ? order::relaxed
                                                           : order::acquire;
} // namespace detail

/// The release half of an atomic of order O, issued before it as a fence (see detail::kSplitRelease).
template <order O, scope S>
PORTSHMEM_DEVICE void release_part() {
  if constexpr (detail::kSplitRelease<O, S>) fence<O == order::seq_cst ? order::seq_cst : order::release, S>();
}

/// Orders the library's own accesses only (store_data/load_data<bypass, S'> with S' >= S, and atomics), with no L2
/// write-back or invalidate. Release: every earlier vector-memory access has been acknowledged (s_waitcnt vmcnt(0));
/// the bypass stores were already past L2, so acknowledged = visible at S. Acquire: the awaited atomic load has
/// returned before any later load issues (same wait), and the later loads carry the scope bits that miss in the
/// non-coherent caches, so no invalidate is needed. The same wait gives acq_rel and seq_cst (no store->load reordering
/// survives it). Wave and block scopes share the CU's L1 and cost nothing extra: plain fence.
template <order O, scope S>
PORTSHMEM_DEVICE void fence_comm() {
  if constexpr (O == order::relaxed) {
    detail::compiler_barrier();
  } else if constexpr (S == scope::wave || S == scope::block) {
    fence<O, S>();
  } else {
    detail::compiler_barrier();
    __builtin_amdgcn_s_waitcnt(detail::kWaitVmLgkm);
    detail::compiler_barrier();
  }
}

/// fence_comm is cheaper than a full fence here: publishing with it beats a release atomic.
inline constexpr bool kCheapCommFence = true;

/// An acquire load at device/system scope invalidates the L2 (buffer_inv) on every poll: waits poll relaxed and
/// acquire once, after the value is seen.
inline constexpr bool kCheapAcquireLoad = false;

/// Every member of a group calls this after its share of a group operation and before the group's closing barrier:
/// vmcnt counts per wave, so one member's later fence_comm could not wait for another wave's stores.
PORTSHMEM_DEVICE void join_comm_stores() {
  detail::compiler_barrier();
  __builtin_amdgcn_s_waitcnt(detail::kWaitVmLgkm);
  detail::compiler_barrier();
}

// ---- atomics --------------------------------------------------------------------------------------------------------
template <order O, scope S, class T>
PORTSHMEM_DEVICE T load(const T* p) {
  static_assert(detail::is_access_type<T>, "atomic loads take 1-, 2-, 4- and 8-byte integers");
  return __hip_atomic_load(p, detail::hip_load_order<O>, detail::hip_scope<S>);
}
template <order O, scope S, class T>
PORTSHMEM_DEVICE void store(T* p, T v) {
  static_assert(detail::is_access_type<T>, "atomic stores take 1-, 2-, 4- and 8-byte integers");
  constexpr order store_as = O == order::acquire ? order::relaxed : O == order::acq_rel ? order::release : O;
  release_part<store_as, S>();
  __hip_atomic_store(p, v, detail::hip_store_order<detail::kAtomicPart<store_as, S>>, detail::hip_scope<S>);
}
template <order O, scope S, class T>
PORTSHMEM_DEVICE T exchange(T* p, T v) {
  static_assert(detail::is_atomic_type<T>, "atomics take 4- and 8-byte integers");
  release_part<O, S>();
  return __hip_atomic_exchange(p, v, detail::hip_order<detail::kAtomicPart<O, S>>, detail::hip_scope<S>);
}
/// Returns the old value; the exchange happened iff it equals expected.
template <order O, scope S, class T>
PORTSHMEM_DEVICE T compare_exchange(T* p, T expected, T desired) {
  static_assert(detail::is_atomic_type<T>, "atomics take 4- and 8-byte integers");
  release_part<O, S>();
  constexpr order part = detail::kAtomicPart<O, S>;
  __hip_atomic_compare_exchange_strong(p, &expected, desired, detail::hip_order<part>, detail::hip_load_order<part>,
                                       detail::hip_scope<S>);
  return expected; // holds the old value whether or not the exchange happened
}
template <order O, scope S, class T>
PORTSHMEM_DEVICE T fetch_add(T* p, T v) {
  static_assert(detail::is_atomic_type<T>, "atomics take 4- and 8-byte integers");
  release_part<O, S>();
  return __hip_atomic_fetch_add(p, v, detail::hip_order<detail::kAtomicPart<O, S>>, detail::hip_scope<S>);
}
template <order O, scope S, class T>
PORTSHMEM_DEVICE T fetch_and(T* p, T v) {
  static_assert(detail::is_atomic_type<T>, "atomics take 4- and 8-byte integers");
  release_part<O, S>();
  return __hip_atomic_fetch_and(p, v, detail::hip_order<detail::kAtomicPart<O, S>>, detail::hip_scope<S>);
}
template <order O, scope S, class T>
PORTSHMEM_DEVICE T fetch_or(T* p, T v) {
  static_assert(detail::is_atomic_type<T>, "atomics take 4- and 8-byte integers");
  release_part<O, S>();
  return __hip_atomic_fetch_or(p, v, detail::hip_order<detail::kAtomicPart<O, S>>, detail::hip_scope<S>);
}
template <order O, scope S, class T>
PORTSHMEM_DEVICE T fetch_xor(T* p, T v) {
  static_assert(detail::is_atomic_type<T>, "atomics take 4- and 8-byte integers");
  release_part<O, S>();
  return __hip_atomic_fetch_xor(p, v, detail::hip_order<detail::kAtomicPart<O, S>>, detail::hip_scope<S>);
}

// ---- data accesses --------------------------------------------------------------------------------------------------
// S is the widest scope that will read the data after a fence_comm<release, S> (stores) or that wrote it before the
// matching release (loads). keep: plain access, full caching (a cached write: only a fence<release> publishes it).
// bypass: a relaxed atomic access at S, per 8 bytes at most (16 bytes = two 8-byte atomics: no 16-byte atomic
// exists), so a racing wait or get reads a value some write wrote (LLVM gives a load racing with a non-atomic store
// an undefined value) and the access carries the scope's cache bits: gfx942 "sc1" (agent) / "sc0 sc1" (system),
// which bypass the non-coherent caches and are counted done by vmcnt only once coherent at that scope (the premise
// of fence_comm); gfx90a: stores plain (coherence from the fine-grained heap's page type), loads "glc" (miss L1).
// Bypass accesses need global memory (the local side of a transfer is dispatched by space_of).
namespace detail {
typedef unsigned u32x4 __attribute__((ext_vector_type(4)));
typedef std::uint64_t u64x2 __attribute__((ext_vector_type(2)));
} // namespace detail

/// Stores v at p (1, 2, 4, 8 or 16 bytes, naturally aligned). Not ordered by itself: a fence_comm<release, S> (bypass)
/// or fence<release, S> (keep) publishes it.
template <cache C, scope S = scope::system, class T>
PORTSHMEM_DEVICE void store_data(T* p, const T& v) {
  static_assert(detail::is_data_type<T>, "data accesses move 1, 2, 4, 8 or 16 naturally aligned bytes");
  if constexpr (sizeof(T) == 16) {
    const auto u = detail::bit_cast<detail::u32x4>(v);
    if constexpr (C == cache::keep) {
      *reinterpret_cast<detail::u32x4*>(p) = u;
    } else {
      const auto h = detail::bit_cast<detail::u64x2>(u);
      auto* q = reinterpret_cast<std::uint64_t*>(p);
      __hip_atomic_store(q, static_cast<std::uint64_t>(h.x), __ATOMIC_RELAXED, detail::hip_scope<S>);
      __hip_atomic_store(q + 1, static_cast<std::uint64_t>(h.y), __ATOMIC_RELAXED, detail::hip_scope<S>);
    }
  } else {
    using U = detail::uint_t<sizeof(T)>;
    if constexpr (C == cache::keep)
      *reinterpret_cast<U*>(p) = detail::bit_cast<U>(v);
    else
      __hip_atomic_store(reinterpret_cast<U*>(p), detail::bit_cast<U>(v), __ATOMIC_RELAXED, detail::hip_scope<S>);
  }
}
/// Loads the value at p (1, 2, 4, 8 or 16 bytes, naturally aligned; bypass 16 bytes = two 8-byte atomic loads).
template <cache C, scope S = scope::system, class T>
PORTSHMEM_DEVICE T load_data(const T* p) {
  static_assert(detail::is_data_type<T>, "data accesses move 1, 2, 4, 8 or 16 naturally aligned bytes");
  if constexpr (sizeof(T) == 16) {
    if constexpr (C == cache::keep) {
      return detail::bit_cast<T>(*reinterpret_cast<const detail::u32x4*>(p));
    } else {
      const auto* q = reinterpret_cast<const std::uint64_t*>(p);
      const detail::u64x2 h = {__hip_atomic_load(q, __ATOMIC_RELAXED, detail::hip_scope<S>),
                               __hip_atomic_load(q + 1, __ATOMIC_RELAXED, detail::hip_scope<S>)};
      return detail::bit_cast<T>(h);
    }
  } else {
    using U = detail::uint_t<sizeof(T)>;
    const auto* q = reinterpret_cast<const U*>(p);
    if constexpr (C == cache::keep)
      return detail::bit_cast<T>(*q);
    else
      return detail::bit_cast<T>(__hip_atomic_load(q, __ATOMIC_RELAXED, detail::hip_scope<S>));
  }
}

/// A put reads a global source coherently: after wait<comm> (no L1 invalidate) a plain load could return a stale L1
/// (gfx90a) or XCD-L2 (gfx942) copy of data a peer wrote; the bypass load's cache bits miss those copies.
inline constexpr cache kSourceCache = cache::bypass;

/// Which memory p names: private (scratch), LDS, or global (an aperture check, no memory access). The builtins exist
/// only for the device target, and this is no template, so the host pass of a HIP compile must not see them.
PORTSHMEM_DEVICE space space_of(const void* p) {
#if defined(__HIP_DEVICE_COMPILE__)
  return __builtin_amdgcn_is_private(p) ? space::local : __builtin_amdgcn_is_shared(p) ? space::shared : space::global;
#else
  (void)p;
  return space::global; // host pass: device functions are not run
#endif
}

/// One word of a put's source: a coherent load at system scope from global memory, a plain one from private or shared
/// memory (which no other agent writes). The atomic stays where it is written (see put_word_as).
template <class U>
PORTSHMEM_DEVICE U load_source(const U* p) {
  if (space_of(p) != space::global) return *p;
  return __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
}

// ---- wave sync ------------------------------------------------------------------------------------------------------
/// The lanes of a wave run in lockstep, but the compiler may still move memory accesses across the join point:
/// wavefront-scope fences around wave_barrier order them (they emit no instruction on gfx9).
PORTSHMEM_DEVICE void wave_sync() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}

// ---- misc -----------------------------------------------------------------------------------------------------------
/// Spin-wait backoff: s_sleep 1 (about 64 clocks) lets the other waves of the SIMD issue.
PORTSHMEM_DEVICE void spin_pause() {
  __builtin_amdgcn_s_sleep(1);
}
/// Nanoseconds from the steady counter: s_memrealtime on gfx9, a constant 100 MHz clock (10 ns per tick) shared by
/// the whole device, unlike s_memtime, which counts the shader clock.
PORTSHMEM_DEVICE std::uint64_t time_ns() {
  return __builtin_readsteadycounter() * 10;
}
[[noreturn]] PORTSHMEM_DEVICE void trap() {
  __builtin_trap();
}

} // namespace portshmem::arch

#undef PORTSHMEM_AMD_FENCE_SCOPED
#undef PORTSHMEM_AMD_SCOPE_BITS
