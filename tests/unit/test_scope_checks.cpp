// Debug checks of scope qualifiers: a device-scoped call naming a PE on another GPU (or a node-scoped one naming a PE
// on another node) is recorded and skipped. Only the calls that order and name a PE take a scope (signal_op,
// put_signal); puts, p, g and AMOs take none. The placement is fabricated here, so the check is exercised on one
// machine; the GPU build runs it across real GPUs in the multi-GPU suite.
#define PORTSHMEM_DEBUG_CHECKS 1
#include <gtest/gtest.h>

#include <portshmem/portshmem.hpp>

#if PORTSHMEM_HAS_DEVICE_API && PORTSHMEM_PLATFORM_HOST
namespace mm = portshmem::mm;

namespace {

struct fake_world {
  // Each heap as the runtime lays it out: the reserved area (zero: no allocation table, so the debug checks judge
  // ranges against the heap's bounds only), then the 4096-byte part the handle names.
  static constexpr std::size_t kUser = 4096, kReserved = portshmem::detail::kInternalHeapBytes;
  alignas(256) char storage[3][kReserved + kUser] = {};
  char* heaps[3] = {storage[0] + kReserved, storage[1] + kReserved, storage[2] + kReserved};
  char* peers[3] = {heaps[0], heaps[1], heaps[2]};
  // PE 0 and PE 1 share GPU 0 of node 0; PE 2 runs on GPU 3 of node 1.
  std::int32_t places[3] = {0 * 65536 + 0, 0 * 65536 + 0, 1 * 65536 + 3};
  portshmem_device_error_t error{};
  portshmem::ctx c{};
  fake_world() {
    c.my_pe = 0;
    c.n_pes = 3;
    c.heap = heaps[0];
    c.heap_size = kUser;
    c.peer_heaps = peers;
    c.pe_device = places;
    c.error = &error;
  }
};

TEST(ScopeChecks, DeviceScopeReachesOnlyItsGpu) {
  fake_world w;
  auto* word = reinterpret_cast<std::uint64_t*>(w.heaps[0]);
  portshmem::signal_op(w.c, word, 42, portshmem::signal_set, 1, mm::device); // same GPU: allowed
  EXPECT_EQ(*reinterpret_cast<std::uint64_t*>(w.heaps[1]), 42u);
  EXPECT_EQ(w.error.count, 0u);
  portshmem::signal_op(w.c, word, 42, portshmem::signal_set, 2, mm::device); // PE 2: other node
  EXPECT_EQ(*reinterpret_cast<std::uint64_t*>(w.heaps[2]), 0u) << "a rejected call must not write";
  EXPECT_EQ(w.error.count, 1u);
  EXPECT_EQ(w.error.status, PORTSHMEM_ERR_SCOPE);
  EXPECT_EQ(w.error.target_pe, 2);
}

TEST(ScopeChecks, NodeScopeReachesOnlyItsNode) {
  fake_world w;
  auto* word = reinterpret_cast<std::uint64_t*>(w.heaps[0]);
  portshmem::signal_op(w.c, word, 7, portshmem::signal_add, 1, mm::all, mm::node);
  EXPECT_EQ(*reinterpret_cast<std::uint64_t*>(w.heaps[1]), 7u);
  portshmem::signal_op(w.c, word, 7, portshmem::signal_add, 2, mm::comm, mm::node);
  EXPECT_EQ(w.error.count, 1u);
  EXPECT_EQ(w.error.status, PORTSHMEM_ERR_SCOPE);
  portshmem::signal_op(w.c, word, 9, portshmem::signal_set, 2); // system scope reaches everyone
  EXPECT_EQ(*reinterpret_cast<std::uint64_t*>(w.heaps[2]), 9u);
}

TEST(ScopeChecks, PutWithSignalChecksScopeBeforeWritingData) {
  fake_world w;
  auto* word = reinterpret_cast<std::uint64_t*>(w.heaps[0]);
  const char payload[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  portshmem::putmem_signal(w.c, w.heaps[0] + 64, payload, sizeof payload, word, 1, portshmem::signal_set, 1,
                           mm::device);
  EXPECT_EQ(w.heaps[1][64], 1);
  EXPECT_EQ(w.error.count, 0u);
  portshmem::putmem_signal(w.c, w.heaps[0] + 64, payload, sizeof payload, word, 1, portshmem::signal_set, 2,
                           mm::device);
  EXPECT_EQ(*reinterpret_cast<std::uint64_t*>(w.heaps[2]), 0u) << "a rejected put-with-signal must not signal";
  EXPECT_EQ(w.heaps[2][64], 0) << "a rejected put-with-signal must not write its data";
  EXPECT_EQ(w.error.count, 1u);
  EXPECT_EQ(w.error.status, PORTSHMEM_ERR_SCOPE);
  EXPECT_EQ(w.error.call, PORTSHMEM_CALL_SIGNAL);
}

TEST(ScopeChecks, GroupFormsReportOnce) {
  fake_world w;
  char src[64] = {1};
  auto* word = reinterpret_cast<std::uint64_t*>(w.heaps[0] + 128);
  portshmem::arch::host::run_grid(1, 16, [&] {
    portshmem::putmem_signal_block(w.c, w.heaps[0], src, sizeof src, word, 1, portshmem::signal_set, 2, mm::device);
  });
  EXPECT_EQ(w.error.count, 1u);
  EXPECT_EQ(w.heaps[2][0], 0);
}

} // namespace
#else
TEST(ScopeChecks, RunOnTheHostPlatform) {
  GTEST_SKIP() << "the fabricated-placement scope checks run on the host platform; GPU builds check real placement "
                  "in the multi-GPU suite";
}
#endif
