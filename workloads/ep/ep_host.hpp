// The expert-parallel workload's host side, shared by the portshmem program (ep_workload.cpp) and its NVSHMEM part
// (nvshmem_side.cu): flags, the routing and token data (from a seed, so every PE can compute every PE's), the buffer
// layout, the CPU reference and the checks, statistics over PEs, and the table / CSV / JSON output. Plain C++17 and
// MPI: no portshmem or NVSHMEM header. The layout rules it needs (which PE hosts an expert, which tokens a wave owns)
// are computed here independently of the kernel's own code, so that the check also checks them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../common/pe_stats.hpp"

#include "ep_args.hpp"

namespace ep {

/// The variants of one row: the workload's kernel in its two portshmem forms and written with NVSHMEM (builds with
/// PORTSHMEM_NVSHMEM_HOME only).
enum class variant { strict, relaxed, nvshmem };
inline constexpr int kVariants = 3;
const char* name_of(variant v);
const char* mode_name(int mode);

struct options {
  int min_tokens = 128, max_tokens = 4096, step = 2;
  int hidden = 7168, experts = 256, topk = 8;
  std::uint64_t seed = 1;
  std::vector<int> modes{kNormal, kLowLatency};
  bool run[kVariants] = {true, true, true};
  int ll_cap = 0; ///< low-latency slots per (expert, source): 0 auto (the routing's largest count), -1 worst (T)
  int iters = 20, warmup = 5, repeats = 5;
  unsigned blocks = 16, threads = 512;
  bool corrupt = false; ///< flip one bit of PE 0's result before the check (shows that the check can fail)
  std::string csv, json;
};
/// Parses argv into o (whose fields hold the platform's defaults); returns an error ("help" for -h), empty if fine.
std::string parse(int argc, char** argv, options& o, int pes);
const char* usage();
/// The sweep's token counts: min, min x step, ... up to max.
std::vector<int> tokens_of(const options& o);

/// Which PE hosts expert e (PE d hosts [E d / n, E (d + 1) / n)), and PE d's first expert.
int owner(int e, int experts, int n);
int expert_first(int d, int experts, int n);
/// The tokens [lo, hi) that wave g of `waves` owns.
int wave_first(int g, int waves, int tokens);

/// Every PE's routing for T tokens, from the seed (the first T tokens of any larger T route the same way).
struct routing {
  int pes = 0, tokens = 0, experts = 0, topk = 0;
  std::vector<int> expert; ///< [pe][t][k], distinct per token
  std::vector<int> w64;    ///< [pe][t][k]: the gate weight is w64 / 64, 1 <= w64 <= 63
  int e(int pe, int t, int k) const { return expert[(std::size_t(pe) * tokens + t) * topk + k]; }
  float w(int pe, int t, int k) const { return float(w64[(std::size_t(pe) * tokens + t) * topk + k]) / 64.0f; }
  /// The PEs that host one of token (pe, t)'s experts (bit d: PE d).
  std::uint64_t dests(int pe, int t) const;
};
routing make_routing(const options& o, int pes, int tokens);
/// bf16 bits of element h of token t of PE pe: k / 64 with |k| <= 127 (exact in bf16).
std::uint32_t x_bits(std::uint64_t seed, int pe, int t, int h);
/// PE me's tokens ([T][hidden] bf16) and route records ([T], route_bytes apart).
std::vector<std::uint8_t> make_x(const options& o, int me, int tokens);
std::vector<std::uint8_t> make_route(const routing& rt, int me);
/// The low-latency capacity for this routing and flag: the largest copies count of any (expert, source), or T.
int ll_capacity_of(const options& o, const routing& rt, int n);
/// Token copies one PE sends per dispatch (and gets back per combine), averaged over PEs: normal one per (token,
/// destination PE), low latency one per (token, expert).
double copies_per_pe(const routing& rt, int mode, int n);

/// Byte offsets of the buffers in one symmetric block (256-byte aligned), and word offsets in the signal block.
struct layout {
  std::size_t x = 0, route = 0, n_data = 0, n_meta = 0, n_stage = 0, n_back = 0, l_data = 0, l_meta = 0, l_stage = 0,
              l_back = 0, out = 0, total = 0;
  std::size_t n_dsig = 0, n_csig = 0, l_dsig = 0, l_csig = 0, words = 0;
};
/// For T tokens, low-latency capacity cap and `waves` in the grid; a mode not run gets no room.
layout layout_of(const options& o, int n, int tokens, int cap, int waves, bool normal, bool ll);

/// What a PE read back after a row's last round (host copies of its buffers and signal words).
struct readback {
  std::vector<std::uint8_t> data, meta, out; ///< the mode's dispatch region and metadata, the combined tokens
  std::vector<std::uint64_t> dsig, csig;     ///< the mode's dispatch and combine words
};
/// The number of wrong things on PE me after the round numbered `call` (counts in the words, every received copy
/// and its metadata, every element of the combined tokens, bit for bit); the first is described on stderr, naming the
/// PE, the token and the element. `what` names the row.
std::size_t check_normal(const options& o, const routing& rt, int me, int n, int waves, std::uint64_t call,
                         const readback& r, const std::string& what);
std::size_t check_ll(const options& o, const routing& rt, int me, int n, int cap, std::uint64_t call, const readback& r,
                     const std::string& what);

using workloads::max_over_pes;
using workloads::median;
using workloads::sum_over_pes;

/// One measured (row, variant).
struct result {
  int mode = 0, tokens = 0, cap = 0;
  variant v = variant::strict;
  double copies = 0;               ///< copies_per_pe
  double disp_us = 0, comb_us = 0; ///< median over the timed launches of the slowest PE's mean time per call
  bool ok = true, checked = false;
};

/// The table on stdout, and the CSV / JSON files.
class report {
 public:
  report(const options& o, int n, int waves, std::string who);
  void header(const std::vector<variant>& vs);
  void row(const std::vector<result>& rs);
  /// Writes the files (PE 0 only); false when one could not be written.
  bool finish();

 private:
  const options& o_;
  int n_, waves_;
  std::string who_;
  std::vector<variant> vs_;
  std::vector<result> all_;
};

} // namespace ep
