// The MPI one-sided network: a window over each PE's symmetric heap (MPI_Win_create, passive target with
// MPI_Win_lock_all), MPI_Put/MPI_Get/MPI_Accumulate/MPI_Fetch_and_op/MPI_Compare_and_swap, and MPI_Win_flush(_all)
// for ordering and completion. The portable network, and the one CI runs.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>

#include "rdma/network.hpp"

namespace portshmem::rdma {

/// Whether local buffers (put sources, get destinations) go through pinned host buffers.
enum class staging { automatic, never, always };

struct mpi_network_options {
  MPI_Comm comm = MPI_COMM_WORLD; ///< the PEs, in PE order (duplicated for the window)
  void* base = nullptr;           ///< this PE's symmetric heap; every PE's has the same size
  std::size_t size = 0;
  int thread_level = -1;              ///< what MPI provides; -1: MPI_Query_thread (tests pass a level to see a refusal)
  bool heap_on_gpu = false;           ///< the heap is GPU memory (nvidia and amd platforms)
  bool locals_on_gpu = false;         ///< put sources and get destinations may be GPU memory
  staging stage = staging::automatic; ///< automatic: stage when locals_on_gpu and MPI is not GPU-aware
  std::size_t bounce_bytes = std::size_t(4) << 20; ///< pinned memory for operands and staged pieces (at least 4 KiB)
};

/// What this MPI says about GPU memory in its calls, and how it was learned (for logs).
struct gpu_awareness {
  bool aware = false;
  std::string how; ///< "MPIX_Query_cuda_support() returned 1", "mpi-ext.h declares no MPIX_Query_cuda_support", ...
};

/// Asks the MPI library whether it takes GPU pointers (Open MPI's MPIX_Query_cuda_support / _rocm_support).
gpu_awareness query_gpu_awareness();

/// Collective over options.comm: every PE gets a network or every PE gets an error. Refused (PORTSHMEM_ERR_BOOTSTRAP)
/// when MPI provides less than MPI_THREAD_MULTIPLE (the proxy thread calls MPI while the application's threads may
/// too), when the window's memory model is not MPI_WIN_UNIFIED (device code reads the heap without MPI_Win_sync), and
/// when the heap is GPU memory that this MPI cannot take. The network must be destroyed on every PE together (its
/// window is freed collectively), before MPI_Finalize.
portshmem_status_t make_mpi_network(const mpi_network_options& options, std::unique_ptr<network>* out);

/// The name of an MPI thread level ("MPI_THREAD_SERIALIZED").
const char* mpi_thread_level_name(int level);

} // namespace portshmem::rdma
