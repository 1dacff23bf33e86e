// The NVSHMEM part of gemm_workload (nvshmem_side.cu, built only for the nvidia platform with PORTSHMEM_NVSHMEM_HOME):
// the workload's put and wait kernels with the NVSHMEM backend (backend_nvshmem.hpp), on NVSHMEM's symmetric heap, in
// the same process as portshmem. The program runs the iteration itself (its cuBLAS calls, streams, events and
// reductions are the same for every variant) and calls these for the communication; this header is plain C++: the
// program calls it without seeing an NVSHMEM header. Streams are passed as void* (a cudaStream_t).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "gemm_args.hpp"

namespace gemm::nv {

/// Starts NVSHMEM on MPI_COMM_WORLD (MPI is already initialized) and allocates its symmetric buffers: the gathered A
/// (ag) and the receive slots (rs) of the given sizes and `words` signal words (zeroed). False, with the reason in
/// why, when it cannot (every PE then skips the NVSHMEM form: the program agrees on it over MPI).
bool init(std::size_t gathered_bytes, std::size_t recv_bytes, std::size_t words, void** gathered, void** recv,
          std::uint64_t** word_base, std::string& why);
/// NVSHMEM's version string.
std::string version();
/// The most threads a block of the NVSHMEM put kernel can have.
unsigned max_threads();
/// nvshmem_barrier_all.
void barrier();
/// Enqueues the put kernel (blocks x threads) / the one-thread wait kernel on `stream`; false on a launch error
/// (reported on stderr).
bool put(void* stream, const put_args& a, unsigned blocks, unsigned threads);
bool wait(void* stream, const wait_args& w);
/// Frees the buffers and finalizes NVSHMEM.
void finalize();

} // namespace gemm::nv
