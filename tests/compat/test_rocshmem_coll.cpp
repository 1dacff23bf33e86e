// The table test of rocSHMEM's newer collective names (coll_cases.inc, generated with the headers by
// gen_rocshmem_names.py): the workgroup forms of the types newer rocSHMEM headers add (int8, int16, uint8, uint16,
// half, bfloat16; the reductions also char, schar, uchar, ushort, uint, ulong, ulonglong), the wave forms
// (rocshmem_ctx_<T>_broadcast_wave, ..._reduce_scatter_wave), the untyped ones (rocshmem_ctx_broadcastmem_wg, ...),
// and the host collectives of half and bfloat16. Each name is called once on ROCSHMEM_TEAM_WORLD and its effect is
// checked on the host: dest holds what the collective must leave there, the elements after it are untouched, and the
// name returned 0.
//
// Kept apart from test_rocshmem_names.cpp (which makes one kernel per name) for its compile time: here one kernel per
// kind of collective (broadcast, alltoall, ...) holds every name of that kind behind a switch on the case's number,
// so each name costs its own body and one case label, and no kernel, lambda or launch of its own.
// Built as a HIP program (portshmem_add_hip_executable): __half and __hip_bfloat16 come from HIP's headers (the
// shim's on the host and nvidia platforms). Exit status: 0 when every check passed on this PE.
#include <cstdio>
#include <cstring>
#include <type_traits>

#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

using namespace rocshmem;

namespace {

#include "compat_cases.hpp"

constexpr unsigned kThreads = 24; // three waves on the host platform
constexpr std::size_t kN = 37;
constexpr std::size_t kGuard = 8; // elements after the result that must stay zero
constexpr std::size_t kBytes = 8192;

int me, npes;
char* buf_a; // source
char* buf_b; // dest
int* rc;     // what the name returned (symmetric, written by thread 0)
long* p_sync;
rocshmem_ctx_t ctx; // the host names' context (rocshmem_ctx_create)
int failures = 0, cases = 0;

void check(bool ok, const char* name) {
  ++cases;
  if (!ok) {
    ++failures;
    std::printf("PE %d: %s FAILED\n", me, name);
  }
}

// ---- element values: integers as themselves, the 16-bit floats through float (HIP's conversions) -------------------

template <class T>
constexpr bool kF16 = std::is_same_v<T, __half> || std::is_same_v<T, __hip_bfloat16>;

template <class T>
T of_float(float f) {
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half(f);
  } else {
    return __float2bfloat16(f);
  }
}
float as_float(__half h) {
  return __half2float(h);
}
float as_float(__hip_bfloat16 b) {
  return __bfloat162float(b);
}
/// x as an element of T.
template <class T>
T num(int x) {
  if constexpr (kF16<T>) {
    return of_float<T>(float(x));
  } else {
    return T(x);
  }
}
template <class T>
bool same(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
/// Element i of what PE pe sends.
template <class T>
T value(int pe, std::size_t i) {
  return num<T>((pe * 7 + int(i) * 3 + 1) % 100);
}
template <class T>
void fill_values(T* p, std::size_t n, int pe) {
  for (std::size_t i = 0; i < n; ++i) p[i] = value<T>(pe, i);
}
template <class T>
bool holds_values(const T* p, std::size_t n, int pe) {
  for (std::size_t i = 0; i < n; ++i) {
    if (!same(p[i], value<T>(pe, i))) return false;
  }
  return true;
}
template <class T>
bool untouched(const T* p) {
  const T zero{};
  for (std::size_t i = 0; i < kGuard; ++i) {
    if (!same(p[i], zero)) return false;
  }
  return true;
}
/// A reduction's element i from PE pe (small: a product over 4 PEs fits every type).
template <class T>
T small_value(int pe, std::size_t i) {
  return num<T>((pe + int(i)) % 5 + 1);
}
/// op (op_sum, ...) on a and b as the library computes it: the 16-bit floats in float, rounded back each step.
template <class T>
T apply(const char* op, T a, T b) {
  if constexpr (kF16<T>) {
    const float x = as_float(a), y = as_float(b);
    float r = 0;
    if (!std::strcmp(op, "op_sum")) r = x + y;
    if (!std::strcmp(op, "op_prod")) r = x * y;
    if (!std::strcmp(op, "op_min")) r = y < x ? y : x;
    if (!std::strcmp(op, "op_max")) r = x < y ? y : x;
    return of_float<T>(r);
  } else {
    return combine(op, a, b); // compat_cases.hpp
  }
}
/// PE me's source of a reduction of n elements (scatter: npes blocks of n, block j from small_value(me * npes + j)).
template <class T>
void reduce_source(T* s, bool scatter) {
  for (int j = 0; j < (scatter ? npes : 1); ++j) {
    for (std::size_t i = 0; i < kN; ++i) s[std::size_t(j) * kN + i] = small_value<T>(scatter ? me * npes + j : me, i);
  }
}
/// Whether d holds op over the PEs' reduce_source, in PE order (scatter: the reduction of block me).
template <class T>
bool reduced_values(const char* op, const T* d, bool scatter) {
  for (std::size_t i = 0; i < kN; ++i) {
    T want = small_value<T>(scatter ? me : 0, i);
    for (int p = 1; p < npes; ++p) want = apply(op, want, small_value<T>(scatter ? p * npes + me : p, i));
    if (!same(d[i], want)) return false;
  }
  return true;
}

// ---- the kernels: one per kind, every name of that kind behind a switch
// ----------------------------------------------

enum kind { k_bcast, k_alltoall, k_fcollect, k_reduce, k_reduce_scatter, k_bcastmem, k_alltoallmem, k_fcollectmem };

struct args {
  rocshmem_team_t team;
  void* dest;
  const void* source;
  int nelems;
  int root;
  int* rc;
};

/// f's result, 0 for a name that returns nothing.
template <class F>
__device__ int result_of(F f) {
  if constexpr (std::is_void_v<decltype(f())>) {
    f();
    return 0;
  } else {
    return f();
  }
}

constexpr bool kBlock_wg = true, kBlock_wave = false;
// A case of kind KIND: the block (GRP wg) or the first wave (wave) calls CALL.
#define DEVICE_CASE(KIND, K, GRP, CALL)                                                                                \
  case K:                                                                                                              \
    if constexpr (Kind == KIND) {                                                                                      \
      if (kBlock_##GRP || threadIdx.x < unsigned(warpSize)) r = result_of([&] { return CALL; });                       \
    }                                                                                                                  \
    break;
#define TYPED(T) static_cast<T*>(a.dest), static_cast<const T*>(a.source), a.nelems
#define CASE_BCAST(K, T, OP, GRP, NAME, ...) DEVICE_CASE(k_bcast, K, GRP, NAME(__VA_ARGS__ a.team, TYPED(T), a.root))
#define CASE_ALLTOALL(K, T, OP, GRP, NAME, ...) DEVICE_CASE(k_alltoall, K, GRP, NAME(__VA_ARGS__ a.team, TYPED(T)))
#define CASE_FCOLLECT(K, T, OP, GRP, NAME, ...) DEVICE_CASE(k_fcollect, K, GRP, NAME(__VA_ARGS__ a.team, TYPED(T)))
#define CASE_REDUCE(K, T, OP, GRP, NAME, ...) DEVICE_CASE(k_reduce, K, GRP, NAME(__VA_ARGS__ a.team, TYPED(T)))
#define CASE_REDUCE_SCATTER(K, T, OP, GRP, NAME, ...)                                                                  \
  DEVICE_CASE(k_reduce_scatter, K, GRP, NAME(__VA_ARGS__ a.team, TYPED(T)))
#define CASE_BCASTMEM(K, T, OP, GRP, NAME, ...)                                                                        \
  DEVICE_CASE(k_bcastmem, K, GRP, NAME(__VA_ARGS__ a.team, a.dest, a.source, a.nelems, a.root))
#define CASE_ALLTOALLMEM(K, T, OP, GRP, NAME, ...)                                                                     \
  DEVICE_CASE(k_alltoallmem, K, GRP, NAME(__VA_ARGS__ a.team, a.dest, a.source, a.nelems))
#define CASE_FCOLLECTMEM(K, T, OP, GRP, NAME, ...)                                                                     \
  DEVICE_CASE(k_fcollectmem, K, GRP, NAME(__VA_ARGS__ a.team, a.dest, a.source, a.nelems))
#define CASE_HOST_BCAST(...)
#define CASE_HOST_BCAST_SET(...)
#define CASE_HOST_REDUCE(...)
#define CASE_HOST_REDUCE_SCATTER(...)
#define CASE_HOST_REDUCE_ON_STREAM(...)

template <int Kind>
__global__ void coll_kernel(int which, args a) {
  const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;
  (void)ctx;
  int r = -1;
  switch (which) {
#include "coll_cases.inc"
  default:
    break;
  }
  if (threadIdx.x == 0) *a.rc = r;
}

#undef DEVICE_CASE
#undef TYPED
#undef CASE_BCAST
#undef CASE_ALLTOALL
#undef CASE_FCOLLECT
#undef CASE_REDUCE
#undef CASE_REDUCE_SCATTER
#undef CASE_BCASTMEM
#undef CASE_ALLTOALLMEM
#undef CASE_FCOLLECTMEM
#undef CASE_HOST_BCAST
#undef CASE_HOST_BCAST_SET
#undef CASE_HOST_REDUCE
#undef CASE_HOST_REDUCE_SCATTER
#undef CASE_HOST_REDUCE_ON_STREAM

// ---- the host side of each case
// ----------------------------------------------------------------------------------------

void clear() {
  std::memset(buf_a, 0, kBytes);
  std::memset(buf_b, 0, kBytes);
  *rc = -1;
}

/// Fills, then one launch of case which (kind Kind) on the world, every PE's buffers ready before and the results
/// complete after.
template <int Kind>
void launch(int which, int nelems, int root) {
  rocshmem_barrier_all();
  const args a{ROCSHMEM_TEAM_WORLD, buf_b, buf_a, nelems, root, rc};
  hipLaunchKernelGGL((coll_kernel<Kind>), dim3(1), dim3(kThreads), 0, 0, which, a);
  (void)hipDeviceSynchronize();
  rocshmem_barrier_all();
}

/// broadcast, alltoall, fcollect (typed; the _mem forms with T = unsigned char, nelems in bytes). The root is the last
/// PE, so that a root taken for a world PE number, or ignored, fails as well as one taken for another member's.
template <int Kind, class T>
void data_case(int which, const char* name) {
  clear();
  T* s = reinterpret_cast<T*>(buf_a);
  T* d = reinterpret_cast<T*>(buf_b);
  const int root = npes - 1;
  std::size_t result = kN;
  bool ok = true;
  if constexpr (Kind == k_bcast || Kind == k_bcastmem) {
    fill_values(s, kN, me + 20);
    launch<Kind>(which, int(kN), root);
    ok = holds_values(d, kN, root + 20);
  } else if constexpr (Kind == k_alltoall || Kind == k_alltoallmem) {
    for (int j = 0; j < npes; ++j) fill_values(s + j * kN, kN, me * npes + j);
    launch<Kind>(which, int(kN), root);
    for (int i = 0; i < npes; ++i) ok = ok && holds_values(d + i * kN, kN, i * npes + me);
    result = npes * kN;
  } else {
    fill_values(s, kN, me + 30);
    launch<Kind>(which, int(kN), root);
    for (int i = 0; i < npes; ++i) ok = ok && holds_values(d + i * kN, kN, i + 30);
    result = npes * kN;
  }
  check(ok && untouched(d + result) && *rc == 0, name);
}

template <int Kind, class T>
void reduce_case(int which, const char* name, const char* op) {
  clear();
  constexpr bool scatter = Kind == k_reduce_scatter;
  reduce_source(reinterpret_cast<T*>(buf_a), scatter);
  launch<Kind>(which, int(kN), 0);
  const T* d = reinterpret_cast<const T*>(buf_b);
  check(reduced_values(op, d, scatter) && untouched(d + kN) && *rc == 0, name);
}

/// Host broadcast on the world (the root's dest receives too), and on an active set (PEs start.., the root's dest is
/// not written; p_sync back to zero).
template <class T, class F>
void host_bcast_case(const char* name, F call) {
  clear();
  T* s = reinterpret_cast<T*>(buf_a);
  T* d = reinterpret_cast<T*>(buf_b);
  fill_values(s, kN, me + 40);
  rocshmem_barrier_all();
  const int root = npes - 1;
  call(d, s, root);
  check(holds_values(d, kN, root + 40) && untouched(d + kN), name);
  rocshmem_barrier_all();
}
template <class T, class F>
void host_bcast_set_case(const char* name, F call) {
  clear();
  T* s = reinterpret_cast<T*>(buf_a);
  T* d = reinterpret_cast<T*>(buf_b);
  fill_values(s, kN, me + 50);
  rocshmem_barrier_all();
  const int start = npes > 2 ? 1 : 0, size = npes - start, root_pe = npes - 1;
  call(d, s, size - 1, start, size);
  const bool receives = me >= start && me != root_pe;
  bool quiet_sync = p_sync[0] == 0 && p_sync[1] == 0 && p_sync[2] == 0;
  check((receives ? holds_values(d, kN, root_pe + 50) : untouched(d)) && quiet_sync, name);
  rocshmem_barrier_all();
}
template <class T, class F>
void host_reduce_case(const char* name, const char* op, bool scatter, F call) {
  clear();
  reduce_source(reinterpret_cast<T*>(buf_a), scatter);
  rocshmem_barrier_all();
  const int r = call(reinterpret_cast<T*>(buf_b), reinterpret_cast<const T*>(buf_a));
  const T* d = reinterpret_cast<const T*>(buf_b);
  check(r == 0 && reduced_values(op, d, scatter) && untouched(d + kN), name);
  rocshmem_barrier_all();
}

#define CASE_BCAST(K, T, OP, GRP, NAME, ...) data_case<k_bcast, T>(K, #NAME);
#define CASE_ALLTOALL(K, T, OP, GRP, NAME, ...) data_case<k_alltoall, T>(K, #NAME);
#define CASE_FCOLLECT(K, T, OP, GRP, NAME, ...) data_case<k_fcollect, T>(K, #NAME);
#define CASE_BCASTMEM(K, T, OP, GRP, NAME, ...) data_case<k_bcastmem, T>(K, #NAME);
#define CASE_ALLTOALLMEM(K, T, OP, GRP, NAME, ...) data_case<k_alltoallmem, T>(K, #NAME);
#define CASE_FCOLLECTMEM(K, T, OP, GRP, NAME, ...) data_case<k_fcollectmem, T>(K, #NAME);
#define CASE_REDUCE(K, T, OP, GRP, NAME, ...) reduce_case<k_reduce, T>(K, #NAME, #OP);
#define CASE_REDUCE_SCATTER(K, T, OP, GRP, NAME, ...) reduce_case<k_reduce_scatter, T>(K, #NAME, #OP);
#define CASE_HOST_BCAST(K, T, OP, GRP, NAME, ...)                                                                      \
  host_bcast_case<T>(#NAME, [](T* d, const T* s, int root) { NAME(ctx, ROCSHMEM_TEAM_WORLD, d, s, int(kN), root); });
#define CASE_HOST_BCAST_SET(K, T, OP, GRP, NAME, ...)                                                                  \
  host_bcast_set_case<T>(#NAME " (active set)", [](T* d, const T* s, int root, int start, int size) {                  \
    NAME(ctx, d, s, int(kN), root, start, 0, size, p_sync);                                                            \
  });
#define CASE_HOST_REDUCE(K, T, OP, GRP, NAME, ...)                                                                     \
  host_reduce_case<T>(#NAME, #OP, false,                                                                               \
                      [](T* d, const T* s) { return NAME(ctx, ROCSHMEM_TEAM_WORLD, d, s, int(kN)); });
#define CASE_HOST_REDUCE_SCATTER(K, T, OP, GRP, NAME, ...)                                                             \
  host_reduce_case<T>(#NAME, #OP, true, [](T* d, const T* s) { return NAME(ctx, ROCSHMEM_TEAM_WORLD, d, s, int(kN)); });
#define CASE_HOST_REDUCE_ON_STREAM(K, T, OP, GRP, NAME, ...)                                                           \
  host_reduce_case<T>(#NAME, #OP, false, [](T* d, const T* s) {                                                        \
    hipStream_t stream = nullptr;                                                                                      \
    const int r = NAME(ctx, ROCSHMEM_TEAM_WORLD, d, s, int(kN), stream);                                               \
    (void)hipStreamSynchronize(stream);                                                                                \
    return r;                                                                                                          \
  });

void coll_names() {
#include "coll_cases.inc"
}

} // namespace

int main() {
  rocshmem_init();
  me = rocshmem_my_pe();
  npes = rocshmem_n_pes();
  buf_a = static_cast<char*>(rocshmem_malloc(kBytes));
  buf_b = static_cast<char*>(rocshmem_malloc(kBytes));
  rc = static_cast<int*>(rocshmem_malloc(sizeof(int)));
  p_sync = static_cast<long*>(rocshmem_calloc(ROCSHMEM_BCAST_SYNC_SIZE, sizeof(long)));
  if (!buf_a || !buf_b || !rc || !p_sync) rocshmem_global_exit(1);
  rocshmem_ctx_create(0, &ctx);
  coll_names();
  rocshmem_ctx_destroy(ctx);
  rocshmem_free(p_sync);
  rocshmem_free(rc);
  rocshmem_free(buf_b);
  rocshmem_free(buf_a);
  std::printf("PE %d: %d of %d checks passed\n", me, cases - failures, cases);
  rocshmem_finalize();
  return failures == 0 ? 0 : 1;
}
