// The queue layout as C++ sees it equals the layout C sees (test_proxy_queue_c.c), and the one predicate both sides
// of the protocol use (which commands hold their slot until the producer's ack) says what the protocol says.
#include <cstddef>

#include <gtest/gtest.h>

#include "portshmem/transport/proxy_queue.h"
#include "rdma/network.hpp"

extern "C" std::size_t portshmem_proxy_c_layout(std::size_t* out);
extern "C" int portshmem_proxy_c_uses_cell(int op, int kind, unsigned long long local);

namespace {

TEST(ProxyQueue, CAndCppAgreeOnTheLayout) {
  const std::size_t expected[] = {sizeof(portshmem_proxy_cmd_t),
                                  offsetof(portshmem_proxy_cmd_t, op),
                                  offsetof(portshmem_proxy_cmd_t, kind),
                                  offsetof(portshmem_proxy_cmd_t, width),
                                  offsetof(portshmem_proxy_cmd_t, flags),
                                  offsetof(portshmem_proxy_cmd_t, pe),
                                  offsetof(portshmem_proxy_cmd_t, value),
                                  offsetof(portshmem_proxy_cmd_t, call),
                                  sizeof(portshmem_proxy_result_t),
                                  sizeof(portshmem_proxy_ring_state_t),
                                  offsetof(portshmem_proxy_ring_state_t, consumed),
                                  offsetof(portshmem_proxy_ring_state_t, completed),
                                  offsetof(portshmem_proxy_ring_state_t, error_count),
                                  sizeof(portshmem_proxy_ring_t),
                                  offsetof(portshmem_proxy_ring_t, capacity),
                                  offsetof(portshmem_proxy_ring_t, version),
                                  PORTSHMEM_PROXY_QUEUE_VERSION};
  std::size_t from_c[32] = {};
  ASSERT_EQ(portshmem_proxy_c_layout(from_c), std::size(expected));
  for (std::size_t i = 0; i < std::size(expected); ++i) EXPECT_EQ(from_c[i], expected[i]) << "entry " << i;
  EXPECT_EQ(expected[0], 64u);
  EXPECT_EQ(expected[9], 64u);
}

TEST(ProxyQueue, OnlyFetchingAtomicsAndGetsWithoutADestinationUseTheResultCell) {
  for (int op = 0; op < PORTSHMEM_PROXY_OP_COUNT; ++op) {
    for (int kind = 0; kind < PORTSHMEM_PROXY_AMO_COUNT; ++kind) {
      const bool fetches = portshmem::rdma::amo_fetches(portshmem_proxy_amo_t(kind));
      const bool expected = (op == PORTSHMEM_PROXY_OP_AMO && fetches) || op == PORTSHMEM_PROXY_OP_GET;
      EXPECT_EQ(bool(PORTSHMEM_PROXY_USES_CELL(op, kind, 0)), expected) << op << " " << kind;
      EXPECT_EQ(bool(portshmem_proxy_c_uses_cell(op, kind, 0)), expected) << op << " " << kind;
      EXPECT_FALSE(PORTSHMEM_PROXY_USES_CELL(op, kind, 0x1000)) << "a local destination needs no cell";
    }
  }
  // The fetching kinds, spelled out.
  for (auto kind : {PORTSHMEM_PROXY_AMO_FETCH, PORTSHMEM_PROXY_AMO_SWAP, PORTSHMEM_PROXY_AMO_COMPARE_SWAP,
                    PORTSHMEM_PROXY_AMO_FETCH_ADD, PORTSHMEM_PROXY_AMO_FETCH_AND, PORTSHMEM_PROXY_AMO_FETCH_OR,
                    PORTSHMEM_PROXY_AMO_FETCH_XOR}) {
    EXPECT_TRUE(portshmem::rdma::amo_fetches(kind)) << kind;
  }
  for (auto kind : {PORTSHMEM_PROXY_AMO_SET, PORTSHMEM_PROXY_AMO_ADD, PORTSHMEM_PROXY_AMO_AND, PORTSHMEM_PROXY_AMO_OR,
                    PORTSHMEM_PROXY_AMO_XOR}) {
    EXPECT_FALSE(portshmem::rdma::amo_fetches(kind)) << kind;
  }
}

} // namespace
