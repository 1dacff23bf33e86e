// Debug checks of scope qualifiers: a device-scoped call naming a PE on another GPU (or a node-scoped one naming a PE
// on another node) is recorded and skipped. The placement is fabricated here, so the check is exercised on one
// machine; the GPU build runs it across real GPUs in the multi-GPU suite.
#define PORTSHMEM_DEBUG_CHECKS 1
#include <gtest/gtest.h>

#include <portshmem/portshmem.hpp>

#if PORTSHMEM_HAS_DEVICE_API && PORTSHMEM_PLATFORM_HOST
namespace mm = portshmem::mm;

namespace {

struct fake_world {
  alignas(256) char heaps[3][4096] = {};
  char* peers[3] = {heaps[0], heaps[1], heaps[2]};
  // PE 0 and PE 1 share GPU 0 of node 0; PE 2 runs on GPU 3 of node 1.
  std::int32_t places[3] = {0 * 65536 + 0, 0 * 65536 + 0, 1 * 65536 + 3};
  portshmem_device_error_t error{};
  portshmem::ctx c{};
  fake_world() {
    c.my_pe = 0;
    c.n_pes = 3;
    c.heap = heaps[0];
    c.heap_size = sizeof heaps[0];
    c.peer_heaps = peers;
    c.pe_device = places;
    c.error = &error;
  }
};

TEST(ScopeChecks, DeviceScopeReachesOnlyItsGpu) {
  fake_world w;
  const int value = 42;
  portshmem::put(w.c, reinterpret_cast<int*>(w.heaps[0]), &value, 1, 1, mm::device); // same GPU: allowed
  EXPECT_EQ(*reinterpret_cast<int*>(w.heaps[1]), 42);
  EXPECT_EQ(w.error.count, 0u);
  portshmem::put(w.c, reinterpret_cast<int*>(w.heaps[0]), &value, 1, 2, mm::device); // PE 2: other node
  EXPECT_EQ(*reinterpret_cast<int*>(w.heaps[2]), 0) << "a rejected call must not write";
  EXPECT_EQ(w.error.count, 1u);
  EXPECT_EQ(w.error.status, PORTSHMEM_ERR_SCOPE);
  EXPECT_EQ(w.error.target_pe, 2);
}

TEST(ScopeChecks, NodeScopeReachesOnlyItsNode) {
  fake_world w;
  portshmem::p(w.c, reinterpret_cast<int*>(w.heaps[0]), 7, 1, mm::node);
  EXPECT_EQ(*reinterpret_cast<int*>(w.heaps[1]), 7);
  EXPECT_EQ(portshmem::g(w.c, reinterpret_cast<int*>(w.heaps[0]), 2, mm::node), 0);
  EXPECT_EQ(w.error.count, 1u);
  EXPECT_EQ(w.error.status, PORTSHMEM_ERR_SCOPE);
  portshmem::p(w.c, reinterpret_cast<int*>(w.heaps[0]), 9, 2); // system scope reaches everyone
  EXPECT_EQ(*reinterpret_cast<int*>(w.heaps[2]), 9);
}

TEST(ScopeChecks, AtomicsAndSignalsCheckScopeToo) {
  fake_world w;
  auto* word = reinterpret_cast<std::uint64_t*>(w.heaps[0]);
  auto word_on = [&](int pe) { return *reinterpret_cast<std::uint64_t*>(w.heaps[pe]); };
  portshmem::atomic_add(w.c, word, std::uint64_t(5), 1, mm::device); // same GPU: allowed
  portshmem::signal_op(w.c, word, 3, portshmem::signal_add, 1, mm::device);
  EXPECT_EQ(word_on(1), 8u);
  EXPECT_EQ(w.error.count, 0u);
  portshmem::atomic_add(w.c, word, std::uint64_t(5), 2, mm::device);
  EXPECT_EQ(portshmem::atomic_fetch(w.c, word, 2, mm::device), 0u);
  portshmem::signal_op(w.c, word, 3, portshmem::signal_set, 2, mm::device);
  const char payload[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  portshmem::putmem_signal(w.c, w.heaps[0] + 64, payload, sizeof payload, word, 1, portshmem::signal_set, 2,
                           mm::device);
  EXPECT_EQ(word_on(2), 0u) << "a rejected atomic or signal must not write";
  EXPECT_EQ(w.heaps[2][64], 0) << "a rejected put-with-signal must not write its data";
  EXPECT_EQ(w.error.count, 4u);
  EXPECT_EQ(w.error.status, PORTSHMEM_ERR_SCOPE);
  EXPECT_EQ(w.error.call, PORTSHMEM_CALL_AMO);
}

TEST(ScopeChecks, GroupFormsReportOnce) {
  fake_world w;
  char src[64] = {1};
  portshmem::arch::host::run_grid(1, 16,
                                  [&] { portshmem::putmem_block(w.c, w.heaps[0], src, sizeof src, 2, mm::device); });
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
