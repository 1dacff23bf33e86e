// The host table test of the rocSHMEM names: every name the generator gives a host form (host_cases.inc: RMA,
// AMOs, waits and tests, their ctx_ forms, the host _vector waits) is called once from host code and its effect
// checked, as test_rocshmem_names.cpp does for device code; then host quiet/fence and floating waits. Each case: clear,
// barrier, the call, barrier (or a wait on what peers sent), check. Exit status: 0 when every check passed on this PE.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

using namespace rocshmem;

namespace {

#include "compat_cases.hpp"

constexpr std::size_t kN = 37;
constexpr std::size_t kBytes = 8192;

int me, npes, peer, from;
char* buf_a; // symmetric scratch
char* buf_b;
rocshmem_ctx_t ctx; // the ctx_ forms' context (rocshmem_ctx_create)
long* p_sync;       // the active-set broadcasts' (ROCSHMEM_BCAST_SYNC_SIZE, zeroed)
hipStream_t stream; // the on-stream calls'
int failures = 0, cases = 0;

void check(bool ok, const char* name) {
  ++cases;
  if (!ok) {
    ++failures;
    std::printf("PE %d: %s FAILED\n", me, name);
  }
}
/// Clears both buffers, then every PE has (so nothing written next can be cleared by a slower PE).
void clear() {
  std::memset(buf_a, 0, kBytes);
  std::memset(buf_b, 0, kBytes);
  rocshmem_barrier_all();
}
bool is_nbi(const char* nbi) {
  return nbi[0] == '_';
}

#define TARGET_put peer
#define SOURCE_put from
#define TARGET_get peer
#define SOURCE_get peer

// put: kN elements of buf_a to peer's buf_b, checked here (from's) after the barrier; get: peer's buf_a into buf_b,
// checked on return (blocking) or after a quiet (_nbi).
#define HOST_MEM(T, OP, NBI, NAME, ...)                                                                                \
  {                                                                                                                    \
    T* s = reinterpret_cast<T*>(buf_a);                                                                                \
    T* d = reinterpret_cast<T*>(buf_b);                                                                                \
    fill(s, kN, me);                                                                                                   \
    clear_keep_a();                                                                                                    \
    NAME(__VA_ARGS__ d, s, kN, TARGET_##OP);                                                                           \
    if (is_nbi(#NBI)) rocshmem_quiet();                                                                                \
    const bool get_ok = std::string(#OP) != "get" || holds(d, kN, SOURCE_##OP);                                        \
    rocshmem_barrier_all();                                                                                            \
    check(get_ok&& holds(d, kN, SOURCE_##OP), #NAME);                                                                  \
  }

#define HOST_P(T, NAME, ...)                                                                                           \
  {                                                                                                                    \
    clear();                                                                                                           \
    T* d = reinterpret_cast<T*>(buf_b);                                                                                \
    NAME(__VA_ARGS__ d + 2, val<T>(me, 5), peer);                                                                      \
    rocshmem_quiet();                                                                                                  \
    rocshmem_barrier_all();                                                                                            \
    check(d[2] == val<T>(from, 5) && d[1] == T(0), #NAME);                                                             \
  }

#define HOST_G(T, NAME, ...)                                                                                           \
  {                                                                                                                    \
    T* s = reinterpret_cast<T*>(buf_a);                                                                                \
    fill(s, kN, me);                                                                                                   \
    clear_keep_a();                                                                                                    \
    const T r = NAME(__VA_ARGS__ s + 3, peer);                                                                         \
    rocshmem_barrier_all();                                                                                            \
    check(r == val<T>(peer, 3), #NAME);                                                                                \
  }

// AMOs: the word at buf_b starts at 10 on every PE; this PE updates peer's; r receives the fetched value.
#define HOST_AMO(T, NAME, CALL, WANT_R, WANT_W)                                                                        \
  {                                                                                                                    \
    T* w = reinterpret_cast<T*>(buf_b);                                                                                \
    *w = T(10);                                                                                                        \
    clear_keep_b();                                                                                                    \
    T r = T(0);                                                                                                        \
    CALL;                                                                                                              \
    rocshmem_barrier_all();                                                                                            \
    check(r == T(WANT_R) && *w == T(WANT_W), #NAME);                                                                   \
  }
#define HOST_AMO_FETCH(T, NAME, ...) HOST_AMO(T, NAME, r = NAME(__VA_ARGS__ w, peer), 10, 10)
#define HOST_AMO_SET(T, NAME, ...) HOST_AMO(T, NAME, NAME(__VA_ARGS__ w, T(42), peer), 0, 42)
#define HOST_AMO_SWAP(T, NAME, ...) HOST_AMO(T, NAME, r = NAME(__VA_ARGS__ w, T(42), peer), 10, 42)
#define HOST_AMO_CSWAP(T, NAME, ...) HOST_AMO(T, NAME, r = NAME(__VA_ARGS__ w, T(10), T(42), peer), 10, 42)
#define HOST_AMO_FINC(T, NAME, ...) HOST_AMO(T, NAME, r = NAME(__VA_ARGS__ w, peer), 10, 11)
#define HOST_AMO_INC(T, NAME, ...) HOST_AMO(T, NAME, NAME(__VA_ARGS__ w, peer), 0, 11)
#define HOST_AMO_FADD(T, NAME, ...) HOST_AMO(T, NAME, r = NAME(__VA_ARGS__ w, T(5), peer), 10, 15)
#define HOST_AMO_ADD(T, NAME, ...) HOST_AMO(T, NAME, NAME(__VA_ARGS__ w, T(5), peer), 0, 15)
#define HOST_AMO_FAND(T, NAME, ...) HOST_AMO(T, NAME, r = NAME(__VA_ARGS__ w, T(6), peer), 10, 2)
#define HOST_AMO_AND(T, NAME, ...) HOST_AMO(T, NAME, NAME(__VA_ARGS__ w, T(6), peer), 0, 2)
#define HOST_AMO_FOR(T, NAME, ...) HOST_AMO(T, NAME, r = NAME(__VA_ARGS__ w, T(6), peer), 10, 14)
#define HOST_AMO_OR(T, NAME, ...) HOST_AMO(T, NAME, NAME(__VA_ARGS__ w, T(6), peer), 0, 14)
#define HOST_AMO_FXOR(T, NAME, ...) HOST_AMO(T, NAME, r = NAME(__VA_ARGS__ w, T(6), peer), 10, 12)
#define HOST_AMO_XOR(T, NAME, ...) HOST_AMO(T, NAME, NAME(__VA_ARGS__ w, T(6), peer), 0, 12)

// Waits: this PE sets peer's v[i] (host p through portshmem's host path, then quiet), then waits for from's to arrive
// here. The waits return only once they have; what they return is checked. No barrier between set and wait: the
// wait itself is the synchronization under test.
#define SET(i, x) (detail::host::p(v + (i), value_type(x), peer))
#define HOST_WAIT(T, NAME, SET_CALLS, WAIT, CHECK)                                                                     \
  {                                                                                                                    \
    clear();                                                                                                           \
    using value_type = T;                                                                                              \
    T* v = reinterpret_cast<T*>(buf_b);                                                                                \
    long done = -1;                                                                                                    \
    SET_CALLS;                                                                                                         \
    rocshmem_quiet();                                                                                                  \
    WAIT;                                                                                                              \
    check(CHECK, #NAME);                                                                                               \
    rocshmem_barrier_all();                                                                                            \
  }
#define HOST_WAIT_UNTIL(T, NAME, ...)                                                                                  \
  HOST_WAIT(T, NAME, SET(0, 3), (NAME(__VA_ARGS__ v, ROCSHMEM_CMP_EQ, T(3)), done = 1), done == 1 && v[0] == T(3))
#define HOST_WAIT_ALL(T, NAME, ...)                                                                                    \
  HOST_WAIT(T, NAME, (SET(0, 3), SET(1, 3), SET(2, 3), SET(3, 3)),                                                     \
            (NAME(__VA_ARGS__ v, 4, nullptr, ROCSHMEM_CMP_EQ, T(3)), done = 1),                                        \
            done == 1 && v[0] == T(3) && v[3] == T(3))
#define HOST_WAIT_ANY(T, NAME, ...)                                                                                    \
  HOST_WAIT(T, NAME, SET(2, 3), done = long(NAME(__VA_ARGS__ v, 4, nullptr, ROCSHMEM_CMP_EQ, T(3))), done == 2)
#define HOST_WAIT_SOME(T, NAME, ...)                                                                                   \
  HOST_WAIT(T, NAME, std::size_t idx[4] = {};                                                                          \
            (SET(1, 3), SET(3, 3)), done = long(NAME(__VA_ARGS__ v, 4, idx, nullptr, ROCSHMEM_CMP_EQ, T(3))),          \
            done >= 1 && done <= 2 && (idx[0] == 1 || idx[0] == 3))
// test: after the barrier that follows the set, from's value is here: true for it, false for another.
#define HOST_TEST(T, NAME, ...)                                                                                        \
  HOST_WAIT(T, NAME, SET(0, 3),                                                                                        \
            (rocshmem_barrier_all(),                                                                                   \
             done = NAME(__VA_ARGS__ v, ROCSHMEM_CMP_EQ, T(3)) * 10 + NAME(__VA_ARGS__ v, ROCSHMEM_CMP_EQ, T(4))),     \
            done == 10)
// The host _vector forms: compare values w (a host array, values_<T>), element i with w[i].
#define HOST_WAIT_ALL_V(T, NAME)                                                                                       \
  HOST_WAIT(T, NAME, T* w = values_##T.w; (SET(0, 3), SET(1, 4), SET(2, 5), SET(3, 6)),                                \
                                          (NAME(v, 4, nullptr, ROCSHMEM_CMP_EQ, w), done = 1),                         \
                                          done == 1 && v[0] == T(3) && v[3] == T(6))
#define HOST_WAIT_ANY_V(T, NAME)                                                                                       \
  HOST_WAIT(T, NAME, T* w = values_##T.w;                                                                              \
            SET(2, 5), done = long(NAME(v, 4, nullptr, ROCSHMEM_CMP_EQ, w + 4)), done == 2)
#define HOST_WAIT_SOME_V(T, NAME)                                                                                      \
  HOST_WAIT(T, NAME, T* w = values_##T.w; std::size_t idx[4] = {};                                                     \
            (SET(1, 4), SET(3, 6)), done = long(NAME(v, 4, idx, nullptr, ROCSHMEM_CMP_EQ, w + 8)),                     \
            done >= 1 && done <= 2 && (idx[0] == 1 || idx[0] == 3))

// Host collectives on ROCSHMEM_TEAM_WORLD (a split team and a strided active set: team_collectives below). Each PE
// fills its buf_a; dest is buf_b. broadcast: root 1 % npes's buf_a reaches every PE's buf_b, the root's included.
#define HOST_BROADCAST(T, NAME)                                                                                        \
  {                                                                                                                    \
    T* s = reinterpret_cast<T*>(buf_a);                                                                                \
    T* d = reinterpret_cast<T*>(buf_b);                                                                                \
    fill(s, kN, me + 20);                                                                                              \
    clear_keep_a();                                                                                                    \
    const int root = 1 % npes;                                                                                         \
    NAME(ctx, ROCSHMEM_TEAM_WORLD, d, s, int(kN), root);                                                               \
    check(holds(d, kN, root + 20), #NAME " (team)");                                                                   \
    rocshmem_barrier_all();                                                                                            \
  }
// The active set PEs 1, 2, ... (every PE but 0; both when there are two), its last member the root: every other
// member receives the root's buf_a; the root's dest and non-members' stay clear (OpenSHMEM 1.4); p_sync ends clear.
#define HOST_BROADCAST_ACTIVE_SET(T, NAME)                                                                             \
  {                                                                                                                    \
    T* s = reinterpret_cast<T*>(buf_a);                                                                                \
    T* d = reinterpret_cast<T*>(buf_b);                                                                                \
    fill(s, kN, me + 40);                                                                                              \
    clear_keep_a();                                                                                                    \
    const int start = npes > 2 ? 1 : 0, size = npes - start, root_pe = npes - 1;                                       \
    NAME(ctx, d, s, int(kN), size - 1, start, 0, size, p_sync);                                                        \
    const bool receives = me >= start && me != root_pe;                                                                \
    check((receives ? holds(d, kN, root_pe + 40) : zeros(d, kN)) && zeros(p_sync, 3), #NAME " (active set)");          \
    rocshmem_barrier_all();                                                                                            \
  }
// Reductions (scatter false), reduce-scatters (true) and reductions on a stream on reduce_input (compat_cases.hpp):
// the name returns 0 and dest holds the reduction (reduce-scatter: of block me).
#define HOST_REDUCTIONS(T, OP, NAME, SCATTER, ...)                                                                     \
  {                                                                                                                    \
    T* s = reinterpret_cast<T*>(buf_a);                                                                                \
    T* d = reinterpret_cast<T*>(buf_b);                                                                                \
    reduce_input(s, kN, me, npes, SCATTER);                                                                            \
    clear_keep_a();                                                                                                    \
    const int rc = NAME(ctx, ROCSHMEM_TEAM_WORLD, d, s, int(kN) __VA_ARGS__);                                          \
    (void)hipStreamSynchronize(stream);                                                                                \
    check(rc == 0 && reduced(#OP, d, kN, me, npes, SCATTER), #NAME);                                                   \
    rocshmem_barrier_all();                                                                                            \
  }
#define HOST_REDUCE(T, OP, NAME) HOST_REDUCTIONS(T, OP, NAME, false, )
#define HOST_REDUCE_SCATTER(T, OP, NAME) HOST_REDUCTIONS(T, OP, NAME, true, )
#define HOST_REDUCE_ON_STREAM(T, OP, NAME) HOST_REDUCTIONS(T, OP, NAME, false, , stream)

/// clear() for the cases whose source was filled first (buf_a, buf_b kept).
void clear_keep_a() {
  std::memset(buf_b, 0, kBytes);
  rocshmem_barrier_all();
}
void clear_keep_b() {
  std::memset(buf_a, 0, kBytes);
  rocshmem_barrier_all();
}

template <class T>
struct vector_values {
  // {3, 4, 5, 6} (all), {9, 9, 5, 9} (any: index 2), {9, 4, 9, 6} (some: 1 and 3)
  T w[12] = {T(3), T(4), T(5), T(6), T(9), T(9), T(5), T(9), T(9), T(4), T(9), T(6)};
};

#define TYPE_VALUES(T) vector_values<T> values_##T;
TYPE_VALUES(float)
TYPE_VALUES(double)
TYPE_VALUES(char)
TYPE_VALUES(signed_char)
TYPE_VALUES(short)
TYPE_VALUES(int)
TYPE_VALUES(long)
TYPE_VALUES(long_long)
TYPE_VALUES(unsigned_char)
TYPE_VALUES(unsigned_short)
TYPE_VALUES(unsigned_int)
TYPE_VALUES(unsigned_long)
TYPE_VALUES(unsigned_long_long)
TYPE_VALUES(int8_t)
TYPE_VALUES(int16_t)
TYPE_VALUES(int32_t)
TYPE_VALUES(int64_t)
TYPE_VALUES(uint8_t)
TYPE_VALUES(uint16_t)
TYPE_VALUES(uint32_t)
TYPE_VALUES(uint64_t)
TYPE_VALUES(size_t)
TYPE_VALUES(ptrdiff_t)

void host_names() {
#include "host_cases.inc"
}

/// Host quiet completes host puts: a put_nbi, a quiet, then an AMO flag; peer waits for the flag from the host and
/// must then see the data. Host fence orders: put_nbi, fence, flag.
template <class Order>
void ordered(const char* name, Order order) {
  clear();
  int* data = reinterpret_cast<int*>(buf_b);
  int* flag = reinterpret_cast<int*>(buf_b + 256);
  int* src = reinterpret_cast<int*>(buf_a);
  src[0] = 4000 + me;
  rocshmem_int_put_nbi(data, src, 1, peer);
  order();
  rocshmem_int_atomic_set(flag, 1, peer);
  rocshmem_int_wait_until(flag, ROCSHMEM_CMP_EQ, 1);
  check(*data == 4000 + from, name);
  rocshmem_barrier_all();
}

/// Floating waits from the host compare floating values (-1 < 0 although its bits are larger; -0 == 0; NaN).
void float_waits() {
  clear();
  float* f = reinterpret_cast<float*>(buf_b);
  double* d = reinterpret_cast<double*>(buf_b + 64);
  f[0] = -1.0f, f[1] = -0.0f, f[2] = std::numeric_limits<float>::quiet_NaN();
  d[0] = -1.0, d[1] = -0.0, d[2] = std::numeric_limits<double>::quiet_NaN();
  check(rocshmem_float_test(f, ROCSHMEM_CMP_LT, 0.0f) == 1 && rocshmem_float_test(f + 1, ROCSHMEM_CMP_EQ, 0.0f) == 1 &&
            rocshmem_float_test(f + 2, ROCSHMEM_CMP_EQ, f[2]) == 0 &&
            rocshmem_float_test(f + 2, ROCSHMEM_CMP_NE, f[2]) == 1,
        "rocshmem_float_test (host): floating comparison");
  check(rocshmem_double_test(d, ROCSHMEM_CMP_LT, 0.0) == 1 && rocshmem_double_test(d + 1, ROCSHMEM_CMP_EQ, 0.0) == 1 &&
            rocshmem_double_test(d + 2, ROCSHMEM_CMP_LE, 1e300) == 0,
        "rocshmem_double_test (host): floating comparison");
  rocshmem_float_wait_until(f, ROCSHMEM_CMP_LT, 0.0f);
  rocshmem_double_wait_until(d + 1, ROCSHMEM_CMP_GE, 0.0);
  check(rocshmem_double_wait_until_any(d, 3, nullptr, ROCSHMEM_CMP_GE, 0.0) == 1,
        "rocshmem_double_wait_until/_any (host): floating comparison");
  rocshmem_barrier_all();
}

/// Every int of p[0, n) is base + i.
bool ints_from(const int* p, int n, int base) {
  for (int i = 0; i < n; ++i) {
    if (p[i] != base + i) return false;
  }
  return true;
}

/// The *_on_stream calls on this test's stream, each followed by a stream synchronization and a check of its effect.
void on_stream_calls() {
  int* src = reinterpret_cast<int*>(buf_a);
  int* dst = reinterpret_cast<int*>(buf_b);
  uint64_t* sig = reinterpret_cast<uint64_t*>(buf_b + 4096);
  const auto put_then = [&](const char* name, auto complete) {
    clear();
    for (int i = 0; i < 8; ++i) src[i] = 100 * me + i;
    rocshmem_putmem_on_stream(dst, src, 8 * sizeof(int), peer, stream);
    complete();
    (void)hipStreamSynchronize(stream);
    check(ints_from(dst, 8, 100 * from), name);
    rocshmem_barrier_all();
  };
  // A put is delivered by a quiet or barrier on its stream; a sync completes nothing, so a quiet precedes it.
  put_then("rocshmem_putmem_on_stream + rocshmem_quiet_on_stream + rocshmem_barrier_all_on_stream", [] {
    rocshmem_quiet_on_stream(stream);
    rocshmem_barrier_all_on_stream(stream);
  });
  put_then("rocshmem_barrier_on_stream (world)", [] { rocshmem_barrier_on_stream(ROCSHMEM_TEAM_WORLD, stream); });
  put_then("rocshmem_team_sync_on_stream (world)", [] {
    rocshmem_quiet_on_stream(stream);
    rocshmem_team_sync_on_stream(ROCSHMEM_TEAM_WORLD, stream);
  });
  put_then("rocshmem_sync_all_on_stream", [] {
    rocshmem_quiet_on_stream(stream);
    rocshmem_sync_all_on_stream(stream);
  });

  clear();
  for (int i = 0; i < 8; ++i) src[i] = 100 * me + i;
  rocshmem_barrier_all();
  rocshmem_getmem_on_stream(dst, src, 8 * sizeof(int), peer, stream);
  (void)hipStreamSynchronize(stream);
  check(ints_from(dst, 8, 100 * peer), "rocshmem_getmem_on_stream");
  rocshmem_barrier_all();

  // put-with-signal: the signal (an add of 5 to peer's sig) arrives after the data; the wait holds the stream until it.
  clear();
  *sig = 1;
  for (int i = 0; i < 8; ++i) src[i] = 100 * me + i;
  rocshmem_barrier_all();
  rocshmem_putmem_signal_on_stream(dst, src, 8 * sizeof(int), sig, 5, ROCSHMEM_SIGNAL_ADD, peer, stream);
  rocshmem_signal_wait_until_on_stream(sig, ROCSHMEM_CMP_EQ, 6, stream);
  (void)hipStreamSynchronize(stream);
  check(*sig == 6 && ints_from(dst, 8, 100 * from),
        "rocshmem_putmem_signal_on_stream + rocshmem_signal_wait_until_on_stream");
  rocshmem_barrier_all();

  // alltoall: member i's src block j (8 ints from 1000 i + 10 j) lands in member j's dest block i.
  clear();
  for (int j = 0; j < npes; ++j) {
    for (int i = 0; i < 8; ++i) src[8 * j + i] = 1000 * me + 10 * j + i;
  }
  rocshmem_barrier_all();
  rocshmem_alltoallmem_on_stream(ROCSHMEM_TEAM_WORLD, dst, src, 8 * sizeof(int), stream);
  (void)hipStreamSynchronize(stream);
  bool ok = true;
  for (int i = 0; i < npes; ++i) ok = ok && ints_from(dst + 8 * i, 8, 1000 * i + 10 * me);
  check(ok, "rocshmem_alltoallmem_on_stream");
  rocshmem_barrier_all();

  clear();
  for (int i = 0; i < 8; ++i) src[i] = 100 * me + i;
  rocshmem_barrier_all();
  const int root = npes - 1;
  rocshmem_broadcastmem_on_stream(ROCSHMEM_TEAM_WORLD, dst, src, 8 * sizeof(int), root, stream);
  (void)hipStreamSynchronize(stream);
  check(ints_from(dst, 8, 100 * root), "rocshmem_broadcastmem_on_stream (the root's dest too)");
  rocshmem_barrier_all();

  // ROCSHMEM_TEAM_INVALID: nothing is enqueued (a PE outside a split may pass what the split gave it).
  clear();
  rocshmem_barrier_on_stream(ROCSHMEM_TEAM_INVALID, stream);
  rocshmem_team_sync_on_stream(ROCSHMEM_TEAM_INVALID, stream);
  rocshmem_alltoallmem_on_stream(ROCSHMEM_TEAM_INVALID, dst, src, 8, stream);
  rocshmem_broadcastmem_on_stream(ROCSHMEM_TEAM_INVALID, dst, src, 8, 0, stream);
  (void)hipStreamSynchronize(stream);
  check(zeros(dst, 8), "rocshmem_*_on_stream with ROCSHMEM_TEAM_INVALID: nothing");
  rocshmem_barrier_all();
}

/// Host collectives on a team that numbers PEs differently from the world (the even PEs: member k is PE 2k), and the
/// active-set broadcast with a stride, twice on one p_sync with different roots and no barrier between.
void team_collectives() {
  rocshmem_team_t evens = ROCSHMEM_TEAM_INVALID;
  check(rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, nullptr, 0, &evens) == 0,
        "rocshmem_team_split_strided (even PEs)");
  clear();
  int* s = reinterpret_cast<int*>(buf_a);
  int* d = reinterpret_cast<int*>(buf_b);
  for (int i = 0; i < 8; ++i) s[i] = 1000 * me + i;
  for (int j = 0; j < npes; ++j) {
    for (int i = 0; i < 8; ++i) s[64 + 8 * j + i] = 1000 * me + 10 * j + i;
  }
  rocshmem_barrier_all();
  if (evens != ROCSHMEM_TEAM_INVALID) {
    const int n = rocshmem_team_n_pes(evens), t = rocshmem_team_my_pe(evens);
    rocshmem_ctx_int_broadcast(ctx, evens, d, s, 8, n - 1);
    check(ints_from(d, 8, 1000 * 2 * (n - 1)),
          "rocshmem_ctx_int_broadcast (host), even PEs: the root is team-relative");
    const int rc = rocshmem_ctx_int_sum_reduce(ctx, evens, d + 64, s, 8);
    const int rs = rocshmem_ctx_int_sum_reduce_on_stream(ctx, evens, d + 128, s, 8, stream);
    (void)hipStreamSynchronize(stream);
    const int rx = rocshmem_ctx_int_sum_reduce_scatter(ctx, evens, d + 192, s + 64, 8);
    int sum = 0; // of 1000 * (world PE) over the members
    for (int k = 0; k < n; ++k) sum += 1000 * 2 * k;
    bool ok = true;
    for (int i = 0; i < 8; ++i) {
      ok = ok && d[64 + i] == sum + n * i && d[128 + i] == sum + n * i && d[192 + i] == sum + n * (10 * t + i);
    }
    check(rc == 0 && rs == 0 && rx == 0 && ok,
          "rocshmem_ctx_int_sum_reduce/_reduce_on_stream/_reduce_scatter (host), even PEs");
  } else {
    rocshmem_ctx_int_broadcast(ctx, ROCSHMEM_TEAM_INVALID, d, s, 8, 0);
    check(rocshmem_ctx_int_sum_reduce(ctx, ROCSHMEM_TEAM_INVALID, d, s, 8) != 0 &&
              rocshmem_ctx_int_sum_reduce_scatter(ctx, ROCSHMEM_TEAM_INVALID, d, s, 8) != 0 &&
              rocshmem_ctx_int_sum_reduce_on_stream(ctx, ROCSHMEM_TEAM_INVALID, d, s, 8, stream) != 0 && zeros(d, 8),
          "host collectives on ROCSHMEM_TEAM_INVALID: nothing, the reductions return nonzero");
  }
  rocshmem_barrier_all();
  rocshmem_team_destroy(evens);

  // The active set PEs 0, 2, ... (log_pe_stride 1): first its last member is the root, then its first.
  clear();
  long* ls = reinterpret_cast<long*>(buf_a);
  long* ld = reinterpret_cast<long*>(buf_b);
  for (int i = 0; i < 8; ++i) ls[i] = 1000 * me + i;
  rocshmem_barrier_all();
  const int size = (npes + 1) / 2;
  if (me % 2 == 0) {
    rocshmem_ctx_long_broadcast(ctx, ld, ls, 8, size - 1, 0, 1, size, p_sync);
    rocshmem_ctx_long_broadcast(ctx, ld + 8, ls, 8, 0, 0, 1, size, p_sync);
    bool ok = zeros(p_sync, 3);
    for (int i = 0; i < 8; ++i) {
      ok = ok && ld[i] == (me == 2 * (size - 1) ? 0 : 1000 * 2 * (size - 1) + i);
      ok = ok && ld[8 + i] == (me == 0 ? 0 : i);
    }
    check(ok, "rocshmem_ctx_long_broadcast (host, active set with a stride, twice on one p_sync)");
  }
  rocshmem_barrier_all();
}

} // namespace

int main() {
  rocshmem_init();
  me = rocshmem_my_pe();
  npes = rocshmem_n_pes();
  peer = (me + 1) % npes;
  from = (me + npes - 1) % npes;
  buf_a = static_cast<char*>(rocshmem_malloc(kBytes));
  buf_b = static_cast<char*>(rocshmem_malloc(kBytes));
  p_sync = static_cast<long*>(rocshmem_calloc(ROCSHMEM_BCAST_SYNC_SIZE, sizeof(long)));
  if (!buf_a || !buf_b || !p_sync || rocshmem_ctx_create(0, &ctx) != 0 || hipStreamCreate(&stream) != hipSuccess) {
    rocshmem_global_exit(1);
  }
  host_names();
  ordered("rocshmem_quiet (host) completes a host put_nbi", [] { rocshmem_quiet(); });
  ordered("rocshmem_ctx_quiet (host)", [] { rocshmem_ctx_quiet(ctx); });
  ordered("rocshmem_fence (host) orders a host put_nbi before a later AMO", [] { rocshmem_fence(); });
  ordered("rocshmem_ctx_fence (host)", [] { rocshmem_ctx_fence(ctx); });
  float_waits();
  on_stream_calls();
  team_collectives();
  (void)hipStreamDestroy(stream);
  rocshmem_ctx_destroy(ctx);
  rocshmem_free(p_sync);
  rocshmem_free(buf_b);
  rocshmem_free(buf_a);
  std::printf("PE %d: %d of %d checks passed\n", me, cases - failures, cases);
  rocshmem_finalize();
  return failures == 0 ? 0 : 1;
}
