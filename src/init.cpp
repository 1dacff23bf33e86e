// portshmem_init / portshmem_finalize: bootstrap over MPI, map the heaps, choose each peer's transport, build the
// transports and the device handle; finalize quiets, stops and releases them.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "config_agreement.hpp"
#include "gpu/device_state.hpp"
#include "gpu/lowering_choice.hpp"
#include "log.hpp"
#include "portshmem/detail/internal_area.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "portshmem/mpi.h"
#include "runtime.hpp"
#include "transport.hpp"

namespace portshmem::detail {
namespace {

/// A runtime left to the OS (below) stays referenced here, never freed: a leak checker at exit then sees memory the
/// process holds on purpose, not a lost allocation.
runtime* volatile g_left_to_os = nullptr; // volatile: a store nothing reads must still happen

/// The live runtime, torn down by portshmem_finalize only. A process that exits without it (exit() after a failed
/// check, as rocSHMEM's and many MPI testers do) leaves the runtime to the OS: its teardown is collective (the proxies'
/// final flush, the MPI window, MPI_Finalize) and would wait for PEs that are still running, so the job would hang
/// instead of ending as mpirun ends a job whose process exits without finalizing MPI.
struct runtime_slot {
  std::unique_ptr<runtime> live;
  ~runtime_slot() {
    if (!live) return;
    // stderr directly: the log's own statics may already be destroyed at this point of the process's exit.
    std::fprintf(stderr,
                 "portshmem[PE %d] WARN init.cpp: the process exits without portshmem_finalize; the runtime is left "
                 "to the OS (a teardown would wait for the other PEs), and the launcher ends the job\n",
                 live->boot->rank());
    g_left_to_os = live.release();
  }
};
runtime_slot g_runtime;
bool g_finalized = false; // portshmem_finalize has run: this process does not start portshmem again

/// finalize when a PE is missing: every remaining step is collective and would wait for it, so nothing is torn down
/// and portshmem stays initialized; the caller ends the job.
portshmem_status_t stop_before_teardown(portshmem_status_t status) {
  PORTSHMEM_LOG(error, "portshmem_finalize: a barrier failed (see above), so nothing collective is torn down and "
                       "portshmem stays initialized: end the job (MPI_Abort)");
  return status;
}

/// Decides how this PE reaches each PE (PORTSHMEM_TRANSPORT): itself through its own heap; a mapped peer by load/store
/// unless rdma is forced; any other peer through the RDMA proxy unless ipc is forced (then it is unreachable, an
/// error). Clears the peer_heaps entries of the PEs the proxy serves, so portshmem_ptr and device code see no mapping
/// there. *proxied: which PEs the proxy serves.
portshmem_status_t choose_transports(runtime& rt, std::vector<bool>* proxied) {
  const int me = rt.boot->rank(), n = rt.boot->size();
  rt.transports.assign(n, PORTSHMEM_TRANSPORT_NONE);
  proxied->assign(std::size_t(n), false);
  const transport_choice choice = rt.cfg.transport;
  if (choice == transport_choice::rdma && !rdma_transport_built()) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_UNREACHABLE,
                          "PORTSHMEM_TRANSPORT=rdma, but this build has no RDMA transport (PORTSHMEM_ENABLE_RDMA=OFF); "
                          "use auto or ipc, or rebuild with it ON");
  }
  for (int pe = 0; pe < n; ++pe) {
    if (pe == me) {
      rt.transports[pe] = PORTSHMEM_TRANSPORT_SELF;
    } else if (rt.peer_heaps[pe] && choice != transport_choice::rdma) {
      rt.transports[pe] = PORTSHMEM_TRANSPORT_IPC;
    } else if (choice != transport_choice::ipc && rdma_transport_built()) {
      rt.transports[pe] = PORTSHMEM_TRANSPORT_RDMA;
      rt.peer_heaps[pe] = nullptr;
      (*proxied)[std::size_t(pe)] = true;
    } else {
      const bool forced = choice == transport_choice::ipc;
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_UNREACHABLE,
                            "PE %d is on node %d and this PE on node %d: no transport reaches it (IPC needs the same "
                            "node; %s)",
                            pe, rt.boot->node_of()[pe], rt.boot->node_of()[me],
                            forced ? "PORTSHMEM_TRANSPORT=ipc excludes the RDMA transport: use auto"
                                   : "this build has no RDMA transport (PORTSHMEM_ENABLE_RDMA=OFF)");
    }
  }
  return PORTSHMEM_SUCCESS;
}

/// Builds the transports this PE's peers need (collective: the RDMA transport exists on every PE when any PE of the
/// job has a proxied peer), puts their tables into the device handle and starts them.
portshmem_status_t build_transports(runtime& rt, const std::vector<bool>& proxied, portshmem_status_t status) {
  bool mine = false;
  for (bool p : proxied) mine = mine || p;
  std::uint64_t lo = 0, any = 0;
  int lo_pe = 0, any_pe = 0;
  // Every PE takes part, also one whose earlier steps failed (it asks for nothing): the network's setup is collective.
  if (auto s = rt.boot->min_max(mine && status == PORTSHMEM_SUCCESS, &lo, &lo_pe, &any, &any_pe);
      s != PORTSHMEM_SUCCESS)
    return s;
  rt.links.push_back(make_ipc_transport(rt));
  if (any) {
    std::unique_ptr<transport> rdma;
    const portshmem_status_t made = make_rdma_transport(rt, proxied, &rdma);
    if (rdma) rt.links.push_back(std::move(rdma));
    if (status == PORTSHMEM_SUCCESS) status = made;
  }
  for (auto& link : rt.links) {
    if (status == PORTSHMEM_SUCCESS) status = link->fill_handle(rt.ctx);
  }
  return status;
}

void print_info(const runtime& rt) {
  std::string text = describe_config(rt.cfg);
  text += "heap backend: " + std::string(rt.heap->name()) + ", GPU " + std::to_string(rt.heap->device()) + "\n";
  text += std::string("lowering: ") + (rt.ctx.strict ? "strict" : "relaxed") + "\n";
  text += rt.ctx.peer_stride != 0 ? "peer heaps: one symmetric range, PEs " + std::to_string(rt.ctx.mapped_first) +
                                        "-" + std::to_string(rt.ctx.mapped_first + rt.ctx.mapped_count - 1) + ", " +
                                        std::to_string(rt.ctx.peer_stride) + " bytes apart\n"
                                  : std::string("peer heaps: a table (PORTSHMEM_SYMMETRIC_RANGE)\n");
  for (int pe = 0; pe < rt.boot->size(); ++pe) {
    text += "  PE " + std::to_string(pe) + " (node " + std::to_string(rt.boot->node_of()[pe]) +
            "): " + portshmem_transport_string(rt.transports[pe]) + "\n";
  }
  // Asked for by name (PORTSHMEM_INFO): printed at INFO whatever PORTSHMEM_DEBUG says, never dressed up as an error.
  log_print(log_level::info, __FILE__, __LINE__, "portshmem %s, %d PEs\n%s", PORTSHMEM_VERSION_STRING, rt.boot->size(),
            text.c_str());
}

/// Which bootstrap a start uses: MPI over comm (MPI_COMM_WORLD when null; initialized here when init_mpi), or TCP from
/// a unique ID when uid is set.
struct start_how {
  const void* comm = nullptr;
  bool init_mpi = false;
  const portshmem_init_attr_t* uid = nullptr;
};

/// Why this process cannot start portshmem now (checked before any MPI call, which could abort the job), or success.
portshmem_status_t check_startable(const start_how& how, const char* call) {
  if (g_finalized) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_NOT_INITIALIZED,
                          "%s after portshmem_finalize: portshmem starts once per process (its MPI may be finalized "
                          "already); initialize once at the start and finalize once at the end",
                          call);
  }
  if (how.uid) return PORTSHMEM_SUCCESS; // no MPI involved; the TCP bootstrap checks rank and nranks
  const void* comm = how.comm;
  int mpi_finalized = 0;
  MPI_Finalized(&mpi_finalized);
  if (mpi_finalized) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_BOOTSTRAP,
                          "%s after MPI_Finalize: portshmem needs MPI until portshmem_finalize; finalize MPI last",
                          call);
  }
  if (comm && *static_cast<const MPI_Comm*>(comm) == MPI_COMM_NULL) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                          "portshmem_init_comm(MPI_COMM_NULL): this process is in no communicator (as after "
                          "MPI_Comm_split with MPI_UNDEFINED), so it is no PE; call it only where comm is valid");
  }
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t start(const start_how& how, const char* call) {
  if (g_runtime.live) return PORTSHMEM_SUCCESS; // OpenSHMEM allows repeated init; the first one counts
  if (auto s = check_startable(how, call); s != PORTSHMEM_SUCCESS) return s;
  auto rt = std::make_unique<runtime>();
  rt->cfg = default_config(); // kept when this PE's environment does not parse (load_config leaves it)
  std::string env_error;
  const portshmem_status_t parsed = load_config(process_env(), &rt->cfg, &env_error);
  if (parsed == PORTSHMEM_SUCCESS) log_set_level(rt->cfg.debug);
  // A bad value is not returned here: the other PEs would wait forever in the bootstrap for this one.
  // The unique-ID start connects within PORTSHMEM_TIMEOUT (this PE's value: the job's is agreed on only afterwards).
  const portshmem_status_t booted =
      how.uid ? make_tcp_bootstrap(how.uid->uid, how.uid->rank, how.uid->nranks, rt->cfg.timeout_ns, &rt->boot)
              : make_mpi_bootstrap(how.comm, how.init_mpi, &rt->boot);
  if (booted != PORTSHMEM_SUCCESS) return booted;
  log_set_pe(rt->boot->rank());
  for (const std::string& name : unknown_env_names(environ)) {
    PORTSHMEM_LOG(warn, "%s is not a portshmem variable (misspelled? docs/env.md lists them); ignored", name.c_str());
  }
  // Before anything depends on the configuration: every PE parsed its environment, job-wide values agree.
  if (auto s = agree_config(*rt->boot, parsed, env_error, rt->cfg); s != PORTSHMEM_SUCCESS) {
    log_set_pe(-1);
    return s;
  }
  // The same verdict on every PE, since the heap size now agrees.
  const std::size_t team_bytes = team_area_bytes(rt->boot->size(), rt->cfg.max_teams, rt->cfg.team_scratch);
  if (rt->cfg.heap_size <= kInternalHeapBytes + team_bytes) {
    log_set_pe(-1);
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_ENV,
                          "PORTSHMEM_HEAP_SIZE=%zu leaves no room after the %zu bytes portshmem reserves for itself "
                          "(%zu at the start, %zu for PORTSHMEM_MAX_TEAMS=%d teams of PORTSHMEM_TEAM_SCRATCH=%zu "
                          "scratch at the end)",
                          rt->cfg.heap_size, kInternalHeapBytes + team_bytes, kInternalHeapBytes, team_bytes,
                          rt->cfg.max_teams, rt->cfg.team_scratch);
  }
  // PORTSHMEM_NODE_GROUPS (agreed above): the emulated nodes decide what is mapped, node scope and the placement.
  rt->boot->split_nodes(rt->cfg.node_groups);
  if (auto s = make_heap_backend(*rt->boot, rt->cfg, &rt->heap, &rt->peer_heaps); s != PORTSHMEM_SUCCESS) return s;
  portshmem_status_t status = PORTSHMEM_SUCCESS;
  if (reinterpret_cast<std::uintptr_t>(rt->heap->local()) % kHeapBaseAlignment != 0) {
    status = PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "the %s heap at %p is not aligned to %zu bytes (a portshmem bug)",
                            rt->heap->name(), static_cast<void*>(rt->heap->local()), kHeapBaseAlignment);
  }
  std::vector<bool> proxied;
  if (status == PORTSHMEM_SUCCESS) status = choose_transports(*rt, &proxied);
  if (status == PORTSHMEM_SUCCESS) status = build_device_handle(*rt);
  status = build_transports(*rt, proxied, status);
  if (auto s = agree_status(*rt->boot, status); s != PORTSHMEM_SUCCESS) {
    rt->links.clear(); // collective where a transport's setup was
    release_device_handle(*rt);
    return s;
  }
  // After the agreement, so every PE reaches this collective: the handle's strict flag (PORTSHMEM_RELAXED).
  if (auto s = choose_lowering(*rt); s != PORTSHMEM_SUCCESS) {
    rt->links.clear();
    release_device_handle(*rt);
    return s;
  }
  for (auto& link : rt->links) {
    if (status == PORTSHMEM_SUCCESS) status = link->start();
  }
  if (auto s = agree_status(*rt->boot, status); s != PORTSHMEM_SUCCESS) {
    rt->links.clear();
    release_device_handle(*rt);
    return s;
  }
  if (auto s = agree_status(*rt->boot, create_initial_teams(*rt)); s != PORTSHMEM_SUCCESS) {
    release_teams(*rt);
    rt->links.clear();
    release_device_handle(*rt);
    return s;
  }
  // Offsets count from the heap base; the team area (src/team.cpp) is the heap's end.
  rt->allocator = heap_allocator(kInternalHeapBytes, rt->teams.area_offset);
  // No allocation yet: device code built with PORTSHMEM_DEBUG_CHECKS=1 refuses every heap address until the first.
  if (auto s = agree_status(*rt->boot, publish_allocations(*rt)); s != PORTSHMEM_SUCCESS) {
    release_teams(*rt);
    rt->links.clear();
    release_device_handle(*rt);
    return s;
  }
  if (rt->cfg.info && rt->boot->rank() == 0) print_info(*rt);
  PORTSHMEM_LOG(info, "initialized: %d PEs, %zu-byte heaps (%s)", rt->boot->size(), rt->cfg.heap_size,
                rt->heap->name());
  g_runtime.live = std::move(rt);
  return PORTSHMEM_SUCCESS;
}

} // namespace

runtime* current() {
  return g_runtime.live.get();
}

} // namespace portshmem::detail

using namespace portshmem::detail;

extern "C" {

portshmem_status_t portshmem_init(void) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  return start({nullptr, !initialized, nullptr}, "portshmem_init");
}

portshmem_status_t portshmem_init_comm(MPI_Comm comm) {
  return start({&comm, false, nullptr}, "portshmem_init_comm");
}

portshmem_status_t portshmem_get_uniqueid(portshmem_uniqueid_t* uid) {
  if (!uid) return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "portshmem_get_uniqueid: uid is NULL");
  return make_unique_id(uid);
}

portshmem_status_t portshmem_set_attr_uniqueid_args(int rank, int nranks, const portshmem_uniqueid_t* uid,
                                                    portshmem_init_attr_t* attr) {
  if (!uid || !attr) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "portshmem_set_attr_uniqueid_args: %s is NULL",
                          !uid ? "uid" : "attr");
  }
  if (nranks < 1 || rank < 0 || rank >= nranks) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                          "portshmem_set_attr_uniqueid_args: rank %d of %d ranks (0 <= rank < nranks, nranks >= 1)",
                          rank, nranks);
  }
  attr->rank = rank;
  attr->nranks = nranks;
  attr->uid = *uid;
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t portshmem_init_attr(unsigned flags, portshmem_init_attr_t* attr) {
  constexpr const char* call = "portshmem_init_attr";
  if (!attr) return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: attr is NULL", call);
  if (flags == PORTSHMEM_INIT_WITH_UNIQUEID) return start({nullptr, false, attr}, call);
  if (flags == PORTSHMEM_INIT_WITH_MPI_COMM) {
    if (!attr->mpi_comm) return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: attr->mpi_comm is NULL", call);
    return start({attr->mpi_comm, false, nullptr}, call);
  }
  return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                        "%s: flags 0x%x name no start: pass PORTSHMEM_INIT_WITH_UNIQUEID or "
                        "PORTSHMEM_INIT_WITH_MPI_COMM",
                        call, flags);
}

portshmem_status_t portshmem_finalize(void) {
  runtime* rt = current();
  if (!rt) return PORTSHMEM_SUCCESS;
  // Every PE must be done with every heap before any unmaps its own; the barrier also quiets the transports. A PE whose
  // kernel was stopped (a wait timed out) or whose GPU failed does not enter it, and nothing collective can follow.
  const bool device_failed = hipDeviceSynchronize() != hipSuccess || device_wait_timed_out(*rt);
  portshmem_status_t status = portshmem_barrier_all();
  if (device_failed) return stop_before_teardown(status);
  for (auto& link : rt->links) { // the proxies stop (their final flush), then no PE's network is used any more
    if (auto s = link->stop(); status == PORTSHMEM_SUCCESS) status = s;
  }
  // Bounded like barrier_all: after a barrier_all that timed out, a late PE's finalize pairs its barrier_all with
  // that one and this barrier with this one; a PE that never comes leaves this PE here, not in MPI_Win_free or
  // MPI_Finalize, which would wait for it forever.
  std::vector<int> late;
  const portshmem_status_t agreed =
      rt->cfg.timeout_ns ? rt->boot->bounded_barrier(rt->cfg.timeout_ns, &late) : rt->boot->barrier();
  if (agreed != PORTSHMEM_SUCCESS) {
    return stop_before_teardown(
        PORTSHMEM_FAIL(agreed, "portshmem_finalize: %s did not arrive at its last barrier within PORTSHMEM_TIMEOUT",
                       late.empty() ? "a PE" : describe_pes(late).c_str()));
  }
  rt->links.clear(); // collective (the MPI network's window), before the heaps and MPI go
  release_teams(*rt);
  release_device_handle(*rt);
  rt->heap.reset();
  rt->boot.reset(); // finalizes MPI if init started it
  g_runtime.live.reset();
  g_finalized = true;
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
