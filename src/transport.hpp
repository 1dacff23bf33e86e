// The host side of a transport: how this PE reaches some of the other PEs' heaps. init picks one transport per PE
// (PORTSHMEM_TRANSPORT: the load/store transport where a heap is mapped, the RDMA proxy otherwise), builds each
// transport over the PEs it serves, lets each put its tables into the device handle, and starts them; the host's
// barrier quiets them, finalize stops and releases them. Device code dispatches per PE on what they put into the
// handle (include/portshmem/transport/dispatch.hpp).
#pragma once

#include <memory>
#include <vector>

#include "portshmem/portshmem.h"

namespace portshmem::detail {

struct runtime;

class transport {
 public:
  virtual ~transport() = default;
  /// PORTSHMEM_TRANSPORT_IPC or PORTSHMEM_TRANSPORT_RDMA: what portshmem_transport(pe) reports for its PEs.
  virtual portshmem_transport_t kind() const = 0;
  /// Whether this transport serves pe.
  virtual bool reaches(int pe) const = 0;
  /// Puts what device code needs into the handle (a table in device memory; nothing for a transport without PEs).
  virtual portshmem_status_t fill_handle(portshmem_ctx_t& ctx) = 0;
  /// Starts serving device code (a progress thread); every PE's handle is built by then.
  virtual portshmem_status_t start() { return PORTSHMEM_SUCCESS; }
  /// Host-side quiet: everything device code posted to this transport so far is complete at its target. Called with
  /// no kernel running (after a device synchronization), by portshmem_barrier_all.
  virtual portshmem_status_t quiet() { return PORTSHMEM_SUCCESS; }
  /// Stops serving (finalize, after the last barrier). Returns the first failure the transport saw, or success.
  virtual portshmem_status_t stop() { return PORTSHMEM_SUCCESS; }
};

/// The load/store transport over the heaps the backend mapped: serves the PEs whose entry in rt.peer_heaps is set
/// (init has cleared the entries of PEs another transport serves), and gives device code that table.
std::unique_ptr<transport> make_ipc_transport(runtime& rt);

/// The RDMA transport: a network over every PE's heap (PORTSHMEM_RDMA_NET) and the proxy that executes device-posted
/// commands over it, serving the PEs in `served`. Collective: every PE calls it when any PE of the job needs it (the
/// network's setup is collective), and every PE gets a transport or every PE an error.
portshmem_status_t make_rdma_transport(runtime& rt, const std::vector<bool>& served, std::unique_ptr<transport>* out);

/// Whether this build has the RDMA transport (CMake PORTSHMEM_ENABLE_RDMA).
bool rdma_transport_built();

} // namespace portshmem::detail
