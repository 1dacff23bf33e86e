// The RDMA transport's host side: picks the network (PORTSHMEM_RDMA_NET, the same on every PE), builds it over every
// PE's heap, and runs the proxy that executes what device code posts to its rings; device code finds the rings in the
// handle (ctx::proxy_rings). Setup and teardown are collective, like the network's.
#include <mpi.h>

#include <string>

#include "log.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "rdma/net_mpi.hpp"
#include "rdma/net_select.hpp"
#include "rdma/proxy.hpp"
#include "runtime.hpp"
#include "transport.hpp"
#if PORTSHMEM_HAVE_IBVERBS
#include "rdma/net_ibverbs.hpp"
#endif

namespace portshmem::detail {
namespace {

/// Rings per PE: block b posts to ring b % kRings, so blocks share a ring only past this many.
constexpr unsigned kRings = PORTSHMEM_PLATFORM_HOST ? 8 : 64;

class rdma_transport final : public transport {
 public:
  rdma_transport(std::vector<bool> served, std::unique_ptr<rdma::network> net, std::unique_ptr<rdma::proxy> px,
                 std::uint64_t timeout_ns)
      : served_(std::move(served)), net_(std::move(net)), px_(std::move(px)), timeout_ns_(timeout_ns) {}
  ~rdma_transport() override {
    if (px_) (void)px_->stop(); // teardown after a failed init: nothing to report to
    px_.reset();
    net_.reset(); // collective (the MPI window): every PE releases it, in init's failure path as in finalize
  }

  portshmem_transport_t kind() const override { return PORTSHMEM_TRANSPORT_RDMA; }
  bool reaches(int pe) const override { return served_[std::size_t(pe)]; }

  portshmem_status_t fill_handle(portshmem_ctx_t& ctx) override {
    ctx.proxy_rings = px_->rings().device_table();
    ctx.proxy_ring_count = px_->rings().count();
    return PORTSHMEM_SUCCESS;
  }
  portshmem_status_t start() override { return px_->start(); }
  portshmem_status_t quiet() override { return px_->quiet(timeout_ns_); }
  portshmem_status_t stop() override { return px_->stop(); }

 private:
  std::vector<bool> served_;
  std::unique_ptr<rdma::network> net_;
  std::unique_ptr<rdma::proxy> px_;
  std::uint64_t timeout_ns_;
};

/// The network every PE uses: PORTSHMEM_RDMA_NET, with auto resolved alike everywhere (ibverbs only when every PE
/// found a usable device). Logged once, by PE 0.
portshmem_status_t pick_network(runtime& rt, rdma::network_kind* kind) {
  std::string why_not;
  bool usable = false;
  if (rt.cfg.rdma_net != rdma_net_choice::mpi && rdma::ibverbs_built()) usable = rdma::ibverbs_device_found(&why_not);
  std::uint64_t lo = 0, hi = 0;
  int lo_pe = 0, hi_pe = 0;
  if (auto s = rt.boot->min_max(usable ? 1 : 0, &lo, &lo_pe, &hi, &hi_pe); s != PORTSHMEM_SUCCESS) return s;
  if (usable && lo == 0) why_not = "PE " + std::to_string(lo_pe) + " found no usable RDMA device";
  std::string reason;
  const portshmem_status_t s =
      rdma::choose_network(rt.cfg.rdma_net, rdma::ibverbs_built(), lo != 0, why_not, kind, &reason);
  if (s != PORTSHMEM_SUCCESS) return PORTSHMEM_FAIL(s, "%s", reason.c_str());
  if (*kind == rdma::network_kind::mpi && !rt.boot->mpi_comm()) { // alike everywhere: every PE has one bootstrap kind
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_UNREACHABLE,
                          "the RDMA transport would use the MPI network (%s), but this job started from a unique ID "
                          "without MPI: it reaches PEs it cannot map only through ibverbs; start it with "
                          "portshmem_init under mpirun instead",
                          reason.c_str());
  }
  if (rt.boot->rank() == 0) {
    PORTSHMEM_LOG(info, "RDMA transport: the %s network (%s)", *kind == rdma::network_kind::mpi ? "MPI" : "ibverbs",
                  reason.c_str());
  }
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t make_network(runtime& rt, rdma::network_kind kind, std::unique_ptr<rdma::network>* out) {
  const bool on_gpu = rt.heap->device() >= 0;
  if (kind == rdma::network_kind::mpi) {
    rdma::mpi_network_options o;
    o.comm = *static_cast<const MPI_Comm*>(rt.boot->mpi_comm());
    o.base = rt.heap->local();
    o.size = rt.cfg.heap_size;
    o.heap_on_gpu = !rt.heap->in_host_memory(); // PORTSHMEM_HEAP_MEMORY=host: an MPI without GPU support will do
    o.locals_on_gpu = on_gpu;
    return rdma::make_mpi_network(o, out);
  }
#if PORTSHMEM_HAVE_IBVERBS
  rdma::ibverbs_options o;
  o.my_pe = rt.boot->rank();
  o.n_pes = rt.boot->size();
  o.allgather = [&rt](const void* mine, void* all, std::size_t bytes) { return rt.boot->allgather(mine, all, bytes); };
  o.heap = rt.heap->local();
  o.heap_size = rt.cfg.heap_size;
  if (on_gpu) {
    char bus_id[32] = {};
    if (hipDeviceGetPCIBusId(bus_id, int(sizeof bus_id), rt.heap->device()) == hipSuccess) o.near_pci_bus_id = bus_id;
  }
  return rdma::make_ibverbs_network(o, out);
#else
  return PORTSHMEM_FAIL(PORTSHMEM_ERR_UNREACHABLE, "this build has no ibverbs network"); // pick_network refuses first
#endif
}

} // namespace

bool rdma_transport_built() {
  return true;
}

portshmem_status_t make_rdma_transport(runtime& rt, const std::vector<bool>& served, std::unique_ptr<transport>* out) {
  rdma::network_kind kind = rdma::network_kind::mpi;
  if (auto s = pick_network(rt, &kind); s != PORTSHMEM_SUCCESS) return s;
  std::unique_ptr<rdma::network> net;
  if (auto s = make_network(rt, kind, &net); s != PORTSHMEM_SUCCESS) return s;
  rdma::proxy::options po;
  po.rings = kRings;
  po.capacity = rt.cfg.proxy_slots;
  po.counters_on_device = !PORTSHMEM_PLATFORM_HOST; // only kernels post; the host quiets through the proxy itself
  std::unique_ptr<rdma::proxy> px;
  // A failure here is this PE's alone: the network is released by every PE after init agrees on the failure.
  if (auto s = rdma::proxy::create(*net, po, &px); s != PORTSHMEM_SUCCESS) {
    *out = std::make_unique<rdma_transport>(served, std::move(net), nullptr, rt.cfg.timeout_ns);
    return s;
  }
  *out = std::make_unique<rdma_transport>(served, std::move(net), std::move(px), rt.cfg.timeout_ns);
  return PORTSHMEM_SUCCESS;
}

} // namespace portshmem::detail
