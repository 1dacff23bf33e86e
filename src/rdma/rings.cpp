#include "rdma/rings.hpp"

#include <cstring>

#include "log.hpp"
#include "portshmem/gpu_runtime.hpp"

namespace portshmem::rdma {
namespace {

// Each part of a ring starts on its own cache line: producers poll the state while the proxy reads slots.
constexpr std::size_t kLine = 64;

std::size_t ring_bytes(std::uint32_t capacity) {
  return sizeof(portshmem_proxy_ring_state_t) + kLine /* a host-side ticket counter */ +
         capacity * (sizeof(portshmem_proxy_cmd_t) + sizeof(portshmem_proxy_result_t));
}

} // namespace

portshmem_status_t ring_set::create(unsigned count, std::uint32_t capacity, bool counters_on_device,
                                    std::unique_ptr<ring_set>* out) {
  if (count == 0 || capacity < 2 || (capacity & (capacity - 1)) != 0) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                          "proxy rings: %u rings of %u slots; need at least one ring and a power-of-two capacity >= 2",
                          count, capacity);
  }
  std::unique_ptr<ring_set> set(new ring_set());
  const std::size_t per_ring = ring_bytes(capacity), total = per_ring * count;
  char* block = nullptr;
  if (hipHostMalloc(&block, total, 0) != hipSuccess) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "could not allocate %zu bytes of host-visible memory for %u proxy rings",
                          total, count);
  }
  std::memset(block, 0, total);
  set->host_block_ = block;
  if (counters_on_device) {
    if (hipMalloc(&set->device_counters_, count * sizeof(std::uint64_t)) != hipSuccess ||
        hipMemset(set->device_counters_, 0, count * sizeof(std::uint64_t)) != hipSuccess) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "could not allocate the proxy rings' ticket counters in device memory");
    }
  }
  set->rings_.resize(count);
  for (unsigned i = 0; i < count; ++i) {
    char* p = block + i * per_ring;
    portshmem_proxy_ring_t& r = set->rings_[i];
    r.state = reinterpret_cast<portshmem_proxy_ring_state_t*>(p);
    p += sizeof(portshmem_proxy_ring_state_t);
    r.reserve = counters_on_device ? set->device_counters_ + i : reinterpret_cast<std::uint64_t*>(p);
    p += kLine;
    r.slots = reinterpret_cast<portshmem_proxy_cmd_t*>(p);
    p += capacity * sizeof(portshmem_proxy_cmd_t);
    r.results = reinterpret_cast<portshmem_proxy_result_t*>(p);
    r.capacity = capacity;
    r.version = PORTSHMEM_PROXY_QUEUE_VERSION;
  }
  const std::size_t table_bytes = count * sizeof(portshmem_proxy_ring_t);
  if (hipMalloc(&set->device_table_, table_bytes) != hipSuccess ||
      hipMemcpy(set->device_table_, set->rings_.data(), table_bytes, hipMemcpyHostToDevice) != hipSuccess) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "could not place the proxy ring table in device memory");
  }
  *out = std::move(set);
  return PORTSHMEM_SUCCESS;
}

ring_set::~ring_set() {
  // Teardown frees what it can; a failing free has nothing left to protect.
  if (device_table_) (void)hipFree(device_table_);
  if (device_counters_) (void)hipFree(device_counters_);
  if (host_block_) (void)hipHostFree(host_block_);
}

} // namespace portshmem::rdma
