// rocSHMEM's host API (rocshmem/rocshmem.hpp), mapped onto portshmem's (portshmem.h, team.h); bodies in
// src/compat_rocshmem.cpp. Names that rocSHMEM has on both sides (my_pe, n_pes, ptr, fence, quiet, the team queries)
// are in detail/both.hpp.
#pragma once

#include "rocshmem/detail/common.hpp"

namespace rocshmem {

/// Collective: portshmem_init on MPI_COMM_WORLD (MPI_COMM_NULL too), else portshmem_init_comm(comm); then fills every
/// translation unit's ROCSHMEM_CTX_DEFAULT and sets ROCSHMEM_TEAM_WORLD. Aborts the job if init fails (rocSHMEM's
/// returns nothing either).
void rocshmem_init(MPI_Comm comm = MPI_COMM_WORLD);
/// rocshmem_init; *provided = ROCSHMEM_THREAD_MULTIPLE (every portshmem call may be made from any thread). Returns 0.
int rocshmem_init_thread(int requested, int* provided, MPI_Comm comm = MPI_COMM_WORLD);
/// *provided = ROCSHMEM_THREAD_MULTIPLE.
void rocshmem_query_thread(int* provided);
/// Collective: portshmem_finalize (after freeing the team handles).
void rocshmem_finalize();
/// Collective: portshmem_malloc (nullptr on failure).
void* rocshmem_malloc(std::size_t size);
/// Collective: portshmem_free.
void rocshmem_free(void* ptr);
/// Collective: portshmem_barrier_all (waits for this PE's device work, quiet, then every PE).
void rocshmem_barrier_all();
/// Collective: portshmem_team_sync on the world (waits for this PE's device work, then every PE; no quiet).
void rocshmem_sync_all();
/// Ends every PE of the job with status (MPI_Abort on MPI_COMM_WORLD).
[[noreturn]] void rocshmem_global_exit(int status);
/// rocSHMEM's version numbers are not portshmem's: this reports portshmem's (portshmem_info_get_version).
void rocshmem_info_get_version(int* major, int* minor);

/// Collective over parent: portshmem_team_split_strided. *new_team is ROCSHMEM_TEAM_INVALID on PEs outside the new
/// team and on failure. Returns 0 on success.
int rocshmem_team_split_strided(rocshmem_team_t parent, int start, int stride, int size,
                                const rocshmem_team_config_t* config, long config_mask, rocshmem_team_t* new_team);
/// Collective over team: portshmem_team_destroy; ROCSHMEM_TEAM_INVALID is a no-op.
void rocshmem_team_destroy(rocshmem_team_t team);

} // namespace rocshmem
