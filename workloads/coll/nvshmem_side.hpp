// The NVSHMEM part of coll_workload (nvshmem_side.cu, built only for the nvidia platform with PORTSHMEM_NVSHMEM_HOME):
// the workload's kernel with the NVSHMEM backend (backend_nvshmem.hpp) and NVSHMEM's own collectives, on NVSHMEM's
// symmetric heap, in the same process as portshmem. This header is plain C++: the program calls it without seeing
// an NVSHMEM header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "coll_host.hpp"

namespace wl::nv {

/// Starts NVSHMEM on MPI_COMM_WORLD (MPI is already initialized) and allocates its symmetric buffers: src and dest of
/// buf_bytes each, the one-shot and two-shot scratch, the signal words of `blocks` blocks (zeroed). False, with the
/// reason in why, when it cannot (every PE then skips the NVSHMEM variants: the result is agreed over MPI).
bool init(std::size_t buf_bytes, std::size_t one_bytes, std::size_t two_bytes, unsigned blocks, std::string& why);
/// NVSHMEM's version string.
std::string version();
/// Copies bytes of host memory to this PE's src; false on a runtime error.
bool upload(const void* host, std::size_t bytes);
/// Fills this PE's dest with 0xFF bytes (a NaN in either type), then waits for the device.
bool guard(std::size_t bytes);
/// Copies this PE's dest to host memory.
bool download(void* host, std::size_t bytes);
/// nvshmem_barrier_all.
void barrier();
/// One launch of `iters` calls of variant v (nvshmem: the workload kernel; nvshmem_coll: NVSHMEM's collective on one
/// block), timed with events: its time in ms, or a negative number on a failure (reported on stderr).
double launch(variant v, op k, dtype t, const shape& s, int iters, std::size_t one_slot, std::size_t two_slot,
              unsigned blocks, unsigned threads, std::uint64_t epoch);
/// Frees the buffers and finalizes NVSHMEM.
void finalize();

} // namespace wl::nv
