// The TCP (unique-ID) bootstrap, src/bootstrap_tcp.cpp, between processes forked by the test: no MPI, no launcher.
// The test process makes the ID and then forks one child per rank, so every child holds the ID's listening socket and
// the one that starts as rank 0 may take it over. A child runs its scenario and exits 0 when every check passed.
#include "bootstrap.hpp"
#include "log.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace detail = portshmem::detail;
using detail::bootstrap;
using detail::group;
using clock_type = std::chrono::steady_clock;

constexpr std::uint64_t kSecond = 1000000000ull;

int g_rank = -1; // the child's rank, for its messages

/// A failed check in a child: says where on stderr and ends the scenario with exit code 1.
#define CHILD_CHECK(cond)                                                                                              \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      std::fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", g_rank, __FILE__, __LINE__, #cond);                   \
      return 1;                                                                                                        \
    }                                                                                                                  \
  } while (0)

#define CHILD_OK(call) CHILD_CHECK((call) == PORTSHMEM_SUCCESS)

using scenario = std::function<int(const portshmem_uniqueid_t& uid, int rank)>;

/// Makes an ID here, forks a child for each rank of [0, n) not in `absent`, runs body in each and returns their exit
/// codes by rank (-1: killed for outliving `bound`, a hang; 128 + signal: killed by a signal; absent ranks 0).
std::vector<int> run_ranks(int n, const scenario& body, std::vector<int> absent = {},
                           std::chrono::seconds bound = std::chrono::seconds(20)) {
  portshmem_uniqueid_t uid{};
  EXPECT_EQ(detail::make_unique_id(&uid), PORTSHMEM_SUCCESS);
  std::vector<pid_t> pids(std::size_t(n), -1);
  std::vector<int> codes(std::size_t(n), 0);
  std::fflush(stdout);
  std::fflush(stderr);
  for (int r = 0; r < n; ++r) {
    if (std::find(absent.begin(), absent.end(), r) != absent.end()) continue;
    const pid_t pid = fork();
    if (pid == 0) {
      g_rank = r;
      detail::log_set_pe(r);
      const int code = body(uid, r);
      std::fflush(stderr);
      _exit(code);
    }
    EXPECT_GT(pid, 0);
    pids[std::size_t(r)] = pid;
  }
  const auto until = clock_type::now() + bound;
  for (int r = 0; r < n; ++r) {
    const pid_t pid = pids[std::size_t(r)];
    if (pid <= 0) continue;
    int status = 0;
    pid_t got = 0;
    while ((got = waitpid(pid, &status, WNOHANG)) == 0 && clock_type::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (got == 0) { // still running: hung
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      codes[std::size_t(r)] = -1;
    } else {
      codes[std::size_t(r)] = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
  }
  return codes;
}

/// Collects the log lines of a child (instead of stderr), to check what a failure says.
struct log_capture {
  log_capture() {
    detail::log_set_sink([this](std::string_view line) { lines.emplace_back(line); });
  }
  ~log_capture() { detail::log_set_sink(nullptr); }
  bool has(const std::string& text) const {
    for (const auto& l : lines) {
      if (l.find(text) != std::string::npos) return true;
    }
    for (const auto& l : lines) std::fprintf(stderr, "rank %d logged: %s\n", g_rank, l.c_str());
    return false;
  }
  std::vector<std::string> lines;
};

double seconds_since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}

/// Every world and group collective on n ranks, with values that differ by rank.
int everything(const portshmem_uniqueid_t& uid, int rank, int n) {
  std::unique_ptr<bootstrap> b;
  CHILD_OK(detail::make_tcp_bootstrap(uid, rank, n, 10 * kSecond, &b));
  CHILD_CHECK(b->rank() == rank && b->size() == n);
  CHILD_CHECK(b->mpi_comm() == nullptr);

  // One host: one node, every rank on it.
  std::vector<int> ranks(static_cast<std::size_t>(n));
  std::iota(ranks.begin(), ranks.end(), 0);
  CHILD_CHECK(b->node_of() == std::vector<int>(std::size_t(n), 0));
  CHILD_CHECK(b->node_ranks() == ranks);
  CHILD_CHECK(b->node_rank() == rank);

  // allgather: small values, then 4 MiB per rank (every rank sends that to every other at once).
  const std::uint64_t mine = 1000 + 7 * std::uint64_t(rank);
  std::vector<std::uint64_t> all(static_cast<std::size_t>(n));
  CHILD_OK(b->allgather(&mine, all.data(), sizeof mine));
  for (int r = 0; r < n; ++r) CHILD_CHECK(all[std::size_t(r)] == 1000 + 7 * std::uint64_t(r));
  const std::size_t big = 4u << 20;
  auto pattern = [](int r, std::size_t i) {
    return (unsigned char)((i * 131 + std::size_t(r) * 17 + (i >> 12)) & 0xff);
  };
  std::vector<unsigned char> mb(big), allb(big * std::size_t(n));
  for (std::size_t i = 0; i < big; ++i) mb[i] = pattern(rank, i);
  CHILD_OK(b->allgather(mb.data(), allb.data(), big));
  for (int r = 0; r < n; ++r) {
    for (std::size_t i = 0; i < big; i += 4093) CHILD_CHECK(allb[std::size_t(r) * big + i] == pattern(r, i));
    CHILD_CHECK(allb[std::size_t(r) * big + big - 1] == pattern(r, big - 1));
  }

  if (n == 2) { // more than loopback buffers in flight (4 MiB send + 32 MiB receive here): a blocking send deadlocks
    const std::size_t huge = 64u << 20;
    std::vector<unsigned char> hm(huge, (unsigned char)(rank + 1)), hall(2 * huge);
    hm[huge - 1] = (unsigned char)(rank + 7);
    CHILD_OK(b->allgather(hm.data(), hall.data(), huge));
    CHILD_CHECK(hall[0] == 1 && hall[huge - 2] == 1 && hall[huge - 1] == 7);
    CHILD_CHECK(hall[huge] == 2 && hall[2 * huge - 2] == 2 && hall[2 * huge - 1] == 8);
  }

  for (int i = 0; i < 20; ++i) CHILD_OK(b->barrier());

  // min_max: the minimum on the middle rank, the maximum on the last.
  const std::uint64_t v = rank == n / 2 ? 3 : 10 + std::uint64_t(rank);
  std::uint64_t lo = 0, hi = 0;
  int lo_rank = -1, hi_rank = -1;
  CHILD_OK(b->min_max(v, &lo, &lo_rank, &hi, &hi_rank));
  CHILD_CHECK(lo == 3 && lo_rank == n / 2);
  CHILD_CHECK(hi_rank == (n == 1 ? 0 : n - 1 == n / 2 ? n - 2 : n - 1));
  CHILD_CHECK(hi == (n == 1 ? 3 : 10 + std::uint64_t(hi_rank)));

  // The world group.
  std::unique_ptr<group> w;
  CHILD_OK(b->world_group(&w));
  CHILD_CHECK(w && w->rank() == rank && w->size() == n);
  const std::int64_t wv[3] = {rank, -rank, 5};
  std::int64_t wmin[3], wmax[3];
  CHILD_OK(w->min_max(wv, wmin, wmax, 3));
  CHILD_CHECK(wmin[0] == 0 && wmax[0] == n - 1 && wmin[1] == -(n - 1) && wmax[1] == 0 && wmin[2] == 5 && wmax[2] == 5);

  // Splits by rank % 2 and rank % 3, keys reversing the order: a member's new rank counts its color's higher ranks.
  auto expect_split = [&](const group* g, int m) {
    int size = 0, higher = 0;
    for (int r = rank % m; r < n; r += m) ++size, higher += r > rank;
    return g && g->size() == size && g->rank() == higher;
  };
  std::unique_ptr<group> g2, g3;
  CHILD_OK(w->split(rank % 2, -rank, &g2));
  CHILD_CHECK(expect_split(g2.get(), 2));
  CHILD_OK(w->split(rank % 3, n - rank, &g3));
  CHILD_CHECK(expect_split(g3.get(), 3));
  auto check_members = [&](group* g, int m, std::int64_t salt) {
    const std::int64_t x[2] = {rank, salt * rank};
    std::int64_t mn[2], mx[2];
    if (g->min_max(x, mn, mx, 2) != PORTSHMEM_SUCCESS) return false;
    const int last = (n - 1) - ((n - 1 - rank % m) % m);
    return mn[0] == rank % m && mx[0] == last && mn[1] == std::min(salt * (rank % m), salt * last) &&
           mx[1] == std::max(salt * (rank % m), salt * last);
  };
  CHILD_CHECK(check_members(g2.get(), 2, 1));
  CHILD_CHECK(check_members(g3.get(), 3, -1));

  // A nested split: g2's members in pairs, by their rank in g2.
  std::unique_ptr<group> pair;
  CHILD_OK(g2->split(g2->rank() / 2, g2->rank(), &pair));
  CHILD_CHECK(pair && pair->rank() == g2->rank() % 2);
  CHILD_CHECK(pair->size() == std::min(2, g2->size() - (g2->rank() / 2) * 2));
  const std::int64_t pv = g2->rank();
  std::int64_t pmin = 0, pmax = 0;
  CHILD_OK(pair->min_max(&pv, &pmin, &pmax, 1));
  CHILD_CHECK(pmin == (g2->rank() / 2) * 2 && pmax == pmin + pair->size() - 1);
  CHILD_OK(pair->barrier());

  // A negative color: no group.
  std::unique_ptr<group> rest;
  CHILD_OK(w->split(rank == 0 ? -1 : 0, rank, &rest));
  if (rank == 0) {
    CHILD_CHECK(rest == nullptr);
  } else {
    CHILD_CHECK(rest && rest->size() == n - 1 && rest->rank() == rank - 1);
    CHILD_OK(rest->barrier());
  }

  // Two groups used in different orders on different ranks, between world operations: frames that arrive for the
  // other group's operation wait until it runs (even ranks finish g2 among themselves first, odd ranks g3 first).
  for (int i = 0; i < 5; ++i) {
    if (rank % 2 == 0) {
      CHILD_CHECK(check_members(g2.get(), 2, i + 1));
      CHILD_CHECK(check_members(g3.get(), 3, -i));
    } else {
      CHILD_CHECK(check_members(g3.get(), 3, -i));
      CHILD_CHECK(check_members(g2.get(), 2, i + 1));
    }
    const std::uint64_t x = std::uint64_t(rank) * 100 + std::uint64_t(i);
    CHILD_OK(b->allgather(&x, all.data(), sizeof x));
    for (int r = 0; r < n; ++r) CHILD_CHECK(all[std::size_t(r)] == std::uint64_t(r) * 100 + std::uint64_t(i));
    CHILD_OK(g3->barrier());
    CHILD_OK(w->barrier());
    std::vector<int> late;
    CHILD_OK(b->bounded_barrier(10 * kSecond, &late));
  }
  pair.reset(); // groups outlive or predecease the bootstrap in any order
  b.reset();
  CHILD_OK(g2->barrier());
  return 0;
}

class BootstrapTcp : public ::testing::TestWithParam<int> {};

TEST_P(BootstrapTcp, EveryCollective) {
  const int n = GetParam();
  const auto codes = run_ranks(n, [n](const portshmem_uniqueid_t& uid, int rank) { return everything(uid, rank, n); });
  EXPECT_EQ(codes, std::vector<int>(std::size_t(n), 0));
}

INSTANTIATE_TEST_SUITE_P(Ranks, BootstrapTcp, ::testing::Values(1, 2, 3, 5, 8));

// Rank 1 comes 1 s late to a 300 ms bounded barrier: the others time out naming it, without a log line; its late
// call completes the barrier they gave up on, and the next one succeeds everywhere.
TEST(BootstrapTcpFailures, BoundedBarrierLateRank) {
  const auto codes = run_ranks(3, [](const portshmem_uniqueid_t& uid, int rank) {
    std::unique_ptr<bootstrap> b;
    CHILD_OK(detail::make_tcp_bootstrap(uid, rank, 3, 10 * kSecond, &b));
    std::vector<int> late;
    if (rank == 1) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      CHILD_OK(b->bounded_barrier(5 * kSecond, &late)); // everyone else's arrival is already here
    } else {
      log_capture log;
      const auto t = clock_type::now();
      CHILD_CHECK(b->bounded_barrier(300000000ull, &late) == PORTSHMEM_ERR_TIMEOUT);
      CHILD_CHECK(seconds_since(t) < 0.9);
      CHILD_CHECK(late == std::vector<int>{1});
      CHILD_CHECK(log.lines.empty());
    }
    // A world collective before the next bounded barrier: rank 1's late arrival reaches the others during it and
    // must not be taken for its contribution.
    const std::uint64_t mine = 40 + std::uint64_t(rank);
    std::uint64_t all[3] = {};
    CHILD_OK(b->allgather(&mine, all, sizeof mine));
    CHILD_CHECK(all[0] == 40 && all[1] == 41 && all[2] == 42);
    CHILD_OK(b->bounded_barrier(5 * kSecond, &late));
    CHILD_OK(b->barrier());
    return 0;
  });
  EXPECT_EQ(codes, std::vector<int>(3, 0));
}

// Rank 2 leaves right after starting: the others' next collective fails at once, naming it.
TEST(BootstrapTcpFailures, RankExitsEarly) {
  const auto codes = run_ranks(3, [](const portshmem_uniqueid_t& uid, int rank) {
    std::unique_ptr<bootstrap> b;
    CHILD_OK(detail::make_tcp_bootstrap(uid, rank, 3, 10 * kSecond, &b));
    if (rank == 2) _exit(0); // no destructor: as a crash would
    log_capture log;
    const auto t = clock_type::now();
    // Sending 8 MiB to a rank that is gone: the failing sends must not raise SIGPIPE.
    std::vector<unsigned char> mine(8u << 20, 1), all(3 * mine.size());
    CHILD_CHECK(b->allgather(mine.data(), all.data(), mine.size()) == PORTSHMEM_ERR_BOOTSTRAP);
    CHILD_CHECK(seconds_since(t) < 3);
    CHILD_CHECK(log.has("PE 2 closed its bootstrap connection (did it exit?)"));
    std::this_thread::sleep_for(std::chrono::milliseconds(300)); // so the other survivor sees rank 2 leave first
    return 0;
  });
  EXPECT_EQ(codes, std::vector<int>(3, 0));
}

// Rank 2 says the job has 4 ranks, the others 3: every rank fails with a mismatch, none hangs.
TEST(BootstrapTcpFailures, WrongNranksOnOneRank) {
  const auto codes = run_ranks(3, [](const portshmem_uniqueid_t& uid, int rank) {
    std::unique_ptr<bootstrap> b;
    log_capture log;
    const auto t = clock_type::now();
    CHILD_CHECK(detail::make_tcp_bootstrap(uid, rank, rank == 2 ? 4 : 3, 5 * kSecond, &b) == PORTSHMEM_ERR_MISMATCH);
    CHILD_CHECK(seconds_since(t) < 4);
    CHILD_CHECK(log.has("PE 2 was started with nranks 4, PE 0 with 3"));
    return 0;
  });
  EXPECT_EQ(codes, std::vector<int>(3, 0));
}

// Rank 1 never comes: after 2 s rank 0 and rank 2 fail with a timeout naming it.
TEST(BootstrapTcpFailures, ConnectTimeoutNamesTheMissingRank) {
  const auto codes =
      run_ranks(3,
                [](const portshmem_uniqueid_t& uid, int rank) {
                  std::unique_ptr<bootstrap> b;
                  log_capture log;
                  const auto t = clock_type::now();
                  CHILD_CHECK(detail::make_tcp_bootstrap(uid, rank, 3, 2 * kSecond, &b) == PORTSHMEM_ERR_TIMEOUT);
                  CHILD_CHECK(seconds_since(t) > 1.9 && seconds_since(t) < 5);
                  CHILD_CHECK(log.has("PE 1 has not connected to PE 0 within 2 s"));
                  return 0;
                },
                {1});
  EXPECT_EQ(codes, (std::vector<int>{0, 0, 0}));
}

TEST(BootstrapTcpFailures, BadIdAndRank) {
  portshmem_uniqueid_t uid{};
  ASSERT_EQ(detail::make_unique_id(&uid), PORTSHMEM_SUCCESS);
  std::unique_ptr<bootstrap> b;
  portshmem_uniqueid_t bad = uid;
  bad.bytes[0] ^= 0xff;
  EXPECT_EQ(detail::make_tcp_bootstrap(bad, 1, 2, kSecond, &b), PORTSHMEM_ERR_INVALID_ARG);
  bad = uid;
  bad.bytes[4] ^= 0x7; // format version
  EXPECT_EQ(detail::make_tcp_bootstrap(bad, 1, 2, kSecond, &b), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(detail::make_tcp_bootstrap(uid, 2, 2, kSecond, &b), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(detail::make_tcp_bootstrap(uid, -1, 2, kSecond, &b), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(b, nullptr);
}

// A connection with another job's key (a stale ID's rank, say) is refused; the job's own ranks start anyway.
TEST(BootstrapTcpFailures, ForeignKeyRefused) {
  const auto codes = run_ranks(3, [](const portshmem_uniqueid_t& uid, int rank) {
    std::unique_ptr<bootstrap> b;
    if (rank == 2) { // the foreigner: this job's address, another key; it comes first
      portshmem_uniqueid_t forged = uid;
      forged.bytes[16] ^= 0x5a; // the job key
      CHILD_CHECK(detail::make_tcp_bootstrap(forged, 1, 2, 3 * kSecond, &b) == PORTSHMEM_ERR_BOOTSTRAP);
      return 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    log_capture log;
    CHILD_OK(detail::make_tcp_bootstrap(uid, rank, 2, 5 * kSecond, &b));
    CHILD_OK(b->barrier());
    if (rank == 0) CHILD_CHECK(log.has("refused a connection that is not from a rank of this job"));
    return 0;
  });
  EXPECT_EQ(codes, std::vector<int>(3, 0));
}

// PORTSHMEM_BOOTSTRAP_ADDR picks the ID's address (and port when given); anything but IPv4[:port] is refused.
TEST(BootstrapTcpFailures, AddressFromEnvironment) {
  ASSERT_EQ(setenv("PORTSHMEM_BOOTSTRAP_ADDR", "127.0.0.1", 1), 0);
  const auto codes = run_ranks(2, [](const portshmem_uniqueid_t& uid, int rank) {
    CHILD_CHECK(uid.bytes[8] == 1 && uid.bytes[9] == 0 && uid.bytes[10] == 0 && uid.bytes[11] == 127); // 127.0.0.1
    std::unique_ptr<bootstrap> b;
    CHILD_OK(detail::make_tcp_bootstrap(uid, rank, 2, 5 * kSecond, &b));
    CHILD_OK(b->barrier());
    return 0;
  });
  EXPECT_EQ(codes, std::vector<int>(2, 0));
  portshmem_uniqueid_t uid{};
  for (const char* bad : {"localhost", "::1", "127.0.0.1:", "127.0.0.1:70000", "127.0.0.1:12x", "1.2.3"}) {
    ASSERT_EQ(setenv("PORTSHMEM_BOOTSTRAP_ADDR", bad, 1), 0);
    EXPECT_EQ(detail::make_unique_id(&uid), PORTSHMEM_ERR_ENV) << bad;
  }
  // A fixed port: the one of the ID made just before, which the new ID replaces.
  ASSERT_EQ(setenv("PORTSHMEM_BOOTSTRAP_ADDR", "127.0.0.1:0", 1), 0);
  ASSERT_EQ(detail::make_unique_id(&uid), PORTSHMEM_SUCCESS);
  const int port = uid.bytes[12] | uid.bytes[13] << 8;
  ASSERT_EQ(setenv("PORTSHMEM_BOOTSTRAP_ADDR", ("127.0.0.1:" + std::to_string(port)).c_str(), 1), 0);
  portshmem_uniqueid_t fixed{};
  ASSERT_EQ(detail::make_unique_id(&fixed), PORTSHMEM_SUCCESS);
  EXPECT_EQ(fixed.bytes[12] | fixed.bytes[13] << 8, port);
  std::unique_ptr<bootstrap> b;
  EXPECT_EQ(detail::make_tcp_bootstrap(fixed, 0, 1, kSecond, &b), PORTSHMEM_SUCCESS);
  ASSERT_EQ(unsetenv("PORTSHMEM_BOOTSTRAP_ADDR"), 0);
}

// Rank 0 must run in the process that made the ID: here one made in another process, and one replaced by a newer ID.
TEST(BootstrapTcpFailures, RankZeroNotTheMaker) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid == 0) {
    portshmem_uniqueid_t uid{};
    const bool ok = detail::make_unique_id(&uid) == PORTSHMEM_SUCCESS &&
                    write(fds[1], uid.bytes, sizeof uid.bytes) == ssize_t(sizeof uid.bytes);
    _exit(ok ? 0 : 1);
  }
  ASSERT_GT(pid, 0);
  close(fds[1]);
  portshmem_uniqueid_t theirs{};
  ASSERT_EQ(read(fds[0], theirs.bytes, sizeof theirs.bytes), ssize_t(sizeof theirs.bytes));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::unique_ptr<bootstrap> b;
  const auto t = clock_type::now();
  EXPECT_EQ(detail::make_tcp_bootstrap(theirs, 0, 2, kSecond, &b), PORTSHMEM_ERR_INVALID_ARG);

  portshmem_uniqueid_t first{}, second{};
  ASSERT_EQ(detail::make_unique_id(&first), PORTSHMEM_SUCCESS);
  ASSERT_EQ(detail::make_unique_id(&second), PORTSHMEM_SUCCESS);
  EXPECT_EQ(detail::make_tcp_bootstrap(first, 0, 2, kSecond, &b), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_LT(seconds_since(t), 0.5);
  // The newer one works (a job of one rank).
  EXPECT_EQ(detail::make_tcp_bootstrap(second, 0, 1, kSecond, &b), PORTSHMEM_SUCCESS);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->size(), 1);
  // It starts one job only: its socket was taken.
  std::unique_ptr<bootstrap> again;
  EXPECT_EQ(detail::make_tcp_bootstrap(second, 0, 1, kSecond, &again), PORTSHMEM_ERR_INVALID_ARG);
}

} // namespace
