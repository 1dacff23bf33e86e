// The two halves of every synchronization, written once: publishing (the release side of fence, quiet, signals,
// barriers) and observing (the acquire side of waits), each lowered to the cheapest arch sequence that keeps the
// qualifiers' promise (R = mm::resolve<...> of the call). The publishing atomic itself is the transport's
// (transport/ipc.hpp: publish_store, publish_add); what must precede it is decided here. A strict run (ctx::strict,
// PORTSHMEM_RELAXED=off or a premise of the relaxed lowering not established at init) takes the default qualifiers'
// sequence instead: one uniform branch on a kernel argument, absent where the call already has the strict lowering.
#pragma once

#include "portshmem/arch.hpp"
#include "portshmem/ctx.h"
#include "portshmem/memory_model.hpp"

namespace portshmem::detail {

/// Whether this call lowers strictly in this run.
template <class R>
PORTSHMEM_DEVICE bool strict_run(const portshmem_ctx_t& c) {
  if constexpr (R::strict_already) {
    return false;
  } else {
    return c.strict != 0;
  }
}

/// A fence of order O covering what R's coverage says: everything (arch::fence) or comm ops (arch::fence_comm).
template <class R, arch::order O>
PORTSHMEM_DEVICE void covered_fence(const portshmem_ctx_t& c) {
  if (strict_run<R>(c)) {
    arch::fence<O, arch::scope::system>();
  } else if constexpr (R::cover == mm::coverage_kind::comm) {
    arch::fence_comm<O, R::hw_scope>();
  } else {
    arch::fence<O, R::hw_scope>();
  }
}

/// Whether a comm-covered publication is fence_comm + a relaxed atomic (where the arch's comm fence is cheap: AMD);
/// otherwise the atomic itself is a release (on NVIDIA a release store is cheaper than fence + store).
template <class R>
inline constexpr bool kFenceThenRelaxed = R::cover == mm::coverage_kind::comm&& arch::kCheapCommFence;

/// The release that must precede a publishing atomic at kDataScope, issued as a fence when it cannot be folded into the
/// atomic (a fence_comm, or a release narrower than the atomic's system scope); returns the atomic's order.
template <class R>
PORTSHMEM_DEVICE arch::order release_before_publish(const portshmem_ctx_t& c) {
  if (strict_run<R>(c)) {
    arch::fence<arch::order::release, arch::scope::system>();
    return arch::order::relaxed;
  }
  if constexpr (kFenceThenRelaxed<R>) {
    arch::fence_comm<arch::order::release, R::hw_scope>();
    return arch::order::relaxed;
  } else if constexpr (R::hw_scope != kDataScope) {
    arch::fence<arch::order::release, R::hw_scope>();
    return arch::order::relaxed;
  } else {
    return arch::order::release;
  }
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
PORTSHMEM_DEVICE void observed(const portshmem_ctx_t& c) {
  if (strict_run<R>(c)) {
    if constexpr (kPollOrder<R> != arch::order::acquire || R::hw_scope != arch::scope::system)
      arch::fence<arch::order::acquire, arch::scope::system>();
  } else if constexpr (kPollOrder<R> == arch::order::acquire) {
    return;
  } else if constexpr (R::acquire_of == mm::acquire_kind::acquire) {
    arch::fence<arch::order::acquire, R::hw_scope>();
  } else if constexpr (R::acquire_of == mm::acquire_kind::comm) {
    arch::fence_comm<arch::order::acquire, R::hw_scope>();
  }
}

} // namespace portshmem::detail
