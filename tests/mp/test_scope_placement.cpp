// The debug scope checks against the real placement of the PEs (built with PORTSHMEM_DEBUG_CHECKS=1): a call
// qualified mm::device naming a PE on another GPU, or mm::node naming one on another node, is a broken promise and
// must be recorded as PORTSHMEM_ERR_SCOPE and skipped; the same call toward a PE the scope does reach must land.
// Where each PE runs is found here independently of the library (MPI processor name and PCI bus id), so a wrong
// placement table fails the test too. On the host platform every PE of a node shares the one "device", so only
// the accepting half runs there; the rejecting half needs PEs on separate GPUs (scripts/gpu-suite.sh runs it so) or
// on separate nodes: under PORTSHMEM_NODE_GROUPS (emulated nodes, docs/env.md; the group is computed here from the
// documented rule, rank r in group r * groups / PEs) a PE of another group is on another node and reached through
// the RDMA proxy, which refuses a device- or node-scoped call naming it whether or not debug checks are built
// (mp_scope_proxy_np4 runs this file without them).
#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "mp_test.hpp"

namespace {

namespace mm = portshmem::mm;

/// This PE's GPU and node as "processor-name/bus-id", gathered from every PE in PE order.
std::vector<std::string> placements() {
  char node[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(node, &len);
  char bus[32] = "host";
  int device = 0;
  EXPECT_EQ(hipGetDevice(&device), hipSuccess);
  EXPECT_EQ(hipDeviceGetPCIBusId(bus, int(sizeof bus), device), hipSuccess);
  constexpr int kBytes = MPI_MAX_PROCESSOR_NAME + 32;
  char mine[kBytes] = {};
  const char* groups_text = std::getenv("PORTSHMEM_NODE_GROUPS");
  const long groups = groups_text && *groups_text ? std::strtol(groups_text, nullptr, 10) : 1;
  const long group = groups > 1 ? long(mp::me()) * groups / mp::npes() : 0;
  std::snprintf(mine, sizeof mine, "%s#%ld/%s", node, group, bus);
  std::vector<char> all(std::size_t(mp::npes()) * kBytes);
  MPI_Allgather(mine, kBytes, MPI_CHAR, all.data(), kBytes, MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (int pe = 0; pe < mp::npes(); ++pe) out.emplace_back(&all[std::size_t(pe) * kBytes]);
  return out;
}

std::string node_part(const std::string& placement) {
  return placement.substr(0, placement.rfind('/'));
}

// The calls that take a scope and name a PE (puts, p and AMOs take none: their accesses are always system-coherent).
enum class call { put_signal_device, signal_device, put_signal_node, signal_node };

/// Each PE writes its number + 1 into slot [me] of every PE's `slots` (put_signal: and sets its signal in `sigs`),
/// with the scope the call names.
PORTSHMEM_GLOBAL void write_everywhere(portshmem::ctx c, call which, std::uint64_t* slots, std::uint64_t* sigs,
                                       const std::uint64_t* src) {
  const int me = portshmem::my_pe(c);
  for (int pe = 0; pe < portshmem::n_pes(c); ++pe) {
    switch (which) {
    case call::put_signal_device:
      portshmem::putmem_signal(c, slots + me, src, sizeof *src, sigs + me, 1, portshmem::signal_set, pe, mm::device);
      break;
    case call::signal_device:
      portshmem::signal_op(c, slots + me, std::uint64_t(me + 1), portshmem::signal_set, pe, mm::device);
      break;
    case call::put_signal_node:
      portshmem::putmem_signal(c, slots + me, src, sizeof *src, sigs + me, 1, portshmem::signal_set, pe, mm::node);
      break;
    case call::signal_node:
      portshmem::signal_op(c, slots + me, std::uint64_t(me + 1), portshmem::signal_set, pe, mm::node);
      break;
    }
  }
  portshmem::quiet(c);
}

class ScopeAgainstPlacement : public ::testing::TestWithParam<call> {};

TEST_P(ScopeAgainstPlacement, ReachingCallsLandAndOthersAreRejected) {
  int world_rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  ASSERT_EQ(world_rank, mp::me()) << "this test indexes placements by world rank";
  const std::vector<std::string> where = placements();
  const int n = mp::npes(), me = mp::me();
  const bool node_scope = GetParam() == call::put_signal_node || GetParam() == call::signal_node;
  const bool signals = GetParam() == call::put_signal_device || GetParam() == call::put_signal_node;
  auto reaches = [&](int from, int to) {
    return node_scope ? node_part(where[from]) == node_part(where[to]) : where[from] == where[to];
  };

  auto* slots = mp::sym_alloc<std::uint64_t>(std::size_t(n));
  auto* sigs = mp::sym_alloc<std::uint64_t>(std::size_t(n));
  auto* src = mp::private_alloc<std::uint64_t>(1);
  mp::to_device(slots, std::vector<std::uint64_t>(std::size_t(n), 0));
  mp::to_device(sigs, std::vector<std::uint64_t>(std::size_t(n), 0));
  mp::to_device(src, std::vector<std::uint64_t>{std::uint64_t(me + 1)});
  mp::barrier();
  portshmem::ctx c = mp::context();
  mp::run(write_everywhere, dim3(1), dim3(1), c, GetParam(), slots, sigs, static_cast<const std::uint64_t*>(src));

  bool i_cross_scope = false;
  for (int pe = 0; pe < n; ++pe) i_cross_scope |= !reaches(me, pe);
  const std::uint32_t recorded = c.error->count ? c.error->status : PORTSHMEM_SUCCESS;
  EXPECT_EQ(recorded, std::uint32_t(i_cross_scope ? PORTSHMEM_ERR_SCOPE : PORTSHMEM_SUCCESS))
      << "PE " << me << " at " << where[me];
  EXPECT_EQ(portshmem_check_device_errors(), i_cross_scope ? PORTSHMEM_ERR_DEVICE : PORTSHMEM_SUCCESS);
  mp::barrier();

  const std::vector<std::uint64_t> got = mp::to_host(slots, std::size_t(n));
  const std::vector<std::uint64_t> got_sigs = mp::to_host(sigs, std::size_t(n));
  for (int from = 0; from < n; ++from) {
    EXPECT_EQ(got[std::size_t(from)], reaches(from, me) ? std::uint64_t(from + 1) : 0u)
        << "slot of PE " << from << " (" << where[from] << ") on PE " << me << " (" << where[me] << ")";
    EXPECT_EQ(got_sigs[std::size_t(from)], signals && reaches(from, me) ? 1u : 0u) << "signal of PE " << from;
  }
  mp::barrier();
  EXPECT_EQ(hipFree(src), hipSuccess);
  portshmem_free(sigs);
  portshmem_free(slots);
}

INSTANTIATE_TEST_SUITE_P(Calls, ScopeAgainstPlacement,
                         ::testing::Values(call::put_signal_device, call::signal_device, call::put_signal_node,
                                           call::signal_node));

} // namespace
