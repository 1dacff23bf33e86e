// The load/store transport: a PE whose symmetric heap is mapped into this process (a process on this GPU, another GPU
// of the node over NVLink/xGMI, shared memory on the host platform) is reached by loads, stores and atomics on the
// mapped copy. This is all of that path; the bodies in detail/ check a call's arguments and choreograph its group,
// then call the operations below.
//
// The interface a transport implements. A target is pe's copy of a symmetric location, resolved from pe and the
// caller's symmetric address (which has the same offset in every heap) after the arguments were checked
// (detail/checks.hpp). Here it is the copy's mapped address, nullptr when unresolved (the resolver recorded why).
// R is the call's mm::resolve, C an arch::cache, T an element of 1, 2, 4 or 8 bytes.
//   resolve  peer_heap(c, pe, call, addr, bytes, reporter) -> heap     pe's heap; nullptr: PORTSHMEM_ERR_UNREACHABLE
//            remote_range(c, addr, bytes, pe, call, reporter) -> target  range_status, then peer_heap's lookup
//            at<T>(c, heap, addr) -> target                             addr's copy inside a resolved heap
//            pointer(c, addr, pe) -> target                             portshmem::ptr: nullptr if none, no record
//   rma      put_word<R>(c, dest, src, n, pe, call) -> heap             a thread's aligned 4/8/16-byte put: resolves,
//                                                                       reads src, writes; the heap, for a signal
//            copy_to_remote<C>(target, src, n, rank, size)              a group member's share of a put's bytes
//            copy_to_local<C>(dest, target, n, rank, size)              a group member's share of a get's bytes
//            store_element(target, v), load_element(target) -> T        p / atomic_set, g / atomic_fetch
//   amo      fetch_modify<Op>(target, v) -> old                         add, and, or, xor, swap (detail::rmw)
//            compare_swap(target, cond, v) -> old
//   signal   publish_signal<R>(c, target, v, op)                        set / add after what R's coverage names
//            update_signal(target, v, op)                               set / add, relaxed (signal_op under comm)
//   barrier  arrive<R>(c, pe, k)                                        a publishing +1 on pe's round-k counter
// Every access of a target is coherent at system scope (detail::kDataScope): a call's scope narrows its fences only.
//
// Dispatch: mapped_heap is the one reader of ctx::peer_heaps (and of the symmetric range that stands in for it), and
// every operation reaches its peer through a target that peer_heap, remote_range, put_word, pointer or arrive resolved.
// A peer with no mapping (nullptr in peer_heaps, outside the range) is the RDMA transport's (transport/proxy.hpp, the
// same operation set on a proxy target) when the job has one: the bodies ask transport/dispatch.hpp before they resolve
// here, so what reaches these resolvers is mapped or a bad call.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portshmem/arch.hpp"
#include "portshmem/ctx.h"
#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/copy.hpp"
#include "portshmem/detail/internal_area.hpp"
#include "portshmem/detail/publish.hpp"
#include "portshmem/detail/scalar.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/status.h"
#include "portshmem/types.hpp"

namespace portshmem::transport::ipc {

// ---- resolve --------------------------------------------------------------------------------------------------------

/// pe's heap as mapped in this process (pe in range), at the point that matches ctx.heap (the start of its user part),
/// nullptr where no load/store path reaches it. In one symmetric range that is arithmetic on kernel arguments; the
/// table costs a load from memory on the path of every call that names a peer (after a wait: a dependent L2 access).
PORTSHMEM_DEVICE char* mapped_heap(const portshmem_ctx_t& c, int pe) {
  if (PORTSHMEM_HAS_SYMMETRIC_RANGE && c.peer_stride != 0) {
    const bool in_range = unsigned(pe - c.mapped_first) < unsigned(c.mapped_count);
    return in_range ? c.heap + std::int64_t(pe - c.my_pe) * c.peer_stride : nullptr;
  }
  return c.peer_heaps[pe];
}

/// PE pe's heap as mapped in this process (pe in range), or nullptr after recording that no load/store path reaches
/// it; addr and bytes are the call's, for the record.
PORTSHMEM_DEVICE char* peer_heap(const portshmem_ctx_t& c, int pe, portshmem_call_id_t call, const void* addr,
                                 std::size_t bytes, bool reporter = true) {
  char* const base = mapped_heap(c, pe);
  if (!base && reporter) detail::record_error(c, PORTSHMEM_ERR_UNREACHABLE, call, pe, addr, bytes);
  return base;
}

/// Where pe's copy of the symmetric range [addr, addr + bytes) is mapped in this process, or nullptr after
/// recording why the call is bad (only the group member `reporter` records, so a group reports once).
PORTSHMEM_DEVICE char* remote_range(const portshmem_ctx_t& c, const void* addr, std::size_t bytes, int pe,
                                    portshmem_call_id_t call, bool reporter = true) {
  portshmem_status_t bad = detail::range_status(c, addr, bytes, pe);
  char* base = nullptr;
  if (bad == PORTSHMEM_SUCCESS && !(base = mapped_heap(c, pe))) bad = PORTSHMEM_ERR_UNREACHABLE;
  if (bad == PORTSHMEM_SUCCESS) return base + detail::heap_offset(c, addr);
  if (reporter) detail::record_error(c, bad, call, pe, addr, bytes);
  return nullptr;
}

/// The copy of the symmetric addr inside heap, a peer's heap that peer_heap resolved.
template <class T = char>
PORTSHMEM_DEVICE T* at(const portshmem_ctx_t& c, char* heap, const void* addr) {
  return reinterpret_cast<T*>(heap + detail::heap_offset(c, addr));
}

/// pe's copy of the symmetric addr for ordinary loads and stores, or nullptr (pe out of range, addr not symmetric,
/// or no load/store path); records nothing: asking is not a bad call.
PORTSHMEM_DEVICE char* pointer(const portshmem_ctx_t& c, const void* addr, int pe) {
  const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(addr) - reinterpret_cast<std::uintptr_t>(c.heap);
  if (pe < 0 || pe >= c.n_pes || offset >= c.heap_size || !mapped_heap(c, pe)) return nullptr;
  return mapped_heap(c, pe) + offset;
}

// ---- rma ------------------------------------------------------------------------------------------------------------

/// A thread's put of N naturally aligned words U (dest already accepted by range_status): the source loads and the
/// peer-table load are issued together, and only then is any waited for (arch::load_source stays where it is written;
/// a plain load was sunk past the table lookup's branch, which serializes two memory latencies: +0.15 us per
/// put-with-signal on H200s). Returns pe's heap base, or nullptr after recording that pe is unreachable (nothing is
/// written).
template <class U, unsigned N, class R>
PORTSHMEM_DEVICE char* put_words_as(const portshmem_ctx_t& c, void* dest, const void* src, int pe,
                                    portshmem_call_id_t call) {
  U v[N];
#pragma unroll
  for (unsigned i = 0; i < N; ++i) v[i] = arch::load_source(static_cast<const U*>(src) + i);
  char* const base = peer_heap(c, pe, call, dest, N * sizeof(U));
  if (base) {
    U* const target = reinterpret_cast<U*>(base + detail::heap_offset(c, dest));
#pragma unroll
    for (unsigned i = 0; i < N; ++i) arch::store_data<R::cache, detail::kDataScope>(target + i, v[i]);
  }
  return base;
}

/// The put of a call that detail::is_word_put accepted: one 4- or 8-byte word, or two 8-byte words (16 bytes, which
/// the copy path moved 0.4 us slower per put-with-signal round trip on an H100).
template <class R>
PORTSHMEM_DEVICE char* put_word(const portshmem_ctx_t& c, void* dest, const void* src, std::size_t n, int pe,
                                portshmem_call_id_t call) {
  if (n == 16) return put_words_as<std::uint64_t, 2, R>(c, dest, src, pe, call);
  return n == 8 ? put_words_as<std::uint64_t, 1, R>(c, dest, src, pe, call)
                : put_words_as<std::uint32_t, 1, R>(c, dest, src, pe, call);
}

/// Copies n bytes of the caller's src (global, shared or private memory) to remote (a peer's symmetric memory) with
/// data path C. A global source is read as arch::kSourceCache says (coherently, where plain loads could be stale);
/// shared and private memory, which no other agent writes, with plain loads (bypass accesses need global memory).
template <arch::cache C>
PORTSHMEM_DEVICE void copy_to_remote(char* remote, const void* src, std::size_t n, unsigned rank, unsigned size) {
  if constexpr (arch::kSourceCache == arch::cache::keep) {
    detail::copy_bytes<arch::cache::keep, C, detail::kDataScope>(remote, src, n, rank, size);
  } else if (arch::space_of(src) == arch::space::global) {
    detail::copy_bytes<arch::kSourceCache, C, detail::kDataScope>(remote, src, n, rank, size);
  } else {
    detail::copy_bytes<arch::cache::keep, C, detail::kDataScope>(remote, src, n, rank, size);
  }
}

/// Copies n bytes of remote (a peer's symmetric memory, read coherently) into the caller's dest (global, shared or
/// private memory); C is the data path of the stores into a global dest, plain stores serve the others.
template <arch::cache C>
PORTSHMEM_DEVICE void copy_to_local(void* dest, const char* remote, std::size_t n, unsigned rank, unsigned size) {
  if constexpr (C == arch::cache::keep) {
    detail::copy_bytes<arch::cache::bypass, arch::cache::keep, detail::kDataScope>(dest, remote, n, rank, size);
  } else if (arch::space_of(dest) == arch::space::global) {
    detail::copy_bytes<arch::cache::bypass, C, detail::kDataScope>(dest, remote, n, rank, size);
  } else {
    detail::copy_bytes<arch::cache::bypass, arch::cache::keep, detail::kDataScope>(dest, remote, n, rank, size);
  }
}

/// Writes one element with one coherent store, atomic whatever its size (detail/scalar.hpp).
template <class T>
PORTSHMEM_DEVICE void store_element(T* remote, T value) {
  detail::store_value<arch::order::relaxed, detail::kDataScope>(remote, value);
}

/// Reads one element with one coherent load.
template <class T>
PORTSHMEM_DEVICE T load_element(const T* remote) {
  return detail::load_value<arch::order::relaxed, detail::kDataScope>(remote);
}

// ---- amo ------------------------------------------------------------------------------------------------------------

/// The read-modify-write Op on the bits of T, a relaxed atomic; returns the old value.
template <detail::rmw Op, class T>
PORTSHMEM_DEVICE T fetch_modify(T* remote, T value) {
  using U = arch::detail::uint_t<sizeof(T)>;
  constexpr arch::order O = arch::order::relaxed;
  constexpr arch::scope S = detail::kDataScope;
  U* p = reinterpret_cast<U*>(remote);
  const U v = detail::bit_cast<U>(value);
  U old;
  if constexpr (Op == detail::rmw::add) {
    old = arch::fetch_add<O, S>(p, v);
  } else if constexpr (Op == detail::rmw::and_) {
    old = arch::fetch_and<O, S>(p, v);
  } else if constexpr (Op == detail::rmw::or_) {
    old = arch::fetch_or<O, S>(p, v);
  } else if constexpr (Op == detail::rmw::xor_) {
    old = arch::fetch_xor<O, S>(p, v);
  } else {
    old = arch::exchange<O, S>(p, v);
  }
  return detail::bit_cast<T>(old);
}

/// Writes value if the target holds cond, as one relaxed atomic; returns the value it held.
template <class T>
PORTSHMEM_DEVICE T compare_swap(T* remote, T cond, T value) {
  using U = arch::detail::uint_t<sizeof(T)>;
  return detail::bit_cast<T>(arch::compare_exchange<arch::order::relaxed, detail::kDataScope>(
      reinterpret_cast<U*>(remote), detail::bit_cast<U>(cond), detail::bit_cast<U>(value)));
}

// ---- signal and barrier: publishing atomics ---------------------------------------------------------------------

/// Writes v to p (a flag or signal word) once what R's coverage names is published.
template <class R, class T>
PORTSHMEM_DEVICE void publish_store(const portshmem_ctx_t& c, T* p, T v) {
  if (detail::release_before_publish<R>(c) == arch::order::release) {
    arch::store<arch::order::release, detail::kDataScope>(p, v);
  } else {
    arch::store<arch::order::relaxed, detail::kDataScope>(p, v);
  }
}

/// Adds v to p (a counter or signal word) once what R's coverage names is published; returns the old value.
template <class R, class T>
PORTSHMEM_DEVICE T publish_add(const portshmem_ctx_t& c, T* p, T v) {
  if (detail::release_before_publish<R>(c) == arch::order::release)
    return arch::fetch_add<arch::order::release, detail::kDataScope>(p, v);
  return arch::fetch_add<arch::order::relaxed, detail::kDataScope>(p, v);
}

/// The signal update as the release R describes (detail/publish.hpp): set is a publishing store, add a publishing
/// fetch-add, so the signal becomes visible only after what R's coverage names.
template <class R>
PORTSHMEM_DEVICE void publish_signal(const portshmem_ctx_t& c, std::uint64_t* sig, std::uint64_t value,
                                     signal_update op) {
  if (op == signal_add) {
    publish_add<R>(c, sig, value);
  } else {
    publish_store<R>(c, sig, value);
  }
}

/// The signal update as a relaxed atomic that publishes nothing.
PORTSHMEM_DEVICE void update_signal(std::uint64_t* sig, std::uint64_t value, signal_update op) {
  if (op == signal_add) {
    arch::fetch_add<arch::order::relaxed, detail::kDataScope>(sig, value);
  } else {
    arch::store<arch::order::relaxed, detail::kDataScope>(sig, value);
  }
}

/// A barrier arrival: adds 1 to pe's round-k counter (detail::internal_area, at the same offset in every heap, just
/// before the mapped user part) once what R's coverage names is published. pe is mapped (transport/dispatch.hpp sends
/// the others to the proxy).
template <class R>
PORTSHMEM_DEVICE void arrive(const portshmem_ctx_t& c, int pe, int k) {
  auto* theirs = reinterpret_cast<detail::internal_area*>(mapped_heap(c, pe) - detail::kInternalHeapBytes);
  publish_add<R>(c, &theirs->barrier_arrivals[k], std::uint64_t(1));
}

} // namespace portshmem::transport::ipc
