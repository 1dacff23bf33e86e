// The direct path of the one-word calls (transport::direct_word): taken only for a call the handle shows good — heaps
// in one symmetric range, no proxy, a mapped PE, the whole word inside the heap's user part, aligned where the call
// needs it — and then it names the word the full path would; every other call goes to the full path, which records
// it. A fabricated handle (three heaps one stride apart, PEs 0 and 1 mapped, PE 2 not), so each edge is exercised on
// one machine; the multi-process bad-input tests run the same calls through a real runtime. Builds with the debug
// checks (no NDEBUG) have no direct path: there only the last test, whose results do not depend on it, runs.
#include <gtest/gtest.h>

#include <cstdint>

#include <portshmem/portshmem.hpp>

#if PORTSHMEM_HAS_DEVICE_API && PORTSHMEM_PLATFORM_HOST
namespace {

namespace transport = portshmem::transport;

struct range_world {
  // Three heaps as the runtime lays them out in one range: a reserved area, then the user part, kStride apart.
  static constexpr std::size_t kUser = 4096, kReserved = portshmem::detail::kInternalHeapBytes;
  static constexpr std::size_t kStride = kReserved + kUser;
  alignas(256) char storage[3 * kStride] = {};
  char* heap(int pe) { return storage + std::size_t(pe) * kStride + kReserved; }
  char* peers[3] = {heap(0), heap(1), nullptr}; // PE 2: no load/store path
  portshmem_device_error_t error{};
  portshmem::ctx c{};
  explicit range_world(int me = 0) {
    c.my_pe = me;
    c.n_pes = 3;
    c.heap = heap(me);
    c.heap_size = kUser;
    c.peer_heaps = peers;
    c.peer_stride = std::int64_t(kStride);
    c.mapped_first = 0;
    c.mapped_count = 2;
    c.error = &error;
  }
};

#if !PORTSHMEM_DEBUG_CHECKS
static_assert(transport::kDirectWords, "the host platform has the symmetric range, so the direct path");

TEST(DirectWords, AGoodCallNamesThePeersCopy) {
  range_world w(1);
  auto* mine = reinterpret_cast<std::uint64_t*>(w.heap(1) + 64);
  EXPECT_EQ(transport::direct_word<true>(w.c, mine, 0), reinterpret_cast<std::uint64_t*>(w.heap(0) + 64));
  EXPECT_EQ(transport::direct_word<true>(w.c, mine, 1), mine);
  // What the full path resolves for the same call.
  EXPECT_EQ(transport::direct_word<true>(w.c, mine, 0),
            reinterpret_cast<std::uint64_t*>(transport::ipc::remote_range(w.c, mine, 8, 0, PORTSHMEM_CALL_P)));
}

TEST(DirectWords, TheHeapsEdgesAreExact) {
  range_world w;
  char* const h = w.heap(0);
  const std::size_t n = range_world::kUser;
  EXPECT_NE(transport::direct_word<true>(w.c, reinterpret_cast<std::uint64_t*>(h), 1), nullptr);
  EXPECT_NE(transport::direct_word<true>(w.c, reinterpret_cast<std::uint64_t*>(h + n - 8), 1), nullptr);
  EXPECT_NE(transport::direct_word<false>(w.c, h + n - 1, 1), nullptr);
  EXPECT_EQ(transport::direct_word<false>(w.c, reinterpret_cast<std::uint64_t*>(h + n - 4), 1), nullptr); // straddles
  EXPECT_EQ(transport::direct_word<false>(w.c, reinterpret_cast<std::uint64_t*>(h + n), 1), nullptr);
  EXPECT_EQ(transport::direct_word<false>(w.c, reinterpret_cast<std::uint32_t*>(h - 4), 1), nullptr); // reserved area
  EXPECT_EQ(transport::direct_word<false>(w.c, h - 1, 1), nullptr);
  int on_stack = 0;
  EXPECT_EQ(transport::direct_word<false>(w.c, &on_stack, 1), nullptr);
}

TEST(DirectWords, AHeapShorterThanTheWordTakesNone) {
  range_world w;
  w.c.heap_size = 4;
  EXPECT_EQ(transport::direct_word<false>(w.c, reinterpret_cast<std::uint64_t*>(w.heap(0)), 1), nullptr);
  EXPECT_NE(transport::direct_word<false>(w.c, reinterpret_cast<std::uint32_t*>(w.heap(0)), 1), nullptr);
  EXPECT_EQ(transport::direct_word<false>(w.c, reinterpret_cast<std::uint32_t*>(w.heap(0) + 1), 1), nullptr);
  w.c.heap_size = 0;
  EXPECT_EQ(transport::direct_word<false>(w.c, w.heap(0), 1), nullptr);
}

TEST(DirectWords, OnlyMappedPesInRange) {
  range_world w;
  const auto* word = reinterpret_cast<std::uint64_t*>(w.heap(0) + 8);
  for (int pe : {-1, 2, 3, -2147483647 - 1, 2147483647}) {
    EXPECT_EQ(transport::direct_word<true>(w.c, word, pe), nullptr) << "pe " << pe;
  }
}

TEST(DirectWords, AlignmentOnlyWhereAsked) {
  range_world w;
  const auto* odd = reinterpret_cast<const std::uint64_t*>(w.heap(0) + 4);
  EXPECT_EQ(transport::direct_word<true>(w.c, odd, 1), nullptr);
  EXPECT_NE(transport::direct_word<false>(w.c, odd, 1), nullptr);
}

TEST(DirectWords, NotWithTheTableOrTheProxy) {
  range_world table;
  table.c.peer_stride = 0;
  const auto* word = reinterpret_cast<std::uint64_t*>(table.heap(0) + 8);
  EXPECT_EQ(transport::direct_word<true>(table.c, word, 1), nullptr);
  range_world proxied;
  const portshmem_proxy_ring_t ring{};
  proxied.c.proxy_rings = &ring;
  proxied.c.proxy_ring_count = 1;
  EXPECT_EQ(transport::direct_word<true>(proxied.c, word, 1), nullptr);
}

#endif

// The public calls: good ones write and read the peer's copy, bad ones reach the full path, which records them.
TEST(DirectWords, CallsTakeItOrRecord) {
  range_world w;
  auto* word = reinterpret_cast<long*>(w.heap(0) + 16);
  auto* theirs = reinterpret_cast<long*>(w.heap(1) + 16);
  portshmem::p(w.c, word, 41L, 1);
  EXPECT_EQ(*theirs, 41);
  EXPECT_EQ(portshmem::atomic_fetch_add(w.c, word, 1L, 1), 41);
  EXPECT_EQ(portshmem::g(w.c, word, 1), 42);
  EXPECT_EQ(portshmem::atomic_compare_swap(w.c, word, 42L, 7L, 1), 42);
  EXPECT_EQ(portshmem::atomic_fetch(w.c, word, 1), 7);
  EXPECT_EQ(w.error.count, 0u);

  portshmem::p(w.c, word, 5L, 2); // PE 2: not mapped, no proxy
  EXPECT_EQ(w.error.count, 1u);
  EXPECT_EQ(w.error.status, std::uint32_t(PORTSHMEM_ERR_UNREACHABLE));
  EXPECT_EQ(w.error.call, std::uint32_t(PORTSHMEM_CALL_P));

  w.error = {};
  auto* misaligned = reinterpret_cast<long*>(w.heap(0) + 20);
  EXPECT_EQ(portshmem::atomic_fetch_add(w.c, misaligned, 1L, 1), 0);
  EXPECT_EQ(w.error.status, std::uint32_t(PORTSHMEM_ERR_INVALID_ARG));
  EXPECT_EQ(w.error.call, std::uint32_t(PORTSHMEM_CALL_AMO));

  w.error = {};
  EXPECT_EQ(portshmem::g(w.c, reinterpret_cast<long*>(w.heap(0) + range_world::kUser), 1), 0);
  EXPECT_EQ(w.error.status, std::uint32_t(PORTSHMEM_ERR_NOT_SYMMETRIC));
  EXPECT_EQ(*theirs, 7); // nothing the bad calls named was written
}

} // namespace
#endif
