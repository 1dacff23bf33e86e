// The two halves of every synchronization, written once: publishing (the release side of fence, quiet, signals,
// barriers) and observing (the acquire side of waits), each lowered to the cheapest arch sequence that keeps the
// qualifiers' promise (R = mm::resolve<...> of the call).
#pragma once

#include "portshmem/arch.hpp"
#include "portshmem/memory_model.hpp"

namespace portshmem::detail {

/// A fence of order O covering what R's coverage says: everything (arch::fence) or comm ops (arch::fence_comm).
template <class R, arch::order O>
PORTSHMEM_DEVICE void covered_fence() {
  if constexpr (R::cover == mm::coverage_kind::comm) {
    arch::fence_comm<O, R::hw_scope>();
  } else {
    arch::fence<O, R::hw_scope>();
  }
}

/// The order of an atomic that publishes what came before it, and whether a comm fence must precede it: where the
/// arch's comm fence is cheap (AMD) a comm-covered publication is fence_comm + relaxed atomic; otherwise the atomic
/// itself is a release (on NVIDIA a release store is cheaper than fence + store).
template <class R>
inline constexpr bool kFenceThenRelaxed = R::cover == mm::coverage_kind::comm&& arch::kCheapCommFence;
template <class R>
inline constexpr arch::order kPublishOrder = kFenceThenRelaxed<R> ? arch::order::relaxed : arch::order::release;

template <class R, class T>
PORTSHMEM_DEVICE void publish_store(T* p, T v) {
  if constexpr (kFenceThenRelaxed<R>) arch::fence_comm<arch::order::release, R::hw_scope>();
  arch::store<kPublishOrder<R>, R::hw_scope>(p, v);
}

template <class R, class T>
PORTSHMEM_DEVICE T publish_add(T* p, T v) {
  if constexpr (kFenceThenRelaxed<R>) arch::fence_comm<arch::order::release, R::hw_scope>();
  return arch::fetch_add<kPublishOrder<R>, R::hw_scope>(p, v);
}

/// The order of a wait's polling loads: acquire where that is the cheap way to acquire (arch::kCheapAcquireLoad),
/// relaxed otherwise (then observed() acquires once, after the value is seen) — and always relaxed for mm::relaxed.
template <class R>
inline constexpr arch::order kPollOrder =
    R::acquire_of != mm::acquire_kind::relaxed&& arch::kCheapAcquireLoad ? arch::order::acquire : arch::order::relaxed;

/// After a wait saw its value with a kPollOrder load: acquire makes the waiting thread's later loads see what the
/// writer published; comm orders only later comm reads (which bypass the non-coherent caches, so no invalidate is
/// needed); relaxed promises nothing. Nothing is left to do when the poll itself was the acquire.
template <class R>
PORTSHMEM_DEVICE void observed() {
  if constexpr (kPollOrder<R> == arch::order::acquire) {
    return;
  } else if constexpr (R::acquire_of == mm::acquire_kind::acquire) {
    arch::fence<arch::order::acquire, R::hw_scope>();
  } else if constexpr (R::acquire_of == mm::acquire_kind::comm) {
    arch::fence_comm<arch::order::acquire, R::hw_scope>();
  }
}

} // namespace portshmem::detail
