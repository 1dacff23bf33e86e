// Bad collective calls on the device: a PE calling with the handle of a team it is not in, a root outside the team —
// recorded (portshmem_check_device_errors gives PORTSHMEM_ERR_DEVICE, one record per call), nothing written anywhere,
// and the team still works afterwards. Built a second time with PORTSHMEM_DEBUG_CHECKS=1
// (portshmem_mp_coll_debug_tests), where members whose calls differ (sizes, root, operator) must record
// PORTSHMEM_ERR_MISMATCH, and matching calls record nothing. The mismatched calls keep the same number of rounds, so
// every member still finishes them.
#include <cstring>

#include "coll_test.hpp"

namespace {

using coll::form;
using coll::job;
using coll::kind;
using coll::op;

/// Runs p in form f; returns the status portshmem_check_device_errors gave, the record's status and count.
template <class T>
portshmem_status_t run_in(coll::plan& p, form f, const std::string& what, std::uint32_t* recorded,
                          std::uint64_t* count) {
  switch (f) {
  case form::thread:
    return p.run<form::thread, T>(what, recorded, count);
  case form::wave:
    return p.run<form::wave, T>(what, recorded, count);
  default:
    return p.run<form::block, T>(what, recorded, count);
  }
}

/// One call of every collective kind on handle h (team index ti), into fresh dest regions that must stay guard
/// bytes; returns the number of calls.
int every_kind_refused(coll::plan& p, int ti, int n) {
  const std::size_t src = p.src_space(0, 4096);
  const job calls[] = {
      {kind::barrier, op::sum, ti, 0, 0, 0, 0},
      {kind::sync, op::sum, ti, 0, 0, 0, 0},
      {kind::broadcastmem, op::sum, ti, 0, p.dest(0, 100, 0, "broadcastmem"), src, 100},
      {kind::fcollectmem, op::sum, ti, 0, p.dest(0, 64 * std::size_t(n), 0, "fcollectmem"), src, 64},
      {kind::collectmem, op::sum, ti, 0, p.dest(0, 64 * std::size_t(n), 0, "collectmem"), src, 64},
      {kind::alltoallmem, op::sum, ti, 0, p.dest(0, 16 * std::size_t(n), 0, "alltoallmem"), src, 16},
      {kind::reduce, op::sum, ti, 0, p.dest(0, 8 * 100, 0, "reduce"), src, 100},
      {kind::reduce, op::bxor, ti, 0, p.dest(0, 8 * 4000, 0, "reduce (two-shot)"), coll::kInPlace, 4000},
      {kind::reduce_scatter, op::max, ti, 0, p.dest(0, 8 * 4, 0, "reduce_scatter"), src, 4},
  };
  for (const job& j : calls) p.add(0, j);
  return int(sizeof calls / sizeof calls[0]);
}

// A handle whose my_index says "not a member" (what a PE outside a team would hold): every kind refused on every PE.
TEST(BadCollective, HandleOfANonMemberIsRefused) {
  portshmem::team w{};
  EXPECT_EQ(portshmem_team_get_handle(PORTSHMEM_TEAM_WORLD, &w), PORTSHMEM_SUCCESS);
  w.my_index = -1;
  for (form f : coll::kForms) {
    coll::plan p;
    const int calls = every_kind_refused(p, p.team(w), mp::npes());
    std::uint32_t recorded = 0;
    std::uint64_t count = 0;
    EXPECT_EQ(run_in<long>(p, f, "calls with a non-member's handle", &recorded, &count), PORTSHMEM_ERR_DEVICE);
    EXPECT_EQ(recorded, std::uint32_t(PORTSHMEM_ERR_INVALID_ARG));
    EXPECT_EQ(count, std::uint64_t(calls)) << "one record per call (" << coll::name_of(f) << " form)";
  }
}

// The last PE borrows PE 0's handle of a team it is not in (all PEs but the last) and calls while the members run the
// same calls correctly: its calls are refused and touch nothing, the members' results are right.
TEST(BadCollective, PeOutsideTheTeamIsRefusedWhileMembersRun) {
  const int n = mp::npes();
  if (n < 2) GTEST_SKIP() << "needs a PE outside the team";
  coll::team_ref t = coll::team_ref::strided(0, 1, n - 1);
  portshmem::team borrowed = t.handle();
  EXPECT_EQ(MPI_Bcast(&borrowed, sizeof borrowed, MPI_BYTE, 0, MPI_COMM_WORLD), MPI_SUCCESS);
  const bool outside = !t.member();
  EXPECT_EQ(outside, mp::me() == n - 1);
  for (form f : coll::kForms) {
    coll::plan p;
    int calls = 0;
    if (outside) {
      calls = every_kind_refused(p, p.team(borrowed), n - 1);
    } else {
      const int ti = p.team(t.handle());
      p.add(0, job{kind::barrier, op::sum, ti, 0, 0, 0, 0});
      coll::add_broadcastmem(p, 0, ti, t, 100, 0, 71);
      coll::add_fcollectmem(p, 0, ti, t, 64, 72);
      coll::add_reduce<long>(p, 0, ti, t, op::sum, 100, false, 73);
      coll::add_reduce<long>(p, 0, ti, t, op::bxor, 4000, true, 74);
    }
    std::uint32_t recorded = 0;
    std::uint64_t count = 0;
    const portshmem_status_t s = run_in<long>(p, f, "a PE outside the team calling", &recorded, &count);
    EXPECT_EQ(s, outside ? PORTSHMEM_ERR_DEVICE : PORTSHMEM_SUCCESS);
    EXPECT_EQ(recorded, std::uint32_t(outside ? PORTSHMEM_ERR_INVALID_ARG : PORTSHMEM_SUCCESS));
    EXPECT_EQ(count, std::uint64_t(calls)) << "one record per call (" << coll::name_of(f) << " form)";
  }
}

// A root outside the team, the same on every member: recorded on every member, nothing sent; the rounds stay in step,
// so a correct broadcast after it in the same kernel works.
TEST(BadCollective, RootOutOfRange) {
  const int n = mp::npes();
  const std::vector<coll::shape> shapes = coll::team_shapes(n);
  for (std::size_t si = 0; si < std::min<std::size_t>(shapes.size(), 3); ++si) {
    coll::team_ref t = shapes[si].make();
    for (form f : coll::forms_for(si, 1)) {
      coll::plan p;
      if (t.member()) {
        const int ti = p.team(t.handle()), size = t.size();
        const std::vector<std::uint8_t> mine = coll::bytes_of(mp::me(), 0, 70000, 5);
        const std::size_t s = p.src(0, mine.data(), mine.size());
        for (int root : {-1, size, size + 7}) {
          for (std::size_t bytes : {std::size_t(64), std::size_t(70000)}) { // direct and scatter
            p.add(0, job{kind::broadcastmem, op::sum, ti, root, p.dest(0, bytes, 0, "bad root"), s, bytes});
          }
        }
        coll::add_broadcastmem(p, 0, ti, t, 70000, size - 1, 6);
      }
      std::uint32_t recorded = 0;
      std::uint64_t count = 0;
      const portshmem_status_t s = run_in<long>(p, f, "broadcast with a bad root", &recorded, &count);
      EXPECT_EQ(s, t.member() ? PORTSHMEM_ERR_DEVICE : PORTSHMEM_SUCCESS) << shapes[si].name;
      EXPECT_EQ(recorded, std::uint32_t(t.member() ? PORTSHMEM_ERR_INVALID_PE : PORTSHMEM_SUCCESS));
      EXPECT_EQ(count, t.member() ? 6u : 0u) << "one record per call (" << coll::name_of(f) << " form)";
    }
  }
}

// ---- debug checks: members whose calls differ
// ------------------------------------------------------------------------

/// A mismatched collective on the world: the common call on every PE but `odd`, which passes its own.
struct mismatch {
  const char* name;
  int odd;           // the world PE whose call differs
  job common, other; // dest/src offsets filled in by the test
  std::size_t dest_bytes, src_bytes;
  bool everyone; // every PE must record it (every member waits on every other); else at least one PE
  bool odd_sees; // the odd PE must record it (it waits on a member whose call differs)
};

// Each mismatched call runs alone in its launch: a member that finishes it and starts its next call overwrites its
// words on the others, after which a late member can no longer see which call it made (the check is best effort).
// A correct call in a second launch shows the team still works.
TEST(DebugChecks, MismatchedCallsAreRecorded) {
  if (!PORTSHMEM_DEBUG_CHECKS) GTEST_SKIP() << "needs PORTSHMEM_DEBUG_CHECKS (portshmem_mp_coll_debug_tests)";
  const int n = mp::npes(), me = mp::me();
  if (n < 2) GTEST_SKIP() << "one PE cannot disagree with itself";
  coll::team_ref world = coll::team_ref::world();
  std::vector<mismatch> cases = {
      {"reduce nelems",
       n - 1,
       {kind::reduce, op::sum, 0, 0, 0, 0, 4},
       {kind::reduce, op::sum, 0, 0, 0, 0, 5},
       40,
       40,
       true,
       true},
      {"reduce operator",
       n - 1,
       {kind::reduce, op::sum, 0, 0, 0, 0, 6},
       {kind::reduce, op::max, 0, 0, 0, 0, 6},
       48,
       48,
       true,
       true},
      {"broadcast nbytes (a non-root differs)",
       n - 1,
       {kind::broadcastmem, op::sum, 0, 0, 0, 0, 100},
       {kind::broadcastmem, op::sum, 0, 0, 0, 0, 90},
       100,
       100,
       false,
       true},
      {"fcollect nbytes",
       n - 1,
       {kind::fcollectmem, op::sum, 0, 0, 0, 0, 64},
       {kind::fcollectmem, op::sum, 0, 0, 0, 0, 32},
       64 * std::size_t(n),
       64,
       true,
       true},
      {"alltoall nbytes",
       0,
       {kind::alltoallmem, op::sum, 0, 0, 0, 0, 16},
       {kind::alltoallmem, op::sum, 0, 0, 0, 0, 24},
       24 * std::size_t(n),
       24 * std::size_t(n),
       true,
       true},
      {"reduce_scatter nelems",
       0,
       {kind::reduce_scatter, op::sum, 0, 0, 0, 0, 3},
       {kind::reduce_scatter, op::sum, 0, 0, 0, 0, 2},
       24,
       24 * std::size_t(n),
       true,
       true},
  };
  // The root differs: with the scatter (two rounds, everyone waits on everyone in the second), the PEs after the
  // two self-declared roots see PE 1's word carry another call's fingerprint. PE 1 itself waits for nothing.
  if (n >= 3) {
    cases.push_back({"broadcast root",
                     1,
                     {kind::broadcastmem, op::sum, 0, 0, 0, 0, 70000},
                     {kind::broadcastmem, op::sum, 0, 1, 0, 0, 70000},
                     70000,
                     70000,
                     false,
                     false});
  }
  for (const mismatch& m : cases) {
    for (form f : {form::thread, form::block}) {
      coll::plan p;
      const int ti = p.team(world.handle());
      job j = me == m.odd ? m.other : m.common;
      j.team = ti;
      j.dest = p.dest(0, m.dest_bytes, 0, "mismatched call"); // unchecked: its guards must hold
      const std::vector<std::uint8_t> mine = coll::bytes_of(me, 0, m.src_bytes, 11);
      j.src = p.src(0, mine.data(), mine.size());
      p.add(0, j);
      std::uint32_t recorded = 0;
      std::uint64_t count = 0;
      const std::string what = std::string(m.name) + " differs on PE " + std::to_string(m.odd);
      const portshmem_status_t s = run_in<long>(p, f, what, &recorded, &count);
      EXPECT_EQ(s, recorded == PORTSHMEM_SUCCESS ? PORTSHMEM_SUCCESS : PORTSHMEM_ERR_DEVICE) << what;
      EXPECT_TRUE(recorded == PORTSHMEM_SUCCESS || recorded == PORTSHMEM_ERR_MISMATCH) << what << ": " << recorded;
      if (m.everyone || (m.odd_sees && me == m.odd)) {
        EXPECT_EQ(recorded, std::uint32_t(PORTSHMEM_ERR_MISMATCH)) << what << " (" << coll::name_of(f) << " form)";
      }
      EXPECT_GE(coll::sum_everywhere(recorded == PORTSHMEM_ERR_MISMATCH), 1) << what << ": nobody noticed";
      coll::plan after;
      coll::add_reduce<long>(after, 0, after.team(world.handle()), world, op::sum, 50, false, 12);
      coll::run_checked<long>(after, f, "a reduce after " + what);
    }
  }
}

// Every kind called alike (collect with different sizes per member, which is allowed) records nothing.
TEST(DebugChecks, MatchingCallsRecordNothing) {
  const std::vector<coll::shape> shapes = coll::team_shapes(mp::npes());
  for (std::size_t si = 0; si < std::min<std::size_t>(shapes.size(), 3); ++si) {
    coll::team_ref t = shapes[si].make();
    for (form f : coll::forms_for(si, 2)) {
      coll::plan p;
      if (t.member()) {
        const int ti = p.team(t.handle());
        p.add(0, job{kind::barrier, op::sum, ti, 0, 0, 0, 0});
        p.add(0, job{kind::sync, op::sum, ti, 0, 0, 0, 0});
        coll::add_broadcastmem(p, 0, ti, t, 100, t.size() / 2, 21);
        coll::add_broadcastmem(p, 0, ti, t, 70000, t.size() - 1, 22);
        coll::add_fcollectmem(p, 0, ti, t, 64, 23);
        coll::add_collectmem(
            p, 0, ti, t, [](int i) { return std::size_t(i % 3) * 40; }, 24);
        coll::add_alltoallmem(p, 0, ti, t, 24, 25);
        coll::add_reduce<long>(p, 0, ti, t, op::min, 100, false, 26);
        coll::add_reduce<long>(p, 0, ti, t, op::bor, 5000, true, 27);
        coll::add_reduce_scatter<long>(p, 0, ti, t, op::prod, 40, 28);
      }
      coll::run_checked<long>(p, f, "matching calls on team " + std::string(shapes[si].name));
    }
  }
}

} // namespace
