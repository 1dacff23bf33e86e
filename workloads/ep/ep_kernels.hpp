// The expert-parallel workload's kernel, written once against a backend policy P (backend_portshmem.hpp: strict and
// relaxed; backend_nvshmem.hpp: NVSHMEM) and instantiated once per policy: one kernel runs the four phases (normal or
// low-latency mode, dispatch or combine), chosen by its arguments, so that each backend costs one device compilation
// of it. Nothing here names a library: the policy makes every communication call.
//
// Shape: every PE has T tokens of `units` 16-byte units (hidden / 8 bf16) and each token's top-K experts with gate
// weights (its route record); PE d hosts experts [E d / n, E (d + 1) / n). The grid's waves are numbered
// g = block x waves per block + wave (G in all); wave g owns tokens [T g / G, T (g + 1) / G) of its PE.
//
// normal mode (throughput: one copy per destination PE)
//   dispatch  wave g sends each of its tokens once to every PE that hosts one of its experts: the token and its route
//             record into the destination's region for this source, compactly from slot lo(g) (a fixed worst-case
//             layout: each source has T slots on every PE, so no counts travel before the data), then one fence and,
//             per destination, a signal word (g, source) set to (call << 32) | copies. Block b then waits for the
//             words of its waves from every source.
//   combine   the expert stage and the way back, then the origin's sum. Wave g reads each copy that the sources'
//             waves g sent here; its partial is the gate-weighted sum over this PE's experts among the token's top-K,
//             sum_k w_k (x (e_k + 1) / 256), in fp32 in k order, rounded once to bf16 (the tensor an MoE layer's
//             experts hand to combine, one per (token, PE) as in DeepEP's normal mode); it goes back to the origin at
//             [token][this PE], then one fence and a signal per origin. Block b waits for its waves' words from every
//             PE and sums each of its tokens' partials in fp32 in PE order, rounding once to bf16.
// low-latency mode (per-expert copies, fixed-capacity per-expert buffers, no count exchange, one kernel each)
//   dispatch  wave g handles experts g, g + G, ...: it scans the PE's tokens (a wave-wide test per token, then the
//             matches in token order) and puts each token routed to expert e into e's buffer for this source on the
//             hosting PE, with its (token, k) by p, then a fence and the word (e, source) set to (call << 32) | copies.
//             Block b waits for the words of the local experts its waves handle, from every source.
//   combine   wave g, for each local expert it handles and each source: the expert's output bf16(x (e + 1) / 256) per
//             received copy goes back to the origin at [token][k], then a fence and the origin's word e. Every block
//             waits for all E words, then sums its tokens' K outputs with their gate weights in fp32 in k order,
//             rounding once to bf16.
//
// Signal words only grow: a word is set once per round by one sender wave to (call << 32) | count, and call t waits
// for ">= t << 32", so rounds run back to back and launches follow each other with nothing reset; the count rides in
// the low half (the combine reads it back with fetch).
//
// Buffer reuse (nothing is cleared between rounds):
//  - a dispatch region (normal: source s's slots of wave g; low latency: expert e's buffer for source s) is written
//    by round t + 1's dispatch of s only after s's combine of round t saw this PE's combine signal for it (the
//    normal word (g, this PE), the low-latency word e), which this PE's wave set after it had read every copy of the
//    region (the reads feed the staging stores and the put addresses that precede its fence and signal) — and s runs
//    its next dispatch only after that combine kernel ended;
//  - a combine buffer on the origin ([t][d] or [t][k]) is written by round t + 1's combine of the expert PE only after
//    that PE's dispatch of round t + 1 saw the origin's dispatch signals, which the origin sets in a launch after the
//    combine that read round t's values;
//  - staging is rewritten by the next combine launch of the same PE, after this launch's quiet completed the puts
//    that read it; the inputs never change during a row; the scan scratch is private to its wave.
// These are the arguments of workloads/coll (and the library's collectives): they rest on the reads being done
// before the later signal, which every lowering keeps (a fence, then the write).
//
// Every product the kernel forms is exact in fp32 (x = k / 64 with |k| <= 127, weights j / 64 with j < 64, scales
// (e + 1) / 256 for up to 2048 experts; the host chooses them so), so a compiler's contraction into FMA changes
// nothing, and the sums run in a fixed order: the CPU reference reproduces every bit.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common/bits.hpp"
#include "ep_args.hpp"

namespace ep {

using workloads::bf16_of_f32;
using workloads::bits_of_f32;
using workloads::f32_of_bf16;
using workloads::f32_of_bits;
using workloads::pack; // the 8 elements of a unit as floats, and 8 floats rounded into a unit
using workloads::unit16;
using workloads::unpack;

/// The first expert of PE d, and the PE that hosts expert e: the largest d with expert_lo(d) <= e (experts split as
/// evenly as n allows; 32-bit arithmetic: the host keeps experts x PEs below 2^31).
WL_HOST_DEVICE int expert_lo(int d, int experts, int n) {
  return experts * d / n;
}
WL_HOST_DEVICE int owner_of(int e, int experts, int n) {
  return ((e + 1) * n - 1) / experts;
}
/// First token of wave g of G (of T).
WL_HOST_DEVICE int wave_lo(int g, int waves, int tokens) {
  return int(static_cast<long long>(tokens) * g / waves);
}

/// The calling thread's wave: its global number, the grid's waves, its lane and its wave's lanes.
struct wave_id {
  int g, waves, per_block, lane, lanes;
};
WL_DEVICE wave_id my_wave() {
  const unsigned ws = dev::wave_size(), t = dev::thread_rank(), bt = dev::block_threads();
  const unsigned per = (bt + ws - 1) / ws, w = t / ws, first = w * ws;
  wave_id id;
  id.per_block = int(per);
  id.g = int(dev::block_rank() * per + w);
  id.waves = int(dev::grid_blocks() * per);
  id.lane = int(t - first);
  id.lanes = int(bt - first < ws ? bt - first : ws);
  return id;
}

/// The route record of token t: its experts and weights.
struct route_ref {
  const int* expert;
  const float* weight;
};
WL_DEVICE route_ref route_of(const void* base, std::size_t bytes, int topk, std::size_t t) {
  const int* e = reinterpret_cast<const int*>(static_cast<const unsigned char*>(base) + t * bytes + 16);
  return {e, reinterpret_cast<const float*>(e + topk)};
}
WL_DEVICE int token_of(const void* base, std::size_t bytes, std::size_t slot) {
  return *reinterpret_cast<const int*>(static_cast<const unsigned char*>(base) + slot * bytes);
}

/// The PEs that host one of the token's experts, as a mask (bit d: PE d).
WL_DEVICE std::uint64_t dests_of(const route_ref& r, int topk, int experts, int n) {
  std::uint64_t m = 0;
  for (int k = 0; k < topk; ++k) {
    m |= std::uint64_t(1) << owner_of(r.expert[k], experts, n);
  }
  return m;
}

/// Whether one of the token's experts is in [e_lo, e_hi) (a PE's experts).
WL_DEVICE bool routes_to(const route_ref& r, int topk, int e_lo, int e_hi) {
  bool any = false;
  for (int k = 0; k < topk; ++k) any = any || (r.expert[k] >= e_lo && r.expert[k] < e_hi);
  return any;
}

WL_DEVICE std::uint32_t count_of(std::uint64_t word) {
  return std::uint32_t(word & 0xffffffffu);
}

// ---- normal mode ---------------------------------------------------------------------------------------------------

template <class P>
WL_DEVICE void normal_dispatch(const P& pol, const ep_args& a, int me, int n, const wave_id& w) {
  const int lo = wave_lo(w.g, w.waves, a.tokens), hi = wave_lo(w.g + 1, w.waves, a.tokens);
  const std::size_t tb = std::size_t(a.units) * 16, rb = a.route_bytes;
  const auto* x = static_cast<const unsigned char*>(a.x);
  const auto* route = static_cast<const unsigned char*>(a.route);
  auto* data = static_cast<unsigned char*>(a.n_data);
  auto* meta = static_cast<unsigned char*>(a.n_meta);
  // Destinations in turn from the next PE on (this PE last), each token once per destination, in token order.
  for (int j = 1; j <= n; ++j) {
    const int d = (me + j) % n, e_lo = expert_lo(d, a.experts, n), e_hi = expert_lo(d + 1, a.experts, n);
    std::size_t slot = std::size_t(me) * a.tokens + lo;
    for (int t = lo; t < hi; ++t) {
      if (!routes_to(route_of(route, rb, a.topk, t), a.topk, e_lo, e_hi)) continue;
      pol.put(data + slot * tb, x + std::size_t(t) * tb, tb, d);
      pol.put(meta + slot * rb, route + std::size_t(t) * rb, rb, d);
      ++slot;
    }
  }
  if (w.lane == 0) {
    pol.fence(); // the wave's copies to each PE before that PE's signal
    for (int j = 1; j <= n; ++j) {
      const int d = (me + j) % n, e_lo = expert_lo(d, a.experts, n), e_hi = expert_lo(d + 1, a.experts, n);
      std::uint32_t copies = 0;
      for (int t = lo; t < hi; ++t) copies += routes_to(route_of(route, rb, a.topk, t), a.topk, e_lo, e_hi) ? 1 : 0;
      pol.signal(a.n_dsig + std::size_t(w.g) * n + me, a.call << 32 | copies, d);
    }
  }
  // Block b's waves' words from every source: what they sent here has arrived (the combine launch reads it).
  if (dev::thread_rank() == 0) {
    const std::size_t first = std::size_t(dev::block_rank()) * w.per_block * n;
    pol.wait_data(a.n_dsig + first, std::size_t(w.per_block) * n, a.call << 32);
  }
}

template <class P>
WL_DEVICE void normal_combine(const P& pol, const ep_args& a, int me, int n, const wave_id& w) {
  const int lo = wave_lo(w.g, w.waves, a.tokens), hi = wave_lo(w.g + 1, w.waves, a.tokens);
  const std::size_t tb = std::size_t(a.units) * 16, rb = a.route_bytes;
  const int e_lo = expert_lo(me, a.experts, n), e_hi = expert_lo(me + 1, a.experts, n);
  const auto* data = static_cast<const unit16*>(a.n_data);
  const auto* meta = static_cast<const unsigned char*>(a.n_meta);
  auto* stage = static_cast<unit16*>(a.n_stage);
  auto* back = static_cast<unsigned char*>(a.n_back);
  // The expert stage and the way back: every copy that the sources' waves g sent here.
  for (int j = 1; j <= n; ++j) {
    const int s = (me + j) % n;
    const std::uint32_t got = count_of(pol.fetch(a.n_dsig + std::size_t(w.g) * n + s));
    const std::size_t copies = got < std::uint32_t(hi - lo) ? got : std::uint32_t(hi - lo);
    for (std::size_t i = 0; i < copies; ++i) {
      const std::size_t slot = std::size_t(s) * a.tokens + lo + i;
      const route_ref r = route_of(meta, rb, a.topk, slot);
      for (int u = w.lane; u < a.units; u += w.lanes) {
        float v[8], acc[8];
        unpack(data[slot * a.units + u], v);
        for (int q = 0; q < 8; ++q) acc[q] = 0.0f;
        for (int k = 0; k < a.topk; ++k) {
          const int e = r.expert[k];
          if (e < e_lo || e >= e_hi) continue;
          const float scale = float(e + 1) / 256.0f, wk = r.weight[k];
          for (int q = 0; q < 8; ++q) acc[q] += v[q] * scale * wk;
        }
        stage[slot * a.units + u] = pack(acc);
      }
      const int t = token_of(meta, rb, slot);
      pol.put(back + (std::size_t(t) * n + me) * tb, stage + slot * a.units, tb, s);
    }
  }
  if (w.lane == 0) {
    pol.fence();
    for (int j = 1; j <= n; ++j) {
      const int s = (me + j) % n;
      const std::uint32_t got = count_of(pol.fetch(a.n_dsig + std::size_t(w.g) * n + s));
      pol.signal(a.n_csig + std::size_t(w.g) * n + me, a.call << 32 | got, s);
    }
  }
  // The origin: block b's tokens, once every PE's waves (block b's numbers) sent their partials back.
  if (dev::thread_rank() == 0) {
    const std::size_t first = std::size_t(dev::block_rank()) * w.per_block * n;
    pol.wait_data(a.n_csig + first, std::size_t(w.per_block) * n, a.call << 32);
  }
  dev::block_sync();
  const int b0 = int(dev::block_rank()) * w.per_block;
  const int t_lo = wave_lo(b0, w.waves, a.tokens), t_hi = wave_lo(b0 + w.per_block, w.waves, a.tokens);
  const auto* in = static_cast<const unit16*>(a.n_back);
  auto* out = static_cast<unit16*>(a.out);
  const auto* route = a.route;
  for (int t = t_lo; t < t_hi; ++t) {
    const std::uint64_t dests = dests_of(route_of(route, rb, a.topk, t), a.topk, a.experts, n);
    for (int u = int(dev::thread_rank()); u < a.units; u += int(dev::block_threads())) {
      float acc[8], v[8];
      for (int q = 0; q < 8; ++q) acc[q] = 0.0f;
      for (int d = 0; d < n; ++d) {
        if (!(dests >> d & 1)) continue;
        unpack(in[(std::size_t(t) * n + d) * a.units + u], v);
        for (int q = 0; q < 8; ++q) acc[q] += v[q];
      }
      out[std::size_t(t) * a.units + u] = pack(acc);
    }
  }
}

// ---- low-latency mode ----------------------------------------------------------------------------------------------

template <class P>
WL_DEVICE void ll_dispatch(const P& pol, const ep_args& a, int me, int n, const wave_id& w) {
  const std::size_t tb = std::size_t(a.units) * 16, rb = a.route_bytes;
  const auto* x = static_cast<const unsigned char*>(a.x);
  auto* data = static_cast<unsigned char*>(a.l_data);
  const unsigned ws = dev::wave_size();
  int* list = a.scratch + std::size_t(w.g) * ws;
  for (int e = w.g; e < a.experts; e += w.waves) {
    const int d = owner_of(e, a.experts, n);
    const int le = e - expert_lo(d, a.experts, n);
    const std::size_t region = (std::size_t(le) * n + me) * std::size_t(a.ll_cap);
    std::uint32_t copies = 0;
    for (int base = 0; base < a.tokens; base += w.lanes) {
      // Each lane tests one token; then the wave sends the matches in token order.
      const int t = base + w.lane;
      int k_of = -1;
      if (t < a.tokens) {
        const route_ref r = route_of(a.route, rb, a.topk, t);
        for (int k = 0; k < a.topk; ++k) k_of = r.expert[k] == e ? k : k_of;
      }
      list[w.lane] = k_of;
      dev::wave_sync();
      const int m = a.tokens - base < w.lanes ? a.tokens - base : w.lanes;
      for (int i = 0; i < m; ++i) {
        const int k = list[i];
        if (k < 0) continue;
        if (copies < std::uint32_t(a.ll_cap)) { // over capacity: counted (the check reports it), not sent
          const std::size_t slot = region + copies;
          pol.put(data + slot * tb, x + std::size_t(base + i) * tb, tb, d);
          if (w.lane == 0) pol.put_int(a.l_meta + slot, (base + i) * a.topk + k, d);
        }
        ++copies;
      }
      dev::wave_sync(); // every lane has read the list before it is written again
    }
    if (w.lane == 0) {
      pol.fence();
      pol.signal(a.l_dsig + std::size_t(le) * n + me, a.call << 32 | copies, d);
    }
  }
  // The words of the local experts that block b's waves handle (their number g on every PE), from every source.
  if (dev::thread_rank() == 0) {
    const int e_lo = expert_lo(me, a.experts, n), e_hi = expert_lo(me + 1, a.experts, n);
    for (int e = e_lo; e < e_hi; ++e) {
      if ((e % w.waves) / w.per_block != int(dev::block_rank())) continue;
      pol.wait_data(a.l_dsig + std::size_t(e - e_lo) * n, std::size_t(n), a.call << 32);
    }
  }
}

template <class P>
WL_DEVICE void ll_combine(const P& pol, const ep_args& a, int me, int n, const wave_id& w) {
  const std::size_t tb = std::size_t(a.units) * 16;
  const int e_lo = expert_lo(me, a.experts, n), e_hi = expert_lo(me + 1, a.experts, n);
  const auto* data = static_cast<const unit16*>(a.l_data);
  auto* stage = static_cast<unit16*>(a.l_stage);
  auto* back = static_cast<unsigned char*>(a.l_back);
  // The experts and the way back: this wave's local experts, every source's copies.
  for (int e = e_lo; e < e_hi; ++e) {
    if (e % w.waves != w.g) continue;
    const int le = e - e_lo;
    const float scale = float(e + 1) / 256.0f;
    for (int j = 1; j <= n; ++j) {
      const int s = (me + j) % n;
      const std::uint32_t got = count_of(pol.fetch(a.l_dsig + std::size_t(le) * n + s));
      const std::size_t copies = got < std::uint32_t(a.ll_cap) ? got : std::uint32_t(a.ll_cap);
      const std::size_t region = (std::size_t(le) * n + s) * std::size_t(a.ll_cap);
      for (std::size_t i = 0; i < copies; ++i) {
        const std::size_t slot = region + i;
        for (int u = w.lane; u < a.units; u += w.lanes) {
          float v[8];
          unpack(data[slot * a.units + u], v);
          for (int q = 0; q < 8; ++q) v[q] *= scale;
          stage[slot * a.units + u] = pack(v);
        }
        const int tk = a.l_meta[slot]; // token x topk + k on the origin
        pol.put(back + std::size_t(tk) * tb, stage + slot * a.units, tb, s);
      }
    }
    if (w.lane == 0) {
      pol.fence();
      for (int j = 1; j <= n; ++j) {
        const int s = (me + j) % n;
        const std::uint32_t got = count_of(pol.fetch(a.l_dsig + std::size_t(le) * n + s));
        pol.signal(a.l_csig + e, a.call << 32 | got, s);
      }
    }
  }
  // The origin: every expert's word (any of a token's experts may be anywhere), then block b's tokens.
  if (dev::thread_rank() == 0) pol.wait_data(a.l_csig, std::size_t(a.experts), a.call << 32);
  dev::block_sync();
  const int b0 = int(dev::block_rank()) * w.per_block;
  const int t_lo = wave_lo(b0, w.waves, a.tokens), t_hi = wave_lo(b0 + w.per_block, w.waves, a.tokens);
  const auto* in = static_cast<const unit16*>(a.l_back);
  auto* out = static_cast<unit16*>(a.out);
  for (int t = t_lo; t < t_hi; ++t) {
    const route_ref r = route_of(a.route, a.route_bytes, a.topk, t);
    for (int u = int(dev::thread_rank()); u < a.units; u += int(dev::block_threads())) {
      float acc[8], v[8];
      for (int q = 0; q < 8; ++q) acc[q] = 0.0f;
      for (int k = 0; k < a.topk; ++k) {
        unpack(in[(std::size_t(t) * a.topk + k) * a.units + u], v);
        const float wk = r.weight[k];
        for (int q = 0; q < 8; ++q) acc[q] += wk * v[q];
      }
      out[std::size_t(t) * a.units + u] = pack(acc);
    }
  }
}

/// The workload's kernel: one phase of one mode per launch, every thread of every block. All blocks of every PE must
/// be resident at once (blocks wait for other PEs' blocks, and the low-latency combine for this PE's other blocks).
template <class P>
WL_GLOBAL void ep_kernel(P pol, ep_args a) {
  const int me = pol.my_pe(), n = pol.n_pes();
  const wave_id w = my_wave();
  if (a.mode == kNormal) {
    if (a.phase == kDispatch)
      normal_dispatch(pol, a, me, n, w);
    else
      normal_combine(pol, a, me, n, w);
  } else {
    if (a.phase == kDispatch)
      ll_dispatch(pol, a, me, n, w);
    else
      ll_combine(pol, a, me, n, w);
  }
  pol.quiet();
}

} // namespace ep
