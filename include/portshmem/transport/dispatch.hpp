// Per-peer dispatch: which transport a device call takes to the PE it names. A PE whose heap is mapped in this process
// (ctx::peer_heaps, this PE's own included) is reached by loads and stores (transport/ipc.hpp); a PE without a mapping
// goes through the RDMA proxy (transport/proxy.hpp) when the job has one (ctx::proxy_rings). The bodies in detail/ ask
// here first, after their argument checks where a group must agree, and otherwise run the load/store code unchanged:
// with no ring table (a job whose peers are all mapped) every test below is false, and in a build without the RDMA
// transport (PORTSHMEM_ENABLE_RDMA=0) it is false at compile time.
//
// Atomicity decides one exception. A network's atomics are atomic with that network's atomics only (MPI accumulates
// with accumulates, NIC atomics with that NIC's), not with a CPU's or GPU's atomics on the same word. So in a job with
// proxied peers every atomic update — the AMOs and the signal updates — goes through the proxy whatever PE it names,
// this PE and mapped peers included (atomics_proxied); those to a mapped PE wait until performed there, so the caller's
// later loads and stores to that PE come after them (transport/proxy.hpp, "delivered").
#pragma once

#include "portshmem/ctx.h"
#include "portshmem/memory_model.hpp"
#include "portshmem/transport/ipc.hpp"
#include "portshmem/transport/proxy.hpp"

namespace portshmem::transport {

/// Whether pe (any int) is a PE of the job whose heap is mapped in this process.
PORTSHMEM_DEVICE bool mapped(const portshmem_ctx_t& c, int pe) {
  return pe >= 0 && pe < c.n_pes && ipc::mapped_heap(c, pe) != nullptr;
}

/// Whether a call naming pe goes through the proxy: the job has proxied peers and pe is a PE without a mapping. An
/// invalid pe is not proxied: the load/store path's checks record it.
PORTSHMEM_DEVICE bool proxied(const portshmem_ctx_t& c, int pe) {
  return proxy::active(c) && pe >= 0 && pe < c.n_pes && ipc::mapped_heap(c, pe) == nullptr;
}

/// Whether atomic updates (AMOs, signal updates) go through the proxy, whatever PE they name: in every job with
/// proxied peers (see the top of this file).
PORTSHMEM_DEVICE bool atomics_proxied(const portshmem_ctx_t& c) {
  return proxy::active(c);
}

/// A barrier arrival on pe's round-k counter, by whichever transport reaches pe (one writer per counter: the two
/// transports never update one counter).
template <class R>
PORTSHMEM_DEVICE void arrive(const portshmem_ctx_t& c, int pe, int k) {
  if (proxied(c, pe)) {
    proxy::arrive(c, pe, k);
  } else {
    ipc::arrive<R>(c, pe, k);
  }
}

} // namespace portshmem::transport
