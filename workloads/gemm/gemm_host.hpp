// The fused GEMM + communication workload's host side, shared by the program (gemm_workload.cpp) and readable by its
// NVSHMEM part: flags, shapes, input data, the CPU reference and its tolerance, and the table / CSV / JSON output.
// Plain C++17 and MPI: no portshmem, CUDA or NVSHMEM header.
//
// The tensor-parallel convention (Megatron-style sequence parallelism around a column- and a row-parallel linear
// layer; -m -n -k are the layer's global sizes, n PEs):
//   all-gather + GEMM (ag)      PE p holds rows [p M/n, (p+1) M/n) of A (M x K) and columns [p N/n, (p+1) N/n) of
//                               B (K x N); it computes C_p = all_gather(A) x B_p, the M x N/n columns of C = A x B
//                               that its B shard gives.
//   GEMM + reduce-scatter (rs)  PE p holds columns [p K/n, (p+1) K/n) of A (M x K) and rows [p K/n, (p+1) K/n) of B
//                               (K x N); its partial A_p x B_p (M x N) is reduce-scattered over rows: PE p ends with
//                               rows [p M/n, (p+1) M/n) of A x B (M/n x N).
// Every matrix is row-major bf16; products accumulate in fp32; C and the output are bf16.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../common/pe_stats.hpp"

namespace gemm {

enum class pattern { ag, rs };
/// The variants of one row, in the order they run:
///   gemm     the GEMM alone, no communication (the floor the fused forms approach; not checked)
///   coll     unfused with the library's own collective: fcollect then the GEMM / the GEMM then reduce_scatter
///   unfused  unfused with the workload's put kernel: all puts, wait, the whole GEMM / the whole GEMM, all puts, wait,
///            one reduction (relaxed_policy, so that fused against unfused compares structure alone)
///   strict   fused, OpenSHMEM default semantics (strict_policy)
///   relaxed  fused, the qualified calls the memory model allows (relaxed_policy)
///   nvshmem  fused, the same kernels with NVSHMEM calls on NVSHMEM's heap (builds with PORTSHMEM_NVSHMEM_HOME only)
enum class variant { gemm, coll, unfused, strict, relaxed, nvshmem };
inline constexpr int kVariants = 6;
const char* name_of(pattern p);
const char* name_of(variant v);

struct options {
  std::vector<long> m{4096, 8192, 16384}, n{4096, 8192}, k{4096, 8192};
  int chunks = 4;
  int warmup = 2, repeats = 5;
  unsigned blocks = 8, threads = 512;
  std::vector<pattern> patterns{pattern::ag, pattern::rs};
  bool run[kVariants] = {true, true, true, true, true, true};
  bool check = false, corrupt = false;
  unsigned seed = 1;
  std::string csv, json;
};
/// Parses argv into o (whose fields hold the platform's defaults); returns an error ("help" for -h), empty if fine.
std::string parse(int argc, char** argv, options& o);
const char* usage();

/// One row: a pattern at one (M, N, K) over n PEs, with what each PE holds.
struct shape {
  pattern p = pattern::ag;
  long M = 0, N = 0, K = 0;
  int n = 1;
  int rows = 0;    ///< M / n: a shard's rows (ag), a PE's output rows (rs)
  int chunks = 1;  ///< row chunks of a block of `rows` rows (at most rows)
  int slices = 1;  ///< puts per chunk (one per put-kernel block, at most the 16-byte units of the smallest chunk)
  std::string why; ///< not empty: the shape cannot run with n PEs (and why)
  // Per PE, row-major: A operand a_rows x a_cols, B operand b_rows x b_cols, the output out_rows x out_cols.
  long a_rows = 0, a_cols = 0, b_rows = 0, b_cols = 0, out_rows = 0, out_cols = 0;
  double flops() const { return 2.0 * double(M) * double(N) * double(K); }
};
/// The shapes of the run, in the order of the table (pattern, then M, N, K as given).
std::vector<shape> shapes_of(const options& o, int n);

/// This PE's operands (bf16 bits, row-major): its A (ag: its shard of rows; rs: its columns) and its B (ag: its
/// columns; rs: its rows). Values k / 16 with |k| <= 15 from a hash of (seed, matrix, global row, global column).
std::vector<std::uint16_t> make_a(const shape& s, unsigned seed, int me);
std::vector<std::uint16_t> make_b(const shape& s, unsigned seed, int me);

/// The elements of this PE's output (ag: C_me, M x N/n; rs: its rows of A x B, M/n x N) that fail the check; the first
/// is described on stderr. every: all elements (the host platform); else a sample: per block of rows and chunk its
/// first, last and one more row, and 64 columns spread over the width (every chunk of every source is read).
/// Within the derived tolerance of the exact value (gemm_host.cpp).
std::size_t check_out(const shape& s, unsigned seed, int me, bool every, const std::vector<std::uint16_t>& got,
                      const std::string& what);

using workloads::max_over_pes;
using workloads::median;
using workloads::sum_over_pes;

/// One measured (row, variant).
struct result {
  shape s;
  variant v = variant::relaxed;
  int iters = 0;
  double ms = 0;  ///< median over the timed iterations of the slowest PE's time
  bool ok = true; ///< check passed (or not checked)
  bool checked = false;
};

/// The table on stdout, and the CSV / JSON files.
class report {
 public:
  report(const options& o, int n, std::string who, std::string engine);
  void header(const std::vector<variant>& vs);
  /// The row of one shape: every variant's result.
  void row(const std::vector<result>& rs);
  /// Writes the files (PE 0 only); false when one could not be written.
  bool finish();

 private:
  const options& o_;
  int n_;
  std::string who_, engine_;
  std::vector<variant> vs_;
  std::vector<result> all_;
  pattern last_ = pattern::ag;
  bool first_ = true;
};

} // namespace gemm
