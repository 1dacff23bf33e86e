// The producer side as device code: a kernel (GPU threads on GPU platforms, the host launcher's threads on the host
// platform) posts into rings of 8 slots in host-visible memory, with ticket counters in device memory, and the proxy
// drains them into a fake network. Every command must arrive once, each thread's in its order; every fetch-add must
// return a distinct value.
#include "portshmem/arch.hpp"
#include "portshmem/transport/proxy_ring.hpp"
#include "rdma/proxy.hpp"
#include "test_proxy_fake_network.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include <gtest/gtest.h>

namespace {

namespace proxy = portshmem::proxy;
namespace arch = portshmem::arch;
using proxy_test::event;

constexpr unsigned kBlocks = PORTSHMEM_PLATFORM_HOST ? 2 : 8, kThreads = PORTSHMEM_PLATFORM_HOST ? 16 : 128;
constexpr unsigned kEach = PORTSHMEM_PLATFORM_HOST ? 10 : 16, kRings = 4, kSlots = 8;
constexpr std::uint64_t kCounter = 0;

struct device_args {
  portshmem_ctx_t ctx;
  const portshmem_proxy_ring_t* rings;
  std::uint64_t* scratch; ///< two words per wave
  std::uint64_t* fetched; ///< kEach per thread
  unsigned* failures;
};

/// Round n of thread t: a wave-aggregated put of its tag (odd rounds: a single-thread put), and on every fourth round
/// a wave-aggregated fetch-add from the even lanes; a quiet at the end.
PORTSHMEM_GLOBAL void producer_kernel(device_args a) {
  const unsigned t = arch::block_rank() * arch::block_threads() + arch::thread_rank();
  const unsigned waves = (arch::block_threads() + arch::wave_size() - 1) / arch::wave_size();
  std::uint64_t* scratch = a.scratch + 2 * (arch::block_rank() * waves + arch::thread_rank() / arch::wave_size());
  const portshmem_proxy_ring_t& r = a.rings[arch::block_rank() % kRings];
  unsigned bad = 0;
  for (unsigned n = 0; n < kEach; ++n) {
    const auto put = proxy::put_inline_command(1, 8 + 8 * (t % 1024), (std::uint64_t(t) << 32) | n, 8);
    if (n % 2) {
      bad += proxy::post(a.ctx, r, put, proxy::wait_for::nothing) != PORTSHMEM_SUCCESS;
    } else {
      bad += proxy::post_wave(a.ctx, r, true, put, proxy::wait_for::nothing, scratch) != PORTSHMEM_SUCCESS;
    }
    a.fetched[t * kEach + n] = ~0ull;
    if (n % 4 == 3) {
      const auto add = proxy::amo_command(PORTSHMEM_PROXY_AMO_FETCH_ADD, 0, kCounter, 8, 1);
      std::uint64_t old = ~0ull;
      bad += proxy::post_wave(a.ctx, r, arch::lane() % 2 == 0, add, proxy::wait_for::value, scratch, &old) !=
             PORTSHMEM_SUCCESS;
      a.fetched[t * kEach + n] = old;
    }
  }
  bad += proxy::post(a.ctx, r, proxy::ordering_command(PORTSHMEM_PROXY_OP_QUIET, -1, PORTSHMEM_CALL_BARRIER),
                     proxy::wait_for::completion) != PORTSHMEM_SUCCESS;
  if (bad) arch::fetch_add<arch::order::relaxed, arch::scope::system>(a.failures, bad);
}

template <class T>
T* device_alloc(std::size_t count) {
  T* p = nullptr;
  EXPECT_EQ(hipMalloc(&p, count * sizeof(T)), hipSuccess);
  EXPECT_EQ(hipMemset(p, 0, count * sizeof(T)), hipSuccess);
  return p;
}

TEST(ProxyDevice, AKernelsCommandsArriveOnceAndInOrder) {
  proxy_test::fake_network net(2, 64 * 1024);
  std::unique_ptr<portshmem::rdma::proxy> px;
  ASSERT_EQ(portshmem::rdma::proxy::create(net, {kRings, kSlots, true}, &px), PORTSHMEM_SUCCESS);
  ASSERT_EQ(px->start(), PORTSHMEM_SUCCESS);
  portshmem_device_error_t* error = nullptr;
  ASSERT_EQ(hipHostMalloc(&error, sizeof *error, 0), hipSuccess);
  *error = {};
  static char heap[64];
  constexpr unsigned kAll = kBlocks * kThreads;
  device_args a{};
  a.ctx.n_pes = 2;
  a.ctx.heap = reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(heap) +
                                       portshmem::detail::kInternalHeapBytes); // commands count from `heap`
  a.ctx.heap_size = sizeof heap;
  a.ctx.error = error;
  a.ctx.timeout_ns = 60'000'000'000ull;
  a.rings = px->rings().device_table();
  a.scratch = device_alloc<std::uint64_t>(2 * kAll);
  a.fetched = device_alloc<std::uint64_t>(kAll * kEach);
  a.failures = device_alloc<unsigned>(1);
  ASSERT_EQ(arch::launch(producer_kernel, dim3(kBlocks), dim3(kThreads), 0, nullptr, a), hipSuccess);
  ASSERT_EQ(hipDeviceSynchronize(), hipSuccess);
  EXPECT_EQ(px->stop(), PORTSHMEM_SUCCESS);
  unsigned failures = 0;
  std::vector<std::uint64_t> fetched(kAll * kEach);
  ASSERT_EQ(hipMemcpy(&failures, a.failures, sizeof failures, hipMemcpyDeviceToHost), hipSuccess);
  ASSERT_EQ(hipMemcpy(fetched.data(), a.fetched, fetched.size() * 8, hipMemcpyDeviceToHost), hipSuccess);
  EXPECT_EQ(failures, 0u);
  EXPECT_EQ(error->count, 0u) << "status " << error->status << " call " << error->call;

  std::map<unsigned, std::vector<unsigned>> seen;
  for (const event& e : net.events()) {
    if (e.what == event::put_inline) seen[unsigned(e.value >> 32)].push_back(unsigned(e.value));
  }
  ASSERT_EQ(seen.size(), kAll);
  for (const auto& [t, ns] : seen) {
    ASSERT_EQ(ns.size(), kEach) << "thread " << t;
    for (unsigned n = 0; n < kEach; ++n) ASSERT_EQ(ns[n], n) << "thread " << t;
  }
  fetched.erase(std::remove(fetched.begin(), fetched.end(), ~0ull), fetched.end());
  std::sort(fetched.begin(), fetched.end());
  std::vector<std::uint64_t> expected(fetched.size());
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(fetched.size(), std::size_t(kAll / 2) * (kEach / 4));
  EXPECT_EQ(fetched, expected);
  EXPECT_EQ(net.word(0, kCounter), fetched.size());
  EXPECT_EQ(hipFree(a.scratch), hipSuccess);
  EXPECT_EQ(hipFree(a.fetched), hipSuccess);
  EXPECT_EQ(hipFree(a.failures), hipSuccess);
  EXPECT_EQ(hipHostFree(error), hipSuccess);
}

} // namespace
