#include "heap_allocator.hpp"

#include <algorithm>
#include <iterator>

namespace portshmem::detail {

heap_allocator::heap_allocator(std::size_t begin, std::size_t end)
    : begin_(begin), capacity_(end > begin ? end - begin : 0) {
  if (capacity_ != 0) free_.emplace(begin_, capacity_);
}

std::optional<std::size_t> heap_allocator::allocate(std::size_t size, std::size_t alignment) {
  if (size == 0 || !valid_alignment(alignment) || size > capacity_) return std::nullopt;
  // Address order (not best fit) keeps the result a pure function of the call sequence and packs the heap low.
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const std::size_t start = it->first;
    const std::size_t length = it->second;
    // Padding computed from the remainder, never as start + alignment - 1, so offsets near SIZE_MAX cannot wrap.
    const std::size_t pad = (alignment - start % alignment) % alignment;
    if (pad > length || size > length - pad) continue;

    const std::size_t offset = start + pad;
    const std::size_t tail = length - pad - size;
    // The front padding stays a free range of its own, so a later small or less-aligned request can use it.
    if (pad == 0) {
      free_.erase(it);
    } else {
      it->second = pad;
    }
    if (tail != 0) free_.emplace(offset + size, tail);
    live_.emplace(offset, size);
    in_use_ += size;
    return offset;
  }
  return std::nullopt;
}

bool heap_allocator::release(std::size_t offset) {
  const auto live = live_.find(offset);
  if (live == live_.end()) return false;
  std::size_t start = offset;
  std::size_t length = live->second;
  in_use_ -= length;
  live_.erase(live);

  // Merge with the free range that ends exactly at our start, then with the one that begins at our end.
  auto next = free_.lower_bound(start);
  if (next != free_.begin()) {
    const auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      length += prev->second;
      free_.erase(prev);
    }
  }
  if (next != free_.end() && start + length == next->first) {
    length += next->second;
    next = free_.erase(next);
  }
  free_.emplace_hint(next, start, length);
  return true;
}

std::optional<std::size_t> heap_allocator::block_size(std::size_t offset) const {
  const auto live = live_.find(offset);
  if (live == live_.end()) return std::nullopt;
  return live->second;
}

std::optional<std::size_t> heap_allocator::block_containing(std::size_t offset) const {
  auto after = live_.upper_bound(offset); // the first block starting past offset; the one before may hold it
  if (after == live_.begin()) return std::nullopt;
  const auto block = std::prev(after);
  if (offset - block->first >= block->second) return std::nullopt;
  return block->first;
}

std::size_t heap_allocator::largest_free() const {
  std::size_t largest = 0;
  for (const auto& [start, length] : free_) largest = std::max(largest, length);
  return largest;
}

} // namespace portshmem::detail
