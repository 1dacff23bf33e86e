// rocSHMEM's types and constants, and the implicit device handle. rocSHMEM's device calls take no context, while every
// portshmem device call takes its handle (portshmem::ctx) first and kernels need no relocatable device code. The
// bridge is ROCSHMEM_CTX_DEFAULT: one copy of the handle per translation unit (static __constant__ on GPU platforms, a
// plain static on the host platform). Each translation unit registers a function that fills its copy (a static
// initializer calls detail::register_default_ctx); rocshmem_init fills every registered copy (cudaMemcpyToSymbol /
// hipMemcpyToSymbol on GPUs). A context-free call then costs what the explicit-handle call costs plus the loads of
// the handle's fields from constant memory (docs/rocshmem.md, tests/isa/rocshmem_implicit_handle.sh).
#pragma once

#include <cstddef>
#include <cstdint>

#include <mpi.h>

#include "portshmem/portshmem.hpp"
#include "portshmem/mpi.h"

namespace rocshmem {

enum ROCSHMEM_STATUS { ROCSHMEM_SUCCESS = 0, ROCSHMEM_ERROR = 1 };

enum ROCSHMEM_OP {
  ROCSHMEM_SUM,
  ROCSHMEM_MAX,
  ROCSHMEM_MIN,
  ROCSHMEM_PROD,
  ROCSHMEM_AND,
  ROCSHMEM_OR,
  ROCSHMEM_XOR,
  ROCSHMEM_REPLACE
};

enum ROCSHMEM_SIGNAL_OPS { ROCSHMEM_SIGNAL_SET, ROCSHMEM_SIGNAL_ADD };

enum rocshmem_cmps {
  ROCSHMEM_CMP_EQ,
  ROCSHMEM_CMP_NE,
  ROCSHMEM_CMP_GT,
  ROCSHMEM_CMP_GE,
  ROCSHMEM_CMP_LT,
  ROCSHMEM_CMP_LE
};

enum rocshmem_thread_ops {
  ROCSHMEM_THREAD_SINGLE,
  ROCSHMEM_THREAD_FUNNELED,
  ROCSHMEM_THREAD_WG_FUNNELED,
  ROCSHMEM_THREAD_SERIALIZED,
  ROCSHMEM_THREAD_MULTIPLE
};

enum rocshmem_team_configs { ROCSHMEM_TEAM_DEFAULT_CONFIGS, ROCSHMEM_TEAM_NUM_CONTEXTS };

typedef struct {
  int num_contexts;
} rocshmem_team_config_t;

// Sizes rocSHMEM programs use for their own pSync/pWrk arrays (portshmem's collectives need none: they use the team's
// scratch), kept so such programs compile.
constexpr std::size_t ROCSHMEM_REDUCE_MIN_WRKDATA_SIZE = 1024;
constexpr std::size_t ROCSHMEM_ATA_MAX_WRKDATA_SIZE = 4 * 1024 * 1024;
constexpr std::size_t ROCSHMEM_BARRIER_SYNC_SIZE = 256;
constexpr std::size_t ROCSHMEM_REDUCE_SYNC_SIZE = 256;
constexpr std::size_t ROCSHMEM_BCAST_SYNC_SIZE = ROCSHMEM_BARRIER_SYNC_SIZE;
constexpr std::size_t ROCSHMEM_ALLTOALL_SYNC_SIZE = ROCSHMEM_BARRIER_SYNC_SIZE + 1;
constexpr std::size_t ROCSHMEM_FCOLLECT_SYNC_SIZE = ROCSHMEM_ALLTOALL_SYNC_SIZE;
constexpr std::size_t ROCSHMEM_SYNC_VALUE = 0;

const int ROCSHMEM_CTX_ZERO = 0;
const int ROCSHMEM_CTX_NOSTORE = 1;
const int ROCSHMEM_CTX_SERIALIZED = 2;
const int ROCSHMEM_CTX_WG_PRIVATE = 4;
const int ROCSHMEM_CTX_SHARED = 8;

/// A context: the portshmem device handle itself, by value (rocSHMEM's is an opaque pair of pointers).
typedef portshmem_ctx_t rocshmem_ctx_t;

/// A team: a pointer to the team's device handle (device memory the library fills when the team is made), usable by
/// the host API and, passed to a kernel by value, by the device API. rocSHMEM's is an opaque pointer too.
typedef portshmem_team_handle_t* rocshmem_team_t;
const rocshmem_team_t ROCSHMEM_TEAM_INVALID = nullptr;

// ROCSHMEM_TEAM_WORLD and ROCSHMEM_TEAM_SHARED name the predefined teams in host and device code alike, as in rocSHMEM:
// host code reads the library's variables (host::), GPU device code this translation unit's constant-memory copies
// (device::, filled by rocshmem_init with ROCSHMEM_CTX_DEFAULT); the name picks one by compilation pass. On the host
// platform kernels run on CPU threads and read the host variables.
namespace host {
/// Every PE; set by rocshmem_init (nullptr before).
extern rocshmem_team_t ROCSHMEM_TEAM_WORLD;
/// The PEs of this PE's node (whose heaps it reaches by load/store), in PE order; set by rocshmem_init (nullptr
/// before).
extern rocshmem_team_t ROCSHMEM_TEAM_SHARED;
} // namespace host
#if PORTSHMEM_HAS_DEVICE_API && PORTSHMEM_GPU_COMPILER
namespace device {
static __constant__ rocshmem_team_t ROCSHMEM_TEAM_WORLD;
static __constant__ rocshmem_team_t ROCSHMEM_TEAM_SHARED;
} // namespace device
#endif
#if PORTSHMEM_GPU_DEVICE_PASS
using device::ROCSHMEM_TEAM_SHARED;
using device::ROCSHMEM_TEAM_WORLD;
#else
using host::ROCSHMEM_TEAM_SHARED;
using host::ROCSHMEM_TEAM_WORLD;
#endif

/// The size of the buffer rocshmem_info_get_name writes, its terminating zero included.
#define ROCSHMEM_MAX_NAME_LEN 64

namespace detail {
/// What a rocshmem_team_t points to (device memory): the team's device handle, then the header's own per-team state.
struct team_object {
  portshmem_team_handle_t handle;
  /// rocshmem_<T>_alltoallv_wg's exchange of source displacements: one word per member, symmetric (the team's slot's
  /// share of a block the library allocates at init).
  std::uint64_t* alltoallv_offsets;
};
/// What each translation unit holds a copy of for its device code: the default context and the predefined teams.
struct defaults {
  rocshmem_ctx_t ctx;
  rocshmem_team_t world, shared;
};
using fill_fn = void (*)(const defaults&);
/// Records fill, the function that writes one translation unit's ROCSHMEM_CTX_DEFAULT (and on GPUs its device
/// ROCSHMEM_TEAM_WORLD/SHARED); calls it at once when the library is already initialized (a translation unit loaded
/// later). Returns true.
bool register_default_ctx(fill_fn fill);
/// rocshmem_init's work after portshmem's init: makes ROCSHMEM_TEAM_WORLD and _SHARED, then fills every registered
/// copy.
void after_init();
/// rocshmem_finalize's work before portshmem's: frees the team handles.
void before_finalize();
/// This PE's rank before init, as the launcher or MPI says (-1 when neither does); n_pes likewise.
int pre_init_my_pe();
int pre_init_n_pes();
/// The portshmem team a rocshmem_team_t names (PORTSHMEM_TEAM_INVALID for none).
portshmem_team_t team_slot(rocshmem_team_t team);
/// The host bodies of the names shared with device code (detail/both.hpp).
void host_barrier_all();
void host_sync_all();
void host_team_barrier(rocshmem_team_t team);
} // namespace detail

#if PORTSHMEM_HAS_DEVICE_API
// ROCSHMEM_DETAIL_DEVICE_CODE: the code being compiled runs as device code. On the host platform a call is device code
// when it runs on a kernel's thread (host and device calls of one name share one body there).
#if PORTSHMEM_GPU_DEVICE_PASS
#define ROCSHMEM_DETAIL_DEVICE_CODE() 1
#elif PORTSHMEM_PLATFORM_HOST
#define ROCSHMEM_DETAIL_ON_KERNEL_THREAD() (::portshmem::arch::host::current_thread != nullptr)
#define ROCSHMEM_DETAIL_DEVICE_CODE() ROCSHMEM_DETAIL_ON_KERNEL_THREAD()
#else
#define ROCSHMEM_DETAIL_DEVICE_CODE() 0
#endif

// ROCSHMEM_DETAIL_BOTH((DEVICE), (HOST)): the body of a name rocSHMEM has on the host and on the device (one
// __host__ __device__ function, since nvcc cannot overload on __host__/__device__ alone): DEVICE in device code, HOST
// (detail/host_ops.hpp) in host code; each argument is one parenthesized expression.
#if PORTSHMEM_GPU_DEVICE_PASS
#define ROCSHMEM_DETAIL_BOTH(DEVICE, HOST) DEVICE
#elif PORTSHMEM_PLATFORM_HOST
#define ROCSHMEM_DETAIL_BOTH(DEVICE, HOST) (ROCSHMEM_DETAIL_ON_KERNEL_THREAD() ? DEVICE : HOST)
#else
#define ROCSHMEM_DETAIL_BOTH(DEVICE, HOST) HOST
#endif

/// The default context, this translation unit's copy (filled by rocshmem_init).
#if PORTSHMEM_GPU_COMPILER
static __constant__ rocshmem_ctx_t ROCSHMEM_CTX_DEFAULT;
#else
static rocshmem_ctx_t ROCSHMEM_CTX_DEFAULT;
#endif

namespace detail {
/// The default context as the calls use it: a copy read from this unit's constant memory at the call, so the compiler
/// loads the fields the call needs, once each, as it loads them from a kernel parameter in the explicit-handle call.
PORTSHMEM_DEVICE rocshmem_ctx_t default_ctx() {
  return ROCSHMEM_CTX_DEFAULT;
}
namespace {
inline void fill_default_ctx(const defaults& d) {
#if PORTSHMEM_PLATFORM_NVIDIA
  cudaMemcpyToSymbol(ROCSHMEM_CTX_DEFAULT, &d.ctx, sizeof d.ctx);
  cudaMemcpyToSymbol(device::ROCSHMEM_TEAM_WORLD, &d.world, sizeof d.world);
  cudaMemcpyToSymbol(device::ROCSHMEM_TEAM_SHARED, &d.shared, sizeof d.shared);
#elif PORTSHMEM_PLATFORM_AMD
  (void)hipMemcpyToSymbol(HIP_SYMBOL(ROCSHMEM_CTX_DEFAULT), &d.ctx, sizeof d.ctx);
  (void)hipMemcpyToSymbol(HIP_SYMBOL(device::ROCSHMEM_TEAM_WORLD), &d.world, sizeof d.world);
  (void)hipMemcpyToSymbol(HIP_SYMBOL(device::ROCSHMEM_TEAM_SHARED), &d.shared, sizeof d.shared);
#else
  ROCSHMEM_CTX_DEFAULT = d.ctx; // the host platform's kernels read the host team variables
#endif
}
[[maybe_unused]] const bool default_ctx_registered = register_default_ctx(&fill_default_ctx);
} // namespace
} // namespace detail
#endif

} // namespace rocshmem
