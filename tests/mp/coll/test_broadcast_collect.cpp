// Barrier and team_sync, broadcast, fcollect and collect on the world and on sub-teams (PEs outside do nothing), in
// thread, wave and block forms: every dest byte against the data of the member that sent it, guards around every dest,
// sizes 0, 1, odd, across the broadcast's scatter crossover and beyond, roots first, middle and last.
#include "coll_test.hpp"

namespace {

using coll::form;
using coll::job;
using coll::kind;

// Each round a member's last thread p's a value naming the round and itself into the next member's word, then the
// team synchronizes (barrier: its quiet completes the p; team_sync: after an explicit quiet) and the member snapshots
// the word its previous member wrote: a barrier that let anyone through early, or completed nothing, shows up as an
// older value. The second team_sync keeps the next round's p from overwriting a word before it was read.
TEST(Barrier, RingPutsAreVisibleAfterBarrierAndSync) {
  coll::for_each_team<long>("ring through barrier/sync", 1, [](coll::plan& p, const coll::team_ref& t) {
    const int ti = p.team(t.handle()), n = t.size(), me = t.index(), prev = (me + n - 1) % n;
    const std::size_t words = p.dest(0, std::size_t(n) * 8, 0, "ring words");
    constexpr int kRounds = 6;
    const std::size_t log = p.log(0, kRounds * 8);
    for (int r = 0; r < kRounds; ++r) {
      const bool barrier = r % 2 == 0;
      p.add(0, job{kind::ring_put, coll::op::sum, ti, barrier ? 0 : 1, words, 0, std::uint64_t(1000 * (r + 1) + me)});
      p.add(0, job{barrier ? kind::barrier : kind::sync, coll::op::sum, ti, 0, 0, 0, 0});
      p.add(0, job{kind::snapshot, coll::op::sum, ti, 0, log + 8 * std::size_t(r), words + 8 * std::size_t(prev), 8});
      p.add(0, job{kind::sync, coll::op::sum, ti, 0, 0, 0, 0});
      const std::uint64_t want = std::uint64_t(1000 * (r + 1) + prev);
      p.expect_log(0, log + 8 * std::size_t(r), &want, 8);
    }
    const std::uint64_t last = std::uint64_t(1000 * kRounds + prev);
    p.expect(0, words + 8 * std::size_t(prev), &last, 8); // the other words stay guard bytes
  });
}

std::vector<int> roots_of(int n) {
  std::vector<int> r{0};
  if (n / 2 != 0) r.push_back(n / 2);
  if (n - 1 != n / 2 && n > 1) r.push_back(n - 1);
  return r;
}

TEST(Broadcast, SizesAndRoots) {
  constexpr std::size_t kScatter = portshmem::detail::kBroadcastScatterBytes;
  coll::for_each_team<long>("broadcast", 2, [](coll::plan& p, const coll::team_ref& t) {
    const int ti = p.team(t.handle()), n = t.size();
    const std::vector<int> roots = roots_of(n);
    std::uint64_t salt = 100;
    for (std::size_t bytes : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(256), std::size_t(4093),
                              kScatter - 1, kScatter, kScatter + 4097}) {
      for (int root : roots) coll::add_broadcastmem(p, 0, ti, t, bytes, root, ++salt); // misaligned: any address
    }
    // Typed forms, and one broadcast of several MiB from the middle member (the scatter's slices, many lines each).
    for (auto [elems, root] : {std::pair<std::size_t, int>{1000, n - 1}, {9000, 0}, {(3u << 20) / 8 + 5, n / 2}}) {
      ++salt;
      std::vector<long> mine(elems), want(elems);
      for (std::size_t i = 0; i < elems; ++i) {
        mine[i] = long(coll::hash(t.world_pe(t.index()), i, salt));
        want[i] = long(coll::hash(t.world_pe(root), i, salt));
      }
      const std::size_t d = p.dest(0, elems * 8, 0, "broadcast<long>"), s = p.src(0, mine.data(), elems * 8);
      p.add(0, job{kind::broadcast, coll::op::sum, ti, root, d, s, elems});
      p.expect(0, d, want.data(), elems * 8);
    }
  });
}

TEST(Fcollect, Sizes) {
  coll::for_each_team<long>("fcollect", 3, [](coll::plan& p, const coll::team_ref& t) {
    const int ti = p.team(t.handle()), n = t.size(), me = t.world_pe(t.index());
    std::uint64_t salt = 200;
    for (std::size_t bytes : {std::size_t(0), std::size_t(1), std::size_t(13), std::size_t(4096), std::size_t(65537),
                              std::size_t(1 << 19)}) {
      coll::add_fcollectmem(p, 0, ti, t, bytes, ++salt);
    }
    ++salt;
    constexpr std::size_t kElems = 1001;
    std::vector<long> mine(kElems), want(kElems * std::size_t(n));
    for (std::size_t k = 0; k < kElems; ++k) mine[k] = long(coll::hash(me, k, salt));
    for (int i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < kElems; ++k)
        want[std::size_t(i) * kElems + k] = long(coll::hash(t.world_pe(i), k, salt));
    }
    const std::size_t d = p.dest(0, want.size() * 8, 0, "fcollect<long>"), s = p.src(0, mine.data(), kElems * 8);
    p.add(0, job{kind::fcollect, coll::op::sum, ti, 0, d, s, kElems});
    p.expect(0, d, want.data(), want.size() * 8);
  });
}

// collect: each member's own size, zeros among them; the dest is every member's data back to back in member order.
TEST(Collect, DifferentSizesPerMember) {
  coll::for_each_team<long>("collect", 4, [](coll::plan& p, const coll::team_ref& t) {
    const int ti = p.team(t.handle()), n = t.size(), me = t.index();
    using size_of_member = std::size_t (*)(int i, int n);
    const size_of_member cases[] = {
        [](int i, int) { return i % 2 ? std::size_t(0) : std::size_t(100 + 17 * i); },
        [](int, int) { return std::size_t(0); },
        [](int i, int n) { return std::size_t(1 + i * i * 1000) + (i == n - 1 ? 70000 : 0); },
        [](int i, int) { return std::size_t(i == 0 ? 0 : 3 * i + 1); },
    };
    std::uint64_t salt = 300;
    for (size_of_member size : cases)
      coll::add_collectmem(
          p, 0, ti, t, [&](int i) { return size(i, n); }, ++salt);
    ++salt; // typed: member i gives 2i + 1 longs
    std::vector<long> mine(std::size_t(2 * me + 1)), want;
    for (std::size_t k = 0; k < mine.size(); ++k) mine[k] = long(coll::hash(t.world_pe(me), k, salt));
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < 2 * i + 1; ++k) want.push_back(long(coll::hash(t.world_pe(i), std::uint64_t(k), salt)));
    }
    const std::size_t d = p.dest(0, want.size() * 8, 0, "collect<long>"), s = p.src(0, mine.data(), mine.size() * 8);
    p.add(0, job{kind::collect, coll::op::sum, ti, 0, d, s, mine.size()});
    p.expect(0, d, want.data(), want.size() * 8);
  });
}

} // namespace
