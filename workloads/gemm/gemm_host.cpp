// The fused GEMM + communication workload's host side (gemm_host.hpp).
#include "gemm_host.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// bits.hpp's bf16 helpers, for host code only (its contract: WL_HOST_DEVICE defined first).
#define WL_HOST_DEVICE inline
#include "../common/bits.hpp"

#include "gemm_args.hpp"

namespace gemm {

const char* name_of(pattern p) {
  return p == pattern::ag ? "ag" : "rs";
}
const char* name_of(variant v) {
  static const char* const names[kVariants] = {"gemm", "coll", "unfused", "strict", "relaxed", "nvshmem"};
  return names[int(v)];
}

const char* usage() {
  return "usage: gemm_workload [flags]   (run with scripts/portshmem-run -np N)\n"
         "  -m LIST                   global M (rows of A and C), comma-separated; default 4096,8192,16384\n"
         "  -n LIST                   global N (columns of B and C); default 4096,8192\n"
         "  -k LIST                   global K (the inner dimension); default 4096,8192 (every M x N x K is a row)\n"
         "      --chunks N            row chunks per block of M/n rows: the unit of overlap; default 4\n"
         "      --pattern P           ag (all-gather + GEMM), rs (GEMM + reduce-scatter) or all (default)\n"
         "  -w, --warmup_iters N      untimed iterations per variant and row; default 2\n"
         "  -r, --repetitions N       timed iterations per variant and row (each after a barrier); the median\n"
         "  -c, --ctas N              blocks of the put kernel; default 8\n"
         "  -t, --threads_per_cta N   threads per block of the put kernel; default 512\n"
         "      --form F              strict, relaxed or both (default both): the fused portshmem forms\n"
         "      --no-gemm             do not run the GEMM alone\n"
         "      --no-coll             do not run the unfused form with the library's collective\n"
         "      --no-unfused          do not run the unfused form with the workload's put kernel\n"
         "      --no-nvshmem          do not run the NVSHMEM form (builds with NVSHMEM only)\n"
         "      --seed N              input data seed; default 1\n"
         "      --check               check the output against the CPU reference (GPU: a sample of rows and columns;\n"
         "                            host platform: every element); exit 1 on a wrong element\n"
         "      --corrupt             flip one bit of PE 0's output before the check (the check must fail)\n"
         "      --csv FILE, --json FILE   the rows, one per (pattern, shape, variant)\n"
         "  -h, --help\n";
}

namespace {

/// A comma-separated list of positive integers; empty on a malformed one.
std::vector<long> parse_list(const std::string& s) {
  std::vector<long> out;
  std::size_t at = 0;
  while (at <= s.size()) {
    const std::size_t comma = std::min(s.find(',', at), s.size());
    const std::string item = s.substr(at, comma - at);
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end || v < 1 || v > (1L << 20)) return {};
    out.push_back(v);
    at = comma + 1;
  }
  return out;
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
    if (f == "--corrupt") {
      o.corrupt = true;
      continue;
    }
    if (f == "--no-gemm" || f == "--no-coll" || f == "--no-unfused" || f == "--no-nvshmem") {
      const variant v = f == "--no-gemm"      ? variant::gemm
                        : f == "--no-coll"    ? variant::coll
                        : f == "--no-unfused" ? variant::unfused
                                              : variant::nvshmem;
      o.run[int(v)] = false;
      continue;
    }
    if (i + 1 >= argc) return "missing value after " + f;
    const std::string s = argv[++i];
    if (f == "-m" || f == "-n" || f == "-k") {
      const std::vector<long> l = parse_list(s);
      if (l.empty()) return "bad list " + s + " for " + f + " (positive integers, comma-separated)";
      (f == "-m" ? o.m : f == "-n" ? o.n : o.k) = l;
    } else if (f == "--chunks" || f == "-w" || f == "--warmup_iters" || f == "-r" || f == "--repetitions" ||
               f == "-c" || f == "--ctas" || f == "-t" || f == "--threads_per_cta" || f == "--seed") {
      char* end = nullptr;
      const long v = std::strtol(s.c_str(), &end, 10);
      const bool zero_ok = f == "-w" || f == "--warmup_iters" || f == "--seed";
      if (*end || s.empty() || v < (zero_ok ? 0 : 1) || v > 1000000) return "bad count " + s + " for " + f;
      if (f == "--chunks") o.chunks = int(v);
      if (f == "-w" || f == "--warmup_iters") o.warmup = int(v);
      if (f == "-r" || f == "--repetitions") o.repeats = int(v);
      if (f == "-c" || f == "--ctas") o.blocks = unsigned(v);
      if (f == "-t" || f == "--threads_per_cta") o.threads = unsigned(v);
      if (f == "--seed") o.seed = unsigned(v);
    } else if (f == "--pattern") {
      if (s == "ag")
        o.patterns = {pattern::ag};
      else if (s == "rs")
        o.patterns = {pattern::rs};
      else if (s == "all")
        o.patterns = {pattern::ag, pattern::rs};
      else
        return "bad pattern " + s + " (ag, rs, all)";
    } else if (f == "--form") {
      if (s != "strict" && s != "relaxed" && s != "both") return "bad form " + s + " (strict, relaxed, both)";
      o.run[int(variant::strict)] = s != "relaxed";
      o.run[int(variant::relaxed)] = s != "strict";
    } else if (f == "--csv") {
      o.csv = s;
    } else if (f == "--json") {
      o.json = s;
    } else {
      return "unknown flag " + f;
    }
  }
  return "";
}

std::vector<shape> shapes_of(const options& o, int n) {
  std::vector<shape> out;
  for (const pattern p : o.patterns) {
    for (const long M : o.m) {
      for (const long N : o.n) {
        for (const long K : o.k) {
          shape s;
          s.p = p, s.M = M, s.N = N, s.K = K, s.n = n;
          if (M % n || N % n || K % n)
            s.why = "M, N and K must be multiples of the PEs";
          else if (N % 8 || K % 8)
            s.why = "N and K must be multiples of 8 (16-byte rows)";
          s.rows = int(M / n);
          s.chunks = std::max(1, std::min(o.chunks, s.rows));
          const long row_bytes = p == pattern::ag ? 2 * K : 2 * N;
          const long smallest = long(s.rows / s.chunks) * row_bytes / 16;
          s.slices = int(std::max(1L, std::min(long(o.blocks), smallest)));
          if (p == pattern::ag) {
            s.a_rows = M / n, s.a_cols = K, s.b_rows = K, s.b_cols = N / n, s.out_rows = M, s.out_cols = N / n;
          } else {
            s.a_rows = M, s.a_cols = K / n, s.b_rows = K / n, s.b_cols = N, s.out_rows = M / n, s.out_cols = N;
          }
          out.push_back(s);
        }
      }
    }
  }
  return out;
}

// ---- data and the reference ----------------------------------------------------------------------------------------
// Inputs are k / 16 with |k| <= 15 (exact in bf16). Every product is then a multiple of 2^-8 of magnitude below 1, and
// every partial sum of up to 65536 products a multiple of 2^-8 below 2^16 in magnitude: 24 bits, exact in fp32 in any
// order. So an fp32-accumulating GEMM computes each inner product exactly and the only rounding is the final one to
// bf16 (and in rs, the rounding of each PE's partial to bf16). The check still uses the derived bound below, which
// holds for any accumulation order and for an accumulator that truncates: it does not rely on this exactness.

namespace {

std::uint64_t hash_of(unsigned seed, int matrix, long i, long j) {
  std::uint64_t x = (std::uint64_t(i) * 0x9E3779B97F4A7C15ull) ^ (std::uint64_t(j) * 0xC2B2AE3D27D4EB4Full) ^
                    (std::uint64_t(seed) << 40) ^ (std::uint64_t(matrix) << 60);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 32;
  return x;
}
double value_of(unsigned seed, int matrix, long i, long j) {
  return double(int(hash_of(seed, matrix, i, j) % 31u) - 15) / 16.0;
}
constexpr int kA = 1, kB = 2;

std::uint16_t bf16_bits(double v) {
  return workloads::bf16_of_f32(float(v)); // exact: v = k / 16
}

/// gamma_k(u) = k u / (1 - k u) (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., section 3.1).
double gamma(double k, double u) {
  return k * u / (1.0 - k * u);
}

} // namespace

std::vector<std::uint16_t> make_a(const shape& s, unsigned seed, int me) {
  std::vector<std::uint16_t> a(std::size_t(s.a_rows * s.a_cols));
  const long r0 = s.p == pattern::ag ? me * s.a_rows : 0, c0 = s.p == pattern::ag ? 0 : me * s.a_cols;
  for (long i = 0; i < s.a_rows; ++i)
    for (long j = 0; j < s.a_cols; ++j)
      a[std::size_t(i * s.a_cols + j)] = bf16_bits(value_of(seed, kA, r0 + i, c0 + j));
  return a;
}

std::vector<std::uint16_t> make_b(const shape& s, unsigned seed, int me) {
  std::vector<std::uint16_t> b(std::size_t(s.b_rows * s.b_cols));
  const long r0 = s.p == pattern::ag ? 0 : me * s.b_rows, c0 = s.p == pattern::ag ? me * s.b_cols : 0;
  for (long i = 0; i < s.b_rows; ++i)
    for (long j = 0; j < s.b_cols; ++j)
      b[std::size_t(i * s.b_cols + j)] = bf16_bits(value_of(seed, kB, r0 + i, c0 + j));
  return b;
}

// The tolerance, derived (u_b = 2^-8, bf16's unit roundoff; u_a = 2^-23 for the fp32 accumulation: twice fp32's
// round-to-nearest unit roundoff, so that it also bounds an accumulator that truncates, as tensor cores' internal
// additions may). For an inner product of k terms computed in any order, |computed - exact| <= gamma_k(u_a) S with
// S = sum |a_i b_i| (Higham eq. 3.5); rounding the result to bf16 adds at most u_b |computed|.
//   ag: |C^ - C| <= gamma_K(u_a) S + u_b (|C| + gamma_K(u_a) S).
//   rs: PE p's bf16 partial P^_p of its K/n terms is off by e_p = gamma_{K/n}(u_a) S_p (1 + u_b) + u_b |P_p|; the n
//       partials are then summed in any order and rounded to bf16, each step rounding to fp32 or even to bf16 (the
//       library's bf16 reduce_scatter may): at most gamma_n(u_b) sum |P^_p| (Higham eq. 4.4 plus the final rounding,
//       as in the collective workload). So |out - exact| <= E + gamma_n(u_b) (sum |P_p| + E), E = sum e_p.
// With the inputs above the variants' GEMMs are exact, so the observed errors are the bf16 roundings alone.
std::size_t check_out(const shape& s, unsigned seed, int me, bool every, const std::vector<std::uint16_t>& got,
                      const std::string& what) {
  const double ub = std::ldexp(1.0, -8), ua = std::ldexp(1.0, -23);
  // The rows and columns looked at (output coordinates).
  std::vector<long> rows, cols;
  const long blocks = s.p == pattern::ag ? s.n : 1; // ag: C has n blocks of rows (one per source shard)
  if (every) {
    for (long r = 0; r < s.out_rows; ++r) rows.push_back(r);
  } else {
    for (long b = 0; b < blocks; ++b) {
      for (int c = 0; c < s.chunks; ++c) {
        const long lo = b * s.rows + chunk_lo(s.rows, s.chunks, c), hi = b * s.rows + chunk_lo(s.rows, s.chunks, c + 1);
        rows.push_back(lo);
        rows.push_back(hi - 1);
        rows.push_back(lo + long(hash_of(seed, 3, b, c) % std::uint64_t(hi - lo)));
      }
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  }
  const long w = s.out_cols, samples = every ? w : std::min<long>(w, 64);
  for (long t = 0; t < samples; ++t) cols.push_back(samples == 1 ? 0 : (w - 1) * t / (samples - 1));
  cols.erase(std::unique(cols.begin(), cols.end()), cols.end());

  // Global coordinates: the row of A and the column of B each output element is made of.
  const long row0 = s.p == pattern::ag ? 0 : me * s.rows, col0 = s.p == pattern::ag ? me * s.out_cols : 0;
  const long K = s.K, Kp = K / s.n;
  std::vector<double> bcols(cols.size() * std::size_t(K)), arow(static_cast<std::size_t>(K));
  for (std::size_t j = 0; j < cols.size(); ++j)
    for (long k = 0; k < K; ++k) bcols[j * std::size_t(K) + std::size_t(k)] = value_of(seed, kB, k, col0 + cols[j]);
  std::size_t wrong = 0;
  char line[320];
  for (const long r : rows) {
    for (long k = 0; k < K; ++k) arow[std::size_t(k)] = value_of(seed, kA, row0 + r, k);
    for (std::size_t j = 0; j < cols.size(); ++j) {
      const double* bc = &bcols[j * std::size_t(K)];
      double exact = 0, tol = 0;
      if (s.p == pattern::ag) {
        double S = 0;
        for (long k = 0; k < K; ++k)
          exact += arow[std::size_t(k)] * bc[k], S += std::fabs(arow[std::size_t(k)] * bc[k]);
        const double g = gamma(double(K), ua) * S;
        tol = g + ub * (std::fabs(exact) + g);
      } else {
        double E = 0, abs_parts = 0;
        for (int p = 0; p < s.n; ++p) {
          double P = 0, S = 0;
          for (long k = p * Kp; k < (p + 1) * Kp; ++k)
            P += arow[std::size_t(k)] * bc[k], S += std::fabs(arow[std::size_t(k)] * bc[k]);
          exact += P, abs_parts += std::fabs(P);
          E += gamma(double(Kp), ua) * S * (1 + ub) + ub * std::fabs(P);
        }
        tol = E + gamma(double(s.n), ub) * (abs_parts + E);
      }
      const std::uint16_t bits = got[std::size_t(r * s.out_cols + cols[j])];
      const double g = double(workloads::f32_of_bf16(bits));
      if (!(std::fabs(g - exact) <= tol)) { // NaN (the guard) fails too
        if (wrong == 0) {
          std::snprintf(line, sizeof line,
                        "FAIL: %s: PE %d output row %ld column %ld: %.9g (bits 0x%04x), expected "
                        "%.9g within %.3g\n",
                        what.c_str(), me, r, cols[j], g, unsigned(bits), exact, tol);
          std::fputs(line, stderr);
        }
        ++wrong;
      }
    }
  }
  return wrong;
}

// ---- output -------------------------------------------------------------------------------------------------------

report::report(const options& o, int n, std::string who, std::string engine)
    : o_(o), n_(n), who_(std::move(who)), engine_(std::move(engine)) {}

void report::header(const std::vector<variant>& vs) {
  vs_ = vs;
  std::printf("# gemm_workload: %s, %d PEs; GEMM: %s\n", who_.c_str(), n_, engine_.c_str());
  std::printf("# ag: C_p (M x N/n) = all_gather(A rows, M/n x K per PE) x B_p (K x N/n); rs: A_p (M x K/n) x B_p "
              "(K/n x N), reduce-scattered over rows (M/n x N per PE); bf16 in and out, fp32 accumulation\n");
  std::printf("# fused: per chunk of M/n/chunks rows, a put-with-signal per chunk (%u blocks x %u threads) and one "
              "wait per chunk before its GEMM (ag) or reduction (rs)\n",
              o_.blocks, o_.threads);
  std::printf("# time_ms: median of %d timed iterations (each after a barrier, %d warm-up) of the slowest PE's time; "
              "TF/s = 2 M N K / time (the whole layer, all PEs)\n# relaxed/X = X's time / relaxed's time (> 1: the "
              "fused relaxed form is faster); check: %s\n",
              o_.repeats, o_.warmup, o_.check ? "the output against the CPU reference" : "off (--check)");
  std::fflush(stdout);
}

void report::row(const std::vector<result>& rs) {
  if (rs.empty()) return;
  const result& first = rs.front();
  if (first_ || first.s.p != last_) {
    std::printf("## %s\n", first.s.p == pattern::ag ? "all-gather + GEMM (ag)" : "GEMM + reduce-scatter (rs)");
    std::printf("%-4s %6s %6s %6s %6s", "#pat", "M", "N", "K", "chunks");
    for (const variant v : vs_)
      std::printf(" %10s %9s", (std::string(name_of(v)) + "_ms").c_str(), (std::string(name_of(v)) + "_TF/s").c_str());
    for (const variant v : vs_)
      if (v != variant::relaxed) std::printf(" %15s", (std::string("relaxed/") + name_of(v)).c_str());
    std::printf(" %s\n", "check");
    first_ = false, last_ = first.s.p;
  }
  std::printf("%-4s %6ld %6ld %6ld %6d", name_of(first.s.p), first.s.M, first.s.N, first.s.K, first.s.chunks);
  const result* relaxed = nullptr;
  bool ok = true, checked = false;
  for (const result& r : rs) {
    if (r.v == variant::relaxed) relaxed = &r;
    ok = ok && r.ok, checked = checked || r.checked;
  }
  for (const variant v : vs_) {
    const result* r = nullptr;
    for (const result& x : rs) r = x.v == v ? &x : r;
    if (r && r->ms > 0)
      std::printf(" %10.3f %9.2f", r->ms, r->s.flops() / (r->ms * 1e-3) / 1e12);
    else
      std::printf(" %10s %9s", "-", "-");
  }
  for (const variant v : vs_) {
    if (v == variant::relaxed) continue;
    const result* r = nullptr;
    for (const result& x : rs) r = x.v == v ? &x : r;
    if (r && relaxed && relaxed->ms > 0)
      std::printf(" %15.3f", r->ms / relaxed->ms);
    else
      std::printf(" %15s", "-");
  }
  std::printf(" %s\n", !checked ? "-" : ok ? "ok" : "FAIL");
  std::fflush(stdout);
  all_.insert(all_.end(), rs.begin(), rs.end());
}

bool report::finish() {
  bool fine = true;
  auto relaxed_ms = [&](const result& r) {
    for (const result& x : all_) {
      if (x.v == variant::relaxed && x.s.p == r.s.p && x.s.M == r.s.M && x.s.N == r.s.N && x.s.K == r.s.K) return x.ms;
    }
    return 0.0;
  };
  auto fields = [&](const result& r, bool json) {
    char buf[512];
    const double rel = relaxed_ms(r), ratio = rel > 0 ? r.ms / rel : 0.0;
    const double tf = r.ms > 0 ? r.s.flops() / (r.ms * 1e-3) / 1e12 : 0.0;
    const char* check = !r.checked ? "-" : r.ok ? "ok" : "FAIL";
    if (json) {
      std::snprintf(buf, sizeof buf,
                    "{\"pattern\": \"%s\", \"M\": %ld, \"N\": %ld, \"K\": %ld, \"pes\": %d, \"chunks\": %d, "
                    "\"variant\": \"%s\", \"blocks\": %u, \"threads\": %u, \"iters\": %d, \"time_ms\": %.6g, "
                    "\"tflops\": %.6g, \"relaxed_speedup\": %.6g, \"check\": \"%s\"}",
                    name_of(r.s.p), r.s.M, r.s.N, r.s.K, n_, r.s.chunks, name_of(r.v), o_.blocks, o_.threads, r.iters,
                    r.ms, tf, ratio, check);
    } else {
      std::snprintf(buf, sizeof buf, "%s,%ld,%ld,%ld,%d,%d,%s,%u,%u,%d,%.6g,%.6g,%.6g,%s", name_of(r.s.p), r.s.M, r.s.N,
                    r.s.K, n_, r.s.chunks, name_of(r.v), o_.blocks, o_.threads, r.iters, r.ms, tf, ratio, check);
    }
    return std::string(buf);
  };
  if (!o_.csv.empty()) {
    FILE* f = std::fopen(o_.csv.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "gemm_workload: cannot write %s\n", o_.csv.c_str());
      fine = false;
    } else {
      std::fprintf(f, "pattern,M,N,K,pes,chunks,variant,blocks,threads,iters,time_ms,tflops,relaxed_speedup,check\n");
      for (const result& r : all_) std::fprintf(f, "%s\n", fields(r, false).c_str());
      std::fclose(f);
    }
  }
  if (!o_.json.empty()) {
    FILE* f = std::fopen(o_.json.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "gemm_workload: cannot write %s\n", o_.json.c_str());
      fine = false;
    } else {
      std::fprintf(f, "{\"workload\": \"gemm\", \"who\": \"%s\", \"engine\": \"%s\", \"pes\": %d, \"rows\": [",
                   who_.c_str(), engine_.c_str(), n_);
      for (std::size_t i = 0; i < all_.size(); ++i)
        std::fprintf(f, "%s\n  %s", i ? "," : "", fields(all_[i], true).c_str());
      std::fprintf(f, "\n]}\n");
      std::fclose(f);
    }
  }
  return fine;
}

} // namespace gemm
