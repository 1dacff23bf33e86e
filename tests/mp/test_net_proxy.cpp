// The RDMA path end to end on the host platform: producer threads (a grid of the host launcher, one ring per block)
// post commands, the progress thread of each PE executes them over the MPI network, and the values land in the other
// PEs' memory; a thread waiting on a signal word that a peer's proxy writes sees it, data first.
#include "portshmem/platform.hpp"

#if PORTSHMEM_PLATFORM_HOST
#include <algorithm>
#include <atomic>
#include <numeric>

#include "portshmem/arch.hpp"
#include "portshmem/transport/proxy_ring.hpp"
#include "rdma/proxy.hpp"
#include "test_net_common.hpp"

namespace {

using namespace net_test;
namespace proxy = portshmem::proxy;
namespace arch = portshmem::arch;
using proxy::wait_for;

constexpr unsigned kBlocks = 4, kThreads = 8; // one ring per block
constexpr std::uint64_t kData = 0, kCounter = 64 * 1024, kSignals = 128 * 1024, kPingData = 256 * 1024;
constexpr std::uint64_t kPingSignal = 512 * 1024;

/// The network, the proxy with its thread running, and a device handle over this PE's region.
struct rdma_path {
  rdma_path() {
    net = make_network(mem);
    if (!net) return;
    EXPECT_EQ(portshmem::rdma::proxy::create(*net, {kBlocks, 4, false}, &px), PORTSHMEM_SUCCESS);
    EXPECT_EQ(px->start(), PORTSHMEM_SUCCESS);
    ctx.my_pe = me();
    ctx.n_pes = npes();
    ctx.heap = reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(mem.base()) +
                                       portshmem::detail::kInternalHeapBytes); // commands count from the region's start
    ctx.heap_size = region::kBytes;
    ctx.error = &error;
    ctx.timeout_ns = 60'000'000'000ull;
  }
  ~rdma_path() {
    if (px) EXPECT_EQ(px->stop(), PORTSHMEM_SUCCESS);
    px.reset();
    MPI_Barrier(MPI_COMM_WORLD); // nobody frees the window while another PE's proxy still writes
    net.reset();                 // collective
  }
  const portshmem_proxy_ring_t& ring_of_block() const { return px->rings().ring(arch::block_rank()); }

  region mem;
  std::unique_ptr<rdma::network> net;
  std::unique_ptr<portshmem::rdma::proxy> px;
  portshmem_device_error_t error{};
  portshmem_ctx_t ctx{};
};

/// Each thread: puts its 64 bytes into the next PE, fetch-adds PE 0's counter, puts-with-signal 8 bytes into the
/// next PE with a signal add of 1, gets the previous PE's counter word back (blocking), and quiets.
void traffic(rdma_path& p, std::uint64_t* olds, std::atomic<int>* failures) {
  const unsigned t = arch::block_rank() * kThreads + arch::thread_rank();
  const int next = next_pe();
  std::uint8_t bytes[64];
  for (unsigned i = 0; i < 64; ++i) bytes[i] = pattern(me(), t * 64 + i, 4);
  const portshmem_proxy_ring_t& r = p.ring_of_block();
  auto ok = [&](portshmem_status_t s) {
    if (s != PORTSHMEM_SUCCESS) failures->fetch_add(1);
  };
  ok(proxy::post(p.ctx, r, proxy::put_command(next, kData + t * 64, bytes, 64, true), wait_for::completion));
  ok(proxy::post(p.ctx, r, proxy::amo_command(PORTSHMEM_PROXY_AMO_FETCH_ADD, 0, kCounter, 8, 1), wait_for::value,
                 &olds[t]));
  std::uint64_t word = 0x0101010101010101ull * (t + 1);
  ok(proxy::post(
      p.ctx, r,
      proxy::put_signal_command(next, kSignals + 8 + t * 8, &word, 8, kSignals, 1, PORTSHMEM_PROXY_SIGNAL_ADD, true),
      wait_for::completion));
  ok(proxy::post(p.ctx, r, proxy::ordering_command(PORTSHMEM_PROXY_OP_QUIET, -1, PORTSHMEM_CALL_BARRIER),
                 wait_for::completion));
}

TEST(NetProxy, PutsAtomicsAndSignalsFromManyThreadsLandAtThePeers) {
  rdma_path p;
  ASSERT_TRUE(p.px);
  std::vector<std::uint64_t> olds(kBlocks * kThreads, ~0ull);
  std::atomic<int> failures{0};
  arch::host::run_grid(kBlocks, kThreads, [&] { traffic(p, olds.data(), &failures); });
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(p.error.count, 0u);
  barrier(); // every PE's threads quieted: all their operations are complete at the targets
  const auto* got = reinterpret_cast<const std::uint8_t*>(p.mem.base());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < 64 * kBlocks * kThreads; ++i) wrong += got[kData + i] != pattern(prev_pe(), i, 4);
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(p.mem.word(kSignals), kBlocks * kThreads);
  for (unsigned t = 0; t < kBlocks * kThreads; ++t) {
    EXPECT_EQ(p.mem.word(kSignals + 8 + t * 8), 0x0101010101010101ull * (t + 1)) << t;
  }
  std::vector<std::uint64_t> all(olds.size() * std::size_t(npes()));
  ASSERT_EQ(MPI_Allgather(olds.data(), int(olds.size()), MPI_UINT64_T, all.data(), int(olds.size()), MPI_UINT64_T,
                          MPI_COMM_WORLD),
            MPI_SUCCESS);
  std::sort(all.begin(), all.end());
  std::vector<std::uint64_t> expected(all.size());
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(all, expected);
  if (me() == 0) EXPECT_EQ(p.mem.word(kCounter), all.size());
}

TEST(NetProxy, AWaitOnAProxyDeliveredSignalSeesTheDataFirst) {
  rdma_path p;
  ASSERT_TRUE(p.px);
  barrier(); // every PE's network exists before anyone sends
  constexpr std::uint64_t kRounds = 40, kWords = 512;
  std::vector<std::uint64_t> data(kWords);
  std::uint64_t* signal = &p.mem.words[kPingSignal / 8];
  const std::uint64_t* inbox = &p.mem.words[kPingData / 8];
  std::size_t wrong = 0;
  // A ring of PEs passing rounds: PE 0 starts each round, every other PE forwards after receiving it.
  for (std::uint64_t k = 1; k <= kRounds; ++k) {
    if (me() != 0) {
      while (std::atomic_ref<std::uint64_t>(*signal).load(std::memory_order_acquire) < k) arch::spin_pause();
      for (std::uint64_t i = 0; i < kWords; ++i) wrong += std::atomic_ref(inbox[i]).load() != k * 1000 + i;
    }
    for (std::uint64_t i = 0; i < kWords; ++i) data[i] = k * 1000 + i;
    const auto cmd = proxy::put_signal_command(next_pe(), kPingData, data.data(), kWords * 8, kPingSignal, k,
                                               PORTSHMEM_PROXY_SIGNAL_SET, true);
    ASSERT_EQ(proxy::post(p.ctx, p.px->rings().ring(0), cmd, wait_for::completion), PORTSHMEM_SUCCESS);
    if (me() == 0) {
      while (std::atomic_ref<std::uint64_t>(*signal).load(std::memory_order_acquire) < k) arch::spin_pause();
      for (std::uint64_t i = 0; i < kWords; ++i) wrong += std::atomic_ref(inbox[i]).load() != k * 1000 + i;
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(*signal, kRounds);
  barrier();
}

TEST(NetProxy, GetsAndAtomicsIntoLocalDestinations) {
  rdma_path p;
  ASSERT_TRUE(p.px);
  p.mem.words[100] = 0xabc0000u + std::uint64_t(me());
  barrier();
  const portshmem_proxy_ring_t& r = p.px->rings().ring(1);
  for (int pe = 0; pe < npes(); ++pe) {
    std::uint64_t got = 0, fetched = 0;
    ASSERT_EQ(proxy::post(p.ctx, r, proxy::get_command(pe, 800, &got, 8), wait_for::completion), PORTSHMEM_SUCCESS);
    EXPECT_EQ(got, 0xabc0000u + std::uint64_t(pe));
    std::uint32_t into = 0;
    const auto fetch4 = proxy::amo_command(PORTSHMEM_PROXY_AMO_FETCH, pe, 800, 4, 0, 0, &into);
    ASSERT_EQ(proxy::post(p.ctx, r, fetch4, wait_for::completion, &fetched), PORTSHMEM_SUCCESS);
    EXPECT_EQ(into, 0xabc0000u + std::uint32_t(pe));
  }
  barrier();
}

} // namespace
#endif
