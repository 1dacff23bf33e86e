// The collective workload's host side, shared by the portshmem program (coll_workload.cpp) and its NVSHMEM part
// (nvshmem_side.cu): flags, sizes, input data, the CPU reference and its tolerance, statistics over PEs, and the
// table / CSV / JSON output. Plain C++17 and MPI: no portshmem or NVSHMEM header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../common/pe_stats.hpp"

namespace wl {

enum class op { allreduce, alltoall };
enum class dtype { f32, bf16 };
/// The variants of one row: the workload's kernel in its two forms, the library's own collective, the same kernel
/// written with NVSHMEM, NVSHMEM's own collective (the NVSHMEM two only in builds with PORTSHMEM_NVSHMEM_HOME).
enum class variant { strict, relaxed, coll, nvshmem, nvshmem_coll };
inline constexpr int kVariants = 5;
const char* name_of(op o);
const char* name_of(dtype t);
const char* name_of(variant v);
inline std::size_t esize_of(dtype t) {
  return t == dtype::f32 ? 4 : 2;
}

struct options {
  std::size_t min_bytes = std::size_t(8) << 10, max_bytes = std::size_t(1) << 30, step = 2;
  int iters = 20, warmup = 5, repeats = 5;
  unsigned blocks = 16, threads = 512;
  std::vector<op> ops{op::allreduce, op::alltoall};
  std::vector<dtype> types{dtype::f32, dtype::bf16};
  bool run[kVariants] = {true, true, true, true, true};
  int algo = -1; ///< -1: one-shot up to `crossover` bytes, two-shot above; else kOneShot / kTwoShot
  std::size_t crossover = std::size_t(256) << 10;
  bool check = false;
  std::string csv, json;
};
/// Parses argv into o (whose fields hold the platform's defaults); returns an error ("help" for -h), empty if fine.
std::string parse(int argc, char** argv, options& o);
const char* usage();

/// The sweep's sizes (min, min x step, ... up to max).
std::vector<std::size_t> sizes_of(const options& o);
/// One row's shape. allreduce: `bytes` of each PE's buffer (a multiple of 16). alltoall: `bytes` is one block (per
/// peer, a multiple of 16), `size` = n blocks. size 0: too small for this many PEs (skipped).
struct shape {
  std::size_t size = 0, bytes = 0, count = 0; ///< count: elements of each PE's src and dest
  int algo = 0;
};
shape shape_of(const options& o, op k, dtype t, std::size_t sweep_bytes, int n);
/// Calls per timed launch: ITERS up to 1 MiB, then about ITERS MiB per launch (at least 2).
int iters_for(const options& o, std::size_t size);

/// PE pe's src for one row (the bits of its elements).
std::vector<std::uint8_t> make_src(op k, dtype t, const shape& s, int pe, int n);
/// The number of dest elements of PE me that fail the check; the first is described on stderr. allreduce: within
/// the derived tolerance of the exact sum (tolerance_of); alltoall: bit for bit. `what` names the row.
std::size_t check_dest(op k, dtype t, const shape& s, int me, int n, const std::vector<std::uint8_t>& got,
                       const std::string& what);
/// |computed - exact| bound of a sum of n terms of type t whose sum of magnitudes is abs_sum (see coll_host.cpp).
double tolerance_of(dtype t, int n, double abs_sum);

using workloads::max_over_pes;
using workloads::median;
using workloads::sum_over_pes;

/// One measured (row, variant).
struct result {
  op k;
  dtype t;
  shape s;
  variant v;
  int iters = 0;
  double us = 0;  ///< median over the timed launches of the slowest PE's time per call
  bool ok = true; ///< check passed (or not checked)
  bool checked = false;
};

/// The table on stdout, and the CSV / JSON files.
class report {
 public:
  report(const options& o, int n, std::string who);
  void header(const std::vector<variant>& vs);
  /// The row of one (op, type, size): every variant's result.
  void row(const std::vector<result>& rs);
  /// Writes the files (PE 0 only); false when one could not be written.
  bool finish();

 private:
  const options& o_;
  int n_;
  std::string who_;
  std::vector<variant> vs_;
  std::vector<result> all_;
};

} // namespace wl
