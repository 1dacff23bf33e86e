// The NVSHMEM backend of the expert-parallel workload's kernel (ep_kernels.hpp): the same members as the portshmem
// policies (backend_portshmem.hpp), each one NVSHMEM device call with its own (OpenSHMEM) semantics, so the kernel
// compiles unchanged against NVSHMEM and the NVSHMEM run executes the same kernel structure as the strict and relaxed
// ones. Written from NVSHMEM's API documentation; built only for the nvidia platform when PORTSHMEM_NVSHMEM_HOME names
// an install (relocatable device code). Included by nvshmem_side.cu only.
#pragma once

#include <cstddef>
#include <cstdint>

#include <nvshmem.h>
#include <nvshmemx.h>

#include "../common/cuda_thread.hpp"

#include "ep_args.hpp"

namespace ep {

namespace dev = workloads::cuda_thread;

/// NVSHMEM has no qualifiers: its fence orders every earlier put, p and signal toward a PE before the later ones, its
/// waits acquire, its quiet completes everything (OpenSHMEM 1.5 semantics; NVSHMEM's scopes are not part of the API).
struct nvshmem_policy {
  int me, n;
  static constexpr const char* name = "nvshmem";

  WL_DEVICE int my_pe() const { return me; }
  WL_DEVICE int n_pes() const { return n; }

  WL_DEVICE void put(void* d, const void* s, std::size_t bytes, int pe) const {
    nvshmemx_putmem_nbi_warp(d, s, bytes, pe);
  }
  WL_DEVICE void put_int(int* d, int v, int pe) const { nvshmem_int_p(d, v, pe); }
  WL_DEVICE void fence() const { nvshmem_fence(); }
  WL_DEVICE void signal(std::uint64_t* sig, std::uint64_t v, int pe) const {
    nvshmemx_signal_op(sig, v, NVSHMEM_SIGNAL_SET, pe);
  }
  WL_DEVICE void wait_data(std::uint64_t* words, std::size_t count, std::uint64_t v) const {
    for (std::size_t i = 0; i < count; ++i) nvshmem_signal_wait_until(words + i, NVSHMEM_CMP_GE, v);
  }
  WL_DEVICE std::uint64_t fetch(const std::uint64_t* word) const {
    return nvshmem_signal_fetch(const_cast<std::uint64_t*>(word)); // (const or not, by NVSHMEM version)
  }
  WL_DEVICE void quiet() const { nvshmem_quiet(); }
};

} // namespace ep
