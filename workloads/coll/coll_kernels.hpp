// The collective workload's kernels, written once against a backend policy P (backend_portshmem.hpp: strict and
// relaxed; backend_nvshmem.hpp: NVSHMEM) and instantiated per policy and element type. Nothing here names a library:
// the policy makes every communication call, so the strict, relaxed and NVSHMEM runs execute the same kernel
// structure and differ only in the calls' qualifiers (or library).
//
// allreduce (sum), one launch = args.iters calls, each block b of the grid owning part b of every range:
//   one-shot  every PE puts its whole buffer into every peer's scratch (its own slot, one of two halves used
//             alternately), with a signal per (block, sender); each PE waits for its peers' signals and reduces
//             locally: sum over PEs 0..n-1 in order (its own contribution read from its src) into dest.
//   two-shot  reduce-scatter by slices: slice j of every PE's buffer goes to PE j's scratch (one slot per sender);
//             PE j waits, reduces slice j into its dest, then all-gathers: puts its reduced slice into every peer's
//             dest at the same offset, with a signal; each PE waits for every peer's slice.
// alltoall: block j of every PE's src goes to PE j's dest at offset (sender x block bytes), a signal per (block,
// sender); every PE waits for all n (itself included).
//
// Signals are counters (signal add 1) that only grow: call number t of an algorithm waits for ">= t" on each word,
// so launches run back to back with nothing reset. The host keeps the count of calls made on each signal set (the
// same on every PE) and passes it as args.epoch. One sender writes each word.
//
// Reuse of scratch between calls: one-shot alternates halves by the parity of t. A sender writes call t+1 into a
// peer's half only after it saw that peer's call-t signal for the same block, which the peer's block sent after it
// finished reading call t-1 from that half (same block, program order, a block barrier at the end of each call).
// Two-shot needs one half: a sender writes call t+1's slice after it saw the receiver's call-t all-gather signal,
// which the receiver's block sent after reducing call t's slice. Both arguments are the library's own for its
// collectives' scratch (docs/api.md, "Collectives"); they rest on a block's loads of scratch being done before the
// block's later signal, which every lowering of the signal (a release) keeps.
//
// Ranges are in 16-byte units (4 floats or 8 bf16): every part starts 16-byte aligned, and the reduction moves one
// 16-byte vector per thread and step. Sizes are multiples of 16 bytes (allreduce) or of 16 x n bytes (alltoall).
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common/bits.hpp"
#include "coll_args.hpp"

namespace wl {

/// A block's messages of at most this many bytes go to different peers in parallel, one wave per peer; larger ones go
/// one peer at a time with the whole block on each copy (the library's collectives choose alike: kFanOutWaveBytes).
inline constexpr std::size_t kWaveFanOutBytes = std::size_t(16) << 10;

struct f32 {}; ///< element tags: fp32 and bf16 (stored as its 16 bits)
struct bf16 {};

template <class T>
struct elem;
template <>
struct elem<f32> {
  static constexpr int lanes = 4; // per 16-byte unit
};
template <>
struct elem<bf16> {
  static constexpr int lanes = 8;
};

using workloads::bf16_of_f32;
using workloads::bits_of_f32;
using workloads::f32_of_bf16;
using workloads::f32_of_bits;
using workloads::unit16;

/// acc[] += the elements of one unit.
template <class T>
WL_DEVICE void accumulate(float* acc, const unit16& u) {
  if constexpr (elem<T>::lanes == 4) {
    for (int k = 0; k < 4; ++k) acc[k] += f32_of_bits(u.w[k]);
  } else {
    for (int k = 0; k < 4; ++k) {
      acc[2 * k] += f32_of_bf16(std::uint16_t(u.w[k] & 0xffffu));
      acc[2 * k + 1] += f32_of_bf16(std::uint16_t(u.w[k] >> 16));
    }
  }
}

/// The unit holding acc[] in T (bf16: rounded once, at the end of the sum).
template <class T>
WL_DEVICE unit16 pack(const float* acc) {
  unit16 u;
  if constexpr (elem<T>::lanes == 4) {
    for (int k = 0; k < 4; ++k) u.w[k] = bits_of_f32(acc[k]);
  } else {
    for (int k = 0; k < 4; ++k)
      u.w[k] = std::uint32_t(bf16_of_f32(acc[2 * k])) | std::uint32_t(bf16_of_f32(acc[2 * k + 1])) << 16;
  }
  return u;
}

/// [lo, hi) of part `i` of `parts` equal parts of [0, n).
struct range {
  std::size_t lo, hi;
  WL_HOST_DEVICE std::size_t size() const { return hi - lo; }
};
WL_HOST_DEVICE range part_of(std::size_t n, std::size_t parts, std::size_t i) {
  return {n * i / parts, n * (i + 1) / parts};
}
WL_HOST_DEVICE range shifted(range r, std::size_t by) {
  return {r.lo + by, r.hi + by};
}

WL_DEVICE unsigned waves_of_block() {
  return (dev::block_threads() + dev::wave_size() - 1) / dev::wave_size();
}

/// Sends message k (k in [0, count)) of this block with send(k, group): one wave per message when every message is
/// small (kWaveFanOutBytes) and the block has several waves, else the whole block on each message in turn. Every
/// thread of the block calls it; send receives wave or block and must make one put-with-signal of that group.
template <class Send>
WL_DEVICE void send_each(int count, std::size_t largest, Send&& send) {
  const unsigned waves = waves_of_block();
  if (largest <= kWaveFanOutBytes && waves > 1) {
    for (unsigned k = dev::thread_rank() / dev::wave_size(); k < unsigned(count); k += waves) send(int(k), grp::wave);
  } else {
    for (int k = 0; k < count; ++k) send(k, grp::block);
  }
}

/// dest[r] = sum over PEs 0..n-1, in order, of PE p's contribution: `own` for p == me, `slot(p)` otherwise (both
/// indexed from r.lo). The block's threads take the units in turn.
template <class T, class Slot>
WL_DEVICE void reduce_range(range r, int me, int n, const unit16* own, unit16* dest, Slot&& slot) {
  constexpr int L = elem<T>::lanes;
  for (std::size_t u = dev::thread_rank(); u < r.size(); u += dev::block_threads()) {
    float acc[L];
    for (int k = 0; k < L; ++k) acc[k] = 0.0f;
    for (int p = 0; p < n; ++p) accumulate<T>(acc, p == me ? own[u] : slot(p)[u]);
    dest[u] = pack<T>(acc);
  }
}

/// One-shot allreduce calls; see the top of the file.
template <class P, class T>
WL_DEVICE void one_shot(const P& pol, const coll_args& a, int me, int n, int b) {
  const std::size_t units = a.bytes / 16;
  const range mine = part_of(units, dev::grid_blocks(), b);
  auto* one = static_cast<unsigned char*>(a.one);
  std::uint64_t* words = a.sig + (std::size_t(kSigOne) * dev::grid_blocks() + b) * n;
  for (int it = 0; it < a.iters; ++it) {
    const std::uint64_t t = a.epoch + std::uint64_t(it) + 1;
    unsigned char* half = one + std::size_t(t & 1) * n * a.one_slot;
    // Every peer's copy of this half, slot `me`, part b: the same symmetric address on each peer.
    send_each(n - 1, mine.size() * 16, [&](int k, grp g) {
      const int pe = (me + 1 + k) % n;
      pol.put_signal(g, half + std::size_t(me) * a.one_slot + mine.lo * 16,
                     static_cast<const unsigned char*>(a.src) + mine.lo * 16, mine.size() * 16, words + me, pe);
    });
    if (dev::thread_rank() == 0) pol.wait_data(words, me, t);
    dev::block_sync();
    reduce_range<T>(
        mine, me, n, static_cast<const unit16*>(a.src) + mine.lo, static_cast<unit16*>(a.dest) + mine.lo,
        [&](int p) { return reinterpret_cast<const unit16*>(half + std::size_t(p) * a.one_slot) + mine.lo; });
    dev::block_sync(); // the whole block is done with this half before any of its waves sends the next call
  }
}

/// Two-shot allreduce calls; see the top of the file.
template <class P, class T>
WL_DEVICE void two_shot(const P& pol, const coll_args& a, int me, int n, int b) {
  const std::size_t units = a.bytes / 16, blocks = dev::grid_blocks();
  auto* two = static_cast<unsigned char*>(a.two);
  const auto* src = static_cast<const unsigned char*>(a.src);
  auto* dest = static_cast<unsigned char*>(a.dest);
  std::uint64_t* rs = a.sig + (std::size_t(kSigRs) * blocks + b) * n;
  std::uint64_t* ag = a.sig + (std::size_t(kSigAg) * blocks + b) * n;
  // Part b of slice j, in units of the whole buffer.
  auto part = [&](int j) {
    const range s = part_of(units, n, j);
    return shifted(part_of(s.size(), blocks, b), s.lo);
  };
  const range mine = part(me);
  const std::size_t my_slice_lo = part_of(units, n, me).lo;
  std::size_t largest = 0;
  for (int j = 0; j < n; ++j) largest = part(j).size() > largest ? part(j).size() : largest;
  for (int it = 0; it < a.iters; ++it) {
    const std::uint64_t t = a.epoch + std::uint64_t(it) + 1;
    // Reduce-scatter: part b of slice pe into pe's scratch, slot me (offset within the slice).
    send_each(n - 1, largest * 16, [&](int k, grp g) {
      const int pe = (me + 1 + k) % n;
      const range r = part(pe);
      const std::size_t in_slice = r.lo - part_of(units, n, pe).lo;
      pol.put_signal(g, two + std::size_t(me) * a.two_slot + in_slice * 16, src + r.lo * 16, r.size() * 16, rs + me,
                     pe);
    });
    if (dev::thread_rank() == 0) pol.wait_data(rs, me, t);
    dev::block_sync();
    reduce_range<T>(mine, me, n, reinterpret_cast<const unit16*>(src) + mine.lo,
                    reinterpret_cast<unit16*>(dest) + mine.lo, [&](int p) {
                      return reinterpret_cast<const unit16*>(two + std::size_t(p) * a.two_slot) +
                             (mine.lo - my_slice_lo);
                    });
    dev::block_sync(); // the reduced part is in dest before the block puts it
    // All-gather: the reduced part to every peer's dest, same offset.
    send_each(n - 1, mine.size() * 16, [&](int k, grp g) {
      const int pe = (me + 1 + k) % n;
      pol.put_signal(g, dest + mine.lo * 16, dest + mine.lo * 16, mine.size() * 16, ag + me, pe);
    });
    if (dev::thread_rank() == 0) pol.wait_after(ag, me, t, it + 1 == a.iters);
    dev::block_sync();
  }
}

/// Allreduce (sum of T) on every PE: args.iters calls of args.algo. Every thread of every block calls it.
template <class P, class T>
WL_DEVICE void allreduce(const P& pol, const coll_args& a) {
  const int me = pol.my_pe(), n = pol.n_pes(), b = int(dev::block_rank());
  if (a.algo == kOneShot) {
    one_shot<P, T>(pol, a, me, n, b);
  } else {
    two_shot<P, T>(pol, a, me, n, b);
  }
  pol.quiet();
}

/// Alltoall: args.iters calls, each PE's block pe to PE pe (itself included). Every thread of every block calls it.
template <class P>
WL_DEVICE void alltoall(const P& pol, const coll_args& a) {
  const int me = pol.my_pe(), n = pol.n_pes(), b = int(dev::block_rank());
  const range mine = part_of(a.bytes / 16, dev::grid_blocks(), b);
  const auto* src = static_cast<const unsigned char*>(a.src);
  auto* dest = static_cast<unsigned char*>(a.dest);
  std::uint64_t* words = a.sig + (std::size_t(kSigA2a) * dev::grid_blocks() + b) * n;
  for (int it = 0; it < a.iters; ++it) {
    const std::uint64_t t = a.epoch + std::uint64_t(it) + 1;
    send_each(n, mine.size() * 16, [&](int k, grp g) {
      const int pe = (me + k) % n;
      pol.put_signal(g, dest + std::size_t(me) * a.bytes + mine.lo * 16, src + std::size_t(pe) * a.bytes + mine.lo * 16,
                     mine.size() * 16, words + me, pe);
    });
    if (dev::thread_rank() == 0) pol.wait_after(words, -1, t, it + 1 == a.iters);
    dev::block_sync();
  }
  pol.quiet();
}

/// The kernels: one per policy and element type (alltoall moves bytes, so one per policy).
template <class P, class T>
WL_GLOBAL void allreduce_kernel(P pol, coll_args a) {
  allreduce<P, T>(pol, a);
}
template <class P>
WL_GLOBAL void alltoall_kernel(P pol, coll_args a) {
  alltoall<P>(pol, a);
}

} // namespace wl
