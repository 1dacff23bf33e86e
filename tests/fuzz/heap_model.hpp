// The heap allocator's contract written the slow, obvious way: live blocks in a map, free space derived as the gaps
// between them. The fuzz driver runs both side by side and compares every answer.
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>

namespace fuzz {

class heap_model {
 public:
  heap_model(std::size_t begin, std::size_t end) : begin_(begin), end_(end > begin ? end : begin) {}

  std::size_t begin() const { return begin_; }
  std::size_t end() const { return end_; }
  const std::map<std::size_t, std::size_t>& live() const { return live_; }

  /// The lowest offset aligned to alignment where size bytes fit in one gap (first fit in address order).
  std::optional<std::size_t> first_fit(std::size_t size, std::size_t alignment) const {
    if (size == 0 || alignment == 0 || (alignment & (alignment - 1)) != 0) return std::nullopt;
    std::optional<std::size_t> found;
    for_each_gap([&](std::size_t start, std::size_t length) {
      if (found) return;
      const std::size_t pad = (alignment - start % alignment) % alignment;
      if (pad <= length && size <= length - pad) found = start + pad;
    });
    return found;
  }

  void add(std::size_t offset, std::size_t size) {
    live_.emplace(offset, size);
    in_use_ += size;
  }

  bool remove(std::size_t offset) {
    const auto it = live_.find(offset);
    if (it == live_.end()) return false;
    in_use_ -= it->second;
    live_.erase(it);
    return true;
  }

  std::optional<std::size_t> containing(std::size_t offset) const {
    for (const auto& [start, size] : live_)
      if (offset >= start && offset - start < size) return start;
    return std::nullopt;
  }

  std::size_t in_use() const { return in_use_; }

  std::size_t gaps() const {
    std::size_t count = 0;
    for_each_gap([&](std::size_t, std::size_t) { ++count; });
    return count;
  }

  std::size_t largest_gap() const {
    std::size_t largest = 0;
    for_each_gap([&](std::size_t, std::size_t length) { largest = std::max(largest, length); });
    return largest;
  }

  std::size_t free_bytes() const {
    std::size_t total = 0;
    for_each_gap([&](std::size_t, std::size_t length) { total += length; });
    return total;
  }

  /// Calls visit(start, length) for every maximal non-empty range of [begin, end) that no live block covers.
  template <class Visit>
  void for_each_gap(Visit visit) const {
    std::size_t cursor = begin_;
    for (const auto& [start, size] : live_) {
      if (start > cursor) visit(cursor, start - cursor);
      cursor = start + size;
    }
    if (end_ > cursor) visit(cursor, end_ - cursor);
  }

 private:
  std::size_t begin_;
  std::size_t end_;
  std::size_t in_use_ = 0;
  std::map<std::size_t, std::size_t> live_;
};

} // namespace fuzz
