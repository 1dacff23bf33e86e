#include "heap_allocator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace {

using portshmem::detail::heap_allocator;
constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();

TEST(HeapAllocator, StartsEmpty) {
  heap_allocator heap(4096);
  EXPECT_EQ(heap.capacity(), 4096u);
  EXPECT_EQ(heap.bytes_in_use(), 0u);
  EXPECT_EQ(heap.largest_free(), 4096u);
  EXPECT_EQ(heap.live_blocks(), 0u);
  EXPECT_EQ(heap.free_ranges(), 1u);
}

TEST(HeapAllocator, ZeroCapacityFitsNothing) {
  heap_allocator heap(0);
  EXPECT_EQ(heap.allocate(1, 1), std::nullopt);
  EXPECT_EQ(heap.largest_free(), 0u);
  EXPECT_FALSE(heap.release(0));
}

TEST(HeapAllocator, RejectsZeroSizeAndBadAlignment) {
  heap_allocator heap(4096);
  EXPECT_EQ(heap.allocate(0, 1), std::nullopt);
  for (std::size_t bad : {std::size_t{0}, std::size_t{3}, std::size_t{6}, std::size_t{12}, std::size_t{4095}, kMax})
    EXPECT_EQ(heap.allocate(8, bad), std::nullopt) << "alignment " << bad;
  EXPECT_EQ(heap.live_blocks(), 0u);
  EXPECT_EQ(heap.largest_free(), 4096u);
  EXPECT_FALSE(heap_allocator::valid_alignment(0));
  EXPECT_TRUE(heap_allocator::valid_alignment(std::size_t{1} << 63));
}

TEST(HeapAllocator, EveryResultIsAligned) {
  heap_allocator heap(std::size_t{1} << 20);
  for (std::size_t alignment = 1; alignment <= 4096; alignment *= 2) {
    // A 1-byte block first leaves the next free offset odd, so every alignment has padding to do.
    ASSERT_TRUE(heap.allocate(1, 1).has_value());
    for (std::size_t size : {std::size_t{1}, std::size_t{3}, std::size_t{17}, alignment, alignment + 1}) {
      const auto offset = heap.allocate(size, alignment);
      ASSERT_TRUE(offset.has_value()) << "size " << size << " alignment " << alignment;
      EXPECT_EQ(*offset % alignment, 0u) << "size " << size << " alignment " << alignment;
      EXPECT_EQ(heap.block_size(*offset), size);
    }
  }
}

TEST(HeapAllocator, AlignmentPaddingStaysFree) {
  heap_allocator heap(1024);
  EXPECT_EQ(heap.allocate(1, 1), 0u);
  EXPECT_EQ(heap.allocate(64, 64), 64u);
  EXPECT_EQ(heap.bytes_in_use(), 65u);
  // Bytes 1..63 were skipped for alignment; they must still be allocatable.
  EXPECT_EQ(heap.allocate(63, 1), 1u);
  EXPECT_EQ(heap.allocate(1, 1), 128u);
}

TEST(HeapAllocator, ExhaustionReturnsNulloptAndLosesNothing) {
  heap_allocator heap(1024);
  ASSERT_EQ(heap.allocate(1000, 1), 0u);
  EXPECT_EQ(heap.allocate(100, 1), std::nullopt);
  EXPECT_EQ(heap.allocate(24, 16), std::nullopt); // 24 bytes are free but not at a 16-aligned offset
  EXPECT_EQ(heap.bytes_in_use(), 1000u);
  EXPECT_EQ(heap.live_blocks(), 1u);
  EXPECT_EQ(heap.largest_free(), 24u);
  EXPECT_EQ(heap.allocate(24, 8), 1000u);
  EXPECT_EQ(heap.largest_free(), 0u);
  EXPECT_EQ(heap.allocate(1, 1), std::nullopt);
  EXPECT_EQ(heap.bytes_in_use(), 1024u);
}

TEST(HeapAllocator, FreedSpaceIsReused) {
  heap_allocator heap(4096);
  const auto a = heap.allocate(256, 8);
  const auto b = heap.allocate(512, 8);
  const auto c = heap.allocate(256, 8);
  ASSERT_TRUE(a && b && c);
  ASSERT_TRUE(heap.release(*b));
  EXPECT_EQ(heap.allocate(512, 8), b); // same size goes back to the same hole (first fit)
  ASSERT_TRUE(heap.release(*b));
  EXPECT_EQ(heap.allocate(100, 4), b); // a smaller one too
  EXPECT_EQ(heap.allocate(412, 4), *b + 100);
}

TEST(HeapAllocator, FragmentationThenCoalescingGivesBackOneRange) {
  constexpr std::size_t kCapacity = 64 * 1024;
  heap_allocator heap(kCapacity);
  std::vector<std::size_t> offsets;
  while (auto offset = heap.allocate(1 + offsets.size() % 97, std::size_t{1} << (offsets.size() % 7)))
    offsets.push_back(*offset);
  ASSERT_GT(offsets.size(), 100u);
  // Free every other block first (maximal fragmentation), then the rest in a shuffled order.
  for (std::size_t i = 0; i < offsets.size(); i += 2) ASSERT_TRUE(heap.release(offsets[i]));
  EXPECT_GT(heap.free_ranges(), offsets.size() / 4);
  std::vector<std::size_t> rest;
  for (std::size_t i = 1; i < offsets.size(); i += 2) rest.push_back(offsets[i]);
  std::shuffle(rest.begin(), rest.end(), std::mt19937(7));
  for (std::size_t offset : rest) ASSERT_TRUE(heap.release(offset));
  EXPECT_EQ(heap.free_ranges(), 1u);
  EXPECT_EQ(heap.largest_free(), kCapacity);
  EXPECT_EQ(heap.bytes_in_use(), 0u);
  EXPECT_EQ(heap.live_blocks(), 0u);
  EXPECT_EQ(heap.allocate(kCapacity, 1), 0u);
}

TEST(HeapAllocator, DoubleFreeAndInteriorOffsetsAreRejected) {
  heap_allocator heap(4096);
  const auto a = heap.allocate(128, 16);
  const auto b = heap.allocate(128, 16);
  ASSERT_TRUE(a && b);
  EXPECT_FALSE(heap.release(*a + 1));
  EXPECT_FALSE(heap.release(*a + 64));
  EXPECT_FALSE(heap.release(4000)); // free space
  EXPECT_FALSE(heap.release(4096)); // one past the end
  EXPECT_FALSE(heap.release(kMax));
  EXPECT_EQ(heap.live_blocks(), 2u);
  EXPECT_TRUE(heap.release(*a));
  EXPECT_FALSE(heap.release(*a));
  EXPECT_EQ(heap.block_size(*a), std::nullopt);
  EXPECT_EQ(heap.block_size(*b + 1), std::nullopt);
  EXPECT_EQ(heap.block_size(*b), 128u);
  EXPECT_EQ(heap.live_blocks(), 1u);
  EXPECT_EQ(heap.bytes_in_use(), 128u);
}

TEST(HeapAllocator, ReservedFrontIsNeverHandedOutOrFreed) {
  constexpr std::size_t kFront = 64 * 1024, kEnd = std::size_t{8} << 20;
  heap_allocator heap(kFront, kEnd);
  EXPECT_EQ(heap.begin(), kFront);
  EXPECT_EQ(heap.capacity(), kEnd - kFront);
  EXPECT_EQ(heap.largest_free(), kEnd - kFront);
  EXPECT_EQ(heap.allocate(1, 1), kFront); // the first offset past the front, never one inside it
  for (std::size_t offset : {std::size_t{0}, std::size_t{8}, kFront - 1}) {
    EXPECT_FALSE(heap.release(offset)) << offset;
    EXPECT_EQ(heap.block_size(offset), std::nullopt) << offset;
    EXPECT_EQ(heap.block_containing(offset), std::nullopt) << offset;
  }
  EXPECT_EQ(heap.allocate(kEnd - kFront, 1), std::nullopt); // the whole capacity no longer fits: one byte is live
  EXPECT_EQ(heap.live_blocks(), 1u);
  heap_allocator empty(kFront, kFront), inverted(kFront, 16);
  EXPECT_EQ(empty.capacity(), 0u);
  EXPECT_EQ(inverted.capacity(), 0u);
  EXPECT_EQ(inverted.allocate(1, 1), std::nullopt);
}

// Alignment is a property of the offset, counted from offset 0 (the heap base), not from the end of the front: a
// 2 MiB alignment past a 64 KiB front lands on 2 MiB, and the front's end is aligned only to what it is.
TEST(HeapAllocator, AlignmentCountsFromOffsetZeroPastAReservedFront) {
  constexpr std::size_t kFront = 64 * 1024, kMiB = std::size_t{1} << 20;
  heap_allocator heap(kFront, 16 * kMiB);
  for (std::size_t alignment = 1; alignment <= 2 * kMiB; alignment *= 2) {
    const auto offset = heap.allocate(3, alignment);
    ASSERT_TRUE(offset.has_value()) << alignment;
    EXPECT_EQ(*offset % alignment, 0u) << alignment;
    EXPECT_GE(*offset, kFront) << alignment;
  }
  heap_allocator fresh(kFront, 16 * kMiB);
  EXPECT_EQ(fresh.allocate(1, 128 * 1024), 128u * 1024); // the first 128 KiB boundary past the front
  EXPECT_EQ(fresh.allocate(1, 4 * kMiB), 4 * kMiB);
  EXPECT_EQ(fresh.allocate(1, 1), kFront); // the padding in front of both stays free
}

TEST(HeapAllocator, BlockContainingFindsTheStartOfAnyInteriorOffset) {
  heap_allocator heap(4096);
  const auto a = heap.allocate(100, 1);
  const auto b = heap.allocate(1, 1);
  const auto c = heap.allocate(50, 64);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(heap.block_containing(*a), a);
  EXPECT_EQ(heap.block_containing(*a + 99), a);
  EXPECT_EQ(heap.block_containing(*b), b);
  EXPECT_EQ(heap.block_containing(*b + 1), std::nullopt); // padding before c: free
  EXPECT_EQ(heap.block_containing(*c + 49), c);
  EXPECT_EQ(heap.block_containing(*c + 50), std::nullopt);
  EXPECT_EQ(heap.block_containing(kMax), std::nullopt);
  ASSERT_TRUE(heap.release(*a));
  EXPECT_EQ(heap.block_containing(*a + 5), std::nullopt); // freed: no block holds it any more
}

TEST(HeapAllocator, HugeSizesDoNotWrap) {
  heap_allocator heap(1 << 20);
  EXPECT_EQ(heap.allocate(kMax, 1), std::nullopt);
  EXPECT_EQ(heap.allocate(kMax - 1, 4096), std::nullopt);
  EXPECT_EQ(heap.allocate((1 << 20) + 1, 1), std::nullopt);
  EXPECT_EQ(heap.allocate(1, std::size_t{1} << 63), 0u); // offset 0 is aligned to anything
  EXPECT_EQ(heap.allocate(1, std::size_t{1} << 63), std::nullopt);
  EXPECT_EQ(heap.live_blocks(), 1u);

  // A heap spanning the whole offset space: padding and end computations sit right at SIZE_MAX.
  heap_allocator whole(kMax);
  EXPECT_EQ(whole.allocate(kMax, 1), 0u);
  EXPECT_EQ(whole.largest_free(), 0u);
  ASSERT_TRUE(whole.release(0));
  EXPECT_EQ(whole.allocate(1, 1), 0u);
  EXPECT_EQ(whole.allocate(kMax - 1, 2), std::nullopt); // would need [2, SIZE_MAX + 1)
  const std::size_t top = std::size_t{1} << 63;
  EXPECT_EQ(whole.allocate(kMax - top + 1, top), std::nullopt); // [2^63, SIZE_MAX + 1) does not fit
  EXPECT_EQ(whole.allocate(kMax - top, top), top);
  EXPECT_EQ(whole.allocate(kMax - 1 - (kMax - top), 1), 1u); // exactly the padding left in front
  EXPECT_EQ(whole.largest_free(), 0u);
  EXPECT_EQ(whole.bytes_in_use(), kMax);
}

// Brute-force model: one flag per byte. The lowest aligned offset whose bytes are all free is exactly what an
// address-ordered first fit over coalesced ranges must return.
struct bitmap_model {
  std::vector<char> used; // char, not bool: the model runs every op and must stay fast unoptimized
  explicit bitmap_model(std::size_t capacity) : used(capacity, 0) {}

  std::optional<std::size_t> first_fit(std::size_t size, std::size_t alignment) const {
    std::vector<std::size_t> run(used.size() + 1, 0); // run[i]: free bytes starting at i
    for (std::size_t i = used.size(); i-- > 0;) run[i] = used[i] ? 0 : run[i + 1] + 1;
    for (std::size_t offset = 0; offset < used.size(); offset += alignment)
      if (run[offset] >= size) return offset;
    return std::nullopt;
  }
  std::size_t largest_run() const {
    std::size_t best = 0, current = 0;
    for (char bit : used) best = std::max(best, current = bit ? 0 : current + 1);
    return best;
  }
  std::size_t runs() const {
    std::size_t count = 0;
    for (std::size_t i = 0; i < used.size(); ++i) count += !used[i] && (i == 0 || used[i - 1]);
    return count;
  }
  void mark(std::size_t offset, std::size_t size, bool value) {
    std::fill(used.begin() + static_cast<std::ptrdiff_t>(offset),
              used.begin() + static_cast<std::ptrdiff_t>(offset + size), value);
  }
};

TEST(HeapAllocator, RandomSequenceMatchesBitmapModel) {
  constexpr std::size_t kCapacity = 8 * 1024;
  heap_allocator heap(kCapacity);
  bitmap_model model(kCapacity);
  std::vector<std::pair<std::size_t, std::size_t>> live; // offset, size
  std::size_t in_use = 0, failures = 0;
  std::mt19937_64 rng(12345);
  for (int op = 0; op < 4000; ++op) {
    if (live.empty() || rng() % 100 < 55) {
      const std::size_t size = rng() % 8 == 0 ? 1 + rng() % 2048 : 1 + rng() % 150;
      const std::size_t alignment = std::size_t{1} << (rng() % 13); // 1..4096
      const auto expected = model.first_fit(size, alignment);
      const auto got = heap.allocate(size, alignment);
      ASSERT_EQ(got, expected) << "op " << op << " size " << size << " alignment " << alignment;
      if (!got) {
        ++failures;
        continue;
      }
      ASSERT_EQ(*got % alignment, 0u);
      ASSERT_LE(*got + size, kCapacity);
      for (std::size_t i = *got; i < *got + size; ++i) ASSERT_FALSE(model.used[i]) << "overlap at " << i;
      model.mark(*got, size, true);
      live.emplace_back(*got, size);
      in_use += size;
    } else {
      const std::size_t pick = rng() % live.size();
      const auto [offset, size] = live[pick];
      if (size > 1) {
        ASSERT_FALSE(heap.release(offset + 1 + rng() % (size - 1))); // interior offset
      }
      ASSERT_TRUE(heap.release(offset));
      ASSERT_FALSE(heap.release(offset)); // double free
      model.mark(offset, size, false);
      live[pick] = live.back();
      live.pop_back();
      in_use -= size;
    }
    ASSERT_EQ(heap.bytes_in_use(), in_use);
    ASSERT_EQ(heap.live_blocks(), live.size());
    ASSERT_EQ(heap.largest_free(), model.largest_run());
    ASSERT_EQ(heap.free_ranges(), model.runs()); // coalesced: one range per maximal free run
  }
  EXPECT_GT(failures, 0u); // the sequence must have reached exhaustion to test it
  for (const auto& [offset, size] : live) ASSERT_TRUE(heap.release(offset));
  EXPECT_EQ(heap.largest_free(), kCapacity);
}

TEST(HeapAllocator, SameSequenceGivesSameOffsets) {
  heap_allocator first(1 << 20), second(1 << 20);
  std::mt19937 rng_first(99), rng_second(99); // two PEs running the same program
  auto step = [](heap_allocator& heap, std::mt19937& rng, std::vector<std::size_t>& live) -> std::size_t {
    if (!live.empty() && rng() % 3 == 0) {
      const std::size_t pick = rng() % live.size();
      const std::size_t offset = live[pick];
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(pick));
      return heap.release(offset) ? offset : kMax;
    }
    const std::size_t size = 1 + rng() % 10000;
    const std::size_t alignment = std::size_t{1} << (rng() % 10);
    const auto offset = heap.allocate(size, alignment);
    if (offset) live.push_back(*offset);
    return offset.value_or(kMax - 1);
  };
  std::vector<std::size_t> live_first, live_second;
  for (int i = 0; i < 2000; ++i)
    ASSERT_EQ(step(first, rng_first, live_first), step(second, rng_second, live_second)) << "step " << i;
}

} // namespace
