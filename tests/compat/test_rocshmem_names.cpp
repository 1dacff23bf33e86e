// The table test of the rocSHMEM names (include/rocshmem): every typed device name the generator writes out
// (names_cases.inc, one line per name) is called once, in its group form (thread, _wave: the first wave, _wg: the
// block), and its effect is checked on the host; then the hand-written names (contexts, barriers, teams, queries).
// Built as a HIP program by portshmem_add_hip_executable, so the HIP kernel language of the host platform and the
// <<<>>> rewrite are exercised too. Each case: fill, barrier, one launch, barrier, check. Exit status: 0 when every
// check passed on this PE.
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>

#include <hip/hip_bf16.h> // the alltoallv names of __hip_bfloat16 and __half
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

using namespace rocshmem;

namespace {

#include "compat_cases.hpp"

constexpr unsigned kThreads = 24; // three waves on the host platform, the last one full
constexpr std::size_t kN = 37;
constexpr std::size_t kBytes = 8192;

int me, npes, peer, from; // peer: where puts go and gets come from; from: whose puts arrive here
char* buf_a;              // symmetric scratch
char* buf_b;
std::uint64_t* sig;
int failures = 0, cases = 0;

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
  *sig = 0;
}

constexpr int G_thread = 0, G_wave = 1, G_wg = 2;

template <int G, class F>
__global__ void run_kernel(F f) {
  const unsigned t = threadIdx.x;
  if (G == G_wg || (G == G_wave && t < unsigned(warpSize)) || t == 0) f();
}
/// One launch of f by group G, then the host barrier (device work done, quiet, every PE).
template <int G, class F>
void run(F f) {
  rocshmem_barrier_all(); // every PE's buffers are filled before anyone writes into them
  hipLaunchKernelGGL((run_kernel<G, F>), dim3(1), dim3(kThreads), 0, 0, f);
  rocshmem_barrier_all();
}

#define TARGET_put peer
#define SOURCE_put from
#define TARGET_get peer
#define SOURCE_get peer

// Typed put/get (+nbi) by one thread, the first wave or the block: kN elements from/to peer, then checked here.
#define CASE_TYPED(T, OP, NBI, GRP, NAME, ...)                                                                         \
  {                                                                                                                    \
    clear();                                                                                                           \
    T* s = reinterpret_cast<T*>(buf_a);                                                                                \
    T* d = reinterpret_cast<T*>(buf_b);                                                                                \
    fill(s, kN, me);                                                                                                   \
    run<G##GRP>([=] {                                                                                                  \
      const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;                                                                 \
      (void)ctx;                                                                                                       \
      NAME(__VA_ARGS__ d, s, kN, TARGET_##OP);                                                                         \
      rocshmem_quiet();                                                                                                \
    });                                                                                                                \
    check(holds(d, kN, SOURCE_##OP), #NAME);                                                                           \
  }
#define CASE_MEM(OP, NBI, GRP, NAME, ...) CASE_TYPED(unsigned_char, OP, NBI, GRP, NAME, __VA_ARGS__)

#define CASE_P(T, NAME, ...)                                                                                           \
  {                                                                                                                    \
    clear();                                                                                                           \
    T* d = reinterpret_cast<T*>(buf_b);                                                                                \
    run<G_thread>([=] {                                                                                                \
      const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;                                                                 \
      (void)ctx;                                                                                                       \
      NAME(__VA_ARGS__ d + 2, val<T>(me, 5), peer);                                                                    \
    });                                                                                                                \
    check(d[2] == val<T>(from, 5) && d[1] == T(0), #NAME);                                                             \
  }

#define CASE_G(T, NAME, ...)                                                                                           \
  {                                                                                                                    \
    clear();                                                                                                           \
    T* s = reinterpret_cast<T*>(buf_a);                                                                                \
    T* d = reinterpret_cast<T*>(buf_b);                                                                                \
    fill(s, kN, me);                                                                                                   \
    run<G_thread>([=] {                                                                                                \
      const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;                                                                 \
      (void)ctx;                                                                                                       \
      d[0] = NAME(__VA_ARGS__ s + 3, peer);                                                                            \
    });                                                                                                                \
    check(d[0] == val<T>(peer, 3), #NAME);                                                                             \
  }

// AMOs: the word at buf_b starts at 10 on every PE; one thread updates peer's; r (buf_a) receives the fetched value.
#define CASE_AMO(T, NAME, CALL, WANT_R, WANT_W)                                                                        \
  {                                                                                                                    \
    clear();                                                                                                           \
    T* w = reinterpret_cast<T*>(buf_b);                                                                                \
    T* r = reinterpret_cast<T*>(buf_a);                                                                                \
    *w = T(10);                                                                                                        \
    run<G_thread>([=] {                                                                                                \
      const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;                                                                 \
      (void)ctx;                                                                                                       \
      CALL;                                                                                                            \
    });                                                                                                                \
    check(*r == T(WANT_R) && *w == T(WANT_W), #NAME);                                                                  \
  }
#define CASE_AMO_FETCH(T, NAME, ...) CASE_AMO(T, NAME, *r = NAME(__VA_ARGS__ w, peer), 10, 10)
#define CASE_AMO_SET(T, NAME, ...) CASE_AMO(T, NAME, NAME(__VA_ARGS__ w, T(42), peer), 0, 42)
#define CASE_AMO_SWAP(T, NAME, ...) CASE_AMO(T, NAME, *r = NAME(__VA_ARGS__ w, T(42), peer), 10, 42)
#define CASE_AMO_CSWAP(T, NAME, ...) CASE_AMO(T, NAME, *r = NAME(__VA_ARGS__ w, T(10), T(42), peer), 10, 42)
#define CASE_AMO_FINC(T, NAME, ...) CASE_AMO(T, NAME, *r = NAME(__VA_ARGS__ w, peer), 10, 11)
#define CASE_AMO_INC(T, NAME, ...) CASE_AMO(T, NAME, NAME(__VA_ARGS__ w, peer), 0, 11)
#define CASE_AMO_FADD(T, NAME, ...) CASE_AMO(T, NAME, *r = NAME(__VA_ARGS__ w, T(5), peer), 10, 15)
#define CASE_AMO_ADD(T, NAME, ...) CASE_AMO(T, NAME, NAME(__VA_ARGS__ w, T(5), peer), 0, 15)
#define CASE_AMO_FAND(T, NAME, ...) CASE_AMO(T, NAME, *r = NAME(__VA_ARGS__ w, T(6), peer), 10, 2)
#define CASE_AMO_AND(T, NAME, ...) CASE_AMO(T, NAME, NAME(__VA_ARGS__ w, T(6), peer), 0, 2)
#define CASE_AMO_FOR(T, NAME, ...) CASE_AMO(T, NAME, *r = NAME(__VA_ARGS__ w, T(6), peer), 10, 14)
#define CASE_AMO_OR(T, NAME, ...) CASE_AMO(T, NAME, NAME(__VA_ARGS__ w, T(6), peer), 0, 14)
#define CASE_AMO_FXOR(T, NAME, ...) CASE_AMO(T, NAME, *r = NAME(__VA_ARGS__ w, T(6), peer), 10, 12)
#define CASE_AMO_XOR(T, NAME, ...) CASE_AMO(T, NAME, NAME(__VA_ARGS__ w, T(6), peer), 0, 12)

// Put-with-signal: kN elements to peer and sig (starting at 1) + 6 there; checked here, where from's arrived.
#define CASE_PUT_SIGNAL(T, NBI, GRP, NAME, ...)                                                                        \
  {                                                                                                                    \
    clear();                                                                                                           \
    *sig = 1;                                                                                                          \
    T* s = reinterpret_cast<T*>(buf_a);                                                                                \
    T* d = reinterpret_cast<T*>(buf_b);                                                                                \
    fill(s, kN, me);                                                                                                   \
    std::uint64_t* g = sig;                                                                                            \
    run<G##GRP>([=] {                                                                                                  \
      const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;                                                                 \
      (void)ctx;                                                                                                       \
      NAME(__VA_ARGS__ d, s, kN, g, 6, ROCSHMEM_SIGNAL_ADD, peer);                                                     \
      rocshmem_quiet();                                                                                                \
    });                                                                                                                \
    check(holds(d, kN, from) && *sig == 7, #NAME);                                                                     \
  }
#define CASE_PUTMEM_SIGNAL(NBI, GRP, NAME, ...) CASE_PUT_SIGNAL(unsigned_char, NBI, GRP, NAME, __VA_ARGS__)

#define CASE_SIGNAL_FETCH(GRP, NAME)                                                                                   \
  {                                                                                                                    \
    clear();                                                                                                           \
    *sig = 99 + std::uint64_t(me);                                                                                     \
    std::uint64_t* g = sig;                                                                                            \
    std::uint64_t* r = reinterpret_cast<std::uint64_t*>(buf_a);                                                        \
    run<G##GRP>([=] {                                                                                                  \
      const std::uint64_t v = NAME(g);                                                                                 \
      if (threadIdx.x == 0) *r = v;                                                                                    \
    });                                                                                                                \
    check(*r == 99 + std::uint64_t(me), #NAME);                                                                        \
  }
#define CASE_SIGNAL_OP(NAME, WANT, ...)                                                                                \
  {                                                                                                                    \
    clear();                                                                                                           \
    *sig = 1;                                                                                                          \
    std::uint64_t* g = sig;                                                                                            \
    run<G_thread>([=] {                                                                                                \
      const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;                                                                 \
      (void)ctx;                                                                                                       \
      NAME(__VA_ARGS__ g, 5, peer);                                                                                    \
    });                                                                                                                \
    check(*sig == (WANT), #NAME);                                                                                      \
  }
#define CASE_SIGNAL_SET(NAME, ...) CASE_SIGNAL_OP(NAME, 5, __VA_ARGS__)
#define CASE_SIGNAL_ADD(NAME, ...) CASE_SIGNAL_OP(NAME, 6, __VA_ARGS__)

// Waits: one thread sets peer's variable(s) to 3 (portshmem's own p, so only the wait is under test), then waits for
// from's to arrive here; done (buf_a) records that the wait returned, and what it returned.
#define CASE_WAIT(T, NAME, SET, WAIT, CHECK)                                                                           \
  {                                                                                                                    \
    clear();                                                                                                           \
    using value_type = T;                                                                                              \
    T* v = reinterpret_cast<T*>(buf_b);                                                                                \
    long* done = reinterpret_cast<long*>(buf_a);                                                                       \
    std::size_t* idx = reinterpret_cast<std::size_t*>(buf_a + 64);                                                     \
    (void)idx;                                                                                                         \
    run<G_thread>([=] {                                                                                                \
      const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;                                                                 \
      (void)ctx;                                                                                                       \
      SET;                                                                                                             \
      WAIT;                                                                                                            \
    });                                                                                                                \
    check(CHECK, #NAME);                                                                                               \
  }
#define SET_ONE(i) portshmem::p(ROCSHMEM_CTX_DEFAULT, v + (i), value_type(3), peer)
#define CASE_WAIT_UNTIL(T, NAME, ...)                                                                                  \
  CASE_WAIT(T, NAME, SET_ONE(0), (NAME(__VA_ARGS__ v, ROCSHMEM_CMP_EQ, T(3)), *done = 1), *done == 1 && v[0] == T(3))
#define CASE_WAIT_ALL(T, NAME, ...)                                                                                    \
  CASE_WAIT(T, NAME, (SET_ONE(0), SET_ONE(1), SET_ONE(2), SET_ONE(3)),                                                 \
            (NAME(__VA_ARGS__ v, 4, nullptr, ROCSHMEM_CMP_EQ, T(3)), *done = 1), *done == 1 && v[3] == T(3))
#define CASE_WAIT_ANY(T, NAME, ...)                                                                                    \
  CASE_WAIT(T, NAME, SET_ONE(2), *done = long(NAME(__VA_ARGS__ v, 4, nullptr, ROCSHMEM_CMP_EQ, T(3))), *done == 2)
#define CASE_WAIT_SOME(T, NAME, ...)                                                                                   \
  CASE_WAIT(T, NAME, (SET_ONE(1), SET_ONE(3)),                                                                         \
            *done = long(NAME(__VA_ARGS__ v, 4, idx, nullptr, ROCSHMEM_CMP_EQ, T(3))),                                 \
            *done >= 1 && *done <= 2 && (idx[0] == 1 || idx[0] == 3))
// test: true once from's value is here (the first launch waits for it with portshmem's wait), false for another value.
#define CASE_TEST(T, NAME, ...)                                                                                        \
  CASE_WAIT(T, NAME, SET_ONE(0),                                                                                       \
            (portshmem::wait_until(ROCSHMEM_CTX_DEFAULT, v, portshmem::cmp::eq, T(3)),                                 \
             *done = NAME(__VA_ARGS__ v, ROCSHMEM_CMP_EQ, T(3)) * 10 + NAME(__VA_ARGS__ v, ROCSHMEM_CMP_EQ, T(4))),    \
            *done == 10)

// Array tests: one thread sets peer's v[i] = 3 + i (i < 4), waits (portshmem's own wait) until from's have arrived
// here, then calls the test twice: once with compare values that hold and once with values that do not (or for _any
// and _some, that hold for some elements only). The _vector forms read their compare values from w (buf_a + 256).
#define SET_FOUR                                                                                                       \
  for (int i = 0; i < 4; ++i) portshmem::p(ROCSHMEM_CTX_DEFAULT, v + i, value_type(3 + i), peer);                      \
  for (int i = 0; i < 4; ++i) portshmem::wait_until(ROCSHMEM_CTX_DEFAULT, v + i, portshmem::cmp::eq, value_type(3 + i))
#define CASE_TESTS(T, NAME, W0, W1, W2, W3, CHECK, ...)                                                                \
  {                                                                                                                    \
    clear();                                                                                                           \
    using value_type = T;                                                                                              \
    T* v = reinterpret_cast<T*>(buf_b);                                                                                \
    long* done = reinterpret_cast<long*>(buf_a);                                                                       \
    std::size_t* idx = reinterpret_cast<std::size_t*>(buf_a + 64);                                                     \
    T* w = reinterpret_cast<T*>(buf_a + 256);                                                                          \
    w[0] = T(W0), w[1] = T(W1), w[2] = T(W2), w[3] = T(W3);                                                            \
    (void)idx;                                                                                                         \
    (void)w;                                                                                                           \
    run<G_thread>([=] {                                                                                                \
      const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;                                                                 \
      (void)ctx;                                                                                                       \
      SET_FOUR;                                                                                                        \
      __VA_ARGS__;                                                                                                     \
    });                                                                                                                \
    check(CHECK, #NAME);                                                                                               \
  }
// Scalar forms: all (v[i] >= 3 holds for every i; v[i] == 3 only for i = 0); any (== 5: index 2); some (> 4: 2 and 3).
#define CASE_TEST_ALL_S(T, NAME, ...)                                                                                  \
  CASE_TESTS(T, NAME, 0, 0, 0, 0, *done == 10,                                                                         \
             *done = NAME(__VA_ARGS__ v, 4, nullptr, ROCSHMEM_CMP_GE, T(3)) * 10 +                                     \
                     NAME(__VA_ARGS__ v, 4, nullptr, ROCSHMEM_CMP_EQ, T(3)))
#define CASE_TEST_ANY_S(T, NAME, ...)                                                                                  \
  CASE_TESTS(T, NAME, 0, 0, 0, 0, *done == 2 && idx[0] == SIZE_MAX,                                                    \
             *done = long(NAME(__VA_ARGS__ v, 4, nullptr, ROCSHMEM_CMP_EQ, T(5)));                                     \
             idx[0] = NAME(__VA_ARGS__ v, 4, nullptr, ROCSHMEM_CMP_EQ, T(9)))
#define CASE_TEST_SOME_S(T, NAME, ...)                                                                                 \
  CASE_TESTS(T, NAME, 0, 0, 0, 0, *done == 2 && idx[0] == 2 && idx[1] == 3,                                            \
             *done = long(NAME(__VA_ARGS__ v, 4, idx, nullptr, ROCSHMEM_CMP_GT, T(4))))
// _vector forms: w = {3, 4, 5, 7}: eq holds for 0, 1, 2; le for all; the status array excludes element 3 in one call.
#define CASE_TEST_ALL_V(T, NAME, ...)                                                                                  \
  CASE_TESTS(T, NAME, 3, 4, 5, 7, *done == 110, const int status[4] = {0, 0, 0, 1};                                    \
             *done = NAME(__VA_ARGS__ v, 4, nullptr, ROCSHMEM_CMP_LE, w) * 100 +                                       \
                     NAME(__VA_ARGS__ v, 4, status, ROCSHMEM_CMP_EQ, w) * 10 +                                         \
                     NAME(__VA_ARGS__ v, 4, nullptr, ROCSHMEM_CMP_EQ, w))
#define CASE_TEST_ANY_V(T, NAME, ...)                                                                                  \
  CASE_TESTS(T, NAME, 9, 9, 5, 9, *done == 2 && idx[0] == SIZE_MAX, const int status[4] = {0, 0, 1, 0};                \
             *done = long(NAME(__VA_ARGS__ v, 4, nullptr, ROCSHMEM_CMP_EQ, w));                                        \
             idx[0] = NAME(__VA_ARGS__ v, 4, status, ROCSHMEM_CMP_EQ, w))
#define CASE_TEST_SOME_V(T, NAME, ...)                                                                                 \
  CASE_TESTS(T, NAME, 9, 4, 9, 6, *done == 2 && idx[0] == 1 && idx[1] == 3,                                            \
             *done = long(NAME(__VA_ARGS__ v, 4, idx, nullptr, ROCSHMEM_CMP_EQ, w)))

// Collectives on ROCSHMEM_TEAM_WORLD, by the block.
#define CASE_BROADCAST(T, NAME, ...)                                                                                   \
  {                                                                                                                    \
    clear();                                                                                                           \
    T* s = reinterpret_cast<T*>(buf_a);                                                                                \
    T* d = reinterpret_cast<T*>(buf_b);                                                                                \
    fill(s, kN, me + 20);                                                                                              \
    const int root = 1 % npes;                                                                                         \
    rocshmem_team_t team = ROCSHMEM_TEAM_WORLD;                                                                        \
    run<G_wg>([=] {                                                                                                    \
      const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;                                                                 \
      (void)ctx;                                                                                                       \
      NAME(__VA_ARGS__ team, d, s, int(kN), root);                                                                     \
    });                                                                                                                \
    check(holds(d, kN, root + 20), #NAME);                                                                             \
  }
#define CASE_ALLTOALL(T, NAME, ...)                                                                                    \
  {                                                                                                                    \
    clear();                                                                                                           \
    T* s = reinterpret_cast<T*>(buf_a);                                                                                \
    T* d = reinterpret_cast<T*>(buf_b);                                                                                \
    for (int j = 0; j < npes; ++j) fill(s + j * kN, kN, me * npes + j);                                                \
    rocshmem_team_t team = ROCSHMEM_TEAM_WORLD;                                                                        \
    run<G_wg>([=] {                                                                                                    \
      const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;                                                                 \
      (void)ctx;                                                                                                       \
      NAME(__VA_ARGS__ team, d, s, int(kN));                                                                           \
    });                                                                                                                \
    bool ok = true;                                                                                                    \
    for (int i = 0; i < npes; ++i) ok = ok && holds(d + i * kN, kN, i * npes + me);                                    \
    check(ok, #NAME);                                                                                                  \
  }
#define CASE_FCOLLECT(T, NAME, ...)                                                                                    \
  {                                                                                                                    \
    clear();                                                                                                           \
    T* s = reinterpret_cast<T*>(buf_a);                                                                                \
    T* d = reinterpret_cast<T*>(buf_b);                                                                                \
    fill(s, kN, me + 30);                                                                                              \
    rocshmem_team_t team = ROCSHMEM_TEAM_WORLD;                                                                        \
    run<G_wg>([=] {                                                                                                    \
      const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;                                                                 \
      (void)ctx;                                                                                                       \
      NAME(__VA_ARGS__ team, d, s, int(kN));                                                                           \
    });                                                                                                                \
    bool ok = true;                                                                                                    \
    for (int i = 0; i < npes; ++i) ok = ok && holds(d + i * kN, kN, i + 30);                                           \
    check(ok, #NAME);                                                                                                  \
  }
// Reductions (scatter false) and reduce-scatters (true) on ROCSHMEM_TEAM_WORLD by the block, on reduce_input
// (compat_cases.hpp); the name returns 0 and dest holds the reduction (reduce-scatter: of block me).
#define CASE_REDUCTIONS(T, OP, NAME, SCATTER, ...)                                                                     \
  {                                                                                                                    \
    clear();                                                                                                           \
    T* s = reinterpret_cast<T*>(buf_a);                                                                                \
    T* d = reinterpret_cast<T*>(buf_b);                                                                                \
    reduce_input(s, kN, me, npes, SCATTER);                                                                            \
    rocshmem_team_t team = ROCSHMEM_TEAM_WORLD;                                                                        \
    int* rc = reinterpret_cast<int*>(buf_a + 4096);                                                                    \
    *rc = -1;                                                                                                          \
    run<G_wg>([=] {                                                                                                    \
      const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;                                                                 \
      (void)ctx;                                                                                                       \
      const int r = NAME(__VA_ARGS__ team, d, s, int(kN));                                                             \
      if (threadIdx.x == 0) *rc = r;                                                                                   \
    });                                                                                                                \
    check(*rc == 0 && reduced(#OP, d, kN, me, npes, SCATTER), #NAME);                                                  \
  }
#define CASE_REDUCE(T, OP, NAME, ...) CASE_REDUCTIONS(T, OP, NAME, false, __VA_ARGS__)
#define CASE_REDUCE_SCATTER(T, OP, NAME, ...) CASE_REDUCTIONS(T, OP, NAME, true, __VA_ARGS__)

void typed_names(){
#include "names_cases.inc"
}

// The hand-written names: queries, contexts, fences, barriers, teams.
__global__ void basics_kernel(int* out, rocshmem_team_t team, rocshmem_team_t pair) {
  __shared__ rocshmem_ctx_t ctx;
  rocshmem_wg_init();
  int provided = -1;
  rocshmem_wg_init_thread(ROCSHMEM_THREAD_MULTIPLE, &provided);
  rocshmem_wg_ctx_create(ROCSHMEM_CTX_WG_PRIVATE, &ctx);
  if (threadIdx.x == 0) {
    out[0] = rocshmem_my_pe();
    out[1] = rocshmem_n_pes();
    out[2] = rocshmem_ctx_my_pe(ctx);
    out[3] = rocshmem_ctx_n_pes(ctx);
    out[4] = rocshmem_team_my_pe(team);
    out[5] = rocshmem_team_n_pes(team);
    out[6] = rocshmem_team_translate_pe(team, rocshmem_my_pe(), pair);
    out[7] = provided;
    int* peer_out = static_cast<int*>(rocshmem_ptr(out, (rocshmem_my_pe() + 1) % rocshmem_n_pes()));
    out[8] = peer_out != nullptr;
    // fence orders the two puts to the next PE; quiet completes them before the barrier below.
    rocshmem_ctx_int_p(ctx, out + 9, 100 + rocshmem_my_pe(), (rocshmem_my_pe() + 1) % rocshmem_n_pes());
    rocshmem_ctx_fence(ctx);
    rocshmem_fence();
    rocshmem_ctx_fence(ctx, 0);
    rocshmem_fence(0);
    rocshmem_int_p(out + 10, 200 + rocshmem_my_pe(), (rocshmem_my_pe() + 1) % rocshmem_n_pes());
    rocshmem_ctx_quiet(ctx);
    rocshmem_quiet();
  }
  rocshmem_ctx_wg_barrier_all(ctx);
  rocshmem_wg_barrier_all();
  // After the barriers every PE's puts have arrived: check them on the device too.
  if (threadIdx.x == 0) {
    const int left = (rocshmem_my_pe() + rocshmem_n_pes() - 1) % rocshmem_n_pes();
    out[11] = out[9] == 100 + left && out[10] == 200 + left;
  }
  rocshmem_ctx_wg_sync_all(ctx);
  rocshmem_wg_sync_all();
  rocshmem_ctx_wg_team_sync(ctx, team);
  rocshmem_wg_team_sync(team);
  if (threadIdx.x == 0) rocshmem_barrier(team);
  rocshmem_wg_ctx_destroy(&ctx);
  rocshmem_wg_finalize();
}

// Floating-point waits compare floating values, not the integers of their bits: -1.0 < 0.0 (its bits are the larger
// unsigned integer), -0.0 == 0.0 (different bits), a NaN is unequal to everything, itself included, and unordered.
// f = {-1, -0, NaN}, d likewise; out[i] for i < 16 records test results, then the waits' (which would not return
// if they compared bits: PORTSHMEM_TIMEOUT ends the test).
template <class T, class Test, class Wait, class WaitAny>
__device__ void float_cases(T* f, int* out, Test test, Wait wait, WaitAny wait_any) {
  const T nan = f[2];
  out[0] = test(f, ROCSHMEM_CMP_LT, T(0));
  out[1] = test(f, ROCSHMEM_CMP_GT, T(0));
  out[2] = test(f + 1, ROCSHMEM_CMP_EQ, T(0));
  out[3] = test(f + 1, ROCSHMEM_CMP_LT, T(0));
  out[4] = test(f + 2, ROCSHMEM_CMP_EQ, nan);
  out[5] = test(f + 2, ROCSHMEM_CMP_NE, nan);
  out[6] = test(f + 2, ROCSHMEM_CMP_LE, T(1e30));
  out[7] = test(f + 2, ROCSHMEM_CMP_GE, T(-1e30));
  wait(f, ROCSHMEM_CMP_LT, T(0));
  wait(f + 1, ROCSHMEM_CMP_EQ, T(0));
  wait(f + 2, ROCSHMEM_CMP_NE, T(0));
  out[8] = int(wait_any(f, 3, nullptr, ROCSHMEM_CMP_GE, T(0))); // -0.0 >= 0.0: index 1
}
__global__ void float_waits_kernel(float* f, double* d, int* out) {
  if (threadIdx.x != 0) return;
  float_cases(f, out, rocshmem_float_test, rocshmem_float_wait_until, rocshmem_float_wait_until_any);
  float_cases(d, out + 10, rocshmem_double_test, rocshmem_double_wait_until, rocshmem_double_wait_until_any);
}

void float_waits() {
  clear();
  float* f = reinterpret_cast<float*>(buf_b);
  double* d = reinterpret_cast<double*>(buf_b + 64);
  int* out = reinterpret_cast<int*>(buf_a);
  f[0] = -1.0f, f[1] = -0.0f, f[2] = std::numeric_limits<float>::quiet_NaN();
  d[0] = -1.0, d[1] = -0.0, d[2] = std::numeric_limits<double>::quiet_NaN();
  for (int i = 0; i < 20; ++i) out[i] = -1;
  hipLaunchKernelGGL(float_waits_kernel, dim3(1), dim3(1), 0, 0, f, d, out);
  (void)hipDeviceSynchronize();
  const int want[9] = {1, 0, 1, 0, 0, 1, 0, 0, 1};
  bool ok_f = true, ok_d = true;
  for (int i = 0; i < 9; ++i) {
    ok_f = ok_f && out[i] == want[i];
    ok_d = ok_d && out[10 + i] == want[i];
  }
  check(ok_f, "rocshmem_float_test/wait_until/wait_until_any: floating comparison (-0.0, NaN, sign)");
  check(ok_d, "rocshmem_double_test/wait_until/wait_until_any: floating comparison (-0.0, NaN, sign)");
}

// alltoallv: every name from one kernel, a switch on the case's number (one kernel for the family, not one per
// name). Team member i sends count(i, j) elements to member j from source + source_displs[j]; member j places them at
// dest + dest_displs[i]. A gap precedes every block (it must stay clear) and the blocks differ in size.
constexpr int kMaxPes = 8;
struct alltoallv_args {
  size_t dest_nelems[kMaxPes], dest_displs[kMaxPes], source_nelems[kMaxPes], source_displs[kMaxPes];
};
#define CASE_ALLTOALLV(K, T, NAME)                                                                                     \
  case K:                                                                                                              \
    NAME(team, static_cast<T*>(dest), a->dest_nelems, a->dest_displs, static_cast<T*>(source), a->source_nelems,       \
         a->source_displs);                                                                                            \
    break;
__global__ void alltoallv_kernel(int which, rocshmem_team_t team, void* dest, void* source, const alltoallv_args* a) {
  switch (which) {
#include "alltoallv_cases.inc"
  default:
    break;
  }
}
#undef CASE_ALLTOALLV

int alltoallv_count(int from, int to) {
  return (from + 2 * to) % 3 + 1;
}
template <class T>
T alltoallv_val(int from, int to, int e) {
  const int v = (from * 31 + to * 7 + e) % 100 + 1;
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half(float(v));
  } else if constexpr (std::is_same_v<T, __hip_bfloat16>) {
    return __float2bfloat16(float(v));
  } else {
    return T(v);
  }
}
/// Case which on team (this PE member t of n), checked here.
template <class T>
void alltoallv_case(int which, const char* name, rocshmem_team_t team, int t, int n) {
  clear();
  T* source = reinterpret_cast<T*>(buf_a);
  T* dest = reinterpret_cast<T*>(buf_b);
  auto* a = reinterpret_cast<alltoallv_args*>(buf_a + 4096);
  T want[512] = {};
  std::size_t s_end = 0, d_end = 0;
  for (int j = 0; j < n; ++j) {
    a->source_displs[j] = ++s_end;
    a->source_nelems[j] = std::size_t(alltoallv_count(t, j));
    for (int e = 0; e < alltoallv_count(t, j); ++e) source[s_end++] = alltoallv_val<T>(t, j, e);
    d_end += 2;
    a->dest_displs[j] = d_end;
    a->dest_nelems[j] = std::size_t(alltoallv_count(j, t));
    for (int e = 0; e < alltoallv_count(j, t); ++e) want[d_end++] = alltoallv_val<T>(j, t, e);
  }
  rocshmem_team_sync(team); // every member's buffers are ready
  hipLaunchKernelGGL(alltoallv_kernel, dim3(1), dim3(kThreads), 0, 0, which, team, static_cast<void*>(dest),
                     static_cast<void*>(source), static_cast<const alltoallv_args*>(a));
  (void)hipDeviceSynchronize();
  bool ok = true;
  for (std::size_t i = 0; i < d_end + 4; ++i) ok = ok && std::memcmp(&dest[i], &want[i], sizeof(T)) == 0;
  check(ok, name);
}
#define CASE_ALLTOALLV(K, T, NAME) alltoallv_case<T>(K, #NAME, ROCSHMEM_TEAM_WORLD, me, npes);
/// Every alltoallv name on the world, then one on the team of PEs 1, 2, ... (member j is PE j + 1).
void alltoallv_names() {
  if (npes > kMaxPes) return;
#include "alltoallv_cases.inc"
  rocshmem_barrier_all();
  rocshmem_team_t rest = ROCSHMEM_TEAM_INVALID;
  check(rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 1, 1, npes - 1, nullptr, 0, &rest) == 0,
        "rocshmem_team_split_strided (PEs 1..)");
  if (rest != ROCSHMEM_TEAM_INVALID) {
    alltoallv_case<int>(5, "rocshmem_int_alltoallv_wg (team of PEs 1..)", rest, me - 1, npes - 1);
  }
  rocshmem_barrier_all();
  rocshmem_team_destroy(rest);
}
#undef CASE_ALLTOALLV

void hand_written_names() {
  clear();
  int* out = reinterpret_cast<int*>(buf_b);
  // pair: PEs 0 and 1 (as team indices 0 and 1), split from the world; the others get ROCSHMEM_TEAM_INVALID.
  rocshmem_team_t pair = ROCSHMEM_TEAM_INVALID;
  const rocshmem_team_config_t config{1};
  check(rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 0, 1, 2, &config, ROCSHMEM_TEAM_NUM_CONTEXTS, &pair) == 0,
        "rocshmem_team_split_strided");
  check((pair != ROCSHMEM_TEAM_INVALID) == (me < 2), "rocshmem_team_split_strided membership");
  check(rocshmem_team_my_pe(ROCSHMEM_TEAM_WORLD) == me && rocshmem_team_n_pes(ROCSHMEM_TEAM_WORLD) == npes,
        "rocshmem_team_my_pe/n_pes (host)");
  check(rocshmem_team_translate_pe(ROCSHMEM_TEAM_WORLD, 1, pair) == (pair ? 1 : -1),
        "rocshmem_team_translate_pe (host)");
  rocshmem_barrier_all();
  // Chevron syntax: the build's copy of this file turns it into the host launcher's call.
  basics_kernel<<<dim3(1), dim3(kThreads), 0, 0>>>(out, ROCSHMEM_TEAM_WORLD, pair);
  rocshmem_barrier_all();
  check(out[0] == me && out[1] == npes && out[2] == me && out[3] == npes, "rocshmem_my_pe/n_pes (device)");
  check(out[4] == me && out[5] == npes, "rocshmem_team_my_pe/n_pes (device)");
  check(out[6] == (pair ? me : -1), "rocshmem_team_translate_pe (device)");
  check(out[7] == ROCSHMEM_THREAD_MULTIPLE, "rocshmem_wg_init_thread");
  check(out[8] == 1, "rocshmem_ptr (device)");
  check(out[11] == 1, "rocshmem_ctx_fence/quiet + wg_barrier_all");
  check(rocshmem_ptr(out, peer) != nullptr, "rocshmem_ptr (host)");
  rocshmem_team_destroy(pair);
  rocshmem_sync_all();
  int provided = -1;
  rocshmem_query_thread(&provided);
  check(provided == ROCSHMEM_THREAD_MULTIPLE, "rocshmem_query_thread");
}

} // namespace

int main() {
  // Before init the rank comes from the launcher (portshmem-run is mpirun: OMPI_COMM_WORLD_RANK).
  const int early_pe = rocshmem_my_pe(), early_n = rocshmem_n_pes();
  int provided = -1;
  rocshmem_init_thread(ROCSHMEM_THREAD_MULTIPLE, &provided);
  me = rocshmem_my_pe();
  npes = rocshmem_n_pes();
  peer = (me + 1) % npes;
  from = (me + npes - 1) % npes;
  check(early_pe == me && early_n == npes, "rocshmem_my_pe/n_pes before init");
  check(provided == ROCSHMEM_THREAD_MULTIPLE, "rocshmem_init_thread");
  buf_a = static_cast<char*>(rocshmem_malloc(kBytes));
  buf_b = static_cast<char*>(rocshmem_malloc(kBytes));
  sig = static_cast<std::uint64_t*>(rocshmem_malloc(sizeof(std::uint64_t)));
  check(buf_a && buf_b && sig, "rocshmem_malloc");
  if (!buf_a || !buf_b || !sig) rocshmem_global_exit(1);
  hand_written_names();
  float_waits();
  typed_names();
  alltoallv_names();
  rocshmem_free(sig);
  rocshmem_free(buf_b);
  rocshmem_free(buf_a);
  std::printf("PE %d: %d of %d checks passed\n", me, cases - failures, cases);
  rocshmem_finalize();
  return failures == 0 ? 0 : 1;
}
