// What the collective workload's kernels (coll_kernels.hpp), their backends and the host side share: the launch
// arguments and the names of the algorithms, signal sets and issuing groups. Plain C++: no device or library header.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wl {

/// What one launch works on: symmetric buffers (the same address names every PE's copy) and the sizes.
struct coll_args {
  const void* src;    ///< allreduce: `bytes`; alltoall: n blocks of `bytes`, block j for PE j
  void* dest;         ///< as src
  void* one;          ///< one-shot scratch: [2 halves][n senders][one_slot bytes]
  void* two;          ///< two-shot scratch: [n senders][two_slot bytes]
  std::uint64_t* sig; ///< signal words, zero at allocation: [kSigSets][blocks][n senders]
  std::size_t bytes;  ///< allreduce: each PE's buffer; alltoall: one block (per peer)
  std::size_t one_slot, two_slot;
  std::uint64_t epoch; ///< calls made on this launch's signal set(s) before it, the same on every PE
  int iters;           ///< calls in this launch
  int algo;            ///< allreduce: kOneShot or kTwoShot (alltoall: ignored)
};

enum : int { kOneShot = 0, kTwoShot = 1 };
/// Signal sets: one-shot, two-shot reduce-scatter, two-shot all-gather, alltoall.
enum : int { kSigOne = 0, kSigRs = 1, kSigAg = 2, kSigA2a = 3, kSigSets = 4 };

/// The group that makes one put-with-signal: a wave (warp) or the whole block.
enum class grp { wave, block };

/// Scratch slots: the one-shot slot holds a whole buffer, the two-shot slot the largest slice (n slices of 16-byte
/// units, the first ones one unit smaller when n does not divide the units).
inline std::size_t two_shot_slot(std::size_t bytes, int n) {
  const std::size_t units = bytes / 16;
  return (units + std::size_t(n) - 1) / std::size_t(n) * 16;
}

} // namespace wl
