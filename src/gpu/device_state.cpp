// Builds the device handle from the runtime's host-side state. Written once for every platform: gpu_runtime.hpp gives
// the host platform the same allocation calls over ordinary memory.
#include "gpu/device_state.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "log.hpp"
#include "portshmem/detail/internal_area.hpp"
#include "portshmem/gpu_runtime.hpp"

namespace portshmem::detail {

namespace {

/// Where each PE runs, for the debug checks of device- and node-scoped calls: node * 65536 + the lowest PE of that
/// node on the same GPU. GPUs are told apart by PCI bus id, not by ordinal: with a per-rank CUDA_VISIBLE_DEVICES
/// every PE sees its GPU as device 0, and ordinals would put PEs of different GPUs on one device.
portshmem_status_t gather_placement(runtime& rt, std::vector<std::int32_t>& places) {
  constexpr std::size_t kBusIdBytes = 32;
  char bus_id[kBusIdBytes] = "host"; // the host platform: one "device" per node
  if (rt.heap->device() >= 0 && hipDeviceGetPCIBusId(bus_id, int(kBusIdBytes), rt.heap->device()) != hipSuccess) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "could not read the PCI bus id of GPU %d", rt.heap->device());
  }
  const std::size_t n = std::size_t(rt.boot->size());
  std::vector<char> bus_ids(n * kBusIdBytes);
  if (auto s = rt.boot->allgather(bus_id, bus_ids.data(), kBusIdBytes); s != PORTSHMEM_SUCCESS) return s;
  const auto& node_of = rt.boot->node_of();
  places.assign(n, 0);
  for (std::size_t pe = 0; pe < n; ++pe) {
    std::size_t first = 0;
    while (node_of[first] != node_of[pe] ||
           std::strncmp(&bus_ids[first * kBusIdBytes], &bus_ids[pe * kBusIdBytes], kBusIdBytes) != 0) {
      ++first; // ends at pe itself at the latest
    }
    places[pe] = std::int32_t(node_of[pe]) * 65536 + std::int32_t(first);
  }
  return PORTSHMEM_SUCCESS;
}

} // namespace

/// Copies the placement table to device memory and allocates the host-visible error record.
portshmem_status_t build_device_handle(runtime& rt) {
  std::vector<std::int32_t> places;
  if (auto s = gather_placement(rt, places); s != PORTSHMEM_SUCCESS) return s;
  const std::size_t place_bytes = places.size() * sizeof(std::int32_t);
  std::int32_t* place_table = nullptr;
  if (hipMalloc(&place_table, place_bytes) != hipSuccess ||
      hipMemcpy(place_table, places.data(), place_bytes, hipMemcpyHostToDevice) != hipSuccess) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "could not place the PE placement table in device memory");
  }
  rt.device_pe_device = place_table;
  portshmem_device_error_t* record = nullptr;
  if (hipHostMalloc(&record, sizeof *record, 0) != hipSuccess) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "could not allocate the host-visible device error record");
  }
  std::memset(record, 0, sizeof *record);
  rt.device_error = record;
  rt.ctx.my_pe = rt.boot->rank();
  rt.ctx.n_pes = rt.boot->size();
  // The handle's heap is the part allocations come from: the reserved areas at both ends lie outside it, so the
  // device's range check refuses them at no cost (portshmem/ctx.h; the runtime reaches them from the heap start).
  rt.ctx.heap = rt.heap->local() + kInternalHeapBytes;
  rt.ctx.heap_size =
      rt.cfg.heap_size - kInternalHeapBytes - team_area_bytes(rt.boot->size(), rt.cfg.max_teams, rt.cfg.team_scratch);
  rt.ctx.error = rt.device_error;
  rt.ctx.pe_device = rt.device_pe_device;
  rt.ctx.timeout_ns = rt.cfg.timeout_ns;
  return PORTSHMEM_SUCCESS;
}

void release_device_handle(runtime& rt) {
  // Teardown frees what it can; a failing free has nothing left to protect, so its status is dropped on purpose.
  if (rt.device_error) (void)hipHostFree(rt.device_error);
  if (rt.device_pe_device) (void)hipFree(const_cast<std::int32_t*>(rt.device_pe_device));
  rt.device_pe_device = nullptr;
  rt.device_error = nullptr;
}

} // namespace portshmem::detail
