// Ordering and synchronization: fence and quiet order data before a flag, barriers separate phases, wait_until and
// test compare as documented, and ptr gives a working load/store path. Every PE sends to the next and receives from
// the previous, so each ring link is exercised at once.
#include "mp_test.hpp"

namespace {

constexpr std::size_t kWords = 512;
constexpr int kRounds = PORTSHMEM_PLATFORM_HOST ? 200 : 2000;

enum class publish { fence, quiet, nbi_quiet, block_fence };

/// Round k: data buffer (k % n) of the next PE gets k in every word, then — after fence or quiet — the next PE's flag
/// gets k. The receiver waits for its flag to reach k and counts words of its buffer (k % n) that are not k. n buffers
/// because a PE can run up to n - 1 rounds ahead of its successor around the ring: the previous PE sends round k + n
/// only after this PE has sent round k + 1, which it does after checking round k.
template <publish P>
PORTSHMEM_GLOBAL void message_passing(portshmem::ctx c, long* data, long* flag, long* src, unsigned long long* stale) {
  const int me = portshmem::my_pe(c), n = portshmem::n_pes(c), next = (me + 1) % n;
  const unsigned t = portshmem::arch::thread_rank(), threads = portshmem::arch::block_threads();
  for (long k = 1; k <= kRounds; ++k) {
    long* buf = data + (k % n) * kWords;
    for (std::size_t i = t; i < kWords; i += threads) src[(k % 2) * kWords + i] = k;
    portshmem::arch::block_sync();
    const long* from = src + (k % 2) * kWords;
    if (P == publish::block_fence) {
      portshmem::put_block(c, buf, from, kWords, next);
    } else if (t == 0) {
      P == publish::nbi_quiet ? portshmem::put_nbi(c, buf, from, kWords, next)
                              : portshmem::put(c, buf, from, kWords, next);
    }
    if (t == 0) {
      P == publish::fence || P == publish::block_fence ? portshmem::fence(c) : portshmem::quiet(c);
      portshmem::p(c, flag, k, next);
      portshmem::wait_until(c, flag, portshmem::cmp::ge, k);
    }
    portshmem::arch::block_sync();
    for (std::size_t i = t; i < kWords; i += threads) {
      if (buf[i] != k)
        portshmem::arch::fetch_add<portshmem::arch::order::relaxed, portshmem::arch::scope::device>(stale, 1ull);
    }
    portshmem::arch::block_sync();
  }
}

template <publish P>
void check_message_passing() {
  long* data = mp::sym_alloc<long>(mp::npes() * kWords);
  long* flag = static_cast<long*>(portshmem_calloc(1, sizeof(long)));
  long* src = mp::private_alloc<long>(2 * kWords);
  unsigned long long* stale = mp::private_alloc<unsigned long long>(1);
  mp::to_device(stale, std::vector<unsigned long long>{0});
  mp::to_device(data, std::vector<long>(mp::npes() * kWords, 0));
  mp::barrier();
  mp::run(message_passing<P>, dim3(1), dim3(mp::kBlockThreads), mp::context(), data, flag, src, stale);
  EXPECT_EQ(mp::to_host(stale, 1)[0], 0u) << "words seen stale after the flag";
  EXPECT_EQ(mp::to_host(flag, 1)[0], long(kRounds));
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(src), hipSuccess);
  EXPECT_EQ(hipFree(stale), hipSuccess);
  EXPECT_EQ(portshmem_free(flag), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(data), PORTSHMEM_SUCCESS);
}

TEST(Sync, FenceOrdersPutBeforeFlag) {
  check_message_passing<publish::fence>();
}
TEST(Sync, QuietCompletesPutBeforeFlag) {
  check_message_passing<publish::quiet>();
}
TEST(Sync, QuietCompletesNbiPutBeforeFlag) {
  check_message_passing<publish::nbi_quiet>();
}
TEST(Sync, FenceOrdersBlockPutBeforeFlag) {
  check_message_passing<publish::block_fence>();
}

/// Round r: every PE writes r into slot (r % 2) of every other PE with p, then barrier_all (or quiet + sync_all);
/// after it, every slot (r % 2) of this PE must hold r from every PE.
template <bool UseSync>
PORTSHMEM_GLOBAL void barrier_rounds(portshmem::ctx c, int* slots, unsigned long long* stale) {
  const int me = portshmem::my_pe(c), n = portshmem::n_pes(c);
  const unsigned t = portshmem::arch::thread_rank();
  for (int r = 1; r <= kRounds / 4; ++r) {
    for (int pe = int(t); pe < n; pe += int(portshmem::arch::block_threads())) {
      portshmem::p(c, slots + (r % 2) * n + me, r, pe);
    }
    if (UseSync) {
      portshmem::quiet(c); // every thread: its own p is complete
      portshmem::sync_all_block(c);
    } else {
      portshmem::barrier_all_block(c);
    }
    for (int pe = int(t); pe < n; pe += int(portshmem::arch::block_threads())) {
      if (portshmem::arch::load<portshmem::arch::order::relaxed, portshmem::arch::scope::system>(slots + (r % 2) * n +
                                                                                                 pe) != r) {
        portshmem::arch::fetch_add<portshmem::arch::order::relaxed, portshmem::arch::scope::device>(stale, 1ull);
      }
    }
  }
}

template <bool UseSync>
void check_barrier_rounds() {
  int* slots = static_cast<int*>(portshmem_calloc(2 * mp::npes(), sizeof(int)));
  unsigned long long* stale = mp::private_alloc<unsigned long long>(1);
  mp::to_device(stale, std::vector<unsigned long long>{0});
  mp::barrier();
  mp::run(barrier_rounds<UseSync>, dim3(1), dim3(mp::kBlockThreads), mp::context(), slots, stale);
  EXPECT_EQ(mp::to_host(stale, 1)[0], 0u);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(stale), hipSuccess);
  EXPECT_EQ(portshmem_free(slots), PORTSHMEM_SUCCESS);
}

TEST(Sync, BarrierAllSeparatesRounds) {
  check_barrier_rounds<false>();
}
TEST(Sync, QuietPlusSyncAllSeparatesRounds) {
  check_barrier_rounds<true>();
}

/// wait_until returns once the comparison holds; test reports it without waiting.
PORTSHMEM_GLOBAL void compare_kernel(portshmem::ctx c, long* ivar, int* results) {
  using portshmem::cmp;
  const int me = portshmem::my_pe(c), next = (me + 1) % portshmem::n_pes(c);
  portshmem::p(c, ivar, 42L, next);
  portshmem::wait_until(c, ivar, cmp::eq, 42L);
  portshmem::wait_until(c, ivar, cmp::ne, 7L);
  portshmem::wait_until(c, ivar, cmp::gt, 41L);
  portshmem::wait_until(c, ivar, cmp::ge, 42L);
  portshmem::wait_until(c, ivar, cmp::lt, 43L);
  portshmem::wait_until(c, ivar, cmp::le, 42L);
  const cmp ops[] = {cmp::eq, cmp::ne, cmp::gt, cmp::ge, cmp::lt, cmp::le};
  const long probes[] = {41, 42, 43};
  for (int o = 0; o < 6; ++o) {
    for (int v = 0; v < 3; ++v) results[o * 3 + v] = portshmem::test(c, ivar, ops[o], probes[v]);
  }
}

TEST(Sync, WaitUntilAndTestCompare) {
  long* ivar = static_cast<long*>(portshmem_calloc(1, sizeof(long)));
  int* results = mp::private_alloc<int>(18);
  mp::barrier();
  mp::run(compare_kernel, dim3(1), dim3(1), mp::context(), ivar, results);
  const std::vector<int> got = mp::to_host(results, 18);
  // Rows eq ne gt ge lt le; columns value 41, 42, 43; the variable holds 42.
  const int want[18] = {0, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 1, 1};
  for (int i = 0; i < 18; ++i) EXPECT_EQ(got[i], want[i]) << "comparison " << i / 3 << " against " << 41 + i % 3;
  mp::barrier();
  EXPECT_EQ(hipFree(results), hipSuccess);
  EXPECT_EQ(portshmem_free(ivar), PORTSHMEM_SUCCESS);
}

/// Ordinary stores through portshmem_ptr reach the peer's symmetric memory.
PORTSHMEM_GLOBAL void store_through(int* remote, int value, std::size_t n) {
  for (std::size_t i = portshmem::arch::thread_rank(); i < n; i += portshmem::arch::block_threads()) {
    remote[i] = value + int(i);
  }
}

TEST(Sync, PtrGivesALoadStorePath) {
  constexpr std::size_t n = 1000;
  int* buf = static_cast<int*>(portshmem_calloc(n, sizeof(int)));
  int* remote = static_cast<int*>(portshmem_ptr(buf, mp::next_pe()));
  const portshmem_status_t remote_status = portshmem_last_status();
  EXPECT_EQ(portshmem_ptr(buf, mp::me()), buf);
  EXPECT_EQ(portshmem_transport(mp::me()), PORTSHMEM_TRANSPORT_SELF);
  if (!mp::everyone_has_load_store_to_next()) { // a PE the proxy serves: no pointer, and why
    if (!mp::load_store_to(mp::next_pe())) {
      EXPECT_EQ(remote, nullptr);
      EXPECT_EQ(remote_status, PORTSHMEM_ERR_UNREACHABLE);
      EXPECT_EQ(portshmem_transport(mp::next_pe()), PORTSHMEM_TRANSPORT_RDMA);
    }
    EXPECT_EQ(portshmem_free(buf), PORTSHMEM_SUCCESS);
    return;
  }
  ASSERT_NE(remote, nullptr);
  EXPECT_EQ(portshmem_transport(mp::next_pe()), mp::npes() == 1 ? PORTSHMEM_TRANSPORT_SELF : PORTSHMEM_TRANSPORT_IPC);
  mp::run(store_through, dim3(1), dim3(mp::kBlockThreads), remote, mp::me() * 10000, n);
  mp::barrier();
  const std::vector<int> got = mp::to_host(buf, n);
  int wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += got[i] != mp::prev_pe() * 10000 + int(i);
  EXPECT_EQ(wrong, 0);
  mp::barrier();
  EXPECT_EQ(portshmem_free(buf), PORTSHMEM_SUCCESS);
}

} // namespace
