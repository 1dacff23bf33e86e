// Passing file descriptors between a node's processes (src/ipc/fd_exchange.hpp), which the NVIDIA heaps' one
// symmetric range rests on: every PE sends a memfd holding its rank, and must receive a working descriptor of each node
// peer's object, and nothing from PEs of other (emulated) nodes.
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "bootstrap.hpp"
#include "ipc/fd_exchange.hpp"

namespace portshmem::detail {
namespace {

constexpr std::uint64_t kTimeoutNs = 30'000'000'000ull;

/// A memory file holding rank: what a peer reads back through the descriptor it received.
int file_holding(int rank) {
  const int fd = memfd_create("portshmem-fd-exchange-test", MFD_CLOEXEC);
  if (fd >= 0 && pwrite(fd, &rank, sizeof rank, 0) != sizeof rank) return -1;
  return fd;
}

void expect_exchange(bootstrap& boot) {
  const int mine = file_holding(boot.rank());
  ASSERT_GE(mine, 0);
  std::uint64_t job = 0;
  ASSERT_EQ(job_key(boot, &job), PORTSHMEM_SUCCESS);
  std::vector<int> theirs;
  ASSERT_EQ(exchange_fds(boot, job, mine, kTimeoutNs, &theirs), PORTSHMEM_SUCCESS);
  ASSERT_EQ(theirs.size(), std::size_t(boot.size()));
  struct stat own {};
  ASSERT_EQ(fstat(mine, &own), 0);
  const int node = boot.node_of()[std::size_t(boot.rank())];
  for (int r = 0; r < boot.size(); ++r) {
    const int fd = theirs[std::size_t(r)];
    if (r == boot.rank() || boot.node_of()[std::size_t(r)] != node) {
      EXPECT_EQ(fd, -1) << "PE " << r << " is this PE or on another node";
      continue;
    }
    ASSERT_GE(fd, 0) << "nothing came from node peer " << r;
    int held = -1;
    EXPECT_EQ(pread(fd, &held, sizeof held, 0), ssize_t(sizeof held));
    EXPECT_EQ(held, r) << "the descriptor from PE " << r << " opens another PE's file";
    struct stat seen {};
    EXPECT_EQ(fstat(fd, &seen), 0);
    EXPECT_NE(seen.st_ino, own.st_ino) << "PE " << r << "'s descriptor is this PE's own file";
    close(fd);
  }
  close(mine);
}

std::unique_ptr<bootstrap> world() {
  std::unique_ptr<bootstrap> boot;
  EXPECT_EQ(make_mpi_bootstrap(nullptr, false, &boot), PORTSHMEM_SUCCESS);
  return boot;
}

TEST(FdExchange, EveryNodePeerReceivesEachDescriptor) {
  auto boot = world();
  ASSERT_TRUE(boot);
  expect_exchange(*boot);
}

TEST(FdExchange, EmulatedNodesExchangeOnlyInside) {
  auto boot = world();
  ASSERT_TRUE(boot);
  boot->split_nodes(2);
  expect_exchange(*boot);
}

TEST(FdExchange, RepeatsInOneJob) { // distinct job keys: a second exchange never reads the first one's sockets
  auto boot = world();
  ASSERT_TRUE(boot);
  for (int i = 0; i < 3; ++i) expect_exchange(*boot);
}

} // namespace
} // namespace portshmem::detail
