// Collective allocation across PEs: symmetric offsets, zeroing, alignment, exhaustion, mismatched requests (which
// fail on every PE and allocate nothing), overflow, and frees that are not symmetric.
#include <mpi.h>

#include <cstddef>
#include <cstdlib>
#include <limits>
#include <string>

#include "mp_test.hpp"
#include "portshmem/detail/internal_area.hpp"

namespace {

std::uintptr_t offset_of(const void* p) {
  portshmem::ctx c = mp::context();
  return reinterpret_cast<std::uintptr_t>(p) - reinterpret_cast<std::uintptr_t>(c.heap);
}

/// Every PE's value of v, gathered through the symmetric heap itself (p to all, barrier, read).
PORTSHMEM_GLOBAL void gather_offsets(portshmem::ctx c, unsigned long long* table, unsigned long long v) {
  for (int pe = 0; pe < c.n_pes; ++pe) portshmem::p(c, table + c.my_pe, v, pe);
  portshmem::barrier_all(c);
}

/// Every PE's value of v, gathered on the host (MPI), to compare what each PE got.
std::vector<unsigned long long> everyone(unsigned long long v) {
  std::vector<unsigned long long> all(static_cast<std::size_t>(mp::npes()));
  EXPECT_EQ(MPI_Allgather(&v, 1, MPI_UNSIGNED_LONG_LONG, all.data(), 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD),
            MPI_SUCCESS);
  return all;
}

/// Checks that every PE saw the same value as this one.
void expect_same_everywhere(unsigned long long v, const char* what) {
  const auto all = everyone(v);
  for (int pe = 0; pe < mp::npes(); ++pe) EXPECT_EQ(all[std::size_t(pe)], v) << what << " of PE " << pe;
}

constexpr std::size_t kMaxAlignment = std::size_t{2} << 20; // docs/api.md: portshmem_align up to 2 MiB

TEST(Heap, EveryPowerOfTwoAlignmentUpToTheMaximumGivesOneOffsetEverywhere) {
  std::vector<void*> blocks;
  for (std::size_t alignment = 1; alignment <= kMaxAlignment; alignment *= 2) {
    // An odd size first, so the next free offset is unaligned and every alignment has padding to do.
    blocks.push_back(portshmem_malloc(3));
    void* p = portshmem_align(alignment, 5);
    const portshmem_status_t s = portshmem_last_status();
    EXPECT_EQ(s, PORTSHMEM_SUCCESS) << "alignment " << alignment;
    expect_same_everywhere((unsigned long long)s, "status");
    expect_same_everywhere(p ? (unsigned long long)offset_of(p) : ~0ull, "offset");
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignment, 0u) << "alignment " << alignment;
    if (p) blocks.push_back(p);
  }
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) EXPECT_EQ(portshmem_free(*it), PORTSHMEM_SUCCESS);
}

TEST(Heap, AlignmentsAboveTheMaximumFailAlikeAndTakeNothing) {
  void* before = portshmem_malloc(512);
  for (std::size_t alignment : {2 * kMaxAlignment, std::size_t{1} << 30, std::size_t{1} << 63}) {
    EXPECT_EQ(portshmem_align(alignment, 64), nullptr) << alignment;
    EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_INVALID_ARG) << alignment;
    expect_same_everywhere((unsigned long long)portshmem_last_status(), "status");
  }
  EXPECT_EQ(portshmem_align(3, 0), nullptr); // a bad alignment is refused even for size 0
  EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_INVALID_ARG);
  void* after = portshmem_malloc(512);
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(offset_of(after), offset_of(before) + 512);
  EXPECT_EQ(portshmem_free(after), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(before), PORTSHMEM_SUCCESS);
}

TEST(Heap, AllocationsHaveTheSameOffsetOnEveryPE) {
  unsigned long long* table = static_cast<unsigned long long*>(portshmem_calloc(mp::npes(), 8));
  void* blocks[4] = {portshmem_malloc(100), portshmem_align(4096, 10), portshmem_calloc(3, 1000),
                     portshmem_malloc(1 << 20)};
  for (void* b : blocks) {
    ASSERT_NE(b, nullptr);
    mp::run(gather_offsets, dim3(1), dim3(1), mp::context(), table, (unsigned long long)offset_of(b));
    const auto all = mp::to_host(table, mp::npes());
    for (int pe = 0; pe < mp::npes(); ++pe) EXPECT_EQ(all[pe], offset_of(b)) << "PE " << pe;
    mp::barrier(); // everyone has read the table before anyone refills it
  }
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(blocks[1]) % 4096, 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(blocks[0]) % 256, 0u);
  const auto zeros = mp::to_host(static_cast<char*>(blocks[2]), 3000);
  EXPECT_EQ(std::count(zeros.begin(), zeros.end(), 0), 3000);
  for (void* b : blocks) EXPECT_EQ(portshmem_free(b), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(table), PORTSHMEM_SUCCESS);
}

TEST(Heap, ExhaustionFailsCleanlyAndLosesNothing) {
  portshmem::ctx c = mp::context();
  void* small = portshmem_malloc(1024);
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(portshmem_malloc(c.heap_size), nullptr);
  EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_OUT_OF_MEMORY);
  void* again = portshmem_malloc(1024); // the failed request took nothing
  EXPECT_NE(again, nullptr);
  EXPECT_EQ(portshmem_last_status(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(again), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(small), PORTSHMEM_SUCCESS);
}

TEST(Heap, MismatchedSizesFailOnEveryPE) {
  void* before = portshmem_malloc(512);
  void* bad = portshmem_malloc(mp::me() == 0 ? 1024 : 2048);
  EXPECT_EQ(bad, nullptr);
  EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_MISMATCH);
  void* bad_align = portshmem_align(mp::me() == 0 ? 64 : 128, 100);
  EXPECT_EQ(bad_align, nullptr);
  EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_MISMATCH);
  // Nothing was allocated: the next block follows the one before, on every PE alike.
  void* after = portshmem_malloc(512);
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(offset_of(after), offset_of(before) + 512);
  EXPECT_EQ(portshmem_free(after), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(before), PORTSHMEM_SUCCESS);
}

TEST(Heap, OverflowingCallocFails) {
  EXPECT_EQ(portshmem_calloc(std::numeric_limits<size_t>::max() / 2, 4), nullptr);
  EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_OVERFLOW);
}

TEST(Heap, NegativeSizesAreInvalidNotExhaustion) {
  for (long long negative : {-1LL, -8LL, (long long)std::numeric_limits<std::ptrdiff_t>::min()}) {
    EXPECT_EQ(portshmem_malloc(size_t(negative)), nullptr) << negative;
    EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_INVALID_ARG) << negative;
    EXPECT_EQ(portshmem_align(64, size_t(negative)), nullptr) << negative;
    EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_INVALID_ARG) << negative;
  }
}

TEST(Heap, SizesPastTheHeapAreExhaustionOnEveryPE) {
  portshmem::ctx c = mp::context();
  const std::size_t usable = c.heap_size; // the handle's heap is the part allocations come from
  void* small = portshmem_malloc(64);
  for (std::size_t size : {usable + 1, std::size_t(c.heap_size), usable, usable - 32}) {
    EXPECT_EQ(portshmem_malloc(size), nullptr) << size; // with 64 bytes live, not even the usable size fits
    EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_OUT_OF_MEMORY) << size;
    expect_same_everywhere((unsigned long long)portshmem_last_status(), "status");
  }
  EXPECT_EQ(portshmem_free(small), PORTSHMEM_SUCCESS);
}

TEST(Heap, ZeroSizeGivesNull) {
  EXPECT_EQ(portshmem_malloc(0), nullptr);
  EXPECT_EQ(portshmem_last_status(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_calloc(0, 8), nullptr);
  EXPECT_EQ(portshmem_last_status(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_align(4096, 0), nullptr);
  EXPECT_EQ(portshmem_last_status(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(nullptr), PORTSHMEM_SUCCESS);
  // Nothing was taken: the next block is where it would have been anyway.
  void* a = portshmem_malloc(8);
  EXPECT_EQ(portshmem_malloc(0), nullptr);
  void* b = portshmem_malloc(8);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(offset_of(b), offset_of(a) + 256);
  EXPECT_EQ(portshmem_free(b), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(a), PORTSHMEM_SUCCESS);
}

TEST(Heap, BadAlignmentAndBadFreeAreErrors) {
  EXPECT_EQ(portshmem_align(48, 100), nullptr);
  EXPECT_EQ(portshmem_last_status(), PORTSHMEM_ERR_INVALID_ARG);
  char* block = static_cast<char*>(portshmem_malloc(4096));
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(portshmem_free(block + 8), PORTSHMEM_ERR_NOT_SYMMETRIC); // interior pointer: same on every PE
  int local = 0;
  EXPECT_EQ(portshmem_free(&local), PORTSHMEM_ERR_NOT_SYMMETRIC); // not in the heap, on every PE
  EXPECT_EQ(portshmem_free(block), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(block), PORTSHMEM_ERR_NOT_SYMMETRIC); // double free
}

TEST(Heap, ForeignInteriorAndDoubleFreesFailAlikeAndChangeNothing) {
  portshmem::ctx c = mp::context();
  char* block = static_cast<char*>(portshmem_malloc(4096));
  char* other = static_cast<char*>(portshmem_malloc(4096));
  ASSERT_TRUE(block && other);
  int local = 0;
  char* peer_view = static_cast<char*>(portshmem_ptr(block, mp::next_pe())); // another PE's copy, mapped here
  std::vector<void*> bad = {block + 1,
                            block + 4095,
                            other + 100,
                            &local,
                            mp::heap_start(c), // the reserved area at the heap start
                            mp::heap_start(c) + 8,
                            c.heap - 1,
                            c.heap + c.heap_size - 1, // free space at the end of the allocations' part
                            c.heap + c.heap_size,     // one past it: the team area
                            c.heap + c.heap_size + 4096};
  // Where the proxy serves a next PE there is no view of its copy: every PE then frees another interior pointer, so
  // the PEs' calls stay alike.
  if (mp::npes() > 1) bad.push_back(mp::everyone_has_load_store_to_next() ? peer_view : block + 2);
  for (void* p : bad) {
    const portshmem_status_t s = portshmem_free(p);
    EXPECT_EQ(s, PORTSHMEM_ERR_NOT_SYMMETRIC) << "offset " << offset_of(p);
    expect_same_everywhere((unsigned long long)s, "status");
  }
  // Nothing changed: both blocks are live (a new one goes after them), and each frees exactly once.
  void* next = portshmem_malloc(16);
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(offset_of(next), offset_of(other) + 4096);
  EXPECT_EQ(portshmem_free(next), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(block), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(block), PORTSHMEM_ERR_NOT_SYMMETRIC); // double free
  void* again = portshmem_malloc(4096);                          // the freed block is reused, once
  EXPECT_EQ(again, static_cast<void*>(block));
  EXPECT_EQ(portshmem_free(again), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(other), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(other), PORTSHMEM_ERR_NOT_SYMMETRIC);
}

TEST(Heap, FreeOfDifferentBlocksFailsOnEveryPE) {
  void* a = portshmem_malloc(256);
  void* b = portshmem_malloc(256);
  EXPECT_EQ(portshmem_free(mp::me() == 0 ? a : b), PORTSHMEM_ERR_MISMATCH);
  EXPECT_EQ(portshmem_free(a), PORTSHMEM_SUCCESS); // both still live
  EXPECT_EQ(portshmem_free(b), PORTSHMEM_SUCCESS);
}

} // namespace

namespace {

/// Device code's view of addr on every PE (portshmem::ptr, which reads the symmetric range or the table), into out.
PORTSHMEM_GLOBAL void device_pointers(portshmem::ctx c, const char* addr, unsigned long long* out) {
  for (int pe = 0; pe < c.n_pes; ++pe) out[pe] = reinterpret_cast<unsigned long long>(portshmem::ptr(c, addr, pe));
}

TEST(SymmetricRange, DeviceCodeFindsEveryPeerWhereTheHostDoes) {
  char* block = mp::sym_alloc<char>(4096);
  auto* out = mp::private_alloc<unsigned long long>(std::size_t(mp::npes()));
  const portshmem::ctx c = mp::context();
  mp::run(device_pointers, dim3(1), dim3(1), c, static_cast<const char*>(block + 100), out);
  const auto seen = mp::to_host(out, std::size_t(mp::npes()));
  for (int pe = 0; pe < mp::npes(); ++pe) {
    const auto host = reinterpret_cast<unsigned long long>(portshmem_ptr(block + 100, pe));
    EXPECT_EQ(seen[std::size_t(pe)], host) << "PE " << pe;
    EXPECT_EQ(host != 0, mp::load_store_to(pe)) << "PE " << pe;
  }
  // In a range, the mapped PEs are consecutive and every mapped heap sits at the arithmetic's address.
  if (c.peer_stride != 0) {
    EXPECT_GE(c.mapped_count, 1);
    EXPECT_TRUE(c.my_pe >= c.mapped_first && c.my_pe < c.mapped_first + c.mapped_count);
    for (int pe = 0; pe < mp::npes(); ++pe) {
      const bool in_range = pe >= c.mapped_first && pe < c.mapped_first + c.mapped_count;
      EXPECT_EQ(in_range, mp::load_store_to(pe)) << "PE " << pe;
      if (in_range) {
        EXPECT_EQ(seen[std::size_t(pe)], seen[std::size_t(c.my_pe)] + std::uint64_t(pe - c.my_pe) * c.peer_stride);
      }
    }
  }
  (void)hipFree(out);
  EXPECT_EQ(portshmem_free(block), PORTSHMEM_SUCCESS);
}

TEST(SymmetricRange, IsInUseWhereThePlatformOffersIt) {
  const char* env = std::getenv("PORTSHMEM_SYMMETRIC_RANGE");
  const bool off = env && std::string(env) == "off";
  // The host platform maps its shared-memory segments at fixed offsets; NVIDIA uses the CUDA virtual memory API; AMD
  // keeps the table (docs/api.md, "One symmetric range").
  const bool offered = !off && !PORTSHMEM_PLATFORM_AMD;
  EXPECT_EQ(mp::context().peer_stride != 0, offered);
}

} // namespace
