// Bad calls get a clear error and change nothing: device calls naming a PE out of range, an address outside the
// symmetric heap or a range running past its end are recorded and skipped (the neighbours' memory keeps its guard);
// host calls with such arguments return errors.
#include <limits>

#include "mp_test.hpp"
#include "portshmem/detail/internal_area.hpp"

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

// The runtime's own variables (barrier counters) at the heap start are not the user's: no pointer to them is given.
TEST(BadInput, HostPtrRefusesTheReservedArea) {
  portshmem::ctx c = mp::context();
  constexpr std::size_t kReserved = portshmem::detail::kInternalHeapBytes;
  for (int pe = 0; pe < mp::npes(); ++pe) {
    for (std::size_t offset : {std::size_t{0}, std::size_t{8}, kReserved / 2, kReserved - 1}) {
      EXPECT_EQ(portshmem_ptr(c.heap + offset, pe), nullptr) << "offset " << offset << " on PE " << pe;
      EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_NOT_SYMMETRIC);
    }
    EXPECT_EQ(portshmem_ptr(c.heap + kReserved, pe) != nullptr, mp::load_store_to(pe))
        << "the first byte past it is the user's (a pointer where a load/store path exists)";
    EXPECT_EQ(portshmem_ptr(c.heap + c.heap_size, pe), nullptr) << "one past the heap";
  }
}

} // namespace
