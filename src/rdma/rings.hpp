// The memory of the proxy's rings: slots, result cells and state in host-visible memory (pinned and mapped on GPUs,
// ordinary memory on the host platform), ticket counters where producers are, and the ring table kernels read.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "portshmem/status.h"
#include "portshmem/transport/proxy_queue.h"

namespace portshmem::rdma {

class ring_set {
 public:
  /// count rings of capacity slots (a power of two, at least 2), zeroed. Ticket counters go to device memory when
  /// counters_on_device (only kernels post there; the host platform's "device memory" is ordinary memory), else into
  /// the host-visible block (host threads may post too).
  static portshmem_status_t create(unsigned count, std::uint32_t capacity, bool counters_on_device,
                                   std::unique_ptr<ring_set>* out);
  ~ring_set();
  ring_set(const ring_set&) = delete;
  ring_set& operator=(const ring_set&) = delete;

  unsigned count() const { return unsigned(rings_.size()); }
  /// Ring i as the host sees it (the same pointers kernels use).
  const portshmem_proxy_ring_t& ring(unsigned i) const { return rings_[i]; }
  /// The table of every ring in device memory, for the device handle.
  const portshmem_proxy_ring_t* device_table() const { return device_table_; }

 private:
  ring_set() = default;
  std::vector<portshmem_proxy_ring_t> rings_;
  void* host_block_ = nullptr;
  std::uint64_t* device_counters_ = nullptr;
  portshmem_proxy_ring_t* device_table_ = nullptr;
};

} // namespace portshmem::rdma
