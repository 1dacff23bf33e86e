// What coll_bench.cpp (portshmem) and nvshmem_coll.cu (NVSHMEM) share, so that both programs take the same flags,
// run the same sizes, send the same data, check it alike and print the same rows (scripts/coll-bench.sh joins them).
// Host C++17 and MPI only (both programs run under mpirun): no portshmem or NVSHMEM header here.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace coll {

enum class kind { barrier, sync, broadcast, fcollect, alltoall, reduce, reduce_scatter };

struct named {
  kind k;
  const char* name;
};
inline constexpr named kKinds[] = {{kind::barrier, "barrier"},
                                   {kind::sync, "sync"},
                                   {kind::broadcast, "broadcast"},
                                   {kind::fcollect, "fcollect"},
                                   {kind::alltoall, "alltoall"},
                                   {kind::reduce, "reduce"},
                                   {kind::reduce_scatter, "reduce_scatter"}};

inline const char* name_of(kind k) {
  for (const named& n : kKinds) {
    if (n.k == k) return n.name;
  }
  return "?";
}

/// barrier and sync move no data: one row, size 0.
inline bool moves_data(kind k) {
  return k != kind::barrier && k != kind::sync;
}
/// perftest counts every PE's part in these sizes (see shape_of).
inline bool size_counts_all_pes(kind k) {
  return k == kind::fcollect || k == kind::alltoall || k == kind::reduce_scatter;
}
inline bool is_reduction(kind k) {
  return k == kind::reduce || k == kind::reduce_scatter;
}

/// perftest's bus-bandwidth factor: busbw = algbw x factor.
inline double bus_factor(kind k, int n) {
  if (k == kind::reduce) return 2.0 * (n - 1) / n;
  if (k == kind::broadcast) return 1.0;
  return double(n - 1) / n;
}

// ---- options --------------------------------------------------------------------------------------------------------

struct options {
  std::size_t min_bytes = 8, max_bytes = std::size_t(256) << 20;
  int iters = 100, warmup = 10, repeats = 7;
  unsigned threads = 1024;
  bool sync_every = false; // -s: team_sync after every call of every collective, not only broadcast's
  bool bf16 = false;       // -d bf16: reductions on bfloat16 instead of float
  std::vector<kind> kinds{kind::barrier,  kind::sync,   kind::broadcast,     kind::fcollect,
                          kind::alltoall, kind::reduce, kind::reduce_scatter};
};

inline const char* usage() {
  return "usage: PROGRAM [-b MIN] [-e MAX] [-n ITERS] [-w WARMUP] [-r REPEATS] [-c NAME,...] [-d float|bf16] "
         "[-t THREADS] [-s]\n"
         "  -b, -e     smallest and largest size in bytes (suffix K, M, G: powers of 1024), powers of 2 between\n"
         "  -n         calls per timed launch up to 1 MiB (fewer above: ITERS x 1 MiB / size, at least 2)\n"
         "  -w         warm-up calls (one launch before the timed ones)\n"
         "  -r         timed launches; the row shows their median\n"
         "  -c         collectives: barrier,sync,broadcast,fcollect,alltoall,reduce,reduce_scatter (default all)\n"
         "  -d         element type of reduce and reduce_scatter (sum): float (default) or bf16\n"
         "  -t         threads of the one block per PE\n"
         "  -s         team_sync after every call of every collective (default: after broadcast's only)\n";
}

/// Bytes with an optional K/M/G suffix (1024-based); 0 on a malformed value.
inline std::size_t parse_bytes(const char* s) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s) return 0;
  std::size_t scale = 1;
  if (*end == 'K' || *end == 'k') scale = std::size_t(1) << 10;
  if (*end == 'M' || *end == 'm') scale = std::size_t(1) << 20;
  if (*end == 'G' || *end == 'g') scale = std::size_t(1) << 30;
  if (scale != 1) ++end;
  if (*end == 'B' || *end == 'b') ++end;
  return *end ? 0 : std::size_t(v) * scale;
}

/// Parses argv into o (whose fields hold the platform's defaults); returns an error message, empty when fine.
inline std::string parse(int argc, char** argv, options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "-s") {
      o.sync_every = true;
      continue;
    }
    if (flag == "-h" || flag == "--help") return "help";
    if (i + 1 >= argc) return "missing value after " + flag;
    const char* value = argv[++i];
    if (flag == "-b" || flag == "-e") {
      const std::size_t v = parse_bytes(value);
      if (v == 0) return "bad size " + std::string(value);
      (flag == "-b" ? o.min_bytes : o.max_bytes) = v;
    } else if (flag == "-n" || flag == "-w" || flag == "-r" || flag == "-t") {
      const long v = std::strtol(value, nullptr, 10);
      if (v < (flag == "-w" ? 0 : 1) || v > 1000000) return "bad count " + std::string(value) + " for " + flag;
      if (flag == "-n") o.iters = int(v);
      if (flag == "-w") o.warmup = int(v);
      if (flag == "-r") o.repeats = int(v);
      if (flag == "-t") o.threads = unsigned(v);
    } else if (flag == "-d") {
      const std::string d = value;
      if (d != "float" && d != "bf16") return "bad type " + d + " (float or bf16)";
      o.bf16 = d == "bf16";
    } else if (flag == "-c") {
      o.kinds.clear();
      std::string list = value;
      for (std::size_t at = 0; at <= list.size();) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        const std::string name = list.substr(at, comma - at);
        bool found = false;
        for (const named& n : kKinds) {
          if (name == n.name) o.kinds.push_back(n.k), found = true;
        }
        if (!found) return "unknown collective " + name;
        at = comma + 1;
      }
    } else {
      return "unknown flag " + flag;
    }
  }
  if (o.min_bytes > o.max_bytes) return "-b is larger than -e";
  return "";
}

// ---- sizes ----------------------------------------------------------------------------------------------------------

/// One row's work. `size` is perftest's size(B) for the collective (the n-scaled ones rounded down to whole elements
/// per PE), `arg` what the call takes (bytes for the *mem forms, elements for the reductions).
struct shape {
  std::size_t size = 0, count = 0, esize = 4, arg = 0, src_bytes = 0, dest_bytes = 0;
  std::size_t block = 0; // elements per PE block (fcollect, alltoall, reduce_scatter), else the element count
};

/// The row for sweep size `bytes` on n PEs. Data movers move 32-bit words; reductions elements of `red_esize` bytes.
/// A size too small to give every PE one element gives count 0 (the row is skipped).
inline shape shape_of(kind k, std::size_t bytes, int n, std::size_t red_esize) {
  shape s;
  if (!moves_data(k)) return s;
  s.esize = is_reduction(k) ? red_esize : 4;
  const std::size_t pes = size_counts_all_pes(k) ? std::size_t(n) : 1;
  s.block = bytes / (pes * s.esize);
  s.size = s.block * pes * s.esize;
  s.count = s.size / s.esize;
  s.arg = is_reduction(k) ? s.block : s.block * s.esize;
  const std::size_t part = s.block * s.esize;
  switch (k) {
  case kind::broadcast:
  case kind::reduce:
    s.src_bytes = s.dest_bytes = part;
    break;
  case kind::fcollect:
    s.src_bytes = part, s.dest_bytes = part * n;
    break;
  case kind::alltoall:
    s.src_bytes = s.dest_bytes = part * n;
    break;
  case kind::reduce_scatter:
    s.src_bytes = part * n, s.dest_bytes = part;
    break;
  default:
    break;
  }
  return s;
}

/// Calls per timed launch: all of them up to 1 MiB, then fewer so that a launch moves about ITERS MiB.
inline int iters_for(const options& o, std::size_t size) {
  constexpr std::size_t kFull = std::size_t(1) << 20;
  if (size <= kFull) return o.iters;
  return int(std::max<std::size_t>(2, std::size_t(o.iters) * kFull / size));
}

// ---- data -----------------------------------------------------------------------------------------------------------

/// Every byte of every dest is this before a timed launch, so a result that was never written fails the check.
inline constexpr std::uint8_t kGuard = 0xA5;

/// The 32-bit word a data mover sends from PE pe at position i: differs by PE and position, never zero or the guard.
inline std::uint32_t word(int pe, std::size_t i) {
  std::uint32_t v = (std::uint32_t(pe) + 1u) * 0x9E3779B1u ^ std::uint32_t(i) * 0x85EBCA77u ^ std::uint32_t(i >> 32);
  if (v == 0 || v == 0xA5A5A5A5u) v = 0x5A5A5A5Au;
  return v;
}

/// The reduction input of PE pe at element k: small positive integers, so every partial sum in member order is exact
/// in float (below 2^24) and in bfloat16 (up to 256: 8 x PEs, hence bf16 runs on at most 32 PEs).
inline std::uint32_t addend(int pe, std::size_t k, bool bf16) {
  return bf16 ? std::uint32_t((k + std::size_t(pe)) % 8 + 1) : std::uint32_t((k + 3 * std::size_t(pe)) % 1024 + 1);
}

/// Stores the integer v (exact) as element i of a float or bfloat16 buffer.
inline void put_elem(std::vector<std::uint8_t>& buf, std::size_t i, std::uint32_t v, bool bf16) {
  const float f = float(v);
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, 4);
  if (bf16) {
    const std::uint16_t hi = std::uint16_t(bits >> 16); // exact: v <= 256 leaves the low half zero
    std::memcpy(buf.data() + 2 * i, &hi, 2);
  } else {
    std::memcpy(buf.data() + 4 * i, &bits, 4);
  }
}

inline void put_word(std::vector<std::uint8_t>& buf, std::size_t i, std::uint32_t v) {
  std::memcpy(buf.data() + 4 * i, &v, 4);
}

/// PE me's src for one row.
inline std::vector<std::uint8_t> make_src(kind k, const shape& s, int me, int n, bool bf16) {
  std::vector<std::uint8_t> src(s.src_bytes);
  const std::size_t b = s.block;
  switch (k) {
  case kind::broadcast:
  case kind::fcollect:
    for (std::size_t i = 0; i < b; ++i) put_word(src, i, word(me, i));
    break;
  case kind::alltoall: // block j goes to PE j
    for (std::size_t i = 0; i < b * n; ++i) put_word(src, i, word(me, i));
    break;
  case kind::reduce:
    for (std::size_t i = 0; i < b; ++i) put_elem(src, i, addend(me, i, bf16), bf16);
    break;
  case kind::reduce_scatter: // block j is reduced into PE j's dest
    for (std::size_t i = 0; i < b * n; ++i) put_elem(src, i, addend(me, i, bf16), bf16);
    break;
  default:
    break;
  }
  return src;
}

/// What PE me's dest must hold after the collective (broadcast's root is PE 0).
inline std::vector<std::uint8_t> expected_dest(kind k, const shape& s, int me, int n, bool bf16) {
  std::vector<std::uint8_t> dest(s.dest_bytes);
  const std::size_t b = s.block;
  // addend repeats with period 8 (bf16) or 1024 (float) in k, so one period of sums serves every element.
  const std::size_t period = bf16 ? 8 : 1024;
  std::vector<std::uint32_t> sums(period, 0);
  for (std::size_t r = 0; r < period; ++r) {
    for (int p = 0; p < n; ++p) sums[r] += addend(p, r, bf16);
  }
  auto sum = [&](std::size_t at) { return sums[at % period]; };
  switch (k) {
  case kind::broadcast:
    for (std::size_t i = 0; i < b; ++i) put_word(dest, i, word(0, i));
    break;
  case kind::fcollect: // block p from PE p
    for (int p = 0; p < n; ++p) {
      for (std::size_t i = 0; i < b; ++i) put_word(dest, std::size_t(p) * b + i, word(p, i));
    }
    break;
  case kind::alltoall: // block p: PE p's block for me
    for (int p = 0; p < n; ++p) {
      for (std::size_t i = 0; i < b; ++i) put_word(dest, std::size_t(p) * b + i, word(p, std::size_t(me) * b + i));
    }
    break;
  case kind::reduce:
    for (std::size_t i = 0; i < b; ++i) put_elem(dest, i, sum(i), bf16);
    break;
  case kind::reduce_scatter:
    for (std::size_t i = 0; i < b; ++i) put_elem(dest, i, sum(std::size_t(me) * b + i), bf16);
    break;
  default:
    break;
  }
  return dest;
}

/// Counts the elements of got that differ from want; reports the first on stderr.
inline std::size_t count_mismatches(kind k, const shape& s, int me, const std::vector<std::uint8_t>& got,
                                    const std::vector<std::uint8_t>& want) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < s.dest_bytes / s.esize; ++i) {
    if (std::memcmp(got.data() + i * s.esize, want.data() + i * s.esize, s.esize) == 0) continue;
    if (wrong++ == 0) {
      std::uint32_t g = 0, w = 0;
      std::memcpy(&g, got.data() + i * s.esize, s.esize);
      std::memcpy(&w, want.data() + i * s.esize, s.esize);
      std::fprintf(stderr, "FAIL: %s size %zu: PE %d dest element %zu is 0x%x, expected 0x%x\n", name_of(k), s.size, me,
                   i, g, w);
    }
  }
  return wrong;
}

// ---- statistics over repeats and PEs -------------------------------------------------------------------------------

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

inline double max_over_pes(double v) {
  double m = v;
  MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

inline long sum_over_pes(long v) {
  long s = v;
  MPI_Allreduce(&v, &s, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

// ---- the table ------------------------------------------------------------------------------------------------------

/// The header: what ran, and how to read the columns. `who` names the library and platform.
/// `limits`: the kernels that cannot launch the block size asked for, with the most they can (empty: none).
inline void print_header(const char* who, int n, const options& o, const std::string& limits) {
  std::printf("# %s: %d PEs, world team, one block of %u threads per PE\n", who, n, o.threads);
  if (!limits.empty())
    std::printf("# block size: the most these kernels can launch (their registers):%s\n", limits.c_str());
  std::printf("# time_us: median of %d timed launches of the slowest PE's event time / calls (after a warm-up launch "
              "of up to %d calls)\n",
              o.repeats, o.warmup);
  std::printf(
      "# size_B = NVSHMEM perftest's size(B): broadcast and reduce: bytes of each PE's src and dest; fcollect: "
      "each PE's dest\n# (n blocks); alltoall: each PE's src and dest (n blocks); reduce_scatter: each PE's src "
      "(n blocks, one per dest).\n# algbw = size_B / time (GB/s = 1e9 B/s, as perftest); busbw = algbw x "
      "perftest's factor (reduce 2(n-1)/n, broadcast 1,\n# fcollect, alltoall, reduce_scatter (n-1)/n). "
      "sync=yes: the timed loop has a team_sync after each call (in time_us).\n");
  std::printf("%-15s %12s %10s %-6s %6s %12s %11s %11s %-4s %s\n", "#collective", "size_B", "count", "type", "iters",
              "time_us", "algbw_GB/s", "busbw_GB/s", "sync", "check");
  std::fflush(stdout);
}

inline void print_row(kind k, const shape& s, int n, bool bf16, int iters, double us, bool synced, bool ok) {
  const char* type = !moves_data(k) ? "-" : is_reduction(k) ? (bf16 ? "bf16" : "float") : "u32";
  if (moves_data(k)) {
    const double algbw = double(s.size) / (us * 1e-6) / 1e9;
    std::printf("%-15s %12zu %10zu %-6s %6d %12.2f %11.3f %11.3f %-4s %s\n", name_of(k), s.size, s.count, type, iters,
                us, algbw, algbw * bus_factor(k, n), synced ? "yes" : "no", ok ? "ok" : "FAIL");
  } else {
    std::printf("%-15s %12d %10d %-6s %6d %12.2f %11s %11s %-4s %s\n", name_of(k), 0, 0, type, iters, us, "-", "-",
                synced ? "yes" : "no", ok ? "ok" : "FAIL");
  }
  std::fflush(stdout);
}

} // namespace coll
