// The NIC section: RDMA devices as libibverbs (through dlopen) lists them, and each one's ports from sysfs: state,
// link layer (InfiniBand or Ethernet, i.e. RoCE), rate, PCI address and network interfaces.
#include <dlfcn.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "info_report.hpp"

namespace portshmem::info {
namespace {

namespace fs = std::filesystem;

/// The first line of a sysfs file, or "" when it cannot be read.
std::string read_line(const fs::path& file) {
  std::ifstream in(file);
  std::string text;
  std::getline(in, text);
  return text;
}

/// Names of the entries of dir, sorted; none when it cannot be listed.
std::set<std::string> entries(const fs::path& dir) {
  std::set<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) names.insert(it->path().filename());
  return names;
}

/// The device names libibverbs lists, or false with *why when the library or its functions are missing.
bool verbs_devices(std::set<std::string>* names, std::string* why) {
  void* lib = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    *why = "libibverbs.so.1 not loadable (apt-get install libibverbs1 / rdma-core)";
    return false;
  }
  using device = struct ibv_device_opaque;
  auto get_list = reinterpret_cast<device** (*)(int*)>(dlsym(lib, "ibv_get_device_list"));
  auto free_list = reinterpret_cast<void (*)(device**)>(dlsym(lib, "ibv_free_device_list"));
  auto get_name = reinterpret_cast<const char* (*)(device*)>(dlsym(lib, "ibv_get_device_name"));
  bool ok = get_list && free_list && get_name;
  if (!ok) {
    *why = "libibverbs.so.1 lacks ibv_get_device_list";
  } else {
    int count = 0;
    if (device** list = get_list(&count)) {
      for (int i = 0; i < count; ++i) names->insert(get_name(list[i]));
      free_list(list);
    }
  }
  dlclose(lib);
  return ok;
}

void describe_device(report& out, const fs::path& dir, const std::string& name, bool listed_by_verbs) {
  std::error_code ec;
  const fs::path pci = fs::read_symlink(dir / "device", ec);
  std::string text = ec ? "PCI ?" : "PCI " + pci.filename().string();
  std::string nets;
  for (const std::string& net : entries(dir / "device" / "net")) nets += (nets.empty() ? "" : ", ") + net;
  if (!nets.empty()) text += ", netdev " + nets;
  if (!listed_by_verbs) text += " (in sysfs, not listed by libibverbs)";
  out.line(name, text);
  for (const std::string& port : entries(dir / "ports")) {
    const fs::path p = dir / "ports" / port;
    out.line(name + " port " + port,
             read_line(p / "state") + ", " + read_line(p / "link_layer") + ", " + read_line(p / "rate"));
  }
}

} // namespace

void nic_section(report& out, const std::string& sysfs_root) {
  out.section("NICs (RDMA)");
  std::set<std::string> listed;
  std::string why;
  const bool verbs = verbs_devices(&listed, &why);
  out.line("libibverbs", verbs ? std::to_string(listed.size()) + " device(s)" : why);
  const fs::path class_dir = fs::path(sysfs_root) / "class" / "infiniband";
  std::set<std::string> all = entries(class_dir);
  all.insert(listed.begin(), listed.end());
  for (const std::string& name : all) describe_device(out, class_dir / name, name, !verbs || listed.count(name));
  if (all.empty()) out.note("no RDMA device: peers on other nodes are reached through MPI (PORTSHMEM_RDMA_NET=mpi)");
  std::error_code ec;
  const bool peermem = fs::exists(fs::path(sysfs_root) / "module" / "nvidia_peermem", ec);
  out.line("nvidia_peermem", peermem ? "loaded" : "not loaded (GPU memory is registered through dma-buf instead)");
}

} // namespace portshmem::info
