// Collective allocation of symmetric memory. Every PE runs the same deterministic allocator, so a block has the same
// offset everywhere; before allocating, the PEs compare their requests, and a mismatch fails on every PE (nothing is
// allocated anywhere) instead of silently breaking symmetry.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "log.hpp"
#include "portshmem/detail/internal_area.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "runtime.hpp"

namespace portshmem::detail {
namespace {

thread_local portshmem_status_t t_last_status = PORTSHMEM_SUCCESS;

inline constexpr std::size_t kDefaultAlignment = 256;

/// Collective: checks that every PE passes the same value; logs the disagreement on every PE otherwise.
portshmem_status_t same_everywhere(runtime& rt, std::uint64_t v, const char* call, const char* what) {
  std::uint64_t lo = 0, hi = 0;
  int lo_pe = 0, hi_pe = 0;
  if (auto s = rt.boot->min_max(v, &lo, &lo_pe, &hi, &hi_pe); s != PORTSHMEM_SUCCESS) return s;
  if (lo == hi) return PORTSHMEM_SUCCESS;
  return PORTSHMEM_FAIL(
      PORTSHMEM_ERR_MISMATCH,
      "%s is collective, but PEs passed different %s: PE %d passed %llu and PE %d passed %llu (this PE "
      "%llu); nothing was allocated or freed",
      call, what, lo_pe, (unsigned long long)lo, hi_pe, (unsigned long long)hi, (unsigned long long)v);
}

/// Why arguments every PE passed alike cannot be allocated (the same verdict on every PE), or PORTSHMEM_SUCCESS.
portshmem_status_t check_request(const runtime& rt, std::size_t size, std::size_t alignment, const char* call) {
  if (!heap_allocator::valid_alignment(alignment)) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: alignment %zu is not a power of two", call, alignment);
  }
  if (alignment > kHeapBaseAlignment) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                          "%s: alignment %zu is above the largest supported, %zu (2 MiB); nothing was allocated", call,
                          alignment, kHeapBaseAlignment);
  }
  if (size > std::size_t(std::numeric_limits<std::ptrdiff_t>::max())) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                          "%s(%zu): the size is above PTRDIFF_MAX, larger than any heap (a negative number converted "
                          "to size_t?)",
                          call, size);
  }
  if (size > rt.allocator.capacity()) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_OUT_OF_MEMORY,
                          "%s(%zu): larger than the whole symmetric heap (%zu bytes for allocations); raise "
                          "PORTSHMEM_HEAP_SIZE",
                          call, size, rt.allocator.capacity());
  }
  return PORTSHMEM_SUCCESS;
}

/// Collective allocation; a PE whose arguments already failed (overflow) still takes part, so no PE waits forever.
/// Every verdict below depends only on values the PEs agreed on and on the allocator, which is identical everywhere,
/// so every PE returns the same block or the same status.
void* allocate(std::size_t size, std::size_t alignment, bool zero, const char* call,
               portshmem_status_t argument_status = PORTSHMEM_SUCCESS) {
  runtime* rt = current();
  if (!rt) {
    set_last_status(PORTSHMEM_FAIL_NOT_RUNNING(call));
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(rt->mutex);
  // Size and alignment are compared together: one collective call, and either mismatch fails everywhere.
  portshmem_status_t s = same_everywhere(*rt, size, call, "sizes");
  if (s == PORTSHMEM_SUCCESS) s = same_everywhere(*rt, alignment, call, "alignments");
  if (s == PORTSHMEM_SUCCESS) s = argument_status;
  if (s == PORTSHMEM_SUCCESS) s = check_request(*rt, size, alignment, call); // the alignment even for size 0
  if (s != PORTSHMEM_SUCCESS) return set_last_status(s), nullptr;
  if (size == 0) return set_last_status(PORTSHMEM_SUCCESS), nullptr; // OpenSHMEM: a zero-size request gives NULL
  // Offsets count from the heap base, which is aligned to kHeapBaseAlignment on every PE: an aligned offset is an
  // aligned address everywhere.
  const auto offset = rt->allocator.allocate(size, alignment);
  if (!offset) {
    set_last_status(PORTSHMEM_FAIL(PORTSHMEM_ERR_OUT_OF_MEMORY,
                                   "%s(%zu) failed: no free range of the symmetric heap fits it (%zu of %zu bytes in "
                                   "use, largest free range %zu); free blocks or raise PORTSHMEM_HEAP_SIZE",
                                   call, size, rt->allocator.bytes_in_use(), rt->allocator.capacity(),
                                   rt->allocator.largest_free()));
    return nullptr;
  }
  char* p = rt->heap->local() + *offset;
  if (zero) {
    portshmem_status_t cleared = PORTSHMEM_SUCCESS;
    if (hipMemset(p, 0, size) != hipSuccess || hipDeviceSynchronize() != hipSuccess) {
      cleared = PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "%s: clearing %zu bytes failed", call, size);
    }
    // Agreeing is also the barrier calloc needs: no PE puts into the block before its owner has cleared it.
    if (cleared = agree_status(*rt->boot, cleared); cleared != PORTSHMEM_SUCCESS) {
      rt->allocator.release(*offset);
      return set_last_status(cleared), nullptr;
    }
  }
  PORTSHMEM_LOG(trace, "%s(%zu) -> offset %zu", call, size, *offset);
  (void)publish_allocations(*rt); // logs a failure; the block is allocated on every PE either way
  set_last_status(PORTSHMEM_SUCCESS);
  return p;
}

/// Why ptr (at heap offset offset, every PE alike) is not a block portshmem_free can free, or PORTSHMEM_SUCCESS.
portshmem_status_t check_free(const runtime& rt, const void* ptr, std::size_t offset) {
  if (offset < kInternalHeapBytes) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_NOT_SYMMETRIC,
                          "portshmem_free(%p): an address in the first %zu bytes of the heap, which portshmem reserves "
                          "for itself; no allocation returns it",
                          ptr, kInternalHeapBytes);
  }
  if (offset >= rt.teams.area_offset) {
    return PORTSHMEM_FAIL(
        PORTSHMEM_ERR_NOT_SYMMETRIC,
        "portshmem_free(%p): an address in the team area at the end of the heap (its last %zu bytes), "
        "which portshmem reserves for itself; no allocation returns it",
        ptr, rt.cfg.heap_size - rt.teams.area_offset);
  }
  if (rt.allocator.block_size(offset)) return PORTSHMEM_SUCCESS;
  if (const auto start = rt.allocator.block_containing(offset)) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_NOT_SYMMETRIC,
                          "portshmem_free(%p): %zu bytes into the block at %p; pass the pointer the allocation "
                          "returned; nothing was freed",
                          ptr, offset - *start, static_cast<const void*>(rt.heap->local() + *start));
  }
  return PORTSHMEM_FAIL(PORTSHMEM_ERR_NOT_SYMMETRIC,
                        "portshmem_free(%p): no live block starts there (freed already, or never returned by "
                        "portshmem_malloc/calloc/align); nothing was freed",
                        ptr);
}

} // namespace

portshmem_status_t set_last_status(portshmem_status_t s) {
  return t_last_status = s;
}

portshmem_status_t publish_allocations(runtime& rt) {
  auto* area = reinterpret_cast<internal_area*>(rt.heap->local());
  const auto& live = rt.allocator.live();
  int current = 0;
  std::vector<std::uint64_t> table; // allocation_table's words: count, reserved, then [begin, end) per block
  if (live.size() <= kAllocationTableEntries) {
    current = rt.allocation_table == 1 ? 2 : 1; // the table device code may be reading stays as it is
    table.reserve(2 + 2 * live.size());
    table.push_back(live.size());
    table.push_back(0);
    for (const auto& [start, size] : live) { // offsets from ctx.heap, which starts after the reserved area
      table.push_back(start - kInternalHeapBytes);
      table.push_back(start - kInternalHeapBytes + size);
    }
  } else if (!rt.allocation_table_full_said) {
    rt.allocation_table_full_said = true;
    PORTSHMEM_LOG(warn,
                  "%zu live allocations, more than the %zu the device's allocation table holds: from now on, device "
                  "code built with PORTSHMEM_DEBUG_CHECKS=1 checks ranges against the heap's bounds only, not against "
                  "their allocation (release builds check nothing more either way)",
                  live.size(), kAllocationTableEntries);
  }
  const std::uint64_t current_word = std::uint64_t(current);
  // A stream of its own that does not wait for kernels on the default stream: a kernel may run across the call.
  hipStream_t stream = nullptr;
  bool ok = hipStreamCreateWithFlags(&stream, hipStreamNonBlocking) == hipSuccess;
  if (ok && current != 0) {
    ok = hipMemcpyAsync(&area->allocation_tables[current - 1], table.data(), table.size() * sizeof(std::uint64_t),
                        hipMemcpyDefault, stream) == hipSuccess;
  }
  ok = ok && hipMemcpyAsync(&area->allocation_table_current, &current_word, sizeof current_word, hipMemcpyDefault,
                            stream) == hipSuccess;
  if (stream) { // (a null stream would be the default one, which waits for every kernel)
    ok = hipStreamSynchronize(stream) == hipSuccess && ok;
    (void)hipStreamDestroy(stream);
  }
  if (!ok) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU,
                          "copying the table of live allocations to the device failed: device code built with "
                          "PORTSHMEM_DEBUG_CHECKS=1 may judge ranges against a stale table");
  }
  rt.allocation_table = current;
  std::lock_guard<std::mutex> lock(rt.published_mutex);
  rt.published_blocks.assign(live.begin(), live.end());
  return PORTSHMEM_SUCCESS;
}

} // namespace portshmem::detail

using namespace portshmem::detail;

extern "C" {

void* portshmem_malloc(size_t size) {
  return allocate(size, kDefaultAlignment, false, "portshmem_malloc");
}

void* portshmem_align(size_t alignment, size_t size) {
  return allocate(size, alignment, false, "portshmem_align");
}

void* portshmem_calloc(size_t count, size_t size) {
  const bool overflow = size != 0 && count > std::numeric_limits<size_t>::max() / size;
  if (overflow && current()) {
    PORTSHMEM_LOG(error, "portshmem_calloc(%zu, %zu): the product overflows size_t", count, size);
  }
  return allocate(overflow ? std::numeric_limits<size_t>::max() : count * size, kDefaultAlignment, true,
                  "portshmem_calloc", overflow ? PORTSHMEM_ERR_OVERFLOW : PORTSHMEM_SUCCESS);
}

portshmem_status_t portshmem_free(void* ptr) {
  runtime* rt = current();
  if (!rt) {
    return PORTSHMEM_FAIL_NOT_RUNNING("portshmem_free");
  }
  std::lock_guard<std::mutex> lock(rt->mutex);
  // Compared across PEs as heap offsets; NULL and addresses outside the heap get fixed codes, so every PE passing
  // the same kind of argument agrees and a mix of kinds is a mismatch.
  constexpr std::uint64_t kNull = ~std::uint64_t(0), kOutside = kNull - 1;
  const std::uintptr_t raw =
      reinterpret_cast<std::uintptr_t>(ptr) - reinterpret_cast<std::uintptr_t>(rt->heap->local());
  const std::uint64_t offset = !ptr ? kNull : raw < rt->cfg.heap_size ? std::uint64_t(raw) : kOutside;
  if (auto s = same_everywhere(*rt, offset, "portshmem_free", "blocks (heap offsets)"); s != PORTSHMEM_SUCCESS) {
    return s;
  }
  if (offset == kOutside) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_NOT_SYMMETRIC, "portshmem_free(%p): not an address in the symmetric heap", ptr);
  }
  if (!ptr) return PORTSHMEM_SUCCESS;
  // Judged before the barrier, from the allocator every PE holds alike: a bad free fails everywhere, frees nothing.
  if (auto s = check_free(*rt, ptr, std::size_t(offset)); s != PORTSHMEM_SUCCESS) return s;
  // Wait until no PE can still be touching the block through a put in flight, then free it everywhere.
  if (auto s = portshmem_barrier_all(); s != PORTSHMEM_SUCCESS) return s;
  rt->allocator.release(std::size_t(offset)); // cannot fail: check_free found the block
  (void)publish_allocations(*rt);             // logs a failure; the block is free on every PE either way
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t portshmem_last_status(void) {
  return t_last_status;
}

void* portshmem_ptr(const void* addr, int pe) {
  runtime* rt = current();
  if (!rt) return set_last_status(PORTSHMEM_FAIL_NOT_RUNNING("portshmem_ptr")), nullptr;
  if (pe < 0 || pe >= rt->boot->size()) return set_last_status(PORTSHMEM_ERR_INVALID_PE), nullptr;
  const std::uintptr_t offset =
      reinterpret_cast<std::uintptr_t>(addr) - reinterpret_cast<std::uintptr_t>(rt->heap->local());
  // The reserved areas hold the runtime's own variables (barrier counters at the heap start, team words and scratch
  // at its end): not the user's.
  if (offset < kInternalHeapBytes || offset >= rt->teams.area_offset) {
    return set_last_status(PORTSHMEM_ERR_NOT_SYMMETRIC), nullptr;
  }
  if (!rt->peer_heaps[pe]) return set_last_status(PORTSHMEM_ERR_UNREACHABLE), nullptr;
  set_last_status(PORTSHMEM_SUCCESS);
  return rt->peer_heaps[pe] + offset;
}

} // extern "C"
