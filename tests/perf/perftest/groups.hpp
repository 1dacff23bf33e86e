// The issuing groups in the kernels' terms, on top of the backend's pt::dev (the thread's place in the launch): a
// group's rank of the calling thread, its size, its barrier, and the groups of a grid. Included by device.hpp after
// the backend header.
#pragma once

#include <cstddef>

#include "programs.hpp"

namespace pt {

template <group G>
PT_DEVICE unsigned group_rank() {
  if constexpr (G == group::thread) return 0;
  if constexpr (G == group::warp) return dev::thread_rank() % dev::wave_size();
  if constexpr (G == group::block) return dev::thread_rank();
}

template <group G>
PT_DEVICE unsigned group_size() {
  if constexpr (G == group::thread) return 1;
  if constexpr (G == group::warp) return dev::wave_size(); // the host checks that -t is a multiple of it
  if constexpr (G == group::block) return dev::block_threads();
}

template <group G>
PT_DEVICE void group_sync() {
  if constexpr (G == group::warp) dev::wave_sync();
  if constexpr (G == group::block) dev::block_sync();
}

/// The calling thread's group in the grid, counted block by block.
template <group G>
PT_DEVICE std::size_t grid_group() {
  const std::size_t per_block = dev::block_threads() / group_size<G>();
  return std::size_t(dev::block_rank()) * per_block + dev::thread_rank() / group_size<G>();
}

template <group G>
PT_DEVICE std::size_t grid_groups() {
  return std::size_t(dev::grid_blocks()) * (dev::block_threads() / group_size<G>());
}

/// The calling thread's rank in the grid and the grid's threads.
PT_DEVICE std::size_t grid_thread() {
  return std::size_t(dev::block_rank()) * dev::block_threads() + dev::thread_rank();
}
PT_DEVICE std::size_t grid_threads() {
  return std::size_t(dev::grid_blocks()) * dev::block_threads();
}

} // namespace pt
