// portshmem_init / portshmem_finalize: bootstrap over MPI, map the heaps, choose each peer's transport, and build
// the device handle.
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "log.hpp"
#include "portshmem/detail/internal_area.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "portshmem/mpi.h"
#include "runtime.hpp"

namespace portshmem::detail {
namespace {

std::unique_ptr<runtime> g_runtime;

/// Decides how this PE reaches each PE; every PE must be reachable (the RDMA transport is a later addition).
portshmem_status_t choose_transports(runtime& rt) {
  const int me = rt.boot->rank(), n = rt.boot->size();
  rt.transports.assign(n, PORTSHMEM_TRANSPORT_NONE);
  if (rt.cfg.transport == transport_choice::rdma) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_UNREACHABLE,
                          "PORTSHMEM_TRANSPORT=rdma, but this build has no RDMA transport; use auto or ipc");
  }
  for (int pe = 0; pe < n; ++pe) {
    if (pe == me) {
      rt.transports[pe] = PORTSHMEM_TRANSPORT_SELF;
    } else if (rt.peer_heaps[pe]) {
      rt.transports[pe] = PORTSHMEM_TRANSPORT_IPC;
    } else {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_UNREACHABLE,
                            "PE %d is on node %d and this PE on node %d: no transport reaches it (IPC needs the same "
                            "node; this build has no RDMA transport)",
                            pe, rt.boot->node_of()[pe], rt.boot->node_of()[me]);
    }
  }
  return PORTSHMEM_SUCCESS;
}

/// Copies the peer table to device memory and allocates the host-visible error record.
portshmem_status_t build_device_handle(runtime& rt) {
  const std::size_t table_bytes = rt.peer_heaps.size() * sizeof(char*);
  char** table = nullptr;
  if (hipMalloc(&table, table_bytes) != hipSuccess ||
      hipMemcpy(table, rt.peer_heaps.data(), table_bytes, hipMemcpyHostToDevice) != hipSuccess) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "could not place the %zu-byte peer table in device memory", table_bytes);
  }
  rt.device_peer_heaps = table;
  // Where each PE runs, for the debug checks of device- and node-scoped calls.
  const std::int32_t here = std::int32_t(rt.boot->node_of()[rt.boot->rank()]) * 65536 + std::max(0, rt.heap->device());
  std::vector<std::int32_t> places(rt.boot->size());
  if (auto s = rt.boot->allgather(&here, places.data(), sizeof here); s != PORTSHMEM_SUCCESS) return s;
  std::int32_t* place_table = nullptr;
  if (hipMalloc(&place_table, places.size() * sizeof here) != hipSuccess ||
      hipMemcpy(place_table, places.data(), places.size() * sizeof here, hipMemcpyHostToDevice) != hipSuccess) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "could not place the PE placement table in device memory");
  }
  rt.device_pe_device = place_table;
  portshmem_device_error_t* record = nullptr;
  if (hipHostMalloc(&record, sizeof *record, 0) != hipSuccess) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "could not allocate the host-visible device error record");
  }
  std::memset(record, 0, sizeof *record);
  rt.device_error = record;
  rt.ctx.my_pe = rt.boot->rank();
  rt.ctx.n_pes = rt.boot->size();
  rt.ctx.heap = rt.heap->local();
  rt.ctx.heap_size = rt.cfg.heap_size;
  rt.ctx.peer_heaps = rt.device_peer_heaps;
  rt.ctx.error = rt.device_error;
  rt.ctx.pe_device = rt.device_pe_device;
  rt.ctx.timeout_ns = rt.cfg.timeout_ns;
  return PORTSHMEM_SUCCESS;
}

void release_device_handle(runtime& rt) {
  if (rt.device_peer_heaps) hipFree(const_cast<char**>(rt.device_peer_heaps));
  if (rt.device_error) hipHostFree(rt.device_error);
  if (rt.device_pe_device) hipFree(const_cast<std::int32_t*>(rt.device_pe_device));
  rt.device_pe_device = nullptr;
  rt.device_peer_heaps = nullptr;
  rt.device_error = nullptr;
}

void print_info(const runtime& rt) {
  std::string text = describe_config(rt.cfg);
  text += "heap backend: " + std::string(rt.heap->name()) + ", GPU " + std::to_string(rt.heap->device()) + "\n";
  for (int pe = 0; pe < rt.boot->size(); ++pe) {
    text += "  PE " + std::to_string(pe) + " (node " + std::to_string(rt.boot->node_of()[pe]) +
            "): " + portshmem_transport_string(rt.transports[pe]) + "\n";
  }
  PORTSHMEM_LOG(error, "portshmem %s, %d PEs\n%s", PORTSHMEM_VERSION_STRING, rt.boot->size(), text.c_str());
}

portshmem_status_t start(const void* comm, bool init_mpi) {
  if (g_runtime) return PORTSHMEM_SUCCESS; // OpenSHMEM allows repeated init; the first one counts
  auto rt = std::make_unique<runtime>();
  std::string env_error;
  if (load_config(process_env(), &rt->cfg, &env_error) != PORTSHMEM_SUCCESS) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_ENV, "%s", env_error.c_str());
  }
  log_set_level(rt->cfg.debug);
  for (const std::string& name : unknown_env_names(environ)) {
    PORTSHMEM_LOG(warn, "%s is not a portshmem variable (misspelled? docs/env.md lists them); ignored", name.c_str());
  }
  if (rt->cfg.heap_size <= kInternalHeapBytes) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_ENV,
                          "PORTSHMEM_HEAP_SIZE=%zu leaves no room after the %zu bytes portshmem "
                          "reserves for itself",
                          rt->cfg.heap_size, kInternalHeapBytes);
  }
  if (auto s = make_mpi_bootstrap(comm, init_mpi, &rt->boot); s != PORTSHMEM_SUCCESS) return s;
  log_set_pe(rt->boot->rank());
  if (auto s = make_heap_backend(*rt->boot, rt->cfg, &rt->heap, &rt->peer_heaps); s != PORTSHMEM_SUCCESS) return s;
  portshmem_status_t status = choose_transports(*rt);
  if (status == PORTSHMEM_SUCCESS) status = build_device_handle(*rt);
  if (auto s = agree_status(*rt->boot, status); s != PORTSHMEM_SUCCESS) {
    release_device_handle(*rt);
    return s;
  }
  rt->allocator = heap_allocator(rt->cfg.heap_size - kInternalHeapBytes);
  if (rt->cfg.info && rt->boot->rank() == 0) print_info(*rt);
  PORTSHMEM_LOG(info, "initialized: %d PEs, %zu-byte heaps (%s)", rt->boot->size(), rt->cfg.heap_size,
                rt->heap->name());
  g_runtime = std::move(rt);
  return PORTSHMEM_SUCCESS;
}

} // namespace

runtime* current() {
  return g_runtime.get();
}

} // namespace portshmem::detail

using namespace portshmem::detail;

extern "C" {

portshmem_status_t portshmem_init(void) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  return start(nullptr, !initialized);
}

portshmem_status_t portshmem_init_comm(MPI_Comm comm) {
  return start(&comm, false);
}

portshmem_status_t portshmem_finalize(void) {
  runtime* rt = current();
  if (!rt) return PORTSHMEM_SUCCESS;
  // Every PE must be done with every heap before any unmaps its own.
  portshmem_status_t status = portshmem_barrier_all();
  release_device_handle(*rt);
  rt->heap.reset();
  rt->boot.reset(); // finalizes MPI if init started it
  g_runtime.reset();
  log_set_pe(-1);
  return status;
}

int portshmem_initialized(void) {
  return current() != nullptr;
}
int portshmem_my_pe(void) {
  return current() ? current()->boot->rank() : -1;
}
int portshmem_n_pes(void) {
  return current() ? current()->boot->size() : -1;
}

} // extern "C"
