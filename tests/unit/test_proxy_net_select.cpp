// PORTSHMEM_RDMA_NET: auto takes ibverbs only when the build has it and a device is usable; ibverbs asked for but
// unavailable is an error that says why; mpi is always mpi.
#include <gtest/gtest.h>

#include "rdma/net_select.hpp"

namespace {

namespace rdma = portshmem::rdma;
using choice = portshmem::detail::rdma_net_choice;

rdma::network_kind pick(choice c, bool built, bool usable, portshmem_status_t expect = PORTSHMEM_SUCCESS,
                        std::string* reason_out = nullptr) {
  rdma::network_kind kind = rdma::network_kind::mpi;
  std::string reason;
  EXPECT_EQ(rdma::choose_network(c, built, usable, "no usable RDMA device: mlx5_0 has no active port", &kind, &reason),
            expect);
  EXPECT_FALSE(reason.empty());
  if (reason_out) *reason_out = reason;
  return kind;
}

TEST(ProxyNetSelect, AutoPrefersIbverbsWhenUsable) {
  EXPECT_EQ(pick(choice::automatic, true, true), rdma::network_kind::ibverbs);
  std::string reason;
  EXPECT_EQ(pick(choice::automatic, true, false, PORTSHMEM_SUCCESS, &reason), rdma::network_kind::mpi);
  EXPECT_NE(reason.find("mlx5_0 has no active port"), std::string::npos) << reason;
  EXPECT_EQ(pick(choice::automatic, false, true, PORTSHMEM_SUCCESS, &reason), rdma::network_kind::mpi);
  EXPECT_NE(reason.find("this build has no ibverbs network"), std::string::npos) << reason;
}

TEST(ProxyNetSelect, ExplicitChoices) {
  EXPECT_EQ(pick(choice::mpi, true, true), rdma::network_kind::mpi);
  EXPECT_EQ(pick(choice::ibverbs, true, true), rdma::network_kind::ibverbs);
  std::string reason;
  pick(choice::ibverbs, true, false, PORTSHMEM_ERR_UNREACHABLE, &reason);
  EXPECT_NE(reason.find("PORTSHMEM_RDMA_NET=ibverbs, but no usable RDMA device"), std::string::npos) << reason;
  pick(choice::ibverbs, false, false, PORTSHMEM_ERR_UNREACHABLE, &reason);
  EXPECT_NE(reason.find("this build has no ibverbs network"), std::string::npos) << reason;
}

TEST(ProxyNetSelect, ThisMachine) {
  std::string why;
  const bool found = rdma::ibverbs_device_found(&why);
  if (!found) EXPECT_FALSE(why.empty());
  if (!rdma::ibverbs_built()) EXPECT_FALSE(found);
}

} // namespace
