// The state portshmem_init builds and every host call reads: one per process.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "bootstrap.hpp"
#include "env.hpp"
#include "heap_allocator.hpp"
#include "heap_backend.hpp"
#include "portshmem/portshmem.h"
#include "team_table.hpp"
#include "transport.hpp"

namespace portshmem::detail {

struct runtime {
  config cfg;
  std::unique_ptr<bootstrap> boot;
  std::unique_ptr<heap_backend> heap;
  std::vector<char*> peer_heaps;                 // mapped heaps of the PEs the load/store transport serves
  std::vector<portshmem_transport_t> transports; // per PE
  std::vector<std::unique_ptr<transport>> links; // the transports serving this PE's peers (src/transport.hpp)
  heap_allocator allocator{0};                   // offsets between the internal area and the team area
  int allocation_table = 0;                      // the allocation table device code reads, 1 or 2; 0: none
  bool allocation_table_full_said = false;       // the line that the table cannot hold every block was logged
  // The live blocks (heap offset, size) as last published, for the report of a bad device call; own mutex, since the
  // report runs inside calls that hold `mutex` (portshmem_free's barrier) and in calls that do not.
  std::vector<std::pair<std::size_t, std::size_t>> published_blocks;
  std::mutex published_mutex;
  team_table teams;                                 // the teams this PE belongs to (src/team.cpp)
  const std::int32_t* device_pe_device = nullptr;   // where each PE runs, in device memory
  portshmem_device_error_t* device_error = nullptr; // host-visible record device code writes
  portshmem_ctx_t ctx{};
  std::mutex mutex; // host calls may come from several threads; collectives must still be made in one order
};

/// The live runtime, or nullptr before init / after finalize.
runtime* current();

/// Whether device code of this PE recorded a wait that timed out (its kernel was stopped); clears nothing.
bool device_wait_timed_out(const runtime& rt);

/// Sets this thread's portshmem_last_status and returns it.
portshmem_status_t set_last_status(portshmem_status_t s);

/// Writes the live allocations into the heap's internal area, where debug-check builds of device code look ranges up
/// (detail/internal_area.hpp); at init and after every allocation and free. Local to this PE (every PE's allocator
/// is the same). Fails only when the copy to the device fails.
portshmem_status_t publish_allocations(runtime& rt);

} // namespace portshmem::detail
