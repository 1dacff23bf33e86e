// Teams on the host (portshmem/team.h) and in kernels (team.hpp): the world and shared teams, every strided split and
// 2-D split of small jobs (each PE's index, size and translations checked against the arithmetic of the arguments,
// and the members seen from the device by an fcollect of their PE numbers), slots reused after destroy, bad and
// mismatched arguments (the same error on every PE, nothing made), running out of slots, team_sync from the host.
#include <climits>
#include <cstdlib>
#include <string>
#include <tuple>

#include "coll_test.hpp"

namespace {

using coll::form;
using coll::job;
using coll::kind;

/// PORTSHMEM_MAX_TEAMS as the job sees it (the ctest with a small value sets it).
int max_teams() {
  const char* v = std::getenv("PORTSHMEM_MAX_TEAMS");
  return v ? std::atoi(v) : 16;
}

/// The members' world PEs as the team's own collectives see them: an fcollect of every member's PE number must give
/// exactly `want` on every member.
void members_on_device(const coll::team_ref& t, const std::vector<int>& want, const std::string& what) {
  coll::plan p;
  if (t.member()) {
    const int ti = p.team(t.handle()), mine = mp::me();
    const std::size_t d = p.dest(0, want.size() * 4, 0, "fcollect of PE numbers"), s = p.src(0, &mine, 4);
    p.add(0, job{kind::fcollectmem, coll::op::sum, ti, 0, d, s, 4});
    p.expect(0, d, want.data(), want.size() * 4);
    EXPECT_EQ(std::size_t(t.size()), want.size()) << what;
  }
  coll::run_checked<long>(p, form::block, what);
}

/// Checks team (made by a split) against its expected members, world PEs in team order, on this PE: index, size,
/// handle, translations to and from the world, a non-member's view.
void check_team(portshmem_team_t team, const std::vector<int>& members, const std::string& what) {
  const int n = mp::npes(), me = mp::me();
  int index = -1;
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (members[i] == me) index = int(i);
  }
  EXPECT_EQ(team == PORTSHMEM_TEAM_INVALID, index < 0) << what;
  EXPECT_EQ(portshmem_team_my_pe(team), index) << what;
  EXPECT_EQ(portshmem_team_n_pes(team), index < 0 ? -1 : int(members.size())) << what;
  if (index < 0) return;
  portshmem_team_handle_t h{};
  EXPECT_EQ(portshmem_team_get_handle(team, &h), PORTSHMEM_SUCCESS) << what;
  EXPECT_EQ(h.size, int(members.size())) << what;
  EXPECT_EQ(h.my_index, index) << what;
  EXPECT_EQ(h.slot, team) << what;
  EXPECT_EQ(h.start, members[0]) << what;
  if (members.size() > 1) EXPECT_EQ(h.stride, members[1] - members[0]) << what;
  for (std::size_t i = 0; i < members.size(); ++i) {
    EXPECT_EQ(portshmem_team_translate_pe(team, int(i), PORTSHMEM_TEAM_WORLD), members[i]) << what << " index " << i;
    EXPECT_EQ(portshmem_team_translate_pe(team, int(i), team), int(i)) << what;
  }
  for (int pe = 0; pe < n; ++pe) {
    int want = -1;
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (members[i] == pe) want = int(i);
    }
    EXPECT_EQ(portshmem_team_translate_pe(PORTSHMEM_TEAM_WORLD, pe, team), want) << what << " world PE " << pe;
  }
  EXPECT_EQ(portshmem_team_translate_pe(team, -1, PORTSHMEM_TEAM_WORLD), -1) << what;
  EXPECT_EQ(portshmem_team_translate_pe(team, int(members.size()), PORTSHMEM_TEAM_WORLD), -1) << what;
}

/// The slot the next split will get (the lowest free everywhere): made and destroyed.
portshmem_team_t next_slot() {
  portshmem_team_t t = PORTSHMEM_TEAM_INVALID;
  EXPECT_EQ(portshmem_team_split_strided(PORTSHMEM_TEAM_WORLD, 0, 1, mp::npes(), nullptr, 0, &t), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_team_destroy(t), PORTSHMEM_SUCCESS);
  return t;
}

TEST(Teams, WorldAndShared) {
  const int n = mp::npes(), me = mp::me();
  EXPECT_EQ(portshmem_team_my_pe(PORTSHMEM_TEAM_WORLD), me);
  EXPECT_EQ(portshmem_team_n_pes(PORTSHMEM_TEAM_WORLD), n);
  portshmem_team_handle_t w{};
  EXPECT_EQ(portshmem_team_get_handle(PORTSHMEM_TEAM_WORLD, &w), PORTSHMEM_SUCCESS);
  EXPECT_EQ(w.start, 0);
  EXPECT_EQ(w.stride, 1);
  EXPECT_EQ(w.size, n);
  EXPECT_EQ(w.my_index, me);
  EXPECT_EQ(w.slot, PORTSHMEM_TEAM_WORLD);
  EXPECT_EQ(w.reserved, 0);
  // The slot's words and scratch sit at the same heap offsets on every PE (members name each other's by them).
  EXPECT_TRUE(coll::same_everywhere((long long)w.state_offset));
  EXPECT_TRUE(coll::same_everywhere((long long)w.scratch_offset));
  EXPECT_TRUE(coll::same_everywhere((long long)w.scratch_bytes));
  if (!std::getenv("PORTSHMEM_TEAM_SCRATCH")) EXPECT_EQ(w.scratch_bytes, 512u * 1024u);
  EXPECT_GT(w.scratch_offset, w.state_offset);
  portshmem::ctx c = mp::context();
  // The team area follows the part of the heap allocations come from (the handle's offsets count from the heap start,
  // kInternalHeapBytes before ctx.heap).
  EXPECT_GE(w.state_offset, portshmem::detail::kInternalHeapBytes + c.heap_size)
      << "the team area follows the user part";
  portshmem_team_config_t cfg{-7};
  EXPECT_EQ(portshmem_team_get_config(PORTSHMEM_TEAM_WORLD, PORTSHMEM_TEAM_NUM_CONTEXTS, &cfg), PORTSHMEM_SUCCESS);
  EXPECT_GE(cfg.num_contexts, 0);

  // Shared: this PE's node, a progression of world PEs containing this PE; every member sees the same team.
  portshmem_team_handle_t s{};
  EXPECT_EQ(portshmem_team_get_handle(PORTSHMEM_TEAM_SHARED, &s), PORTSHMEM_SUCCESS);
  EXPECT_GE(s.size, 1);
  EXPECT_EQ(s.slot, PORTSHMEM_TEAM_SHARED);
  EXPECT_EQ(portshmem_team_my_pe(PORTSHMEM_TEAM_SHARED), s.my_index);
  EXPECT_EQ(portshmem_team_n_pes(PORTSHMEM_TEAM_SHARED), s.size);
  EXPECT_EQ(s.start + s.my_index * s.stride, me);
  EXPECT_EQ(portshmem_team_translate_pe(PORTSHMEM_TEAM_SHARED, s.my_index, PORTSHMEM_TEAM_WORLD), me);
  EXPECT_EQ(portshmem_team_translate_pe(PORTSHMEM_TEAM_WORLD, me, PORTSHMEM_TEAM_SHARED), s.my_index);
  std::vector<int> mine{s.start, s.stride, s.size}, all(3 * std::size_t(n));
  EXPECT_EQ(MPI_Allgather(mine.data(), 3, MPI_INT, all.data(), 3, MPI_INT, MPI_COMM_WORLD), MPI_SUCCESS);
  for (int i = 0; i < s.size; ++i) {
    const int pe = s.start + i * s.stride;
    if (pe < 0 || pe >= n) {
      ADD_FAILURE() << "shared member " << i << " is PE " << pe;
      continue;
    }
    EXPECT_EQ(std::vector<int>(all.begin() + 3 * pe, all.begin() + 3 * pe + 3), mine)
        << "PE " << pe << "'s shared team";
  }
  std::vector<int> everyone(std::size_t(n), 0);
  for (int i = 0; i < n; ++i) everyone[std::size_t(i)] = i;
  members_on_device(coll::team_ref::world(), everyone, "world members");
}

// Every strided split of the world with strides 1, 2 and 3 from PEs 0 and 1, of every size that fits; teams of one
// with strides 0 and -3 (any stride is allowed for one member).
TEST(Teams, SplitStridedEveryShape) {
  const int n = mp::npes();
  struct spec {
    int start, stride, size;
  };
  std::vector<spec> specs;
  for (int stride : {1, 2, 3}) {
    for (int start : {0, 1}) {
      for (int size = 1; start < n && start + (size - 1) * stride < n; ++size) specs.push_back({start, stride, size});
    }
  }
  specs.push_back({n - 1, 0, 1});
  specs.push_back({n / 2, -3, 1});
  for (const spec& s : specs) {
    const std::string what = "split_strided(start " + std::to_string(s.start) + ", stride " + std::to_string(s.stride) +
                             ", size " + std::to_string(s.size) + ")";
    portshmem_team_config_t cfg{3};
    portshmem_team_t t = PORTSHMEM_TEAM_INVALID;
    EXPECT_EQ(portshmem_team_split_strided(PORTSHMEM_TEAM_WORLD, s.start, s.stride, s.size, &cfg,
                                           PORTSHMEM_TEAM_NUM_CONTEXTS, &t),
              PORTSHMEM_SUCCESS)
        << what;
    std::vector<int> members;
    for (int i = 0; i < s.size; ++i) members.push_back(s.start + i * s.stride);
    check_team(t, members, what);
    if (t != PORTSHMEM_TEAM_INVALID) {
      portshmem_team_config_t got{0};
      EXPECT_EQ(portshmem_team_get_config(t, PORTSHMEM_TEAM_NUM_CONTEXTS, &got), PORTSHMEM_SUCCESS);
      EXPECT_EQ(got.num_contexts, 3) << what;
    }
    const long long slot = coll::max_everywhere(t);
    EXPECT_TRUE(t == PORTSHMEM_TEAM_INVALID || t == slot) << what << ": members got different slots";
    if (t != PORTSHMEM_TEAM_INVALID) EXPECT_EQ(portshmem_team_get_handle(t, nullptr), PORTSHMEM_ERR_INVALID_ARG);
    coll::plan p;
    portshmem_team_handle_t h{};
    h.my_index = -1;
    if (t != PORTSHMEM_TEAM_INVALID) {
      EXPECT_EQ(portshmem_team_get_handle(t, &h), PORTSHMEM_SUCCESS);
      const int ti = p.team(h), mine = mp::me();
      const std::size_t d = p.dest(0, members.size() * 4, 0, "fcollect of PE numbers"), src = p.src(0, &mine, 4);
      p.add(0, job{kind::fcollectmem, coll::op::sum, ti, 0, d, src, 4});
      p.expect(0, d, members.data(), members.size() * 4);
    }
    coll::run_checked<long>(p, form::block, what + " seen from the device");
    if (t != PORTSHMEM_TEAM_INVALID) EXPECT_EQ(portshmem_team_destroy(t), PORTSHMEM_SUCCESS) << what;
  }
}

/// The x and y teams split_2d gives this PE of a parent whose members are `parent` (world PEs in parent order).
void check_grid(const std::vector<int>& parent, int my_parent_index, int xrange, portshmem_team_t x, portshmem_team_t y,
                const std::string& what) {
  const int np = int(parent.size()), cols = std::min(xrange, np);
  const int row = my_parent_index / cols, col = my_parent_index % cols;
  std::vector<int> xs, ys;
  for (int i = row * cols; i < std::min(np, (row + 1) * cols); ++i) xs.push_back(parent[std::size_t(i)]);
  for (int i = col; i < np; i += cols) ys.push_back(parent[std::size_t(i)]);
  check_team(x, xs, what + " x-axis");
  check_team(y, ys, what + " y-axis");
  EXPECT_EQ(portshmem_team_my_pe(x), col) << what;
  EXPECT_EQ(portshmem_team_my_pe(y), row) << what;
  EXPECT_EQ(portshmem_team_translate_pe(x, col, y), row) << what << ": this PE from its row to its column";
  EXPECT_NE(x, y) << what;
}

TEST(Teams, Split2dEveryWidth) {
  const int n = mp::npes(), me = mp::me();
  std::vector<int> world(std::size_t(n), 0);
  for (int i = 0; i < n; ++i) world[std::size_t(i)] = i;
  for (int xrange : {1, 2, 3, n + 2}) {
    const std::string what = "split_2d(world, xrange " + std::to_string(xrange) + ")";
    portshmem_team_t x = PORTSHMEM_TEAM_INVALID, y = PORTSHMEM_TEAM_INVALID;
    EXPECT_EQ(portshmem_team_split_2d(PORTSHMEM_TEAM_WORLD, xrange, nullptr, 0, &x, nullptr, 0, &y), PORTSHMEM_SUCCESS)
        << what;
    check_grid(world, me, xrange, x, y, what);
    // Both axes from the device at once: the row's fcollect in one block, the column's in another.
    coll::plan p(2);
    portshmem_team_handle_t hx{}, hy{};
    EXPECT_EQ(portshmem_team_get_handle(x, &hx), PORTSHMEM_SUCCESS);
    EXPECT_EQ(portshmem_team_get_handle(y, &hy), PORTSHMEM_SUCCESS);
    const int mine = me;
    for (std::size_t l = 0; l < 2; ++l) {
      const portshmem_team_handle_t& h = l == 0 ? hx : hy;
      std::vector<int> want;
      for (int i = 0; i < h.size; ++i) {
        want.push_back(portshmem_team_translate_pe(l == 0 ? x : y, i, PORTSHMEM_TEAM_WORLD));
      }
      const int ti = p.team(h);
      const std::size_t d = p.dest(l, want.size() * 4, 0, "fcollect of PE numbers"), s = p.src(l, &mine, 4);
      p.add(l, job{kind::fcollectmem, coll::op::sum, ti, 0, d, s, 4});
      p.expect(l, d, want.data(), want.size() * 4);
    }
    coll::run_checked<long>(p, form::block, what + " seen from the device");
    EXPECT_EQ(portshmem_team_destroy(y), PORTSHMEM_SUCCESS);
    EXPECT_EQ(portshmem_team_destroy(x), PORTSHMEM_SUCCESS);
  }
  // Splits of a sub-team: indices are the parent's, world PEs follow the parent's stride.
  if (n >= 3) {
    coll::team_ref odds = coll::team_ref::strided(1, 2, n / 2), evens = coll::team_ref::strided(0, 2, (n + 1) / 2);
    const coll::team_ref& mine = me % 2 ? odds : evens;
    std::vector<int> parent;
    for (int i = 0; i < mine.size(); ++i) parent.push_back(mine.world_pe(i));
    for (int xrange : {1, 2}) {
      const std::string what = "split_2d(PEs " + std::to_string(me % 2) + ", " + std::to_string(me % 2 + 2) +
                               ", ..., xrange " + std::to_string(xrange) + ")";
      portshmem_team_t x = PORTSHMEM_TEAM_INVALID, y = PORTSHMEM_TEAM_INVALID;
      EXPECT_EQ(portshmem_team_split_2d(mine.id(), xrange, nullptr, 0, &x, nullptr, 0, &y), PORTSHMEM_SUCCESS);
      check_grid(parent, mine.index(), xrange, x, y, what);
      EXPECT_EQ(portshmem_team_destroy(y), PORTSHMEM_SUCCESS);
      EXPECT_EQ(portshmem_team_destroy(x), PORTSHMEM_SUCCESS);
    }
    // A strided split of the sub-team: its members 1, 2, ... (parent indices), i.e. world PEs 2 apart.
    const int size = mine.size() - 1;
    portshmem_team_t t = PORTSHMEM_TEAM_INVALID;
    if (size >= 1) {
      EXPECT_EQ(portshmem_team_split_strided(mine.id(), 1, 1, size, nullptr, 0, &t), PORTSHMEM_SUCCESS);
      check_team(t, std::vector<int>(parent.begin() + 1, parent.end()), "split_strided(half, 1, 1, size - 1)");
      if (t != PORTSHMEM_TEAM_INVALID) EXPECT_EQ(portshmem_team_destroy(t), PORTSHMEM_SUCCESS);
    }
  }
}

// team_translate_pe, team_my_pe, team_n_pes and team_world_pe in a kernel agree with the host, for every pair of the
// teams this PE is in and every index from -1 to the size.
PORTSHMEM_GLOBAL void translate_all(const portshmem::team* teams, int count, int span, int* out) {
  if (portshmem::thread_rank() != 0) return;
  for (int s = 0; s < count; ++s) {
    for (int d = 0; d < count; ++d) {
      for (int i = -1; i < span - 1; ++i)
        out[(s * count + d) * span + i + 1] = portshmem::team_translate_pe(teams[s], i, teams[d]);
    }
    out[count * count * span + 3 * s] = portshmem::team_my_pe(teams[s]);
    out[count * count * span + 3 * s + 1] = portshmem::team_n_pes(teams[s]);
    out[count * count * span + 3 * s + 2] = portshmem::team_world_pe(teams[s], portshmem::team_my_pe(teams[s]));
  }
}

TEST(Teams, TranslateOnDeviceAgreesWithHost) {
  const int n = mp::npes(), me = mp::me();
  coll::team_ref evens = coll::team_ref::strided(0, 2, (n + 1) / 2);
  coll::team_ref odds = n >= 2 ? coll::team_ref::strided(1, 2, n / 2) : coll::team_ref();
  coll::team_ref last3 = coll::team_ref::strided(std::max(0, n - 3), 1, std::min(n, 3));
  auto [row, col] = coll::team_ref::grid(2);
  std::vector<portshmem_team_t> ids{PORTSHMEM_TEAM_WORLD, PORTSHMEM_TEAM_SHARED, me % 2 ? odds.id() : evens.id(),
                                    row.id(), col.id()};
  if (last3.member()) ids.push_back(last3.id());
  std::vector<portshmem::team> handles(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(portshmem_team_get_handle(ids[i], &handles[i]), 0);
  const int count = int(ids.size()), span = n + 2;
  auto* d_teams = mp::private_alloc<portshmem::team>(handles.size());
  int* d_out = mp::private_alloc<int>(std::size_t(count * count * span + 3 * count));
  mp::to_device(d_teams, handles);
  mp::run(translate_all, dim3(1), dim3(1), static_cast<const portshmem::team*>(d_teams), count, span, d_out);
  const std::vector<int> out = mp::to_host(d_out, std::size_t(count * count * span + 3 * count));
  for (int s = 0; s < count; ++s) {
    for (int d = 0; d < count; ++d) {
      for (int i = -1; i < span - 1; ++i) {
        EXPECT_EQ(out[std::size_t((s * count + d) * span + i + 1)], portshmem_team_translate_pe(ids[s], i, ids[d]))
            << "translate of index " << i << " from team " << ids[s] << " to team " << ids[d];
      }
    }
    EXPECT_EQ(out[std::size_t(count * count * span + 3 * s)], portshmem_team_my_pe(ids[s]));
    EXPECT_EQ(out[std::size_t(count * count * span + 3 * s + 1)], portshmem_team_n_pes(ids[s]));
    EXPECT_EQ(out[std::size_t(count * count * span + 3 * s + 2)], me);
  }
  EXPECT_EQ(hipFree(d_teams), hipSuccess);
  EXPECT_EQ(hipFree(d_out), hipSuccess);
}

// A destroyed team's slot goes to the next split, with its counters and words cleared: the new team's first calls
// wait for its own members' rounds, not for what the old team left in the slot.
TEST(Teams, DestroyThenRecreateReusesTheSlot) {
  const int n = mp::npes();
  const portshmem_team_t first = next_slot();
  std::uint64_t salt = 900; // advanced by every PE alike, members or not
  for (auto [start, stride, size] : {std::tuple{0, 1, n}, std::tuple{0, 1, n},
                                     std::tuple{n > 1 ? 1 : 0, 2, std::max(1, n / 2)}, std::tuple{0, 1, n}}) {
    coll::team_ref t = coll::team_ref::strided(start, stride, size);
    EXPECT_EQ(coll::max_everywhere(t.id()), first) << "the lowest free slot again";
    coll::plan p;
    salt += 10;
    if (t.member()) {
      const int ti = p.team(t.handle());
      // Enough rounds that a stale counter or word would be far ahead of the next team's.
      for (int i = 0; i < 5; ++i) {
        coll::add_reduce<long>(p, 0, ti, t, coll::op::sum, 100 + 3000 * (i % 2), false, salt + std::uint64_t(i));
      }
      coll::add_broadcastmem(p, 0, ti, t, 70000, t.size() - 1, salt + 5);
      p.add(0, job{kind::barrier, coll::op::sum, ti, 0, 0, 0, 0});
    }
    coll::run_checked<long>(p, form::block,
                            "collectives on a re-created team (start " + std::to_string(start) + ", stride " +
                                std::to_string(stride) + ", size " + std::to_string(size) + ")");
  }
}

// Bad arguments: PORTSHMEM_ERR_INVALID_ARG on every PE, no team made (the next split still gets the same slot).
TEST(Teams, BadArgumentsFailEverywhereAndMakeNothing) {
  const int n = mp::npes(), me = mp::me();
  const portshmem_team_t first = next_slot();
  struct args {
    int start, stride, size;
  };
  std::vector<args> bad{{-1, 1, 1}, {n, 1, 1},       {0, 1, 0},       {0, 1, -2},      {0, 1, n + 1},
                        {0, 0, 2},  {1, -1, 2},      {0, INT_MAX, 3}, {INT_MAX, 1, 1}, {n - 1, 1, 2},
                        {0, -2, 3}, {INT_MIN, 1, 1}, {0, 1, INT_MAX}};
  if (n >= 2) bad.push_back({0, 2, n});
  for (const args& a : bad) {
    portshmem_team_t t = 12345;
    EXPECT_EQ(portshmem_team_split_strided(PORTSHMEM_TEAM_WORLD, a.start, a.stride, a.size, nullptr, 0, &t),
              PORTSHMEM_ERR_INVALID_ARG)
        << a.start << ", " << a.stride << ", " << a.size;
    EXPECT_EQ(t, PORTSHMEM_TEAM_INVALID);
  }
  EXPECT_EQ(portshmem_team_split_strided(PORTSHMEM_TEAM_WORLD, 0, 1, 1, nullptr, 0, nullptr),
            PORTSHMEM_ERR_INVALID_ARG);
  for (int xrange : {0, -3, INT_MIN}) {
    portshmem_team_t x = 5, y = 5;
    EXPECT_EQ(portshmem_team_split_2d(PORTSHMEM_TEAM_WORLD, xrange, nullptr, 0, &x, nullptr, 0, &y),
              PORTSHMEM_ERR_INVALID_ARG);
    EXPECT_EQ(x, PORTSHMEM_TEAM_INVALID);
    EXPECT_EQ(y, PORTSHMEM_TEAM_INVALID);
  }
  portshmem_team_t x = PORTSHMEM_TEAM_INVALID;
  EXPECT_EQ(portshmem_team_split_2d(PORTSHMEM_TEAM_WORLD, 1, nullptr, 0, &x, nullptr, 0, nullptr),
            PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(portshmem_team_split_2d(PORTSHMEM_TEAM_WORLD, 1, nullptr, 0, nullptr, nullptr, 0, &x),
            PORTSHMEM_ERR_INVALID_ARG);
  // Parents this PE is not in: no team, a slot never made, and (with two PEs or more) the other half of an even/odd
  // split, whose slot number this PE learns from its neighbour.
  std::vector<portshmem_team_t> not_mine{PORTSHMEM_TEAM_INVALID, 1000000};
  coll::team_ref evens = coll::team_ref::strided(0, 2, (n + 1) / 2);
  coll::team_ref odds = n >= 2 ? coll::team_ref::strided(1, 2, n / 2) : coll::team_ref();
  const auto evens_slot = portshmem_team_t(coll::max_everywhere(evens.id())); // non-members hold -1
  const auto odds_slot = portshmem_team_t(coll::max_everywhere(odds.id()));
  if (n >= 2) not_mine.push_back(me % 2 ? evens_slot : odds_slot);
  for (portshmem_team_t parent : not_mine) {
    portshmem_team_t t = 7, y = 7;
    EXPECT_EQ(portshmem_team_split_strided(parent, 0, 1, 1, nullptr, 0, &t), PORTSHMEM_ERR_INVALID_ARG) << parent;
    EXPECT_EQ(t, PORTSHMEM_TEAM_INVALID);
    EXPECT_EQ(portshmem_team_split_2d(parent, 1, nullptr, 0, &t, nullptr, 0, &y), PORTSHMEM_ERR_INVALID_ARG);
    EXPECT_EQ(portshmem_team_sync(parent), PORTSHMEM_ERR_INVALID_ARG) << parent;
    EXPECT_EQ(portshmem_team_my_pe(parent), -1);
    EXPECT_EQ(portshmem_team_n_pes(parent), -1);
    EXPECT_EQ(portshmem_team_translate_pe(parent, 0, PORTSHMEM_TEAM_WORLD), -1);
    EXPECT_EQ(portshmem_team_translate_pe(PORTSHMEM_TEAM_WORLD, me, parent), -1);
    portshmem_team_handle_t h{};
    EXPECT_EQ(portshmem_team_get_handle(parent, &h), PORTSHMEM_ERR_INVALID_ARG);
    if (parent != PORTSHMEM_TEAM_INVALID && parent != 1000000) {
      EXPECT_EQ(portshmem_team_destroy(parent), PORTSHMEM_ERR_INVALID_ARG);
    }
  }
  odds = coll::team_ref(); // their slots back (a run with PORTSHMEM_MAX_TEAMS=4 has two to spare)
  evens = coll::team_ref();
  // The predefined teams cannot be destroyed; nor can a team twice.
  EXPECT_EQ(portshmem_team_destroy(PORTSHMEM_TEAM_WORLD), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(portshmem_team_destroy(PORTSHMEM_TEAM_SHARED), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(portshmem_team_destroy(PORTSHMEM_TEAM_INVALID), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(portshmem_team_get_handle(PORTSHMEM_TEAM_WORLD, nullptr), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(portshmem_team_get_config(PORTSHMEM_TEAM_WORLD, PORTSHMEM_TEAM_NUM_CONTEXTS, nullptr),
            PORTSHMEM_ERR_INVALID_ARG);
  portshmem_team_t twice = PORTSHMEM_TEAM_INVALID;
  EXPECT_EQ(portshmem_team_split_strided(PORTSHMEM_TEAM_WORLD, 0, 1, n, nullptr, 0, &twice), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_team_destroy(twice), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_team_destroy(twice), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(portshmem_team_sync(twice), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(next_slot(), first) << "a failed call left a slot taken";
}

// PEs passing different arguments: PORTSHMEM_ERR_MISMATCH on every PE (even where one PE's arguments are invalid on
// their own), nothing made.
TEST(Teams, DifferentArgumentsAreAMismatchEverywhere) {
  const int n = mp::npes(), me = mp::me(), odd = n - 1; // the PE that differs
  const portshmem_team_t first = next_slot();
  if (n < 2) GTEST_SKIP() << "one PE cannot disagree with itself";
  struct args {
    int start, stride, size;
  };
  const std::pair<args, args> cases[] = {
      {{0, 1, 2}, {0, 1, 1}},  // size
      {{0, 1, 1}, {1, 1, 1}},  // start
      {{0, 1, 2}, {0, 2, 1}},  // stride and size
      {{0, 1, 1}, {-1, 1, 1}}, // the odd PE's arguments are invalid too
  };
  for (const auto& [common, other] : cases) {
    const args& a = me == odd ? other : common;
    portshmem_team_t t = 3;
    EXPECT_EQ(portshmem_team_split_strided(PORTSHMEM_TEAM_WORLD, a.start, a.stride, a.size, nullptr, 0, &t),
              PORTSHMEM_ERR_MISMATCH)
        << a.start << ", " << a.stride << ", " << a.size;
    EXPECT_EQ(t, PORTSHMEM_TEAM_INVALID);
  }
  portshmem_team_t x = 3, y = 3;
  EXPECT_EQ(portshmem_team_split_2d(PORTSHMEM_TEAM_WORLD, me == odd ? 2 : 1, nullptr, 0, &x, nullptr, 0, &y),
            PORTSHMEM_ERR_MISMATCH);
  EXPECT_EQ(x, PORTSHMEM_TEAM_INVALID);
  EXPECT_EQ(y, PORTSHMEM_TEAM_INVALID);
  EXPECT_EQ(next_slot(), first) << "a failed call left a slot taken";
}

// Making teams until no slot is free: PORTSHMEM_ERR_OUT_OF_MEMORY on every PE after PORTSHMEM_MAX_TEAMS - 2 (world
// and shared hold two); one destroyed, the next split works again in its slot; split_2d with one slot free fails as a
// whole (its x-axis team is given back).
TEST(Teams, RunningOutOfSlotsFailsEverywhereThenRecovers) {
  const int n = mp::npes();
  std::vector<portshmem_team_t> made;
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  for (int i = 0; i < 1100 && s == PORTSHMEM_SUCCESS; ++i) {
    portshmem_team_t t = PORTSHMEM_TEAM_INVALID;
    // Alternate whole-world teams and teams of PE 0 alone: a slot taken on one PE is taken for every PE's split.
    s = portshmem_team_split_strided(PORTSHMEM_TEAM_WORLD, 0, 1, i % 2 ? 1 : n, nullptr, 0, &t);
    if (s == PORTSHMEM_SUCCESS) {
      made.push_back(t);
    } else {
      EXPECT_EQ(t, PORTSHMEM_TEAM_INVALID);
    }
  }
  EXPECT_EQ(s, PORTSHMEM_ERR_OUT_OF_MEMORY);
  EXPECT_EQ(int(made.size()), max_teams() - 2);
  EXPECT_TRUE(coll::same_everywhere((long long)made.size()));
  // Free the second one made (a team of PE 0 alone: the other PEs hold PORTSHMEM_TEAM_INVALID for it).
  const std::size_t freed = made.size() > 1 ? 1 : 0;
  const portshmem_team_t slot = portshmem_team_t(coll::max_everywhere(made.empty() ? -1 : made[freed]));
  if (!made.empty() && made[freed] != PORTSHMEM_TEAM_INVALID) {
    EXPECT_EQ(portshmem_team_destroy(made[freed]), PORTSHMEM_SUCCESS);
  }
  if (!made.empty()) made.erase(made.begin() + std::ptrdiff_t(freed));
  portshmem_team_t x = 5, y = 5;
  EXPECT_EQ(portshmem_team_split_2d(PORTSHMEM_TEAM_WORLD, 1, nullptr, 0, &x, nullptr, 0, &y),
            PORTSHMEM_ERR_OUT_OF_MEMORY)
      << "one slot free, two needed";
  EXPECT_EQ(x, PORTSHMEM_TEAM_INVALID);
  EXPECT_EQ(y, PORTSHMEM_TEAM_INVALID);
  portshmem_team_t again = PORTSHMEM_TEAM_INVALID;
  EXPECT_EQ(portshmem_team_split_strided(PORTSHMEM_TEAM_WORLD, 0, 1, n, nullptr, 0, &again), PORTSHMEM_SUCCESS);
  EXPECT_EQ(again, slot) << "the freed slot is used again";
  // The team in the reused slot works.
  {
    coll::plan p;
    portshmem_team_handle_t h{};
    EXPECT_EQ(portshmem_team_get_handle(again, &h), PORTSHMEM_SUCCESS);
    const int ti = p.team(h), mine = mp::me();
    std::vector<int> want(std::size_t(n), 0);
    for (int i = 0; i < n; ++i) want[std::size_t(i)] = i;
    const std::size_t d = p.dest(0, want.size() * 4, 0, "fcollect of PE numbers"), src = p.src(0, &mine, 4);
    p.add(0, job{kind::fcollectmem, coll::op::sum, ti, 0, d, src, 4});
    p.expect(0, d, want.data(), want.size() * 4);
    coll::run_checked<long>(p, form::block, "fcollect on a reused slot");
  }
  made.push_back(again);
  for (portshmem_team_t t : made) {
    if (t != PORTSHMEM_TEAM_INVALID) EXPECT_EQ(portshmem_team_destroy(t), PORTSHMEM_SUCCESS);
  }
}

// portshmem_team_sync from the host: every member's kernel put (completed by its quiet) is visible to the next member
// after it; PEs outside the team get PORTSHMEM_ERR_INVALID_ARG.
PORTSHMEM_GLOBAL void put_to_next(portshmem::ctx c, portshmem::team t, std::uint64_t* word, std::uint64_t value) {
  if (portshmem::thread_rank() != 0) return;
  portshmem::p(c, word, value, portshmem::team_world_pe(t, (t.my_index + 1) % t.size));
  portshmem::quiet(c);
}

TEST(Teams, HostTeamSync) {
  const int n = mp::npes();
  auto* word = mp::sym_alloc<std::uint64_t>(1);
  mp::to_device(word, std::vector<std::uint64_t>{0});
  mp::barrier();
  for (const coll::shape& s : coll::team_shapes(n)) {
    coll::team_ref t = s.make();
    for (std::uint64_t round = 1; round <= 3; ++round) {
      if (t.member()) {
        const int prev = (t.index() + t.size() - 1) % t.size();
        mp::run(put_to_next, dim3(1), dim3(mp::kBlockThreads), mp::context(), t.handle(), word,
                round * 100 + std::uint64_t(t.index()));
        EXPECT_EQ(portshmem_team_sync(t.id()), PORTSHMEM_SUCCESS);
        EXPECT_EQ(mp::to_host(word, 1)[0], round * 100 + std::uint64_t(prev)) << s.name << " round " << round;
        EXPECT_EQ(portshmem_team_sync(t.id()), PORTSHMEM_SUCCESS); // read before the next round's put
      } else {
        EXPECT_EQ(portshmem_team_sync(t.id()), PORTSHMEM_ERR_INVALID_ARG);
      }
    }
  }
  mp::barrier();
  EXPECT_EQ(portshmem_free(word), PORTSHMEM_SUCCESS);
}

} // namespace
