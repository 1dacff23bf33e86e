// What the fused GEMM + communication workload's kernels (gemm_kernels.hpp), their backends and the host side share:
// the arguments of the put and wait launches and the chunking rule. Plain C++: no device or library header.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gemm {

/// One launch of the put kernel: `count` steps from `first`, each a row chunk of one block of rows sent to one peer.
/// Step s is peer distance d = 1 + s / chunks and chunk c = s % chunks; the peer is me - d (all-gather: PE me - d
/// needs this PE's shard d-th, after its own and the d - 1 before) or me + d (reduce-scatter: row block me + d first,
/// this PE's own last), mod n. Chunk c of a block is its rows [lo(c), lo(c + 1)).
struct put_args {
  const unsigned char* src; ///< all-gather: this PE's shard (rows x row_bytes); reduce-scatter: the partial C, n blocks
  std::size_t src_block;    ///< bytes between the blocks of src that go to different peers (0: the same block for all)
  unsigned char* dst;       ///< symmetric: [n sources][rows x row_bytes]; this PE writes block me of each peer's copy
  std::uint64_t* words;     ///< symmetric: [n sources][chunks] signal words (counters); this PE adds to row me
  std::size_t row_bytes;    ///< bytes of one row (a multiple of 16)
  int rows;                 ///< rows of a block (a shard, or one PE's row block of C)
  int chunks;               ///< chunks of a block
  int slices;               ///< puts per chunk: blocks 0 .. slices - 1 each put one slice and add 1 to the word
  int first, count;         ///< the steps of this launch
  int toward;               ///< -1: step d goes to PE me - d (all-gather); +1: to me + d (reduce-scatter)
};

/// One launch of the wait kernel (one thread): until every word named is >= target, then the launch ends.
/// src >= 0: the words [src][c0, c0 + nc); src < 0: every peer's whole row of words.
struct wait_args {
  std::uint64_t* words; ///< symmetric [n sources][chunks]
  int chunks;
  int src, c0, nc;
  std::uint64_t target;
};

// chunk_lo is the kernels' and the host's alike: host-device where a GPU compiler reads this header.
#if defined(__CUDACC__) || defined(__HIP__)
#define GEMM_HOST_DEVICE __host__ __device__
#else
#define GEMM_HOST_DEVICE
#endif

/// First row of chunk c of a block of `rows` rows in `chunks` chunks (chunks as even as they go).
inline GEMM_HOST_DEVICE int chunk_lo(int rows, int chunks, int c) {
  return int(static_cast<long long>(rows) * c / chunks);
}

} // namespace gemm
