// Finding the RDMA device for this PE: one with an active port whose atomics work in host byte order, the one named
// or else the one nearest the PE's GPU on the PCI tree (sysfs), opened.
#pragma once

#include <string>

#include "portshmem/status.h"
#include "rdma/ib_conn.hpp"
#include "rdma/verbs_api.hpp"

namespace portshmem::rdma {

struct ib_device_choice {
  ibv_context* context = nullptr; ///< open; the caller closes it
  std::string name;
  ib_port port;
  ibv_device_attr attr{};
  ibv_gid gid{};
  bool global = false; ///< RoCE (Ethernet link layer): address peers by GID
  int distance = 0;    ///< PCI hops to the GPU (kFar when unknown)
};

/// Opens the usable device named wanted (any when empty), nearest to the PCI function near_bus_id when that is given.
/// PORTSHMEM_ERR_UNREACHABLE with *why listing every device and why it was passed over when none is usable.
portshmem_status_t open_ib_device(const verbs_api& api, const std::string& wanted, const std::string& near_bus_id,
                                  const std::string& sysfs_root, ib_device_choice* out, std::string* why);

/// Whether a usable device exists (PORTSHMEM_RDMA_NET=auto); *why says why not.
bool ib_device_usable(const verbs_api& api, std::string* why);

/// The first GID index of port whose type sysfs gives as "RoCE v2" (routable RoCE), or 0.
int roce_v2_gid_index(const std::string& sysfs_root, const std::string& device, int port);

} // namespace portshmem::rdma
