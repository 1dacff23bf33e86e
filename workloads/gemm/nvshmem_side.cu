// The NVSHMEM form of gemm_workload (nvshmem_side.hpp): the workload's put and wait kernels with nvshmem_policy, on
// NVSHMEM's symmetric heap. Started after portshmem in the same process, on the device portshmem chose, over
// MPI_COMM_WORLD. The kernels are launched with <<<>>> on the program's streams: neither waits for another PE's
// blocks to be resident (the put kernel waits for nothing, the wait kernel is one thread), so nothing needs
// nvshmemx_collective_launch's co-residency check.
#include "nvshmem_side.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <cuda_runtime.h>

#include "../common/nvshmem_start.cuh"
#include "backend_nvshmem.hpp"
#include "gemm_kernels.hpp"

namespace gemm::nv {

namespace {

struct state {
  void *gathered = nullptr, *recv = nullptr;
  std::uint64_t* words = nullptr;
} g;

bool ok(cudaError_t e, const char* what) {
  return workloads::nvshmem_start::ok("gemm_workload", e, what);
}

nvshmem_policy policy() {
  return nvshmem_policy{nvshmem_my_pe(), nvshmem_n_pes()};
}

} // namespace

bool init(std::size_t gathered_bytes, std::size_t recv_bytes, std::size_t words, void** gathered, void** recv,
          std::uint64_t** word_base, std::string& why) {
  // The heap holds the buffers and room for NVSHMEM's own allocations; only unless already set.
  const std::size_t heap = gathered_bytes + recv_bytes + words * 8 + (std::size_t(256) << 20);
  if (!workloads::nvshmem_start::start(heap, why)) return false;
  g.gathered = nvshmem_malloc(gathered_bytes);
  g.recv = nvshmem_malloc(recv_bytes);
  g.words = static_cast<std::uint64_t*>(nvshmem_malloc(words * 8));
  if (!g.gathered || !g.recv || !g.words) {
    why = "nvshmem_malloc failed (NVSHMEM_SYMMETRIC_SIZE)";
    return false;
  }
  if (!ok(cudaMemset(g.words, 0, words * 8), "cudaMemset") || !ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize")) {
    why = "a CUDA call failed";
    return false;
  }
  nvshmem_barrier_all();
  *gathered = g.gathered;
  *recv = g.recv;
  *word_base = g.words;
  return true;
}

std::string version() {
  return workloads::nvshmem_start::version();
}

unsigned max_threads() {
  cudaFuncAttributes attr{};
  if (!ok(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(put_kernel<nvshmem_policy>)),
          "cudaFuncGetAttributes"))
    return 0;
  return unsigned(attr.maxThreadsPerBlock);
}

void barrier() {
  nvshmem_barrier_all();
}

bool put(void* stream, const put_args& a, unsigned blocks, unsigned threads) {
  put_kernel<nvshmem_policy><<<blocks, threads, 0, static_cast<cudaStream_t>(stream)>>>(policy(), a);
  return ok(cudaGetLastError(), "the put kernel's launch");
}

bool wait(void* stream, const wait_args& w) {
  wait_kernel<nvshmem_policy><<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(policy(), w);
  return ok(cudaGetLastError(), "the wait kernel's launch");
}

void finalize() {
  nvshmem_barrier_all();
  nvshmem_free(g.words);
  nvshmem_free(g.recv);
  nvshmem_free(g.gathered);
  nvshmem_finalize();
}

} // namespace gemm::nv
