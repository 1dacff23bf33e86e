// gemm_workload: the fused GEMM + communication workload (docs/workloads.md). Two tensor-parallel patterns at LLM
// shapes, bf16 in and out with fp32 accumulation (the convention is in gemm_host.hpp):
//   ag  all-gather + GEMM: each PE's A shard goes to every peer in row chunks with a signal per chunk; the GEMM of a
//       chunk starts once its signal has arrived (own shard first, then the peers from my_pe + 1 in ring order), so
//       the later chunks' communication overlaps the earlier chunks' GEMMs;
//   rs  GEMM + reduce-scatter: each PE computes its partial's row block for peer j (j = my_pe + 1, + 2, ..., its own
//       last) chunk by chunk and puts each chunk to PE j's receive slot with a signal as soon as it is finished; PE j
//       waits for each slot's signal and adds it (fp32) into its output.
// The GEMM is the vendor BLAS (cuBLAS: cublasGemmEx, bf16 in, CUBLAS_COMPUTE_32F, tensor cores), called per row chunk
// on a GEMM stream; a chunk's dependency on its arrival is a one-thread wait kernel (gemm_kernels.hpp) before its
// cuBLAS call on that stream. The puts run in their own kernel on a communication stream; rs's reductions on a third.
// On the host platform the GEMM is a plain reference loop on the calling CPU thread and every figure is a CPU one.
// Each row runs, in one command (gemm_host.hpp): gemm (the GEMM alone), coll (unfused: the library's fcollect /
// reduce_scatter and the GEMM), unfused (the same put kernel, not overlapped), strict and relaxed (fused, the two
// portshmem policies: backend_portshmem.hpp), nvshmem (fused, NVSHMEM calls; builds with PORTSHMEM_NVSHMEM_HOME).
//   scripts/portshmem-run -np N build/workloads/gemm/gemm_workload [flags]     (-h: the flags)
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../common/launch.hpp"
#include "backend_portshmem.hpp"

#include "../common/bits.hpp"
#include "gemm_host.hpp"
#include "gemm_kernels.hpp"
#if WL_WITH_NVSHMEM
#include "nvshmem_side.hpp"
#endif
#if PORTSHMEM_PLATFORM_NVIDIA // (after the library's headers, which define the platform macros)
#include <cublas_v2.h>
#endif

namespace {

using gemm::pattern;
using gemm::variant;
using u16 = std::uint16_t;

void must(hipError_t e, const char* what) {
  workloads::must(e, "gemm_workload", what);
}

/// The most threads a block of kernel f can have.
template <class... A>
unsigned max_block(void (*f)(A...)) {
  return workloads::max_block(f, "gemm_workload");
}

/// `stream` waits for what was recorded in `e` (the host platform runs everything in call order: nothing to do).
void stream_wait(hipStream_t stream, hipEvent_t e) {
#if PORTSHMEM_PLATFORM_NVIDIA
  must(cudaStreamWaitEvent(stream, e, 0), "cudaStreamWaitEvent");
#else
  (void)stream, (void)e;
#endif
}

// ---- the GEMM engine --------------------------------------------------------------------------------------------
/// C (rows x cols, ldc) = A (rows x k, lda) x B (k x cols, ldb), every matrix row-major bf16, fp32 accumulation, on
/// `stream`. NVIDIA: cuBLAS, which is column-major, computes C^T = B^T A^T: the row-major matrices are its
/// column-major transposes, so B goes first and nothing is transposed. Host platform: a reference loop (k in order).
struct engine {
#if PORTSHMEM_PLATFORM_NVIDIA
  cublasHandle_t h{};
  hipStream_t on{};
#endif
  const char* name() const {
#if PORTSHMEM_PLATFORM_NVIDIA
    return "cuBLAS cublasGemmEx (bf16 in and out, CUBLAS_COMPUTE_32F, tensor cores)";
#else
    return "a reference loop on the CPU (host platform: every time is a CPU time, not a GPU figure)";
#endif
  }
  void init() {
#if PORTSHMEM_PLATFORM_NVIDIA
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "gemm_workload: cublasCreate failed\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
#endif
  }
  void finish() {
#if PORTSHMEM_PLATFORM_NVIDIA
    cublasDestroy(h);
#endif
  }
  /// False when the GEMM could not be enqueued.
  bool run(hipStream_t stream, long rows, long cols, long k, const u16* a, long lda, const u16* b, long ldb, u16* c,
           long ldc) {
    if (rows <= 0) return true;
#if PORTSHMEM_PLATFORM_NVIDIA
    if (stream != on) {
      if (cublasSetStream(h, stream) != CUBLAS_STATUS_SUCCESS) return false;
      on = stream;
    }
    const float alpha = 1.0f, beta = 0.0f;
    return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, int(cols), int(rows), int(k), &alpha, b, CUDA_R_16BF, int(ldb), a,
                        CUDA_R_16BF, int(lda), &beta, c, CUDA_R_16BF, int(ldc), CUBLAS_COMPUTE_32F,
                        CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS;
#else
    (void)stream;
    for (long i = 0; i < rows; ++i) {
      for (long j = 0; j < cols; ++j) {
        float acc = 0.0f;
        for (long x = 0; x < k; ++x)
          acc += workloads::f32_of_bf16(a[i * lda + x]) * workloads::f32_of_bf16(b[x * ldb + j]);
        c[i * ldc + j] = workloads::bf16_of_f32(acc);
      }
    }
    return true;
#endif
  }
};

// ---- the reduce-scatter's reduction (plain device code: no communication) -------------------------------------------
/// Adds receive slots into the fp32 accumulator of this PE's output block, over the elements [offset, offset + elems)
/// of the block: acc (= 0 when first, else acc) + the slots of sources me - d for d in [d0, d1), in that order; when
/// own is set, out = bf16(that + own) instead of storing acc (the last step: this PE's own partial, rounded once).
struct reduce_args {
  float* acc;
  const u16* recv; ///< [n sources][slot_elems]
  std::size_t slot_elems, offset, elems;
  int me, n, d0, d1, first;
  const u16* own;
  u16* out;
};

PORTSHMEM_GLOBAL void reduce_kernel(reduce_args r) {
  namespace dev = gemm::dev;
  const std::size_t units = r.elems / 8, step = std::size_t(dev::grid_blocks()) * dev::block_threads();
  for (std::size_t u = std::size_t(dev::block_rank()) * dev::block_threads() + dev::thread_rank(); u < units;
       u += step) {
    const std::size_t e = r.offset + u * 8;
    float v[8], w[8];
    for (int i = 0; i < 8; ++i) v[i] = r.first ? 0.0f : r.acc[e + std::size_t(i)];
    for (int d = r.d0; d < r.d1; ++d) {
      const int src = (r.me - d + r.n) % r.n;
      workloads::unpack(*reinterpret_cast<const workloads::unit16*>(r.recv + std::size_t(src) * r.slot_elems + e), w);
      for (int i = 0; i < 8; ++i) v[i] += w[i];
    }
    if (r.own) {
      workloads::unpack(*reinterpret_cast<const workloads::unit16*>(r.own + e), w);
      for (int i = 0; i < 8; ++i) v[i] += w[i];
      *reinterpret_cast<workloads::unit16*>(r.out + e) = workloads::pack(v);
    } else {
      for (int i = 0; i < 8; ++i) r.acc[e + std::size_t(i)] = v[i];
    }
  }
}

// ---- buffers --------------------------------------------------------------------------------------------------------
/// One library's symmetric buffers and the running totals of its signal words (the same on every PE).
struct side {
  unsigned char* gathered = nullptr; ///< ag: [n shards][rows x K] bf16
  unsigned char* recv = nullptr;     ///< rs: [n sources][rows x N] bf16
  std::uint64_t* words = nullptr;    ///< [2 patterns][n sources][chunks]
  std::uint64_t total[2] = {};       ///< adds each word of a pattern has received so far
};

/// What every variant shares (plain device memory, and portshmem's symmetric output of rs).
struct common {
  u16 *a = nullptr, *b = nullptr; ///< this PE's A and B operands (gemm_host.hpp)
  u16* c = nullptr;               ///< ag: this PE's C (M x N/n)
  u16* part = nullptr;            ///< rs: this PE's partial (M x N)
  float* acc = nullptr;           ///< rs: the accumulator of its output block (M/n x N)
  u16* out = nullptr;             ///< rs: its output block (M/n x N), symmetric (reduce_scatter's dest)
};

} // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv); // first, so that the heap can be sized for the number of PEs
  int me = 0, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  gemm::options o;
  if (PORTSHMEM_PLATFORM_HOST) { // CPU threads and a reference loop: shapes a CI run can afford
    o.m = {64}, o.n = {32}, o.k = {32};
    o.chunks = 2, o.warmup = 1, o.repeats = 2, o.blocks = 2, o.threads = 16;
  }
  const std::string error = gemm::parse(argc, argv, o);
  if (!error.empty()) {
    if (me == 0)
      std::fprintf(stderr, "%s%s%s",
                   error == "help" ? "" : "gemm_workload: ", error == "help" ? "" : (error + "\n").c_str(),
                   gemm::usage());
    MPI_Finalize();
    return error == "help" ? 0 : 2;
  }
#if !WL_WITH_NVSHMEM
  o.run[int(variant::nvshmem)] = false;
#endif
  const std::vector<gemm::shape> shapes = gemm::shapes_of(o, n);

  // Sizes: every buffer for the largest shape that needs it.
  std::size_t gathered_bytes = 16, recv_bytes = 16, out_bytes = 16, a_el = 8, b_el = 8, c_el = 8, part_el = 8;
  int most_chunks = 1;
  for (const gemm::shape& s : shapes) {
    if (!s.why.empty()) continue;
    a_el = std::max(a_el, std::size_t(s.a_rows * s.a_cols));
    b_el = std::max(b_el, std::size_t(s.b_rows * s.b_cols));
    most_chunks = std::max(most_chunks, s.chunks);
    if (s.p == pattern::ag) {
      gathered_bytes = std::max(gathered_bytes, std::size_t(s.M * s.K * 2));
      c_el = std::max(c_el, std::size_t(s.out_rows * s.out_cols));
    } else {
      recv_bytes = std::max(recv_bytes, std::size_t(s.M * s.N * 2));
      out_bytes = std::max(out_bytes, std::size_t(s.out_rows * s.out_cols * 2));
      part_el = std::max(part_el, std::size_t(s.M * s.N));
    }
  }
  const std::size_t words = 2 * std::size_t(n) * std::size_t(most_chunks);
  const std::string heap =
      std::to_string(gathered_bytes + recv_bytes + out_bytes + words * 8 + 4 * 256 + (std::size_t(64) << 20));
  setenv("PORTSHMEM_HEAP_SIZE", heap.c_str(), 0);
  if (portshmem_init() != PORTSHMEM_SUCCESS) return 1;

  side pss;
  common cm;
  portshmem::ctx ctx{};
  portshmem_get_ctx(&ctx);
  pss.gathered = static_cast<unsigned char*>(portshmem_malloc(gathered_bytes));
  pss.recv = static_cast<unsigned char*>(portshmem_malloc(recv_bytes));
  pss.words = static_cast<std::uint64_t*>(portshmem_calloc(words, 8));
  cm.out = static_cast<u16*>(portshmem_malloc(out_bytes));
  if (!pss.gathered || !pss.recv || !pss.words || !cm.out) {
    if (me == 0)
      std::fprintf(stderr, "gemm_workload: no room in the symmetric heap (%s); PORTSHMEM_HEAP_SIZE >= %s\n",
                   portshmem_status_string(portshmem_last_status()), heap.c_str());
    portshmem_finalize();
    MPI_Finalize();
    return 1;
  }
  must(hipMalloc(&cm.a, a_el * 2), "hipMalloc");
  must(hipMalloc(&cm.b, b_el * 2), "hipMalloc");
  must(hipMalloc(&cm.c, c_el * 2), "hipMalloc");
  must(hipMalloc(&cm.part, part_el * 2), "hipMalloc");
  must(hipMalloc(&cm.acc, out_bytes * 2), "hipMalloc");

  // The relaxed policy promises node scope: every peer must be reachable by load/store (no RDMA proxy in between).
  long remote = 0;
  for (int p = 0; p < n; ++p) remote += portshmem_transport(p) == PORTSHMEM_TRANSPORT_RDMA ? 1 : 0;
  if (gemm::sum_over_pes(remote) != 0 && (o.run[int(variant::relaxed)] || o.run[int(variant::unfused)])) {
    if (me == 0)
      std::printf("# relaxed and unfused forms skipped: some PEs are not on one node (their qualifiers use "
                  "mm::node)\n");
    o.run[int(variant::relaxed)] = o.run[int(variant::unfused)] = false;
  }

  // The put kernel's block: the one asked for, or the most both instantiations can launch.
  const unsigned most = std::min(
      {o.threads, max_block(gemm::put_kernel<gemm::strict_policy>), max_block(gemm::put_kernel<gemm::relaxed_policy>)});
  if (most < o.threads && me == 0) std::printf("# threads per block: %u (the most the put kernel can launch)\n", most);
  o.threads = most;
  const unsigned red_threads = PORTSHMEM_PLATFORM_HOST ? 16 : 256;

  engine eng;
  eng.init();
  std::string who = portshmem_version_string();
  side nvs;
#if WL_WITH_NVSHMEM
  if (o.run[int(variant::nvshmem)]) {
    std::string why;
    void *g = nullptr, *r = nullptr;
    const bool up = gemm::nv::init(gathered_bytes, recv_bytes, words, &g, &r, &nvs.words, why);
    nvs.gathered = static_cast<unsigned char*>(g), nvs.recv = static_cast<unsigned char*>(r);
    if (gemm::sum_over_pes(up ? 0 : 1) != 0) {
      if (me == 0) std::printf("# NVSHMEM form skipped: %s\n", why.empty() ? "init failed on a PE" : why.c_str());
      o.run[int(variant::nvshmem)] = false;
    } else {
      who += ", " + gemm::nv::version();
      o.threads = std::min(o.threads, std::max(1u, gemm::nv::max_threads()));
    }
  }
#endif
  std::vector<variant> vs;
  for (int v = 0; v < gemm::kVariants; ++v) {
    if (o.run[v]) vs.push_back(variant(v));
  }
  gemm::report rep(o, n, who, eng.name());
  if (me == 0) rep.header(vs);

  hipStream_t gs{}, cs{}, rs{}; // GEMM, communication and (rs) reduction streams
  must(hipStreamCreateWithFlags(&gs, hipStreamNonBlocking), "hipStreamCreate");
  must(hipStreamCreateWithFlags(&cs, hipStreamNonBlocking), "hipStreamCreate");
  must(hipStreamCreateWithFlags(&rs, hipStreamNonBlocking), "hipStreamCreate");
  hipEvent_t start{}, stop{}, cs_done{}, rs_done{}, own_done{};
  for (hipEvent_t* e : {&start, &stop, &cs_done, &rs_done, &own_done}) must(hipEventCreate(e), "hipEventCreate");
  std::vector<hipEvent_t> step_done(std::size_t(std::max(1, (n - 1) * most_chunks)));
  for (hipEvent_t& e : step_done) must(hipEventCreate(&e), "hipEventCreate");

  bool all_ok = true;
  for (const gemm::shape& s : shapes) {
    if (!s.why.empty()) {
      if (me == 0)
        std::printf("# %s M %ld N %ld K %ld skipped: %s\n", gemm::name_of(s.p), s.M, s.N, s.K, s.why.c_str());
      continue;
    }
    const bool ag = s.p == pattern::ag;
    const int pi = ag ? 0 : 1;
    const std::vector<u16> a = gemm::make_a(s, o.seed, me), b = gemm::make_b(s, o.seed, me);
    must(hipMemcpy(cm.a, a.data(), a.size() * 2, hipMemcpyHostToDevice), "hipMemcpy");
    must(hipMemcpy(cm.b, b.data(), b.size() * 2, hipMemcpyHostToDevice), "hipMemcpy");
    const long R = s.rows, M = s.M, N = s.N, K = s.K, Nl = N / n, Kl = K / n;
    const std::size_t shard_bytes = std::size_t(R * K * 2), block_el = std::size_t(R * N);
    // ag: this PE's own shard sits in its slot of the gathered A of each library (the puts send the other slots).
    auto place_own = [&](side& sd) {
      must(hipMemcpy(sd.gathered + std::size_t(me) * shard_bytes, cm.a, shard_bytes, hipMemcpyDeviceToDevice),
           "hipMemcpy");
    };
    // Each shape starts its signal words from 0 (its chunks may number differently): no PE writes them now, since
    // every PE received all that was sent to it in the last iteration, and a barrier precedes the next one.
    auto prepare = [&](side& sd) {
      if (ag) place_own(sd);
      must(hipMemset(sd.words, 0, words * 8), "hipMemset");
      sd.total[0] = sd.total[1] = 0;
    };
    prepare(pss);
    if (o.run[int(variant::nvshmem)]) prepare(nvs);
    must(hipDeviceSynchronize(), "hipDeviceSynchronize");

    std::vector<gemm::result> row;
    for (const variant v : vs) {
      side& sd = v == variant::nvshmem ? nvs : pss;
      const std::string what = std::string(gemm::name_of(s.p)) + " M " + std::to_string(M) + " N " + std::to_string(N) +
                               " K " + std::to_string(K) + " " + gemm::name_of(v);
      bool ok = true;
      // The communication calls of this variant: the put kernel and the wait kernel on a stream.
      auto put = [&](hipStream_t st, int first, int count) {
        gemm::put_args pa{};
        if (ag) {
          pa.src = reinterpret_cast<const unsigned char*>(cm.a), pa.src_block = 0, pa.dst = sd.gathered;
          pa.row_bytes = std::size_t(K) * 2, pa.toward = -1;
        } else {
          pa.src = reinterpret_cast<const unsigned char*>(cm.part), pa.src_block = block_el * 2, pa.dst = sd.recv;
          pa.row_bytes = std::size_t(N) * 2, pa.toward = +1;
        }
        pa.words = sd.words + std::size_t(pi) * std::size_t(n) * std::size_t(most_chunks);
        pa.rows = int(R), pa.chunks = s.chunks, pa.slices = s.slices;
        pa.first = first, pa.count = count;
        hipError_t e = hipSuccess;
#if WL_WITH_NVSHMEM
        if (v == variant::nvshmem) {
          if (!gemm::nv::put(st, pa, o.blocks, o.threads)) ok = false;
          return;
        }
#endif
        if (v == variant::strict)
          e = portshmem::arch::launch(gemm::put_kernel<gemm::strict_policy>, dim3(o.blocks), dim3(o.threads), 0, st,
                                      gemm::strict_policy{ctx}, pa);
        else
          e = portshmem::arch::launch(gemm::put_kernel<gemm::relaxed_policy>, dim3(o.blocks), dim3(o.threads), 0, st,
                                      gemm::relaxed_policy{ctx}, pa);
        if (e != hipSuccess) ok = false;
      };
      auto wait = [&](hipStream_t st, int src, int c0, int nc) {
        gemm::wait_args w{};
        w.words = sd.words + std::size_t(pi) * std::size_t(n) * std::size_t(most_chunks);
        w.chunks = s.chunks, w.src = src, w.c0 = c0, w.nc = nc, w.target = sd.total[pi];
        hipError_t e = hipSuccess;
#if WL_WITH_NVSHMEM
        if (v == variant::nvshmem) {
          if (!gemm::nv::wait(st, w)) ok = false;
          return;
        }
#endif
        if (v == variant::strict)
          e = portshmem::arch::launch(gemm::wait_kernel<gemm::strict_policy>, dim3(1), dim3(1), 0, st,
                                      gemm::strict_policy{ctx}, w);
        else
          e = portshmem::arch::launch(gemm::wait_kernel<gemm::relaxed_policy>, dim3(1), dim3(1), 0, st,
                                      gemm::relaxed_policy{ctx}, w);
        if (e != hipSuccess) ok = false;
      };
      auto gemm_rows = [&](long r0, long rows) { // the GEMM of output rows [r0, r0 + rows) on the GEMM stream
        const bool fine = ag ? eng.run(gs, rows, Nl, K, reinterpret_cast<const u16*>(sd.gathered) + r0 * K, K, cm.b, Nl,
                                       cm.c + r0 * Nl, Nl)
                             : eng.run(gs, rows, N, Kl, cm.a + r0 * Kl, Kl, cm.b, N, cm.part + r0 * N, N);
        if (!fine) ok = false;
      };
      auto reduce = [&](hipStream_t st, std::size_t offset, std::size_t elems, int d0, int d1, bool first, bool last) {
        reduce_args r{};
        r.acc = cm.acc, r.recv = reinterpret_cast<const u16*>(sd.recv), r.slot_elems = block_el;
        r.offset = offset, r.elems = elems, r.me = me, r.n = n, r.d0 = d0, r.d1 = d1, r.first = first ? 1 : 0;
        r.own = last ? cm.part + std::size_t(me) * block_el : nullptr, r.out = cm.out;
        const std::size_t units = elems / 8;
        const unsigned blocks = PORTSHMEM_PLATFORM_HOST
                                    ? 2
                                    : unsigned(std::min<std::size_t>(1024, (units + red_threads - 1) / red_threads));
        if (portshmem::arch::launch(reduce_kernel, dim3(std::max(1u, blocks)), dim3(red_threads), 0, st, r) !=
            hipSuccess)
          ok = false;
      };
      const bool uses_words =
          v == variant::unfused || v == variant::strict || v == variant::relaxed || v == variant::nvshmem;
      const bool fused = v == variant::strict || v == variant::relaxed || v == variant::nvshmem;
      const int steps = (n - 1) * s.chunks;

      // One iteration, timed on this PE: ms, or < 0 on a failure.
      auto iterate = [&]() -> double {
        if (uses_words) sd.total[pi] += std::uint64_t(s.slices);
        must(hipEventRecord(start, gs), "hipEventRecord");
        stream_wait(cs, start);
        stream_wait(rs, start);
        if (ag) {
          if (v == variant::gemm) {
            gemm_rows(0, M);
          } else if (v == variant::coll) {
            if (portshmem_fcollectmem_on_stream(PORTSHMEM_TEAM_WORLD, sd.gathered, cm.a, shard_bytes, gs) !=
                PORTSHMEM_SUCCESS)
              ok = false;
            gemm_rows(0, M);
          } else if (!fused) { // unfused: every put, every wait, then the whole GEMM
            put(cs, 0, steps);
            wait(gs, -1, 0, s.chunks);
            gemm_rows(0, M);
          } else { // fused: the puts stream out while the GEMM takes the chunks as they arrive
            put(cs, 0, steps);
            gemm_rows(me * R, R);
            for (int d = 1; d < n; ++d) {
              const int src = (me + d) % n;
              for (int c = 0; c < s.chunks; ++c) {
                const long lo = gemm::chunk_lo(int(R), s.chunks, c), hi = gemm::chunk_lo(int(R), s.chunks, c + 1);
                wait(gs, src, c, 1);
                gemm_rows(src * R + lo, hi - lo);
              }
            }
          }
        } else {
          if (v == variant::gemm) {
            gemm_rows(0, M);
          } else if (v == variant::coll) {
            gemm_rows(0, M);
            if (portshmem_reduce_scatter_on_stream(PORTSHMEM_TEAM_WORLD, cm.out, cm.part, block_el,
                                                   PORTSHMEM_DATATYPE_BFLOAT16, PORTSHMEM_REDUCE_SUM,
                                                   gs) != PORTSHMEM_SUCCESS)
              ok = false;
          } else if (!fused) { // unfused: the whole GEMM, every put, every wait, one reduction
            gemm_rows(0, M);
            put(gs, 0, steps);
            wait(gs, -1, 0, s.chunks);
            reduce(gs, 0, block_el, 1, n, true, true);
          } else { // fused: each chunk leaves as soon as its GEMM ends; the reductions take them as they arrive
            for (int st = 0; st < steps; ++st) {
              const int d = 1 + st / s.chunks, c = st % s.chunks, j = (me + d) % n;
              const long lo = gemm::chunk_lo(int(R), s.chunks, c), hi = gemm::chunk_lo(int(R), s.chunks, c + 1);
              gemm_rows(j * R + lo, hi - lo);
              must(hipEventRecord(step_done[std::size_t(st)], gs), "hipEventRecord");
              stream_wait(cs, step_done[std::size_t(st)]);
              put(cs, st, 1);
            }
            gemm_rows(me * R, R);
            must(hipEventRecord(own_done, gs), "hipEventRecord");
            for (int d = 1; d < n; ++d) {
              const int src = (me - d + n) % n;
              for (int c = 0; c < s.chunks; ++c) {
                const long lo = gemm::chunk_lo(int(R), s.chunks, c), hi = gemm::chunk_lo(int(R), s.chunks, c + 1);
                wait(rs, src, c, 1);
                reduce(rs, std::size_t(lo * N), std::size_t((hi - lo) * N), d, d + 1, d == 1, false);
              }
            }
            stream_wait(rs, own_done);
            reduce(rs, 0, block_el, 1, 1, n == 1, true);
          }
        }
        must(hipEventRecord(cs_done, cs), "hipEventRecord");
        must(hipEventRecord(rs_done, rs), "hipEventRecord");
        stream_wait(gs, cs_done);
        stream_wait(gs, rs_done);
        must(hipEventRecord(stop, gs), "hipEventRecord");
        must(hipEventSynchronize(stop), "hipEventSynchronize");
        float ms = 0;
        must(hipEventElapsedTime(&ms, start, stop), "hipEventElapsedTime");
        if (hipDeviceSynchronize() != hipSuccess) {
          std::fprintf(stderr, "FAIL: %s: PE %d: a kernel failed\n", what.c_str(), me);
          return -1.0;
        }
        return double(ms);
      };
      auto barrier = [&] {
#if WL_WITH_NVSHMEM
        if (v == variant::nvshmem) return gemm::nv::barrier();
#endif
        portshmem_barrier_all();
      };
      // The guard before a checked iteration: what the iteration writes (and what a missing put would leave from
      // the variant before) is 0xFF bytes, a NaN in bf16; the own shard goes back into its slot.
      auto guard = [&] {
        if (ag) {
          must(hipMemset(sd.gathered, 0xFF, std::size_t(M * K * 2)), "hipMemset");
          must(hipMemset(cm.c, 0xFF, std::size_t(M * Nl * 2)), "hipMemset");
          must(hipDeviceSynchronize(), "hipDeviceSynchronize");
          place_own(sd);
        } else {
          must(hipMemset(sd.recv, 0xFF, std::size_t(M * N * 2)), "hipMemset");
          must(hipMemset(cm.part, 0xFF, std::size_t(M * N * 2)), "hipMemset");
          must(hipMemset(cm.acc, 0xFF, block_el * 4), "hipMemset");
          must(hipMemset(cm.out, 0xFF, block_el * 2), "hipMemset");
        }
        must(hipDeviceSynchronize(), "hipDeviceSynchronize");
      };

      const bool checked = o.check && v != variant::gemm;
      for (int i = 0; i < o.warmup; ++i) {
        barrier();
        ok = iterate() >= 0 && ok;
      }
      std::vector<double> ms;
      for (int r = 0; r < o.repeats; ++r) {
        if (checked) guard();
        barrier();
        const double t = iterate();
        ok = t >= 0 && ok;
        ms.push_back(gemm::max_over_pes(t));
      }
      if (!ok) std::fprintf(stderr, "FAIL: %s: PE %d: a launch or library call failed\n", what.c_str(), me);
      std::size_t wrong = ok ? 0 : 1;
      if (checked && o.repeats > 0) {
        std::vector<u16> got(std::size_t(s.out_rows * s.out_cols));
        must(hipMemcpy(got.data(), ag ? cm.c : cm.out, got.size() * 2, hipMemcpyDeviceToHost), "hipMemcpy");
        if (o.corrupt && me == 0) got[0] ^= 0x4000; // the exponent's top bit: far outside any tolerance
        wrong += gemm::check_out(s, o.seed, me, PORTSHMEM_PLATFORM_HOST != 0, got, what);
      }
      if (v != variant::nvshmem && portshmem_check_device_errors() != PORTSHMEM_SUCCESS) {
        std::fprintf(stderr, "FAIL: %s: PE %d recorded a device error\n", what.c_str(), me);
        ++wrong;
      }
      gemm::result res;
      res.s = s, res.v = v, res.iters = o.repeats;
      res.ms = gemm::median(ms);
      res.checked = checked || wrong > 0;
      res.ok = gemm::sum_over_pes(long(wrong)) == 0;
      all_ok = all_ok && res.ok;
      row.push_back(res);
    }
    if (me == 0) rep.row(row);
  }
  if (me == 0 && !rep.finish()) all_ok = false;
  if (me == 0 && !all_ok) std::printf("FAIL: some results differ from the reference (stderr has the first)\n");
  for (hipEvent_t e : {start, stop, cs_done, rs_done, own_done}) must(hipEventDestroy(e), "hipEventDestroy");
  for (hipEvent_t e : step_done) must(hipEventDestroy(e), "hipEventDestroy");
  for (hipStream_t st : {gs, cs, rs}) must(hipStreamDestroy(st), "hipStreamDestroy");
  eng.finish();
#if WL_WITH_NVSHMEM
  if (o.run[int(variant::nvshmem)]) gemm::nv::finalize();
#endif
  portshmem_barrier_all();
  for (void* p : {static_cast<void*>(cm.a), static_cast<void*>(cm.b), static_cast<void*>(cm.c),
                  static_cast<void*>(cm.part), static_cast<void*>(cm.acc)})
    must(hipFree(p), "hipFree");
  portshmem_free(cm.out);
  portshmem_free(pss.words);
  portshmem_free(pss.recv);
  portshmem_free(pss.gathered);
  portshmem_finalize();
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
