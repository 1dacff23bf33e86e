// Which network the RDMA proxy uses (PORTSHMEM_RDMA_NET): ibverbs when asked for or, under auto, when this build has
// it and a usable device exists; MPI otherwise.
#pragma once

#include <string>

#include "env.hpp"
#include "portshmem/status.h"

namespace portshmem::rdma {

enum class network_kind { ibverbs, mpi };

/// The decision alone: *reason says why (for the one log line at init). PORTSHMEM_ERR_UNREACHABLE when ibverbs is
/// asked for but this build lacks it or no device is usable (why_not: what the device search found).
portshmem_status_t choose_network(detail::rdma_net_choice choice, bool built_with_ibverbs, bool device_usable,
                                  const std::string& why_not, network_kind* out, std::string* reason);

/// Whether this build has the ibverbs network.
bool ibverbs_built();

/// Whether this machine has a usable RDMA device (always false without ibverbs); *why says why not.
bool ibverbs_device_found(std::string* why);

} // namespace portshmem::rdma
