// rocSHMEM's host API (rocshmem/rocshmem.hpp), mapped onto portshmem's (portshmem.h, team.h); bodies in
// src/compat_rocshmem.cpp. Names that rocSHMEM has on both sides (my_pe, n_pes, ptr, fence, quiet, the team queries)
// are in detail/both.hpp.
#pragma once

#include <array>
#include <cstdint>

#include "portshmem/gpu_runtime.hpp" // hipModule_t, hipStream_t
#include "portshmem/portshmem.h"     // PORTSHMEM_UNIQUE_ID_BYTES
#include "rocshmem/detail/common.hpp"

namespace rocshmem {

/// Collective: portshmem_init on MPI_COMM_WORLD (MPI_COMM_NULL too), else portshmem_init_comm(comm); then fills every
/// translation unit's ROCSHMEM_CTX_DEFAULT and sets ROCSHMEM_TEAM_WORLD. Aborts the job if init fails (rocSHMEM's
/// returns nothing either).
void rocshmem_init(MPI_Comm comm = MPI_COMM_WORLD);
/// rocSHMEM's unique-ID start (portshmem_get_uniqueid and portshmem_init_attr, portshmem.h): TCP between the
/// processes, no MPI needed. The ID's bytes are portshmem's.
#define ROCSHMEM_UNIQUE_ID_BYTES PORTSHMEM_UNIQUE_ID_BYTES
using rocshmem_uniqueid_t = std::array<uint8_t, ROCSHMEM_UNIQUE_ID_BYTES>;
struct rocshmem_init_attr_t {
  int32_t rank;
  int32_t nranks;
  rocshmem_uniqueid_t uid;
  void* mpi_comm; // an MPI_Comm*, for ROCSHMEM_INIT_WITH_MPI_COMM
};
/// rocshmem_init_attr's flags (one of them).
enum rocshmem_init_attr_flags : unsigned int {
  ROCSHMEM_INIT_WITH_MPI_COMM = 1u << 0,
  ROCSHMEM_INIT_WITH_UNIQUEID = 1u << 1
};
/// Makes the job's ID (this process must then start as rank 0). ROCSHMEM_SUCCESS, or ROCSHMEM_ERROR (logged).
int rocshmem_get_uniqueid(rocshmem_uniqueid_t* uid);
/// Fills attr's rank, nranks and uid. ROCSHMEM_ERROR for a null pointer or a rank outside [0, nranks).
int rocshmem_set_attr_uniqueid_args(int rank, int nranks, rocshmem_uniqueid_t* uid, rocshmem_init_attr_t* attr);
/// Collective: starts portshmem from attr as flags says (portshmem_init_attr), then does what rocshmem_init does
/// after it. Returns ROCSHMEM_SUCCESS, or ROCSHMEM_ERROR when the start failed (logged; nothing is left started).
int rocshmem_init_attr(unsigned int flags, rocshmem_init_attr_t* attr);
/// rocshmem_init; *provided = ROCSHMEM_THREAD_MULTIPLE (every portshmem call may be made from any thread). Returns 0.
int rocshmem_init_thread(int requested, int* provided, MPI_Comm comm = MPI_COMM_WORLD);
/// Collective: portshmem_finalize (after freeing the team handles).
void rocshmem_finalize();
/// Collective: portshmem_malloc (nullptr on failure).
void* rocshmem_malloc(std::size_t size);
/// Collective: portshmem_free.
void rocshmem_free(void* ptr);
/// Collective: portshmem_calloc (count * size bytes, zeroed on every PE; nullptr when either is 0, on overflow, or
/// when the heap is full).
void* rocshmem_calloc(std::size_t count, std::size_t size);
/// Collective: portshmem_align (alignment: a power of two, at least sizeof(void*); nullptr otherwise or when the heap
/// is full).
void* rocshmem_align(std::size_t alignment, std::size_t size);
/// Collective over team: portshmem_team_sync (waits for this PE's device work, then every member; no quiet).
/// ROCSHMEM_TEAM_INVALID: no-op.
void rocshmem_team_sync(rocshmem_team_t team);
/// *ctx = the default context (portshmem's contexts are its device handle; every one orders and completes like the
/// default; options are accepted and ignored). Returns 0, or 1 before rocshmem_init.
int rocshmem_ctx_create(int64_t options, rocshmem_ctx_t* ctx);
/// Nothing to release (a context is a value); kernels may keep using it.
void rocshmem_ctx_destroy(rocshmem_ctx_t ctx);
/// A pointer to device memory holding the default context (sizeof(rocshmem_ctx_t) bytes, valid from rocshmem_init to
/// rocshmem_finalize), for code that fills another module's ROCSHMEM_CTX_DEFAULT from it. nullptr before init.
void* rocshmem_get_device_ctx();
/// Fills the copies of ROCSHMEM_CTX_DEFAULT, and of the device ROCSHMEM_TEAM_WORLD and _SHARED, in a code object
/// loaded with hipModuleLoad (its static initializers never run, so its copies were never registered), by
/// hipModuleGetGlobal and copies enqueued on stream, which the call does not wait for (nullptr: the null stream).
/// amd only: there the copies are module globals under their mangled names. nvcc names static device variables per
/// translation unit (_ZN33_INTERNAL_<hash>_...), which a module cannot be asked for, and the host platform loads no
/// code objects: there, and before rocshmem_init or with a null module, it returns 1. Returns 0 when the module's
/// ROCSHMEM_CTX_DEFAULT was found and its copies enqueued (a team copy the module lacks is skipped).
int rocshmem_hipmodule_init(hipModule_t module, hipStream_t stream = nullptr);
/// Registers [addr, addr + length) as a local buffer of communication calls (never a remote one). Every portshmem call
/// already takes as local buffer any memory its GPU reaches (RDMA transfers of memory outside the heap go through
/// registered bounce buffers), so this records the range only: returns ROCSHMEM_SUCCESS, or ROCSHMEM_ERROR before
/// rocshmem_init, for a null addr or zero length, or for a range that overlaps one registered before.
int rocshmem_buffer_register(void* addr, std::size_t length);
/// Forgets the range registered at addr: ROCSHMEM_SUCCESS, or ROCSHMEM_ERROR when none was.
int rocshmem_buffer_unregister(void* addr);
/// Forgets every registered range.
void rocshmem_buffer_unregister_all();
/// rocSHMEM prints its per-operation statistics here; portshmem counts none, so PE 0 prints one line saying so.
void rocshmem_dump_stats();
/// Nothing to reset (portshmem keeps no per-operation statistics).
void rocshmem_reset_stats();
/// Writes "portshmem <version>" (at most ROCSHMEM_MAX_NAME_LEN bytes with its terminating zero) to name.
void rocshmem_info_get_name(char* name);
/// portshmem's version (major, minor, patch): rocSHMEM's vendor version query.
void rocshmem_vendor_get_version_info(int* major, int* minor, int* patch);
/// Ends every PE of the job with status (MPI_Abort on MPI_COMM_WORLD).
[[noreturn]] void rocshmem_global_exit(int status);
/// rocSHMEM's version numbers are not portshmem's: this reports portshmem's (portshmem_info_get_version).
void rocshmem_info_get_version(int* major, int* minor);

/// Collective over parent: portshmem_team_split_strided. *new_team is ROCSHMEM_TEAM_INVALID on PEs outside the new
/// team and on failure. Returns 0 on success.
int rocshmem_team_split_strided(rocshmem_team_t parent, int start, int stride, int size,
                                const rocshmem_team_config_t* config, long config_mask, rocshmem_team_t* new_team);
/// Collective over parent: portshmem_team_split_2d: parent's members as a grid of rows of xrange; *xaxis_team is this
/// PE's row, *yaxis_team its column (ROCSHMEM_TEAM_INVALID on failure). Returns 0 on success.
int rocshmem_team_split_2d(rocshmem_team_t parent, int xrange, const rocshmem_team_config_t* xaxis_config,
                           long xaxis_mask, rocshmem_team_t* xaxis_team, const rocshmem_team_config_t* yaxis_config,
                           long yaxis_mask, rocshmem_team_t* yaxis_team);
/// team's creation options: writes the fields config_mask names (ROCSHMEM_TEAM_NUM_CONTEXTS) to *config. Returns 0,
/// nonzero for ROCSHMEM_TEAM_INVALID or a team this header did not make.
int rocshmem_team_get_config(rocshmem_team_t team, long config_mask, rocshmem_team_config_t* config);
/// Collective over team: portshmem_team_destroy; ROCSHMEM_TEAM_INVALID, ROCSHMEM_TEAM_WORLD and ROCSHMEM_TEAM_SHARED
/// are no-ops (as in rocSHMEM).
void rocshmem_team_destroy(rocshmem_team_t team);

} // namespace rocshmem
