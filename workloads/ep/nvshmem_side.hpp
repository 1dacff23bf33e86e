// The NVSHMEM part of ep_workload (nvshmem_side.cu, built only for the nvidia platform with PORTSHMEM_NVSHMEM_HOME):
// the workload's kernel with the NVSHMEM backend (backend_nvshmem.hpp), on NVSHMEM's symmetric heap, in the same
// process as portshmem. The program lays out and fills the buffers itself (plain device pointers); this header is
// plain C++: the program calls it without seeing an NVSHMEM header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ep_args.hpp"

namespace ep::nv {

/// Starts NVSHMEM on MPI_COMM_WORLD (MPI is already initialized) and allocates one symmetric block of data_bytes and
/// `words` signal words (zeroed). False, with the reason in why, when it cannot (every PE then skips the NVSHMEM
/// variant: the program agrees on it over MPI).
bool init(std::size_t data_bytes, std::size_t words, void** data, std::uint64_t** word_base, std::string& why);
/// NVSHMEM's version string.
std::string version();
/// The most threads a block of the NVSHMEM kernel can have.
unsigned max_threads();
/// nvshmem_barrier_all.
void barrier();
/// Launches the kernel with nvshmem_policy (nvshmemx_collective_launch, stream 0); false on a failure (reported on
/// stderr). The caller times it with events on stream 0.
bool launch(const ep_args& a, unsigned blocks, unsigned threads);
/// Frees the buffers and finalizes NVSHMEM.
void finalize();

} // namespace ep::nv
