// The hand-written rocSHMEM names beyond the table test (test_rocshmem_names.cpp): the barrier and sync family in
// every group form (thread, _wave, _wg; plain, ctx_, team), pe_quiet, threadfence_system, wg_team_create_ctx,
// ROCSHMEM_TEAM_WORLD/_SHARED in device code, and the host calls calloc, align, ROCSHMEM_TEAM_SHARED, team_split_2d,
// team_get_config, team_sync, barrier(team), ctx_create/destroy, get_device_ctx, buffer_register/_unregister[_all],
// hipmodule_init, dump_stats/reset_stats, info_get_name, vendor_get_version_info. Each case calls the name and checks
// its effect on the host. Built as a HIP program by portshmem_add_hip_executable. With `uid` as its argument it starts
// through rocSHMEM's unique-ID calls instead of rocshmem_init. Exit status: 0 when every check passed on this PE.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <unistd.h>

#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

using namespace rocshmem;

namespace {

constexpr unsigned kThreads = 24; // three waves on the host platform
constexpr std::size_t kBytes = 4096;

int me, npes, peer, from;
char* buf_a; // symmetric scratch
char* buf_b;
int failures = 0, cases = 0, rounds = 0;

void check(bool ok, const char* name) {
  ++cases;
  if (!ok) {
    ++failures;
    std::printf("PE %d: %s FAILED\n", me, name);
  }
}
void clear() {
  std::memset(buf_a, 0, kBytes);
  std::memset(buf_b, 0, kBytes);
}

constexpr int G_thread = 0, G_wave = 1, G_wg = 2;

// The barrier and sync variants, by number (no device lambdas: nvcc would need --extended-lambda). Each: the group
// form, whether the caller quiets first (a sync completes nothing), the name.
struct variant {
  int group;
  bool quiet_first;
  const char* name;
};
constexpr variant kVariants[] = {
    {G_thread, false, "rocshmem_barrier_all (device)"},
    {G_wave, false, "rocshmem_barrier_all_wave"},
    {G_wg, false, "rocshmem_barrier_all_wg"},
    {G_thread, false, "rocshmem_ctx_barrier_all"},
    {G_wave, false, "rocshmem_ctx_barrier_all_wave"},
    {G_wg, false, "rocshmem_ctx_barrier_all_wg"},
    {G_thread, false, "rocshmem_barrier()"},
    {G_wave, false, "rocshmem_barrier_wave"},
    {G_wg, false, "rocshmem_barrier_wg"},
    {G_thread, false, "rocshmem_barrier(team) (device)"},
    {G_thread, false, "rocshmem_ctx_barrier"},
    {G_wave, false, "rocshmem_ctx_barrier_wave"},
    {G_wg, false, "rocshmem_ctx_barrier_wg (TEAM_SHARED)"},
    {G_thread, true, "rocshmem_sync_all (device)"},
    {G_wave, true, "rocshmem_sync_all_wave"},
    {G_wg, true, "rocshmem_sync_all_wg"},
    {G_thread, true, "rocshmem_ctx_sync_all"},
    {G_wave, true, "rocshmem_ctx_sync_all_wave"},
    {G_wg, true, "rocshmem_ctx_sync_all_wg"},
    {G_thread, true, "rocshmem_ctx_sync"},
    {G_wave, true, "rocshmem_ctx_sync_wave"},
    {G_wg, true, "rocshmem_ctx_sync_wg (TEAM_SHARED)"},
};
constexpr int kNumVariants = int(sizeof kVariants / sizeof kVariants[0]);

__device__ void call_variant(int which, rocshmem_team_t world, rocshmem_team_t shared) {
  const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;
  switch (which) {
  case 0:
    rocshmem_barrier_all();
    break;
  case 1:
    rocshmem_barrier_all_wave();
    break;
  case 2:
    rocshmem_barrier_all_wg();
    break;
  case 3:
    rocshmem_ctx_barrier_all(ctx);
    break;
  case 4:
    rocshmem_ctx_barrier_all_wave(ctx);
    break;
  case 5:
    rocshmem_ctx_barrier_all_wg(ctx);
    break;
  case 6:
    rocshmem_barrier();
    break;
  case 7:
    rocshmem_barrier_wave();
    break;
  case 8:
    rocshmem_barrier_wg();
    break;
  case 9:
    rocshmem_barrier(world);
    break;
  case 10:
    rocshmem_ctx_barrier(ctx, world);
    break;
  case 11:
    rocshmem_ctx_barrier_wave(ctx, world);
    break;
  case 12:
    rocshmem_ctx_barrier_wg(ctx, shared);
    break;
  case 13:
    rocshmem_sync_all();
    break;
  case 14:
    rocshmem_sync_all_wave();
    break;
  case 15:
    rocshmem_sync_all_wg();
    break;
  case 16:
    rocshmem_ctx_sync_all(ctx);
    break;
  case 17:
    rocshmem_ctx_sync_all_wave(ctx);
    break;
  case 18:
    rocshmem_ctx_sync_all_wg(ctx);
    break;
  case 19:
    rocshmem_ctx_sync(ctx, world);
    break;
  case 20:
    rocshmem_ctx_sync_wave(ctx, world);
    break;
  default:
    rocshmem_ctx_sync_wg(ctx, shared);
    break;
  }
}

/// Variant which, called by its group: thread 0 puts value into peer's slot with p (and quiets first for a sync),
/// then the group calls the variant, then thread 0 reads the slot, which must hold from's value.
__global__ void sync_kernel(int which, int group, bool quiet_first, int* slot, int* seen, int value, int pe,
                            rocshmem_team_t world, rocshmem_team_t shared) {
  const unsigned t = threadIdx.x;
  if (!(group == G_wg || (group == G_wave && t < unsigned(warpSize)) || t == 0)) return;
  if (t == 0) {
    rocshmem_int_p(slot, value, pe);
    if (quiet_first) rocshmem_quiet();
  }
  call_variant(which, world, shared);
  if (t == 0) *seen = portshmem::atomic_fetch(ROCSHMEM_CTX_DEFAULT, slot, rocshmem_my_pe());
}

void barriers_and_syncs() {
  for (int which = 0; which < kNumVariants; ++which) {
    clear();
    int* slot = reinterpret_cast<int*>(buf_b);
    int* seen = reinterpret_cast<int*>(buf_a);
    const int round = ++rounds;
    rocshmem_barrier_all();
    const variant& v = kVariants[which];
    sync_kernel<<<dim3(1), dim3(kThreads), 0, 0>>>(which, v.group, v.quiet_first, slot, seen, round * 1000 + me, peer,
                                                   ROCSHMEM_TEAM_WORLD, ROCSHMEM_TEAM_SHARED);
    rocshmem_barrier_all();
    check(*seen == round * 1000 + from, kVariants[which].name);
  }
}

/// pe_quiet and threadfence_system as a message pass: the data goes to peer (a put with pe_quiet, or a store through
/// rocshmem_ptr with threadfence_system), then a flag; peer waits for the flag and then must see the data.
__global__ void message_kernel(int which, int* data, int* flag, int* seen, int value, int round, int pe) {
  switch (which) {
  case 0:
    rocshmem_int_put_nbi(data, &value, 1, pe);
    rocshmem_pe_quiet(&pe, 1);
    break;
  case 1: {
    const int pes[2] = {pe, pe};
    rocshmem_ctx_int_put_nbi(ROCSHMEM_CTX_DEFAULT, data, &value, 1, pe);
    rocshmem_ctx_pe_quiet(ROCSHMEM_CTX_DEFAULT, pes, 2);
    break;
  }
  case 2:
    *static_cast<volatile int*>(rocshmem_ptr(data, pe)) = value;
    rocshmem_threadfence_system();
    break;
  default:
    *static_cast<volatile int*>(rocshmem_ptr(data, pe)) = value;
    rocshmem_ctx_threadfence_system(ROCSHMEM_CTX_DEFAULT);
    break;
  }
  rocshmem_int_atomic_set(flag, round, pe);
  rocshmem_int_wait_until(flag, ROCSHMEM_CMP_EQ, round);
  *seen = *data;
}

void quiets_and_fences() {
  const char* names[] = {"rocshmem_pe_quiet", "rocshmem_ctx_pe_quiet", "rocshmem_threadfence_system",
                         "rocshmem_ctx_threadfence_system"};
  for (int which = 0; which < 4; ++which) {
    clear();
    int* data = reinterpret_cast<int*>(buf_b);
    int* flag = reinterpret_cast<int*>(buf_b + 256);
    int* seen = reinterpret_cast<int*>(buf_a);
    const int round = ++rounds;
    rocshmem_barrier_all();
    message_kernel<<<dim3(1), dim3(1), 0, 0>>>(which, data, flag, seen, round * 1000 + me, round, peer);
    rocshmem_barrier_all();
    check(*seen == round * 1000 + from, names[which]);
  }
}

/// rocshmem_query_thread in device code (the same name as the host call).
__global__ void query_kernel(int* provided) {
  rocshmem_query_thread(provided);
}

/// One p through ctx (a host-created context) to pe's word.
__global__ void ctx_p_kernel(rocshmem_ctx_t ctx, int* word, int value, int pe) {
  rocshmem_ctx_int_p(ctx, word, value, pe);
}

/// rocshmem_wg_team_create_ctx: out[0] its return value; on success a p through the context to pe's word (checked
/// there after the host barrier).
__global__ void team_ctx_kernel(rocshmem_team_t team, int* out, int* word, int pe) {
  __shared__ rocshmem_ctx_t ctx;
  const int rc = rocshmem_wg_team_create_ctx(team, 0, &ctx);
  if (threadIdx.x == 0) {
    out[0] = rc;
    if (rc == 0) {
      rocshmem_ctx_int_p(ctx, word, 77, pe);
      rocshmem_ctx_quiet(ctx);
    }
  }
}

void contexts() {
  clear();
  int* out = reinterpret_cast<int*>(buf_a);
  int* word = reinterpret_cast<int*>(buf_b);
  out[0] = -1;
  rocshmem_barrier_all();
  team_ctx_kernel<<<dim3(1), dim3(kThreads), 0, 0>>>(ROCSHMEM_TEAM_WORLD, out, word, peer);
  rocshmem_barrier_all();
  check(out[0] == 0 && *word == 77, "rocshmem_wg_team_create_ctx (world numbering)");
  // A team of PEs 1.. (every PE but 0) numbers its members differently: refused (nonzero), nothing sent.
  rocshmem_team_t rest = ROCSHMEM_TEAM_INVALID;
  check(rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 1, 1, npes - 1, nullptr, 0, &rest) == 0,
        "rocshmem_team_split_strided (PEs 1..)");
  if (rest != ROCSHMEM_TEAM_INVALID) {
    out[0] = -1;
    *word = 0;
    team_ctx_kernel<<<dim3(1), dim3(kThreads), 0, 0>>>(rest, out, word, peer);
  }
  rocshmem_barrier_all();
  if (rest != ROCSHMEM_TEAM_INVALID) check(out[0] == 1, "rocshmem_wg_team_create_ctx (other numbering: refused)");
  rocshmem_team_destroy(rest);

  // Host contexts: the default context, usable by kernels; destroy releases nothing.
  rocshmem_ctx_t ctx{};
  check(rocshmem_ctx_create(ROCSHMEM_CTX_SERIALIZED, &ctx) == 0 && ctx.my_pe == me && ctx.n_pes == npes,
        "rocshmem_ctx_create (host)");
  clear();
  rocshmem_barrier_all();
  ctx_p_kernel<<<dim3(1), dim3(1), 0, 0>>>(ctx, word, 55 + me, peer);
  rocshmem_barrier_all();
  check(*word == 55 + from, "rocshmem_ctx_create context in a kernel");
  rocshmem_ctx_destroy(ctx);

  int* provided = reinterpret_cast<int*>(buf_a + 512);
  *provided = -1;
  query_kernel<<<dim3(1), dim3(1), 0, 0>>>(provided);
  (void)hipDeviceSynchronize();
  check(*provided == ROCSHMEM_THREAD_MULTIPLE, "rocshmem_query_thread (device)");

  // get_device_ctx: device memory holding the default context.
  void* d = rocshmem_get_device_ctx();
  rocshmem_ctx_t copy{};
  check(d != nullptr && hipMemcpy(&copy, d, sizeof copy, hipMemcpyDeviceToHost) == hipSuccess && copy.my_pe == me &&
            copy.n_pes == npes && copy.heap == ctx.heap,
        "rocshmem_get_device_ctx");
}

/// ROCSHMEM_TEAM_WORLD and ROCSHMEM_TEAM_SHARED named in device code (no team passed to the kernel): the team
/// queries, then a p to pe's slot completed by a workgroup barrier on the world (out[4]: from's value, read after it)
/// and a workgroup sync on the node's team.
__global__ void device_teams_kernel(int* out, int* slot, int value, int pe) {
  if (threadIdx.x == 0) {
    out[0] = rocshmem_team_n_pes(ROCSHMEM_TEAM_WORLD);
    out[1] = rocshmem_team_my_pe(ROCSHMEM_TEAM_WORLD);
    out[2] = rocshmem_team_n_pes(ROCSHMEM_TEAM_SHARED);
    out[3] = rocshmem_team_translate_pe(ROCSHMEM_TEAM_SHARED, rocshmem_team_n_pes(ROCSHMEM_TEAM_SHARED) - 1,
                                        ROCSHMEM_TEAM_WORLD);
    rocshmem_int_p(slot, value, pe);
  }
  rocshmem_ctx_barrier_wg(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD);
  if (threadIdx.x == 0) out[4] = *slot;
  rocshmem_ctx_sync_wg(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_SHARED);
}

void device_teams() {
  clear();
  int* out = reinterpret_cast<int*>(buf_a);
  int* slot = reinterpret_cast<int*>(buf_b);
  for (int i = 0; i < 5; ++i) out[i] = -1;
  const int round = ++rounds;
  rocshmem_barrier_all();
  device_teams_kernel<<<dim3(1), dim3(kThreads), 0, 0>>>(out, slot, round * 1000 + me, peer);
  (void)hipDeviceSynchronize();
  check(out[0] == npes && out[1] == me && out[2] == npes && out[3] == npes - 1,
        "ROCSHMEM_TEAM_WORLD/_SHARED in device code: team queries");
  check(out[4] == round * 1000 + from, "ROCSHMEM_TEAM_WORLD/_SHARED in device code: ctx_barrier_wg, ctx_sync_wg");
  rocshmem_barrier_all();
}

void teams() {
  // ROCSHMEM_TEAM_SHARED: one node here, so every PE in PE order.
  check(ROCSHMEM_TEAM_SHARED != ROCSHMEM_TEAM_INVALID && rocshmem_team_n_pes(ROCSHMEM_TEAM_SHARED) == npes &&
            rocshmem_team_my_pe(ROCSHMEM_TEAM_SHARED) == me,
        "ROCSHMEM_TEAM_SHARED");
  rocshmem_team_destroy(ROCSHMEM_TEAM_SHARED); // a no-op, as for the world
  rocshmem_team_destroy(ROCSHMEM_TEAM_WORLD);
  check(rocshmem_team_n_pes(ROCSHMEM_TEAM_SHARED) == npes && rocshmem_team_n_pes(ROCSHMEM_TEAM_WORLD) == npes,
        "rocshmem_team_destroy of WORLD/SHARED is a no-op");

  // split_2d with rows of 2: row r = me / 2 (index me % 2), column c = me % 2 (index me / 2).
  rocshmem_team_t x = ROCSHMEM_TEAM_INVALID, y = ROCSHMEM_TEAM_INVALID;
  const rocshmem_team_config_t xconf{3};
  const int rc = rocshmem_team_split_2d(ROCSHMEM_TEAM_WORLD, 2, &xconf, ROCSHMEM_TEAM_NUM_CONTEXTS, &x, nullptr, 0, &y);
  const int rows = (npes + 1) / 2;
  const int want_x = (me / 2 == rows - 1 && npes % 2) ? 1 : 2; // the last row may be short
  const int want_y = npes / 2 + (me % 2 < npes % 2 ? 1 : 0);
  check(rc == 0 && x && y && rocshmem_team_my_pe(x) == me % 2 && rocshmem_team_n_pes(x) == want_x &&
            rocshmem_team_my_pe(y) == me / 2 && rocshmem_team_n_pes(y) == want_y,
        "rocshmem_team_split_2d");
  check(rocshmem_team_translate_pe(x, 0, ROCSHMEM_TEAM_WORLD) == me / 2 * 2, "rocshmem_team_split_2d row members");
  rocshmem_team_config_t got{-1};
  check(rocshmem_team_get_config(x, ROCSHMEM_TEAM_NUM_CONTEXTS, &got) == 0 && got.num_contexts == 3,
        "rocshmem_team_get_config");
  check(rocshmem_team_get_config(ROCSHMEM_TEAM_INVALID, ROCSHMEM_TEAM_NUM_CONTEXTS, &got) != 0,
        "rocshmem_team_get_config (invalid team)");

  // Host team barrier and sync: a kernel's put without quiet is complete after rocshmem_barrier(team).
  clear();
  int* word = reinterpret_cast<int*>(buf_b);
  rocshmem_barrier_all();
  rocshmem_ctx_t ctx{};
  (void)rocshmem_ctx_create(0, &ctx);
  ctx_p_kernel<<<dim3(1), dim3(1), 0, 0>>>(ctx, word, 900 + me, peer);
  rocshmem_barrier(ROCSHMEM_TEAM_WORLD);
  check(*word == 900 + from, "rocshmem_barrier(team) (host)");
  rocshmem_barrier(ROCSHMEM_TEAM_INVALID); // no-op
  rocshmem_team_sync(y);
  rocshmem_team_sync(x);
  rocshmem_sync_all();
  check(true, "rocshmem_team_sync (host) returned on every member");
  rocshmem_team_destroy(x);
  rocshmem_team_destroy(y);
}

/// What f prints to stdout.
template <class F>
std::string captured(F f) {
  std::fflush(stdout);
  char path[] = "/tmp/rocshmem_extras.XXXXXX";
  const int fd = mkstemp(path);
  const int saved = dup(1);
  dup2(fd, 1);
  f();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::string out;
  char buf[256];
  lseek(fd, 0, SEEK_SET);
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) out.append(buf, std::size_t(n));
  close(fd);
  unlink(path);
  return out;
}

/// One put of value to pe's word from local (a registered buffer outside the heap) and one get back into it.
__global__ void registered_kernel(int* word, int* local, int value, int pe) {
  local[0] = value;
  rocshmem_int_put(word, local, 1, pe);
  rocshmem_quiet();
  rocshmem_int_get(local + 1, word, 1, pe);
}

/// rocshmem_buffer_register/_unregister/_unregister_all: the registry's answers, and a registered buffer outside the
/// symmetric heap as the local buffer of device and host RMA; rocshmem_hipmodule_init on a platform without modules.
void registered_buffers() {
  int* local = nullptr;
  int* other = nullptr;
  if (hipMalloc(&local, 4096) != hipSuccess || hipMalloc(&other, 64) != hipSuccess) rocshmem_global_exit(1);
  check(rocshmem_buffer_register(local, 4096) == ROCSHMEM_SUCCESS, "rocshmem_buffer_register");
  check(rocshmem_buffer_register(local + 512, 8) != ROCSHMEM_SUCCESS && rocshmem_buffer_register(nullptr, 8) != 0 &&
            rocshmem_buffer_register(other, 0) != ROCSHMEM_SUCCESS,
        "rocshmem_buffer_register refuses an overlap, a null address, a zero length");
  clear();
  int* word = reinterpret_cast<int*>(buf_b);
  const int round = ++rounds;
  rocshmem_barrier_all();
  registered_kernel<<<dim3(1), dim3(1), 0, 0>>>(word, local, round * 1000 + me, peer);
  (void)hipDeviceSynchronize();
  rocshmem_barrier_all();
  check(*word == round * 1000 + from && local[1] == round * 1000 + me, "registered buffer: device put and get");
  local[2] = round * 1000 + 500 + me;
  rocshmem_putmem(word + 1, local + 2, sizeof(int), peer);
  rocshmem_getmem(local + 3, word + 1, sizeof(int), peer);
  rocshmem_barrier_all();
  check(word[1] == round * 1000 + 500 + from && local[3] == round * 1000 + 500 + me,
        "registered buffer: host putmem and getmem");
  check(rocshmem_buffer_unregister(local) == ROCSHMEM_SUCCESS && rocshmem_buffer_unregister(local) != ROCSHMEM_SUCCESS,
        "rocshmem_buffer_unregister (once)");
  check(rocshmem_buffer_register(local, 64) == ROCSHMEM_SUCCESS && rocshmem_buffer_register(other, 64) == 0,
        "rocshmem_buffer_register after unregister");
  rocshmem_buffer_unregister_all();
  check(rocshmem_buffer_unregister(local) != ROCSHMEM_SUCCESS && rocshmem_buffer_unregister(other) != 0 &&
            rocshmem_buffer_register(local, 4096) == ROCSHMEM_SUCCESS && rocshmem_buffer_unregister(local) == 0,
        "rocshmem_buffer_unregister_all");
  (void)hipFree(other);
  (void)hipFree(local);
  // The host platform loads no code objects (amd only: tests/compat/hipmodule_symbols_check.sh).
  hipStream_t stream = nullptr;
  check(rocshmem_hipmodule_init(nullptr, stream) != 0 && rocshmem_hipmodule_init(nullptr) != 0,
        "rocshmem_hipmodule_init (no module)");
}

void host_calls() {
  // calloc: zeroed memory even where an earlier allocation left bytes behind.
  char* junk = static_cast<char*>(rocshmem_malloc(kBytes));
  std::memset(junk, 0xab, kBytes);
  rocshmem_free(junk);
  unsigned char* z = static_cast<unsigned char*>(rocshmem_calloc(kBytes / 8, 8));
  bool zero = z != nullptr;
  for (std::size_t i = 0; zero && i < kBytes; ++i) zero = z[i] == 0;
  check(zero, "rocshmem_calloc");
  check(rocshmem_calloc(0, 8) == nullptr && rocshmem_calloc(~std::size_t(0), 16) == nullptr,
        "rocshmem_calloc (0, overflow)");
  rocshmem_free(z);
  void* a = rocshmem_align(4096, 100);
  check(a && reinterpret_cast<std::uintptr_t>(a) % 4096 == 0, "rocshmem_align");
  check(rocshmem_align(3, 100) == nullptr, "rocshmem_align (not a power of two)");
  rocshmem_free(a);

  char name[ROCSHMEM_MAX_NAME_LEN];
  std::memset(name, 'x', sizeof name);
  rocshmem_info_get_name(name);
  check(std::strncmp(name, "portshmem ", 10) == 0 && std::strlen(name) < sizeof name, "rocshmem_info_get_name");
  int major = -1, minor = -1, patch = -1, m2 = -2, n2 = -2;
  rocshmem_vendor_get_version_info(&major, &minor, &patch);
  rocshmem_info_get_version(&m2, &n2);
  check(major == m2 && minor == n2 && patch >= 0, "rocshmem_vendor_get_version_info");

  const std::string dumped = captured([] { rocshmem_dump_stats(); });
  check(me == 0 ? dumped.find("no per-operation statistics") != std::string::npos : dumped.empty(),
        "rocshmem_dump_stats");
  check(captured([] { rocshmem_reset_stats(); }).empty(), "rocshmem_reset_stats");
}

} // namespace

/// rocshmem_init, or with `uid` (argv[1]) the unique-ID start as rocSHMEM programs write it: MPI carries rank 0's ID
/// (MPI_Bcast) and nothing else. Returns whether this program initialized MPI (then it finalizes it last).
bool start(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "uid") != 0) {
    rocshmem_init();
    return false;
  }
  MPI_Init(&argc, &argv);
  int rank = 0, nranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  rocshmem_uniqueid_t uid{};
  if (rank == 0 && rocshmem_get_uniqueid(&uid) != ROCSHMEM_SUCCESS) rocshmem_global_exit(1);
  MPI_Bcast(uid.data(), int(uid.size()), MPI_BYTE, 0, MPI_COMM_WORLD);
  rocshmem_init_attr_t attr{};
  if (rocshmem_set_attr_uniqueid_args(rank, nranks, &uid, &attr) != ROCSHMEM_SUCCESS ||
      rocshmem_init_attr(ROCSHMEM_INIT_WITH_UNIQUEID, &attr) != ROCSHMEM_SUCCESS) {
    std::printf("rank %d: the unique-ID start failed\n", rank);
    rocshmem_global_exit(1);
  }
  return true;
}

int main(int argc, char** argv) {
  const bool own_mpi = start(argc, argv);
  me = rocshmem_my_pe();
  npes = rocshmem_n_pes();
  peer = (me + 1) % npes;
  from = (me + npes - 1) % npes;
  buf_a = static_cast<char*>(rocshmem_malloc(kBytes));
  buf_b = static_cast<char*>(rocshmem_malloc(kBytes));
  if (!buf_a || !buf_b) rocshmem_global_exit(1);
  barriers_and_syncs();
  quiets_and_fences();
  contexts();
  teams();
  device_teams();
  registered_buffers();
  host_calls();
  rocshmem_free(buf_b);
  rocshmem_free(buf_a);
  std::printf("PE %d: %d of %d checks passed\n", me, cases - failures, cases);
  rocshmem_finalize();
  if (own_mpi) MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
