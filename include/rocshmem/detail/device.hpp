// rocSHMEM's device-only basics: workgroup init/finalize, contexts, fences and quiets with a PE, the PE queries on a
// context, and the barriers. Calls without a context use this translation unit's ROCSHMEM_CTX_DEFAULT.
#pragma once

#include "rocshmem/detail/common.hpp"

namespace rocshmem {

/// A workgroup collective in rocSHMEM that sets up per-workgroup state; portshmem keeps none, so it does nothing.
PORTSHMEM_DEVICE void rocshmem_wg_init() {}

/// Pairs with rocshmem_wg_init; nothing to release.
PORTSHMEM_DEVICE void rocshmem_wg_finalize() {}

/// rocshmem_wg_init; *provided = ROCSHMEM_THREAD_MULTIPLE (any thread may call the device API).
PORTSHMEM_DEVICE void rocshmem_wg_init_thread(int /*requested*/, int* provided) {
  *provided = ROCSHMEM_THREAD_MULTIPLE;
}

/// Workgroup collective: *ctx = the default context (portshmem's contexts are its device handle; every one orders and
/// completes like the default). Thread 0 writes it and the block synchronizes, so ctx may be __shared__. Returns 0.
PORTSHMEM_DEVICE int rocshmem_wg_ctx_create(int64_t /*options*/, rocshmem_ctx_t* ctx) {
  if (portshmem::thread_rank() == 0) *ctx = ROCSHMEM_CTX_DEFAULT;
  portshmem::block_group::sync();
  return 0;
}

/// Workgroup collective: completes what the calling thread issued through *ctx (quiet) and synchronizes the block.
PORTSHMEM_DEVICE void rocshmem_wg_ctx_destroy(rocshmem_ctx_t* ctx) {
  portshmem::quiet(*ctx);
  portshmem::block_group::sync();
}

/// rocshmem_ctx_fence (portshmem's fence orders per destination for all PEs at once).
PORTSHMEM_DEVICE void rocshmem_ctx_fence(rocshmem_ctx_t ctx, int /*pe*/) {
  portshmem::fence(ctx);
}
PORTSHMEM_DEVICE void rocshmem_fence(int /*pe*/) {
  portshmem::fence(detail::default_ctx());
}

/// This PE's number and the number of PEs, from ctx.
PORTSHMEM_DEVICE int rocshmem_ctx_my_pe(rocshmem_ctx_t ctx) {
  return portshmem::my_pe(ctx);
}
PORTSHMEM_DEVICE int rocshmem_ctx_n_pes(rocshmem_ctx_t ctx) {
  return portshmem::n_pes(ctx);
}

/// Workgroup collective: quiet, then every PE's workgroup has arrived (portshmem::barrier_all_block).
PORTSHMEM_DEVICE void rocshmem_ctx_wg_barrier_all(rocshmem_ctx_t ctx) {
  portshmem::barrier_all_block(ctx);
}
PORTSHMEM_DEVICE void rocshmem_wg_barrier_all() {
  portshmem::barrier_all_block(detail::default_ctx());
}

/// Workgroup collective: every PE's workgroup has arrived; completes nothing (portshmem::sync_all_block).
PORTSHMEM_DEVICE void rocshmem_ctx_wg_sync_all(rocshmem_ctx_t ctx) {
  portshmem::sync_all_block(ctx);
}
PORTSHMEM_DEVICE void rocshmem_wg_sync_all() {
  portshmem::sync_all_block(detail::default_ctx());
}

/// Workgroup collective over team: every member's workgroup has arrived (portshmem::team_sync_block).
PORTSHMEM_DEVICE void rocshmem_ctx_wg_team_sync(rocshmem_ctx_t ctx, rocshmem_team_t team) {
  portshmem::team_sync_block(ctx, *team);
}
PORTSHMEM_DEVICE void rocshmem_wg_team_sync(rocshmem_team_t team) {
  portshmem::team_sync_block(detail::default_ctx(), *team);
}

/// One thread: quiet, then every member of team has entered the barrier (portshmem::barrier).
PORTSHMEM_DEVICE void rocshmem_barrier(rocshmem_team_t team) {
  portshmem::barrier(detail::default_ctx(), *team);
}

} // namespace rocshmem
