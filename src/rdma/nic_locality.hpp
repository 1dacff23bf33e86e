// Which RDMA device sits nearest a GPU on the PCI tree, from sysfs: a device's resolved sysfs path lists the bridges
// from its root complex down to it, so two devices' distance is the hops from each up to their deepest common bridge.
#pragma once

#include <string>
#include <vector>

namespace portshmem::rdma {

/// The PCI functions from the root complex down to a device, from its resolved sysfs path:
/// "/sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0" -> {"pci0000:3a", "0000:3a:00.0", "0000:3b:00.0"}.
/// Components that are not PCI (a virtual device's path) end the chain; empty when there is no root complex.
std::vector<std::string> pci_chain(const std::string& resolved_path);

/// Hops between two chains through their deepest common component; kFar when they share no root complex or either
/// is unknown (empty).
inline constexpr int kFar = 1 << 20;
int pci_distance(const std::vector<std::string>& a, const std::vector<std::string>& b);

/// Index of the candidate nearest target (the first of equals; 0 when nothing is known).
std::size_t nearest(const std::vector<std::string>& target, const std::vector<std::vector<std::string>>& candidates);

/// The resolved sysfs path of a PCI function given by bus id ("0000:3B:00.0", any case) under sysfs_root ("/sys"),
/// or "" when it does not exist.
std::string pci_device_path(const std::string& sysfs_root, const std::string& bus_id);

/// The resolved sysfs path of an RDMA device's PCI function from its ibdev_path ("/sys/class/infiniband/mlx5_0"),
/// re-rooted at sysfs_root; "" when it cannot be resolved.
std::string rdma_device_path(const std::string& sysfs_root, const std::string& ibdev_path);

} // namespace portshmem::rdma
