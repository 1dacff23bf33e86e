// What the expert-parallel workload's kernels (ep_kernels.hpp), their backends and the host side share: the launch
// arguments, the modes and phases, and the route record's size. Plain C++: no device or library header.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ep {

enum : int { kNormal = 0, kLowLatency = 1 };
enum : int { kDispatch = 0, kCombine = 1 };

/// A token's route record, as the normal mode's copies carry it: int32 token index on its source PE, 12 bytes of
/// padding, int32 expert[topk], float weight[topk]; records are route_bytes(topk) apart (a multiple of 16).
inline std::size_t route_bytes(int topk) {
  return (16 + 8 * std::size_t(topk) + 15) / 16 * 16;
}

/// The largest number of PEs (a token's destination set is a 64-bit mask).
inline constexpr int kMaxPes = 64;

/// One launch: one dispatch or one combine of one mode. Buffers marked symmetric are the same address on every PE;
/// units are 16 bytes (8 bf16). G is the number of waves in the grid, wave g = block x waves per block + wave.
/// Signal words hold (call << 32) | count, set once per call by one sender wave: they only grow.
struct ep_args {
  int mode, phase;
  int tokens;         ///< T: tokens per PE (the same on every PE)
  int units;          ///< 16-byte units per token: hidden / 8
  int experts;        ///< E: PE d hosts experts [E d / n, E (d + 1) / n)
  int topk;           ///< K
  int ll_cap;         ///< low-latency: slots per (local expert, source)
  std::uint64_t call; ///< this round's number, >= 1 (a round's dispatch and combine carry the same one)
  std::size_t route_bytes;
  const void* x;     ///< symmetric [T][units]: this PE's tokens, bf16
  const void* route; ///< symmetric [T] route records
  // normal mode
  void* n_data;          ///< symmetric [n sources][T][units]: source s's wave g writes its copies from slot lo(g) on
  void* n_meta;          ///< symmetric [n sources][T] route records, slot for slot with n_data
  void* n_stage;         ///< symmetric [n sources][T][units]: the expert stage's output for each received copy
  void* n_back;          ///< symmetric [T][n][units]: PE d's partial of token t at [t][d]
  std::uint64_t* n_dsig; ///< symmetric [G][n]: word g n + s, set by source s's wave g (count: copies it sent here)
  std::uint64_t* n_csig; ///< symmetric [G][n]: word g n + d, set by PE d's wave g (count: partials it sent here)
  // low-latency mode
  void* l_data;          ///< symmetric [max local experts][n sources][ll_cap][units]
  int* l_meta;           ///< symmetric [max local experts][n sources][ll_cap]: token x topk + k
  void* l_stage;         ///< symmetric, as l_data: the expert's output for each received copy
  void* l_back;          ///< symmetric [T][topk][units]: the output of the token's k-th expert at [t][k]
  std::uint64_t* l_dsig; ///< symmetric [max local experts][n]: word le n + s, set by source s (copies to expert le)
  std::uint64_t* l_csig; ///< symmetric [E]: word e, set by the PE hosting expert e (outputs it sent here)
  int* scratch;          ///< this PE's device memory, [G][wave size] ints: the dispatch scan's per-wave list
  void* out;             ///< symmetric [T][units]: the combined tokens, bf16
};

} // namespace ep
