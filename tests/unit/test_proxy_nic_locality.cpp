// Which RDMA device is nearest a GPU: PCI chains read from resolved sysfs paths, distances through the deepest common
// bridge, and the choice among candidates.
#include <gtest/gtest.h>

#include "rdma/nic_locality.hpp"

namespace {

namespace rdma = portshmem::rdma;

TEST(ProxyNicLocality, ChainsFromSysfsPaths) {
  EXPECT_EQ(rdma::pci_chain("/sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0"),
            (std::vector<std::string>{"pci0000:3a", "0000:3a:00.0", "0000:3b:00.0"}));
  // Upper case is folded; what lies below the PCI function (the infiniband class directory) is not part of it.
  EXPECT_EQ(rdma::pci_chain("/sys/devices/pci0000:3A/0000:3A:00.0/0000:3B:00.1/infiniband/mlx5_1"),
            (std::vector<std::string>{"pci0000:3a", "0000:3a:00.0", "0000:3b:00.1"}));
  EXPECT_TRUE(rdma::pci_chain("/sys/devices/virtual/net/lo").empty());
  EXPECT_TRUE(rdma::pci_chain("").empty());
}

TEST(ProxyNicLocality, DistanceThroughTheDeepestCommonBridge) {
  const std::vector<std::string> gpu = {"pci0000:80", "0000:80:01.0", "0000:81:00.0", "0000:83:00.0"};
  const std::vector<std::string> same_switch = {"pci0000:80", "0000:80:01.0", "0000:81:00.0", "0000:82:00.0"};
  const std::vector<std::string> same_root = {"pci0000:80", "0000:80:02.0", "0000:90:00.0"};
  const std::vector<std::string> other_root = {"pci0000:10", "0000:10:01.0", "0000:11:00.0"};
  EXPECT_EQ(rdma::pci_distance(gpu, gpu), 0);
  EXPECT_EQ(rdma::pci_distance(gpu, same_switch), 2);
  EXPECT_EQ(rdma::pci_distance(gpu, same_root), 5);
  EXPECT_EQ(rdma::pci_distance(gpu, other_root), rdma::kFar);
  EXPECT_EQ(rdma::pci_distance(gpu, {}), rdma::kFar);
  EXPECT_EQ(rdma::nearest(gpu, {other_root, same_root, same_switch}), 2u);
  EXPECT_EQ(rdma::nearest(gpu, {other_root, same_root}), 1u);
  EXPECT_EQ(rdma::nearest({}, {other_root, same_root}), 0u) << "nothing known: the first";
  EXPECT_EQ(rdma::nearest(gpu, {same_switch, same_switch}), 0u) << "ties: the first";
}

TEST(ProxyNicLocality, MissingSysfsEntriesResolveToNothing) {
  EXPECT_EQ(rdma::pci_device_path("/nonexistent", "0000:3b:00.0"), "");
  EXPECT_EQ(rdma::rdma_device_path("/nonexistent", "/sys/class/infiniband/mlx5_0"), "");
}

} // namespace
