// The proxy against a fake network: each command becomes the network calls its op needs, in ticket order; fence,
// quiet and pe_quiet become the network's ordering and completion calls, and a waiting producer returns only after
// them; every atomic kind fetches and updates as it should; a network failure reaches the waiting producer as a
// status, in the device error record, and in one log line naming PE, call and address.
#include "portshmem/platform.hpp"

// Producers are CPU threads calling the device-side ring code: the host platform only.
#if PORTSHMEM_PLATFORM_HOST
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "log.hpp"
#include "portshmem/transport/proxy_ring.hpp"
#include "rdma/proxy.hpp"
#include "test_proxy_fake_network.hpp"

namespace {

using portshmem::proxy::wait_for;
using proxy_test::event;
using proxy_test::fake_network;
namespace rdma = portshmem::rdma;
namespace proxy = portshmem::proxy;

struct harness {
  harness() : net(3, 4096) {
    EXPECT_EQ(rdma::proxy::create(net, {1, 8, false}, &px), PORTSHMEM_SUCCESS);
    ctx.my_pe = 0;
    ctx.n_pes = 3;
    // Commands count from the heap start (`heap` here); the handle's heap is its user part, after the reserved area.
    ctx.heap = reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(heap) + portshmem::detail::kInternalHeapBytes);
    ctx.heap_size = sizeof heap;
    ctx.error = &error;
    ctx.timeout_ns = 60'000'000'000ull;
  }
  ~harness() { portshmem::detail::log_set_sink({}); }
  portshmem_status_t post(const portshmem_proxy_cmd_t& cmd, wait_for w = wait_for::completion,
                          std::uint64_t* fetched = nullptr) {
    return proxy::post(ctx, px->rings().ring(0), cmd, w, fetched);
  }
  std::vector<event::kind> kinds() const {
    std::vector<event::kind> k;
    for (const event& e : net.events()) k.push_back(e.what);
    return k;
  }
  void capture_log() {
    portshmem::detail::log_set_sink([this](std::string_view line) { log.emplace_back(line); });
  }

  fake_network net;
  std::unique_ptr<rdma::proxy> px;
  char heap[4096] = {};
  portshmem_device_error_t error{};
  portshmem_ctx_t ctx{};
  std::vector<std::string> log;
};

TEST(Proxy, CommandsBecomeNetworkCallsInOrder) {
  harness h;
  ASSERT_EQ(h.px->start(), PORTSHMEM_SUCCESS);
  std::uint64_t src[4] = {1, 2, 3, 4}, dst[4] = {};
  EXPECT_EQ(h.post(proxy::put_command(1, 64, src, sizeof src, false), wait_for::nothing), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::put_command(2, 0, src, 8, true)), PORTSHMEM_SUCCESS); // blocking: locally complete
  EXPECT_EQ(h.post(proxy::put_inline_command(1, 128, 0xabcd, 2), wait_for::nothing), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::get_command(1, 64, dst, sizeof dst)), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::signal_command(PORTSHMEM_PROXY_SIGNAL_ADD, 2, 256, 5), wait_for::nothing), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::ordering_command(PORTSHMEM_PROXY_OP_QUIET, -1, PORTSHMEM_CALL_BARRIER)), PORTSHMEM_SUCCESS);
  // get waited for its data; the quiet for the flush.
  EXPECT_EQ(dst[3], 4u);
  using k = event;
  EXPECT_EQ(h.kinds(), (std::vector<event::kind>{k::put, k::put, k::complete_local, k::put_inline, k::get,
                                                 k::complete_local, k::atomic, k::flush_all}));
  const auto events = h.net.events();
  EXPECT_EQ(events[0].pe, 1);
  EXPECT_EQ(events[0].remote, 64u);
  EXPECT_EQ(events[0].size, 32u);
  EXPECT_EQ(events[1].pe, 2);
  EXPECT_EQ(events[3].size, 2u);
  EXPECT_EQ(h.net.word(1, 128) & 0xffff, 0xabcdu);
  EXPECT_EQ(events[6].amo, PORTSHMEM_PROXY_AMO_ADD);
  EXPECT_EQ(h.net.word(2, 256), 5u);
  EXPECT_EQ(h.px->stop(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.error.count, 0u);
}

TEST(Proxy, AnIdleProxyFlushesForANetworkThatDeliversOnlyAtAFlush) {
  harness h;
  h.net.flush_to_deliver = true; // MPI passive target: a lone signal may sit until a flush
  ASSERT_EQ(h.px->start(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::signal_command(PORTSHMEM_PROXY_SIGNAL_ADD, 1, 0, 1), wait_for::nothing), PORTSHMEM_SUCCESS);
  // No quiet follows: the proxy flushes on its own once idle.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (h.net.events().size() < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  using k = event;
  const auto kinds = h.kinds();
  ASSERT_GE(kinds.size(), 2u);
  EXPECT_EQ(kinds[0], k::atomic);
  EXPECT_EQ(kinds[1], k::flush_all);
  EXPECT_EQ(h.px->stop(), PORTSHMEM_SUCCESS);
}

TEST(Proxy, AHostQuietFlushesWhatTheThreadExecuted) {
  harness h;
  ASSERT_EQ(h.px->start(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::put_inline_command(1, 0, 7, 8), wait_for::nothing), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.px->quiet(60'000'000'000ull), PORTSHMEM_SUCCESS);
  using k = event;
  EXPECT_EQ(h.kinds(), (std::vector<event::kind>{k::put_inline, k::flush_all}));
  EXPECT_EQ(h.net.word(1, 0), 7u);
  EXPECT_EQ(h.px->stop(), PORTSHMEM_SUCCESS);
}

TEST(Proxy, FencePeQuietAndPutWithSignal) {
  harness h;
  ASSERT_EQ(h.px->start(), PORTSHMEM_SUCCESS);
  std::uint64_t data = 42;
  EXPECT_EQ(h.post(proxy::put_inline_command(1, 0, 1, 8), wait_for::nothing), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::ordering_command(PORTSHMEM_PROXY_OP_FENCE, -1, PORTSHMEM_CALL_BARRIER)), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::put_inline_command(1, 8, 2, 8), wait_for::nothing), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::put_signal_command(2, 512, &data, 8, 1024, 7, PORTSHMEM_PROXY_SIGNAL_SET, true)),
            PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::ordering_command(PORTSHMEM_PROXY_OP_PE_QUIET, 2, PORTSHMEM_CALL_BARRIER)), PORTSHMEM_SUCCESS);
  using k = event;
  EXPECT_EQ(h.kinds(), (std::vector<event::kind>{k::put_inline, k::order_all, k::put_inline, k::put, k::order,
                                                 k::atomic, k::complete_local, k::flush}));
  const auto events = h.net.events();
  EXPECT_EQ(events[4].pe, 2); // the signal is ordered after the data on its own target
  EXPECT_EQ(events[5].remote, 1024u);
  EXPECT_EQ(events[5].amo, PORTSHMEM_PROXY_AMO_SET);
  EXPECT_EQ(events[7].pe, 2);
  EXPECT_EQ(h.net.word(2, 512), 42u);
  EXPECT_EQ(h.net.word(2, 1024), 7u);
  EXPECT_EQ(h.px->stop(), PORTSHMEM_SUCCESS);
}

TEST(Proxy, QuietReturnsOnlyAfterTheFlush) {
  harness h;
  std::atomic<bool> flushed{false};
  h.net.on_event = [&](const event& e) {
    if (e.what != event::flush_all) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    flushed.store(true);
  };
  ASSERT_EQ(h.px->start(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::put_inline_command(1, 0, 1, 8), wait_for::nothing), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::ordering_command(PORTSHMEM_PROXY_OP_QUIET, -1, PORTSHMEM_CALL_BARRIER)), PORTSHMEM_SUCCESS);
  EXPECT_TRUE(flushed.load());
  h.net.on_event = nullptr;
  EXPECT_EQ(h.px->stop(), PORTSHMEM_SUCCESS);
}

/// One atomic: the fetched value (through the result cell and through a local destination) and the value left.
struct amo_case {
  portshmem_proxy_amo_t kind;
  std::uint64_t before, value, compare, fetched, after;
};

TEST(Proxy, EveryAtomicKindAtBothWidths) {
  harness h;
  ASSERT_EQ(h.px->start(), PORTSHMEM_SUCCESS);
  const std::uint64_t big = 0x1234'5678'9abc'def0ull;
  const amo_case cases[] = {
      {PORTSHMEM_PROXY_AMO_FETCH, big, 0, 0, big, big},
      {PORTSHMEM_PROXY_AMO_SET, big, 77, 0, 0, 77},
      {PORTSHMEM_PROXY_AMO_SWAP, big, 77, 0, big, 77},
      {PORTSHMEM_PROXY_AMO_COMPARE_SWAP, big, 77, big, big, 77},
      {PORTSHMEM_PROXY_AMO_COMPARE_SWAP, big, 77, 5, big, big},
      {PORTSHMEM_PROXY_AMO_FETCH_ADD, big, 16, 0, big, big + 16},
      {PORTSHMEM_PROXY_AMO_FETCH_AND, big, 0xff00ff00ff00ff00ull, 0, big, big & 0xff00ff00ff00ff00ull},
      {PORTSHMEM_PROXY_AMO_FETCH_OR, big, 0xf, 0, big, big | 0xf},
      {PORTSHMEM_PROXY_AMO_FETCH_XOR, big, 0xff, 0, big, big ^ 0xff},
      {PORTSHMEM_PROXY_AMO_ADD, big, 16, 0, 0, big + 16},
      {PORTSHMEM_PROXY_AMO_AND, big, 0xf0f0, 0, 0, big & 0xf0f0},
      {PORTSHMEM_PROXY_AMO_OR, big, 0xf, 0, 0, big | 0xf},
      {PORTSHMEM_PROXY_AMO_XOR, big, 0xff, 0, 0, big ^ 0xff},
  };
  for (unsigned width : {4u, 8u}) {
    const std::uint64_t mask = width == 8 ? ~0ull : 0xffffffffull;
    for (const amo_case& c : cases) {
      for (bool into_local : {false, true}) {
        const std::uint64_t at = 2048, guard = 0x5a5a5a5a5a5a5a5aull;
        std::uint64_t word = (c.before & mask) | (width == 4 ? guard << 32 : 0);
        std::memcpy(h.net.heaps[1].data() + at, &word, 8);
        std::uint64_t fetched = ~0ull, local = ~0ull;
        const auto cmd = proxy::amo_command(c.kind, 1, at, width, c.value, c.compare, into_local ? &local : nullptr);
        const bool fetches = rdma::amo_fetches(c.kind);
        ASSERT_EQ(h.post(cmd, fetches ? wait_for::value : wait_for::completion, &fetched), PORTSHMEM_SUCCESS);
        const std::string what = std::string(rdma::command_name(cmd)) + " width " + std::to_string(width) +
                                 (into_local ? " into a local destination" : " into the result cell");
        if (fetches && !into_local) EXPECT_EQ(fetched, c.fetched & mask) << what;
        if (fetches && into_local) EXPECT_EQ(local & mask, c.fetched & mask) << what;
        if (fetches && into_local && width == 4) EXPECT_EQ(local >> 32, 0xffffffffu) << what << ": wrote 4 bytes";
        EXPECT_EQ(h.net.word(1, at) & mask, c.after & mask) << what;
        if (width == 4) EXPECT_EQ(h.net.word(1, at) >> 32, guard & 0xffffffffu) << what << ": left its neighbour";
      }
    }
  }
  EXPECT_EQ(h.px->stop(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.error.count, 0u);
}

TEST(Proxy, ANetworkFailureReachesTheWaitingProducer) {
  harness h;
  h.capture_log();
  h.net.fail_at = 1; // the second network call: the nbi put below
  ASSERT_EQ(h.px->start(), PORTSHMEM_SUCCESS);
  std::uint64_t src = 9;
  EXPECT_EQ(h.post(proxy::put_inline_command(1, 0, 1, 8)), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::put_command(2, 0x40, &src, 8, false), wait_for::nothing), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::ordering_command(PORTSHMEM_PROXY_OP_QUIET, -1, PORTSHMEM_CALL_BARRIER)), rdma::kNetworkError);
  // The device error record names the failed call, its target and the symmetric address.
  EXPECT_EQ(h.error.count, 1u);
  EXPECT_EQ(h.error.status, rdma::kNetworkError);
  EXPECT_EQ(h.error.target_pe, 2);
  EXPECT_EQ(h.error.address, reinterpret_cast<std::uintptr_t>(h.heap + 0x40));
  // Sticky: a later wait on this ring reports it too, and the ring keeps working.
  EXPECT_EQ(h.post(proxy::put_inline_command(1, 8, 3, 8)), rdma::kNetworkError);
  EXPECT_EQ(h.net.word(1, 8), 3u);
  EXPECT_EQ(h.px->stop(), rdma::kNetworkError);
  ASSERT_EQ(h.log.size(), 1u);
  const std::string& line = h.log[0];
  EXPECT_NE(line.find("put to PE 2 at heap offset 0x40"), std::string::npos) << line;
  EXPECT_NE(line.find("fake: link down at event 1"), std::string::npos) << line;
  EXPECT_NE(line.find("ticket 1"), std::string::npos) << line;
  EXPECT_EQ(h.px->rings().ring(0).state->error_ticket, 1u);
  EXPECT_EQ(h.px->rings().ring(0).state->error_op, PORTSHMEM_PROXY_OP_PUT);
}

TEST(Proxy, AFailedFetchStillReleasesItsSlot) {
  harness h;
  h.capture_log();
  h.net.fail_at = 0;
  ASSERT_EQ(h.px->start(), PORTSHMEM_SUCCESS);
  std::uint64_t fetched = 0;
  EXPECT_EQ(h.post(proxy::amo_command(PORTSHMEM_PROXY_AMO_FETCH_ADD, 1, 0, 8, 1), wait_for::value, &fetched),
            rdma::kNetworkError);
  // The ring has 8 slots: more than 8 further commands pass only if the failed fetch's slot was released.
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(h.post(proxy::amo_command(PORTSHMEM_PROXY_AMO_FETCH_ADD, 1, 0, 8, 1), wait_for::value, &fetched),
              rdma::kNetworkError);
  }
  EXPECT_EQ(fetched, 19u);
  EXPECT_EQ(h.px->stop(), rdma::kNetworkError);
  EXPECT_EQ(h.log.size(), 1u);
}

TEST(Proxy, AMalformedCommandIsReportedNotExecuted) {
  harness h;
  h.capture_log();
  ASSERT_EQ(h.px->start(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(h.post(proxy::amo_command(PORTSHMEM_PROXY_AMO_ADD, 1, 0, 3, 1)), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(h.px->stop(), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(h.kinds(), (std::vector<event::kind>{event::flush_all})); // only stop()'s flush
  ASSERT_EQ(h.log.size(), 1u);
  EXPECT_NE(h.log[0].find("add to PE 1"), std::string::npos) << h.log[0];
  EXPECT_NE(h.log[0].find("malformed command: atomic width is not 4 or 8"), std::string::npos) << h.log[0];
}

TEST(Proxy, StopExecutesWhatWasPublishedThenFlushes) {
  harness h;
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(h.post(proxy::put_inline_command(1, 8 * i, i, 8), wait_for::nothing), PORTSHMEM_SUCCESS);
  }
  EXPECT_EQ(h.px->stop(), PORTSHMEM_SUCCESS); // never started: stop drains on the caller's thread
  EXPECT_EQ(h.px->executed(), 5u);
  EXPECT_EQ(h.kinds().back(), event::flush_all);
  EXPECT_EQ(h.net.word(1, 32), 4u);
}

} // namespace
#endif
