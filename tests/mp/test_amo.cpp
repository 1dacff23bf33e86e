// AMOs: every operation under contention from every PE and several threads per PE, checked exactly — no update lost,
// fetched values form a permutation, compare_swap elects exactly one winner, a swap chain loses and repeats no value,
// bitwise operations build masks from every PE — plus extended-type fetch/set/swap, bad calls and the C names.
#include <algorithm>
#include <numeric>

#include "mp_test.hpp"

namespace {

namespace mm = portshmem::mm;
namespace arch = portshmem::arch;

/// Operations per thread in the contention tests.
constexpr int kOps = PORTSHMEM_PLATFORM_HOST ? 40 : 200;

/// Counts a failed device-side check (the host reads the count).
PORTSHMEM_DEVICE void count_wrong(unsigned long long* wrong) {
  arch::fetch_add<arch::order::relaxed, arch::scope::device>(wrong, 1ull);
}

/// per_pe elements of sym from every PE, in PE order (call after a barrier: the data must be complete).
template <class T>
PORTSHMEM_GLOBAL void gather_kernel(portshmem::ctx c, T* out, const T* sym, std::size_t per_pe) {
  for (int pe = 0; pe < portshmem::n_pes(c); ++pe) portshmem::get_block(c, out + pe * per_pe, sym, per_pe, pe);
}

template <class T>
std::vector<T> gather(const T* sym, std::size_t per_pe) {
  T* out = mp::private_alloc<T>(per_pe * mp::npes());
  mp::run(gather_kernel<T>, dim3(1), dim3(mp::kBlockThreads), mp::context(), out, sym, per_pe);
  std::vector<T> v = mp::to_host(out, per_pe * mp::npes());
  EXPECT_EQ(hipFree(out), hipSuccess);
  return v;
}

// ---- fetch_add / fetch_inc: no lost update, every fetched value distinct --------------------------------------------

/// Every thread of every PE adds 1 to PE 0's counter kOps times (even threads by fetch_add, odd ones by fetch_inc) and
/// keeps what it fetched.
template <class T>
PORTSHMEM_GLOBAL void fetch_add_kernel(portshmem::ctx c, T* counter, T* fetched) {
  const unsigned t = arch::thread_rank(), threads = arch::block_threads();
  for (int k = 0; k < kOps; ++k) {
    fetched[k * threads + t] =
        t % 2 ? portshmem::atomic_fetch_inc(c, counter, 0) : portshmem::atomic_fetch_add(c, counter, T(1), 0);
  }
}

template <class T>
class AmoFetchAdd : public ::testing::Test {};
using fetch_add_types = ::testing::Types<int, unsigned int, long, unsigned long long>;
TYPED_TEST_SUITE(AmoFetchAdd, fetch_add_types);

TYPED_TEST(AmoFetchAdd, EveryPeLosesNothingAndFetchesAPermutation) {
  using T = TypeParam;
  const std::size_t per_pe = std::size_t(kOps) * mp::kBlockThreads, total = per_pe * mp::npes();
  T* counter = static_cast<T*>(portshmem_calloc(1, sizeof(T)));
  T* fetched = mp::sym_alloc<T>(per_pe);
  mp::barrier();
  mp::run(fetch_add_kernel<T>, dim3(1), dim3(mp::kBlockThreads), mp::context(), counter, fetched);
  mp::barrier();
  EXPECT_EQ(mp::to_host(counter, 1)[0], mp::me() == 0 ? T(total) : T(0));
  std::vector<T> all = gather(fetched, per_pe);
  std::sort(all.begin(), all.end());
  std::size_t misplaced = 0;
  for (std::size_t i = 0; i < total; ++i) misplaced += all[i] != T(i);
  EXPECT_EQ(misplaced, 0u) << "the fetched values are not a permutation of 0.." << total - 1;
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(portshmem_free(fetched), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(counter), PORTSHMEM_SUCCESS);
}

// ---- add / inc (non-fetching), signed: every update lands --------------------------------------------------------

/// Every thread adds +5, -2 and 1 (inc) per step to the last PE's counter: +4 per step, negative addends included.
PORTSHMEM_GLOBAL void add_kernel(portshmem::ctx c, long long* counter) {
  const int target = portshmem::n_pes(c) - 1;
  for (int k = 0; k < kOps; ++k) {
    portshmem::atomic_add(c, counter, 5, target);
    portshmem::atomic_add(c, counter, -2, target);
    portshmem::atomic_inc(c, counter, target);
  }
  portshmem::quiet(c);
}

TEST(Amo, AddAndIncFromEveryPeLoseNothing) {
  long long* counter = static_cast<long long*>(portshmem_calloc(1, sizeof(long long)));
  mp::barrier();
  mp::run(add_kernel, dim3(1), dim3(mp::kBlockThreads), mp::context(), counter);
  mp::barrier();
  const long long want = mp::me() == mp::npes() - 1 ? 4ll * kOps * mp::kBlockThreads * mp::npes() : 0;
  EXPECT_EQ(mp::to_host(counter, 1)[0], want);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(portshmem_free(counter), PORTSHMEM_SUCCESS);
}

// ---- compare_swap: one winner per election --------------------------------------------------------------------------

constexpr int kElections = 16;

/// Election r: every thread of every PE tries to swap its id + 1 into PE 0's slot r (initially 0) and keeps the
/// value it found there.
PORTSHMEM_GLOBAL void election_kernel(portshmem::ctx c, long* slots, long* found) {
  const unsigned t = arch::thread_rank(), threads = arch::block_threads();
  const long id = long(portshmem::my_pe(c)) * threads + t;
  for (int r = 0; r < kElections; ++r) {
    found[r * threads + t] = portshmem::atomic_compare_swap(c, slots + r, 0, id + 1, 0);
  }
}

TEST(Amo, CompareSwapElectsExactlyOneWinner) {
  const unsigned threads = mp::kBlockThreads;
  long* slots = static_cast<long*>(portshmem_calloc(kElections, sizeof(long)));
  long* found = mp::sym_alloc<long>(kElections * threads);
  mp::barrier();
  mp::run(election_kernel, dim3(1), dim3(threads), mp::context(), slots, found);
  mp::barrier();
  const std::vector<long> winners = gather(slots, kElections); // PE 0's slots come first
  const std::vector<long> mine = mp::to_host(found, kElections * threads);
  std::size_t wrong = 0, won = 0;
  for (int r = 0; r < kElections; ++r) {
    const long w = winners[r];
    EXPECT_TRUE(w >= 1 && w <= long(threads) * mp::npes()) << "election " << r << " has no valid winner: " << w;
    for (unsigned t = 0; t < threads; ++t) {
      const long id = long(mp::me()) * threads + t;
      const long f = mine[r * threads + t];
      if (id + 1 == w) {
        won += 1;
        wrong += f != 0; // the winner found the slot empty
      } else {
        wrong += f != w; // a loser found the winner (CAS is atomic: no one saw a second, later value)
      }
    }
  }
  EXPECT_EQ(wrong, 0u);
  for (int pe = 1; pe < mp::npes(); ++pe) {
    for (int r = 0; r < kElections; ++r) EXPECT_EQ(winners[pe * kElections + r], 0) << "only PE 0's slots are used";
  }
  // Every election has exactly one winner: this PE's wins plus the others' add up to kElections on every PE.
  std::vector<long> wins_of(mp::npes(), 0);
  for (int r = 0; r < kElections; ++r) {
    if (winners[r] >= 1 && winners[r] <= long(threads) * mp::npes()) wins_of[(winners[r] - 1) / long(threads)] += 1;
  }
  EXPECT_EQ(long(won), wins_of[mp::me()]);
  EXPECT_EQ(std::accumulate(wins_of.begin(), wins_of.end(), 0l), long(kElections));
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(portshmem_free(found), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(slots), PORTSHMEM_SUCCESS);
}

// ---- swap: a chain in which every value is handed on exactly once -------------------------------------------------

/// Every thread swaps kOps distinct values (1 + its id * kOps + k) into PE 0's slot (initially 0) and keeps what it
/// got back: the values returned plus the final one are exactly {0} and every value written.
template <class T>
PORTSHMEM_GLOBAL void swap_kernel(portshmem::ctx c, T* slot, T* got) {
  const unsigned t = arch::thread_rank(), threads = arch::block_threads();
  const unsigned long id = (unsigned long)portshmem::my_pe(c) * threads + t;
  for (int k = 0; k < kOps; ++k) got[k * threads + t] = portshmem::atomic_swap(c, slot, T(1 + id * kOps + k), 0);
}

template <class T>
class AmoSwap : public ::testing::Test {};
using swap_types = ::testing::Types<unsigned int, double>;
TYPED_TEST_SUITE(AmoSwap, swap_types);

TYPED_TEST(AmoSwap, ChainHandsOnEveryValueOnce) {
  using T = TypeParam;
  const std::size_t per_pe = std::size_t(kOps) * mp::kBlockThreads, total = per_pe * mp::npes();
  T* slot = static_cast<T*>(portshmem_calloc(1, sizeof(T)));
  T* got = mp::sym_alloc<T>(per_pe);
  mp::barrier();
  mp::run(swap_kernel<T>, dim3(1), dim3(mp::kBlockThreads), mp::context(), slot, got);
  mp::barrier();
  std::vector<T> chain = gather(got, per_pe);
  chain.push_back(gather(slot, 1)[0]); // PE 0's final value
  std::sort(chain.begin(), chain.end());
  std::size_t misplaced = 0;
  for (std::size_t i = 0; i <= total; ++i) misplaced += !(chain[i] == T(i));
  EXPECT_EQ(misplaced, 0u) << "a value was lost or handed on twice";
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(portshmem_free(got), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(slot), PORTSHMEM_SUCCESS);
}

// ---- and / or / xor: masks built from every PE ---------------------------------------------------------------------

/// Thread g (over all PEs) owns bit g of PE 0's masks: it sets it in `ors` (0 initially), clears it in `ands` (all
/// ones initially) and flips it in `xors` (0 initially). Even threads use the fetching forms and check that their
/// bit was untouched before: nobody else owns it.
PORTSHMEM_GLOBAL void bitwise_kernel(portshmem::ctx c, unsigned long long* ors, std::uint32_t* ands, std::int64_t* xors,
                                     unsigned long long* wrong) {
  const unsigned t = arch::thread_rank();
  const unsigned long g = (unsigned long)portshmem::my_pe(c) * arch::block_threads() + t;
  const unsigned long long bit64 = 1ull << (g % 64);
  const std::uint32_t bit32 = std::uint32_t(1) << (g % 32);
  const std::int64_t xbit = std::int64_t(bit64);
  if (t % 2 == 0) {
    if (portshmem::atomic_fetch_or(c, ors + g / 64, bit64, 0) & bit64) count_wrong(wrong);
    if (!(portshmem::atomic_fetch_and(c, ands + g / 32, ~bit32, 0) & bit32)) count_wrong(wrong);
    if (portshmem::atomic_fetch_xor(c, xors + g / 64, xbit, 0) & xbit) count_wrong(wrong);
  } else {
    portshmem::atomic_or(c, ors + g / 64, bit64, 0);
    portshmem::atomic_and(c, ands + g / 32, ~bit32, 0);
    portshmem::atomic_xor(c, xors + g / 64, xbit, 0);
  }
  portshmem::quiet(c);
}

TEST(Amo, BitwiseOpsBuildMasksFromEveryPe) {
  const std::size_t bits = std::size_t(mp::kBlockThreads) * mp::npes();
  const std::size_t w64 = (bits + 63) / 64, w32 = (bits + 31) / 32;
  auto* ors = static_cast<unsigned long long*>(portshmem_calloc(w64, sizeof(unsigned long long)));
  auto* xors = static_cast<std::int64_t*>(portshmem_calloc(w64, sizeof(std::int64_t)));
  auto* ands = mp::sym_alloc<std::uint32_t>(w32);
  unsigned long long* wrong = mp::private_alloc<unsigned long long>(1);
  mp::to_device(ands, std::vector<std::uint32_t>(w32, ~std::uint32_t(0)));
  mp::to_device(wrong, std::vector<unsigned long long>{0});
  mp::barrier();
  mp::run(bitwise_kernel, dim3(1), dim3(mp::kBlockThreads), mp::context(), ors, ands, xors, wrong);
  mp::barrier();
  EXPECT_EQ(mp::to_host(wrong, 1)[0], 0u) << "a fetching bitwise AMO saw its own bit already changed";
  const bool target = mp::me() == 0; // other PEs' masks must be untouched
  const std::vector<unsigned long long> o = mp::to_host(ors, w64);
  const std::vector<std::int64_t> x = mp::to_host(xors, w64);
  const std::vector<std::uint32_t> a = mp::to_host(ands, w32);
  std::size_t bad_bits = 0;
  for (std::size_t b = 0; b < w64 * 64; ++b) {
    const bool want = target && b < bits;
    bad_bits += bool(o[b / 64] >> (b % 64) & 1) != want;
    bad_bits += bool(std::uint64_t(x[b / 64]) >> (b % 64) & 1) != want;
  }
  for (std::size_t b = 0; b < w32 * 32; ++b) bad_bits += bool(a[b / 32] >> (b % 32) & 1) != !(target && b < bits);
  EXPECT_EQ(bad_bits, 0u);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(wrong), hipSuccess);
  EXPECT_EQ(portshmem_free(ands), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(xors), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(ors), PORTSHMEM_SUCCESS);
}

// ---- fetch / set / swap of the extended types (float, double) and an integer --------------------------------------

struct extended_slots {
  float f;
  double d;
  long long ll;
};

PORTSHMEM_GLOBAL void extended_set_kernel(portshmem::ctx c, extended_slots* s) {
  const int me = portshmem::my_pe(c), next = (me + 1) % portshmem::n_pes(c);
  portshmem::atomic_set(c, &s->f, 1.5f + float(me), next);
  portshmem::atomic_set(c, &s->d, 0.25 + me, next);
  portshmem::atomic_set(c, &s->ll, -1000ll * me - 7, next);
  portshmem::quiet(c);
}

/// After the sets: fetches of the own copy and of the next PE's.
PORTSHMEM_GLOBAL void extended_fetch_kernel(portshmem::ctx c, extended_slots* s, double* out) {
  const int me = portshmem::my_pe(c), next = (me + 1) % portshmem::n_pes(c);
  out[0] = portshmem::atomic_fetch(c, &s->f, me);
  out[1] = portshmem::atomic_fetch(c, &s->d, me);
  out[2] = double(portshmem::atomic_fetch(c, &s->ll, me));
  out[3] = portshmem::atomic_fetch(c, &s->f, next);
}

/// After the fetches: swaps into the next PE's copy.
PORTSHMEM_GLOBAL void extended_swap_kernel(portshmem::ctx c, extended_slots* s, double* out) {
  const int me = portshmem::my_pe(c), next = (me + 1) % portshmem::n_pes(c);
  out[4] = portshmem::atomic_swap(c, &s->d, -0.5 * me, next);
  out[5] = portshmem::atomic_swap(c, &s->f, -2.0f * float(me), next);
  portshmem::quiet(c);
}

TEST(Amo, ExtendedTypesFetchSetSwap) {
  auto* s = static_cast<extended_slots*>(portshmem_calloc(1, sizeof(extended_slots)));
  double* out = mp::private_alloc<double>(6);
  mp::barrier();
  mp::run(extended_set_kernel, dim3(1), dim3(1), mp::context(), s);
  mp::barrier();
  mp::run(extended_fetch_kernel, dim3(1), dim3(1), mp::context(), s, out);
  mp::barrier();
  mp::run(extended_swap_kernel, dim3(1), dim3(1), mp::context(), s, out);
  mp::barrier();
  const int me = mp::me(), prev = mp::prev_pe();
  const std::vector<double> got = mp::to_host(out, 6);
  EXPECT_EQ(got[0], 1.5 + prev);
  EXPECT_EQ(got[1], 0.25 + prev);
  EXPECT_EQ(got[2], -1000.0 * prev - 7);
  EXPECT_EQ(got[3], 1.5 + me);
  EXPECT_EQ(got[4], 0.25 + me) << "swap returns the value it replaced";
  EXPECT_EQ(got[5], 1.5 + me);
  const extended_slots mine = mp::to_host(s, 1)[0];
  EXPECT_EQ(mine.d, -0.5 * prev);
  EXPECT_EQ(mine.f, -2.0f * float(prev));
  EXPECT_EQ(mine.ll, -1000ll * prev - 7);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(out), hipSuccess);
  EXPECT_EQ(portshmem_free(s), PORTSHMEM_SUCCESS);
}

// ---- bad calls: recorded, nothing written, fetching forms return T{} ----------------------------------------------

enum class bad_amo {
  fetch_add_pe_negative,
  set_pe_too_large,
  swap_private_address,
  compare_swap_misaligned,
  fetch_pe_too_large,
  fetch_or_private_address,
  inc_pe_negative,
  xor_past_heap_end
};

constexpr long kGuardWord = 0x0A0B0C0D0E0F1011;

PORTSHMEM_GLOBAL void bad_amo_kernel(portshmem::ctx c, bad_amo which, long* sym, long* priv, long* out) {
  const int n = portshmem::n_pes(c), next = (portshmem::my_pe(c) + 1) % n;
  switch (which) {
  case bad_amo::fetch_add_pe_negative:
    *out = portshmem::atomic_fetch_add(c, sym, 1, -1);
    break;
  case bad_amo::set_pe_too_large:
    portshmem::atomic_set(c, sym, 5, n);
    break;
  case bad_amo::swap_private_address:
    *out = portshmem::atomic_swap(c, priv, 5, next);
    break;
  case bad_amo::compare_swap_misaligned: {
    long* odd = reinterpret_cast<long*>(reinterpret_cast<char*>(sym) + 4);
    *out = portshmem::atomic_compare_swap(c, odd, kGuardWord, 5, next);
    break;
  }
  case bad_amo::fetch_pe_too_large:
    *out = portshmem::atomic_fetch(c, sym, n + 3);
    break;
  case bad_amo::fetch_or_private_address:
    *out = long(portshmem::atomic_fetch_or(c, reinterpret_cast<unsigned long*>(priv), 1ul, next));
    break;
  case bad_amo::inc_pe_negative:
    portshmem::atomic_inc(c, sym, -7);
    break;
  case bad_amo::xor_past_heap_end: {
    std::int32_t* last = reinterpret_cast<std::int32_t*>(c.heap + c.heap_size); // one past the end: outside
    portshmem::atomic_xor(c, last, 1, next);
    break;
  }
  }
}

class BadAmoCall : public ::testing::TestWithParam<bad_amo> {};

TEST_P(BadAmoCall, IsRecordedAndChangesNothing) {
  constexpr std::size_t words = 8;
  long* sym = mp::sym_alloc<long>(words);
  long* priv = mp::private_alloc<long>(words);
  long* out = mp::private_alloc<long>(1);
  mp::to_device(sym, std::vector<long>(words, kGuardWord));
  mp::to_device(priv, std::vector<long>(words, kGuardWord));
  mp::to_device(out, std::vector<long>{-1});
  mp::barrier();
  mp::run(bad_amo_kernel, dim3(1), dim3(1), mp::context(), GetParam(), sym, priv, out);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_ERR_DEVICE);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS) << "the record is cleared once reported";
  mp::barrier();
  std::size_t changed = 0;
  for (long v : mp::to_host(sym, words)) changed += v != kGuardWord;
  for (long v : mp::to_host(priv, words)) changed += v != kGuardWord;
  EXPECT_EQ(changed, 0u) << "a bad AMO changed memory";
  const bool fetching = GetParam() != bad_amo::set_pe_too_large && GetParam() != bad_amo::inc_pe_negative &&
                        GetParam() != bad_amo::xor_past_heap_end;
  EXPECT_EQ(mp::to_host(out, 1)[0], fetching ? 0 : -1) << "a bad fetching AMO returns T{}";
  mp::barrier();
  EXPECT_EQ(hipFree(priv), hipSuccess);
  EXPECT_EQ(hipFree(out), hipSuccess);
  EXPECT_EQ(portshmem_free(sym), PORTSHMEM_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(Amo, BadAmoCall,
                         ::testing::Values(bad_amo::fetch_add_pe_negative, bad_amo::set_pe_too_large,
                                           bad_amo::swap_private_address, bad_amo::compare_swap_misaligned,
                                           bad_amo::fetch_pe_too_large, bad_amo::fetch_or_private_address,
                                           bad_amo::inc_pe_negative, bad_amo::xor_past_heap_end));

// ---- the rocSHMEM-style names ---------------------------------------------------------------------------------------

struct compat_slots {
  int i;
  long l;
  std::uint64_t u64;
  std::size_t sz;
  std::ptrdiff_t pd;
  std::int32_t i32;
  double d;
  float f;
};

/// Each PE applies a sample of the C names to the next PE's slots. A non-fetching AMO orders nothing after it by
/// itself (docs/memory_model.md A4), so a fence keeps each one before the next AMO on the same word.
PORTSHMEM_GLOBAL void compat_amo_kernel(portshmem::ctx c, compat_slots* s, long* out) {
  const int me = portshmem::my_pe(c), next = (me + 1) % portshmem::n_pes(c);
  out[0] = portshmem_int_atomic_fetch_add(c, &s->i, 10 + me, next);             // 0 -> 10 + me
  out[1] = portshmem_ctx_long_atomic_compare_swap(c, &s->l, 0, 100 + me, next); // 0 -> 100 + me
  out[2] = long(portshmem_uint64_atomic_fetch_or(c, &s->u64, 0xF0, next));      // 0 -> 0xF0
  portshmem_ctx_uint64_atomic_xor(c, &s->u64, 0x0F, next);                      // -> 0xFF
  portshmem::fence(c);
  portshmem_uint64_atomic_and(c, &s->u64, 0x3C, next); // -> 0x3C
  portshmem_size_atomic_inc(c, &s->sz, next);
  portshmem::fence(c);
  out[3] = long(portshmem_ctx_size_atomic_fetch_inc(c, &s->sz, next)); // 1 -> 2
  portshmem_ptrdiff_atomic_add(c, &s->pd, -5, next);
  portshmem_int32_atomic_set(c, &s->i32, 32 + me, next);
  portshmem_ctx_double_atomic_set(c, &s->d, 2.5 * me, next);
  portshmem::fence(c);
  out[4] = long(portshmem_double_atomic_swap(c, &s->d, 4.0, next)); // 2.5 * me: the value just set
  portshmem_float_atomic_set(c, &s->f, 0.5f, next);
  portshmem::quiet(c);
  out[5] = long(portshmem_ctx_float_atomic_fetch(c, &s->f, next) * 2); // 1
  out[6] = portshmem_int_atomic_swap(c, &s->i, 7, next);               // 10 + me
}

TEST(Amo, CompatNamesForwardToTheCxxApi) {
  auto* s = static_cast<compat_slots*>(portshmem_calloc(1, sizeof(compat_slots)));
  long* out = mp::private_alloc<long>(7);
  mp::barrier();
  mp::run(compat_amo_kernel, dim3(1), dim3(1), mp::context(), s, out);
  mp::barrier();
  const int me = mp::me(), prev = mp::prev_pe();
  const std::vector<long> got = mp::to_host(out, 7);
  EXPECT_EQ(got[0], 0);
  EXPECT_EQ(got[1], 0);
  EXPECT_EQ(got[2], 0);
  EXPECT_EQ(got[3], 1);
  EXPECT_EQ(got[4], long(2.5 * me));
  EXPECT_EQ(got[5], 1);
  EXPECT_EQ(got[6], 10 + me);
  const compat_slots mine = mp::to_host(s, 1)[0];
  EXPECT_EQ(mine.i, 7);
  EXPECT_EQ(mine.l, 100 + prev);
  EXPECT_EQ(mine.u64, 0x3Cu);
  EXPECT_EQ(mine.sz, 2u);
  EXPECT_EQ(mine.pd, -5);
  EXPECT_EQ(mine.i32, 32 + prev);
  EXPECT_EQ(mine.d, 4.0);
  EXPECT_EQ(mine.f, 0.5f);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(out), hipSuccess);
  EXPECT_EQ(portshmem_free(s), PORTSHMEM_SUCCESS);
}

} // namespace
