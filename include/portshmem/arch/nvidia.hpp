// NVIDIA lowering (sm_70+, tuned for sm_90): the memory model's primitives as PTX with explicit order and scope.
// Scopes: wave and block -> .cta, device -> .gpu, system -> .sys. PTX fences wait for the thread's outstanding accesses
// to be performed at the fence's scope; they do not write back or invalidate caches in bulk, so the levers here are the
// scope (.gpu is cheaper than .sys) and acq_rel versus sc. Cache operators (.cs) are performance hints only.
#pragma once

#include <cstdint>

#include "portshmem/platform.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "portshmem/arch/common.hpp"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
#error "portshmem needs sm_70 or newer: ld/st.relaxed/acquire/release, atom.<sem>.<scope> and fence.acq_rel"
#endif

namespace portshmem::arch {

namespace detail {
PORTSHMEM_DEVICE unsigned thread_idx(int d) {
  return d == 0 ? threadIdx.x : d == 1 ? threadIdx.y : threadIdx.z;
}
PORTSHMEM_DEVICE unsigned block_idx(int d) {
  return d == 0 ? blockIdx.x : d == 1 ? blockIdx.y : blockIdx.z;
}
PORTSHMEM_DEVICE unsigned block_dim(int d) {
  return d == 0 ? blockDim.x : d == 1 ? blockDim.y : blockDim.z;
}
PORTSHMEM_DEVICE unsigned grid_dim(int d) {
  return d == 0 ? gridDim.x : d == 1 ? gridDim.y : gridDim.z;
}
inline constexpr unsigned kWaveSize = 32;
PORTSHMEM_DEVICE void block_barrier() {
  __syncthreads();
}
} // namespace detail

} // namespace portshmem::arch

#include "portshmem/arch/gpu_common.hpp"

// Expands STMT(scope-string, ...) once, for the PTX scope of S; the string literals concatenate into the asm template.
#define PORTSHMEM_NV_SCOPED(S, STMT, ...)                                                                              \
  if constexpr ((S) == scope::system) {                                                                                \
    STMT("sys", __VA_ARGS__);                                                                                          \
  } else if constexpr ((S) == scope::device) {                                                                         \
    STMT("gpu", __VA_ARGS__);                                                                                          \
  } else {                                                                                                             \
    STMT("cta", __VA_ARGS__);                                                                                          \
  }
// Every asm below is volatile with a memory clobber: the compiler must neither drop, merge, nor move memory accesses
// across them, since the hardware ordering they request means nothing if the compiler has already reordered.
// 1-byte accesses go through a 32-bit register (PTX lets ld/st of .b8 use a wider register), 2-byte ones through a
// 16-bit one ("h").
#define PORTSHMEM_NV_LD(SC, SEM)                                                                                       \
  if constexpr (sizeof(U) == 1) {                                                                                      \
    unsigned w;                                                                                                        \
    asm volatile("ld." SEM "." SC ".b8 %0, [%1];" : "=r"(w) : "l"(p) : "memory");                                      \
    r = static_cast<U>(w);                                                                                             \
  } else if constexpr (sizeof(U) == 2)                                                                                 \
    asm volatile("ld." SEM "." SC ".b16 %0, [%1];" : "=h"(r) : "l"(p) : "memory");                                     \
  else if constexpr (sizeof(U) == 4)                                                                                   \
    asm volatile("ld." SEM "." SC ".b32 %0, [%1];" : "=r"(r) : "l"(p) : "memory");                                     \
  else                                                                                                                 \
    asm volatile("ld." SEM "." SC ".b64 %0, [%1];" : "=l"(r) : "l"(p) : "memory")
#define PORTSHMEM_NV_ST(SC, SEM)                                                                                       \
  if constexpr (sizeof(U) == 1)                                                                                        \
    asm volatile("st." SEM "." SC ".b8 [%0], %1;" ::"l"(p), "r"(static_cast<unsigned>(u)) : "memory");                 \
  else if constexpr (sizeof(U) == 2)                                                                                   \
    asm volatile("st." SEM "." SC ".b16 [%0], %1;" ::"l"(p), "h"(u) : "memory");                                       \
  else if constexpr (sizeof(U) == 4)                                                                                   \
    asm volatile("st." SEM "." SC ".b32 [%0], %1;" ::"l"(p), "r"(u) : "memory");                                       \
  else                                                                                                                 \
    asm volatile("st." SEM "." SC ".b64 [%0], %1;" ::"l"(p), "l"(u) : "memory")
// OP is the PTX operation with its type class (add.u, and.b, ...); the width (32/64) is appended here.
#define PORTSHMEM_NV_RMW(SC, SEM, OP)                                                                                  \
  if constexpr (sizeof(U) == 4)                                                                                        \
    asm volatile("atom." SEM "." SC "." OP "32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(u) : "memory");                  \
  else                                                                                                                 \
    asm volatile("atom." SEM "." SC "." OP "64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(u) : "memory")
#define PORTSHMEM_NV_CAS(SC, SEM)                                                                                      \
  if constexpr (sizeof(U) == 4)                                                                                        \
    asm volatile("atom." SEM "." SC ".cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "l"(p), "r"(e), "r"(d) : "memory");       \
  else                                                                                                                 \
    asm volatile("atom." SEM "." SC ".cas.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(p), "l"(e), "l"(d) : "memory")
#define PORTSHMEM_NV_FENCE(SC, SEM) asm volatile("fence." SEM "." SC ";" ::: "memory")

namespace portshmem::arch {

// ---- fences ---------------------------------------------------------------------------------------------------------
/// relaxed: compiler barrier only; acquire/release/acq_rel: fence.acq_rel; seq_cst: fence.sc (the PTX mapping of C++).
template <order O, scope S>
PORTSHMEM_DEVICE void fence() {
  if constexpr (O == order::relaxed) {
    asm volatile("" ::: "memory");
  } else if constexpr (O == order::seq_cst) {
    PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_FENCE, "sc")
  } else {
    PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_FENCE, "acq_rel")
  }
}
/// Same as fence<O, S>: a PTX fence already costs only the wait for the thread's own outstanding accesses (no L2
/// write-back or invalidate exists to be skipped), so ordering only the library's accesses has nothing cheaper.
/// Seen in sm_90 SASS: fence.acq_rel.S = MEMBAR.ALL.S + CCTL.IVALL (L1 invalidate), st.release = MEMBAR.ALL + store
/// (no CCTL), ld.acquire = load + CCTL.IVALL (no MEMBAR): a release or acquire folded into the flag access is cheaper.
template <order O, scope S>
PORTSHMEM_DEVICE void fence_comm() {
  fence<O, S>();
}

/// No cheaper comm fence exists, so a release store (MEMBAR + store) publishes better than fence + relaxed store.
inline constexpr bool kCheapCommFence = false;

/// ld.acquire is a load plus an L1 invalidate (no MEMBAR), cheaper than a relaxed poll followed by fence.acq_rel
/// (MEMBAR + invalidate): waits poll with acquire loads.
inline constexpr bool kCheapAcquireLoad = true;

/// Nothing to do per member: bar.sync orders the block at CTA scope and PTX fences are cumulative, so one member's
/// later fence covers every member's stores.
PORTSHMEM_DEVICE void join_comm_stores() {}

// ---- atomics -------------------------------------------------------------------------------------------------------
// seq_cst follows NVIDIA's PTX atomics ABI ("PTX Writers Guide to Interoperability", Atomics ABI): load = fence.sc +
// ld.acquire, store = fence.sc + st.relaxed, RMW = fence.sc + atom.acquire. (An older edition used st.release and
// atom.acq_rel: valid too, but on sm_90 each adds a second MEMBAR after the fence.sc.)
namespace detail {
// A load may not be a release, a store not an acquire: each gets the strongest order it allows (as on the host).
template <order O>
inline constexpr bool load_acquires = O == order::acquire || O == order::acq_rel || O == order::seq_cst;
template <order O>
inline constexpr bool store_releases = O == order::release || O == order::acq_rel;
} // namespace detail

template <order O, scope S, class T>
PORTSHMEM_DEVICE T load(const T* p) {
  static_assert(detail::is_access_type<T>, "atomic loads take 1-, 2-, 4- and 8-byte integers");
  using U = detail::uint_t<sizeof(T)>;
  U r;
  if constexpr (O == order::seq_cst) fence<order::seq_cst, S>();
  if constexpr (detail::load_acquires<O>) {
    PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_LD, "acquire")
  } else {
    PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_LD, "relaxed")
  }
  return detail::bit_cast<T>(r);
}
template <order O, scope S, class T>
PORTSHMEM_DEVICE void store(T* p, T v) {
  static_assert(detail::is_access_type<T>, "atomic stores take 1-, 2-, 4- and 8-byte integers");
  using U = detail::uint_t<sizeof(T)>;
  const U u = detail::bit_cast<U>(v);
  if constexpr (O == order::seq_cst) fence<order::seq_cst, S>();
  if constexpr (detail::store_releases<O>) {
    PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_ST, "release")
  } else {
    PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_ST, "relaxed")
  }
}

namespace detail {
// One read-modify-write: OP is "add.u", "and.b", "or.b", "xor.b" or "exch.b" (two's complement makes add.u exact for
// signed T too). Expands the atom for the order O of the call.
#define PORTSHMEM_NV_RMW_ORDERED(OP)                                                                                   \
  if constexpr (O == order::seq_cst) fence<order::seq_cst, S>();                                                       \
  if constexpr (O == order::relaxed) {                                                                                 \
    PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_RMW, "relaxed", OP)                                                            \
  } else if constexpr (O == order::acquire || O == order::seq_cst) {                                                   \
    PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_RMW, "acquire", OP)                                                            \
  } else if constexpr (O == order::release) {                                                                          \
    PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_RMW, "release", OP)                                                            \
  } else {                                                                                                             \
    PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_RMW, "acq_rel", OP)                                                            \
  }
#define PORTSHMEM_NV_DEFINE_RMW(NAME, OP)                                                                              \
  template <order O, scope S, class T>                                                                                 \
  PORTSHMEM_DEVICE T NAME(T* p, T v) {                                                                                 \
    static_assert(is_atomic_type<T>, "atomics take 4- and 8-byte integers");                                           \
    using U = uint_t<sizeof(T)>;                                                                                       \
    const U u = bit_cast<U>(v);                                                                                        \
    U r;                                                                                                               \
    PORTSHMEM_NV_RMW_ORDERED(OP)                                                                                       \
    return bit_cast<T>(r);                                                                                             \
  }
PORTSHMEM_NV_DEFINE_RMW(rmw_exchange, "exch.b")
PORTSHMEM_NV_DEFINE_RMW(rmw_add, "add.u")
PORTSHMEM_NV_DEFINE_RMW(rmw_and, "and.b")
PORTSHMEM_NV_DEFINE_RMW(rmw_or, "or.b")
PORTSHMEM_NV_DEFINE_RMW(rmw_xor, "xor.b")
#undef PORTSHMEM_NV_DEFINE_RMW
#undef PORTSHMEM_NV_RMW_ORDERED
} // namespace detail

template <order O, scope S, class T>
PORTSHMEM_DEVICE T exchange(T* p, T v) {
  return detail::rmw_exchange<O, S>(p, v);
}
template <order O, scope S, class T>
PORTSHMEM_DEVICE T fetch_add(T* p, T v) {
  return detail::rmw_add<O, S>(p, v);
}
template <order O, scope S, class T>
PORTSHMEM_DEVICE T fetch_and(T* p, T v) {
  return detail::rmw_and<O, S>(p, v);
}
template <order O, scope S, class T>
PORTSHMEM_DEVICE T fetch_or(T* p, T v) {
  return detail::rmw_or<O, S>(p, v);
}
template <order O, scope S, class T>
PORTSHMEM_DEVICE T fetch_xor(T* p, T v) {
  return detail::rmw_xor<O, S>(p, v);
}
/// Returns the old value; the exchange happened iff it equals expected. A failed CAS has the same order as a
/// successful one (atom.cas carries one semantics), which is at least what C++ asks of the failure path.
template <order O, scope S, class T>
PORTSHMEM_DEVICE T compare_exchange(T* p, T expected, T desired) {
  static_assert(detail::is_atomic_type<T>, "atomics take 4- and 8-byte integers");
  using U = detail::uint_t<sizeof(T)>;
  const U e = detail::bit_cast<U>(expected), d = detail::bit_cast<U>(desired);
  U r;
  if constexpr (O == order::seq_cst) fence<order::seq_cst, S>();
  if constexpr (O == order::relaxed) {
    PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_CAS, "relaxed")
  } else if constexpr (O == order::acquire || O == order::seq_cst) {
    PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_CAS, "acquire")
  } else if constexpr (O == order::release) {
    PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_CAS, "release")
  } else {
    PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_CAS, "acq_rel")
  }
  return detail::bit_cast<T>(r);
}

// ---- data accesses --------------------------------------------------------------------------------------------------
// keep: plain C++ access (ld/st.global once the compiler knows the space; it may vectorize and schedule freely): a
// weak access in PTX terms, a cached write of the model. bypass: ld/st.relaxed.<S>.global — strong, so a wait, get or
// AMO that reads the data is morally strong with the write (PTX "observation" needs that; a weak .cs store read by
// another thread takes part in no causality order), and each element is single-copy atomic (a 16-byte vector access
// is four atomic 4-byte elements). Bypass accesses need global memory: the local side of a transfer is dispatched by
// space_of.
namespace detail {
#define PORTSHMEM_NV_DATA_ST(SC, ...)                                                                                  \
  if constexpr (sizeof(U) == 1)                                                                                        \
    asm volatile("st.relaxed." SC ".global.b8 [%0], %1;" ::"l"(p), "r"(static_cast<unsigned>(u)) : "memory");          \
  else if constexpr (sizeof(U) == 2)                                                                                   \
    asm volatile("st.relaxed." SC ".global.b16 [%0], %1;" ::"l"(p), "h"(u) : "memory");                                \
  else if constexpr (sizeof(U) == 4)                                                                                   \
    asm volatile("st.relaxed." SC ".global.b32 [%0], %1;" ::"l"(p), "r"(u) : "memory");                                \
  else                                                                                                                 \
    asm volatile("st.relaxed." SC ".global.b64 [%0], %1;" ::"l"(p), "l"(u) : "memory")
#define PORTSHMEM_NV_DATA_LD(SC, ...)                                                                                  \
  if constexpr (sizeof(U) == 1) {                                                                                      \
    unsigned w;                                                                                                        \
    asm volatile("ld.relaxed." SC ".global.b8 %0, [%1];" : "=r"(w) : "l"(p) : "memory");                               \
    r = static_cast<U>(w);                                                                                             \
  } else if constexpr (sizeof(U) == 2)                                                                                 \
    asm volatile("ld.relaxed." SC ".global.b16 %0, [%1];" : "=h"(r) : "l"(p) : "memory");                              \
  else if constexpr (sizeof(U) == 4)                                                                                   \
    asm volatile("ld.relaxed." SC ".global.b32 %0, [%1];" : "=r"(r) : "l"(p) : "memory");                              \
  else                                                                                                                 \
    asm volatile("ld.relaxed." SC ".global.b64 %0, [%1];" : "=l"(r) : "l"(p) : "memory")
#define PORTSHMEM_NV_DATA_ST4(SC, ...)                                                                                 \
  asm volatile("st.relaxed." SC ".global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(u.x), "r"(u.y), "r"(u.z),       \
               "r"(u.w)                                                                                                \
               : "memory")
#define PORTSHMEM_NV_DATA_LD4(SC, ...)                                                                                 \
  asm volatile("ld.relaxed." SC ".global.v4.u32 {%0, %1, %2, %3}, [%4];"                                               \
               : "=r"(u.x), "=r"(u.y), "=r"(u.z), "=r"(u.w)                                                            \
               : "l"(p)                                                                                                \
               : "memory")
} // namespace detail

/// Stores v at p (1, 2, 4, 8 or 16 bytes, naturally aligned; 16 bytes as one vector access). Not ordered by itself.
template <cache C, scope S = scope::system, class T>
PORTSHMEM_DEVICE void store_data(T* p, const T& v) {
  static_assert(detail::is_data_type<T>, "data accesses move 1, 2, 4, 8 or 16 naturally aligned bytes");
  if constexpr (sizeof(T) == 16) {
    const uint4 u = detail::bit_cast<uint4>(v);
    if constexpr (C == cache::keep) {
      *reinterpret_cast<uint4*>(p) = u;
    } else {
      PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_DATA_ST4, 0)
    }
  } else {
    using U = detail::uint_t<sizeof(T)>;
    const U u = detail::bit_cast<U>(v);
    if constexpr (C == cache::keep) {
      *reinterpret_cast<U*>(p) = u;
    } else {
      PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_DATA_ST, 0)
    }
  }
}
/// Loads the value at p (1, 2, 4, 8 or 16 bytes, naturally aligned; 16 bytes as one vector access).
template <cache C, scope S = scope::system, class T>
PORTSHMEM_DEVICE T load_data(const T* p) {
  static_assert(detail::is_data_type<T>, "data accesses move 1, 2, 4, 8 or 16 naturally aligned bytes");
  if constexpr (sizeof(T) == 16) {
    uint4 u;
    if constexpr (C == cache::keep) {
      u = *reinterpret_cast<const uint4*>(p);
    } else {
      PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_DATA_LD4, 0)
    }
    return detail::bit_cast<T>(u);
  } else {
    using U = detail::uint_t<sizeof(T)>;
    if constexpr (C == cache::keep) {
      return detail::bit_cast<T>(*reinterpret_cast<const U*>(p));
    } else {
      U r;
      PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_DATA_LD, 0)
      return detail::bit_cast<T>(r);
    }
  }
}

/// A put reads its source with plain loads: every wait strength that promises comm reads (acquire, comm) polls with
/// ld.acquire, whose acquire pattern orders the thread's later weak loads too (PTX causality order), so nothing staler
/// than the acquired data can be read.
inline constexpr cache kSourceCache = cache::keep;

/// Which memory p names: the thread's local memory, the block's shared memory, or global memory (isspacep).
PORTSHMEM_DEVICE space space_of(const void* p) {
  return __isLocal(p) ? space::local : __isShared(p) ? space::shared : space::global;
}

/// One word of a put's source, wherever it lives: a weak generic load (valid for local, shared and global memory), as
/// an asm volatile statement so the compiler keeps it before the peer-table lookup that follows (a plain load was
/// sunk past that lookup's branch, which serializes two memory latencies).
template <class U>
PORTSHMEM_DEVICE U load_source(const U* p) {
  U r;
  if constexpr (sizeof(U) == 4)
    asm volatile("ld.b32 %0, [%1];" : "=r"(r) : "l"(p) : "memory");
  else
    asm volatile("ld.b64 %0, [%1];" : "=l"(r) : "l"(p) : "memory");
  return r;
}

// ---- wave sync ------------------------------------------------------------------------------------------------------
/// Barrier + memory ordering among the lanes of this warp that exist (a short last warp names only its own lanes).
PORTSHMEM_DEVICE void wave_sync() {
  const unsigned n = wave_threads();
  __syncwarp(n >= 32 ? 0xffffffffu : (1u << n) - 1u);
}

// ---- misc -----------------------------------------------------------------------------------------------------------
/// Spin-wait backoff: a short sleep frees issue slots for the warps doing the work being waited for.
PORTSHMEM_DEVICE void spin_pause() {
  __nanosleep(32);
}
/// Nanoseconds from %globaltimer (a global clock, comparable across SMs; its update granularity is ~1 us or finer).
PORTSHMEM_DEVICE std::uint64_t time_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
[[noreturn]] PORTSHMEM_DEVICE void trap() {
  __trap();
  __builtin_unreachable();
}

} // namespace portshmem::arch

#undef PORTSHMEM_NV_SCOPED
#undef PORTSHMEM_NV_LD
#undef PORTSHMEM_NV_ST
#undef PORTSHMEM_NV_RMW
#undef PORTSHMEM_NV_CAS
#undef PORTSHMEM_NV_FENCE
#undef PORTSHMEM_NV_DATA_ST
#undef PORTSHMEM_NV_DATA_LD
#undef PORTSHMEM_NV_DATA_ST4
#undef PORTSHMEM_NV_DATA_LD4
