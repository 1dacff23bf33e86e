#include "rdma/net_select.hpp"

#if PORTSHMEM_HAVE_IBVERBS
#include "rdma/ib_device.hpp"
#endif

namespace portshmem::rdma {

portshmem_status_t choose_network(detail::rdma_net_choice choice, bool built_with_ibverbs, bool device_usable,
                                  const std::string& why_not, network_kind* out, std::string* reason) {
  const std::string lacking = !built_with_ibverbs ? "this build has no ibverbs network (libibverbs was not found, "
                                                    "or PORTSHMEM_ENABLE_IBVERBS=OFF)"
                                                  : why_not;
  switch (choice) {
  case detail::rdma_net_choice::mpi:
    *out = network_kind::mpi;
    *reason = "PORTSHMEM_RDMA_NET=mpi";
    return PORTSHMEM_SUCCESS;
  case detail::rdma_net_choice::ibverbs:
    if (!built_with_ibverbs || !device_usable) {
      *reason = "PORTSHMEM_RDMA_NET=ibverbs, but " + lacking + "; use PORTSHMEM_RDMA_NET=mpi or auto";
      return PORTSHMEM_ERR_UNREACHABLE;
    }
    *out = network_kind::ibverbs;
    *reason = "PORTSHMEM_RDMA_NET=ibverbs";
    return PORTSHMEM_SUCCESS;
  default:
    if (built_with_ibverbs && device_usable) {
      *out = network_kind::ibverbs;
      *reason = "PORTSHMEM_RDMA_NET=auto found a usable RDMA device";
    } else {
      *out = network_kind::mpi;
      *reason = "PORTSHMEM_RDMA_NET=auto: MPI one-sided, since " + lacking;
    }
    return PORTSHMEM_SUCCESS;
  }
}

bool ibverbs_built() {
  return PORTSHMEM_HAVE_IBVERBS;
}

bool ibverbs_device_found(std::string* why) {
#if PORTSHMEM_HAVE_IBVERBS
  return ib_device_usable(system_verbs(), why);
#else
  *why = "this build has no ibverbs network";
  return false;
#endif
}

} // namespace portshmem::rdma
