#include "rdma/ib_device.hpp"

#include <fstream>
#include <vector>

#include "rdma/nic_locality.hpp"

namespace portshmem::rdma {
namespace {

/// GID table entries looked at for a RoCE v2 one.
constexpr int kGidEntries = 16;

struct candidate {
  ibv_device* device;
  std::string name;
  std::uint8_t port = 0;
  ibv_port_attr port_attr{};
  ibv_device_attr attr{};
};

/// Opens device and finds its first active port; returns the open context, or null with *why.
ibv_context* probe(const verbs_api& api, ibv_device* device, candidate* c, std::string* why) {
  ibv_context* ctx = api.open_device(device);
  if (!ctx) {
    *why = "cannot be opened";
    return nullptr;
  }
  if (api.query_device(ctx, &c->attr) != 0) {
    *why = "ibv_query_device failed";
  } else if (c->attr.atomic_cap == IBV_ATOMIC_NONE) {
    *why = "does not do atomics in host byte order (atomic_cap IBV_ATOMIC_NONE)";
  } else {
    for (int p = 1; p <= c->attr.phys_port_cnt; ++p) {
      ibv_port_attr pa{};
      if (api.query_port(ctx, std::uint8_t(p), &pa) == 0 && pa.state == IBV_PORT_ACTIVE) {
        c->port = std::uint8_t(p);
        c->port_attr = pa;
        return ctx;
      }
    }
    *why = "has no active port";
  }
  api.close_device(ctx);
  return nullptr;
}

} // namespace

int roce_v2_gid_index(const std::string& sysfs_root, const std::string& device, int port) {
  const std::string dir =
      sysfs_root + "/class/infiniband/" + device + "/ports/" + std::to_string(port) + "/gid_attrs/types/";
  for (int i = 0; i < kGidEntries; ++i) {
    std::ifstream type(dir + std::to_string(i));
    std::string line;
    if (type && std::getline(type, line) && line.find("RoCE v2") != std::string::npos) return i;
  }
  return 0;
}

portshmem_status_t open_ib_device(const verbs_api& api, const std::string& wanted, const std::string& near_bus_id,
                                  const std::string& sysfs_root, ib_device_choice* out, std::string* why) {
  int count = 0;
  ibv_device** list = api.get_device_list(&count);
  if (!list || count == 0) {
    if (list) api.free_device_list(list);
    *why = "no RDMA device (ibv_get_device_list found none)";
    return PORTSHMEM_ERR_UNREACHABLE;
  }
  // Every usable device stays open until the nearest is known; the others are closed then.
  std::vector<candidate> usable;
  std::vector<ibv_context*> contexts;
  std::string refused;
  for (int i = 0; i < count; ++i) {
    const char* name = api.get_device_name(list[i]);
    candidate c{list[i], name ? name : "(unnamed)"};
    if (!wanted.empty() && c.name != wanted) continue;
    std::string reason;
    if (ibv_context* ctx = probe(api, list[i], &c, &reason)) {
      usable.push_back(c);
      contexts.push_back(ctx);
    } else {
      refused += (refused.empty() ? "" : "; ") + c.name + " " + reason;
    }
  }
  if (usable.empty()) {
    api.free_device_list(list);
    *why = "no usable RDMA device" + (wanted.empty() ? std::string() : " named " + wanted) +
           (refused.empty() ? std::string() : ": " + refused);
    return PORTSHMEM_ERR_UNREACHABLE;
  }
  std::vector<std::vector<std::string>> chains;
  for (const candidate& c : usable) chains.push_back(pci_chain(rdma_device_path(sysfs_root, c.device->ibdev_path)));
  const std::vector<std::string> gpu =
      near_bus_id.empty() ? std::vector<std::string>{} : pci_chain(pci_device_path(sysfs_root, near_bus_id));
  const std::size_t best = nearest(gpu, chains);
  for (std::size_t i = 0; i < usable.size(); ++i)
    if (i != best) api.close_device(contexts[i]);
  const candidate& c = usable[best];
  out->context = contexts[best];
  out->name = c.name;
  out->attr = c.attr;
  out->port.num = c.port;
  out->port.attr = c.port_attr;
  out->global = c.port_attr.link_layer == IBV_LINK_LAYER_ETHERNET;
  out->port.gid_index = out->global ? roce_v2_gid_index(sysfs_root, c.name, c.port) : 0;
  out->distance = pci_distance(gpu, chains[best]);
  api.free_device_list(list);
  if (api.query_gid(out->context, c.port, out->port.gid_index, &out->gid) != 0) {
    api.close_device(out->context);
    out->context = nullptr;
    *why = "ibv_query_gid failed on " + c.name + " port " + std::to_string(c.port);
    return PORTSHMEM_ERR_SYSTEM;
  }
  return PORTSHMEM_SUCCESS;
}

bool ib_device_usable(const verbs_api& api, std::string* why) {
  ib_device_choice choice;
  if (open_ib_device(api, "", "", "/sys", &choice, why) != PORTSHMEM_SUCCESS) return false;
  api.close_device(choice.context);
  return true;
}

} // namespace portshmem::rdma
