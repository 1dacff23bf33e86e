// Signals: put-with-signal in every form (thread / wave / block, typed / untyped, blocking / nbi) with set and add and
// every legal qualifier combination delivers its data before its signal around a ring; add signals from every PE
// accumulate an exact count; signal_op publishes ordinary stores under coverage all; signal_fetch and
// signal_wait_until read what was written; bad calls are recorded and change nothing; the C names forward.
#include <string>
#include <type_traits>

#include "mp_test.hpp"

namespace {

namespace mm = portshmem::mm;
namespace arch = portshmem::arch;
using portshmem::cmp;

constexpr std::size_t kWords = 256;
constexpr int kRounds = PORTSHMEM_PLATFORM_HOST ? 40 : 1000;

PORTSHMEM_DEVICE void count_wrong(unsigned long long* wrong) {
  arch::fetch_add<arch::order::relaxed, arch::scope::device>(wrong, 1ull);
}

PORTSHMEM_HOST_DEVICE long word_value(long round, std::size_t i) {
  return round * 1000 + long(i);
}

// ---- the ring: round k sends buffer (k % n) and signal (k % n) to the next PE ---------------------------------------

enum class form { thread, wave, block };
constexpr bool blocking = false, nbi = true;

/// The put-with-signal of form F: typed (elements) or untyped (bytes), blocking or nbi.
template <form F, bool Nbi, bool Typed, class... Q>
PORTSHMEM_DEVICE void send(const portshmem::ctx& c, long* dest, const long* src, std::uint64_t* sig, std::uint64_t v,
                           portshmem::signal_update op, int pe) {
#define SEND(TYPED, UNTYPED)                                                                                           \
  if constexpr (Typed)                                                                                                 \
    portshmem::TYPED(c, dest, src, kWords, sig, v, op, pe, Q{}...);                                                    \
  else                                                                                                                 \
    portshmem::UNTYPED(c, dest, src, kWords * sizeof(long), sig, v, op, pe, Q{}...);
  if constexpr (F == form::thread && !Nbi) {
    SEND(put_signal, putmem_signal)
  } else if constexpr (F == form::thread) {
    SEND(put_signal_nbi, putmem_signal_nbi)
  } else if constexpr (F == form::wave && !Nbi) {
    SEND(put_signal_wave, putmem_signal_wave)
  } else if constexpr (F == form::wave) {
    SEND(put_signal_nbi_wave, putmem_signal_nbi_wave)
  } else if constexpr (!Nbi) {
    SEND(put_signal_block, putmem_signal_block)
  } else {
    SEND(put_signal_nbi_block, putmem_signal_nbi_block)
  }
#undef SEND
}

/// Round k: the issuing group of F fills a source half with round-k words and sends it to buffer (k % n) of the next
/// PE with signal (k % n): set to k, or add 1. The receiver waits for its signal (k % n) to reach k (set) or the number
/// of rounds of that slot so far (add), checks that the wait returned exactly that (nobody can be a whole lap ahead:
/// see test_sync.cpp for why n slots suffice) and that every word of the buffer is from round k. nbi sends are
/// completed by a quiet at the end of the round, before their source half is reused two rounds later.
template <form F, bool Nbi, bool Typed, portshmem::signal_update Op, class... Q>
PORTSHMEM_GLOBAL void ring_kernel(portshmem::ctx c, long* data, std::uint64_t* sigs, long* src,
                                  unsigned long long* wrong) {
  const int me = portshmem::my_pe(c), n = portshmem::n_pes(c), next = (me + 1) % n;
  const unsigned t = arch::thread_rank(), threads = arch::block_threads();
  const bool issuer = F == form::block || (F == form::wave ? t < arch::wave_size() : t == 0);
  for (long k = 1; k <= kRounds; ++k) {
    const int slot = int(k % n);
    long* buf = data + slot * kWords;
    long* from = src + (k % 2) * kWords;
    for (std::size_t i = t; i < kWords; i += threads) from[i] = word_value(k, i);
    arch::block_sync();
    if (issuer) send<F, Nbi, Typed, Q...>(c, buf, from, sigs + slot, Op == portshmem::signal_set ? k : 1, Op, next);
    if (t == 0) {
      const std::uint64_t want = Op == portshmem::signal_set ? std::uint64_t(k) : std::uint64_t((k - 1) / n + 1);
      if (portshmem::signal_wait_until(c, sigs + slot, cmp::ge, want) != want) count_wrong(wrong);
    }
    arch::block_sync();
    for (std::size_t i = t; i < kWords; i += threads) {
      if (buf[i] != word_value(k, i)) count_wrong(wrong);
    }
    if (Nbi && t == 0) portshmem::quiet(c);
    arch::block_sync();
  }
}

template <form F, bool Nbi, portshmem::signal_update Op, class Strength, class Cover, class Path>
void check_ring() {
  constexpr bool typed = std::is_same_v<Strength, mm::weak_t>; // so each strength meets both spellings
  long* data = mp::sym_alloc<long>(mp::npes() * kWords);
  auto* sigs = static_cast<std::uint64_t*>(portshmem_calloc(mp::npes(), sizeof(std::uint64_t)));
  long* src = mp::private_alloc<long>(2 * kWords);
  unsigned long long* wrong = mp::private_alloc<unsigned long long>(1);
  mp::to_device(wrong, std::vector<unsigned long long>{0});
  mp::to_device(data, std::vector<long>(mp::npes() * kWords, 0));
  mp::barrier();
  mp::run(ring_kernel<F, Nbi, typed, Op, Strength, Cover, Path>, dim3(1), dim3(mp::kBlockThreads), mp::context(), data,
          sigs, src, wrong);
  EXPECT_EQ(mp::to_host(wrong, 1)[0], 0u) << "signals seen before their data, or with an unexpected value";
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(src), hipSuccess);
  EXPECT_EQ(hipFree(wrong), hipSuccess);
  EXPECT_EQ(portshmem_free(sigs), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(data), PORTSHMEM_SUCCESS);
}

struct ring_case {
  const char* name;
  void (*check)();
};

// Every form x blocking/nbi x set/add x weak/strong x the legal (coverage, data path) pairs: keep data needs coverage
// all (a comm-covered signal cannot order data left in this GPU's caches), so (comm, keep) does not compile.
#define RING_CASE(F, NBI, OP, S, C, P)                                                                                 \
  ring_case{#F "_" #NBI "_" #OP "_" #S "_" #C "_" #P,                                                                  \
            &check_ring<form::F, NBI, portshmem::OP, mm::S##_t, mm::C##_t, mm::P##_t>},
#define RING_PATHS(F, NBI, OP, S)                                                                                      \
  RING_CASE(F, NBI, OP, S, all, bypass) RING_CASE(F, NBI, OP, S, comm, bypass) RING_CASE(F, NBI, OP, S, all, keep)
#define RING_STRENGTHS(F, NBI, OP) RING_PATHS(F, NBI, OP, weak) RING_PATHS(F, NBI, OP, strong)
#define RING_OPS(F, NBI) RING_STRENGTHS(F, NBI, signal_set) RING_STRENGTHS(F, NBI, signal_add)
#define RING_FORMS(F) RING_OPS(F, blocking) RING_OPS(F, nbi)
const ring_case kRingCases[] = {RING_FORMS(thread) RING_FORMS(wave) RING_FORMS(block)};
#undef RING_FORMS
#undef RING_OPS
#undef RING_STRENGTHS
#undef RING_PATHS
#undef RING_CASE

class PutSignalRing : public ::testing::TestWithParam<ring_case> {};

TEST_P(PutSignalRing, DataArrivesBeforeItsSignal) {
  GetParam().check();
}

INSTANTIATE_TEST_SUITE_P(Signal, PutSignalRing, ::testing::ValuesIn(kRingCases),
                         [](const ::testing::TestParamInfo<ring_case>& p) { return std::string(p.param.name); });

// ---- add signals from every PE to one PE: the count is exact, and it implies every chunk ---------------------------

constexpr int kAddRounds = PORTSHMEM_PLATFORM_HOST ? 16 : 200;
constexpr std::size_t kChunk = 64;

/// Every PE sends kAddRounds chunks (each to its own slot of PE 0's data) with put_signal_nbi and a weak add of 1 to
/// PE 0's counter — PE p by form p % 3. PE 0 waits for the full count: each add follows its own chunk, so then every
/// chunk has arrived (SIGNAL_ADD+nbi/weak/count), although no single add says anything about the others.
PORTSHMEM_GLOBAL void add_kernel(portshmem::ctx c, long* data, std::uint64_t* counter, const long* src,
                                 std::uint64_t* seen) {
  const int me = portshmem::my_pe(c), n = portshmem::n_pes(c);
  const unsigned t = arch::thread_rank();
  for (int r = 0; r < kAddRounds; ++r) {
    long* dest = data + (std::size_t(me) * kAddRounds + r) * kChunk;
    const long* from = src + std::size_t(r) * kChunk;
    switch (me % 3) {
    case 0:
      if (t == 0) portshmem::put_signal_nbi(c, dest, from, kChunk, counter, 1, portshmem::signal_add, 0);
      break;
    case 1:
      if (t < arch::wave_size()) {
        portshmem::putmem_signal_nbi_wave(c, dest, from, kChunk * sizeof(long), counter, 1, portshmem::signal_add, 0,
                                          mm::comm);
      }
      break;
    default:
      portshmem::put_signal_nbi_block(c, dest, from, kChunk, counter, 1, portshmem::signal_add, 0);
      break;
    }
  }
  if (t == 0) {
    portshmem::quiet(c);
    if (me == 0) {
      seen[0] = portshmem::signal_wait_until(c, counter, cmp::eq, std::uint64_t(n) * kAddRounds);
      seen[1] = portshmem::signal_fetch(c, counter);
    }
  }
  arch::block_sync();
}

TEST(Signal, AddFromEveryPeAccumulatesAnExactCount) {
  const std::size_t per_pe = std::size_t(kAddRounds) * kChunk;
  long* data = static_cast<long*>(portshmem_calloc(per_pe * mp::npes(), sizeof(long)));
  auto* counter = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  long* src = mp::private_alloc<long>(per_pe);
  std::uint64_t* seen = mp::private_alloc<std::uint64_t>(2);
  std::vector<long> mine(per_pe);
  for (std::size_t i = 0; i < per_pe; ++i) mine[i] = mp::me() * 1000000L + long(i) + 1;
  mp::to_device(src, mine);
  mp::to_device(seen, std::vector<std::uint64_t>{0, 0});
  mp::barrier();
  mp::run(add_kernel, dim3(1), dim3(mp::kBlockThreads), mp::context(), data, counter, static_cast<const long*>(src),
          seen);
  if (mp::me() == 0) {
    // Checked right after the kernel, before any barrier could have completed what the signals did not.
    const std::uint64_t total = std::uint64_t(mp::npes()) * kAddRounds;
    const std::vector<std::uint64_t> s = mp::to_host(seen, 2);
    EXPECT_EQ(s[0], total) << "signal_wait_until returns the value that satisfied it";
    EXPECT_EQ(s[1], total) << "signal_fetch reads the signal word";
    const std::vector<long> got = mp::to_host(data, per_pe * mp::npes());
    std::size_t stale = 0;
    for (int pe = 0; pe < mp::npes(); ++pe) {
      for (std::size_t i = 0; i < per_pe; ++i) stale += got[pe * per_pe + i] != pe * 1000000L + long(i) + 1;
    }
    EXPECT_EQ(stale, 0u) << "words missing although every add had arrived";
  }
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(mp::to_host(counter, 1)[0], mp::me() == 0 ? std::uint64_t(mp::npes()) * kAddRounds : 0u);
  mp::barrier();
  EXPECT_EQ(hipFree(src), hipSuccess);
  EXPECT_EQ(hipFree(seen), hipSuccess);
  EXPECT_EQ(portshmem_free(counter), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(data), PORTSHMEM_SUCCESS);
}

// ---- signal_op: ordinary stores published under coverage all; set and add; fetch ------------------------------------

/// Round k: ordinary stores of round-k words into the next PE's buffer (k % n) through portshmem::ptr, then
/// signal_op set k (coverage all publishes the stores: SIGNAL_OP+set/all). Every PE also adds me + 1 to PE 0's counter
/// each round, with coverage comm (a plain atomic update).
PORTSHMEM_GLOBAL void signal_op_kernel(portshmem::ctx c, long* data, std::uint64_t* sigs, std::uint64_t* counter,
                                       unsigned long long* wrong) {
  const int me = portshmem::my_pe(c), n = portshmem::n_pes(c), next = (me + 1) % n;
  const unsigned t = arch::thread_rank(), threads = arch::block_threads();
  for (long k = 1; k <= kRounds; ++k) {
    const int slot = int(k % n);
    long* remote = portshmem::ptr(c, data + slot * kWords, next);
    for (std::size_t i = t; i < kWords; i += threads) remote[i] = word_value(k, i);
    arch::block_sync();
    if (t == 0) {
      if (k % 2) {
        portshmem::signal_op(c, sigs + slot, std::uint64_t(k), portshmem::signal_set, next);
      } else {
        portshmem::signal_op(c, sigs + slot, std::uint64_t(k), portshmem::signal_set, next, mm::all, mm::node);
      }
      portshmem::signal_op(c, counter, std::uint64_t(me + 1), portshmem::signal_add, 0, mm::comm);
      if (portshmem::signal_wait_until(c, sigs + slot, cmp::ge, std::uint64_t(k)) != std::uint64_t(k)) {
        count_wrong(wrong);
      }
    }
    arch::block_sync();
    for (std::size_t i = t; i < kWords; i += threads) {
      if (data[slot * kWords + i] != word_value(k, i)) count_wrong(wrong);
    }
    arch::block_sync();
  }
}

TEST(Signal, SignalOpPublishesOrdinaryStoresAndAdds) {
  // Ordinary stores through portshmem_ptr: nothing to test where the proxy serves the next PE.
  if (!mp::everyone_has_load_store_to_next())
    GTEST_SKIP() << "needs a load/store path to the next PE (it has the proxy)";
  long* data = mp::sym_alloc<long>(mp::npes() * kWords);
  auto* sigs = static_cast<std::uint64_t*>(portshmem_calloc(mp::npes(), sizeof(std::uint64_t)));
  auto* counter = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  unsigned long long* wrong = mp::private_alloc<unsigned long long>(1);
  mp::to_device(wrong, std::vector<unsigned long long>{0});
  mp::to_device(data, std::vector<long>(mp::npes() * kWords, 0));
  ASSERT_NE(portshmem_ptr(data, mp::next_pe()), nullptr) << "this test needs a load/store path to the next PE";
  mp::barrier();
  mp::run(signal_op_kernel, dim3(1), dim3(mp::kBlockThreads), mp::context(), data, sigs, counter, wrong);
  EXPECT_EQ(mp::to_host(wrong, 1)[0], 0u) << "stores not visible after signal_op<all>, or an unexpected signal value";
  mp::barrier();
  const std::uint64_t n = std::uint64_t(mp::npes());
  EXPECT_EQ(mp::to_host(counter, 1)[0], mp::me() == 0 ? std::uint64_t(kRounds) * n * (n + 1) / 2 : 0u);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(wrong), hipSuccess);
  EXPECT_EQ(portshmem_free(counter), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(sigs), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(data), PORTSHMEM_SUCCESS);
}

// ---- signal_wait_until compares as documented and returns the satisfying value --------------------------------------

PORTSHMEM_GLOBAL void wait_compare_kernel(portshmem::ctx c, std::uint64_t* sig, std::uint64_t* out) {
  const int me = portshmem::my_pe(c), next = (me + 1) % portshmem::n_pes(c);
  portshmem::signal_op(c, sig, 42, portshmem::signal_set, next, mm::comm, mm::system);
  out[0] = portshmem::signal_wait_until(c, sig, cmp::ne, 0);
  out[1] = portshmem::signal_wait_until(c, sig, cmp::eq, 42, mm::comm);
  out[2] = portshmem::signal_wait_until(c, sig, cmp::gt, 41, mm::relaxed);
  out[3] = portshmem::signal_wait_until(c, sig, cmp::ge, 42, mm::acquire, mm::node);
  out[4] = portshmem::signal_wait_until(c, sig, cmp::lt, 43, mm::system);
  out[5] = portshmem::signal_wait_until(c, sig, cmp::le, 42);
  out[6] = portshmem::signal_fetch(c, sig);
}

TEST(Signal, WaitUntilReturnsTheSatisfyingValue) {
  auto* sig = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  std::uint64_t* out = mp::private_alloc<std::uint64_t>(7);
  mp::barrier();
  mp::run(wait_compare_kernel, dim3(1), dim3(1), mp::context(), sig, out);
  const std::vector<std::uint64_t> got = mp::to_host(out, 7);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(got[i], 42u) << "comparison " << i;
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(out), hipSuccess);
  EXPECT_EQ(portshmem_free(sig), PORTSHMEM_SUCCESS);
}

// ---- bad calls: recorded, neither data nor signal written -----------------------------------------------------------

enum class bad_signal {
  put_signal_pe_negative,
  put_signal_block_signal_private,
  put_signal_wave_signal_misaligned,
  put_signal_nbi_dest_past_end,
  put_signal_word_dest_private,
  put_signal_word_pe_too_large,
  signal_op_pe_too_large,
  signal_op_bad_operation,
  signal_fetch_private,
  signal_wait_private
};

constexpr long kGuardWord = 0x1122334455667788;

PORTSHMEM_GLOBAL void bad_signal_kernel(portshmem::ctx c, bad_signal which, long* data, std::uint64_t* sig, long* priv,
                                        std::uint64_t* out) {
  const int n = portshmem::n_pes(c), next = (portshmem::my_pe(c) + 1) % n;
  const unsigned t = arch::thread_rank();
  auto* priv_sig = reinterpret_cast<std::uint64_t*>(priv);
  switch (which) {
  case bad_signal::put_signal_pe_negative:
    if (t == 0) portshmem::put_signal(c, data, priv, 8, sig, 1, portshmem::signal_set, -1);
    break;
  case bad_signal::put_signal_block_signal_private:
    portshmem::putmem_signal_block(c, data, priv, 64, priv_sig, 1, portshmem::signal_add, next);
    break;
  case bad_signal::put_signal_wave_signal_misaligned:
    if (t < arch::wave_size()) {
      auto* odd = reinterpret_cast<std::uint64_t*>(reinterpret_cast<char*>(sig) + 4);
      portshmem::put_signal_wave(c, data, priv, 8, odd, 1, portshmem::signal_set, next);
    }
    break;
  case bad_signal::put_signal_nbi_dest_past_end:
    if (t == 0) {
      long* last = reinterpret_cast<long*>(c.heap + c.heap_size) - 2; // 8 elements starting 2 before the end
      portshmem::put_signal_nbi(c, last, priv, 8, sig, 1, portshmem::signal_add, next);
    }
    break;
  case bad_signal::put_signal_word_dest_private: // one aligned word: the put_word path
    if (t == 0) portshmem::put_signal(c, priv + 4, priv, 1, sig, 1, portshmem::signal_set, next);
    break;
  case bad_signal::put_signal_word_pe_too_large:
    if (t == 0) portshmem::putmem_signal_nbi(c, data, priv, 4, sig, 1, portshmem::signal_add, n);
    break;
  case bad_signal::signal_op_pe_too_large:
    if (t == 0) portshmem::signal_op(c, sig, 1, portshmem::signal_add, n);
    break;
  case bad_signal::signal_op_bad_operation:
    if (t == 0) portshmem_signal_op(c, sig, 1, 7, next);
    break;
  case bad_signal::signal_fetch_private:
    if (t == 0) *out = portshmem::signal_fetch(c, priv_sig);
    break;
  case bad_signal::signal_wait_private:
    if (t == 0) *out = portshmem::signal_wait_until(c, priv_sig, cmp::eq, 12345); // must not wait
    break;
  }
}

class BadSignalCall : public ::testing::TestWithParam<bad_signal> {};

TEST_P(BadSignalCall, IsRecordedAndChangesNothing) {
  constexpr std::size_t words = 16;
  long* data = mp::sym_alloc<long>(words);
  auto* sig = mp::sym_alloc<std::uint64_t>(2);
  long* priv = mp::private_alloc<long>(words);
  std::uint64_t* out = mp::private_alloc<std::uint64_t>(1);
  mp::to_device(data, std::vector<long>(words, kGuardWord));
  mp::to_device(sig, std::vector<std::uint64_t>(2, std::uint64_t(kGuardWord)));
  mp::to_device(priv, std::vector<long>(words, kGuardWord));
  mp::to_device(out, std::vector<std::uint64_t>{7});
  mp::barrier();
  mp::run(bad_signal_kernel, dim3(1), dim3(mp::kBlockThreads), mp::context(), GetParam(), data, sig, priv, out);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_ERR_DEVICE);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS) << "the record is cleared once reported";
  mp::barrier();
  std::size_t changed = 0;
  for (long v : mp::to_host(data, words)) changed += v != kGuardWord;
  for (std::uint64_t v : mp::to_host(sig, 2)) changed += v != std::uint64_t(kGuardWord);
  for (long v : mp::to_host(priv, words)) changed += v != kGuardWord;
  EXPECT_EQ(changed, 0u) << "a bad signal call changed memory";
  const bool reads = GetParam() == bad_signal::signal_fetch_private || GetParam() == bad_signal::signal_wait_private;
  EXPECT_EQ(mp::to_host(out, 1)[0], reads ? 0u : 7u);
  mp::barrier();
  EXPECT_EQ(hipFree(priv), hipSuccess);
  EXPECT_EQ(hipFree(out), hipSuccess);
  EXPECT_EQ(portshmem_free(sig), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(data), PORTSHMEM_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(
    Signal, BadSignalCall,
    ::testing::Values(bad_signal::put_signal_pe_negative, bad_signal::put_signal_block_signal_private,
                      bad_signal::put_signal_wave_signal_misaligned, bad_signal::put_signal_nbi_dest_past_end,
                      bad_signal::put_signal_word_dest_private, bad_signal::put_signal_word_pe_too_large,
                      bad_signal::signal_op_pe_too_large, bad_signal::signal_op_bad_operation,
                      bad_signal::signal_fetch_private, bad_signal::signal_wait_private));

/// nelems 0 moves no data (and dest is not checked), but the signal is still updated, here by a block.
PORTSHMEM_GLOBAL void zero_length_kernel(portshmem::ctx c, std::uint64_t* sig) {
  const int next = (portshmem::my_pe(c) + 1) % portshmem::n_pes(c);
  portshmem::putmem_signal_block(c, nullptr, nullptr, 0, sig, 5, portshmem::signal_add, next);
  if (arch::thread_rank() == 0) portshmem::signal_wait_until(c, sig, cmp::eq, 5);
}

TEST(Signal, ZeroLengthPutSignalStillSignals) {
  auto* sig = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  mp::barrier();
  mp::run(zero_length_kernel, dim3(1), dim3(mp::kBlockThreads), mp::context(), sig);
  EXPECT_EQ(mp::to_host(sig, 1)[0], 5u);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(portshmem_free(sig), PORTSHMEM_SUCCESS);
}

// ---- the rocSHMEM-style names ---------------------------------------------------------------------------------------

constexpr std::size_t kCompatN = 24;

/// Each PE sends to the next with a sample of the names, one signal word per call, then waits for its own words.
PORTSHMEM_GLOBAL void compat_signal_kernel(portshmem::ctx c, int* data, std::uint64_t* sigs, const int* src,
                                           std::uint64_t* out) {
  const int me = portshmem::my_pe(c), next = (me + 1) % portshmem::n_pes(c);
  const unsigned t = arch::thread_rank();
  if (t == 0) portshmem_putmem_signal(c, data, src, kCompatN * sizeof(int), sigs + 0, 1, PORTSHMEM_SIGNAL_SET, next);
  if (t < arch::wave_size()) {
    portshmem_ctx_int_put_signal_nbi_wave(c, data + kCompatN, src, kCompatN, sigs + 1, 2, PORTSHMEM_SIGNAL_ADD, next);
  }
  portshmem_ctx_putmem_signal_nbi_wg(c, data + 2 * kCompatN, src, kCompatN * sizeof(int), sigs + 2, 3,
                                     PORTSHMEM_SIGNAL_SET, next);
  portshmem_int_put_signal_wg(c, data + 3 * kCompatN, src, kCompatN, sigs + 3, 4, PORTSHMEM_SIGNAL_ADD, next);
  if (t == 0) {
    portshmem_signal_set(c, sigs + 4, 5, next);
    portshmem_ctx_signal_add(c, sigs + 5, 6, next);
    portshmem::quiet(c);
    for (int s = 0; s < 6; ++s) {
      out[s] = portshmem_signal_wait_until(c, sigs + s, PORTSHMEM_CMP_EQ, std::uint64_t(s + 1));
    }
    out[6] = portshmem_ctx_signal_fetch(c, sigs + 5);
  }
  arch::block_sync();
}

TEST(Signal, CompatNamesForwardToTheCxxApi) {
  int* data = static_cast<int*>(portshmem_calloc(4 * kCompatN, sizeof(int)));
  auto* sigs = static_cast<std::uint64_t*>(portshmem_calloc(6, sizeof(std::uint64_t)));
  int* src = mp::private_alloc<int>(kCompatN);
  std::uint64_t* out = mp::private_alloc<std::uint64_t>(7);
  std::vector<int> mine(kCompatN);
  for (std::size_t i = 0; i < kCompatN; ++i) mine[i] = mp::me() * 100 + int(i);
  mp::to_device(src, mine);
  mp::barrier();
  mp::run(compat_signal_kernel, dim3(1), dim3(mp::kBlockThreads), mp::context(), data, sigs,
          static_cast<const int*>(src), out);
  const std::vector<std::uint64_t> got = mp::to_host(out, 7);
  for (int s = 0; s < 6; ++s) EXPECT_EQ(got[s], std::uint64_t(s + 1)) << "signal " << s;
  EXPECT_EQ(got[6], 6u);
  const std::vector<int> d = mp::to_host(data, 4 * kCompatN);
  int wrong = 0;
  for (std::size_t i = 0; i < 4 * kCompatN; ++i) wrong += d[i] != mp::prev_pe() * 100 + int(i % kCompatN);
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(src), hipSuccess);
  EXPECT_EQ(hipFree(out), hipSuccess);
  EXPECT_EQ(portshmem_free(sigs), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(data), PORTSHMEM_SUCCESS);
}

} // namespace
