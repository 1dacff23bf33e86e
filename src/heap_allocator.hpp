// Offset allocator behind the symmetric heap: it hands out ranges of [0, capacity) and touches no memory.
#pragma once

#include <cstddef>
#include <map>
#include <optional>

namespace portshmem::detail {

/// Deterministic first-fit allocator over offsets; every PE that runs the same calls gets the same offsets,
/// which is what makes the heap symmetric. Not thread-safe: the runtime serializes collective allocation.
class heap_allocator {
 public:
  /// Manages offsets [0, capacity), all free.
  explicit heap_allocator(std::size_t capacity) : heap_allocator(0, capacity) {}
  /// Manages offsets [begin, end), all free; offsets below begin (a reserved front) are never handed out, so an
  /// offset's alignment stays a property of the offset itself. Nothing is managed when end <= begin.
  heap_allocator(std::size_t begin, std::size_t end);

  /// True when alignment is a power of two (1, 2, 4, ...), the only alignments allocate() accepts.
  static bool valid_alignment(std::size_t alignment) { return alignment != 0 && (alignment & (alignment - 1)) == 0; }

  /// Returns the lowest offset, aligned to alignment, of a free range of size bytes, and marks it live; nullopt
  /// (and no change) when size is 0, alignment is not a power of two, or no free range fits.
  std::optional<std::size_t> allocate(std::size_t size, std::size_t alignment);

  /// Frees the live block starting at offset; false (and no change) when offset is not the start of a live block.
  bool release(std::size_t offset);

  /// Size of the live block starting at offset; nullopt when offset is not the start of a live block.
  std::optional<std::size_t> block_size(std::size_t offset) const;

  /// Start of the live block that contains offset (its first byte included); nullopt when offset is in no live block.
  std::optional<std::size_t> block_containing(std::size_t offset) const;

  /// First offset managed (0, or the end of the reserved front).
  std::size_t begin() const { return begin_; }
  /// Bytes managed: end - begin as given to the constructor.
  std::size_t capacity() const { return capacity_; }
  /// Sum of the sizes of live blocks (alignment padding is not counted: it stays free).
  std::size_t bytes_in_use() const { return in_use_; }
  /// Size of the largest free range; an allocation of this size with alignment 1 succeeds.
  std::size_t largest_free() const;
  /// Number of live blocks.
  std::size_t live_blocks() const { return live_.size(); }
  /// The live blocks, start offset -> size, in address order.
  const std::map<std::size_t, std::size_t>& live() const { return live_; }
  /// Number of maximal free ranges (1 for an empty heap, more when fragmented).
  std::size_t free_ranges() const { return free_.size(); }

 private:
  std::size_t begin_;
  std::size_t capacity_;
  std::size_t in_use_ = 0;
  // Free ranges by start offset -> length; never empty-length, never adjacent (they coalesce on release).
  std::map<std::size_t, std::size_t> free_;
  // Live blocks by start offset -> size.
  std::map<std::size_t, std::size_t> live_;
};

} // namespace portshmem::detail
