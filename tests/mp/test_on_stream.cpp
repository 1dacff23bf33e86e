// On-stream calls (portshmem/stream.h), called from the host with no kernel of the test's own: ring puts delivered by
// barrier_all_on_stream; gets; put-with-signal (set and add) whose data is in place once signal_wait_until_on_stream
// lets the stream go on; signal_op adds from every PE summing exactly; each comparison of the wait; quiet before a
// signal; zero-byte calls; the default stream; and bad arguments, each refused with its status before anything is
// enqueued: no byte of the canaries around them changes and no device error is recorded.
#include <string>

#include "mp_test.hpp"

namespace {

/// A stream of the test's own (on the host platform a null handle: every call there is synchronous anyway).
class OnStream : public ::testing::Test {
 protected:
  void SetUp() override { EXPECT_EQ(hipStreamCreate(&stream_), hipSuccess); }
  void TearDown() override { EXPECT_EQ(hipStreamDestroy(stream_), hipSuccess); }
  portshmem_stream_t stream() const { return stream_; }
  void sync() const { EXPECT_EQ(hipStreamSynchronize(stream_), hipSuccess); }

 private:
  hipStream_t stream_{};
};

constexpr std::size_t kSizes[] = {1, 13, 256, 4099, 65536 + 5};
constexpr std::size_t kPad = 61; // guard bytes on each side of a destination; odd, so destinations are misaligned

std::vector<std::uint8_t> pattern_of(int pe, std::size_t n, unsigned salt) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = mp::pattern(pe, i, salt);
  return v;
}

/// Bytes of got (a destination of n bytes with kPad guard bytes on each side) that are not pe's pattern inside, or
/// not the guard outside.
std::size_t wrong_bytes(const std::vector<std::uint8_t>& got, int pe, std::size_t n, unsigned salt) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool inside = i >= kPad && i < kPad + n;
    wrong += got[i] != (inside ? mp::pattern(pe, i - kPad, salt) : mp::kGuard);
  }
  return wrong;
}

// ---- putmem + barrier_all -------------------------------------------------------------------------------------------

TEST_F(OnStream, RingPutsArriveByBarrierAll) {
  unsigned salt = 0;
  for (std::size_t n : kSizes) {
    ++salt;
    auto* data = mp::sym_alloc<std::uint8_t>(n + 2 * kPad);
    auto* src = mp::private_alloc<std::uint8_t>(n);
    mp::to_device(data, std::vector<std::uint8_t>(n + 2 * kPad, mp::kGuard));
    mp::to_device(src, pattern_of(mp::me(), n, salt));
    mp::barrier(); // every PE's guards are in place before anyone puts
    EXPECT_EQ(portshmem_putmem_on_stream(data + kPad, src, n, mp::next_pe(), stream()), PORTSHMEM_SUCCESS);
    EXPECT_EQ(portshmem_barrier_all_on_stream(stream()), PORTSHMEM_SUCCESS);
    sync();
    EXPECT_EQ(wrong_bytes(mp::to_host(data, n + 2 * kPad), mp::prev_pe(), n, salt), 0u) << n << " bytes";
    EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
    mp::barrier();
    EXPECT_EQ(hipFree(src), hipSuccess);
    EXPECT_EQ(portshmem_free(data), PORTSHMEM_SUCCESS);
  }
}

// ---- getmem ---------------------------------------------------------------------------------------------------------

TEST_F(OnStream, GetReadsTheNextPe) {
  unsigned salt = 10;
  for (std::size_t n : kSizes) {
    ++salt;
    auto* data = mp::sym_alloc<std::uint8_t>(n);
    auto* dest = mp::private_alloc<std::uint8_t>(n + 2 * kPad);
    mp::to_device(data, pattern_of(mp::me(), n, salt));
    mp::to_device(dest, std::vector<std::uint8_t>(n + 2 * kPad, mp::kGuard));
    mp::barrier(); // every PE's source is in place before anyone reads it
    EXPECT_EQ(portshmem_getmem_on_stream(dest + kPad, data, n, mp::next_pe(), stream()), PORTSHMEM_SUCCESS);
    sync();
    EXPECT_EQ(wrong_bytes(mp::to_host(dest, n + 2 * kPad), mp::next_pe(), n, salt), 0u) << n << " bytes";
    EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
    mp::barrier(); // the previous PE may still be reading this PE's source
    EXPECT_EQ(hipFree(dest), hipSuccess);
    EXPECT_EQ(portshmem_free(data), PORTSHMEM_SUCCESS);
  }
}

// ---- putmem_signal + signal_wait_until ------------------------------------------------------------------------------

/// Each PE sends two halves of its pattern to the next PE with put-with-signal (set: the second signal's value
/// overwrites the first; add: the two add up) and waits for its own signal to reach the final value; the data is
/// checked right after the wait, before any barrier could deliver what the signal did not.
void check_put_signal(portshmem_stream_t stream, int sig_op) {
  constexpr std::size_t n = 4096 + 3, half = n / 2;
  const unsigned salt = 20 + unsigned(sig_op);
  auto* data = mp::sym_alloc<std::uint8_t>(n + 2 * kPad);
  auto* sig = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  auto* src = mp::private_alloc<std::uint8_t>(n);
  mp::to_device(data, std::vector<std::uint8_t>(n + 2 * kPad, mp::kGuard));
  mp::to_device(src, pattern_of(mp::me(), n, salt));
  mp::barrier();
  const std::uint64_t first = 100 + mp::me(), second = 1000 + mp::me();
  const std::uint64_t from_prev = 100 + mp::prev_pe(), from_prev2 = 1000 + mp::prev_pe();
  const std::uint64_t want = sig_op == PORTSHMEM_SIGNAL_SET ? from_prev2 : from_prev + from_prev2;
  EXPECT_EQ(portshmem_putmem_signal_on_stream(data + kPad, src, half, sig, first, sig_op, mp::next_pe(), stream),
            PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_putmem_signal_on_stream(data + kPad + half, src + half, n - half, sig, second, sig_op,
                                              mp::next_pe(), stream),
            PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_signal_wait_until_on_stream(sig, PORTSHMEM_CMP_EQ, want, stream), PORTSHMEM_SUCCESS);
  EXPECT_EQ(hipStreamSynchronize(static_cast<hipStream_t>(stream)), hipSuccess);
  EXPECT_EQ(wrong_bytes(mp::to_host(data, n + 2 * kPad), mp::prev_pe(), n, salt), 0u);
  EXPECT_EQ(mp::to_host(sig, 1)[0], want);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(src), hipSuccess);
  EXPECT_EQ(portshmem_free(sig), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(data), PORTSHMEM_SUCCESS);
}

TEST_F(OnStream, PutSignalSetDeliversDataBeforeTheSignal) {
  check_put_signal(stream(), PORTSHMEM_SIGNAL_SET);
}

TEST_F(OnStream, PutSignalAddDeliversDataBeforeTheSignal) {
  check_put_signal(stream(), PORTSHMEM_SIGNAL_ADD);
}

TEST_F(OnStream, ZeroBytePutSignalStillSignals) {
  auto* sig = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  EXPECT_EQ(
      portshmem_putmem_signal_on_stream(nullptr, nullptr, 0, sig, 7, PORTSHMEM_SIGNAL_ADD, mp::next_pe(), stream()),
      PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_signal_wait_until_on_stream(sig, PORTSHMEM_CMP_EQ, 7, stream()), PORTSHMEM_SUCCESS);
  sync();
  EXPECT_EQ(mp::to_host(sig, 1)[0], 7u);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(portshmem_free(sig), PORTSHMEM_SUCCESS);
}

// ---- signal_op ------------------------------------------------------------------------------------------------------

TEST_F(OnStream, SignalOpAddsFromEveryPeSumExactly) {
  constexpr int kRounds = 3;
  auto* counter = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  const std::uint64_t n = std::uint64_t(mp::npes()), total = kRounds * n * (n + 1) / 2;
  for (int r = 0; r < kRounds; ++r) {
    EXPECT_EQ(portshmem_signal_op_on_stream(counter, std::uint64_t(mp::me()) + 1, PORTSHMEM_SIGNAL_ADD, 0, stream()),
              PORTSHMEM_SUCCESS);
  }
  if (mp::me() == 0) {
    EXPECT_EQ(portshmem_signal_wait_until_on_stream(counter, PORTSHMEM_CMP_GE, total, stream()), PORTSHMEM_SUCCESS);
  }
  sync();
  if (mp::me() == 0) EXPECT_EQ(mp::to_host(counter, 1)[0], total);
  mp::barrier(); // every add has been made (each PE's stream is synchronized)
  EXPECT_EQ(mp::to_host(counter, 1)[0], mp::me() == 0 ? total : 0u) << "an add landed on the wrong PE or twice";
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(portshmem_free(counter), PORTSHMEM_SUCCESS);
}

TEST_F(OnStream, SignalOpSetOverwrites) {
  auto* sig = mp::sym_alloc<std::uint64_t>(1);
  mp::to_device(sig, std::vector<std::uint64_t>{12345});
  mp::barrier();
  EXPECT_EQ(
      portshmem_signal_op_on_stream(sig, 500 + std::uint64_t(mp::me()), PORTSHMEM_SIGNAL_SET, mp::next_pe(), stream()),
      PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_signal_wait_until_on_stream(sig, PORTSHMEM_CMP_LT, 12345, stream()), PORTSHMEM_SUCCESS);
  sync();
  EXPECT_EQ(mp::to_host(sig, 1)[0], 500 + std::uint64_t(mp::prev_pe()));
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(portshmem_free(sig), PORTSHMEM_SUCCESS);
}

// ---- signal_wait_until: every comparison ----------------------------------------------------------------------------

/// Each comparison is satisfied by 42 only where it should be: a wrong one waits (past PORTSHMEM_TIMEOUT, recorded).
TEST_F(OnStream, WaitUntilComparesAsDocumented) {
  auto* sig = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  EXPECT_EQ(portshmem_signal_op_on_stream(sig, 42, PORTSHMEM_SIGNAL_SET, mp::me(), stream()), PORTSHMEM_SUCCESS);
  const struct {
    int cmp;
    std::uint64_t value;
  } waits[] = {{PORTSHMEM_CMP_EQ, 42}, {PORTSHMEM_CMP_NE, 0},  {PORTSHMEM_CMP_GT, 41},
               {PORTSHMEM_CMP_GE, 42}, {PORTSHMEM_CMP_LT, 43}, {PORTSHMEM_CMP_LE, 42}};
  for (const auto& w : waits) {
    EXPECT_EQ(portshmem_signal_wait_until_on_stream(sig, w.cmp, w.value, stream()), PORTSHMEM_SUCCESS) << w.cmp;
  }
  sync();
  EXPECT_EQ(mp::to_host(sig, 1)[0], 42u);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(portshmem_free(sig), PORTSHMEM_SUCCESS);
}

// ---- quiet ----------------------------------------------------------------------------------------------------------

/// put, quiet, then a signal_op (which by itself does not wait for the put): the quiet delivers the data first.
TEST_F(OnStream, QuietDeliversPutsBeforeALaterSignal) {
  constexpr std::size_t n = 8192 + 7;
  constexpr unsigned salt = 30;
  auto* data = mp::sym_alloc<std::uint8_t>(n + 2 * kPad);
  auto* sig = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  auto* src = mp::private_alloc<std::uint8_t>(n);
  mp::to_device(data, std::vector<std::uint8_t>(n + 2 * kPad, mp::kGuard));
  mp::to_device(src, pattern_of(mp::me(), n, salt));
  mp::barrier();
  EXPECT_EQ(portshmem_putmem_on_stream(data + kPad, src, n, mp::next_pe(), stream()), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_quiet_on_stream(stream()), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_signal_op_on_stream(sig, 1, PORTSHMEM_SIGNAL_SET, mp::next_pe(), stream()), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_signal_wait_until_on_stream(sig, PORTSHMEM_CMP_EQ, 1, stream()), PORTSHMEM_SUCCESS);
  sync();
  EXPECT_EQ(wrong_bytes(mp::to_host(data, n + 2 * kPad), mp::prev_pe(), n, salt), 0u);
  EXPECT_EQ(portshmem_quiet_on_stream(stream()), PORTSHMEM_SUCCESS) << "a quiet with nothing outstanding";
  sync();
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(src), hipSuccess);
  EXPECT_EQ(portshmem_free(sig), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(data), PORTSHMEM_SUCCESS);
}

// ---- the default stream, zero-byte calls ----------------------------------------------------------------------------

TEST(OnStreamDefault, NullIsTheDefaultStream) {
  constexpr std::size_t n = 1000;
  constexpr unsigned salt = 40;
  auto* data = mp::sym_alloc<std::uint8_t>(n + 2 * kPad);
  auto* src = mp::private_alloc<std::uint8_t>(n);
  mp::to_device(data, std::vector<std::uint8_t>(n + 2 * kPad, mp::kGuard));
  mp::to_device(src, pattern_of(mp::me(), n, salt));
  mp::barrier();
  EXPECT_EQ(portshmem_putmem_on_stream(data + kPad, src, n, mp::next_pe(), nullptr), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_barrier_all_on_stream(nullptr), PORTSHMEM_SUCCESS);
  EXPECT_EQ(hipDeviceSynchronize(), hipSuccess);
  EXPECT_EQ(wrong_bytes(mp::to_host(data, n + 2 * kPad), mp::prev_pe(), n, salt), 0u);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(src), hipSuccess);
  EXPECT_EQ(portshmem_free(data), PORTSHMEM_SUCCESS);
}

TEST(OnStreamDefault, ZeroBytePutAndGetDoNothing) {
  // Nothing moves, so no buffer is looked at; the PE still is.
  EXPECT_EQ(portshmem_putmem_on_stream(nullptr, nullptr, 0, mp::next_pe(), nullptr), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_getmem_on_stream(nullptr, nullptr, 0, mp::next_pe(), nullptr), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_putmem_on_stream(nullptr, nullptr, 0, mp::npes(), nullptr), PORTSHMEM_ERR_INVALID_PE);
  EXPECT_EQ(portshmem_getmem_on_stream(nullptr, nullptr, 0, -1, nullptr), PORTSHMEM_ERR_INVALID_PE);
  EXPECT_EQ(hipDeviceSynchronize(), hipSuccess);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
}

// ---- bad arguments: refused before anything is enqueued -------------------------------------------------------------

constexpr std::size_t kBadBytes = 64;
constexpr std::uint8_t kDataGuard = 0xD1, kPrivGuard = 0x5E; // unlike each other and the put source's pattern
constexpr std::uint64_t kSigGuard = 0x5151515151515151;

/// What a bad call may name: symmetric data and signal words, a private buffer, a private source of other bytes.
struct buffers {
  std::uint8_t* data;    // symmetric, kBadBytes of kDataGuard
  std::uint64_t* sig;    // symmetric, 2 words of kSigGuard
  std::uint8_t* priv;    // private, kBadBytes of kPrivGuard
  std::uint8_t* from;    // private, kBadBytes of this PE's pattern: what a put would write
  char* heap;            // this PE's heap start: the reserved area
  std::size_t heap_size; // ctx.heap_size: the bytes of the part allocations come from
  int next, n;
};

struct bad_case {
  const char* name;
  portshmem_status_t expected;
  portshmem_status_t (*call)(const buffers& b, portshmem_stream_t s);
};

std::uint64_t* misaligned(std::uint64_t* p) {
  return reinterpret_cast<std::uint64_t*>(reinterpret_cast<char*>(p) + 4);
}

const void* wrapping_source() {
  return reinterpret_cast<const void*>(~std::uintptr_t(0) - 3); // 8 bytes from here wrap around
}

const bad_case kBadCases[] = {
    {"put_pe_negative", PORTSHMEM_ERR_INVALID_PE,
     [](const buffers& b, portshmem_stream_t s) { return portshmem_putmem_on_stream(b.data, b.from, 8, -1, s); }},
    {"put_pe_too_large", PORTSHMEM_ERR_INVALID_PE,
     [](const buffers& b, portshmem_stream_t s) { return portshmem_putmem_on_stream(b.data, b.from, 8, b.n, s); }},
    {"put_dest_private", PORTSHMEM_ERR_NOT_SYMMETRIC,
     [](const buffers& b, portshmem_stream_t s) { return portshmem_putmem_on_stream(b.priv, b.from, 8, b.next, s); }},
    {"put_dest_reserved_area", PORTSHMEM_ERR_NOT_SYMMETRIC,
     [](const buffers& b, portshmem_stream_t s) { return portshmem_putmem_on_stream(b.heap, b.from, 8, b.next, s); }},
    {"put_dest_null", PORTSHMEM_ERR_INVALID_ARG,
     [](const buffers& b, portshmem_stream_t s) { return portshmem_putmem_on_stream(nullptr, b.from, 8, b.next, s); }},
    {"put_src_null", PORTSHMEM_ERR_INVALID_ARG,
     [](const buffers& b, portshmem_stream_t s) { return portshmem_putmem_on_stream(b.data, nullptr, 8, b.next, s); }},
    {"put_size_max", PORTSHMEM_ERR_OVERFLOW,
     [](const buffers& b, portshmem_stream_t s) {
       return portshmem_putmem_on_stream(b.data, b.from, SIZE_MAX, b.next, s);
     }},
    {"put_past_heap_end", PORTSHMEM_ERR_OVERFLOW,
     [](const buffers& b, portshmem_stream_t s) {
       return portshmem_putmem_on_stream(b.data, b.from, b.heap_size + 1, b.next, s); // more than the allocations' part
     }},
    {"put_src_wraps", PORTSHMEM_ERR_OVERFLOW,
     [](const buffers& b, portshmem_stream_t s) {
       return portshmem_putmem_on_stream(b.data, wrapping_source(), 8, b.next, s);
     }},
    {"get_pe_too_large", PORTSHMEM_ERR_INVALID_PE,
     [](const buffers& b, portshmem_stream_t s) { return portshmem_getmem_on_stream(b.priv, b.data, 8, b.n, s); }},
    {"get_src_private", PORTSHMEM_ERR_NOT_SYMMETRIC,
     [](const buffers& b, portshmem_stream_t s) { return portshmem_getmem_on_stream(b.priv, b.from, 8, b.next, s); }},
    {"get_src_null", PORTSHMEM_ERR_INVALID_ARG,
     [](const buffers& b, portshmem_stream_t s) { return portshmem_getmem_on_stream(b.priv, nullptr, 8, b.next, s); }},
    {"get_dest_null", PORTSHMEM_ERR_INVALID_ARG,
     [](const buffers& b, portshmem_stream_t s) { return portshmem_getmem_on_stream(nullptr, b.data, 8, b.next, s); }},
    {"get_past_heap_end", PORTSHMEM_ERR_OVERFLOW,
     [](const buffers& b, portshmem_stream_t s) {
       return portshmem_getmem_on_stream(b.priv, b.data, b.heap_size + 1, b.next, s);
     }},
    {"put_signal_pe_negative", PORTSHMEM_ERR_INVALID_PE,
     [](const buffers& b, portshmem_stream_t s) {
       return portshmem_putmem_signal_on_stream(b.data, b.from, 8, b.sig, 1, PORTSHMEM_SIGNAL_SET, -1, s);
     }},
    {"put_signal_dest_private", PORTSHMEM_ERR_NOT_SYMMETRIC,
     [](const buffers& b, portshmem_stream_t s) {
       return portshmem_putmem_signal_on_stream(b.priv, b.from, 8, b.sig, 1, PORTSHMEM_SIGNAL_SET, b.next, s);
     }},
    {"put_signal_size_max", PORTSHMEM_ERR_OVERFLOW,
     [](const buffers& b, portshmem_stream_t s) {
       return portshmem_putmem_signal_on_stream(b.data, b.from, SIZE_MAX, b.sig, 1, PORTSHMEM_SIGNAL_ADD, b.next, s);
     }},
    {"put_signal_sig_private", PORTSHMEM_ERR_NOT_SYMMETRIC,
     [](const buffers& b, portshmem_stream_t s) {
       auto* priv_sig = reinterpret_cast<std::uint64_t*>(b.priv);
       return portshmem_putmem_signal_on_stream(b.data, b.from, 8, priv_sig, 1, PORTSHMEM_SIGNAL_SET, b.next, s);
     }},
    {"put_signal_sig_misaligned", PORTSHMEM_ERR_INVALID_ARG,
     [](const buffers& b, portshmem_stream_t s) {
       return portshmem_putmem_signal_on_stream(b.data, b.from, 8, misaligned(b.sig), 1, PORTSHMEM_SIGNAL_SET, b.next,
                                                s);
     }},
    {"put_signal_sig_null", PORTSHMEM_ERR_INVALID_ARG,
     [](const buffers& b, portshmem_stream_t s) {
       return portshmem_putmem_signal_on_stream(b.data, b.from, 8, nullptr, 1, PORTSHMEM_SIGNAL_SET, b.next, s);
     }},
    {"put_signal_bad_sig_op", PORTSHMEM_ERR_INVALID_ARG,
     [](const buffers& b, portshmem_stream_t s) {
       return portshmem_putmem_signal_on_stream(b.data, b.from, 8, b.sig, 1, 2, b.next, s);
     }},
    {"signal_op_pe_too_large", PORTSHMEM_ERR_INVALID_PE,
     [](const buffers& b, portshmem_stream_t s) {
       return portshmem_signal_op_on_stream(b.sig, 1, PORTSHMEM_SIGNAL_ADD, b.n, s);
     }},
    {"signal_op_bad_sig_op", PORTSHMEM_ERR_INVALID_ARG,
     [](const buffers& b, portshmem_stream_t s) { return portshmem_signal_op_on_stream(b.sig, 1, -1, b.next, s); }},
    {"signal_op_sig_reserved_area", PORTSHMEM_ERR_NOT_SYMMETRIC,
     [](const buffers& b, portshmem_stream_t s) {
       auto* reserved = reinterpret_cast<std::uint64_t*>(b.heap);
       return portshmem_signal_op_on_stream(reserved, 1, PORTSHMEM_SIGNAL_ADD, b.next, s);
     }},
    {"signal_op_sig_null", PORTSHMEM_ERR_INVALID_ARG,
     [](const buffers& b, portshmem_stream_t s) {
       return portshmem_signal_op_on_stream(nullptr, 1, PORTSHMEM_SIGNAL_SET, b.next, s);
     }},
    {"wait_bad_cmp", PORTSHMEM_ERR_INVALID_ARG,
     [](const buffers& b, portshmem_stream_t s) { return portshmem_signal_wait_until_on_stream(b.sig, 6, 0, s); }},
    {"wait_negative_cmp", PORTSHMEM_ERR_INVALID_ARG,
     [](const buffers& b, portshmem_stream_t s) { return portshmem_signal_wait_until_on_stream(b.sig, -1, 0, s); }},
    {"wait_sig_private", PORTSHMEM_ERR_NOT_SYMMETRIC,
     [](const buffers& b, portshmem_stream_t s) {
       auto* priv_sig = reinterpret_cast<std::uint64_t*>(b.priv);
       return portshmem_signal_wait_until_on_stream(priv_sig, PORTSHMEM_CMP_EQ, 12345, s);
     }},
    {"wait_sig_misaligned", PORTSHMEM_ERR_INVALID_ARG,
     [](const buffers& b, portshmem_stream_t s) {
       return portshmem_signal_wait_until_on_stream(misaligned(b.sig), PORTSHMEM_CMP_EQ, 12345, s);
     }},
    {"wait_sig_null", PORTSHMEM_ERR_INVALID_ARG,
     [](const buffers&, portshmem_stream_t s) {
       return portshmem_signal_wait_until_on_stream(nullptr, PORTSHMEM_CMP_NE, 0, s);
     }},
};

void PrintTo(const bad_case& c, std::ostream* os) {
  *os << c.name;
}

class OnStreamBadCall : public ::testing::TestWithParam<bad_case> {};

TEST_P(OnStreamBadCall, IsRefusedAndEnqueuesNothing) {
  hipStream_t stream{};
  EXPECT_EQ(hipStreamCreate(&stream), hipSuccess);
  const portshmem::ctx c = mp::context();
  buffers b{mp::sym_alloc<std::uint8_t>(kBadBytes),
            mp::sym_alloc<std::uint64_t>(2),
            mp::private_alloc<std::uint8_t>(kBadBytes),
            mp::private_alloc<std::uint8_t>(kBadBytes),
            mp::heap_start(c),
            std::size_t(c.heap_size),
            mp::next_pe(),
            mp::npes()};
  mp::to_device(b.data, std::vector<std::uint8_t>(kBadBytes, kDataGuard));
  mp::to_device(b.sig, std::vector<std::uint64_t>(2, kSigGuard));
  mp::to_device(b.priv, std::vector<std::uint8_t>(kBadBytes, kPrivGuard));
  mp::to_device(b.from, pattern_of(mp::me(), kBadBytes, 50));
  // The reserved area's first words (the device barrier's counters) as they are: no device barrier runs until the
  // check, so any change there is a write the call should have refused.
  const std::vector<std::uint64_t> reserved = mp::to_host(reinterpret_cast<std::uint64_t*>(mp::heap_start(c)), 4);
  mp::barrier();
  EXPECT_EQ(GetParam().call(b, stream), GetParam().expected)
      << "expected " << portshmem_status_string(GetParam().expected);
  EXPECT_EQ(hipStreamSynchronize(stream), hipSuccess);
  mp::barrier(); // every PE's call (and anything it wrongly enqueued) is done
  std::size_t changed = 0;
  for (std::uint8_t v : mp::to_host(b.data, kBadBytes)) changed += v != kDataGuard;
  for (std::uint64_t v : mp::to_host(b.sig, 2)) changed += v != kSigGuard;
  for (std::uint8_t v : mp::to_host(b.priv, kBadBytes)) changed += v != kPrivGuard;
  EXPECT_EQ(changed, 0u) << "a refused call changed memory";
  EXPECT_EQ(mp::to_host(reinterpret_cast<std::uint64_t*>(mp::heap_start(c)), 4), reserved)
      << "the reserved area changed";
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS) << "a kernel ran and recorded a bad call";
  mp::barrier();
  EXPECT_EQ(hipFree(b.priv), hipSuccess);
  EXPECT_EQ(hipFree(b.from), hipSuccess);
  EXPECT_EQ(portshmem_free(b.sig), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(b.data), PORTSHMEM_SUCCESS);
  EXPECT_EQ(hipStreamDestroy(stream), hipSuccess);
}

INSTANTIATE_TEST_SUITE_P(OnStream, OnStreamBadCall, ::testing::ValuesIn(kBadCases),
                         [](const ::testing::TestParamInfo<bad_case>& p) { return std::string(p.param.name); });

} // namespace
