// The queue protocol under stress: rings of 2 slots, many producers (plain threads, and waves of the host launcher
// that reserve with one atomic per wave), fetching commands whose slots wait for the producer's ack, and the proxy
// draining them. Every command must be executed exactly once, each producer's in its order, without deadlock.
#include "portshmem/platform.hpp"

// Producers are CPU threads calling the device-side ring code: the host platform only.
#if PORTSHMEM_PLATFORM_HOST
#include <atomic>
#include <map>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "portshmem/arch.hpp"
#include "portshmem/transport/proxy_ring.hpp"
#include "rdma/proxy.hpp"
#include "test_proxy_fake_network.hpp"

namespace {

using portshmem::proxy::wait_for;
using proxy_test::event;
using proxy_test::fake_network;
namespace rdma = portshmem::rdma;
namespace proxy = portshmem::proxy;

constexpr std::uint64_t kCounter = 4096; // heap offset of the fetch_add counter (PE 0)

struct harness {
  explicit harness(std::uint32_t capacity, unsigned rings = 1) : net(2, 1 << 16) {
    EXPECT_EQ(rdma::proxy::create(net, {rings, capacity, false}, &px), PORTSHMEM_SUCCESS);
    ctx.my_pe = 0;
    ctx.n_pes = 2;
    // Commands count from the heap start (`heap` here); the handle's heap is its user part, after the reserved area.
    ctx.heap = reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(heap) + portshmem::detail::kInternalHeapBytes);
    ctx.heap_size = sizeof heap;
    ctx.error = &error;
    ctx.timeout_ns = 60'000'000'000ull; // a deadlock fails the test instead of hanging it
  }
  const portshmem_proxy_ring_t& ring(unsigned i = 0) const { return px->rings().ring(i); }

  fake_network net;
  std::unique_ptr<rdma::proxy> px;
  char heap[64] = {};
  portshmem_device_error_t error{};
  portshmem_ctx_t ctx{};
};

/// value of the n-th command of producer p: the executed order of each producer's values must be increasing.
std::uint64_t tag(unsigned producer, unsigned n) {
  return (std::uint64_t(producer) << 32) | n;
}

/// Checks that the inline puts among events carry every tag of producers x per_producer exactly once, each producer's
/// in increasing order.
void expect_each_once_in_order(const std::vector<event>& events, unsigned producers, unsigned per_producer) {
  std::map<unsigned, std::vector<unsigned>> seen;
  for (const event& e : events) {
    if (e.what == event::put_inline) seen[unsigned(e.value >> 32)].push_back(unsigned(e.value));
  }
  ASSERT_EQ(seen.size(), producers);
  for (const auto& [producer, ns] : seen) {
    ASSERT_EQ(ns.size(), per_producer) << "producer " << producer;
    for (unsigned n = 0; n < per_producer; ++n) ASSERT_EQ(ns[n], n) << "producer " << producer;
  }
}

TEST(ProxyRing, TwoSlotsManyThreadsEveryCommandOnceInOrder) {
  harness h(2);
  ASSERT_EQ(h.px->start(), PORTSHMEM_SUCCESS);
  constexpr unsigned kThreads = 16, kEach = 400;
  std::vector<std::vector<std::uint64_t>> fetched(kThreads);
  std::atomic<int> failures{0};
  std::vector<std::thread> producers;
  for (unsigned p = 0; p < kThreads; ++p) {
    producers.emplace_back([&, p] {
      for (unsigned n = 0; n < kEach; ++n) {
        portshmem_status_t s;
        if (n % 5 == 4) { // a fetch through the result cell: its slot waits for this thread's ack
          std::uint64_t old = ~0ull;
          s = proxy::post(h.ctx, h.ring(), proxy::amo_command(PORTSHMEM_PROXY_AMO_FETCH_ADD, 0, kCounter, 8, 1),
                          wait_for::value, &old);
          fetched[p].push_back(old);
        }
        const auto cmd = proxy::put_inline_command(1, 8 * p, tag(p, n), 8);
        s = proxy::post(h.ctx, h.ring(), cmd, n % 3 == 0 ? wait_for::completion : wait_for::nothing);
        if (s != PORTSHMEM_SUCCESS) failures.fetch_add(1);
      }
    });
  }
  for (auto& t : producers) t.join();
  ASSERT_EQ(h.px->stop(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(h.error.count, 0u);
  expect_each_once_in_order(h.net.events(), kThreads, kEach);
  // Every fetch_add saw a distinct old value: 0 .. fetches-1, none lost or repeated.
  std::set<std::uint64_t> olds;
  std::size_t fetches = 0;
  for (const auto& f : fetched) {
    olds.insert(f.begin(), f.end());
    fetches += f.size();
  }
  EXPECT_EQ(olds.size(), fetches);
  EXPECT_EQ(*olds.rbegin(), fetches - 1);
  EXPECT_EQ(h.net.word(0, kCounter), fetches);
  EXPECT_EQ(*h.ring().reserve, kThreads * kEach + fetches);
  EXPECT_EQ(h.ring().state->completed, kThreads * kEach + fetches);
}

TEST(ProxyRing, SeveralRingsDrainedTogether) {
  harness h(2, 3);
  ASSERT_EQ(h.px->start(), PORTSHMEM_SUCCESS);
  constexpr unsigned kThreads = 6, kEach = 300;
  std::vector<std::thread> producers;
  for (unsigned p = 0; p < kThreads; ++p) {
    producers.emplace_back([&, p] {
      for (unsigned n = 0; n < kEach; ++n) {
        EXPECT_EQ(
            proxy::post(h.ctx, h.ring(p % 3), proxy::put_inline_command(1, 8 * p, tag(p, n), 8), wait_for::nothing),
            PORTSHMEM_SUCCESS);
      }
    });
  }
  for (auto& t : producers) t.join();
  ASSERT_EQ(h.px->stop(), PORTSHMEM_SUCCESS);
  expect_each_once_in_order(h.net.events(), kThreads, kEach);
}

// ---- waves of the host launcher: one reservation atomic per wave ----------------------------------------------------

struct wave_args {
  portshmem_ctx_t ctx;
  portshmem_proxy_ring_t ring;
  std::uint64_t* scratch; // two words per wave of the grid
  unsigned rounds;
  std::atomic<int>* failures;
};

/// Whether lane issues in round k, and whether what it issues is a fetch_add (else a put of its next tag).
bool lane_issues(unsigned lane, unsigned k) {
  return (lane + k) % 3 != 0;
}
bool lane_fetches(unsigned lane, unsigned k) {
  return (k + lane) % 4 == 0;
}
constexpr std::uint64_t counter_of(unsigned producer) {
  return kCounter + 8 * producer;
}

/// Every thread posts in `rounds` wave calls; which lanes issue, and what, changes from round to round.
void wave_kernel(wave_args a) {
  namespace arch = portshmem::arch;
  const unsigned waves_per_block = (arch::block_threads() + arch::wave_size() - 1) / arch::wave_size();
  const unsigned wave = arch::block_rank() * waves_per_block + arch::thread_rank() / arch::wave_size();
  const unsigned producer = arch::block_rank() * arch::block_threads() + arch::thread_rank();
  unsigned puts = 0, fetches_so_far = 0;
  for (unsigned k = 0; k < a.rounds; ++k) {
    const bool issues = lane_issues(arch::lane(), k), fetches = lane_fetches(arch::lane(), k);
    std::uint64_t old = ~0ull;
    const auto cmd = fetches ? proxy::amo_command(PORTSHMEM_PROXY_AMO_FETCH_ADD, 0, counter_of(producer), 8, 1)
                             : proxy::put_inline_command(1, 8 * producer, tag(producer, puts), 8);
    // wait_for::nothing: a fetch into the result cell is waited for all the same (its slot needs the ack).
    const portshmem_status_t s =
        proxy::post_wave(a.ctx, a.ring, issues, cmd, wait_for::nothing, a.scratch + 2 * wave, &old);
    if (s != PORTSHMEM_SUCCESS) a.failures->fetch_add(1);
    if (!issues) continue;
    if (fetches && old != fetches_so_far++) a.failures->fetch_add(1); // its own counter: its earlier fetches
    if (!fetches) ++puts;
  }
}

TEST(ProxyRing, WavesReserveOnceAndTheirTicketsAreConsecutive) {
  harness h(2);
  ASSERT_EQ(h.px->start(), PORTSHMEM_SUCCESS);
  constexpr unsigned kBlocks = 3, kThreads = 20, kRounds = 30; // 20 threads: waves of 8, 8 and 4
  constexpr unsigned kWave = portshmem::arch::host::kWaveSize, kWavesPerBlock = (kThreads + kWave - 1) / kWave;
  std::vector<std::uint64_t> scratch(2 * kBlocks * kWavesPerBlock);
  std::atomic<int> failures{0};
  const wave_args args{h.ctx, h.ring(), scratch.data(), kRounds, &failures};
  portshmem::arch::host::run_grid(kBlocks, kThreads, [&] { wave_kernel(args); });
  ASSERT_EQ(h.px->stop(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(failures.load(), 0);

  // The rounds in which each producer issues, in its program order.
  std::vector<std::vector<unsigned>> rounds_of(kBlocks * kThreads);
  std::size_t total = 0;
  for (unsigned p = 0; p < kBlocks * kThreads; ++p) {
    for (unsigned k = 0; k < kRounds; ++k) {
      if (lane_issues(p % kThreads % kWave, k)) rounds_of[p].push_back(k);
    }
    total += rounds_of[p].size();
  }
  EXPECT_EQ(*h.ring().reserve, total);
  std::vector<event> events; // the commands' network calls, without the complete_local after each fetch
  for (const event& e : h.net.events()) {
    if (e.what != event::complete_local) events.push_back(e);
  }
  ASSERT_EQ(events.size(), total + 1); // + the final flush_all of stop()
  ASSERT_EQ(events.back().what, event::flush_all);

  // Each event's producer and round; each producer's commands in program order (its tags count up).
  std::vector<unsigned> next(kBlocks * kThreads, 0), puts(kBlocks * kThreads, 0);
  std::map<std::pair<unsigned, unsigned>, std::vector<std::size_t>> positions; // (wave, round) -> event indices
  for (std::size_t i = 0; i + 1 < events.size(); ++i) {
    const event& e = events[i];
    unsigned p;
    if (e.what == event::atomic) {
      p = unsigned((e.remote - kCounter) / 8);
    } else {
      ASSERT_EQ(e.what, event::put_inline);
      p = unsigned(e.value >> 32);
      ASSERT_LT(p, kBlocks * kThreads);
      ASSERT_EQ(unsigned(e.value), puts[p]++) << "producer " << p;
    }
    ASSERT_LT(next[p], rounds_of[p].size());
    const unsigned k = rounds_of[p][next[p]++];
    ASSERT_EQ(e.what == event::atomic, lane_fetches(p % kThreads % kWave, k));
    positions[{p / kThreads * kWavesPerBlock + p % kThreads / kWave, k}].push_back(i);
  }
  for (unsigned p = 0; p < kBlocks * kThreads; ++p) EXPECT_EQ(next[p], rounds_of[p].size()) << "producer " << p;
  // One reservation per wave call: its lanes' commands executed back to back.
  for (const auto& [call, at] : positions) {
    EXPECT_EQ(at.back() - at.front() + 1, at.size()) << "wave " << call.first << " round " << call.second;
  }
}

// ---- back-pressure without a proxy: publication and the bounded wait ------------------------------------------------

TEST(ProxyRing, PublishesWithSequenceAndTimesOutWhenFull) {
  harness h(2);
  h.ctx.timeout_ns = 20'000'000; // 20 ms
  const auto cmd = proxy::put_inline_command(1, 16, 0x1234, 8);
  ASSERT_EQ(proxy::post(h.ctx, h.ring(), cmd, wait_for::nothing), PORTSHMEM_SUCCESS);
  ASSERT_EQ(proxy::post(h.ctx, h.ring(), cmd, wait_for::nothing), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.ring().slots[0].seq, 1u);
  EXPECT_EQ(h.ring().slots[1].seq, 2u);
  EXPECT_EQ(h.ring().slots[1].value, 0x1234u);
  EXPECT_EQ(h.ring().slots[1].op, PORTSHMEM_PROXY_OP_PUT);
  // The ring is full and nobody drains it: the third post gives up after the timeout and says where.
  EXPECT_EQ(proxy::post(h.ctx, h.ring(), cmd, wait_for::nothing), PORTSHMEM_ERR_TIMEOUT);
  EXPECT_EQ(h.error.count, 1u);
  EXPECT_EQ(h.error.status, PORTSHMEM_ERR_TIMEOUT);
  EXPECT_EQ(h.error.call, PORTSHMEM_CALL_P);
  EXPECT_EQ(h.error.target_pe, 1);
  EXPECT_EQ(h.error.address, reinterpret_cast<std::uintptr_t>(h.heap + 16));
  // One pass of the proxy frees both slots; the timed-out ticket 2 was never published, so it is not executed.
  EXPECT_EQ(h.px->poll(), 2u);
  EXPECT_EQ(h.ring().state->consumed, 2u);
}

TEST(ProxyRing, WaitForCompletionTimesOutWithoutAProxy) {
  harness h(4);
  h.ctx.timeout_ns = 20'000'000;
  const auto get = proxy::get_command(1, 0, h.heap, 8);
  EXPECT_EQ(proxy::post(h.ctx, h.ring(), get, wait_for::completion), PORTSHMEM_ERR_TIMEOUT);
  EXPECT_EQ(h.error.status, PORTSHMEM_ERR_TIMEOUT);
  EXPECT_EQ(h.error.call, PORTSHMEM_CALL_GET);
  EXPECT_EQ(h.error.size, 1u); // the awaited completion count
}

TEST(ProxyRing, RefusesARingOfAnotherLayoutVersion) {
  harness h(2);
  portshmem_proxy_ring_t other = h.ring();
  other.version = PORTSHMEM_PROXY_QUEUE_VERSION + 1;
  EXPECT_EQ(proxy::post(h.ctx, other, proxy::put_inline_command(1, 0, 1, 8), wait_for::nothing),
            PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(h.error.status, PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(*h.ring().reserve, 0u); // refused before taking a ticket, which would have stopped the ring
  EXPECT_EQ(h.ring().slots[0].seq, 0u);
}

} // namespace
#endif
