// Fuzz target: random allocate / release / probe sequences on the heap allocator (src/heap_allocator.hpp), compared
// call by call with heap_model.hpp, with the invariants checked after every call: blocks inside the managed range
// and never overlapping, every offset aligned as asked, first fit in address order, bytes in use and the free
// ranges accounted exactly, and a release of anything but a live block's start (double free, interior, free space,
// outside the range) refused with nothing changed. Geometries include heaps that end at SIZE_MAX.
#include <cstdint>
#include <limits>
#include <string>

#include "fuzz_input.hpp"
#include "heap_allocator.hpp"
#include "heap_model.hpp"

namespace {

using fuzz::heap_model;
using portshmem::detail::heap_allocator;
constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();

std::string hex(std::size_t v) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%zx", v);
  return text;
}

std::string show(const std::optional<std::size_t>& v) {
  return v ? hex(*v) : "none";
}

/// The managed range: small heaps, heaps at a reserved front, heaps ending at SIZE_MAX, arbitrary pairs.
void geometry(fuzz::input& in, std::size_t& begin, std::size_t& end) {
  switch (in.byte() % 4) {
  case 0:
    begin = in.uint(2);
    end = begin + in.uint(3);
    break;
  case 1:
    begin = 0;
    end = in.uint(2) + 1;
    break;
  case 2:
    end = kMax;
    begin = kMax - in.uint(3);
    break;
  default:
    begin = in.uint(8);
    end = in.uint(8);
    break;
  }
}

std::size_t size_of(fuzz::input& in, const heap_model& model) {
  const std::size_t span = model.end() - model.begin();
  switch (in.byte() % 6) {
  case 0:
    return in.uint(1) + 1;
  case 1:
    return in.uint(2);
  case 2: { // up to the capacity, and one past it
    const std::size_t upto = span == kMax ? in.uint(8) : in.uint(4) % (span + 1);
    return in.byte() % 4 == 0 && upto != kMax ? upto + 1 : upto;
  }
  case 3:
    return kMax - in.uint(1);
  case 4:
    return 0;
  default:
    return std::size_t{1} << (in.byte() % 64);
  }
}

std::size_t alignment_of(fuzz::input& in) {
  const std::uint8_t choice = in.byte();
  if (choice < 200) return std::size_t{1} << (choice % 24); // up to 8 MiB: past the small heaps
  if (choice < 230) return std::size_t{1} << (choice % 64);
  return in.uint(8); // mostly not a power of two; 0 included
}

/// An offset the release and probe calls are given: a live block's start or edges, inside a block, in free space,
/// at or past the ends of the range, or anything.
std::size_t offset_of(fuzz::input& in, const heap_model& model) {
  const auto& live = model.live();
  const std::uint8_t choice = in.byte() % 6;
  if (!live.empty() && choice < 3) {
    auto it = live.begin();
    std::advance(it, in.uint(2) % live.size());
    const auto [start, size] = *it;
    if (choice == 0) return start;
    if (choice == 1) return start + size - 1;
    return start + in.uint(4) % size + (in.byte() % 2 ? size : 0); // inside, or just past its end
  }
  if (choice == 3) return model.begin() == 0 ? 0 : model.begin() - 1 - in.uint(1) % model.begin();
  if (choice == 4) return model.end() + in.uint(1);
  return in.uint(8);
}

void compare(const heap_allocator& heap, const heap_model& model, const char* after) {
  const std::string where = std::string(" after ") + after;
  fuzz::check(heap.bytes_in_use() == model.in_use(),
              "bytes_in_use " + hex(heap.bytes_in_use()) + " != " + hex(model.in_use()) + where);
  fuzz::check(heap.live_blocks() == model.live().size(), "live_blocks differs" + where);
  fuzz::check(heap.free_ranges() == model.gaps(),
              "free_ranges " + std::to_string(heap.free_ranges()) + " != gaps " + std::to_string(model.gaps()) + where);
  fuzz::check(heap.largest_free() == model.largest_gap(),
              "largest_free " + hex(heap.largest_free()) + " != " + hex(model.largest_gap()) + where);
  fuzz::check(model.in_use() + model.free_bytes() == heap.capacity(), "free space unaccounted" + where);
  std::size_t previous_end = model.begin();
  for (const auto& [start, size] : model.live()) {
    fuzz::check(start >= previous_end, "blocks overlap at " + hex(start) + where);
    fuzz::check(size <= model.end() - start, "block " + hex(start) + " ends past the range" + where);
    fuzz::check(heap.block_size(start) == size, "block_size(" + hex(start) + ") differs" + where);
    previous_end = start + size;
  }
}

void allocate(heap_allocator& heap, heap_model& model, std::size_t size, std::size_t alignment) {
  const auto got = heap.allocate(size, alignment);
  const auto want = model.first_fit(size, alignment);
  fuzz::check(got == want,
              "allocate(" + hex(size) + ", " + hex(alignment) + ") gave " + show(got) + ", first fit is " + show(want));
  if (!got) return;
  fuzz::check(*got % alignment == 0, "offset " + hex(*got) + " not aligned to " + hex(alignment));
  fuzz::check(*got >= model.begin() && size <= model.end() - *got, "block outside the range");
  model.add(*got, size);
}

void release(heap_allocator& heap, heap_model& model, std::size_t offset) {
  const bool live = model.live().count(offset) != 0;
  const bool released = heap.release(offset);
  fuzz::check(released == live, "release(" + hex(offset) + ") returned " + std::to_string(released) +
                                    (live ? " for a live block" : " for a non-block (double, interior, foreign)"));
  if (live) model.remove(offset);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::input in(data, size);
  std::size_t begin = 0, end = 0;
  geometry(in, begin, end);
  heap_allocator heap(begin, end);
  heap_model model(begin, end);
  fuzz::check(heap.begin() == begin && heap.capacity() == model.end() - model.begin(), "geometry");
  compare(heap, model, "construction");
  std::optional<std::size_t> last_released;
  for (int step = 0; step < 2048 && !in.empty(); ++step) {
    const std::uint8_t op = in.byte() % 8;
    const char* name = "?";
    if (op <= 2) {
      name = "allocate";
      const std::size_t bytes = size_of(in, model);
      allocate(heap, model, bytes, alignment_of(in));
    } else if (op == 3 && !model.live().empty()) {
      name = "release of a live block";
      auto it = model.live().begin();
      std::advance(it, in.uint(2) % model.live().size());
      last_released = it->first;
      release(heap, model, it->first);
    } else if (op == 4) {
      name = "release of an arbitrary offset";
      release(heap, model, offset_of(in, model));
    } else if (op == 5) {
      name = "probe";
      const std::size_t offset = offset_of(in, model);
      fuzz::check(heap.block_containing(offset) == model.containing(offset),
                  "block_containing(" + hex(offset) + ") gave " + show(heap.block_containing(offset)));
      const bool starts = model.live().count(offset) != 0;
      fuzz::check(heap.block_size(offset).has_value() == starts, "block_size(" + hex(offset) + ") differs");
    } else if (op == 6) {
      name = "allocate(largest_free, 1)";
      const std::size_t largest = heap.largest_free();
      const auto got = heap.allocate(largest, 1);
      fuzz::check(got.has_value() == (largest != 0), "an allocation of largest_free() = " + hex(largest) + " failed");
      if (got) {
        model.add(*got, largest);
        compare(heap, model, name);
        release(heap, model, *got);
      }
    } else if (op == 7 && last_released) {
      name = "double free";
      release(heap, model, *last_released);
    }
    compare(heap, model, name);
  }
  return 0;
}
