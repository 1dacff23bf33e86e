// The RDMA transport, device side: a PE whose heap is not mapped in this process (a PE on another node, or every peer
// under PORTSHMEM_TRANSPORT=rdma) is reached through the proxy thread of this PE (src/rdma), which executes commands
// over a network. A call posts commands to its block's ring (transport/proxy_ring.hpp; protocol in proxy_queue.h)
// with one release store each, and waits only where its contract needs it. The same operation set as the load/store
// transport (transport/ipc.hpp), on a proxy target: the PE and the symmetric offset.
//   rma      put<R>(c, t, src, n, blocking, call)    one PUT; a word (4 or 8 aligned bytes) travels inline; blocking:
//                                                     returns once the proxy has read src (FLAG_BLOCKING)
//            get<R>(c, t, dest, n, blocking)          one GET into dest; blocking: returns with the data there
//            store_element(c, t, v)                   p: the element inline, not waited for
//            load_element<T>(c, t) -> T               g: a GET into the result cell, waited for
//   amo      fetch_modify<Op>(c, t, v, fetch, delivered), compare_swap, fetch_word, set_word
//                                                     one AMO; a fetching one waits for its value
//   signal   signal(c, t, v, op, delivered)           one SIGNAL
//            put_signal<R>(c, t, src, n, sig, v, op, blocking)  one PUT_SIGNAL (the network delivers the data first)
//   barrier  arrive(c, pe, k)                         a SIGNAL add of 1 on pe's round-k counter
//   order    fence(c) quiet(c) pe_quiet(c, pe)        one FENCE (not waited for), QUIET / PE_QUIET (waited for)
// delivered: the target is one this PE also reaches by loads and stores (atomics go through the proxy whenever the
// job has proxied peers, transport/dispatch.hpp), so the command completes only once performed there and the call
// waits for it: what the caller then does there by load/store is ordered after it.
// Device memory the host cannot address (a GPU's shared or private memory) never goes to the proxy: such a put's
// bytes travel inline, 8 at a time, and such a get comes back through the result cell.
// What fence, quiet and the signals mean on this path: docs/backends.md, "The memory model on this path".
#pragma once

#include <cstddef>
#include <cstdint>

#include "portshmem/arch.hpp"
#include "portshmem/ctx.h"
#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/internal_area.hpp"
#include "portshmem/detail/scalar.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/status.h"
#include "portshmem/transport/proxy_ring.hpp"
#include "portshmem/types.hpp"

#ifndef PORTSHMEM_ENABLE_RDMA
#error "portshmem/config.h must define PORTSHMEM_ENABLE_RDMA (0 or 1)"
#endif

namespace portshmem::transport::proxy {

/// Whether this build has the RDMA transport (CMake PORTSHMEM_ENABLE_RDMA); without it every branch below folds away.
inline constexpr bool kEnabled = PORTSHMEM_ENABLE_RDMA != 0;

/// Whether this job reaches some PE through the proxy: the handle carries the ring table.
PORTSHMEM_DEVICE bool active(const portshmem_ctx_t& c) {
  if constexpr (kEnabled) {
    return __builtin_expect(c.proxy_rings != nullptr, 0); // the load/store path is the one laid out straight
  } else {
    return false;
  }
}

/// pe's copy of a symmetric location, as the proxy names it.
struct target {
  int pe;
  std::uint64_t offset; ///< from the start of pe's heap (the same in every heap; the proxy's networks count from it)
};

/// The target of the symmetric addr on pe (arguments already checked): its offset from ctx.heap, plus the reserved
/// area before ctx.heap.
PORTSHMEM_DEVICE target at(const portshmem_ctx_t& c, const void* addr, int pe) {
  return {pe, std::uint64_t(detail::heap_offset(c, addr)) + portshmem::detail::kInternalHeapBytes};
}

/// The call's qualifiers as the command's qualifier word (opaque to the proxy, passed to the network): bit 0 coverage
/// comm, bits 1-2 the scope (0 device, 1 node, 2 system), bit 3 keep data, bit 4 a strong signal.
template <class R>
inline constexpr std::uint32_t kQualifierBits = (R::cover == mm::coverage_kind::comm ? 1u : 0u) |
                                                (std::uint32_t(R::scope_of) << 1) |
                                                (R::path == mm::path_kind::keep ? 8u : 0u) |
                                                (R::strength == mm::signal_kind::strong ? 16u : 0u);

/// Whether a call with R's scope may name pe through the proxy: a device- or node-scoped call naming a PE on another
/// node is refused (PORTSHMEM_ERR_SCOPE, recorded by `reporter`): no ordering of that scope reaches it.
template <class R>
PORTSHMEM_DEVICE bool scope_allows(const portshmem_ctx_t& c, int pe, portshmem_call_id_t call, bool reporter) {
  if constexpr (R::scope_of == mm::scope_kind::system) {
    return true;
  } else {
    if (!c.pe_device || (c.pe_device[c.my_pe] >> 16) == (c.pe_device[pe] >> 16)) return true;
    if (reporter) detail::record_error(c, PORTSHMEM_ERR_SCOPE, call, pe, nullptr, 0);
    return false;
  }
}

namespace detail {
using portshmem::proxy::command;
using portshmem::proxy::wait_for;

/// The calling block's ring.
PORTSHMEM_DEVICE const portshmem_proxy_ring_t& ring_of(const portshmem_ctx_t& c) {
  return c.proxy_rings[arch::block_rank() % c.proxy_ring_count];
}

/// Posts cmd to the calling block's ring and waits for what w names. A network failure is the ring's status, recorded
/// in the handle's error record (portshmem_check_device_errors); a proxy that never answers within PORTSHMEM_TIMEOUT
/// ends the kernel as a wait that times out does (detail/spin.hpp), after recording the call, PE and address and the
/// ring's count awaited and seen.
PORTSHMEM_DEVICE portshmem_status_t post(const portshmem_ctx_t& c, const command& cmd, wait_for w,
                                         std::uint64_t* fetched = nullptr) {
  const portshmem_status_t s = portshmem::proxy::post(c, ring_of(c), cmd, w, fetched);
  if (s == PORTSHMEM_ERR_TIMEOUT) arch::trap();
  return s;
}

/// An inline PUT of the n (at most 8) bytes at v's low end.
PORTSHMEM_DEVICE void put_value(const portshmem_ctx_t& c, target t, std::uint64_t v, std::size_t n,
                                portshmem_call_id_t call, std::uint32_t qualifier) {
  command cmd = portshmem::proxy::put_inline_command(t.pe, t.offset, v, n);
  cmd.call = std::uint32_t(call);
  cmd.qualifier = qualifier;
  post(c, cmd, wait_for::nothing);
}

/// n bytes of memory only this device reaches (shared or private), as inline PUTs of up to 8 bytes.
PORTSHMEM_DEVICE void put_pieces(const portshmem_ctx_t& c, target t, const void* src, std::size_t n,
                                 portshmem_call_id_t call, std::uint32_t qualifier) {
  for (std::size_t done = 0; done < n; done += 8) {
    const std::size_t m = n - done < 8 ? n - done : 8;
    std::uint64_t v = 0;
    __builtin_memcpy(&v, static_cast<const char*>(src) + done, m);
    put_value(c, {t.pe, t.offset + done}, v, m, call, qualifier);
  }
}

/// m (at most 8) bytes of t, fetched through the result cell (at v's low end).
PORTSHMEM_DEVICE std::uint64_t fetch_bytes(const portshmem_ctx_t& c, target t, std::size_t m, portshmem_call_id_t call,
                                           std::uint32_t qualifier) {
  command cmd = portshmem::proxy::get_command(t.pe, t.offset, nullptr, m);
  cmd.call = std::uint32_t(call);
  cmd.qualifier = qualifier;
  std::uint64_t v = 0;
  post(c, cmd, wait_for::value, &v);
  return v;
}

template <portshmem::detail::rmw Op>
PORTSHMEM_DEVICE portshmem_proxy_amo_t amo_kind(bool fetch) {
  using portshmem::detail::rmw;
  if constexpr (Op == rmw::add) {
    return fetch ? PORTSHMEM_PROXY_AMO_FETCH_ADD : PORTSHMEM_PROXY_AMO_ADD;
  } else if constexpr (Op == rmw::and_) {
    return fetch ? PORTSHMEM_PROXY_AMO_FETCH_AND : PORTSHMEM_PROXY_AMO_AND;
  } else if constexpr (Op == rmw::or_) {
    return fetch ? PORTSHMEM_PROXY_AMO_FETCH_OR : PORTSHMEM_PROXY_AMO_OR;
  } else if constexpr (Op == rmw::xor_) {
    return fetch ? PORTSHMEM_PROXY_AMO_FETCH_XOR : PORTSHMEM_PROXY_AMO_XOR;
  } else {
    return fetch ? PORTSHMEM_PROXY_AMO_SWAP : PORTSHMEM_PROXY_AMO_SET;
  }
}

/// One AMO of kind on the sizeof(T) bytes of t; fetch: waits for and returns the old value; delivered: waits for the
/// operation to be performed at the target. Returns T{} when nothing was fetched.
template <class T>
PORTSHMEM_DEVICE T amo(const portshmem_ctx_t& c, target t, portshmem_proxy_amo_t kind, T value, T compare, bool fetch,
                       bool delivered) {
  using U = arch::detail::uint_t<sizeof(T)>;
  command cmd = portshmem::proxy::amo_command(kind, t.pe, t.offset, sizeof(T),
                                              std::uint64_t(portshmem::detail::bit_cast<U>(value)),
                                              std::uint64_t(portshmem::detail::bit_cast<U>(compare)));
  if (delivered) cmd.flags |= PORTSHMEM_PROXY_FLAG_DELIVERED;
  std::uint64_t old = 0;
  post(c, cmd, fetch ? wait_for::value : delivered ? wait_for::completion : wait_for::nothing, &old);
  return portshmem::detail::bit_cast<T>(U(old));
}
} // namespace detail

// ---- rma ------------------------------------------------------------------------------------------------------------

/// n bytes of the caller's src to t as one command. blocking: returns once src may be reused (the proxy has read it);
/// otherwise src must stay unchanged until a quiet. A word travels inline (nothing to wait for).
template <class R>
PORTSHMEM_DEVICE_COLD void put(portshmem_ctx_t c, target t, const void* src, std::size_t n, bool blocking,
                               portshmem_call_id_t call) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(src) | std::uintptr_t(t.offset);
  if (n == 8 && (a & 7) == 0) {
    detail::put_value(c, t, arch::load_source(static_cast<const std::uint64_t*>(src)), 8, call, kQualifierBits<R>);
  } else if (n == 4 && (a & 3) == 0) {
    detail::put_value(c, t, arch::load_source(static_cast<const std::uint32_t*>(src)), 4, call, kQualifierBits<R>);
  } else if (arch::space_of(src) != arch::space::global) {
    detail::put_pieces(c, t, src, n, call, kQualifierBits<R>);
  } else {
    detail::command cmd = portshmem::proxy::put_command(t.pe, t.offset, src, n, blocking);
    cmd.call = std::uint32_t(call);
    cmd.qualifier = kQualifierBits<R>;
    detail::post(c, cmd, blocking ? detail::wait_for::completion : detail::wait_for::nothing);
  }
}

/// n bytes of t into the caller's dest as one command. blocking: returns with the data in dest; otherwise it is there
/// after a quiet.
template <class R>
PORTSHMEM_DEVICE_COLD void get(portshmem_ctx_t c, target t, void* dest, std::size_t n, bool blocking) {
  if (arch::space_of(dest) != arch::space::global) {
    for (std::size_t done = 0; done < n; done += 8) {
      const std::size_t m = n - done < 8 ? n - done : 8;
      const std::uint64_t v = detail::fetch_bytes(c, {t.pe, t.offset + done}, m, PORTSHMEM_CALL_GET, kQualifierBits<R>);
      __builtin_memcpy(static_cast<char*>(dest) + done, &v, m);
    }
    return;
  }
  detail::command cmd = portshmem::proxy::get_command(t.pe, t.offset, dest, n);
  cmd.qualifier = kQualifierBits<R>;
  detail::post(c, cmd, blocking ? detail::wait_for::completion : detail::wait_for::nothing);
}

/// p: value to t, carried in the command (the 16-byte long double of the host platform: two 8-byte halves).
template <class T>
PORTSHMEM_DEVICE_COLD void store_element(portshmem_ctx_t c, target t, T value) {
  for (std::size_t done = 0; done < sizeof(T); done += 8) {
    const std::size_t m = sizeof(T) - done < 8 ? sizeof(T) - done : 8;
    std::uint64_t v = 0;
    __builtin_memcpy(&v, reinterpret_cast<const char*>(&value) + done, m);
    detail::put_value(c, {t.pe, t.offset + done}, v, m, PORTSHMEM_CALL_P, 0);
  }
}

/// g: the element at t, fetched through the result cell.
template <class T>
PORTSHMEM_DEVICE_COLD T load_element(portshmem_ctx_t c, target t) {
  T value;
  for (std::size_t done = 0; done < sizeof(T); done += 8) {
    const std::size_t m = sizeof(T) - done < 8 ? sizeof(T) - done : 8;
    const std::uint64_t v = detail::fetch_bytes(c, {t.pe, t.offset + done}, m, PORTSHMEM_CALL_G, 0);
    __builtin_memcpy(reinterpret_cast<char*>(&value) + done, &v, m);
  }
  return value;
}

// ---- amo ------------------------------------------------------------------------------------------------------------

/// The read-modify-write Op on t; fetch: returns the old value (T{} otherwise).
template <portshmem::detail::rmw Op, class T>
PORTSHMEM_DEVICE_COLD T fetch_modify(portshmem_ctx_t c, target t, T value, bool fetch, bool delivered) {
  return detail::amo(c, t, detail::amo_kind<Op>(fetch), value, T{}, fetch, delivered);
}

/// Writes value to t if it holds cond; returns the value it held.
template <class T>
PORTSHMEM_DEVICE_COLD T compare_swap(portshmem_ctx_t c, target t, T cond, T value, bool delivered) {
  return detail::amo(c, t, PORTSHMEM_PROXY_AMO_COMPARE_SWAP, value, cond, true, delivered);
}

/// atomic_fetch: t's value, read atomically with the network's other atomics.
template <class T>
PORTSHMEM_DEVICE_COLD T fetch_word(portshmem_ctx_t c, target t, bool delivered) {
  return detail::amo(c, t, PORTSHMEM_PROXY_AMO_FETCH, T{}, T{}, true, delivered);
}

/// atomic_set: value to t, atomically with the network's other atomics.
template <class T>
PORTSHMEM_DEVICE_COLD void set_word(portshmem_ctx_t c, target t, T value, bool delivered) {
  detail::amo(c, t, PORTSHMEM_PROXY_AMO_SET, value, T{}, false, delivered);
}

// ---- signal and barrier ---------------------------------------------------------------------------------------------

/// A signal update (set or add) of the 8-byte word at t. The command's release publishes everything the thread wrote
/// before it, whatever the coverage.
template <class R>
PORTSHMEM_DEVICE_COLD void signal(portshmem_ctx_t c, target t, std::uint64_t value, signal_update op, bool delivered) {
  detail::command cmd = portshmem::proxy::signal_command(
      op == signal_add ? PORTSHMEM_PROXY_SIGNAL_ADD : PORTSHMEM_PROXY_SIGNAL_SET, t.pe, t.offset, value);
  cmd.qualifier = kQualifierBits<R>;
  if (delivered) cmd.flags |= PORTSHMEM_PROXY_FLAG_DELIVERED;
  detail::post(c, cmd, delivered ? detail::wait_for::completion : detail::wait_for::nothing);
}

/// n bytes of src to t, then the signal update of the word at offset sig of t.pe: the network delivers the signal only
/// after the data, and after every command issued to that PE before it (a weak and a strong signal alike). blocking:
/// returns once src may be reused.
template <class R>
PORTSHMEM_DEVICE_COLD void put_signal(portshmem_ctx_t c, target t, const void* src, std::size_t n, std::uint64_t sig,
                                      std::uint64_t value, signal_update op, bool blocking) {
  if (arch::space_of(src) != arch::space::global) { // inline pieces, then a fence, then the signal
    detail::put_pieces(c, t, src, n, PORTSHMEM_CALL_SIGNAL, kQualifierBits<R>);
    detail::post(c, portshmem::proxy::ordering_command(PORTSHMEM_PROXY_OP_FENCE, t.pe, PORTSHMEM_CALL_SIGNAL),
                 detail::wait_for::nothing);
    signal<R>(c, {t.pe, sig}, value, op, false);
    return;
  }
  detail::command cmd = portshmem::proxy::put_signal_command(
      t.pe, t.offset, src, n, sig, value, op == signal_add ? PORTSHMEM_PROXY_SIGNAL_ADD : PORTSHMEM_PROXY_SIGNAL_SET,
      blocking);
  cmd.qualifier = kQualifierBits<R>;
  detail::post(c, cmd, blocking ? detail::wait_for::completion : detail::wait_for::nothing);
}

/// A barrier arrival: adds 1 to pe's round-k counter (portshmem::detail::internal_area). The command's release
/// publishes what the barrier's caller wrote before it; the counter has one writer, so any transport may carry it.
PORTSHMEM_DEVICE_COLD void arrive(portshmem_ctx_t c, int pe, int k) {
  detail::command cmd = portshmem::proxy::signal_command(
      PORTSHMEM_PROXY_SIGNAL_ADD, pe,
      offsetof(portshmem::detail::internal_area, barrier_arrivals) + std::uint64_t(k) * sizeof(std::uint64_t), 1);
  cmd.call = PORTSHMEM_CALL_BARRIER;
  detail::post(c, cmd, detail::wait_for::nothing);
}

// ---- ordering -------------------------------------------------------------------------------------------------------

/// fence: the commands the block's ring carries after it are delivered at each PE after those before it. Not waited
/// for: the proxy orders them.
PORTSHMEM_DEVICE_COLD void fence(portshmem_ctx_t c) {
  detail::post(c, portshmem::proxy::ordering_command(PORTSHMEM_PROXY_OP_FENCE, -1, PORTSHMEM_CALL_FENCE),
               detail::wait_for::nothing);
}

/// quiet: returns once every command the block's ring carried before it is complete at its target (and a get's data,
/// a fetched value, in place).
PORTSHMEM_DEVICE_COLD void quiet(portshmem_ctx_t c) {
  detail::post(c, portshmem::proxy::ordering_command(PORTSHMEM_PROXY_OP_QUIET, -1, PORTSHMEM_CALL_QUIET),
               detail::wait_for::completion);
}

/// pe_quiet for one PE: the commands to pe the ring carried before it are complete there.
PORTSHMEM_DEVICE_COLD void pe_quiet(portshmem_ctx_t c, int pe) {
  detail::post(c, portshmem::proxy::ordering_command(PORTSHMEM_PROXY_OP_PE_QUIET, pe, PORTSHMEM_CALL_QUIET),
               detail::wait_for::completion);
}

} // namespace portshmem::transport::proxy
