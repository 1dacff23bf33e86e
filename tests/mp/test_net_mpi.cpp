// The MPI network over a real window: puts and gets between every pair, every atomic under contention from every PE
// (4 and 8 bytes) with exact results, flush as remote completion, the staging path through bounce buffers (with a pool
// small enough to be emptied many times), and the refusals: too low a thread level (on every PE, or on one), a GPU
// heap this MPI cannot take, a bad PE or range.
#include <algorithm>
#include <atomic>
#include <numeric>

#include "test_net_common.hpp"

namespace {

using namespace net_test;

constexpr unsigned kOps = 50; // atomics per PE in the contention tests

TEST(NetMpi, PutReachesTheTargetAfterFlush) {
  region r;
  auto net = make_network(r);
  ASSERT_TRUE(net);
  std::vector<std::uint8_t> src(64 * 1024);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = pattern(me(), i, 1);
  ASSERT_EQ(net->put(next_pe(), 4096, src.data(), src.size(), 0), PORTSHMEM_SUCCESS);
  const std::uint16_t small = std::uint16_t(0xbe00 + me());
  ASSERT_EQ(net->put_inline(next_pe(), 2, &small, 2, 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(net->flush(next_pe()), PORTSHMEM_SUCCESS);
  // Remote completion: once the flush returned, a message sent after it finds the data in place.
  int token = 1;
  MPI_Request req;
  ASSERT_EQ(MPI_Isend(&token, 1, MPI_INT, next_pe(), 7, MPI_COMM_WORLD, &req), MPI_SUCCESS);
  ASSERT_EQ(MPI_Recv(&token, 1, MPI_INT, prev_pe(), 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_SUCCESS);
  ASSERT_EQ(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
  const auto* got = reinterpret_cast<const std::uint8_t*>(r.base());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < src.size(); ++i) wrong += got[4096 + i] != pattern(prev_pe(), i, 1);
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(got[2] | got[3] << 8, 0xbe00 + prev_pe());
  barrier();
}

TEST(NetMpi, GetFromEveryPe) {
  region r;
  auto* bytes = reinterpret_cast<std::uint8_t*>(r.base());
  for (std::size_t i = 0; i < region::kBytes; ++i) bytes[i] = pattern(me(), i, 2);
  auto net = make_network(r);
  ASSERT_TRUE(net);
  barrier(); // every region is filled
  for (int pe = 0; pe < npes(); ++pe) {
    std::vector<std::uint8_t> got(10000);
    ASSERT_EQ(net->get(pe, 1000, got.data(), got.size(), 0), PORTSHMEM_SUCCESS);
    ASSERT_EQ(net->complete_local(pe), PORTSHMEM_SUCCESS);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < got.size(); ++i) wrong += got[i] != pattern(pe, 1000 + i, 2);
    EXPECT_EQ(wrong, 0u) << "from PE " << pe;
  }
  barrier();
}

/// Every PE fetch-adds 1 kOps times to PE 0's counter of width bytes; the old values over all PEs are 0..n*kOps-1.
void fetch_add_permutation(unsigned width) {
  region r;
  auto net = make_network(r);
  ASSERT_TRUE(net);
  std::vector<std::uint64_t> olds;
  for (unsigned k = 0; k < kOps; ++k) {
    std::uint64_t old = 0;
    ASSERT_EQ(net->atomic(0, 64, {PORTSHMEM_PROXY_AMO_FETCH_ADD, width, 1, 0}, &old, 0), PORTSHMEM_SUCCESS);
    ASSERT_EQ(net->complete_local(0), PORTSHMEM_SUCCESS);
    olds.push_back(old);
  }
  std::vector<std::uint64_t> all(olds.size() * std::size_t(npes()));
  ASSERT_EQ(MPI_Allgather(olds.data(), int(olds.size()), MPI_UINT64_T, all.data(), int(olds.size()), MPI_UINT64_T,
                          MPI_COMM_WORLD),
            MPI_SUCCESS);
  std::sort(all.begin(), all.end());
  std::vector<std::uint64_t> expected(all.size());
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(all, expected);
  barrier();
  if (me() == 0) EXPECT_EQ(r.word(64), all.size());
  barrier();
}

TEST(NetMpi, FetchAddFromEveryPeIsAPermutation8) {
  fetch_add_permutation(8);
}
TEST(NetMpi, FetchAddFromEveryPeIsAPermutation4) {
  fetch_add_permutation(4);
}

/// Every PE, the owner included (its CPU atomics), races one compare-and-swap from 0 per election; kOps elections
/// per width, the 4-byte word beside a live neighbour half that must never change.
TEST(NetMpi, CompareSwapElectsOneWinner) {
  region r;
  auto net = make_network(r);
  ASSERT_TRUE(net);
  const int owner = npes() - 1;
  constexpr std::uint64_t kNeighbour = 0x5a5a5a5au;
  for (unsigned width : {4u, 8u}) {
    const std::uint64_t at = width == 4 ? 132 : 136; // the high half of word 128, beside a neighbour
    for (unsigned round = 0; round < kOps; ++round) {
      if (me() == owner) {
        std::atomic_ref<std::uint64_t>(r.words[128 / 8]).store(kNeighbour);
        std::atomic_ref<std::uint64_t>(r.words[136 / 8]).store(0);
      }
      barrier();
      const std::uint64_t mine = std::uint64_t(round) << 8 | std::uint64_t(me() + 1);
      std::uint64_t old = ~0ull;
      ASSERT_EQ(net->atomic(owner, at, {PORTSHMEM_PROXY_AMO_COMPARE_SWAP, width, mine, 0}, &old, 0), PORTSHMEM_SUCCESS);
      ASSERT_EQ(net->complete_local(owner), PORTSHMEM_SUCCESS);
      int won = old == 0, winners = 0;
      ASSERT_EQ(MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
      ASSERT_EQ(winners, 1) << width << " bytes, election " << round;
      int winner = won ? me() : -1, who = -1;
      ASSERT_EQ(MPI_Allreduce(&winner, &who, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD), MPI_SUCCESS);
      const std::uint64_t elected = std::uint64_t(round) << 8 | std::uint64_t(who + 1);
      if (!won) EXPECT_EQ(old, elected) << "a loser fetches the winner's value";
      barrier();
      if (me() == owner) {
        if (width == 4) {
          EXPECT_EQ(r.word(128) >> 32, elected);
          EXPECT_EQ(r.word(128) & 0xffffffffu, kNeighbour) << "the other half of the word is untouched";
        } else {
          EXPECT_EQ(r.word(136), elected);
        }
      }
      barrier();
    }
  }
}

TEST(NetMpi, BitwiseSwapSetFetchAndNonFetchingAdd) {
  region r;
  auto net = make_network(r);
  ASSERT_TRUE(net);
  const int n = npes();
  const std::uint64_t bit = std::uint64_t(1) << me();
  std::uint64_t old = 0;
  // PE 0's words: 0 collects fetch_or bits, 8 plain or bits, 16 starts all-ones and loses each PE's bit (and),
  // 24 xor of each bit twice (fetch_xor then xor) returns to 0, 32 a 4-byte sum, 40 an 8-byte sum.
  if (me() == 0) r.words[2] = ~0ull;
  barrier();
  ASSERT_EQ(net->atomic(0, 0, {PORTSHMEM_PROXY_AMO_FETCH_OR, 8, bit, 0}, &old, 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(net->complete_local(0), PORTSHMEM_SUCCESS);
  EXPECT_EQ(old & bit, 0u);
  ASSERT_EQ(net->atomic(0, 8, {PORTSHMEM_PROXY_AMO_OR, 8, bit, 0}, nullptr, 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(net->atomic(0, 16, {PORTSHMEM_PROXY_AMO_FETCH_AND, 8, ~bit, 0}, &old, 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(net->complete_local(0), PORTSHMEM_SUCCESS);
  EXPECT_NE(old & bit, 0u);
  ASSERT_EQ(net->atomic(0, 24, {PORTSHMEM_PROXY_AMO_FETCH_XOR, 8, bit, 0}, &old, 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(net->atomic(0, 24, {PORTSHMEM_PROXY_AMO_XOR, 8, bit, 0}, nullptr, 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(net->atomic(0, 32, {PORTSHMEM_PROXY_AMO_ADD, 4, std::uint64_t(me() + 1), 0}, nullptr, 0),
            PORTSHMEM_SUCCESS);
  ASSERT_EQ(net->atomic(0, 40, {PORTSHMEM_PROXY_AMO_ADD, 8, std::uint64_t(1) << 40, 0}, nullptr, 0), PORTSHMEM_SUCCESS);
  // set, then fetch and swap on the next PE's word 48 (only this PE touches it).
  ASSERT_EQ(net->atomic(next_pe(), 48, {PORTSHMEM_PROXY_AMO_SET, 8, 1000u + me(), 0}, nullptr, 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(net->flush(next_pe()), PORTSHMEM_SUCCESS);
  ASSERT_EQ(net->atomic(next_pe(), 48, {PORTSHMEM_PROXY_AMO_FETCH, 8, 0, 0}, &old, 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(net->complete_local(next_pe()), PORTSHMEM_SUCCESS);
  EXPECT_EQ(old, 1000u + me());
  ASSERT_EQ(net->atomic(next_pe(), 48, {PORTSHMEM_PROXY_AMO_SWAP, 8, 7, 0}, &old, 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(net->complete_local(next_pe()), PORTSHMEM_SUCCESS);
  EXPECT_EQ(old, 1000u + me());
  ASSERT_EQ(net->flush_all(), PORTSHMEM_SUCCESS);
  barrier();
  const std::uint64_t all_bits = n == 64 ? ~0ull : (std::uint64_t(1) << n) - 1;
  if (me() == 0) {
    EXPECT_EQ(r.word(0), all_bits);
    EXPECT_EQ(r.word(8), all_bits);
    EXPECT_EQ(r.word(16), ~all_bits);
    EXPECT_EQ(r.word(24), 0u);
    EXPECT_EQ(r.word(32), std::uint64_t(n * (n + 1) / 2)); // the high half (offset 36) stays 0
    EXPECT_EQ(r.word(40), std::uint64_t(n) << 40);
  }
  EXPECT_EQ(r.word(48), 7u);
  barrier();
}

TEST(NetMpi, StagedTransfersThroughASmallPool) {
  region r;
  auto net = make_network(r, rdma::staging::always, 16 * 1024); // pieces of 4 KiB; the pool fills every 4 of them
  ASSERT_TRUE(net);
  std::vector<std::uint8_t> src(300 * 1000);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = pattern(me(), i, 3);
  ASSERT_EQ(net->put(next_pe(), 8, src.data(), src.size(), 0), PORTSHMEM_SUCCESS);
  for (unsigned k = 0; k < 1200; ++k) { // operands (32 bytes each) fill the pool twice more
    ASSERT_EQ(net->atomic(next_pe(), 400000, {PORTSHMEM_PROXY_AMO_ADD, 8, 1, 0}, nullptr, 0), PORTSHMEM_SUCCESS);
  }
  ASSERT_EQ(net->flush_all(), PORTSHMEM_SUCCESS);
  barrier();
  std::vector<std::uint8_t> back(src.size());
  ASSERT_EQ(net->get(me(), 8, back.data(), back.size(), 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(net->complete_local(me()), PORTSHMEM_SUCCESS);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < back.size(); ++i) wrong += back[i] != pattern(prev_pe(), i, 3);
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(r.word(400000), 1200u);
  barrier();
}

TEST(NetMpi, RefusedWithoutThreadMultipleOnEveryPe) {
  region r;
  log_capture log;
  rdma::mpi_network_options o;
  o.base = r.base();
  o.size = region::kBytes;
  o.thread_level = MPI_THREAD_SERIALIZED; // what src/bootstrap_mpi.cpp asks for today
  std::unique_ptr<rdma::network> net;
  EXPECT_EQ(rdma::make_mpi_network(o, &net), PORTSHMEM_ERR_BOOTSTRAP);
  EXPECT_FALSE(net);
  EXPECT_TRUE(log.has("needs MPI_THREAD_MULTIPLE")) << (log.lines.empty() ? "" : log.lines[0]);
  EXPECT_TRUE(log.has("MPI provides MPI_THREAD_SERIALIZED"));
}

TEST(NetMpi, OnePeRefusingStopsEveryPe) {
  region r;
  log_capture log;
  rdma::mpi_network_options o;
  o.base = r.base();
  o.size = region::kBytes;
  if (me() == npes() - 1) o.thread_level = MPI_THREAD_FUNNELED;
  std::unique_ptr<rdma::network> net;
  EXPECT_EQ(rdma::make_mpi_network(o, &net), PORTSHMEM_ERR_BOOTSTRAP); // nobody is left waiting in MPI_Win_create
  EXPECT_FALSE(net);
  if (me() == npes() - 1) {
    EXPECT_TRUE(log.has("MPI provides MPI_THREAD_FUNNELED"));
  } else {
    EXPECT_TRUE(log.has("another PE refused the MPI network"));
  }
}

TEST(NetMpi, AGpuHeapNeedsAGpuAwareMpi) {
  region r;
  log_capture log;
  rdma::mpi_network_options o;
  o.base = r.base();
  o.size = region::kBytes;
  o.heap_on_gpu = true;
  const rdma::gpu_awareness gpu = rdma::query_gpu_awareness();
  EXPECT_FALSE(gpu.how.empty());
  std::unique_ptr<rdma::network> net;
  const portshmem_status_t s = rdma::make_mpi_network(o, &net);
  if (gpu.aware) {
    EXPECT_EQ(s, PORTSHMEM_SUCCESS); // (plain memory here: a GPU-aware MPI takes host memory as well)
  } else {
    EXPECT_EQ(s, PORTSHMEM_ERR_UNREACHABLE);
    EXPECT_TRUE(log.has("cannot take GPU pointers (" + gpu.how + ")"));
  }
}

TEST(NetMpi, BadTargetsAndRangesAreErrorsNotCrashes) {
  region r;
  auto net = make_network(r);
  ASSERT_TRUE(net);
  std::uint64_t v = 1;
  EXPECT_EQ(net->put(npes(), 0, &v, 8, 0), PORTSHMEM_ERR_INVALID_PE);
  EXPECT_NE(net->last_error().find("PE " + std::to_string(npes()) + " is outside"), std::string::npos)
      << net->last_error();
  EXPECT_EQ(net->get(-1, 0, &v, 8, 0), PORTSHMEM_ERR_INVALID_PE);
  EXPECT_EQ(net->put(0, region::kBytes - 4, &v, 8, 0), PORTSHMEM_ERR_OVERFLOW);
  EXPECT_EQ(net->put_inline(0, ~0ull - 2, &v, 8, 0), PORTSHMEM_ERR_OVERFLOW);
  EXPECT_EQ(net->atomic(0, 4, {PORTSHMEM_PROXY_AMO_ADD, 8, 1, 0}, nullptr, 0), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(net->flush(npes()), PORTSHMEM_ERR_INVALID_PE);
  EXPECT_EQ(net->flush_all(), PORTSHMEM_SUCCESS);
  barrier();
}

} // namespace
