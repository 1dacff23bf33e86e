// A build without the RDMA transport (CMake PORTSHMEM_ENABLE_RDMA=OFF): every PE must be reachable by load/store.
#include "log.hpp"
#include "transport.hpp"

namespace portshmem::detail {

bool rdma_transport_built() {
  return false;
}

portshmem_status_t make_rdma_transport(runtime&, const std::vector<bool>&, std::unique_ptr<transport>*) {
  return PORTSHMEM_FAIL(PORTSHMEM_ERR_UNREACHABLE,
                        "this build has no RDMA transport (PORTSHMEM_ENABLE_RDMA=OFF): rebuild with it ON");
}

} // namespace portshmem::detail
