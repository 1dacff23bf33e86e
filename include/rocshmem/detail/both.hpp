// rocSHMEM names with a host and a device body (rocSHMEM overloads them on __host__/__device__, which nvcc does not
// allow): one __host__ __device__ function each, choosing its body by where it runs. In device code they use this
// translation unit's ROCSHMEM_CTX_DEFAULT; on the host, portshmem's host API.
#pragma once

#include "rocshmem/detail/common.hpp"
#include "rocshmem/detail/host_ops.hpp"

namespace rocshmem {

// A GPU's device pass compiles the device body alone; its host pass and plain C++ the host body alone; the host
// platform compiles both and picks by whether the calling thread runs a kernel.
#if PORTSHMEM_GPU_DEVICE_PASS
#define ROCSHMEM_DETAIL_HOST_PASS 0
#else
#define ROCSHMEM_DETAIL_HOST_PASS 1
#endif

/// This PE's number. Before rocshmem_init (host): the rank the launcher (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK,
/// SLURM_PROCID, ...) or an initialized MPI gives, so a program can pick its GPU first; -1 with a warning when none
/// does (rocSHMEM's answer).
PORTSHMEM_HOST_DEVICE int rocshmem_my_pe() {
#if !ROCSHMEM_DETAIL_HOST_PASS
  return portshmem::my_pe(detail::default_ctx());
#else
#if PORTSHMEM_PLATFORM_HOST
  if (ROCSHMEM_DETAIL_ON_KERNEL_THREAD()) return portshmem::my_pe(detail::default_ctx());
#endif
  return portshmem_initialized() ? portshmem_my_pe() : detail::pre_init_my_pe();
#endif
}

/// The number of PEs; before rocshmem_init (host) as rocshmem_my_pe says (the launcher's size, else -1).
PORTSHMEM_HOST_DEVICE int rocshmem_n_pes() {
#if !ROCSHMEM_DETAIL_HOST_PASS
  return portshmem::n_pes(detail::default_ctx());
#else
#if PORTSHMEM_PLATFORM_HOST
  if (ROCSHMEM_DETAIL_ON_KERNEL_THREAD()) return portshmem::n_pes(detail::default_ctx());
#endif
  return portshmem_initialized() ? portshmem_n_pes() : detail::pre_init_n_pes();
#endif
}

/// *provided = ROCSHMEM_THREAD_MULTIPLE: any thread may call the API, host or device.
PORTSHMEM_HOST_DEVICE void rocshmem_query_thread(int* provided) {
  *provided = ROCSHMEM_THREAD_MULTIPLE;
}

/// A pointer for loads/stores to pe's copy of the symmetric dest, or nullptr (portshmem::ptr / portshmem_ptr).
PORTSHMEM_HOST_DEVICE void* rocshmem_ptr(const void* dest, int pe) {
#if !ROCSHMEM_DETAIL_HOST_PASS
  return portshmem::ptr(detail::default_ctx(), const_cast<void*>(dest), pe);
#else
#if PORTSHMEM_PLATFORM_HOST
  if (ROCSHMEM_DETAIL_ON_KERNEL_THREAD()) return portshmem::ptr(detail::default_ctx(), const_cast<void*>(dest), pe);
#endif
  return portshmem_ptr(dest, pe);
#endif
}

/// This PE's index in team, or -1 (not a member, or ROCSHMEM_TEAM_INVALID).
PORTSHMEM_HOST_DEVICE int rocshmem_team_my_pe(rocshmem_team_t team) {
#if !ROCSHMEM_DETAIL_HOST_PASS
  return team ? portshmem::team_my_pe(*team) : -1;
#else
#if PORTSHMEM_PLATFORM_HOST
  if (ROCSHMEM_DETAIL_ON_KERNEL_THREAD()) return team ? portshmem::team_my_pe(*team) : -1;
#endif
  return portshmem_team_my_pe(detail::team_slot(team));
#endif
}

/// The number of members of team, or -1 for ROCSHMEM_TEAM_INVALID.
PORTSHMEM_HOST_DEVICE int rocshmem_team_n_pes(rocshmem_team_t team) {
#if !ROCSHMEM_DETAIL_HOST_PASS
  return team ? portshmem::team_n_pes(*team) : -1;
#else
#if PORTSHMEM_PLATFORM_HOST
  if (ROCSHMEM_DETAIL_ON_KERNEL_THREAD()) return team ? portshmem::team_n_pes(*team) : -1;
#endif
  return portshmem_team_n_pes(detail::team_slot(team));
#endif
}

/// The index in dest_team of src_team's member src_pe, or -1.
PORTSHMEM_HOST_DEVICE int rocshmem_team_translate_pe(rocshmem_team_t src_team, int src_pe, rocshmem_team_t dest_team) {
#if !ROCSHMEM_DETAIL_HOST_PASS
  return src_team && dest_team ? portshmem::team_translate_pe(*src_team, src_pe, *dest_team) : -1;
#else
#if PORTSHMEM_PLATFORM_HOST
  if (ROCSHMEM_DETAIL_ON_KERNEL_THREAD()) {
    return src_team && dest_team ? portshmem::team_translate_pe(*src_team, src_pe, *dest_team) : -1;
  }
#endif
  return portshmem_team_translate_pe(detail::team_slot(src_team), src_pe, detail::team_slot(dest_team));
#endif
}

/// Quiet, then every PE has entered the barrier. Device: one thread per PE (portshmem::barrier_all); host: waits for
/// this PE's device work first (portshmem_barrier_all).
PORTSHMEM_HOST_DEVICE void rocshmem_barrier_all() {
#if !ROCSHMEM_DETAIL_HOST_PASS
  portshmem::barrier_all(detail::default_ctx());
#else
#if PORTSHMEM_PLATFORM_HOST
  if (ROCSHMEM_DETAIL_ON_KERNEL_THREAD()) return portshmem::barrier_all(detail::default_ctx());
#endif
  detail::host_barrier_all();
#endif
}

/// Every PE has entered the sync; completes nothing. Device: one thread per PE (portshmem::sync_all); host: waits for
/// this PE's device work first (portshmem_team_sync on the world).
PORTSHMEM_HOST_DEVICE void rocshmem_sync_all() {
#if !ROCSHMEM_DETAIL_HOST_PASS
  portshmem::sync_all(detail::default_ctx());
#else
#if PORTSHMEM_PLATFORM_HOST
  if (ROCSHMEM_DETAIL_ON_KERNEL_THREAD()) return portshmem::sync_all(detail::default_ctx());
#endif
  detail::host_sync_all();
#endif
}

/// Quiet, then every member of team has entered the barrier. Device: one thread per PE (portshmem::barrier); host:
/// waits for this PE's device work and completes what it issued, then every member. ROCSHMEM_TEAM_INVALID: no-op.
PORTSHMEM_HOST_DEVICE void rocshmem_barrier(rocshmem_team_t team) {
#if !ROCSHMEM_DETAIL_HOST_PASS
  if (team) portshmem::barrier(detail::default_ctx(), *team);
#else
#if PORTSHMEM_PLATFORM_HOST
  if (ROCSHMEM_DETAIL_ON_KERNEL_THREAD()) {
    if (team) portshmem::barrier(detail::default_ctx(), *team);
    return;
  }
#endif
  detail::host_team_barrier(team);
#endif
}

// fence and quiet: in device code portshmem::fence/quiet on the context; on the host they complete the operations
// the host issued (host RMA and AMOs, detail/host_ops.hpp): host operations run in order on the library's stream, and
// a host fence is a quiet.

/// Orders ctx's earlier puts, AMOs and signals to each PE before its later ones.
PORTSHMEM_HOST_DEVICE void rocshmem_ctx_fence(rocshmem_ctx_t ctx) {
#if !ROCSHMEM_DETAIL_HOST_PASS
  portshmem::fence(ctx);
#else
#if PORTSHMEM_PLATFORM_HOST
  if (ROCSHMEM_DETAIL_ON_KERNEL_THREAD()) return portshmem::fence(ctx);
#endif
  (void)ctx;
  detail::host::quiet();
#endif
}

/// rocshmem_ctx_fence on the default context.
PORTSHMEM_HOST_DEVICE void rocshmem_fence() {
#if !ROCSHMEM_DETAIL_HOST_PASS
  portshmem::fence(detail::default_ctx());
#else
#if PORTSHMEM_PLATFORM_HOST
  if (ROCSHMEM_DETAIL_ON_KERNEL_THREAD()) return portshmem::fence(detail::default_ctx());
#endif
  detail::host::quiet();
#endif
}

/// Completes ctx's earlier operations (remote writes visible, gets arrived).
PORTSHMEM_HOST_DEVICE void rocshmem_ctx_quiet(rocshmem_ctx_t ctx) {
#if !ROCSHMEM_DETAIL_HOST_PASS
  portshmem::quiet(ctx);
#else
#if PORTSHMEM_PLATFORM_HOST
  if (ROCSHMEM_DETAIL_ON_KERNEL_THREAD()) return portshmem::quiet(ctx);
#endif
  (void)ctx;
  detail::host::quiet();
#endif
}

/// rocshmem_ctx_quiet on the default context.
PORTSHMEM_HOST_DEVICE void rocshmem_quiet() {
#if !ROCSHMEM_DETAIL_HOST_PASS
  portshmem::quiet(detail::default_ctx());
#else
#if PORTSHMEM_PLATFORM_HOST
  if (ROCSHMEM_DETAIL_ON_KERNEL_THREAD()) return portshmem::quiet(detail::default_ctx());
#endif
  detail::host::quiet();
#endif
}

} // namespace rocshmem
