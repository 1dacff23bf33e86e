// The data mover under every put and get: a group of threads copies n bytes with the widest access the two
// addresses' relative alignment allows (16, 8, 4, 2 or 1 byte), through arch::store_data/load_data so the cache
// hint (keep or bypass) reaches the instruction. On GPUs threads take interleaved units (coalesced); on the host
// platform each thread takes contiguous runs (no false sharing between CPU cores).
#pragma once

#include <cstddef>
#include <cstdint>

#include "portshmem/arch.hpp"

namespace portshmem::detail {

/// Units each thread copies contiguously before moving on by the group's stride.
inline constexpr std::size_t kCopyRunUnits = PORTSHMEM_PLATFORM_HOST ? 512 : 1;
/// Independent loads a GPU thread keeps in flight before storing (memory-level parallelism).
inline constexpr unsigned kCopyUnroll = 4;

/// Bytes of the cache line a GPU wave's accesses should start on (the 128-byte L1/L2 line of both vendors).
inline constexpr std::size_t kLineBytes = 128;

/// L and C are the cache policies of the loads (source) and the stores (destination); S the scope they serve.
template <class Unit, arch::cache L, arch::cache C, arch::scope S>
PORTSHMEM_DEVICE void copy_one(Unit* dst, const Unit* src, std::size_t i) {
  arch::store_data<C, S>(dst + i, arch::load_data<L, S>(src + i));
}

/// Bytes up to which a lone thread copies with one plain loop instead of the bulk schedule below, whose setup (the
/// alignment class, a line-aligned lead-in, an unrolled body, a tail) is a long chain of dependent
/// instructions for a GPU thread: about a microsecond per small put on an H200, measured in an 8-byte ping-pong.
inline constexpr std::size_t kShortCopyBytes = 256;

/// Loads kCopyUnroll units before storing them: a store (asm volatile on GPUs) keeps every later load behind it, so
/// a load-store loop would wait one memory latency per unit.
template <class Unit, arch::cache L, arch::cache C, arch::scope S>
PORTSHMEM_DEVICE void copy_each(char* dst_, const char* src_, std::size_t n) {
  Unit* dst = reinterpret_cast<Unit*>(dst_);
  const Unit* src = reinterpret_cast<const Unit*>(src_);
  const std::size_t units = n / sizeof(Unit);
  std::size_t i = 0;
  for (; i + kCopyUnroll <= units; i += kCopyUnroll) {
    Unit u[kCopyUnroll];
#pragma unroll
    for (unsigned k = 0; k < kCopyUnroll; ++k) u[k] = arch::load_data<L, S>(src + i + k);
#pragma unroll
    for (unsigned k = 0; k < kCopyUnroll; ++k) arch::store_data<C, S>(dst + i + k, u[k]);
  }
  for (; i < units; ++i) copy_one<Unit, L, C, S>(dst, src, i);
}

/// A lone thread's short copy, in the widest unit that both addresses and the length allow.
template <arch::cache L, arch::cache C, arch::scope S>
PORTSHMEM_DEVICE void copy_short(char* dst, const char* src, std::size_t n) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src) | n;
  if (a % 16 == 0) {
    copy_each<arch::vec16, L, C, S>(dst, src, n);
  } else if (a % 8 == 0) {
    copy_each<std::uint64_t, L, C, S>(dst, src, n);
  } else if (a % 4 == 0) {
    copy_each<std::uint32_t, L, C, S>(dst, src, n);
  } else if (a % 2 == 0) {
    copy_each<std::uint16_t, L, C, S>(dst, src, n);
  } else {
    copy_each<std::uint8_t, L, C, S>(dst, src, n);
  }
}

template <class Unit, arch::cache L, arch::cache C, arch::scope S, std::size_t Run>
PORTSHMEM_DEVICE void copy_units(Unit* dst, const Unit* src, std::size_t units, unsigned rank, unsigned size) {
  if constexpr (Run == 1) {
    // Count units from the start of the line holding dst[0] ("virtual" index v = i + lead), so every wave's accesses
    // cover whole lines even when the caller's range starts mid-line: a misaligned start otherwise costs every
    // wave an extra partial line (measured on an H200: -17% at 1 GiB for block-sized shares at odd offsets).
    const std::size_t lead = reinterpret_cast<std::uintptr_t>(dst) % kLineBytes / sizeof(Unit);
    const std::size_t end = units + lead, stride = std::size_t(size) * kCopyUnroll;
    std::size_t v = rank;
    for (; v < end && (v < stride || v < lead); v += size) { // the lead-in: check each index
      if (v >= lead) copy_one<Unit, L, C, S>(dst, src, v - lead);
    }
    for (; v + (kCopyUnroll - 1) * std::size_t(size) < end; v += stride) {
      Unit u[kCopyUnroll];
#pragma unroll
      for (unsigned k = 0; k < kCopyUnroll; ++k) u[k] = arch::load_data<L, S>(src + (v - lead) + k * std::size_t(size));
#pragma unroll
      for (unsigned k = 0; k < kCopyUnroll; ++k) arch::store_data<C, S>(dst + (v - lead) + k * std::size_t(size), u[k]);
    }
    for (; v < end; v += size) copy_one<Unit, L, C, S>(dst, src, v - lead);
  } else {
    const std::size_t stride = std::size_t(size) * Run;
    for (std::size_t run = std::size_t(rank) * Run; run < units; run += stride) {
      const std::size_t end = run + Run < units ? run + Run : units;
      for (std::size_t i = run; i < end; ++i) copy_one<Unit, L, C, S>(dst, src, i);
    }
  }
}

/// One piece of a tail: a T at dst + at if the tail's length has the bit sizeof(T), then past it.
template <class T, arch::cache L, arch::cache C, arch::scope S>
PORTSHMEM_DEVICE void copy_tail_piece(char* dst, const char* src, std::size_t n, std::size_t& at) {
  if (n & sizeof(T)) {
    copy_one<T, L, C, S>(reinterpret_cast<T*>(dst + at), reinterpret_cast<const T*>(src + at), 0);
    at += sizeof(T);
  }
}

/// The last n < U bytes after a body of U-byte units: both addresses are U-aligned here, so the tail is at most one
/// access of each narrower power of two, widest first (each stays aligned). Straight-line code: a short copy that
/// rediscovers the alignment instead put five loops after every body and tripled the copy's code.
template <std::size_t U, arch::cache L, arch::cache C, arch::scope S>
PORTSHMEM_DEVICE void copy_tail(char* dst, const char* src, std::size_t n) {
  std::size_t at = 0;
  if constexpr (U > 8) copy_tail_piece<std::uint64_t, L, C, S>(dst, src, n, at);
  if constexpr (U > 4) copy_tail_piece<std::uint32_t, L, C, S>(dst, src, n, at);
  if constexpr (U > 2) copy_tail_piece<std::uint16_t, L, C, S>(dst, src, n, at);
  if constexpr (U > 1) copy_tail_piece<std::uint8_t, L, C, S>(dst, src, n, at);
}

/// Copies the bytes [0, n) by the group's threads, splitting into an unaligned head, a body of Units, and a tail.
template <class Unit, arch::cache L, arch::cache C, arch::scope S, std::size_t Run>
PORTSHMEM_DEVICE void copy_aligned_as(char* dst, const char* src, std::size_t n, unsigned rank, unsigned size) {
  constexpr std::size_t U = sizeof(Unit);
  std::size_t head = (U - reinterpret_cast<std::uintptr_t>(dst) % U) % U;
  if (head > n) head = n;
  const std::size_t units = (n - head) / U;
  const std::size_t tail_start = head + units * U;
  for (std::size_t i = rank; i < head; i += size) copy_one<char, L, C, S>(dst, src, i);
  copy_units<Unit, L, C, S, Run>(reinterpret_cast<Unit*>(dst + head), reinterpret_cast<const Unit*>(src + head), units,
                                 rank, size);
  // The tail (shorter than a Unit) is one member's: a few aligned stores, and no setup for the others.
  if (tail_start < n && rank == 0) copy_tail<U, L, C, S>(dst + tail_start, src + tail_start, n - tail_start);
}

/// Copies n bytes from src to dst (non-overlapping) using the group's threads rank in [0, size); L and C are the
/// cache policies of loads and stores, S the widest scope that will read the data (it matters on AMD). Run is the
/// schedule (kCopyRunUnits); tests pass 1 to run the GPU schedule on the host platform.
template <arch::cache L, arch::cache C, arch::scope S, std::size_t Run = kCopyRunUnits>
PORTSHMEM_DEVICE void copy_bytes(void* dst_, const void* src_, std::size_t n, unsigned rank, unsigned size) {
  char* dst = static_cast<char*>(dst_);
  const char* src = static_cast<const char*>(src_);
  if (size == 1 && n <= kShortCopyBytes) return copy_short<L, C, S>(dst, src, n);
  const std::uintptr_t skew = reinterpret_cast<std::uintptr_t>(dst) ^ reinterpret_cast<std::uintptr_t>(src);
  if (skew % 16 == 0) {
    copy_aligned_as<arch::vec16, L, C, S, Run>(dst, src, n, rank, size);
  } else if (skew % 8 == 0) {
    copy_aligned_as<std::uint64_t, L, C, S, Run>(dst, src, n, rank, size);
  } else if (skew % 4 == 0) {
    copy_aligned_as<std::uint32_t, L, C, S, Run>(dst, src, n, rank, size);
  } else if (skew % 2 == 0) {
    copy_aligned_as<std::uint16_t, L, C, S, Run>(dst, src, n, rank, size);
  } else {
    copy_aligned_as<std::uint8_t, L, C, S, Run>(dst, src, n, rank, size);
  }
}

} // namespace portshmem::detail
