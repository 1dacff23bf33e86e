// The NVSHMEM backend of the fused GEMM + communication workload's kernels (gemm_kernels.hpp): the same members as the
// portshmem policies (backend_portshmem.hpp), each one NVSHMEM device call with its own (OpenSHMEM) semantics, so the
// kernels compile unchanged against NVSHMEM and the NVSHMEM run executes the same structure as the strict and relaxed
// ones. Written from NVSHMEM's API documentation; built only for the nvidia platform when PORTSHMEM_NVSHMEM_HOME names
// an install (relocatable device code). Included by nvshmem_side.cu only.
#pragma once

#include <cstddef>
#include <cstdint>

#include <nvshmem.h>
#include <nvshmemx.h>

#include "../common/cuda_thread.hpp"

#include "gemm_args.hpp"

namespace gemm {

namespace dev = workloads::cuda_thread;

/// NVSHMEM has no qualifiers: its put-with-signal orders the signal after the call's data, its waits acquire, its
/// quiet completes everything (OpenSHMEM 1.5 semantics; NVSHMEM's scopes are not part of the API).
struct nvshmem_policy {
  int me, n;
  static constexpr const char* name = "nvshmem";

  WL_DEVICE int my_pe() const { return me; }
  WL_DEVICE int n_pes() const { return n; }

  WL_DEVICE void put_signal(void* d, const void* s, std::size_t bytes, std::uint64_t* sig, int pe) const {
    nvshmemx_putmem_signal_nbi_block(d, s, bytes, sig, 1, NVSHMEM_SIGNAL_ADD, pe);
  }
  WL_DEVICE void wait(std::uint64_t* words, std::size_t count, std::uint64_t t) const {
    for (std::size_t i = 0; i < count; ++i) nvshmem_signal_wait_until(words + i, NVSHMEM_CMP_GE, t);
  }
  WL_DEVICE void quiet() const { nvshmem_quiet(); }
};

} // namespace gemm
