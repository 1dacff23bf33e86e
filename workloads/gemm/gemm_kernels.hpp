// The fused GEMM + communication workload's communication kernels, written once against a backend policy P
// (backend_portshmem.hpp: strict and relaxed; backend_nvshmem.hpp: NVSHMEM) and instantiated once per policy. The
// GEMM itself is not here: the program calls the vendor BLAS (cuBLAS) per row chunk on its GEMM stream, or on the host
// platform a plain reference loop. Nothing here names a library: the policy makes every communication call.
//
// Two kernels:
//   put_kernel   the sender side of both patterns. Each step (gemm_args.hpp) is one row chunk of one block of rows to
//                one peer, split into `slices` slices by 16-byte units: block b < slices puts slice b with a
//                put-with-signal that adds 1 to the chunk's word on the peer, so the word grows by `slices` per
//                iteration and the receiver waits for the full count. Every block takes the steps in the same order,
//                so the chunks leave (and arrive) in step order: the one the receiver's GEMM (all-gather) or reduction
//                (reduce-scatter) needs first goes first. All-gather: one launch per iteration sends every step on the
//                communication stream, started with the iteration. Reduce-scatter: one launch per step, on the
//                communication stream once the step's GEMM has ended (an event), so the next chunk's GEMM overlaps
//                it. Each thread quiets at the end of the launch (the nbi puts' sources may change afterwards).
//   wait_kernel  one thread, on the stream of the work that reads what the words announce: it returns once every
//                word named holds the iteration's count. The kernel that follows it on that stream (cuBLAS reading the
//                gathered rows; the reduction reading a receive slot) starts only after it ended.
//
// Signal words only grow: each (source, chunk) word gets `slices` adds per iteration from one source PE, and the host
// passes the running total as the target, so iterations and shapes follow each other with nothing reset. Buffers are
// rewritten only after a host barrier (the program synchronizes every PE between iterations), so no reuse argument is
// needed inside an iteration: every destination range is written once per iteration.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gemm_args.hpp"

namespace gemm {

template <class P>
WL_GLOBAL void put_kernel(P pol, put_args a) {
  const int me = pol.my_pe(), n = pol.n_pes();
  const int b = int(dev::block_rank());
  if (b < a.slices) {
    for (int s = a.first; s < a.first + a.count; ++s) {
      const int d = 1 + s / a.chunks, c = s % a.chunks;
      const int pe = ((me + a.toward * d) % n + n) % n;
      const int lo = chunk_lo(a.rows, a.chunks, c), hi = chunk_lo(a.rows, a.chunks, c + 1);
      const std::size_t units = std::size_t(hi - lo) * a.row_bytes / 16;
      const std::size_t u0 = units * std::size_t(b) / std::size_t(a.slices);
      const std::size_t u1 = units * std::size_t(b + 1) / std::size_t(a.slices);
      const std::size_t at = std::size_t(lo) * a.row_bytes + u0 * 16;
      pol.put_signal(a.dst + std::size_t(me) * std::size_t(a.rows) * a.row_bytes + at,
                     a.src + std::size_t(pe) * a.src_block + at, (u1 - u0) * 16,
                     a.words + std::size_t(me) * std::size_t(a.chunks) + std::size_t(c), pe);
    }
  }
  pol.quiet();
}

template <class P>
WL_GLOBAL void wait_kernel(P pol, wait_args w) {
  if (dev::thread_rank() != 0 || dev::block_rank() != 0) return;
  if (w.src >= 0) {
    pol.wait(w.words + std::size_t(w.src) * std::size_t(w.chunks) + std::size_t(w.c0), std::size_t(w.nc), w.target);
    return;
  }
  const int me = pol.my_pe(), n = pol.n_pes();
  for (int d = 1; d < n; ++d)
    pol.wait(w.words + std::size_t((me + d) % n) * std::size_t(w.chunks), std::size_t(w.chunks), w.target);
}

} // namespace gemm
