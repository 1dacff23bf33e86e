// alltoall in every form and size; collectives on several teams at once in one launch (different slots: the world,
// this PE's half of an even/odd split, its row and its column of a 2-D split, one list of calls each); and many
// collectives back to back in one kernel on the same buffers (round counters, scratch halves, dests reused after a
// team_sync), each result snapshot in the kernel and checked afterwards.
#include "coll_test.hpp"

namespace {

using coll::form;
using coll::job;
using coll::kind;
using coll::op;

TEST(Alltoall, Sizes) {
  coll::for_each_team<long>("alltoall", 5, [](coll::plan& p, const coll::team_ref& t) {
    const int ti = p.team(t.handle()), n = t.size(), me = t.index();
    std::uint64_t salt = 400;
    for (std::size_t bytes :
         {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(8), std::size_t(1000), std::size_t(65544)}) {
      coll::add_alltoallmem(p, 0, ti, t, bytes, ++salt);
    }
    if (n == mp::npes()) coll::add_alltoallmem(p, 0, ti, t, std::size_t(1) << 18, ++salt);
    ++salt; // typed: block j of member i is hash(i, j * 777 + k)
    constexpr std::size_t kElems = 777;
    std::vector<long> mine(kElems * std::size_t(n)), want(kElems * std::size_t(n));
    for (std::size_t k = 0; k < mine.size(); ++k) mine[k] = long(coll::hash(t.world_pe(me), k, salt));
    for (int i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < kElems; ++k) {
        want[std::size_t(i) * kElems + k] = long(coll::hash(t.world_pe(i), std::size_t(me) * kElems + k, salt));
      }
    }
    const std::size_t d = p.dest(0, want.size() * 8, 0, "alltoall<long>"), s = p.src(0, mine.data(), mine.size() * 8);
    p.add(0, job{kind::alltoall, op::sum, ti, 0, d, s, kElems});
    p.expect(0, d, want.data(), want.size() * 8);
  });
}

/// One list of every collective on team t (team index ti), in list `list` of p.
void every_collective(coll::plan& p, std::size_t list, int ti, const coll::team_ref& t, std::uint64_t salt) {
  const int n = t.size();
  coll::add_reduce<long>(p, list, ti, t, op::sum, 100, false, ++salt);
  coll::add_broadcastmem(p, list, ti, t, 5000, n - 1, ++salt);
  coll::add_reduce<long>(p, list, ti, t, op::max, 3000, false, ++salt);
  coll::add_fcollectmem(p, list, ti, t, 700, ++salt);
  coll::add_broadcastmem(p, list, ti, t, 70000, 0, ++salt);
  coll::add_alltoallmem(p, list, ti, t, 300, ++salt);
  coll::add_collectmem(
      p, list, ti, t, [](int i) { return std::size_t(i) * 50 + 1; }, ++salt);
  coll::add_reduce_scatter<long>(p, list, ti, t, op::bxor, 64, ++salt);
  coll::add_reduce<long>(p, list, ti, t, op::prod, 17, true, ++salt);
  p.add(list, job{kind::barrier, op::sum, ti, 0, 0, 0, 0});
}

// Four teams with different slots, one list of calls each, all in one launch: by four blocks (block form), or by
// the waves and first threads of waves of fewer blocks (wave and thread forms), so calls on different teams also share
// a block. The lists only meet through the PEs they share: each team's rounds and scratch are its own.
TEST(ConcurrentTeams, FourTeamsInOneLaunch) {
  const int n = mp::npes(), me = mp::me();
  coll::team_ref world = coll::team_ref::world();
  coll::team_ref evens = coll::team_ref::strided(0, 2, (n + 1) / 2);
  coll::team_ref odds = n >= 2 ? coll::team_ref::strided(1, 2, n / 2) : coll::team_ref();
  auto [row, col] = coll::team_ref::grid(n <= 4 ? 2 : 3);
  const coll::team_ref& half = me % 2 == 0 ? evens : odds;
  EXPECT_TRUE(half.member() && row.member() && col.member());
  EXPECT_NE(half.id(), world.id());
  EXPECT_NE(row.id(), col.id());
  std::uint64_t salt = 10000;
  for (form f : coll::kForms) {
    coll::plan p(4);
    const coll::team_ref* teams[] = {&world, &half, &row, &col};
    for (std::size_t l = 0; l < 4; ++l) every_collective(p, l, p.team(teams[l]->handle()), *teams[l], salt += 100);
    coll::run_checked<long>(p, f, "four teams in one launch");
  }
}

// The same buffers reused by hundreds of calls in one kernel: each iteration refills the sources in the kernel,
// reduces (alternating one- and two-shot sizes and operators), snapshots the result, broadcasts from a rotating root
// (alternating direct and scatter sizes), snapshots, and team_syncs so that no member's next call overwrites a dest
// before its owner has read it.
TEST(BackToBack, HundredsOfCallsOnTheSameBuffers) {
  constexpr std::size_t kReduceCounts[] = {1, 5, 100, 2048, 2049, 3000, 257};
  constexpr op kOps[] = {op::sum, op::max, op::bxor};
  constexpr std::size_t kBroadcastBytes[] = {8, 1000, 65536, 40000, 3, 70001};
  const std::vector<coll::shape> shapes = coll::team_shapes(mp::npes());
  std::vector<std::size_t> runs{0}; // the world, and stride 2 from PE 1 where that is a team of several
  if (shapes.size() > 2) runs.push_back(2);
  for (std::size_t si : runs) {
    coll::team_ref t = shapes[si].make();
    for (form f : coll::forms_for(si, 0)) {
      const int iterations = f == form::block ? 200 : 40;
      coll::plan p;
      if (t.member()) {
        const int ti = p.team(t.handle()), n = t.size();
        const std::size_t dr = p.dest(0, 3000 * 8, 0, "reduce dest"), db = p.dest(0, 70001, 0, "broadcast dest");
        const std::size_t sr = p.src_space(0, 3000 * 8), sb = p.src_space(0, 70008);
        std::size_t last_count = 0;
        std::vector<long> last;
        for (int i = 0; i < iterations; ++i) {
          const std::size_t count = kReduceCounts[i % 7], bytes = kBroadcastBytes[i % 6];
          const op o = kOps[i % 3];
          const int root = i % n, salt_r = 2 * i + 1, salt_b = 2 * i + 2;
          p.add(0, job{kind::refill, op::sum, ti, salt_r, 0, sr, count});
          p.add(0, job{kind::reduce, o, ti, 0, dr, sr, count});
          const std::vector<long> want = coll::reference<long>(
              o, n, count, [&](int m, std::size_t k) { return coll::refill_value(t.world_pe(m), k, salt_r); });
          const std::size_t lr = p.log(0, count * 8, "reduce snapshot");
          p.add(0, job{kind::snapshot, op::sum, ti, 0, lr, dr, count * 8});
          p.expect_log(0, lr, want.data(), count * 8);
          p.add(0, job{kind::refill, op::sum, ti, salt_b, 0, sb, (bytes + 7) / 8});
          p.add(0, job{kind::broadcastmem, op::sum, ti, root, db, sb, bytes});
          std::vector<long> words((bytes + 7) / 8);
          for (std::size_t w = 0; w < words.size(); ++w) words[w] = coll::refill_value(t.world_pe(root), w, salt_b);
          const std::size_t lb = p.log(0, bytes, "broadcast snapshot");
          p.add(0, job{kind::snapshot, op::sum, ti, 0, lb, db, bytes});
          p.expect_log(0, lb, words.data(), bytes);
          p.add(0, job{kind::sync, op::sum, ti, 0, 0, 0, 0});
          last = want;
          last_count = count;
        }
        p.expect(0, dr, last.data(), last_count * 8);
      }
      coll::run_checked<long>(p, f, "back-to-back calls on team " + std::string(shapes[si].name));
    }
  }
}

} // namespace
