// The producer side on the device itself: a kernel (GPU threads on GPU platforms, the host launcher's threads on the
// host platform) posts into the proxy's rings — wave-aggregated inline puts and fetch-adds, then a quiet per thread —
// and the progress thread carries them over the MPI network into the other PEs' memory. Only inline data and result
// cells cross the rings, so the window can be plain host memory on every platform.
#include "portshmem/arch.hpp"
#include "portshmem/transport/proxy_ring.hpp"
#include "rdma/proxy.hpp"
#include "test_net_common.hpp"

#include <algorithm>
#include <numeric>

namespace {

using namespace net_test;
namespace proxy = portshmem::proxy;
namespace arch = portshmem::arch;

constexpr unsigned kBlocks = PORTSHMEM_PLATFORM_HOST ? 2 : 8, kThreads = PORTSHMEM_PLATFORM_HOST ? 16 : 64;
constexpr unsigned kRings = 4, kSlots = 8;
constexpr std::uint64_t kData = 0, kCounter = 256 * 1024;

struct device_args {
  portshmem_ctx_t ctx;
  const portshmem_proxy_ring_t* rings; ///< the ring table in device memory
  int me, next;
  std::uint64_t* scratch; ///< two words per wave of the grid
  std::uint64_t* fetched; ///< per thread: what its fetch-add returned (~0 when it issued none)
  unsigned* failures;
};

PORTSHMEM_GLOBAL void device_traffic(device_args a) {
  const unsigned t = arch::block_rank() * arch::block_threads() + arch::thread_rank();
  const unsigned waves = (arch::block_threads() + arch::wave_size() - 1) / arch::wave_size();
  std::uint64_t* scratch = a.scratch + 2 * (arch::block_rank() * waves + arch::thread_rank() / arch::wave_size());
  const portshmem_proxy_ring_t& r = a.rings[arch::block_rank() % kRings];
  unsigned bad = 0;
  const std::uint64_t tag = (std::uint64_t(a.me) << 32) | t;
  bad += proxy::post_wave(a.ctx, r, true, proxy::put_inline_command(a.next, kData + 8 * t, tag, 8),
                          proxy::wait_for::nothing, scratch) != PORTSHMEM_SUCCESS;
  std::uint64_t old = ~0ull;
  bad += proxy::post_wave(a.ctx, r, arch::lane() % 2 == 0,
                          proxy::amo_command(PORTSHMEM_PROXY_AMO_FETCH_ADD, 0, kCounter, 8, 1), proxy::wait_for::value,
                          scratch, &old) != PORTSHMEM_SUCCESS;
  a.fetched[t] = arch::lane() % 2 == 0 ? old : ~0ull;
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

TEST(NetDevice, AKernelPostsThroughTheRingsToThePeers) {
  region mem;
  auto net = make_network(mem);
  ASSERT_TRUE(net);
  std::unique_ptr<portshmem::rdma::proxy> px;
  ASSERT_EQ(portshmem::rdma::proxy::create(*net, {kRings, kSlots, true}, &px), PORTSHMEM_SUCCESS);
  ASSERT_EQ(px->start(), PORTSHMEM_SUCCESS);
  portshmem_device_error_t* error = nullptr;
  ASSERT_EQ(hipHostMalloc(&error, sizeof *error, 0), hipSuccess);
  *error = {};
  constexpr unsigned kAll = kBlocks * kThreads;
  device_args a{};
  a.ctx.my_pe = me();
  a.ctx.n_pes = npes();
  a.ctx.heap = reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(mem.base()) +
                                       portshmem::detail::kInternalHeapBytes); // commands count from the region's start
  a.ctx.heap_size = region::kBytes;
  a.ctx.error = error;
  a.ctx.timeout_ns = 60'000'000'000ull;
  a.rings = px->rings().device_table();
  a.me = me();
  a.next = next_pe();
  a.scratch = device_alloc<std::uint64_t>(2 * kAll); // enough for waves of any width
  a.fetched = device_alloc<std::uint64_t>(kAll);
  a.failures = device_alloc<unsigned>(1);
  barrier(); // every PE's window exists
  ASSERT_EQ(arch::launch(device_traffic, dim3(kBlocks), dim3(kThreads), 0, nullptr, a), hipSuccess);
  ASSERT_EQ(hipDeviceSynchronize(), hipSuccess);
  unsigned failures = 0;
  std::vector<std::uint64_t> fetched(kAll);
  ASSERT_EQ(hipMemcpy(&failures, a.failures, sizeof failures, hipMemcpyDeviceToHost), hipSuccess);
  ASSERT_EQ(hipMemcpy(fetched.data(), a.fetched, kAll * 8, hipMemcpyDeviceToHost), hipSuccess);
  EXPECT_EQ(failures, 0u);
  EXPECT_EQ(error->count, 0u) << "status " << error->status << " call " << error->call;
  barrier(); // every thread of every PE quieted: everything is at its target
  std::size_t wrong = 0;
  for (unsigned t = 0; t < kAll; ++t) wrong += mem.word(kData + 8 * t) != ((std::uint64_t(prev_pe()) << 32) | t);
  EXPECT_EQ(wrong, 0u);
  std::vector<std::uint64_t> all(kAll * std::size_t(npes()));
  ASSERT_EQ(MPI_Allgather(fetched.data(), int(kAll), MPI_UINT64_T, all.data(), int(kAll), MPI_UINT64_T, MPI_COMM_WORLD),
            MPI_SUCCESS);
  all.erase(std::remove(all.begin(), all.end(), ~0ull), all.end());
  std::sort(all.begin(), all.end());
  std::vector<std::uint64_t> expected(all.size());
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(all.size(), std::size_t(npes()) * kAll / 2);
  EXPECT_EQ(all, expected);
  if (me() == 0) EXPECT_EQ(mem.word(kCounter), all.size());
  EXPECT_EQ(px->stop(), PORTSHMEM_SUCCESS);
  px.reset();
  EXPECT_EQ(hipFree(a.scratch), hipSuccess);
  EXPECT_EQ(hipFree(a.fetched), hipSuccess);
  EXPECT_EQ(hipFree(a.failures), hipSuccess);
  EXPECT_EQ(hipHostFree(error), hipSuccess);
  barrier(); // nobody frees the window while another PE's proxy still writes into it
}

} // namespace
