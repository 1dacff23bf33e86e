// The ibverbs network against a fake NIC (test_proxy_verbs_fake.hpp), several PEs as threads of this process: the
// queue-pair state machine and who connects to whom, the work requests each operation becomes, every atomic built
// from the two verbs atomics (with a word changed under the compare-and-swap), fence and flush, error completions
// turned into statuses and sentences, failures during setup stopping every PE, dma-buf registration, and the choice
// of the nearest device.
#include <barrier>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "rdma/ib_wr.hpp"
#include "rdma/net_ibverbs.hpp"
#include "test_proxy_verbs_fake.hpp"

namespace {

namespace rdma = portshmem::rdma;
using fake_nic::fabric;
using fake_nic::posted;

constexpr std::size_t kHeapWords = 8192; // 64 KiB per PE

/// An allgather among the threads of one test.
class inproc_allgather {
 public:
  explicit inproc_allgather(int n) : n_(n), barrier_(n) {}
  portshmem_status_t operator()(int pe, const void* mine, void* all, std::size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(m_);
      if (buffer_.size() < std::size_t(n_) * bytes) buffer_.resize(std::size_t(n_) * bytes);
      std::memcpy(buffer_.data() + std::size_t(pe) * bytes, mine, bytes);
    }
    barrier_.arrive_and_wait();
    std::memcpy(all, buffer_.data(), std::size_t(n_) * bytes);
    barrier_.arrive_and_wait(); // nobody refills the buffer before everyone has read it
    return PORTSHMEM_SUCCESS;
  }

 private:
  int n_;
  std::barrier<> barrier_;
  std::mutex m_;
  std::vector<char> buffer_;
};

/// n PEs, each with a heap and (after start) an ibverbs network over the fake NIC.
struct sim {
  explicit sim(int pes) : n(pes), heaps(std::size_t(pes), std::vector<std::uint64_t>(kHeapWords)) {
    fabric::current() = &fab;
  }
  ~sim() {
    nets.clear();
    fabric::current() = nullptr;
  }
  /// Builds every PE's network on its own thread; tweak adjusts a PE's options first.
  void start(const std::function<void(rdma::ibverbs_options&)>& tweak = {}) {
    inproc_allgather ag(n);
    nets.resize(std::size_t(n));
    status.assign(std::size_t(n), PORTSHMEM_SUCCESS);
    std::vector<std::thread> threads;
    for (int pe = 0; pe < n; ++pe) {
      threads.emplace_back([&, pe] {
        rdma::ibverbs_options o;
        o.api = &fabric::api();
        o.my_pe = pe;
        o.n_pes = n;
        o.allgather = [&ag, pe](const void* mine, void* all, std::size_t bytes) { return ag(pe, mine, all, bytes); };
        o.heap = heap(pe);
        o.heap_size = kHeapWords * 8;
        o.bounce_bytes = 64 * 1024;
        if (tweak) tweak(o);
        status[std::size_t(pe)] = rdma::make_ibverbs_network(o, &nets[std::size_t(pe)]);
      });
    }
    for (auto& t : threads) t.join();
  }
  char* heap(int pe) { return reinterpret_cast<char*>(heaps[std::size_t(pe)].data()); }
  std::uint64_t word(int pe, std::uint64_t offset) { return heaps[std::size_t(pe)][offset / 8]; }
  rdma::network& net(int pe) { return *nets[std::size_t(pe)]; }
  /// The requests posted since the mark.
  std::vector<posted> since(std::size_t mark) {
    auto all = fab.posts();
    return std::vector<posted>(all.begin() + long(mark), all.end());
  }

  fabric fab;
  int n;
  std::vector<std::vector<std::uint64_t>> heaps;
  std::vector<std::unique_ptr<rdma::network>> nets;
  std::vector<portshmem_status_t> status;
};

// ---- the connection state machine
// -------------------------------------------------------------------------------------

TEST(ProxyVerbs, EveryPairIsConnectedThroughInitRtrRts) {
  sim s(3);
  s.start();
  for (int pe = 0; pe < 3; ++pe) ASSERT_EQ(s.status[std::size_t(pe)], PORTSHMEM_SUCCESS) << "PE " << pe;
  const auto qps = s.fab.qps();
  ASSERT_EQ(qps.size(), 9u); // one per ordered pair, the loopback included
  // Which context is which PE's (PEs open their devices concurrently): the one its heap was registered in.
  std::map<int, int> pe_of_context;
  for (int pe = 0; pe < 3; ++pe) pe_of_context[s.fab.index_of(s.fab.mr_of(s.heap(pe))->mr.context)] = pe;
  // Each PE made its QPs in PE order: the k-th QP of a PE's context serves peer k.
  std::map<std::pair<int, int>, fake_nic::qp_rec*> by_pair;
  std::map<int, int> made;
  std::map<int, int> context_of_pe;
  for (auto* q : qps) {
    const int context = s.fab.index_of(q->context), pe = pe_of_context.at(context);
    context_of_pe[pe] = context;
    by_pair[{pe, made[pe]++}] = q;
  }
  ASSERT_EQ(by_pair.size(), 9u);
  for (const auto& [pair, q] : by_pair) {
    const auto [me, peer] = pair;
    const std::string what = "QP of PE " + std::to_string(me) + " for peer " + std::to_string(peer);
    ASSERT_EQ(q->state, IBV_QPS_RTS) << what;
    ASSERT_EQ(q->modifies.size(), 3u) << what;
    const ibv_qp_attr& init = q->modifies[0].second;
    const ibv_qp_attr& rtr = q->modifies[1].second;
    const ibv_qp_attr& rts = q->modifies[2].second;
    EXPECT_EQ(init.qp_state, IBV_QPS_INIT) << what;
    EXPECT_EQ(init.port_num, 1) << what;
    EXPECT_EQ(init.qp_access_flags,
              unsigned(IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC))
        << what;
    // RTR points at the peer's QP for this PE, with that QP's starting PSN and the peer's port.
    const fake_nic::qp_rec* other = by_pair[{peer, me}];
    EXPECT_EQ(rtr.dest_qp_num, other->qp.qp_num) << what;
    EXPECT_EQ(rtr.rq_psn, other->modifies[2].second.sq_psn) << what;
    EXPECT_EQ(rtr.ah_attr.dlid, 100 + context_of_pe[peer]) << what << ": the peer's LID";
    EXPECT_EQ(rtr.ah_attr.is_global, 0) << what << ": InfiniBand routes by LID";
    EXPECT_EQ(rtr.path_mtu, IBV_MTU_4096) << what;
    EXPECT_EQ(rtr.max_dest_rd_atomic, 8) << what << ": the device's max_qp_init_rd_atom";
    EXPECT_EQ(rts.max_rd_atomic, 8) << what;
    EXPECT_LT(rts.sq_psn, 1u << 24) << what;
    EXPECT_EQ(rts.retry_cnt, 7) << what;
  }
}

TEST(ProxyVerbs, RoceAddressesPeersByTheRoceV2Gid) {
  const auto root = std::filesystem::temp_directory_path() / ("portshmem_sysfs_" + std::to_string(::getpid()));
  const auto types = root / "class/infiniband/mlx5_0/ports/1/gid_attrs/types";
  std::filesystem::create_directories(types);
  for (int i = 0; i < 4; ++i) std::ofstream(types / std::to_string(i)) << (i == 3 ? "RoCE v2\n" : "IB/RoCE v1\n");
  sim s(2);
  s.fab.specs[0].link_layer = IBV_LINK_LAYER_ETHERNET;
  s.fab.specs[0].mtu = IBV_MTU_1024;
  s.start([&](rdma::ibverbs_options& o) { o.sysfs_root = root.string(); });
  std::filesystem::remove_all(root);
  ASSERT_EQ(s.status[0], PORTSHMEM_SUCCESS);
  for (auto* q : s.fab.qps()) {
    const ibv_qp_attr& rtr = q->modifies.at(1).second;
    EXPECT_EQ(rtr.ah_attr.is_global, 1);
    EXPECT_EQ(rtr.ah_attr.grh.sgid_index, 3);
    EXPECT_EQ(rtr.ah_attr.grh.dgid.raw[0], 0xfe);
    EXPECT_EQ(rtr.ah_attr.grh.dgid.raw[14], 3) << "the peer's GID at the RoCE v2 index";
    EXPECT_EQ(rtr.path_mtu, IBV_MTU_1024);
  }
}

// ---- operations: the requests and what they do -------------------------------------------------------------------

TEST(ProxyVerbs, PutsAndGetsBecomeWritesAndReads) {
  sim s(2);
  s.start();
  ASSERT_EQ(s.status[0], PORTSHMEM_SUCCESS);
  rdma::network& n0 = s.net(0);
  const fake_nic::mr_rec* mr1 = s.fab.mr_of(s.heap(1));
  const fake_nic::mr_rec* heap0 = s.fab.mr_of(s.heap(0));
  const fake_nic::mr_rec* bounce0 = nullptr; // PE 0's other region: its bounce buffers, local access only
  for (auto* r : s.fab.mrs())
    if (r->mr.pd == heap0->mr.pd && r != heap0) bounce0 = r;
  ASSERT_TRUE(mr1 && bounce0);
  EXPECT_EQ(bounce0->access, IBV_ACCESS_LOCAL_WRITE);
  // From PE 0's heap: the heap's own key; from elsewhere: copied through the registered bounce buffers.
  std::memcpy(s.heap(0) + 64, "0123456789abcdef", 16);
  std::size_t mark = s.fab.posts().size();
  ASSERT_EQ(n0.put(1, 1024, s.heap(0) + 64, 16, 0), PORTSHMEM_SUCCESS);
  std::vector<char> outside(60000, 'x');
  ASSERT_EQ(n0.put(1, 2048, outside.data(), outside.size(), 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(n0.complete_local(1), PORTSHMEM_SUCCESS);
  auto p = s.since(mark);
  ASSERT_GE(p.size(), 2u);
  EXPECT_EQ(p[0].opcode, IBV_WR_RDMA_WRITE);
  EXPECT_EQ(p[0].remote_addr, std::uint64_t(std::uintptr_t(s.heap(1))) + 1024);
  EXPECT_EQ(p[0].rkey, mr1->mr.rkey);
  EXPECT_EQ(p[0].lkey, heap0->mr.lkey);
  EXPECT_EQ(p[0].addr, std::uint64_t(std::uintptr_t(s.heap(0) + 64)));
  EXPECT_EQ(p[0].length, 16u);
  EXPECT_TRUE(p[0].flags & IBV_SEND_SIGNALED);
  EXPECT_EQ(p[1].lkey, bounce0->mr.lkey) << "a buffer outside the heap goes through the bounce buffers";
  EXPECT_EQ(p.size(), 1 + (outside.size() + 16383) / 16384) << "in pieces of a quarter of the 64 KiB bounce buffers";
  EXPECT_EQ(std::memcmp(s.heap(1) + 1024, "0123456789abcdef", 16), 0);
  EXPECT_EQ(std::count(s.heap(1) + 2048, s.heap(1) + 2048 + outside.size(), 'x'), long(outside.size()));

  // Inline: the provider copies the bytes at posting, up to what it granted (32 here).
  const std::uint64_t v = 0x1122334455667788ull;
  mark = s.fab.posts().size();
  ASSERT_EQ(n0.put_inline(1, 8, &v, 8, 0), PORTSHMEM_SUCCESS);
  p = s.since(mark);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_TRUE(p[0].flags & IBV_SEND_INLINE);
  EXPECT_EQ(s.word(1, 8), v);

  // Gets: into the heap directly, elsewhere through the bounce buffers and copied out on completion. The puts above
  // still hold the bounce buffers until a completion frees them: the get's pieces wait for that.
  ASSERT_EQ(n0.put(1, 2048, outside.data(), outside.size(), 0), PORTSHMEM_SUCCESS);
  std::vector<char> back(60000);
  mark = s.fab.posts().size();
  ASSERT_EQ(n0.get(1, 2048, back.data(), back.size(), 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(n0.get(1, 1024, s.heap(0) + 4096, 16, 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(n0.complete_local(1), PORTSHMEM_SUCCESS);
  p = s.since(mark);
  EXPECT_EQ(p.front().opcode, IBV_WR_RDMA_READ);
  EXPECT_EQ(p.back().lkey, heap0->mr.lkey);
  EXPECT_EQ(std::count(back.begin(), back.end(), 'x'), long(back.size()));
  EXPECT_EQ(std::memcmp(s.heap(0) + 4096, "0123456789abcdef", 16), 0);
}

struct amo_case {
  portshmem_proxy_amo_t kind;
  std::uint64_t value, compare, expect_after, expect_fetched;
  ibv_wr_opcode first; ///< the first request it posts
};

TEST(ProxyVerbs, EveryAtomicFromFetchAddAndCompareSwap) {
  sim s(2);
  s.start();
  ASSERT_EQ(s.status[0], PORTSHMEM_SUCCESS);
  const std::uint64_t start = 0x00000010'00000020ull;
  for (unsigned width : {8u, 4u}) {
    for (std::uint64_t at : width == 8 ? std::vector<std::uint64_t>{512} : std::vector<std::uint64_t>{512, 516}) {
      const unsigned shift = unsigned(at % 8) * 8;
      const std::uint64_t mask = width == 8 ? ~0ull : 0xffffffffull;
      const std::uint64_t before = width == 8 ? start : (start >> shift) & mask;
      const amo_case cases[] = {
          {PORTSHMEM_PROXY_AMO_FETCH, 0, 0, before, before, IBV_WR_ATOMIC_FETCH_AND_ADD},
          {PORTSHMEM_PROXY_AMO_FETCH_ADD, 5, 0, (before + 5) & mask, before,
           width == 8 ? IBV_WR_ATOMIC_FETCH_AND_ADD : IBV_WR_ATOMIC_CMP_AND_SWP},
          {PORTSHMEM_PROXY_AMO_ADD, mask, 0, (before + mask) & mask, before,
           width == 8 ? IBV_WR_ATOMIC_FETCH_AND_ADD : IBV_WR_ATOMIC_CMP_AND_SWP},
          {PORTSHMEM_PROXY_AMO_COMPARE_SWAP, 99, before, 99, before,
           width == 8 ? IBV_WR_ATOMIC_CMP_AND_SWP : IBV_WR_ATOMIC_FETCH_AND_ADD}, // 4 bytes: learn the word first
          {PORTSHMEM_PROXY_AMO_COMPARE_SWAP, 99, before + 1, before, before,
           width == 8 ? IBV_WR_ATOMIC_CMP_AND_SWP : IBV_WR_ATOMIC_FETCH_AND_ADD},
          {PORTSHMEM_PROXY_AMO_SET, 7, 0, 7, before, IBV_WR_ATOMIC_CMP_AND_SWP},
          {PORTSHMEM_PROXY_AMO_SWAP, 7, 0, 7, before, IBV_WR_ATOMIC_CMP_AND_SWP},
          {PORTSHMEM_PROXY_AMO_FETCH_AND, 0x30, 0, before & 0x30, before, IBV_WR_ATOMIC_CMP_AND_SWP},
          {PORTSHMEM_PROXY_AMO_OR, 0x3, 0, before | 0x3, before, IBV_WR_ATOMIC_CMP_AND_SWP},
          {PORTSHMEM_PROXY_AMO_FETCH_XOR, 0xff, 0, before ^ 0xff, before, IBV_WR_ATOMIC_CMP_AND_SWP},
      };
      for (const amo_case& c : cases) {
        s.heaps[1][64] = start;
        const std::size_t mark = s.fab.posts().size();
        std::uint64_t fetched = ~0ull;
        ASSERT_EQ(s.net(0).atomic(1, at, {c.kind, width, c.value, c.compare}, &fetched, 0), PORTSHMEM_SUCCESS);
        ASSERT_EQ(s.net(0).complete_local(1), PORTSHMEM_SUCCESS);
        const std::string what =
            "kind " + std::to_string(c.kind) + ", width " + std::to_string(width) + " at " + std::to_string(at);
        EXPECT_EQ((s.word(1, 512) >> shift) & mask, c.expect_after) << what;
        if (width == 4) EXPECT_EQ((s.word(1, 512) >> (32 - shift)) & mask, (start >> (32 - shift)) & mask) << what;
        if (rdma::amo_fetches(c.kind)) EXPECT_EQ(fetched, c.expect_fetched) << what;
        const auto p = s.since(mark);
        ASSERT_FALSE(p.empty()) << what;
        EXPECT_EQ(p[0].opcode, c.first) << what;
        EXPECT_EQ(p[0].remote_addr, std::uint64_t(std::uintptr_t(s.heap(1))) + 512) << what << ": the aligned word";
        EXPECT_LE(p.size(), 2u) << what << ": a guess, then at most one retry without contention";
      }
    }
  }
}

TEST(ProxyVerbs, TheCompareSwapLoopRetriesWhenTheWordChangesUnderIt) {
  sim s(2);
  s.start();
  ASSERT_EQ(s.status[0], PORTSHMEM_SUCCESS);
  s.heaps[1][8] = 1;
  int interference = 3; // another NIC's atomic lands before each of the first three swaps
  s.fab.before_cas = [&](std::uint64_t* word) {
    if (interference-- > 0) *word += 100;
  };
  std::uint64_t fetched = 0;
  ASSERT_EQ(s.net(0).atomic(1, 64, {PORTSHMEM_PROXY_AMO_FETCH_OR, 8, 0x8000, 0}, &fetched, 0), PORTSHMEM_SUCCESS);
  EXPECT_EQ(s.word(1, 64), 301u | 0x8000);
  EXPECT_EQ(fetched, 301u) << "the value the successful swap replaced";
  s.fab.before_cas = nullptr;
}

TEST(ProxyVerbs, FenceOnlyAfterAReadOrAtomicAndFlushReadsBehindWrites) {
  sim s(2);
  s.start();
  ASSERT_EQ(s.status[0], PORTSHMEM_SUCCESS);
  rdma::network& n0 = s.net(0);
  const std::uint64_t v = 1;
  std::size_t mark = s.fab.posts().size();
  ASSERT_EQ(n0.put_inline(1, 0, &v, 8, 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(n0.order(1), PORTSHMEM_SUCCESS);
  ASSERT_EQ(n0.put_inline(1, 8, &v, 8, 0), PORTSHMEM_SUCCESS); // writes are in order already: no fence
  ASSERT_EQ(n0.atomic(1, 16, {PORTSHMEM_PROXY_AMO_ADD, 8, 1, 0}, nullptr, 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(n0.order(1), PORTSHMEM_SUCCESS);
  ASSERT_EQ(n0.put_inline(1, 24, &v, 8, 0), PORTSHMEM_SUCCESS); // must wait for the atomic: fenced
  ASSERT_EQ(n0.put_inline(1, 32, &v, 8, 0), PORTSHMEM_SUCCESS); // the fence was used up
  auto p = s.since(mark);
  ASSERT_EQ(p.size(), 5u);
  EXPECT_FALSE(p[1].flags & IBV_SEND_FENCE);
  EXPECT_EQ(p[2].opcode, IBV_WR_ATOMIC_FETCH_AND_ADD);
  EXPECT_TRUE(p[3].flags & IBV_SEND_FENCE);
  EXPECT_FALSE(p[4].flags & IBV_SEND_FENCE);
  // flush: a read behind the writes, from the target's heap, waited for; none when nothing was written since.
  mark = s.fab.posts().size();
  ASSERT_EQ(n0.flush(1), PORTSHMEM_SUCCESS);
  ASSERT_EQ(n0.flush(1), PORTSHMEM_SUCCESS);
  ASSERT_EQ(n0.flush_all(), PORTSHMEM_SUCCESS);
  p = s.since(mark);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].opcode, IBV_WR_RDMA_READ);
  EXPECT_EQ(p[0].remote_addr, std::uint64_t(std::uintptr_t(s.heap(1))));
  EXPECT_EQ(p[0].length, 8u);
}

// ---- errors ----------------------------------------------------------------------------------------------------

TEST(ProxyVerbs, AnErrorCompletionBecomesAStatusAndASentence) {
  sim s(2);
  s.start();
  ASSERT_EQ(s.status[0], PORTSHMEM_SUCCESS);
  rdma::network& n0 = s.net(0);
  s.fab.fault = [](const posted& p) {
    return p.opcode == IBV_WR_RDMA_WRITE && p.length == 64 ? IBV_WC_REM_ACCESS_ERR : IBV_WC_SUCCESS;
  };
  ASSERT_EQ(n0.put(1, 4096, s.heap(0), 64, 0), PORTSHMEM_SUCCESS); // posted; the failure shows at completion
  EXPECT_EQ(n0.complete_local(1), rdma::kNetworkError);
  EXPECT_EQ(n0.last_error(), "RDMA write to PE 1 (heap offset 4096, 64 bytes) completed with remote access error "
                             "(status 10, vendor error 0x0)");
  // The queue pair is in the error state: later requests to PE 1 fail at once; other PEs are unaffected.
  const std::uint64_t v = 1;
  EXPECT_EQ(n0.put_inline(1, 0, &v, 8, 0), rdma::kNetworkError);
  EXPECT_NE(n0.last_error().find("queue pair to PE 1 is in the error state after an earlier failure: RDMA write"),
            std::string::npos)
      << n0.last_error();
  EXPECT_EQ(n0.put_inline(0, 0, &v, 8, 0), PORTSHMEM_SUCCESS);
  EXPECT_EQ(n0.flush_all(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(s.word(0, 0), 1u);
  s.fab.fault = nullptr;
}

TEST(ProxyVerbs, BadTargetsAreRefusedBeforePosting) {
  sim s(2);
  s.start();
  ASSERT_EQ(s.status[0], PORTSHMEM_SUCCESS);
  const std::size_t mark = s.fab.posts().size();
  std::uint64_t v = 0;
  EXPECT_EQ(s.net(0).put(2, 0, &v, 8, 0), PORTSHMEM_ERR_INVALID_PE);
  EXPECT_EQ(s.net(0).get(1, kHeapWords * 8 - 4, &v, 8, 0), PORTSHMEM_ERR_OVERFLOW);
  EXPECT_EQ(s.net(0).atomic(1, 12, {PORTSHMEM_PROXY_AMO_ADD, 8, 1, 0}, nullptr, 0), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(s.fab.posts().size(), mark);
}

TEST(ProxyVerbs, AFailedTransitionOnOnePeStopsEveryPe) {
  sim s(3);
  s.fab.fail_to_state = IBV_QPS_RTR;
  s.fab.fail_context = 1; // the second context opened: some PE's
  s.start();
  int failed_alone = 0;
  for (int pe = 0; pe < 3; ++pe) {
    EXPECT_NE(s.status[std::size_t(pe)], PORTSHMEM_SUCCESS) << "PE " << pe;
    EXPECT_FALSE(s.nets[std::size_t(pe)]) << "PE " << pe;
    failed_alone += s.status[std::size_t(pe)] == PORTSHMEM_ERR_SYSTEM;
  }
  EXPECT_EQ(failed_alone, 1) << "the PE whose transition failed says so; the others that another PE failed";
}

TEST(ProxyVerbs, NoUsableDeviceIsUnreachableOnEveryPe) {
  for (int variant = 0; variant < 3; ++variant) {
    sim s(2);
    if (variant == 0) s.fab.specs.clear();
    if (variant == 1) s.fab.specs[0].port_active = false;
    if (variant == 2) s.fab.specs[0].atomic_cap = IBV_ATOMIC_NONE;
    s.start();
    EXPECT_EQ(s.status[0], PORTSHMEM_ERR_UNREACHABLE) << variant;
    EXPECT_EQ(s.status[1], PORTSHMEM_ERR_UNREACHABLE) << variant;
  }
}

TEST(ProxyVerbs, AGpuHeapIsRegisteredThroughItsDmaBuf) {
  sim s(2);
  s.start([&](rdma::ibverbs_options& o) {
    o.heap_dmabuf_fd = 40 + o.my_pe;
    o.heap_dmabuf_offset = 4096;
  });
  ASSERT_EQ(s.status[0], PORTSHMEM_SUCCESS);
  int dmabuf = 0;
  for (auto* r : s.fab.mrs()) {
    if (r->dmabuf_fd < 0) continue;
    ++dmabuf;
    EXPECT_TRUE(r->dmabuf_fd == 40 || r->dmabuf_fd == 41);
    EXPECT_EQ(r->mr.handle, 4096u) << "the offset in the dma-buf";
    EXPECT_EQ(r->iova, std::uint64_t(std::uintptr_t(s.heap(r->dmabuf_fd - 40))));
    EXPECT_EQ(r->access,
              IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
  }
  EXPECT_EQ(dmabuf, 2);
  // And it is used: a put lands through it.
  const std::uint64_t v = 42;
  ASSERT_EQ(s.net(0).put_inline(1, 40, &v, 8, 0), PORTSHMEM_SUCCESS);
  ASSERT_EQ(s.net(0).flush(1), PORTSHMEM_SUCCESS);
  EXPECT_EQ(s.word(1, 40), 42u);
}

TEST(ProxyVerbs, TheDeviceNearestTheGpuIsChosen) {
  const auto root = std::filesystem::temp_directory_path() / ("portshmem_sysfs_near_" + std::to_string(::getpid()));
  // Two NICs on two root complexes; the GPU shares a switch with mlx5_1.
  const auto dev0 = root / "devices/pci0000:10/0000:10:01.0/0000:11:00.0";
  const auto sw = root / "devices/pci0000:80/0000:80:01.0/0000:81:00.0";
  const auto dev1 = sw / "0000:82:00.0", gpu = sw / "0000:83:00.0";
  for (const auto& d : {dev0, dev1, gpu}) std::filesystem::create_directories(d);
  for (const char* name : {"mlx5_0", "mlx5_1"}) std::filesystem::create_directories(root / "class/infiniband" / name);
  std::filesystem::create_directory_symlink(dev0, root / "class/infiniband/mlx5_0/device");
  std::filesystem::create_directory_symlink(dev1, root / "class/infiniband/mlx5_1/device");
  std::filesystem::create_directories(root / "bus/pci/devices");
  std::filesystem::create_directory_symlink(gpu, root / "bus/pci/devices/0000:83:00.0");
  sim s(1);
  s.fab.specs = {fake_nic::device_spec{}, fake_nic::device_spec{}};
  s.fab.specs[1].name = "mlx5_1";
  s.fab.specs[1].ibdev_path = "/sys/class/infiniband/mlx5_1";
  s.start([&](rdma::ibverbs_options& o) {
    o.sysfs_root = root.string();
    o.near_pci_bus_id = "0000:83:00.0";
  });
  std::filesystem::remove_all(root);
  ASSERT_EQ(s.status[0], PORTSHMEM_SUCCESS);
  EXPECT_EQ(s.fab.open_devices(), std::vector<std::string>{"mlx5_1"});
}

TEST(ProxyVerbs, PlanOfEachAtomic) {
  using rdma::amo_plan;
  EXPECT_EQ(rdma::plan_amo({PORTSHMEM_PROXY_AMO_FETCH_ADD, 8, 3, 0}, 64).how, amo_plan::fetch_add);
  EXPECT_EQ(rdma::plan_amo({PORTSHMEM_PROXY_AMO_COMPARE_SWAP, 8, 3, 0}, 64).how, amo_plan::compare_swap);
  EXPECT_EQ(rdma::plan_amo({PORTSHMEM_PROXY_AMO_SET, 8, 3, 0}, 64).how, amo_plan::cas_loop);
  const amo_plan high = rdma::plan_amo({PORTSHMEM_PROXY_AMO_ADD, 4, 3, 0}, 68);
  EXPECT_EQ(high.how, amo_plan::cas_loop);
  EXPECT_EQ(high.word, 64u);
  EXPECT_EQ(high.shift, 32u);
  EXPECT_EQ(high.mask, 0xffffffff00000000ull);
  std::uint64_t next = 0;
  // A 4-byte add that overflows keeps its carry out of the other half.
  ASSERT_TRUE(rdma::amo_next_word({PORTSHMEM_PROXY_AMO_ADD, 4, 1, 0},
                                  rdma::plan_amo({PORTSHMEM_PROXY_AMO_ADD, 4, 1, 0}, 64), 0x00000005ffffffffull,
                                  &next));
  EXPECT_EQ(next, 0x0000000500000000ull);
  EXPECT_FALSE(rdma::amo_next_word({PORTSHMEM_PROXY_AMO_COMPARE_SWAP, 4, 9, 1}, high, 0x0000000200000000ull, &next));
  EXPECT_EQ(rdma::amo_old_value(high, 0x0000000200000007ull), 2u);
}

} // namespace
