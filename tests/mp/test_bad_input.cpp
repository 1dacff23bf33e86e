// Bad calls get a clear error and change nothing: device calls naming a PE out of range, an address outside the
// symmetric heap, in the runtime's reserved areas, or a range running past its end are recorded and skipped (the
// neighbours' memory keeps its guard); host calls with such arguments return errors. Compiled twice: into the mp suite
// (the release checks) and into portshmem_mp_debug_tests with PORTSHMEM_DEBUG_CHECKS=1, where the tests at the end
// (allocation bounds, alignment) run too.
#include <climits>
#include <limits>
#include <tuple>

#include "mp_test.hpp"
#include "portshmem/detail/internal_area.hpp"
#include "portshmem/detail/team_state.hpp"

namespace {

enum class bad {
  pe_negative,
  pe_too_large,
  dest_private,
  range_past_end,
  size_max,
  word_bad_pe,
  word_dest_private,
  get_bad_pe,
  p_bad_pe,
  g_bad_address,
  typed_put_wraps, // a count whose byte size wraps past SIZE_MAX to 8 bytes
  typed_put_block_wraps,
  typed_get_wraps,
  typed_put_signal_wraps
};

/// Elements of 8 bytes whose byte count wraps around to 8.
constexpr std::size_t kWrappingCount = (~std::size_t(0) / 8) + 2;

PORTSHMEM_GLOBAL void bad_call(portshmem::ctx c, bad which, char* sym, char* priv, std::size_t sym_bytes, int* g_out) {
  const int n = portshmem::n_pes(c), next = (portshmem::my_pe(c) + 1) % n;
  switch (which) {
  case bad::pe_negative:
    portshmem::putmem(c, sym, priv, 64, -1);
    break;
  case bad::pe_too_large:
    portshmem::putmem_block(c, sym, priv, 64, n);
    break;
  case bad::dest_private:
    portshmem::putmem(c, priv, sym, 64, next);
    break;
  case bad::range_past_end: {
    // Starts inside the heap, ends past it: would spill into whatever follows the neighbour's heap.
    char* last = c.heap + c.heap_size - 16;
    portshmem::putmem_wave(c, last, priv, 64, next);
    break;
  }
  case bad::size_max:
    portshmem::putmem(c, sym, priv, ~std::size_t(0), next);
    break;
  case bad::word_bad_pe: // one aligned word: the put_word path
    portshmem::putmem(c, sym, priv, 8, n);
    break;
  case bad::word_dest_private:
    portshmem::putmem(c, priv + 64, sym, 4, next);
    break;
  case bad::get_bad_pe:
    portshmem::getmem(c, priv, sym, 64, n + 5);
    break;
  case bad::p_bad_pe:
    portshmem::p(c, reinterpret_cast<int*>(sym), 99, -3);
    break;
  case bad::typed_put_wraps:
    portshmem::put(c, reinterpret_cast<long*>(sym), reinterpret_cast<const long*>(priv), kWrappingCount, next);
    break;
  case bad::typed_put_block_wraps:
    portshmem::put_block(c, reinterpret_cast<long*>(sym), reinterpret_cast<const long*>(priv), kWrappingCount, next);
    break;
  case bad::typed_get_wraps:
    portshmem::get(c, reinterpret_cast<long*>(priv), reinterpret_cast<const long*>(sym), kWrappingCount, next);
    break;
  case bad::typed_put_signal_wraps:
    portshmem::put_signal(c, reinterpret_cast<long*>(sym), reinterpret_cast<const long*>(priv), kWrappingCount,
                          reinterpret_cast<std::uint64_t*>(sym + 1024), 1, portshmem::signal_set, next);
    break;
  case bad::g_bad_address: {
    const int got = portshmem::g(c, reinterpret_cast<const int*>(priv), next);
    if (portshmem::thread_rank() == 0) *g_out = got; // one writer (every thread's g is the same bad call)
    break;
  }
  }
  (void)sym_bytes;
}

class BadDeviceCall : public ::testing::TestWithParam<bad> {};

TEST_P(BadDeviceCall, IsRecordedAndChangesNothing) {
  constexpr std::size_t bytes = 4096;
  char* sym = mp::sym_alloc<char>(bytes);
  char* priv = mp::private_alloc<char>(bytes);
  int* g_out = mp::private_alloc<int>(1);
  mp::to_device(sym, std::vector<char>(bytes, char(mp::kGuard)));
  mp::to_device(priv, std::vector<char>(bytes, 0x11));
  mp::to_device(g_out, std::vector<int>{-1});
  mp::barrier();
  mp::run(bad_call, dim3(1), dim3(mp::kBlockThreads), mp::context(), GetParam(), sym, priv, bytes, g_out);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_ERR_DEVICE);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS) << "the record is cleared once reported";
  mp::barrier();
  const std::vector<char> s = mp::to_host(sym, bytes), p = mp::to_host(priv, bytes);
  std::size_t changed = 0;
  for (char v : s) changed += v != char(mp::kGuard);
  for (char v : p) changed += v != 0x11;
  EXPECT_EQ(changed, 0u) << "a bad call changed memory";
  if (GetParam() == bad::g_bad_address) EXPECT_EQ(mp::to_host(g_out, 1)[0], 0) << "a bad g returns T{}";
  mp::barrier();
  EXPECT_EQ(hipFree(priv), hipSuccess);
  EXPECT_EQ(hipFree(g_out), hipSuccess);
  EXPECT_EQ(portshmem_free(sym), PORTSHMEM_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(All, BadDeviceCall,
                         ::testing::Values(bad::pe_negative, bad::pe_too_large, bad::dest_private, bad::range_past_end,
                                           bad::size_max, bad::word_bad_pe, bad::word_dest_private, bad::get_bad_pe,
                                           bad::p_bad_pe, bad::g_bad_address, bad::typed_put_wraps,
                                           bad::typed_put_block_wraps, bad::typed_get_wraps,
                                           bad::typed_put_signal_wraps));

PORTSHMEM_GLOBAL void zero_length(portshmem::ctx c, char* sym, const char* src) {
  portshmem::putmem(c, sym, src, 0, -1); // zero bytes: nothing to do, nothing to check
  portshmem::getmem_block(c, const_cast<char*>(src), sym, 0, c.n_pes);
}

TEST(BadInput, ZeroLengthCallsDoNothing) {
  char* sym = mp::sym_alloc<char>(64);
  mp::run(zero_length, dim3(1), dim3(mp::kBlockThreads), mp::context(), sym, static_cast<const char*>(sym));
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(sym), PORTSHMEM_SUCCESS);
}

TEST(BadInput, HostPtrRejectsBadArguments) {
  char* sym = mp::sym_alloc<char>(64);
  int local = 0;
  EXPECT_EQ(portshmem_ptr(sym, -1), nullptr);
  EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_INVALID_PE);
  EXPECT_EQ(portshmem_ptr(sym, mp::npes()), nullptr);
  EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_INVALID_PE);
  EXPECT_EQ(portshmem_ptr(&local, mp::next_pe()), nullptr);
  EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_NOT_SYMMETRIC);
  const bool mapped = mp::load_store_to(mp::next_pe());
  EXPECT_EQ(portshmem_ptr(sym, mp::next_pe()) != nullptr, mapped);
  EXPECT_EQ(portshmem_last_status(), mapped ? PORTSHMEM_SUCCESS : PORTSHMEM_ERR_UNREACHABLE);
  EXPECT_EQ(portshmem_transport(-1), PORTSHMEM_TRANSPORT_NONE);
  EXPECT_EQ(portshmem_free(sym), PORTSHMEM_SUCCESS);
}

// ---- the runtime's reserved areas ----------------------------------------------------------------------------------

/// The world team's member words, in the team area at the heap's end.
char* team_words(const portshmem::ctx& c) {
  portshmem::team w{};
  EXPECT_EQ(portshmem_team_get_handle(PORTSHMEM_TEAM_WORLD, &w), PORTSHMEM_SUCCESS);
  return mp::heap_start(c) + w.state_offset + portshmem::detail::kTeamHeaderBytes;
}

// The runtime's own variables (barrier counters at the heap start, team words and scratch at its end) are not the
// user's: no pointer to them is given.
TEST(BadInput, HostPtrRefusesTheReservedArea) {
  portshmem::ctx c = mp::context();
  constexpr std::size_t kReserved = portshmem::detail::kInternalHeapBytes;
  char* const start = mp::heap_start(c);
  char* const team = team_words(c);
  for (int pe = 0; pe < mp::npes(); ++pe) {
    for (std::size_t offset : {std::size_t{0}, std::size_t{8}, kReserved / 2, kReserved - 1}) {
      EXPECT_EQ(portshmem_ptr(start + offset, pe), nullptr) << "offset " << offset << " on PE " << pe;
      EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_NOT_SYMMETRIC);
    }
    EXPECT_EQ(portshmem_ptr(start + kReserved, pe) != nullptr, mp::load_store_to(pe))
        << "the first byte past it is the user's (a pointer where a load/store path exists)";
    for (char* p : {c.heap + c.heap_size, team - 8, team, team + 256}) {
      EXPECT_EQ(portshmem_ptr(p, pe), nullptr)
          << "the team area, " << (p - c.heap) << " bytes into the heap's user part";
      EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_NOT_SYMMETRIC);
    }
    EXPECT_EQ(portshmem_ptr(c.heap + c.heap_size - 1, pe) != nullptr, mp::load_store_to(pe)) << "the last user byte";
  }
}

/// Device calls naming a reserved area, every family and form.
enum class reserved_call {
  putmem,
  putmem_word, // one aligned word: the put_word path
  putmem_wave,
  putmem_block,
  putmem_nbi,
  put_typed,
  getmem,
  getmem_block,
  p,
  g,
  atomic_fetch_add,
  atomic_add,
  atomic_compare_swap,
  atomic_set,
  atomic_fetch,
  atomic_swap,
  atomic_fetch_or,
  signal_op,
  put_signal_dest,
  put_signal_sig,
  put_signal_block_sig,
  signal_fetch,
  signal_wait_until,
  wait_until,
  test,
  wait_until_all,
  test_any,
  wait_until_some,
  ptr // not a bad call: nullptr, nothing recorded
};
enum class reserved_area { front, team };

const char* name_of(reserved_call c) {
  static const char* const kNames[] = {"putmem",
                                       "putmem_word",
                                       "putmem_wave",
                                       "putmem_block",
                                       "putmem_nbi",
                                       "put_typed",
                                       "getmem",
                                       "getmem_block",
                                       "p",
                                       "g",
                                       "atomic_fetch_add",
                                       "atomic_add",
                                       "atomic_compare_swap",
                                       "atomic_set",
                                       "atomic_fetch",
                                       "atomic_swap",
                                       "atomic_fetch_or",
                                       "signal_op",
                                       "put_signal_dest",
                                       "put_signal_sig",
                                       "put_signal_block_sig",
                                       "signal_fetch",
                                       "signal_wait_until",
                                       "wait_until",
                                       "test",
                                       "wait_until_all",
                                       "test_any",
                                       "wait_until_some",
                                       "ptr"};
  return kNames[int(c)];
}

portshmem_call_id_t call_id_of(reserved_call c) {
  switch (c) {
  case reserved_call::putmem:
  case reserved_call::putmem_word:
  case reserved_call::putmem_wave:
  case reserved_call::putmem_block:
  case reserved_call::putmem_nbi:
  case reserved_call::put_typed:
    return PORTSHMEM_CALL_PUT;
  case reserved_call::getmem:
  case reserved_call::getmem_block:
    return PORTSHMEM_CALL_GET;
  case reserved_call::p:
    return PORTSHMEM_CALL_P;
  case reserved_call::g:
    return PORTSHMEM_CALL_G;
  case reserved_call::signal_op:
  case reserved_call::put_signal_dest:
  case reserved_call::put_signal_sig:
  case reserved_call::put_signal_block_sig:
  case reserved_call::signal_fetch:
  case reserved_call::signal_wait_until:
    return PORTSHMEM_CALL_SIGNAL;
  case reserved_call::wait_until:
  case reserved_call::test:
  case reserved_call::wait_until_all:
  case reserved_call::test_any:
  case reserved_call::wait_until_some:
    return PORTSHMEM_CALL_WAIT;
  case reserved_call::ptr:
    return PORTSHMEM_CALL_PTR;
  default:
    return PORTSHMEM_CALL_AMO;
  }
}

/// The one bad call (by the threads its form needs), then a correct p of the marker my_pe + 1 to the PE named: the
/// kernel goes on after a refused call. Waits use comparisons that already hold, so a wait that is not refused ends.
/// out: what the call returned (g, AMOs, fetches, tests, ptr), as a number.
PORTSHMEM_GLOBAL void reserved_kernel(portshmem::ctx c, reserved_call which, char* target, int pe, char* local,
                                      char* sym, std::uint64_t* ok, std::uint64_t* out, std::size_t* indices) {
  namespace ps = portshmem;
  using ps::cmp;
  const unsigned t = ps::thread_rank();
  const bool one = t == 0, wave = t < ps::wave_size();
  auto* word = reinterpret_cast<std::uint64_t*>(target);
  auto* sig = reinterpret_cast<std::uint64_t*>(sym);
  std::uint64_t result = 0;
  switch (which) {
  case reserved_call::putmem:
    if (one) ps::putmem(c, target, local, 64, pe);
    break;
  case reserved_call::putmem_word:
    if (one) ps::putmem(c, target, local, 8, pe);
    break;
  case reserved_call::putmem_wave:
    if (wave) ps::putmem_wave(c, target, local, 64, pe);
    break;
  case reserved_call::putmem_block:
    ps::putmem_block(c, target, local, 64, pe);
    break;
  case reserved_call::putmem_nbi:
    if (one) ps::putmem_nbi(c, target, local, 64, pe);
    break;
  case reserved_call::put_typed:
    if (one) ps::put(c, reinterpret_cast<long*>(target), reinterpret_cast<const long*>(local), 4, pe);
    break;
  case reserved_call::getmem:
    if (one) ps::getmem(c, local, target, 64, pe);
    break;
  case reserved_call::getmem_block:
    ps::getmem_block(c, local, target, 64, pe);
    break;
  case reserved_call::p:
    if (one) ps::p(c, reinterpret_cast<long*>(target), 0x5555L, pe);
    break;
  case reserved_call::g:
    if (one) result = std::uint64_t(ps::g(c, reinterpret_cast<const long*>(target), pe));
    break;
  case reserved_call::atomic_fetch_add:
    if (one) result = ps::atomic_fetch_add(c, word, std::uint64_t(3), pe);
    break;
  case reserved_call::atomic_add:
    if (one) ps::atomic_add(c, word, std::uint64_t(3), pe);
    break;
  case reserved_call::atomic_compare_swap:
    if (one) result = ps::atomic_compare_swap(c, word, std::uint64_t(0), std::uint64_t(77), pe);
    break;
  case reserved_call::atomic_set:
    if (one) ps::atomic_set(c, word, std::uint64_t(77), pe);
    break;
  case reserved_call::atomic_fetch:
    if (one) result = ps::atomic_fetch(c, word, pe);
    break;
  case reserved_call::atomic_swap:
    if (one) result = ps::atomic_swap(c, word, std::uint64_t(77), pe);
    break;
  case reserved_call::atomic_fetch_or:
    if (one) result = ps::atomic_fetch_or(c, word, std::uint64_t(0x100), pe);
    break;
  case reserved_call::signal_op:
    if (one) ps::signal_op(c, word, 9, ps::signal_add, pe);
    break;
  case reserved_call::put_signal_dest:
    if (one) ps::putmem_signal(c, target, local, 64, sig, 1, ps::signal_add, pe);
    break;
  case reserved_call::put_signal_sig:
    if (one) ps::putmem_signal(c, sym + 64, local, 64, word, 1, ps::signal_add, pe);
    break;
  case reserved_call::put_signal_block_sig:
    ps::putmem_signal_block(c, sym + 64, local, 64, word, 1, ps::signal_set, pe);
    break;
  case reserved_call::signal_fetch:
    if (one) result = ps::signal_fetch(c, word);
    break;
  case reserved_call::signal_wait_until:
    if (one) result = ps::signal_wait_until(c, word, cmp::ge, std::uint64_t(0));
    break;
  case reserved_call::wait_until:
    if (one) ps::wait_until(c, word, cmp::ge, std::uint64_t(0));
    break;
  case reserved_call::test:
    if (one) result = ps::test(c, word, cmp::ge, std::uint64_t(0)) ? 1 : 0;
    break;
  case reserved_call::wait_until_all:
    if (one) ps::wait_until_all(c, word, 4, nullptr, cmp::ge, std::uint64_t(0));
    break;
  case reserved_call::test_any:
    if (one) result = ps::test_any(c, word, 4, nullptr, cmp::ge, std::uint64_t(0));
    break;
  case reserved_call::wait_until_some:
    if (one) result = ps::wait_until_some(c, word, 4, indices, nullptr, cmp::ge, std::uint64_t(0));
    break;
  case reserved_call::ptr:
    if (one) result = ps::ptr(c, target, pe) != nullptr ? 1 : 0;
    break;
  }
  ps::arch::block_sync();
  if (one) {
    *out = result;
    ps::p(c, ok, std::uint64_t(ps::my_pe(c) + 1), pe);
  }
}

void PrintTo(reserved_call c, std::ostream* os) {
  *os << name_of(c);
}
void PrintTo(reserved_area a, std::ostream* os) {
  *os << (a == reserved_area::front ? "front" : "team");
}

/// The expected result of a refused call (what `out` holds): 0, or SIZE_MAX for test_any.
std::uint64_t refused_result(reserved_call c) {
  return c == reserved_call::test_any ? std::uint64_t(SIZE_MAX) : 0;
}

class ReservedArea : public ::testing::TestWithParam<std::tuple<reserved_call, reserved_area>> {};

// Every device call naming the reserved front (the barrier's counters) or the team area (the world team's words) of
// the next PE, or of this PE for the local calls (fetch, waits), is recorded as not symmetric and skipped: the area
// keeps every byte on every PE, the local buffer too, and the kernel goes on. In every build (no debug checks needed).
TEST_P(ReservedArea, DeviceCallsAreRefusedAndChangeNothing) {
  const auto [which, area] = GetParam();
  portshmem::ctx c = mp::context();
  constexpr std::size_t kLocal = 1024, kBefore = 256, kAfter = 768;
  char* const target = area == reserved_area::front ? mp::heap_start(c) : team_words(c);
  char* const from = area == reserved_area::front ? target : target - kBefore; // the region compared, on every PE
  const std::size_t region = area == reserved_area::front ? kAfter : kBefore + kAfter;
  char* sym = mp::sym_alloc<char>(256);
  auto* ok = mp::sym_alloc<std::uint64_t>(1);
  char* local = mp::private_alloc<char>(kLocal);
  auto* out = mp::private_alloc<std::uint64_t>(1);
  auto* indices = mp::private_alloc<std::size_t>(4);
  mp::to_device(sym, std::vector<char>(256, char(mp::kGuard)));
  mp::to_device(ok, std::vector<std::uint64_t>{0});
  mp::to_device(local, std::vector<char>(kLocal, 0x11));
  mp::to_device(out, std::vector<std::uint64_t>{0xdead});
  const std::vector<char> before = mp::to_host(from, region); // after the allocations: they rewrite the table
  mp::barrier();
  const int pe = mp::next_pe();
  mp::run(reserved_kernel, dim3(1), dim3(mp::kBlockThreads), c, which, target, pe, local, sym, ok, out, indices);
  const std::uint64_t count = c.error->count;
  const auto status = portshmem_status_t(c.error->status);
  const std::uint32_t call = c.error->call;
  const bool refused = which != reserved_call::ptr;
  EXPECT_EQ(portshmem_check_device_errors(), refused ? PORTSHMEM_ERR_DEVICE : PORTSHMEM_SUCCESS);
  if (refused) {
    EXPECT_EQ(count, 1u) << "one record per call";
    EXPECT_EQ(status, PORTSHMEM_ERR_NOT_SYMMETRIC) << portshmem_status_string(status);
    EXPECT_EQ(call, std::uint32_t(call_id_of(which)));
  }
  EXPECT_EQ(mp::to_host(out, 1)[0], refused_result(which)) << "what the refused call returned";
  mp::barrier(); // every PE's call and control put are done
  std::size_t changed = 0, first = SIZE_MAX;
  const std::vector<char> after = mp::to_host(from, region);
  for (std::size_t i = 0; i < region; ++i) {
    if (after[i] != before[i]) ++changed, first = std::min(first, i);
  }
  EXPECT_EQ(changed, 0u) << "the reserved area changed, first at byte " << first << " of the region";
  for (char v : mp::to_host(local, kLocal)) changed += v != 0x11;
  for (char v : mp::to_host(sym, 256)) changed += v != char(mp::kGuard);
  EXPECT_EQ(changed, 0u) << "the local buffer or the user's allocation changed";
  EXPECT_EQ(mp::to_host(ok, 1)[0], std::uint64_t(mp::prev_pe() + 1)) << "the kernel went on after the refused call";
  mp::barrier();
  EXPECT_EQ(hipFree(local), hipSuccess);
  EXPECT_EQ(hipFree(out), hipSuccess);
  EXPECT_EQ(hipFree(indices), hipSuccess);
  EXPECT_EQ(portshmem_free(ok), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(sym), PORTSHMEM_SUCCESS);
}

std::string reserved_name(const ::testing::TestParamInfo<std::tuple<reserved_call, reserved_area>>& info) {
  return std::string(name_of(std::get<0>(info.param))) +
         (std::get<1>(info.param) == reserved_area::front ? "_front" : "_team");
}

INSTANTIATE_TEST_SUITE_P(
    All, ReservedArea,
    ::testing::Combine(::testing::Values(reserved_call::putmem, reserved_call::putmem_word, reserved_call::putmem_wave,
                                         reserved_call::putmem_block, reserved_call::putmem_nbi,
                                         reserved_call::put_typed, reserved_call::getmem, reserved_call::getmem_block,
                                         reserved_call::p, reserved_call::g, reserved_call::atomic_fetch_add,
                                         reserved_call::atomic_add, reserved_call::atomic_compare_swap,
                                         reserved_call::atomic_set, reserved_call::atomic_fetch,
                                         reserved_call::atomic_swap, reserved_call::atomic_fetch_or,
                                         reserved_call::signal_op, reserved_call::put_signal_dest,
                                         reserved_call::put_signal_sig, reserved_call::put_signal_block_sig,
                                         reserved_call::signal_fetch, reserved_call::signal_wait_until,
                                         reserved_call::wait_until, reserved_call::test, reserved_call::wait_until_all,
                                         reserved_call::test_any, reserved_call::wait_until_some, reserved_call::ptr),
                       ::testing::Values(reserved_area::front, reserved_area::team)),
    reserved_name);

#if PORTSHMEM_DEBUG_CHECKS
// ---- debug checks (portshmem_mp_debug_tests): allocation bounds and alignment ---------------------------------------

/// Calls that stay inside the heap's user part but leave their allocation, name no allocation, or a misaligned word.
enum class debug_call {
  put_past_end, // 64 bytes starting 16 before the allocation's end: 48 would land in the next allocation
  put_wave_past_end,
  put_block_past_end,
  put_nbi_past_end,
  put_typed_past_end,
  get_past_end,
  get_block_past_end,
  put_signal_past_end,
  wait_all_past_end,
  test_some_past_end,
  put_in_freed, // a block freed before the call: no allocation holds it
  p_in_freed,
  g_in_freed,
  amo_in_freed,
  signal_op_in_freed,
  wait_in_freed,
  p_misaligned,
  g_misaligned,
  wait_misaligned,
  test_misaligned,
  wait_all_misaligned,
  signal_wait_misaligned,
  signal_fetch_misaligned,
  amo_misaligned // checked in every build; here for completeness
};

const char* name_of(debug_call c) {
  static const char* const kNames[] = {"put_past_end",
                                       "put_wave_past_end",
                                       "put_block_past_end",
                                       "put_nbi_past_end",
                                       "put_typed_past_end",
                                       "get_past_end",
                                       "get_block_past_end",
                                       "put_signal_past_end",
                                       "wait_all_past_end",
                                       "test_some_past_end",
                                       "put_in_freed",
                                       "p_in_freed",
                                       "g_in_freed",
                                       "amo_in_freed",
                                       "signal_op_in_freed",
                                       "wait_in_freed",
                                       "p_misaligned",
                                       "g_misaligned",
                                       "wait_misaligned",
                                       "test_misaligned",
                                       "wait_all_misaligned",
                                       "signal_wait_misaligned",
                                       "signal_fetch_misaligned",
                                       "amo_misaligned"};
  return kNames[int(c)];
}
void PrintTo(debug_call c, std::ostream* os) {
  *os << name_of(c);
}

struct debug_expectation {
  portshmem_status_t status;
  portshmem_call_id_t call;
};

debug_expectation expected_of(debug_call c) {
  switch (c) {
  case debug_call::put_past_end:
  case debug_call::put_wave_past_end:
  case debug_call::put_block_past_end:
  case debug_call::put_nbi_past_end:
  case debug_call::put_typed_past_end:
    return {PORTSHMEM_ERR_OVERFLOW, PORTSHMEM_CALL_PUT};
  case debug_call::get_past_end:
  case debug_call::get_block_past_end:
    return {PORTSHMEM_ERR_OVERFLOW, PORTSHMEM_CALL_GET};
  case debug_call::put_signal_past_end:
    return {PORTSHMEM_ERR_OVERFLOW, PORTSHMEM_CALL_SIGNAL};
  case debug_call::wait_all_past_end: // the waits report any bad range as not symmetric
  case debug_call::test_some_past_end:
  case debug_call::wait_in_freed:
    return {PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_WAIT};
  case debug_call::put_in_freed:
    return {PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_PUT};
  case debug_call::p_in_freed:
    return {PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_P};
  case debug_call::g_in_freed:
    return {PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_G};
  case debug_call::amo_in_freed:
    return {PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_AMO};
  case debug_call::signal_op_in_freed:
    return {PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_SIGNAL};
  case debug_call::p_misaligned:
    return {PORTSHMEM_ERR_INVALID_ARG, PORTSHMEM_CALL_P};
  case debug_call::g_misaligned:
    return {PORTSHMEM_ERR_INVALID_ARG, PORTSHMEM_CALL_G};
  case debug_call::wait_misaligned:
  case debug_call::test_misaligned:
  case debug_call::wait_all_misaligned:
    return {PORTSHMEM_ERR_INVALID_ARG, PORTSHMEM_CALL_WAIT};
  case debug_call::signal_wait_misaligned:
  case debug_call::signal_fetch_misaligned:
    return {PORTSHMEM_ERR_INVALID_ARG, PORTSHMEM_CALL_SIGNAL};
  default:
    return {PORTSHMEM_ERR_INVALID_ARG, PORTSHMEM_CALL_AMO};
  }
}

constexpr std::size_t kBlockBytes = 1024; // each of: before, target, after, freed

/// The bad call, then the control p of my_pe + 1 into ok on the PE named. Waits compare with what already holds.
PORTSHMEM_GLOBAL void debug_kernel(portshmem::ctx c, debug_call which, char* target, char* freed, char* local,
                                   std::uint64_t* sig, std::uint64_t* ok, std::size_t* indices, int pe) {
  namespace ps = portshmem;
  using ps::cmp;
  const unsigned t = ps::thread_rank();
  const bool one = t == 0, wave = t < ps::wave_size();
  char* const near_end = target + kBlockBytes - 16;
  switch (which) {
  case debug_call::put_past_end:
    if (one) ps::putmem(c, near_end, local, 64, pe);
    break;
  case debug_call::put_wave_past_end:
    if (wave) ps::putmem_wave(c, near_end, local, 64, pe);
    break;
  case debug_call::put_block_past_end:
    ps::putmem_block(c, near_end, local, 64, pe);
    break;
  case debug_call::put_nbi_past_end:
    if (one) ps::putmem_nbi(c, near_end, local, 64, pe);
    break;
  case debug_call::put_typed_past_end:
    if (one) ps::put(c, reinterpret_cast<long*>(near_end), reinterpret_cast<const long*>(local), 8, pe);
    break;
  case debug_call::get_past_end:
    if (one) ps::getmem(c, local, near_end, 64, pe);
    break;
  case debug_call::get_block_past_end:
    ps::getmem_block(c, local, near_end, 64, pe);
    break;
  case debug_call::put_signal_past_end:
    if (one) ps::putmem_signal(c, near_end, local, 64, sig, 1, ps::signal_add, pe);
    break;
  case debug_call::wait_all_past_end:
    if (one) ps::wait_until_all(c, reinterpret_cast<long*>(near_end), 8, nullptr, cmp::ge, LONG_MIN);
    break;
  case debug_call::test_some_past_end:
    if (one) ps::test_some(c, reinterpret_cast<long*>(near_end), 8, indices, nullptr, cmp::ge, LONG_MIN);
    break;
  case debug_call::put_in_freed:
    if (one) ps::putmem(c, freed, local, 64, pe);
    break;
  case debug_call::p_in_freed:
    if (one) ps::p(c, reinterpret_cast<int*>(freed), 5, pe);
    break;
  case debug_call::g_in_freed:
    if (one) (void)ps::g(c, reinterpret_cast<const int*>(freed), pe);
    break;
  case debug_call::amo_in_freed:
    if (one) ps::atomic_add(c, reinterpret_cast<long*>(freed), 5L, pe);
    break;
  case debug_call::signal_op_in_freed:
    if (one) ps::signal_op(c, reinterpret_cast<std::uint64_t*>(freed), 5, ps::signal_set, pe);
    break;
  case debug_call::wait_in_freed:
    if (one) ps::wait_until(c, reinterpret_cast<long*>(freed), cmp::ge, LONG_MIN);
    break;
  case debug_call::p_misaligned:
    if (one) ps::p(c, reinterpret_cast<int*>(target + 2), 5, pe);
    break;
  case debug_call::g_misaligned:
    if (one) (void)ps::g(c, reinterpret_cast<const long*>(target + 4), pe);
    break;
  case debug_call::wait_misaligned:
    if (one) ps::wait_until(c, reinterpret_cast<int*>(target + 1), cmp::ge, INT_MIN);
    break;
  case debug_call::test_misaligned:
    if (one) (void)ps::test(c, reinterpret_cast<short*>(target + 3), cmp::ge, short(SHRT_MIN));
    break;
  case debug_call::wait_all_misaligned:
    if (one) ps::wait_until_all(c, reinterpret_cast<long*>(target + 4), 2, nullptr, cmp::ge, LONG_MIN);
    break;
  case debug_call::signal_wait_misaligned:
    if (one) ps::signal_wait_until(c, reinterpret_cast<std::uint64_t*>(target + 4), cmp::ge, std::uint64_t(0));
    break;
  case debug_call::signal_fetch_misaligned:
    if (one) (void)ps::signal_fetch(c, reinterpret_cast<const std::uint64_t*>(target + 4));
    break;
  case debug_call::amo_misaligned:
    if (one) ps::atomic_add(c, reinterpret_cast<long*>(target + 4), 5L, pe);
    break;
  }
  ps::arch::block_sync();
  if (one) ps::p(c, ok, std::uint64_t(ps::my_pe(c) + 1), pe);
}

class DebugChecks : public ::testing::TestWithParam<debug_call> {};

// With PORTSHMEM_DEBUG_CHECKS=1 a call is checked against the allocation it starts in (the table of live allocations
// the host publishes at every allocation and free) and against the alignment of the word it accesses: a range past
// its allocation's end, an address in no allocation, a misaligned p/g/wait/AMO are recorded and skipped. Canary
// allocations on both sides of the target, and the freed block, keep every byte on every PE.
TEST_P(DebugChecks, IsRecordedAndChangesNothing) {
  const debug_call which = GetParam();
  const debug_expectation expected = expected_of(which);
  char* before = mp::sym_alloc<char>(kBlockBytes);
  char* target = mp::sym_alloc<char>(kBlockBytes);
  char* after = mp::sym_alloc<char>(kBlockBytes);
  char* freed = mp::sym_alloc<char>(kBlockBytes);
  auto* sig = mp::sym_alloc<std::uint64_t>(1);
  auto* ok = mp::sym_alloc<std::uint64_t>(1);
  EXPECT_EQ(portshmem_free(freed), PORTSHMEM_SUCCESS); // its bytes stay; no allocation holds them now
  // First fit packs them: before, target and after are adjacent, so a range past target's end lands in after.
  EXPECT_EQ(target, before + kBlockBytes);
  EXPECT_EQ(after, target + kBlockBytes);
  char* local = mp::private_alloc<char>(kBlockBytes);
  auto* indices = mp::private_alloc<std::size_t>(8);
  for (char* b : {before, target, after, freed}) mp::to_device(b, std::vector<char>(kBlockBytes, char(mp::kGuard)));
  mp::to_device(sig, std::vector<std::uint64_t>{0});
  mp::to_device(ok, std::vector<std::uint64_t>{0});
  mp::to_device(local, std::vector<char>(kBlockBytes, 0x11));
  mp::barrier();
  portshmem::ctx c = mp::context();
  mp::run(debug_kernel, dim3(1), dim3(mp::kBlockThreads), c, which, target, freed, local, sig, ok, indices,
          mp::next_pe());
  const std::uint64_t count = c.error->count;
  const auto status = portshmem_status_t(c.error->status);
  const std::uint32_t call = c.error->call;
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_ERR_DEVICE);
  EXPECT_EQ(count, 1u) << "one record per call";
  EXPECT_EQ(status, expected.status) << portshmem_status_string(status) << ", expected "
                                     << portshmem_status_string(expected.status);
  EXPECT_EQ(call, std::uint32_t(expected.call));
  mp::barrier();
  const char* const names[] = {"before", "target", "after", "freed"};
  char* const blocks[] = {before, target, after, freed};
  for (int i = 0; i < 4; ++i) {
    std::size_t changed = 0;
    for (char v : mp::to_host(blocks[i], kBlockBytes)) changed += v != char(mp::kGuard);
    EXPECT_EQ(changed, 0u) << "bytes of " << names[i] << " changed";
  }
  std::size_t changed = 0;
  for (char v : mp::to_host(local, kBlockBytes)) changed += v != 0x11;
  EXPECT_EQ(changed, 0u) << "the local buffer changed";
  EXPECT_EQ(mp::to_host(sig, 1)[0], 0u) << "a refused put-with-signal signalled";
  EXPECT_EQ(mp::to_host(ok, 1)[0], std::uint64_t(mp::prev_pe() + 1)) << "the kernel went on after the refused call";
  mp::barrier();
  EXPECT_EQ(hipFree(local), hipSuccess);
  EXPECT_EQ(hipFree(indices), hipSuccess);
  for (void* b : {static_cast<void*>(ok), static_cast<void*>(sig), static_cast<void*>(after),
                  static_cast<void*>(target), static_cast<void*>(before)}) {
    EXPECT_EQ(portshmem_free(b), PORTSHMEM_SUCCESS);
  }
}

INSTANTIATE_TEST_SUITE_P(
    All, DebugChecks,
    ::testing::Values(debug_call::put_past_end, debug_call::put_wave_past_end, debug_call::put_block_past_end,
                      debug_call::put_nbi_past_end, debug_call::put_typed_past_end, debug_call::get_past_end,
                      debug_call::get_block_past_end, debug_call::put_signal_past_end, debug_call::wait_all_past_end,
                      debug_call::test_some_past_end, debug_call::put_in_freed, debug_call::p_in_freed,
                      debug_call::g_in_freed, debug_call::amo_in_freed, debug_call::signal_op_in_freed,
                      debug_call::wait_in_freed, debug_call::p_misaligned, debug_call::g_misaligned,
                      debug_call::wait_misaligned, debug_call::test_misaligned, debug_call::wait_all_misaligned,
                      debug_call::signal_wait_misaligned, debug_call::signal_fetch_misaligned,
                      debug_call::amo_misaligned),
    [](const ::testing::TestParamInfo<debug_call>& info) { return std::string(name_of(info.param)); });

// Correct calls at an allocation's edges are not refused: the first and last bytes, a whole block, a get of it.
PORTSHMEM_GLOBAL void edges_kernel(portshmem::ctx c, char* a, char* b, const char* local, int pe) {
  namespace ps = portshmem;
  ps::putmem_block(c, a, local, kBlockBytes, pe);
  ps::getmem_block(c, const_cast<char*>(local) + kBlockBytes, b, kBlockBytes, pe);
  if (ps::thread_rank() == 0) {
    ps::p(c, b, char(1), pe);
    ps::p(c, b + kBlockBytes - 1, char(2), pe);
    ps::atomic_add(c, reinterpret_cast<long*>(b + kBlockBytes - 8), 0L, pe);
  }
}

TEST(DebugChecks, CallsInsideTheirAllocationPass) {
  char* a = mp::sym_alloc<char>(kBlockBytes);
  char* b = mp::sym_alloc<char>(kBlockBytes);
  char* local = mp::private_alloc<char>(2 * kBlockBytes);
  mp::to_device(local, std::vector<char>(2 * kBlockBytes, 0x22));
  mp::barrier();
  mp::run(edges_kernel, dim3(1), dim3(mp::kBlockThreads), mp::context(), a, b, local, mp::next_pe());
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(mp::to_host(a, kBlockBytes), std::vector<char>(kBlockBytes, 0x22));
  EXPECT_EQ(hipFree(local), hipSuccess);
  EXPECT_EQ(portshmem_free(b), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(a), PORTSHMEM_SUCCESS);
}
#endif // PORTSHMEM_DEBUG_CHECKS

} // namespace
