#include "rdma/nic_locality.hpp"

#include <climits>
#include <cstdlib>

namespace portshmem::rdma {
namespace {

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/// "0000:3b:00.0": domain:bus:device.function.
bool is_pci_function(const std::string& s) {
  if (s.size() != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11})
    if (!is_hex(s[i])) return false;
  return true;
}

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return s;
}

std::string resolve(const std::string& path) {
  char out[PATH_MAX];
  return ::realpath(path.c_str(), out) ? std::string(out) : std::string();
}

} // namespace

std::vector<std::string> pci_chain(const std::string& resolved_path) {
  std::vector<std::string> parts;
  std::size_t at = 0;
  while (at <= resolved_path.size()) {
    const std::size_t slash = resolved_path.find('/', at);
    const std::size_t end = slash == std::string::npos ? resolved_path.size() : slash;
    if (end > at) parts.push_back(resolved_path.substr(at, end - at));
    at = end + 1;
  }
  std::vector<std::string> chain;
  for (const std::string& p : parts) {
    if (chain.empty()) {
      if (p.rfind("pci", 0) == 0 && p.size() > 3) chain.push_back(lower(p));
    } else if (is_pci_function(p)) {
      chain.push_back(lower(p));
    } else {
      break; // below the device: "infiniband/mlx5_0", "net/..."
    }
  }
  return chain;
}

int pci_distance(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.empty() || b.empty() || a[0] != b[0]) return kFar;
  std::size_t common = 0;
  while (common < a.size() && common < b.size() && a[common] == b[common]) ++common;
  return int(a.size() - common + b.size() - common);
}

std::size_t nearest(const std::vector<std::string>& target, const std::vector<std::vector<std::string>>& candidates) {
  std::size_t best = 0;
  int best_distance = INT_MAX;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const int d = pci_distance(target, candidates[i]);
    if (d < best_distance) {
      best = i;
      best_distance = d;
    }
  }
  return best;
}

std::string pci_device_path(const std::string& sysfs_root, const std::string& bus_id) {
  return resolve(sysfs_root + "/bus/pci/devices/" + lower(bus_id));
}

std::string rdma_device_path(const std::string& sysfs_root, const std::string& ibdev_path) {
  // ibdev_path is "/sys/class/infiniband/<name>"; its "device" link leads to the PCI function.
  const std::string prefix = "/sys";
  const std::string rest = ibdev_path.rfind(prefix, 0) == 0 ? ibdev_path.substr(prefix.size()) : ibdev_path;
  return resolve(sysfs_root + rest + "/device");
}

} // namespace portshmem::rdma
