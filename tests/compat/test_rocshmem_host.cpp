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

using signed_char = signed char;
using unsigned_char = unsigned char;
using unsigned_short = unsigned short;
using unsigned_int = unsigned int;
using unsigned_long = unsigned long;
using long_long = long long;
using unsigned_long_long = unsigned long long;

constexpr std::size_t kN = 37;
constexpr std::size_t kBytes = 8192;

int me, npes, peer, from;
char* buf_a; // symmetric scratch
char* buf_b;
rocshmem_ctx_t ctx; // the ctx_ forms' context (rocshmem_ctx_create)
int failures = 0, cases = 0;

void check(bool ok, const char* name) {
  ++cases;
  if (!ok) {
    ++failures;
    std::printf("PE %d: %s FAILED\n", me, name);
  }
}
template <class T>
T val(int pe, std::size_t i) {
  return T((pe * 7 + int(i) * 3 + 1) % 100);
}
template <class T>
void fill(T* p, std::size_t n, int pe) {
  for (std::size_t i = 0; i < n; ++i) p[i] = val<T>(pe, i);
}
template <class T>
bool holds(const T* p, std::size_t n, int pe) {
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] != val<T>(pe, i)) return false;
  }
  return true;
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

} // namespace

int main() {
  rocshmem_init();
  me = rocshmem_my_pe();
  npes = rocshmem_n_pes();
  peer = (me + 1) % npes;
  from = (me + npes - 1) % npes;
  buf_a = static_cast<char*>(rocshmem_malloc(kBytes));
  buf_b = static_cast<char*>(rocshmem_malloc(kBytes));
  if (!buf_a || !buf_b || rocshmem_ctx_create(0, &ctx) != 0) rocshmem_global_exit(1);
  host_names();
  ordered("rocshmem_quiet (host) completes a host put_nbi", [] { rocshmem_quiet(); });
  ordered("rocshmem_ctx_quiet (host)", [] { rocshmem_ctx_quiet(ctx); });
  ordered("rocshmem_fence (host) orders a host put_nbi before a later AMO", [] { rocshmem_fence(); });
  ordered("rocshmem_ctx_fence (host)", [] { rocshmem_ctx_fence(ctx); });
  float_waits();
  rocshmem_ctx_destroy(ctx);
  rocshmem_free(buf_b);
  rocshmem_free(buf_a);
  std::printf("PE %d: %d of %d checks passed\n", me, cases - failures, cases);
  rocshmem_finalize();
  return failures == 0 ? 0 : 1;
}
