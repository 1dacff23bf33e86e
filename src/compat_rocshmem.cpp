// The library side of the rocSHMEM compatibility header (include/rocshmem/rocshmem.hpp): the registry of the
// translation units' default-context copies, the team handles rocshmem_team_t points to, the rank before init, and
// the host calls.
#include <cstdio>
#include <cstdlib>
#include <atomic>
#include <cstring>
#include <mutex>
#include <vector>

#include "heap_backend.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "portshmem/mpi.h"
#include "portshmem/portshmem.h"
#include "portshmem/stream.h"
#include "rocshmem/detail/host.hpp"
#include "rocshmem/detail/host_ops.hpp"
#include "rocshmem/detail/stream.hpp"
#include "stream/kernels.hpp"
#include "team_table.hpp"

namespace rocshmem {

namespace host {
rocshmem_team_t ROCSHMEM_TEAM_WORLD = nullptr;
rocshmem_team_t ROCSHMEM_TEAM_SHARED = nullptr;
} // namespace host

namespace detail {
namespace {

/// Ends the job after a failure rocSHMEM's API has no status for: MPI_Abort where MPI runs; else (a unique-ID start
/// without MPI) this process alone, whose closed bootstrap connections the other PEs see at their next collective.
[[noreturn]] void abort_job() {
  int up = 0, down = 0;
  MPI_Initialized(&up);
  MPI_Finalized(&down);
  if (up && !down) MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::vector<fill_fn>& registry() {
  static std::vector<fill_fn> fills; // constructed on first use: registration runs from other units' initializers
  return fills;
}
bool filled = false;                  // every registered copy holds the current handle
rocshmem_ctx_t* device_ctx = nullptr; // rocshmem_get_device_ctx's copy of the handle (GPU memory)

// The host-initiated operations (detail/host_ops.hpp): one stream of their own and 8 bytes of device memory through
// which p, g and the AMOs pass their value, used under host_ops_mutex.
std::mutex host_ops_mutex;
hipStream_t host_stream = nullptr;
std::uint64_t* staging = nullptr;
bool host_ops_ready = false;

/// Sets up the stream and the staging word on first use (after init); aborts the job when it cannot.
void host_ops_setup() {
  if (host_ops_ready) return;
  if (!portshmem_initialized()) {
    std::fprintf(stderr, "rocSHMEM host RMA/AMO/wait called before rocshmem_init\n");
    abort_job();
  }
  if (hipStreamCreateWithFlags(&host_stream, hipStreamNonBlocking) != hipSuccess ||
      hipMalloc(&staging, sizeof *staging) != hipSuccess) {
    std::fprintf(stderr, "rocSHMEM host operations: no GPU stream or memory for them\n");
    abort_job();
  }
  host_ops_ready = true;
}
void host_ops_teardown() {
  const std::lock_guard<std::mutex> lock(host_ops_mutex);
  if (!host_ops_ready) return;
  (void)hipStreamSynchronize(host_stream);
  (void)hipFree(staging);
  (void)hipStreamDestroy(host_stream);
  staging = nullptr;
  host_stream = nullptr;
  host_ops_ready = false;
}
void wait_stream(const char* call) {
  if (hipStreamSynchronize(host_stream) != hipSuccess) {
    std::fprintf(stderr, "%s: the GPU stream failed\n", call);
    abort_job();
  }
}
void copy_async(void* dst, const void* src, std::size_t bytes, decltype(hipMemcpyDefault) kind, const char* call) {
  if (hipMemcpyAsync(dst, src, bytes, kind, host_stream) != hipSuccess) {
    std::fprintf(stderr, "%s: a copy to or from the GPU failed\n", call);
    abort_job();
  }
}
void checked(portshmem_status_t s, const char* call) {
  if (s != PORTSHMEM_SUCCESS) { // the on-stream call logged why
    std::fprintf(stderr, "%s: %s\n", call, portshmem_status_string(s));
    abort_job();
  }
}
[[noreturn]] void fail(const char* call, const char* why) {
  std::fprintf(stderr, "%s: %s\n", call, why);
  abort_job();
}

// A team's device handle lives in GPU memory (host memory on the host platform), at the start of its team_object;
// rocshmem_team_t points to it.
struct team_entry {
  portshmem_team_handle_t* handle;
  portshmem_team_t slot;
};
std::vector<team_entry>& teams() {
  static std::vector<team_entry> t;
  return t;
}
// The symmetric block of the teams' alltoallv offsets: one word per PE for each team slot (PORTSHMEM_MAX_TEAMS), a
// team's share at its slot's, so every member finds it at the same address.
std::uint64_t* alltoallv_offsets = nullptr;

rocshmem_team_t make_team(portshmem_team_t slot) {
  team_object o{};
  if (portshmem_team_get_handle(slot, &o.handle) != PORTSHMEM_SUCCESS) return nullptr;
  o.alltoallv_offsets = alltoallv_offsets + std::size_t(slot) * std::size_t(portshmem_n_pes());
  team_object* d = nullptr;
  if (hipMalloc(&d, sizeof o) != hipSuccess) return nullptr;
  if (hipMemcpy(d, &o, sizeof o, hipMemcpyHostToDevice) != hipSuccess) {
    (void)hipFree(d);
    return nullptr;
  }
  teams().push_back({&d->handle, slot});
  return &d->handle;
}

int env_int(const char* const* names) {
  for (const char* const* n = names; *n; ++n) {
    if (const char* v = std::getenv(*n)) {
      char* end = nullptr;
      const long x = std::strtol(v, &end, 10);
      if (end != v && *end == '\0' && x >= 0) return int(x);
    }
  }
  return -1;
}

int from_mpi(bool rank) {
  int up = 0, down = 0;
  MPI_Initialized(&up);
  MPI_Finalized(&down);
  if (!up || down) return -1;
  int v = -1;
  if (rank) {
    MPI_Comm_rank(MPI_COMM_WORLD, &v);
  } else {
    MPI_Comm_size(MPI_COMM_WORLD, &v);
  }
  return v;
}

int pre_init(bool rank) {
  // What the launchers export (Open MPI, PMIx, MPICH/Hydra and Intel MPI, Slurm, MVAPICH), else MPI if the program
  // initialized it.
  static const char* const ranks[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK",   "PMI_RANK", "SLURM_PROCID",
                                      "MV2_COMM_WORLD_RANK",  "ALPS_APP_PE", nullptr};
  static const char* const sizes[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS", "MV2_COMM_WORLD_SIZE",
                                      nullptr};
  int v = env_int(rank ? ranks : sizes);
  if (v < 0) v = from_mpi(rank);
  if (v < 0) std::fprintf(stderr, "[WARNING] rocshmem_init() has not been called\n"); // rocSHMEM's answer: -1
  return v;
}

} // namespace

bool register_default_ctx(fill_fn fill) {
  const std::lock_guard<std::mutex> lock(registry_mutex());
  registry().push_back(fill);
  if (filled) {
    defaults d{{}, ROCSHMEM_TEAM_WORLD, ROCSHMEM_TEAM_SHARED};
    if (portshmem_get_ctx(&d.ctx) == PORTSHMEM_SUCCESS) fill(d);
  }
  return true;
}

void after_init() {
  portshmem_ctx_t c;
  if (portshmem_get_ctx(&c) != PORTSHMEM_SUCCESS) {
    std::fprintf(stderr, "rocshmem_init: no device handle\n");
    abort_job();
  }
  alltoallv_offsets = static_cast<std::uint64_t*>(portshmem_calloc(
      std::size_t(portshmem::detail::team_slot_count()) * std::size_t(portshmem_n_pes()), sizeof(std::uint64_t)));
  if (!alltoallv_offsets) {
    std::fprintf(stderr, "rocshmem_init: no symmetric memory for the teams' alltoallv offsets\n");
    abort_job();
  }
  ROCSHMEM_TEAM_WORLD = make_team(PORTSHMEM_TEAM_WORLD);
  ROCSHMEM_TEAM_SHARED = make_team(PORTSHMEM_TEAM_SHARED);
  {
    const std::lock_guard<std::mutex> lock(registry_mutex());
    const defaults d{c, ROCSHMEM_TEAM_WORLD, ROCSHMEM_TEAM_SHARED};
    for (fill_fn f : registry()) f(d);
    filled = true;
  }
  if (hipMalloc(&device_ctx, sizeof c) != hipSuccess ||
      hipMemcpy(device_ctx, &c, sizeof c, hipMemcpyHostToDevice) != hipSuccess) {
    std::fprintf(stderr, "rocshmem_init: no device memory for the default context\n");
    abort_job();
  }
}

void before_finalize() {
  host_ops_teardown();
  {
    const std::lock_guard<std::mutex> lock(registry_mutex());
    filled = false;
  }
  for (const team_entry& t : teams()) (void)hipFree(t.handle);
  teams().clear();
  ROCSHMEM_TEAM_WORLD = nullptr;
  ROCSHMEM_TEAM_SHARED = nullptr;
  if (device_ctx) (void)hipFree(device_ctx);
  device_ctx = nullptr;
  (void)portshmem_free(alltoallv_offsets); // collective, as finalize
  alltoallv_offsets = nullptr;
}

int pre_init_my_pe() {
  return pre_init(true);
}
int pre_init_n_pes() {
  return pre_init(false);
}

portshmem_team_t team_slot(rocshmem_team_t team) {
  if (!team) return PORTSHMEM_TEAM_INVALID;
  for (const team_entry& t : teams()) {
    if (t.handle == team) return t.slot;
  }
  return PORTSHMEM_TEAM_INVALID;
}

void host_barrier_all() {
  host::quiet(); // what the host issued is complete first (a barrier completes the caller's operations)
  (void)portshmem_barrier_all();
}

void host_sync_all() {
  (void)portshmem_team_sync(PORTSHMEM_TEAM_WORLD);
}

void host_team_barrier(rocshmem_team_t team) {
  const portshmem_team_t slot = team_slot(team);
  if (slot == PORTSHMEM_TEAM_INVALID) return;
  host::quiet();                   // what the host issued is complete ...
  (void)portshmem_team_sync(slot); // ... this PE's device work is done; then every member
}

namespace host {

void putmem(void* dest, const void* src, std::size_t nbytes, int pe, bool nbi) {
  const std::lock_guard<std::mutex> lock(host_ops_mutex);
  host_ops_setup();
  checked(portshmem_putmem_on_stream(dest, src, nbytes, pe, host_stream), "rocshmem_putmem (host)");
  if (!nbi) wait_stream("rocshmem_putmem (host)");
}

void getmem(void* dest, const void* src, std::size_t nbytes, int pe, bool nbi) {
  const std::lock_guard<std::mutex> lock(host_ops_mutex);
  host_ops_setup();
  checked(portshmem_getmem_on_stream(dest, src, nbytes, pe, host_stream), "rocshmem_getmem (host)");
  if (!nbi) wait_stream("rocshmem_getmem (host)");
}

void put_value(void* dest, const void* value, std::size_t bytes, int pe) {
  const std::lock_guard<std::mutex> lock(host_ops_mutex);
  host_ops_setup();
  // The value is staged in device memory; the stream orders the copy before the put, and waiting for the put keeps
  // the staging word unused by the next call.
  copy_async(staging, value, bytes, hipMemcpyHostToDevice, "rocshmem_<T>_p (host)");
  checked(portshmem_putmem_on_stream(dest, staging, bytes, pe, host_stream), "rocshmem_<T>_p (host)");
  wait_stream("rocshmem_<T>_p (host)");
}

void get_value(void* value, const void* src, std::size_t bytes, int pe) {
  const std::lock_guard<std::mutex> lock(host_ops_mutex);
  host_ops_setup();
  checked(portshmem_getmem_on_stream(staging, src, bytes, pe, host_stream), "rocshmem_<T>_g (host)");
  copy_async(value, staging, bytes, hipMemcpyDeviceToHost, "rocshmem_<T>_g (host)");
  wait_stream("rocshmem_<T>_g (host)");
}

std::uint64_t amo(void* dest, int op, std::uint64_t value, std::uint64_t cond, std::size_t bytes, int pe) {
  const std::lock_guard<std::mutex> lock(host_ops_mutex);
  host_ops_setup();
  portshmem_ctx_t c;
  checked(portshmem_get_ctx(&c), "rocshmem AMO (host)");
  if (portshmem::detail::on_stream::launch_amo(c, dest, op, value, cond, bytes, pe, staging, host_stream) !=
      hipSuccess) {
    std::fprintf(stderr, "rocshmem AMO (host): the kernel launch failed\n");
    abort_job();
  }
  std::uint64_t old = 0;
  copy_async(&old, staging, sizeof old, hipMemcpyDeviceToHost, "rocshmem AMO (host)");
  wait_stream("rocshmem AMO (host)");
  return bytes == 4 ? std::uint64_t(std::uint32_t(old)) : old;
}

void quiet() {
  const std::lock_guard<std::mutex> lock(host_ops_mutex);
  if (!host_ops_ready) return; // the host issued nothing
  checked(portshmem_quiet_on_stream(host_stream), "rocshmem_quiet (host)");
  wait_stream("rocshmem_quiet (host)");
}

void load(void* dst, const void* src, std::size_t bytes) {
#if PORTSHMEM_PLATFORM_HOST
  // The heap is host memory: one atomic acquire load of the word.
  switch (bytes) {
  case 1:
    *static_cast<std::uint8_t*>(dst) = __atomic_load_n(static_cast<const std::uint8_t*>(src), __ATOMIC_ACQUIRE);
    break;
  case 2:
    *static_cast<std::uint16_t*>(dst) = __atomic_load_n(static_cast<const std::uint16_t*>(src), __ATOMIC_ACQUIRE);
    break;
  case 4:
    *static_cast<std::uint32_t*>(dst) = __atomic_load_n(static_cast<const std::uint32_t*>(src), __ATOMIC_ACQUIRE);
    break;
  default:
    *static_cast<std::uint64_t*>(dst) = __atomic_load_n(static_cast<const std::uint64_t*>(src), __ATOMIC_ACQUIRE);
    break;
  }
#else
  // Device or host memory alike: a copy on the library's stream (it does not wait for the application's kernels).
  const std::lock_guard<std::mutex> lock(host_ops_mutex);
  host_ops_setup();
  copy_async(dst, src, bytes, hipMemcpyDefault, "rocshmem wait/test (host)");
  wait_stream("rocshmem wait/test (host)");
  std::atomic_thread_fence(std::memory_order_acquire);
#endif
}

void broadcast(portshmem_team_handle_t* team, void* dest, const void* src, int nelems, std::size_t elem, int root) {
  constexpr const char* call = "rocshmem_ctx_<T>_broadcast (host)";
  const portshmem_team_t slot = team_slot(team);
  if (slot == PORTSHMEM_TEAM_INVALID) return;
  if (nelems < 0) fail(call, "nelems is negative");
  const std::lock_guard<std::mutex> lock(host_ops_mutex);
  host_ops_setup();
  checked(portshmem_broadcastmem_on_stream(slot, dest, src, std::size_t(nelems) * elem, root, host_stream), call);
  wait_stream(call);
}

void broadcast_active_set(void* dest, const void* src, int nelems, std::size_t elem, int root, int start,
                          int log_stride, int size, long* p_sync) {
  constexpr const char* call = "rocshmem_ctx_<T>_broadcast (host, active set)";
  if (nelems < 0 || size < 1 || root < 0 || root >= size || start < 0 || log_stride < 0 || log_stride > 30 || !p_sync) {
    fail(call, "an argument is out of range (nelems, pe_root, pe_start, log_pe_stride, pe_size or p_sync)");
  }
  const long stride = 1L << log_stride;
  if (start + (size - 1) * stride >= portshmem_n_pes()) fail(call, "the active set reaches past the last PE");
  const int me = portshmem_my_pe();
  const long offset = me - start;
  if (offset < 0 || offset % stride != 0 || offset / stride >= size) return; // not in the active set
  const int root_pe = int(start + root * stride);
  const std::size_t bytes = std::size_t(nelems) * elem;
  // Three words of p_sync, each ROCSHMEM_SYNC_VALUE (0) between calls: arrived (on each other member: the root's
  // data is here), acks (on the root: how many members have it), released (on each other member: all have it). The
  // release makes the call a synchronization of the set, so the next call on the same p_sync, whoever its root,
  // writes no word or dest before every member has finished this one.
  long* const arrived = p_sync;
  long* const acks = p_sync + 1;
  long* const released = p_sync + 2;
  const auto others = [&](auto f) {
    for (int k = 0; k < size; ++k) {
      if (const int pe = int(start + k * stride); pe != me) f(pe);
    }
  };
  if (me == root_pe) {
    if (bytes != 0) others([&](int pe) { putmem(dest, src, bytes, pe, true); });
    quiet(); // the data is delivered before any member sees its arrival
    others([&](int pe) { atomic(arrived, amo_add, 1L, 0L, pe); });
    wait_until(acks, ROCSHMEM_CMP_EQ, long(size - 1));
    p(acks, 0L, me);
    others([&](int pe) { atomic(released, amo_add, 1L, 0L, pe); });
  } else {
    wait_until(arrived, ROCSHMEM_CMP_EQ, 1L);
    p(arrived, 0L, me);
    atomic(acks, amo_add, 1L, 0L, root_pe);
    wait_until(released, ROCSHMEM_CMP_EQ, 1L);
    p(released, 0L, me);
  }
}

int reduce(portshmem_team_handle_t* team, void* dest, const void* src, int nreduce, portshmem_datatype_t type,
           portshmem_reduce_op_t op, bool scatter) {
  const portshmem_team_t slot = team_slot(team);
  if (slot == PORTSHMEM_TEAM_INVALID || nreduce < 0) return 1;
  const std::lock_guard<std::mutex> lock(host_ops_mutex);
  host_ops_setup();
  const std::size_t n = std::size_t(nreduce);
  const portshmem_status_t s = scatter ? portshmem_reduce_scatter_on_stream(slot, dest, src, n, type, op, host_stream)
                                       : portshmem_reduce_on_stream(slot, dest, src, n, type, op, host_stream);
  if (s != PORTSHMEM_SUCCESS) return 1; // portshmem logged why
  wait_stream(scatter ? "rocshmem_ctx_<T>_<op>_reduce_scatter (host)" : "rocshmem_ctx_<T>_<op>_reduce (host)");
  return 0;
}

int reduce_on_stream(portshmem_team_handle_t* team, void* dest, const void* src, int nreduce, portshmem_datatype_t type,
                     portshmem_reduce_op_t op, hipStream_t stream) {
  const portshmem_team_t slot = team_slot(team);
  if (slot == PORTSHMEM_TEAM_INVALID || nreduce < 0) return 1;
  return portshmem_reduce_on_stream(slot, dest, src, std::size_t(nreduce), type, op, stream) == PORTSHMEM_SUCCESS ? 0
                                                                                                                  : 1;
}

} // namespace host

} // namespace detail

// ---- the *_on_stream calls (detail/stream.hpp) ----

void rocshmem_putmem_on_stream(void* dest, const void* source, std::size_t nelems, int pe, hipStream_t stream) {
  detail::checked(portshmem_putmem_on_stream(dest, source, nelems, pe, stream), "rocshmem_putmem_on_stream");
}

void rocshmem_getmem_on_stream(void* dest, const void* source, std::size_t nelems, int pe, hipStream_t stream) {
  detail::checked(portshmem_getmem_on_stream(dest, source, nelems, pe, stream), "rocshmem_getmem_on_stream");
}

void rocshmem_putmem_signal_on_stream(void* dest, const void* source, std::size_t nelems, uint64_t* sig_addr,
                                      uint64_t signal, int sig_op, int pe, hipStream_t stream) {
  detail::checked(portshmem_putmem_signal_on_stream(dest, source, nelems, sig_addr, signal, sig_op, pe, stream),
                  "rocshmem_putmem_signal_on_stream");
}

void rocshmem_signal_wait_until_on_stream(uint64_t* sig_addr, int cmp, uint64_t cmp_value, hipStream_t stream) {
  detail::checked(portshmem_signal_wait_until_on_stream(sig_addr, cmp, cmp_value, stream),
                  "rocshmem_signal_wait_until_on_stream");
}

void rocshmem_quiet_on_stream(hipStream_t stream) {
  detail::checked(portshmem_quiet_on_stream(stream), "rocshmem_quiet_on_stream");
}

void rocshmem_barrier_all_on_stream(hipStream_t stream) {
  detail::checked(portshmem_barrier_all_on_stream(stream), "rocshmem_barrier_all_on_stream");
}

void rocshmem_barrier_on_stream(rocshmem_team_t team, hipStream_t stream) {
  const portshmem_team_t slot = detail::team_slot(team);
  if (slot != PORTSHMEM_TEAM_INVALID) {
    detail::checked(portshmem_team_barrier_on_stream(slot, stream), "rocshmem_barrier_on_stream");
  }
}

void rocshmem_sync_all_on_stream(hipStream_t stream) {
  detail::checked(portshmem_team_sync_on_stream(PORTSHMEM_TEAM_WORLD, stream), "rocshmem_sync_all_on_stream");
}

void rocshmem_team_sync_on_stream(rocshmem_team_t team, hipStream_t stream) {
  const portshmem_team_t slot = detail::team_slot(team);
  if (slot != PORTSHMEM_TEAM_INVALID) {
    detail::checked(portshmem_team_sync_on_stream(slot, stream), "rocshmem_team_sync_on_stream");
  }
}

void rocshmem_alltoallmem_on_stream(rocshmem_team_t team, void* dest, const void* source, std::size_t size,
                                    hipStream_t stream) {
  const portshmem_team_t slot = detail::team_slot(team);
  if (slot != PORTSHMEM_TEAM_INVALID) {
    detail::checked(portshmem_alltoallmem_on_stream(slot, dest, source, size, stream),
                    "rocshmem_alltoallmem_on_stream");
  }
}

void rocshmem_broadcastmem_on_stream(rocshmem_team_t team, void* dest, const void* source, std::size_t nelems,
                                     int pe_root, hipStream_t stream) {
  const portshmem_team_t slot = detail::team_slot(team);
  if (slot != PORTSHMEM_TEAM_INVALID) {
    detail::checked(portshmem_broadcastmem_on_stream(slot, dest, source, nelems, pe_root, stream),
                    "rocshmem_broadcastmem_on_stream");
  }
}

void rocshmem_init(MPI_Comm comm) {
  // rocSHMEM programs fill and check the heap from the host: ask for a heap host code can touch (docs/rocshmem.md).
  portshmem::detail::heap_touched_by_host() = true;
  const portshmem_status_t s =
      comm == MPI_COMM_WORLD || comm == MPI_COMM_NULL ? portshmem_init() : portshmem_init_comm(comm);
  if (s != PORTSHMEM_SUCCESS) {
    std::fprintf(stderr, "rocshmem_init: %s\n", portshmem_status_string(s));
    detail::abort_job();
  }
  detail::after_init();
}

int rocshmem_get_uniqueid(rocshmem_uniqueid_t* uid) {
  if (!uid) return ROCSHMEM_ERROR;
  portshmem_uniqueid_t id;
  if (portshmem_get_uniqueid(&id) != PORTSHMEM_SUCCESS) return ROCSHMEM_ERROR;
  std::memcpy(uid->data(), id.bytes, sizeof id.bytes);
  return ROCSHMEM_SUCCESS;
}

int rocshmem_set_attr_uniqueid_args(int rank, int nranks, rocshmem_uniqueid_t* uid, rocshmem_init_attr_t* attr) {
  if (!uid || !attr || nranks < 1 || rank < 0 || rank >= nranks) return ROCSHMEM_ERROR;
  attr->rank = rank;
  attr->nranks = nranks;
  attr->uid = *uid;
  return ROCSHMEM_SUCCESS;
}

int rocshmem_init_attr(unsigned int flags, rocshmem_init_attr_t* attr) {
  if (!attr) return ROCSHMEM_ERROR;
  portshmem::detail::heap_touched_by_host() = true; // as rocshmem_init
  portshmem_init_attr_t a{};
  a.rank = attr->rank;
  a.nranks = attr->nranks;
  std::memcpy(a.uid.bytes, attr->uid.data(), sizeof a.uid.bytes);
  a.mpi_comm = attr->mpi_comm;
  const unsigned native = flags == ROCSHMEM_INIT_WITH_UNIQUEID   ? PORTSHMEM_INIT_WITH_UNIQUEID
                          : flags == ROCSHMEM_INIT_WITH_MPI_COMM ? PORTSHMEM_INIT_WITH_MPI_COMM
                                                                 : 0u;
  if (portshmem_init_attr(native, &a) != PORTSHMEM_SUCCESS) return ROCSHMEM_ERROR;
  detail::after_init();
  return ROCSHMEM_SUCCESS;
}

int rocshmem_init_thread(int /*requested*/, int* provided, MPI_Comm comm) {
  rocshmem_init(comm);
  *provided = ROCSHMEM_THREAD_MULTIPLE;
  return 0;
}

void rocshmem_finalize() {
  detail::before_finalize();
  (void)portshmem_finalize();
}

void* rocshmem_malloc(std::size_t size) {
  return portshmem_malloc(size);
}

void rocshmem_free(void* ptr) {
  (void)portshmem_free(ptr);
}

void* rocshmem_calloc(std::size_t count, std::size_t size) {
  if (count == 0 || size == 0) return nullptr; // rocSHMEM's answer (every PE passes the same arguments)
  return portshmem_calloc(count, size);
}

void* rocshmem_align(std::size_t alignment, std::size_t size) {
  // rocSHMEM's rule (posix_memalign's): a power of two and a multiple of sizeof(void*).
  if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) return nullptr;
  return portshmem_align(alignment, size);
}

void rocshmem_team_sync(rocshmem_team_t team) {
  const portshmem_team_t slot = detail::team_slot(team);
  if (slot != PORTSHMEM_TEAM_INVALID) (void)portshmem_team_sync(slot);
}

int rocshmem_ctx_create(int64_t /*options*/, rocshmem_ctx_t* ctx) {
  return portshmem_get_ctx(ctx) == PORTSHMEM_SUCCESS ? 0 : 1;
}

void rocshmem_ctx_destroy(rocshmem_ctx_t /*ctx*/) {}

void* rocshmem_get_device_ctx() {
  return detail::device_ctx;
}

int rocshmem_hipmodule_init(hipModule_t module, hipStream_t stream) {
  if (!portshmem_initialized() || !module) return 1;
#if PORTSHMEM_PLATFORM_AMD
  // What the copies are filled from: alive after the call, until the stream has run them (every call writes the same
  // values).
  static detail::defaults values{};
  if (portshmem_get_ctx(&values.ctx) != PORTSHMEM_SUCCESS) return 1;
  values.world = ROCSHMEM_TEAM_WORLD;
  values.shared = ROCSHMEM_TEAM_SHARED;
  // The mangled names of rocshmem::ROCSHMEM_CTX_DEFAULT and rocshmem::device::ROCSHMEM_TEAM_WORLD/_SHARED
  // (detail/common.hpp); tests/compat/hipmodule_symbols_check.sh checks that clang emits them so.
  const struct {
    const char* name;
    void* value;
    std::size_t bytes;
  } copies[] = {{"_ZN8rocshmemL20ROCSHMEM_CTX_DEFAULTE", &values.ctx, sizeof values.ctx},
                {"_ZN8rocshmem6deviceL19ROCSHMEM_TEAM_WORLDE", &values.world, sizeof values.world},
                {"_ZN8rocshmem6deviceL20ROCSHMEM_TEAM_SHAREDE", &values.shared, sizeof values.shared}};
  for (const auto& c : copies) {
    hipDeviceptr_t at = nullptr;
    std::size_t bytes = 0;
    if (hipModuleGetGlobal(&at, &bytes, module, c.name) != hipSuccess || bytes != c.bytes) {
      if (c.value == &values.ctx) return 1; // not a module of this header's code
      continue;
    }
    if (hipMemcpyHtoDAsync(at, c.value, bytes, stream) != hipSuccess) return 1;
  }
  return 0;
#else
  (void)stream;
  std::fprintf(stderr, "rocshmem_hipmodule_init: not available on this platform (docs/rocshmem.md)\n");
  return 1;
#endif
}

namespace {
std::mutex registered_mutex;
std::vector<std::pair<const char*, std::size_t>> registered; // rocshmem_buffer_register's ranges
} // namespace

int rocshmem_buffer_register(void* addr, std::size_t length) {
  if (!portshmem_initialized() || !addr || length == 0) return ROCSHMEM_ERROR;
  const char* const begin = static_cast<const char*>(addr);
  const std::lock_guard<std::mutex> lock(registered_mutex);
  for (const auto& [at, bytes] : registered) {
    if (begin < at + bytes && at < begin + length) return ROCSHMEM_ERROR;
  }
  registered.emplace_back(begin, length);
  return ROCSHMEM_SUCCESS;
}

int rocshmem_buffer_unregister(void* addr) {
  const std::lock_guard<std::mutex> lock(registered_mutex);
  for (auto it = registered.begin(); it != registered.end(); ++it) {
    if (it->first == addr) {
      registered.erase(it);
      return ROCSHMEM_SUCCESS;
    }
  }
  return ROCSHMEM_ERROR;
}

void rocshmem_buffer_unregister_all() {
  const std::lock_guard<std::mutex> lock(registered_mutex);
  registered.clear();
}

void rocshmem_dump_stats() {
  if (portshmem_initialized() && portshmem_my_pe() != 0) return;
  std::printf("rocshmem_dump_stats: portshmem keeps no per-operation statistics (nothing to dump)\n");
  std::fflush(stdout);
}

void rocshmem_reset_stats() {}

void rocshmem_info_get_name(char* name) {
  std::snprintf(name, ROCSHMEM_MAX_NAME_LEN, "portshmem %s", portshmem_version_string());
}

void rocshmem_vendor_get_version_info(int* major, int* minor, int* patch) {
  *major = PORTSHMEM_VERSION_MAJOR;
  *minor = PORTSHMEM_VERSION_MINOR;
  *patch = PORTSHMEM_VERSION_PATCH;
}

void rocshmem_global_exit(int status) {
  std::fflush(stdout);
  int up = 0;
  MPI_Initialized(&up);
  if (up) MPI_Abort(MPI_COMM_WORLD, status);
  std::_Exit(status);
}

void rocshmem_info_get_version(int* major, int* minor) {
  portshmem_info_get_version(major, minor);
}

int rocshmem_team_split_strided(rocshmem_team_t parent, int start, int stride, int size,
                                const rocshmem_team_config_t* config, long config_mask, rocshmem_team_t* new_team) {
  portshmem_team_config_t c{};
  if (config) c.num_contexts = config->num_contexts;
  portshmem_team_t slot = PORTSHMEM_TEAM_INVALID;
  const long mask = config ? (config_mask & ROCSHMEM_TEAM_NUM_CONTEXTS ? PORTSHMEM_TEAM_NUM_CONTEXTS : 0) : 0;
  const portshmem_status_t s =
      portshmem_team_split_strided(detail::team_slot(parent), start, stride, size, config ? &c : nullptr, mask, &slot);
  *new_team = ROCSHMEM_TEAM_INVALID;
  if (s != PORTSHMEM_SUCCESS) return 1;
  if (slot == PORTSHMEM_TEAM_INVALID) return 0; // not a member
  *new_team = detail::make_team(slot);
  return *new_team ? 0 : 1;
}

namespace {
/// A split's new portshmem team as a rocshmem_team_t (ROCSHMEM_TEAM_INVALID on PEs outside it); false on failure.
bool wrap_team(portshmem_team_t slot, rocshmem_team_t* team) {
  *team = ROCSHMEM_TEAM_INVALID;
  if (slot == PORTSHMEM_TEAM_INVALID) return true; // not a member
  *team = detail::make_team(slot);
  return *team != nullptr;
}
portshmem_team_config_t to_config(const rocshmem_team_config_t* config) {
  portshmem_team_config_t c{};
  if (config) c.num_contexts = config->num_contexts;
  return c;
}
long to_mask(const rocshmem_team_config_t* config, long mask) {
  return config && (mask & ROCSHMEM_TEAM_NUM_CONTEXTS) ? PORTSHMEM_TEAM_NUM_CONTEXTS : 0;
}
} // namespace

int rocshmem_team_split_2d(rocshmem_team_t parent, int xrange, const rocshmem_team_config_t* xaxis_config,
                           long xaxis_mask, rocshmem_team_t* xaxis_team, const rocshmem_team_config_t* yaxis_config,
                           long yaxis_mask, rocshmem_team_t* yaxis_team) {
  const portshmem_team_config_t xc = to_config(xaxis_config), yc = to_config(yaxis_config);
  portshmem_team_t x = PORTSHMEM_TEAM_INVALID, y = PORTSHMEM_TEAM_INVALID;
  const portshmem_status_t s =
      portshmem_team_split_2d(detail::team_slot(parent), xrange, &xc, to_mask(xaxis_config, xaxis_mask), &x, &yc,
                              to_mask(yaxis_config, yaxis_mask), &y);
  *xaxis_team = ROCSHMEM_TEAM_INVALID;
  *yaxis_team = ROCSHMEM_TEAM_INVALID;
  if (s != PORTSHMEM_SUCCESS) return 1;
  const bool ok_x = wrap_team(x, xaxis_team);
  const bool ok_y = wrap_team(y, yaxis_team);
  return ok_x && ok_y ? 0 : 1;
}

int rocshmem_team_get_config(rocshmem_team_t team, long config_mask, rocshmem_team_config_t* config) {
  const portshmem_team_t slot = detail::team_slot(team);
  if (slot == PORTSHMEM_TEAM_INVALID || !config) return 1;
  portshmem_team_config_t c{};
  if (portshmem_team_get_config(slot, to_mask(config, config_mask), &c) != PORTSHMEM_SUCCESS) return 1;
  if (config_mask & ROCSHMEM_TEAM_NUM_CONTEXTS) config->num_contexts = c.num_contexts;
  return 0;
}

void rocshmem_team_destroy(rocshmem_team_t team) {
  if (team == ROCSHMEM_TEAM_WORLD || team == ROCSHMEM_TEAM_SHARED) return; // as rocSHMEM: not destroyed
  const portshmem_team_t slot = detail::team_slot(team);
  if (slot == PORTSHMEM_TEAM_INVALID) return;
  (void)portshmem_team_destroy(slot);
  auto& t = detail::teams();
  for (auto it = t.begin(); it != t.end(); ++it) {
    if (it->handle == team) {
      (void)hipFree(it->handle);
      t.erase(it);
      break;
    }
  }
}

} // namespace rocshmem
