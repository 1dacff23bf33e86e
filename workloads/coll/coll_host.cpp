// The collective workload's host side (coll_host.hpp).
#include "coll_host.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "coll_args.hpp"

namespace wl {

const char* name_of(op o) {
  return o == op::allreduce ? "allreduce" : "alltoall";
}
const char* name_of(dtype t) {
  return t == dtype::f32 ? "fp32" : "bf16";
}
const char* name_of(variant v) {
  static const char* const names[kVariants] = {"strict", "relaxed", "coll", "nvshmem", "nvshmem_coll"};
  return names[int(v)];
}

const char* usage() {
  return "usage: coll_workload [flags]   (run with scripts/portshmem-run -np N)\n"
         "  -b, --min_size BYTES      smallest size (K, M, G suffixes: powers of 1024); default 8K\n"
         "  -e, --max_size BYTES      largest size; default 1G (host platform: 256K)\n"
         "  -f, --step N              size step factor; default 2\n"
         "  -n, --iters N             calls per timed launch up to 1 MiB (above: about N MiB per launch, >= 2)\n"
         "  -w, --warmup_iters N      calls of the warm-up launch before each row's timed launches\n"
         "  -r, --repetitions N       timed launches per row; the row shows their median\n"
         "  -c, --ctas N              blocks of the workload kernel (the library's collective runs on one block)\n"
         "  -t, --threads_per_cta N   threads per block\n"
         "  -d, --datatype T          fp32, bf16 or all (default all)\n"
         "      --op OP               allreduce, alltoall or all (default all)\n"
         "      --form F              strict, relaxed or both (default both)\n"
         "      --no-coll             do not run the library's own collective\n"
         "      --no-nvshmem          do not run the NVSHMEM variants (builds with NVSHMEM only)\n"
         "      --algo A              allreduce algorithm: auto (default), oneshot, twoshot\n"
         "      --crossover BYTES     auto: one-shot up to this size, two-shot above; default 256K\n"
         "      --check               check every result against the CPU reference (exit 1 on a wrong element)\n"
         "      --csv FILE, --json FILE   the rows, one per (op, type, size, variant)\n"
         "  -h, --help\n";
}

namespace {

/// Bytes with an optional K/M/G suffix (1024-based); 0 on a malformed value.
std::size_t parse_bytes(const char* s) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s) return 0;
  std::size_t scale = 1;
  if (*end == 'K' || *end == 'k') scale = std::size_t(1) << 10;
  if (*end == 'M' || *end == 'm') scale = std::size_t(1) << 20;
  if (*end == 'G' || *end == 'g') scale = std::size_t(1) << 30;
  if (scale != 1) ++end;
  return *end ? 0 : std::size_t(v) * scale;
}

} // namespace

std::string parse(int argc, char** argv, options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string f = argv[i];
    if (f == "-h" || f == "--help") return "help";
    if (f == "--check") {
      o.check = true;
      continue;
    }
    if (f == "--no-coll") {
      o.run[int(variant::coll)] = false;
      continue;
    }
    if (f == "--no-nvshmem") {
      o.run[int(variant::nvshmem)] = o.run[int(variant::nvshmem_coll)] = false;
      continue;
    }
    if (i + 1 >= argc) return "missing value after " + f;
    const char* v = argv[++i];
    const std::string s = v;
    if (f == "-b" || f == "--min_size" || f == "-e" || f == "--max_size" || f == "--crossover") {
      const std::size_t b = parse_bytes(v);
      if (b == 0) return "bad size " + s;
      (f == "-b" || f == "--min_size" ? o.min_bytes : f == "--crossover" ? o.crossover : o.max_bytes) = b;
    } else if (f == "-f" || f == "--step" || f == "-n" || f == "--iters" || f == "-w" || f == "--warmup_iters" ||
               f == "-r" || f == "--repetitions" || f == "-c" || f == "--ctas" || f == "-t" ||
               f == "--threads_per_cta") {
      char* end = nullptr;
      const long n = std::strtol(v, &end, 10);
      const bool warm = f == "-w" || f == "--warmup_iters";
      if (*end || n < (warm ? 0 : 1) || n > 1000000) return "bad count " + s + " for " + f;
      if (f == "-f" || f == "--step") o.step = std::size_t(n);
      if (f == "-n" || f == "--iters") o.iters = int(n);
      if (warm) o.warmup = int(n);
      if (f == "-r" || f == "--repetitions") o.repeats = int(n);
      if (f == "-c" || f == "--ctas") o.blocks = unsigned(n);
      if (f == "-t" || f == "--threads_per_cta") o.threads = unsigned(n);
    } else if (f == "-d" || f == "--datatype") {
      if (s == "fp32" || s == "float")
        o.types = {dtype::f32};
      else if (s == "bf16")
        o.types = {dtype::bf16};
      else if (s == "all")
        o.types = {dtype::f32, dtype::bf16};
      else
        return "bad datatype " + s + " (fp32, bf16, all)";
    } else if (f == "--op") {
      if (s == "allreduce")
        o.ops = {op::allreduce};
      else if (s == "alltoall")
        o.ops = {op::alltoall};
      else if (s == "all")
        o.ops = {op::allreduce, op::alltoall};
      else
        return "bad op " + s + " (allreduce, alltoall, all)";
    } else if (f == "--form") {
      if (s != "strict" && s != "relaxed" && s != "both") return "bad form " + s + " (strict, relaxed, both)";
      o.run[int(variant::strict)] = s != "relaxed";
      o.run[int(variant::relaxed)] = s != "strict";
    } else if (f == "--algo") {
      if (s == "auto")
        o.algo = -1;
      else if (s == "oneshot")
        o.algo = kOneShot;
      else if (s == "twoshot")
        o.algo = kTwoShot;
      else
        return "bad algo " + s + " (auto, oneshot, twoshot)";
    } else if (f == "--csv") {
      o.csv = s;
    } else if (f == "--json") {
      o.json = s;
    } else {
      return "unknown flag " + f;
    }
  }
  if (o.min_bytes > o.max_bytes) return "--min_size is larger than --max_size";
  if (o.step < 2) return "--step must be at least 2";
  return "";
}

std::vector<std::size_t> sizes_of(const options& o) {
  std::vector<std::size_t> out;
  for (std::size_t b = o.min_bytes; b <= o.max_bytes; b *= o.step) {
    out.push_back(b);
    if (b > o.max_bytes / o.step) break;
  }
  return out;
}

shape shape_of(const options& o, op k, dtype t, std::size_t sweep_bytes, int n) {
  shape s;
  if (k == op::allreduce) {
    s.bytes = sweep_bytes / 16 * 16;
    s.size = s.bytes;
    s.algo = o.algo >= 0 ? o.algo : (s.bytes <= o.crossover ? kOneShot : kTwoShot);
  } else {
    s.bytes = sweep_bytes / (16 * std::size_t(n)) * 16;
    s.size = s.bytes * std::size_t(n);
  }
  s.count = s.size / esize_of(t);
  return s;
}

int iters_for(const options& o, std::size_t size) {
  constexpr std::size_t kFull = std::size_t(1) << 20;
  if (size <= kFull) return o.iters;
  return int(std::max<std::size_t>(2, std::size_t(o.iters) * kFull / size));
}

// ---- data and the reference ----------------------------------------------------------------------------------------
// Inputs are exact in their type and chosen so that sums round in bf16 but not in fp32:
//   fp32: k / 2^19 for an integer k in [-2^19, 2^19): 20 significant bits, so any partial sum of up to 16 PEs'
//         values (24 bits) is exact in fp32 whatever the order;
//   bf16: k / 64 for an integer k in [-127, 127]: 8 significant bits, exact in bf16 (8-bit significand), while sums
//         of several need up to 11 bits and round.

namespace {

std::uint32_t mix(int pe, std::size_t i) {
  std::uint64_t x = (std::uint64_t(i) + 1) * 0x9E3779B97F4A7C15ull ^ (std::uint64_t(pe) + 1) * 0xC2B2AE3D27D4EB4Full;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  return std::uint32_t(x);
}

/// Element i of PE pe's input, as a double (exact) and as the bits of its type.
double value_of(dtype t, int pe, std::size_t i) {
  const std::uint32_t h = mix(pe, i);
  if (t == dtype::f32) return double(std::int32_t(h % (1u << 20)) - (1 << 19)) / double(1 << 19);
  return double(std::int32_t(h % 255u) - 127) / 64.0;
}

std::uint32_t bits_of(dtype t, double v) {
  const float f = float(v); // exact (see above)
  std::uint32_t b = 0;
  std::memcpy(&b, &f, 4);
  return t == dtype::f32 ? b : b >> 16; // the bf16 of an exact value is the upper half of its float
}

double decode(dtype t, const std::uint8_t* p) {
  std::uint32_t b = 0;
  if (t == dtype::f32) {
    std::memcpy(&b, p, 4);
  } else {
    std::uint16_t h = 0;
    std::memcpy(&h, p, 2);
    b = std::uint32_t(h) << 16;
  }
  float f = 0;
  std::memcpy(&f, &b, 4);
  return double(f);
}

void store_bits(dtype t, std::uint8_t* p, std::uint32_t b) {
  if (t == dtype::f32) {
    std::memcpy(p, &b, 4);
  } else {
    const std::uint16_t h = std::uint16_t(b);
    std::memcpy(p, &h, 2);
  }
}

} // namespace

std::vector<std::uint8_t> make_src(op k, dtype t, const shape& s, int pe, int n) {
  (void)k, (void)n;
  const std::size_t es = esize_of(t);
  std::vector<std::uint8_t> src(s.count * es);
  for (std::size_t i = 0; i < s.count; ++i) store_bits(t, src.data() + i * es, bits_of(t, value_of(t, pe, i)));
  return src;
}

// The tolerance of an allreduce element, derived: n terms x_p summed in any order, each of the n - 1 additions
// rounded to the working precision (unit roundoff u, round to nearest), give |s^ - s| <= gamma_{n-1} sum |x_p| with
// gamma_k = k u / (1 - k u) (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., eq. 4.4). A final
// rounding of the result to T adds u |s^|, and (1 + u)(1 + gamma_{n-1}) <= 1 + gamma_n, so gamma_n(u_T) sum |x_p|
// bounds both ways the variants compute: accumulating in fp32 and rounding once to T (the workload's kernels; then
// u_fp32 = 2^-24 for the additions is smaller still), or rounding every partial sum to T (a bf16 reduction that
// accumulates in bf16). u_T = 2^-24 for fp32, 2^-8 for bf16 (8-bit significand). With the inputs above, fp32 sums
// are exact (the bound is never needed there), and bf16 sums of the workload's kernels equal the reference
// bit for bit (one rounding of the exact sum); another order or per-step rounding may differ within the bound.
double tolerance_of(dtype t, int n, double abs_sum) {
  const double u = t == dtype::f32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -8);
  const double gamma = n * u / (1.0 - n * u);
  return gamma * abs_sum;
}

std::size_t check_dest(op k, dtype t, const shape& s, int me, int n, const std::vector<std::uint8_t>& got,
                       const std::string& what) {
  const std::size_t es = esize_of(t);
  std::size_t wrong = 0;
  auto report_first = [&](std::size_t i, const char* detail) {
    if (wrong++ == 0) std::fprintf(stderr, "FAIL: %s: PE %d dest element %zu: %s\n", what.c_str(), me, i, detail);
  };
  char line[256];
  if (k == op::allreduce) {
    for (std::size_t i = 0; i < s.count; ++i) {
      double exact = 0, abs_sum = 0;
      for (int p = 0; p < n; ++p) {
        const double v = value_of(t, p, i);
        exact += v, abs_sum += std::fabs(v);
      }
      const double g = decode(t, got.data() + i * es), tol = tolerance_of(t, n, abs_sum);
      if (!(std::fabs(g - exact) <= tol)) { // NaN (the guard) fails too
        std::snprintf(line, sizeof line, "%.9g, expected %.9g within %.3g", g, exact, tol);
        report_first(i, line);
      }
    }
  } else {
    const std::size_t per = s.bytes / es; // elements per block
    for (std::size_t i = 0; i < s.count; ++i) {
      const int from = int(i / per);
      const std::uint32_t want = bits_of(t, value_of(t, from, std::size_t(me) * per + i % per));
      std::uint32_t g = 0;
      std::memcpy(&g, got.data() + i * es, es);
      if (g != want) {
        std::snprintf(line, sizeof line, "bits 0x%x, expected 0x%x (PE %d's element %zu)", g, want, from,
                      std::size_t(me) * per + i % per);
        report_first(i, line);
      }
    }
  }
  return wrong;
}

// ---- output -------------------------------------------------------------------------------------------------------

report::report(const options& o, int n, std::string who) : o_(o), n_(n), who_(std::move(who)) {}

void report::header(const std::vector<variant>& vs) {
  vs_ = vs;
  std::printf("# coll_workload: %s, %d PEs, workload kernel on %u blocks x %u threads (the library's collective: "
              "1 block)\n",
              who_.c_str(), n_, o_.blocks, o_.threads);
  std::printf("# time_us: median of %d timed launches of the slowest PE's event time / calls, after a warm-up "
              "launch of %d calls\n# size_B: each PE's buffer (alltoall: its src, n blocks); GB/s = size_B / time "
              "(algorithm bandwidth, 1e9 B/s)\n# relaxed/X = X's time / relaxed's time (> 1: the relaxed form is "
              "faster); check: %s\n",
              o_.repeats, o_.warmup, o_.check ? "every element against the CPU reference" : "off (--check)");
  std::printf("%-10s %-5s %11s %-8s %6s", "#op", "type", "size_B", "algo", "iters");
  for (const variant v : vs_) {
    std::printf(" %11s %9s", (std::string(name_of(v)) + "_us").c_str(), (std::string(name_of(v)) + "_GB/s").c_str());
  }
  for (const variant v : vs_) {
    if (v != variant::relaxed) std::printf(" %13s", (std::string("relaxed/") + name_of(v)).c_str());
  }
  std::printf(" %s\n", "check");
  std::fflush(stdout);
}

void report::row(const std::vector<result>& rs) {
  if (rs.empty()) return;
  const result& first = rs.front();
  const char* algo = first.k == op::alltoall ? "-" : first.s.algo == kOneShot ? "oneshot" : "twoshot";
  std::printf("%-10s %-5s %11zu %-8s %6d", name_of(first.k), name_of(first.t), first.s.size, algo, first.iters);
  const result* relaxed = nullptr;
  bool ok = true, checked = false;
  for (const result& r : rs) {
    if (r.v == variant::relaxed) relaxed = &r;
    ok = ok && r.ok, checked = checked || r.checked;
  }
  for (const variant v : vs_) {
    const result* r = nullptr;
    for (const result& x : rs) r = x.v == v ? &x : r;
    if (r)
      std::printf(" %11.2f %9.3f", r->us, double(r->s.size) / (r->us * 1e-6) / 1e9);
    else
      std::printf(" %11s %9s", "-", "-");
  }
  for (const variant v : vs_) {
    if (v == variant::relaxed) continue;
    const result* r = nullptr;
    for (const result& x : rs) r = x.v == v ? &x : r;
    if (r && relaxed)
      std::printf(" %13.3f", r->us / relaxed->us);
    else
      std::printf(" %13s", "-");
  }
  std::printf(" %s\n", !checked ? "-" : ok ? "ok" : "FAIL");
  std::fflush(stdout);
  all_.insert(all_.end(), rs.begin(), rs.end());
}

bool report::finish() {
  bool fine = true;
  auto relaxed_us = [&](const result& r) {
    for (const result& x : all_) {
      if (x.v == variant::relaxed && x.k == r.k && x.t == r.t && x.s.size == r.s.size) return x.us;
    }
    return 0.0;
  };
  auto fields = [&](const result& r, char sep, bool json) {
    char buf[512];
    const char* algo = r.k == op::alltoall ? "-" : r.s.algo == kOneShot ? "oneshot" : "twoshot";
    const double rel = relaxed_us(r), ratio = rel > 0 ? r.us / rel : 0.0;
    const char* check = !r.checked ? "-" : r.ok ? "ok" : "FAIL";
    const unsigned blocks = r.v == variant::coll || r.v == variant::nvshmem_coll ? 1 : o_.blocks;
    if (json) {
      std::snprintf(buf, sizeof buf,
                    "{\"op\": \"%s\", \"type\": \"%s\", \"size_B\": %zu, \"algo\": \"%s\", \"variant\": \"%s\", "
                    "\"pes\": %d, \"blocks\": %u, \"threads\": %u, \"iters\": %d, \"time_us\": %.6g, "
                    "\"algbw_GBps\": %.6g, \"relaxed_speedup\": %.6g, \"check\": \"%s\"}",
                    name_of(r.k), name_of(r.t), r.s.size, algo, name_of(r.v), n_, blocks, o_.threads, r.iters, r.us,
                    double(r.s.size) / (r.us * 1e-6) / 1e9, ratio, check);
    } else {
      std::snprintf(buf, sizeof buf, "%s%c%s%c%zu%c%s%c%s%c%d%c%u%c%u%c%d%c%.6g%c%.6g%c%.6g%c%s", name_of(r.k), sep,
                    name_of(r.t), sep, r.s.size, sep, algo, sep, name_of(r.v), sep, n_, sep, blocks, sep, o_.threads,
                    sep, r.iters, sep, r.us, sep, double(r.s.size) / (r.us * 1e-6) / 1e9, sep, ratio, sep, check);
    }
    return std::string(buf);
  };
  if (!o_.csv.empty()) {
    FILE* f = std::fopen(o_.csv.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "coll_workload: cannot write %s\n", o_.csv.c_str());
      fine = false;
    } else {
      std::fprintf(f, "op,type,size_B,algo,variant,pes,blocks,threads,iters,time_us,algbw_GBps,relaxed_speedup,"
                      "check\n");
      for (const result& r : all_) std::fprintf(f, "%s\n", fields(r, ',', false).c_str());
      std::fclose(f);
    }
  }
  if (!o_.json.empty()) {
    FILE* f = std::fopen(o_.json.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "coll_workload: cannot write %s\n", o_.json.c_str());
      fine = false;
    } else {
      std::fprintf(f, "{\"workload\": \"coll\", \"who\": \"%s\", \"pes\": %d, \"rows\": [", who_.c_str(), n_);
      for (std::size_t i = 0; i < all_.size(); ++i)
        std::fprintf(f, "%s\n  %s", i ? "," : "", fields(all_[i], ',', true).c_str());
      std::fprintf(f, "\n]}\n");
      std::fclose(f);
    }
  }
  return fine;
}

} // namespace wl
