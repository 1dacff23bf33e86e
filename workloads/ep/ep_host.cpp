// The expert-parallel workload's host side (ep_host.hpp).
#include "ep_host.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ep {

const char* name_of(variant v) {
  static const char* const names[kVariants] = {"strict", "relaxed", "nvshmem"};
  return names[int(v)];
}
const char* mode_name(int mode) {
  return mode == kNormal ? "normal" : "ll";
}

const char* usage() {
  return "usage: ep_workload [flags]   (run with scripts/portshmem-run -np N)\n"
         "  -b, --min_tokens N        fewest tokens per PE; default 128 (host platform: 8)\n"
         "  -e, --max_tokens N        most tokens per PE; default 4096 (host platform: 16)\n"
         "  -f, --step N              token count step factor; default 2\n"
         "      --hidden N            elements per token (bf16, a multiple of 8); default 7168 (host: 128)\n"
         "      --experts N           experts (at most 2048), split over the PEs as evenly as they go; default 256\n"
         "                            (host: 16)\n"
         "      --topk N              experts per token; default 8 (host: 4)\n"
         "      --seed N              routing and token data seed; default 1\n"
         "      --mode M              normal, ll or both (default both)\n"
         "      --form F              strict, relaxed or both (default both)\n"
         "      --no-nvshmem          do not run the NVSHMEM variant (builds with NVSHMEM only)\n"
         "      --ll_capacity C       low-latency slots per (expert, source): auto (default: the largest count this\n"
         "                            routing produces), worst (the token count), or a number\n"
         "  -n, --iters N             dispatch + combine rounds per timed launch sequence; default 20 (host: 3)\n"
         "  -w, --warmup_iters N      rounds before each variant's timed sequences; default 5 (host: 1)\n"
         "  -r, --repetitions N       timed sequences per row; the row shows their median; default 5 (host: 2)\n"
         "  -c, --ctas N              blocks; default 16 (host: 2)\n"
         "  -t, --threads_per_cta N   threads per block, rounded down to whole waves; default 512 (host: 16)\n"
         "      --csv FILE, --json FILE   one row per (mode, tokens, variant)\n"
         "      --corrupt             flip one bit of PE 0's result before the check (a test that the check fails)\n"
         "  -h, --help\n"
         "Every row is checked against the CPU reference, bit for bit; the exit status is 1 on any difference.\n";
}

std::string parse(int argc, char** argv, options& o, int pes) {
  for (int i = 1; i < argc; ++i) {
    const std::string f = argv[i];
    if (f == "-h" || f == "--help") return "help";
    if (f == "--no-nvshmem") {
      o.run[int(variant::nvshmem)] = false;
      continue;
    }
    if (f == "--corrupt") {
      o.corrupt = true;
      continue;
    }
    if (i + 1 >= argc) return "missing value after " + f;
    const std::string s = argv[++i];
    auto number = [&](long lo, long hi, long& out) {
      char* end = nullptr;
      out = std::strtol(s.c_str(), &end, 10);
      return !s.empty() && *end == '\0' && out >= lo && out <= hi;
    };
    long v = 0;
    if (f == "--mode") {
      if (s == "normal")
        o.modes = {kNormal};
      else if (s == "ll")
        o.modes = {kLowLatency};
      else if (s == "both")
        o.modes = {kNormal, kLowLatency};
      else
        return "bad mode " + s + " (normal, ll, both)";
    } else if (f == "--form") {
      if (s != "strict" && s != "relaxed" && s != "both") return "bad form " + s + " (strict, relaxed, both)";
      o.run[int(variant::strict)] = s != "relaxed";
      o.run[int(variant::relaxed)] = s != "strict";
    } else if (f == "--ll_capacity") {
      if (s == "auto")
        o.ll_cap = 0;
      else if (s == "worst")
        o.ll_cap = -1;
      else if (number(1, 1 << 24, v))
        o.ll_cap = int(v);
      else
        return "bad --ll_capacity " + s + " (auto, worst or a count)";
    } else if (f == "--csv") {
      o.csv = s;
    } else if (f == "--json") {
      o.json = s;
    } else if (f == "--seed") {
      char* end = nullptr;
      o.seed = std::strtoull(s.c_str(), &end, 10);
      if (s.empty() || *end) return "bad seed " + s;
    } else if (f == "-b" || f == "--min_tokens" || f == "-e" || f == "--max_tokens") {
      if (!number(1, 1 << 20, v)) return "bad token count " + s;
      (f == "-b" || f == "--min_tokens" ? o.min_tokens : o.max_tokens) = int(v);
    } else if (f == "-f" || f == "--step") {
      if (!number(2, 1 << 20, v)) return "bad step " + s + " (at least 2)";
      o.step = int(v);
    } else if (f == "--hidden") {
      if (!number(8, 1 << 20, v) || v % 8) return "bad hidden " + s + " (a multiple of 8)";
      o.hidden = int(v);
    } else if (f == "--experts") {
      // At most 2048: scales (e + 1) / 256 of up to 11 bits keep every product exact in fp32 (ep_kernels.hpp).
      if (!number(1, 2048, v)) return "bad expert count " + s + " (1 to 2048)";
      o.experts = int(v);
    } else if (f == "--topk") {
      if (!number(1, 1024, v)) return "bad topk " + s;
      o.topk = int(v);
    } else if (f == "-n" || f == "--iters" || f == "-w" || f == "--warmup_iters" || f == "-r" || f == "--repetitions" ||
               f == "-c" || f == "--ctas" || f == "-t" || f == "--threads_per_cta") {
      const bool warm = f == "-w" || f == "--warmup_iters";
      if (!number(warm ? 0 : 1, 1000000, v)) return "bad count " + s + " for " + f;
      if (f == "-n" || f == "--iters") o.iters = int(v);
      if (warm) o.warmup = int(v);
      if (f == "-r" || f == "--repetitions") o.repeats = int(v);
      if (f == "-c" || f == "--ctas") o.blocks = unsigned(v);
      if (f == "-t" || f == "--threads_per_cta") o.threads = unsigned(v);
    } else {
      return "unknown flag " + f;
    }
  }
  if (o.min_tokens > o.max_tokens) return "--min_tokens is larger than --max_tokens";
  if (pes > kMaxPes) return "at most " + std::to_string(kMaxPes) + " PEs";
  if (o.experts < pes) return "fewer experts than PEs";
  if (o.topk > o.experts) return "--topk is larger than --experts";
  if (long(o.experts) * pes >= (1L << 31) || long(o.max_tokens) * o.topk >= (1L << 31)) return "sizes too large";
  return "";
}

std::vector<int> tokens_of(const options& o) {
  std::vector<int> out;
  for (long t = o.min_tokens; t <= o.max_tokens; t *= o.step) out.push_back(int(t));
  return out;
}

int owner(int e, int experts, int n) {
  int d = 0;
  while (d + 1 < n && expert_first(d + 1, experts, n) <= e) ++d;
  return d;
}
int expert_first(int d, int experts, int n) {
  return int(long(experts) * d / n);
}
int wave_first(int g, int waves, int tokens) {
  return int(long(tokens) * g / waves);
}

// ---- routing and data -----------------------------------------------------------------------------------------------

namespace {

std::uint64_t mix(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
  std::uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 1) * 0xC2B2AE3D27D4EB4Full ^ (c + 1) * 0x165667B19E3779F9ull ^
                    (d + 1) * 0xD6E8FEB86659FD93ull;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 32;
  return x;
}
enum : std::uint64_t { kExpertStream = 0x1000, kWeightStream = 0x2000, kDataStream = 0x3000 };

float f32_of(std::uint32_t bits) {
  float f = 0;
  std::memcpy(&f, &bits, 4);
  return f;
}
std::uint32_t bits_of(float f) {
  std::uint32_t b = 0;
  std::memcpy(&b, &f, 4);
  return b;
}
float f32_of_bf16(std::uint32_t h) {
  return f32_of((h & 0xffffu) << 16);
}
/// Round to nearest even, as the kernel's bf16_of_f32.
std::uint32_t bf16_of(float f) {
  const std::uint32_t x = bits_of(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (x >> 16) | 0x40u;
  return (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
}
std::uint16_t load16(const std::uint8_t* p) {
  std::uint16_t h = 0;
  std::memcpy(&h, p, 2);
  return h;
}

} // namespace

std::uint64_t routing::dests(int pe, int t) const {
  std::uint64_t m = 0;
  for (int k = 0; k < topk; ++k) m |= std::uint64_t(1) << owner(e(pe, t, k), experts, pes);
  return m;
}

routing make_routing(const options& o, int pes, int tokens) {
  routing rt;
  rt.pes = pes, rt.tokens = tokens, rt.experts = o.experts, rt.topk = o.topk;
  rt.expert.resize(std::size_t(pes) * tokens * o.topk);
  rt.w64.resize(rt.expert.size());
  for (int p = 0; p < pes; ++p) {
    for (int t = 0; t < tokens; ++t) {
      int* e = &rt.expert[(std::size_t(p) * tokens + t) * o.topk];
      int have = 0;
      for (std::uint64_t a = 0; have < o.topk; ++a) { // distinct experts, in the order drawn (the top-k order)
        const int c =
            int(mix(o.seed + kExpertStream, std::uint64_t(p), std::uint64_t(t), a) % std::uint64_t(o.experts));
        if (std::find(e, e + have, c) == e + have) e[have++] = c;
      }
      for (int k = 0; k < o.topk; ++k)
        rt.w64[(std::size_t(p) * tokens + t) * o.topk + k] =
            1 + int(mix(o.seed + kWeightStream, std::uint64_t(p), std::uint64_t(t), std::uint64_t(k)) % 63u);
    }
  }
  return rt;
}

std::uint32_t x_bits(std::uint64_t seed, int pe, int t, int h) {
  const int k = int(mix(seed + kDataStream, std::uint64_t(pe), std::uint64_t(t), std::uint64_t(h)) % 255u) - 127;
  return bits_of(float(k) / 64.0f) >> 16; // exact: 7 significant bits
}

std::vector<std::uint8_t> make_x(const options& o, int me, int tokens) {
  std::vector<std::uint8_t> x(std::size_t(tokens) * o.hidden * 2);
  for (int t = 0; t < tokens; ++t) {
    for (int h = 0; h < o.hidden; ++h) {
      const std::uint16_t b = std::uint16_t(x_bits(o.seed, me, t, h));
      std::memcpy(&x[(std::size_t(t) * o.hidden + h) * 2], &b, 2);
    }
  }
  return x;
}

namespace {
void route_record(const routing& rt, int pe, int t, std::uint8_t* rec) {
  std::memset(rec, 0, route_bytes(rt.topk));
  std::memcpy(rec, &t, 4);
  for (int k = 0; k < rt.topk; ++k) {
    const int e = rt.e(pe, t, k);
    const float w = rt.w(pe, t, k);
    std::memcpy(rec + 16 + 4 * std::size_t(k), &e, 4);
    std::memcpy(rec + 16 + 4 * std::size_t(rt.topk + k), &w, 4);
  }
}
} // namespace

std::vector<std::uint8_t> make_route(const routing& rt, int me) {
  const std::size_t rb = route_bytes(rt.topk);
  std::vector<std::uint8_t> r(std::size_t(rt.tokens) * rb);
  for (int t = 0; t < rt.tokens; ++t) route_record(rt, me, t, &r[std::size_t(t) * rb]);
  return r;
}

int ll_capacity_of(const options& o, const routing& rt, int n) {
  if (o.ll_cap > 0) return o.ll_cap;
  if (o.ll_cap < 0) return rt.tokens;
  int most = 1;
  std::vector<int> count(std::size_t(rt.experts));
  for (int s = 0; s < n; ++s) {
    std::fill(count.begin(), count.end(), 0);
    for (int t = 0; t < rt.tokens; ++t) {
      for (int k = 0; k < rt.topk; ++k) most = std::max(most, ++count[std::size_t(rt.e(s, t, k))]);
    }
  }
  return most;
}

double copies_per_pe(const routing& rt, int mode, int n) {
  if (mode == kLowLatency) return double(rt.tokens) * rt.topk;
  double all = 0;
  for (int s = 0; s < n; ++s) {
    for (int t = 0; t < rt.tokens; ++t) {
      for (std::uint64_t m = rt.dests(s, t); m; m &= m - 1) all += 1.0;
    }
  }
  return all / n;
}

layout layout_of(const options& o, int n, int tokens, int cap, int waves, bool normal, bool ll) {
  layout l;
  const std::size_t tb = std::size_t(o.hidden) * 2, rb = route_bytes(o.topk), T = std::size_t(tokens);
  const std::size_t per = std::size_t((o.experts + n - 1) / n); // most local experts of a PE
  std::size_t at = 0;
  auto take = [&](std::size_t& where, std::size_t bytes) {
    where = at;
    at += (bytes + 255) / 256 * 256;
  };
  take(l.x, T * tb);
  take(l.route, T * rb);
  take(l.out, T * tb);
  if (normal) {
    take(l.n_data, std::size_t(n) * T * tb);
    take(l.n_meta, std::size_t(n) * T * rb);
    take(l.n_stage, std::size_t(n) * T * tb);
    take(l.n_back, T * n * tb);
  }
  if (ll) {
    const std::size_t slots = per * n * std::size_t(cap);
    take(l.l_data, slots * tb);
    take(l.l_meta, slots * 4);
    take(l.l_stage, slots * tb);
    take(l.l_back, T * o.topk * tb);
  }
  l.total = at;
  std::size_t w = 0;
  l.n_dsig = w, w += normal ? std::size_t(waves) * n : 0;
  l.n_csig = w, w += normal ? std::size_t(waves) * n : 0;
  l.l_dsig = w, w += ll ? per * n : 0;
  l.l_csig = w, w += ll ? std::size_t(o.experts) : 0;
  l.words = std::max<std::size_t>(w, 1);
  return l;
}

// ---- the reference and the checks ----------------------------------------------------------------------------------

namespace {

/// Reports the first failure on stderr and counts them.
struct failures {
  const std::string& what;
  int me;
  std::size_t count = 0;
  void add(const char* fmt, ...) __attribute__((format(printf, 2, 3))) {
    if (count++ == 0) {
      char line[512];
      va_list ap;
      va_start(ap, fmt);
      std::vsnprintf(line, sizeof line, fmt, ap);
      va_end(ap);
      std::fprintf(stderr, "FAIL: %s: PE %d: %s\n", what.c_str(), me, line);
    }
  }
};

void check_word(failures& f, const char* which, std::size_t index, std::uint64_t got, std::uint64_t call,
                std::uint32_t count) {
  const std::uint64_t want = call << 32 | count;
  if (got != want)
    f.add("%s signal word %zu: call %llu count %u, expected call %llu count %u", which, index,
          static_cast<unsigned long long>(got >> 32), unsigned(got & 0xffffffffu),
          static_cast<unsigned long long>(call), count);
}

/// A received copy of token t of PE s at `slot`: its data (and, normal mode, its route record) bit for bit.
void check_copy(failures& f, const options& o, const routing& rt, const char* which, int s, int t, std::size_t slot,
                const std::uint8_t* data, const std::uint8_t* meta) {
  for (int h = 0; h < o.hidden; ++h) {
    const std::uint32_t got = load16(data + h * 2), want = x_bits(o.seed, s, t, h);
    if (got != want) {
      f.add("%s from PE %d, slot %zu (its token %d) element %d: bits 0x%04x, expected 0x%04x", which, s, slot, t, h,
            got, want);
      return;
    }
  }
  if (!meta) return;
  std::vector<std::uint8_t> rec(route_bytes(o.topk));
  route_record(rt, s, t, rec.data());
  if (std::memcmp(rec.data(), meta, rec.size()) != 0)
    f.add("%s from PE %d, slot %zu (its token %d): route record differs", which, s, slot, t);
}

/// Combined token t of PE me: the CPU reference, computed as the kernels compute it (the same fp32 operations in
/// the same order; every product is exact, so no contraction into FMA can change a bit).
void reference(const options& o, const routing& rt, int mode, int me, int n, int t, std::vector<std::uint32_t>& out) {
  const int K = rt.topk;
  const std::size_t kk = std::size_t(K);
  std::vector<int> e(kk), at(kk);
  std::vector<float> scale(kk), w(kk), part(static_cast<std::size_t>(n));
  for (int k = 0; k < K; ++k) {
    e[k] = rt.e(me, t, k), at[k] = owner(e[k], rt.experts, n);
    scale[k] = float(e[k] + 1) / 256.0f, w[k] = rt.w(me, t, k);
  }
  const std::uint64_t dests = rt.dests(me, t);
  out.resize(std::size_t(o.hidden));
  for (int h = 0; h < o.hidden; ++h) {
    const float x = f32_of_bf16(x_bits(o.seed, me, t, h));
    float acc = 0.0f;
    if (mode == kNormal) {
      // PE d's partial: its experts among the top-k, in k order, rounded once to bf16 where it was formed; then the
      // partials in PE order.
      std::fill(part.begin(), part.end(), 0.0f);
      for (int k = 0; k < K; ++k) {
        float term = x * scale[std::size_t(k)];
        term = term * w[std::size_t(k)];
        part[std::size_t(at[std::size_t(k)])] = part[std::size_t(at[std::size_t(k)])] + term;
      }
      for (int d = 0; d < n; ++d) {
        if (dests >> d & 1) acc = acc + f32_of_bf16(bf16_of(part[std::size_t(d)]));
      }
    } else {
      for (int k = 0; k < K; ++k) {
        const float y = f32_of_bf16(bf16_of(x * scale[k])); // the expert's bf16 output
        const float term = w[k] * y;
        acc = acc + term;
      }
    }
    out[std::size_t(h)] = bf16_of(acc);
  }
}

void check_out(failures& f, const options& o, const routing& rt, int mode, int me, int n, const readback& r) {
  std::vector<std::uint32_t> want;
  for (int t = 0; t < rt.tokens; ++t) {
    reference(o, rt, mode, me, n, t, want);
    for (int h = 0; h < o.hidden; ++h) {
      const std::uint32_t got = load16(&r.out[(std::size_t(t) * o.hidden + h) * 2]);
      if (got != want[std::size_t(h)]) {
        f.add("combined token %d element %d: bits 0x%04x, expected 0x%04x", t, h, got, want[std::size_t(h)]);
        return;
      }
    }
  }
}

} // namespace

std::size_t check_normal(const options& o, const routing& rt, int me, int n, int waves, std::uint64_t call,
                         const readback& r, const std::string& what) {
  failures f{what, me};
  const std::size_t tb = std::size_t(o.hidden) * 2, rb = route_bytes(o.topk), T = std::size_t(rt.tokens);
  for (int g = 0; g < waves; ++g) {
    const int lo = wave_first(g, waves, rt.tokens), hi = wave_first(g + 1, waves, rt.tokens);
    for (int s = 0; s < n; ++s) {
      // What source s's wave g sent here: its tokens routed here, in token order, from slot lo.
      std::size_t slot = std::size_t(s) * T + lo;
      std::uint32_t copies = 0;
      for (int t = lo; t < hi; ++t) {
        if (!(rt.dests(s, t) >> me & 1)) continue;
        check_copy(f, o, rt, "normal dispatch", s, t, slot, &r.data[slot * tb], &r.meta[slot * rb]);
        ++slot, ++copies;
      }
      check_word(f, "dispatch", std::size_t(g) * n + s, r.dsig[std::size_t(g) * n + s], call, copies);
      // What PE s's wave g sent back here: one partial per token of this PE's wave g routed to s.
      std::uint32_t back = 0;
      for (int t = lo; t < hi; ++t) back += std::uint32_t(rt.dests(me, t) >> s & 1);
      check_word(f, "combine", std::size_t(g) * n + s, r.csig[std::size_t(g) * n + s], call, back);
    }
  }
  check_out(f, o, rt, kNormal, me, n, r);
  return f.count;
}

std::size_t check_ll(const options& o, const routing& rt, int me, int n, int cap, std::uint64_t call, const readback& r,
                     const std::string& what) {
  failures f{what, me};
  const std::size_t tb = std::size_t(o.hidden) * 2;
  const int first = expert_first(me, o.experts, n), last = expert_first(me + 1, o.experts, n);
  for (int e = first; e < last; ++e) {
    for (int s = 0; s < n; ++s) {
      // Source s's tokens routed to expert e, in token order, from the region's first slot.
      const std::size_t region = (std::size_t(e - first) * n + s) * std::size_t(cap);
      std::uint32_t copies = 0;
      for (int t = 0; t < rt.tokens; ++t) {
        for (int k = 0; k < rt.topk; ++k) {
          if (rt.e(s, t, k) != e) continue;
          if (copies < std::uint32_t(cap)) {
            const std::size_t slot = region + copies;
            check_copy(f, o, rt, "ll dispatch", s, t, slot, &r.data[slot * tb], nullptr);
            std::int32_t m = 0;
            std::memcpy(&m, &r.meta[slot * 4], 4);
            if (m != t * rt.topk + k)
              f.add("ll dispatch from PE %d, slot %zu: (token, k) %d, expected %d", s, slot, m, t * rt.topk + k);
          }
          ++copies;
        }
      }
      check_word(f, "dispatch", std::size_t(e - first) * n + s, r.dsig[std::size_t(e - first) * n + s], call, copies);
      if (copies > std::uint32_t(cap))
        f.add("expert %d got %u copies from PE %d: over --ll_capacity %d", e, copies, s, cap);
    }
  }
  for (int e = 0; e < o.experts; ++e) {
    std::uint32_t mine = 0;
    for (int t = 0; t < rt.tokens; ++t) {
      for (int k = 0; k < rt.topk; ++k) mine += rt.e(me, t, k) == e ? 1 : 0;
    }
    check_word(f, "combine", std::size_t(e), r.csig[std::size_t(e)], call, mine);
  }
  check_out(f, o, rt, kLowLatency, me, n, r);
  return f.count;
}

// ---- output -------------------------------------------------------------------------------------------------------

report::report(const options& o, int n, int waves, std::string who)
    : o_(o), n_(n), waves_(waves), who_(std::move(who)) {}

namespace {
double gbps(double copies, int hidden, double us) {
  return us > 0 ? copies * hidden * 2.0 / (us * 1e3) : 0.0;
}
} // namespace

void report::header(const std::vector<variant>& vs) {
  vs_ = vs;
  std::printf(
      "# ep_workload: %s, %d PEs, hidden %d, %d experts, top-%d, seed %llu; %u blocks x %u threads (%d waves)\n",
      who_.c_str(), n_, o_.hidden, o_.experts, o_.topk, static_cast<unsigned long long>(o_.seed), o_.blocks, o_.threads,
      waves_);
  std::printf("# X_d_us / X_c_us: dispatch / combine, median of %d timed sequences of %d rounds of the slowest PE's "
              "mean event time per launch, after %d warm-up rounds\n",
              o_.repeats, o_.iters, o_.warmup);
  std::printf("# copies: token copies per PE per dispatch (= per combine; normal: one per destination PE, ll: one per "
              "expert), mean over PEs\n# GB/s = copies x hidden x 2 B / time (token payload only, 1e9 B/s); "
              "rel/X = X's time / relaxed's (> 1: relaxed is faster); check: every row, bit for bit\n");
  std::printf("%-6s %7s %5s %9s", "#mode", "tokens", "cap", "copies");
  for (const variant v : vs_) {
    const std::string p = name_of(v);
    std::printf(" %10s %8s %10s %8s", (p + "_d_us").c_str(), (p + "_d_GB/s").c_str(), (p + "_c_us").c_str(),
                (p + "_c_GB/s").c_str());
  }
  for (const variant v : vs_) {
    if (v == variant::relaxed) continue;
    const std::string p = std::string("rel/") + name_of(v);
    std::printf(" %13s %13s", (p + "_d").c_str(), (p + "_c").c_str());
  }
  std::printf(" %s\n", "check");
  std::fflush(stdout);
}

void report::row(const std::vector<result>& rs) {
  if (rs.empty()) return;
  const result& first = rs.front();
  std::printf("%-6s %7d %5s %9.1f", mode_name(first.mode), first.tokens,
              first.mode == kLowLatency ? std::to_string(first.cap).c_str() : "-", first.copies);
  const result* relaxed = nullptr;
  bool ok = true, checked = false;
  for (const result& r : rs) {
    if (r.v == variant::relaxed) relaxed = &r;
    ok = ok && r.ok, checked = checked || r.checked;
  }
  auto find = [&](variant v) -> const result* {
    for (const result& x : rs) {
      if (x.v == v) return &x;
    }
    return nullptr;
  };
  for (const variant v : vs_) {
    const result* r = find(v);
    if (r)
      std::printf(" %10.2f %8.2f %10.2f %8.2f", r->disp_us, gbps(r->copies, o_.hidden, r->disp_us), r->comb_us,
                  gbps(r->copies, o_.hidden, r->comb_us));
    else
      std::printf(" %10s %8s %10s %8s", "-", "-", "-", "-");
  }
  for (const variant v : vs_) {
    if (v == variant::relaxed) continue;
    const result* r = find(v);
    if (r && relaxed && relaxed->disp_us > 0 && relaxed->comb_us > 0)
      std::printf(" %13.3f %13.3f", r->disp_us / relaxed->disp_us, r->comb_us / relaxed->comb_us);
    else
      std::printf(" %13s %13s", "-", "-");
  }
  std::printf(" %s\n", !checked ? "-" : ok ? "ok" : "FAIL");
  std::fflush(stdout);
  all_.insert(all_.end(), rs.begin(), rs.end());
}

bool report::finish() {
  bool fine = true;
  auto relaxed_of = [&](const result& r) -> const result* {
    for (const result& x : all_) {
      if (x.v == variant::relaxed && x.mode == r.mode && x.tokens == r.tokens) return &x;
    }
    return nullptr;
  };
  auto fields = [&](const result& r, bool json) {
    char buf[1024];
    const result* rel = relaxed_of(r);
    const double sd = rel && rel->disp_us > 0 ? r.disp_us / rel->disp_us : 0.0;
    const double sc = rel && rel->comb_us > 0 ? r.comb_us / rel->comb_us : 0.0;
    const char* check = !r.checked ? "-" : r.ok ? "ok" : "FAIL";
    const double bytes = r.copies * o_.hidden * 2.0;
    const int cap = r.mode == kLowLatency ? r.cap : 0;
    if (json) {
      std::snprintf(buf, sizeof buf,
                    "{\"mode\": \"%s\", \"tokens\": %d, \"hidden\": %d, \"experts\": %d, \"topk\": %d, \"pes\": %d, "
                    "\"variant\": \"%s\", \"blocks\": %u, \"threads\": %u, \"iters\": %d, \"ll_cap\": %d, "
                    "\"copies_per_pe\": %.6g, \"bytes_per_pe\": %.6g, \"dispatch_us\": %.6g, \"dispatch_GBps\": %.6g, "
                    "\"combine_us\": %.6g, \"combine_GBps\": %.6g, \"relaxed_speedup_dispatch\": %.6g, "
                    "\"relaxed_speedup_combine\": %.6g, \"check\": \"%s\"}",
                    mode_name(r.mode), r.tokens, o_.hidden, o_.experts, o_.topk, n_, name_of(r.v), o_.blocks,
                    o_.threads, o_.iters, cap, r.copies, bytes, r.disp_us, gbps(r.copies, o_.hidden, r.disp_us),
                    r.comb_us, gbps(r.copies, o_.hidden, r.comb_us), sd, sc, check);
    } else {
      std::snprintf(buf, sizeof buf, "%s,%d,%d,%d,%d,%d,%s,%u,%u,%d,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%s",
                    mode_name(r.mode), r.tokens, o_.hidden, o_.experts, o_.topk, n_, name_of(r.v), o_.blocks,
                    o_.threads, o_.iters, cap, r.copies, bytes, r.disp_us, gbps(r.copies, o_.hidden, r.disp_us),
                    r.comb_us, gbps(r.copies, o_.hidden, r.comb_us), sd, sc, check);
    }
    return std::string(buf);
  };
  if (!o_.csv.empty()) {
    FILE* f = std::fopen(o_.csv.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "ep_workload: cannot write %s\n", o_.csv.c_str());
      fine = false;
    } else {
      std::fprintf(f, "mode,tokens,hidden,experts,topk,pes,variant,blocks,threads,iters,ll_cap,copies_per_pe,"
                      "bytes_per_pe,dispatch_us,dispatch_GBps,combine_us,combine_GBps,relaxed_speedup_dispatch,"
                      "relaxed_speedup_combine,check\n");
      for (const result& r : all_) std::fprintf(f, "%s\n", fields(r, false).c_str());
      std::fclose(f);
    }
  }
  if (!o_.json.empty()) {
    FILE* f = std::fopen(o_.json.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "ep_workload: cannot write %s\n", o_.json.c_str());
      fine = false;
    } else {
      std::fprintf(f, "{\"workload\": \"ep\", \"who\": \"%s\", \"pes\": %d, \"rows\": [", who_.c_str(), n_);
      for (std::size_t i = 0; i < all_.size(); ++i)
        std::fprintf(f, "%s\n  %s", i ? "," : "", fields(all_[i], true).c_str());
      std::fprintf(f, "\n]}\n");
      std::fclose(f);
    }
  }
  return fine;
}

} // namespace ep
