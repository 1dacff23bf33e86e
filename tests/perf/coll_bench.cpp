// Collective latency and bandwidth: barrier, team_sync, broadcast, fcollect, alltoall, sum reduce and sum
// reduce_scatter (float, or bf16 with -d bf16) of collectives.hpp, block form, on the world team, for sizes from
// 8 B to 256 MiB (host platform: to 64 KiB). nvshmem_coll.cu is the same program written with NVSHMEM, and
// scripts/coll-bench.sh runs both and prints them side by side.
//   portshmem-run -np N ./coll_bench [-b MIN] [-e MAX] [-n ITERS] [-w WARMUP] [-r REPEATS] [-c NAME,...]
//                                    [-d float|bf16] [-t THREADS] [-s]    (-h: what each flag does)
// Grid: one block per PE. A collective is one call per PE, and a block-form call is made by every thread of one block:
// a second block would be a second, overlapping call on the team. 1024 threads (the most a block has) give that one
// call the most copy throughput, where every kernel of the run can launch that many (registers); else the most they
// can, the same for every row (the header says how many). On the host platform a block is CPU threads, so 16 there.
// Sizes: size_B is the size NVSHMEM's perftest prints as size(B) for the same collective: broadcast and reduce: bytes
// of each PE's src (and dest); fcollect: each PE's dest (n blocks of size_B/n, one from each PE); alltoall: each PE's
// src and dest (n blocks, one per peer); reduce_scatter: each PE's src (n blocks; each PE's dest gets one). Data
// movers move 32-bit words, so the n-scaled sizes round down to whole words per PE (a size that gives none is
// skipped); barrier and sync have one row, size 0.
// Time: each timed launch runs ITERS back-to-back calls (fewer above 1 MiB) in one kernel, timed with events on every
// PE; a row's time_us is the median over the launches of the slowest PE's time per call. algbw = size_B / time_us
// (GB/s = 1e9 B/s) and busbw = algbw x perftest's factor, as perftest computes them.
// Syncs in the timed loop: broadcast's has a team_sync after every call (sync=yes in the row): the collectives'
// contract wants every dest ready before a call, and a broadcast root never waits, so without the sync it would run
// ahead and overwrite the slices members still forward out of their dest (64 KiB and up). Read it against the sync
// row. fcollect, alltoall, reduce and reduce_scatter run back to back without one: every round waits for every
// member, the only dest bytes they read back (reduce's own reduced slice, which it forwards) no other member writes,
// their scratch alternates halves (docs/api.md, "Collectives"), and every call writes the same values; -s adds the
// sync to all of them.
// Check: every dest is filled with a guard byte before each timed launch; after the last one every PE compares its
// whole dest with the expected values. A mismatch prints FAIL (row and stderr) and the program exits 1.
// The heap is sized for two buffers of MAX (PORTSHMEM_HEAP_SIZE, unless already set); reductions chunk through the
// team's scratch (PORTSHMEM_TEAM_SCRATCH, default 512K), which is part of what they cost.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <portshmem/portshmem.hpp>

#include "coll_bench.hpp"

namespace {

using coll::kind;

/// One call's operands.
struct call {
  portshmem::ctx c;
  portshmem::team t;
  void* dest;
  const void* src;
  std::size_t arg; // bytes for the *mem forms, elements for the reductions
};

/// `iters` calls of collective K (reductions on T), each followed by a team_sync when sync_each.
template <kind K, class T>
PORTSHMEM_GLOBAL void bench(call a, int iters, int sync_each) {
  for (int i = 0; i < iters; ++i) {
    if constexpr (K == kind::barrier) {
      portshmem::barrier_block(a.c, a.t);
    } else if constexpr (K == kind::sync) {
      portshmem::team_sync_block(a.c, a.t);
    } else if constexpr (K == kind::broadcast) {
      portshmem::broadcastmem_block(a.c, a.t, a.dest, a.src, a.arg, 0);
    } else if constexpr (K == kind::fcollect) {
      portshmem::fcollectmem_block(a.c, a.t, a.dest, a.src, a.arg);
    } else if constexpr (K == kind::alltoall) {
      portshmem::alltoallmem_block(a.c, a.t, a.dest, a.src, a.arg);
    } else if constexpr (K == kind::reduce) {
      portshmem::sum_reduce_block(a.c, a.t, static_cast<T*>(a.dest), static_cast<const T*>(a.src), a.arg);
    } else {
      portshmem::sum_reduce_scatter_block(a.c, a.t, static_cast<T*>(a.dest), static_cast<const T*>(a.src), a.arg);
    }
    if (sync_each) portshmem::team_sync_block(a.c, a.t);
  }
}

/// A runtime call that must succeed: without it the row would mean nothing, so the job ends.
void must(hipError_t e, const char* what) {
  if (e == hipSuccess) return;
  std::fprintf(stderr, "coll_bench: %s failed: %s\n", what, hipGetErrorString(e));
  MPI_Abort(MPI_COMM_WORLD, 1);
}

using kernel = void (*)(call, int, int);

/// The kernel of collective k; T is the reductions' element type (the others take float, so that each of their
/// kernels is compiled once).
template <class T>
kernel kernel_of(kind k) {
  switch (k) {
  case kind::barrier:
    return bench<kind::barrier, float>;
  case kind::sync:
    return bench<kind::sync, float>;
  case kind::broadcast:
    return bench<kind::broadcast, float>;
  case kind::fcollect:
    return bench<kind::fcollect, float>;
  case kind::alltoall:
    return bench<kind::alltoall, float>;
  case kind::reduce:
    return bench<kind::reduce, T>;
  case kind::reduce_scatter:
    break;
  }
  return bench<kind::reduce_scatter, T>;
}

/// The most threads a block of f can have (registers decide it on GPUs: a kernel the compiler gives more than 64
/// registers per thread cannot launch 1024 of them).
unsigned max_block(kernel f) {
#if PORTSHMEM_PLATFORM_NVIDIA
  cudaFuncAttributes attr{};
  must(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(f)), "cudaFuncGetAttributes");
  return unsigned(attr.maxThreadsPerBlock);
#elif PORTSHMEM_PLATFORM_AMD
  hipFuncAttributes attr{};
  must(hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(f)), "hipFuncGetAttributes");
  return unsigned(attr.maxThreadsPerBlock);
#else
  (void)f;
  return 1024; // CPU threads: no register file to share
#endif
}

} // namespace

int main(int argc, char** argv) {
  coll::options o;
  if (PORTSHMEM_PLATFORM_HOST) { // CPU threads: small enough to smoke-run in CI
    o.max_bytes = std::size_t(64) << 10;
    o.iters = 10, o.warmup = 2, o.repeats = 3, o.threads = 16;
  }
  const std::string error = coll::parse(argc, argv, o);
  // Two buffers of the largest size, and room for the runtime's own allocations.
  const std::string heap = std::to_string(2 * o.max_bytes + (std::size_t(64) << 20));
  setenv("PORTSHMEM_HEAP_SIZE", heap.c_str(), 0);
  if (portshmem_init() != PORTSHMEM_SUCCESS) return 1;
  const int me = portshmem_my_pe(), n = portshmem_n_pes();
  auto finish = [](int rc) {
    portshmem_finalize();
    return rc;
  };
  if (!error.empty()) {
    if (me == 0) std::fprintf(stderr, "coll_bench: %s\n%s", error == "help" ? "" : error.c_str(), coll::usage());
    return finish(error == "help" ? 0 : 2);
  }
  if (o.bf16 && n > 32) {
    if (me == 0) std::fprintf(stderr, "coll_bench: bf16 sums are exact only up to 32 PEs (see coll_bench.hpp)\n");
    return finish(2);
  }

  portshmem::ctx c;
  portshmem::team t{};
  portshmem_get_ctx(&c);
  if (portshmem_team_get_handle(PORTSHMEM_TEAM_WORLD, &t) != PORTSHMEM_SUCCESS) return finish(1);
  void* dest = portshmem_malloc(o.max_bytes); // collective: fails on every PE or on none
  void* src = portshmem_malloc(o.max_bytes);
  if (!dest || !src) {
    if (me == 0) {
      std::fprintf(stderr, "coll_bench: no room for 2 x %zu bytes (%s); PORTSHMEM_HEAP_SIZE >= %s\n", o.max_bytes,
                   portshmem_status_string(portshmem_last_status()), heap.c_str());
    }
    return finish(1);
  }
  const std::size_t esize = o.bf16 ? sizeof(portshmem::bfloat16_t) : sizeof(float);
  auto kernel_for = [&](kind k) { return o.bf16 ? kernel_of<portshmem::bfloat16_t>(k) : kernel_of<float>(k); };
  // One block size for every row: the one asked for, or less where a kernel of this run cannot launch that many.
  std::string limits;
  for (const kind k : o.kinds) {
    const unsigned most = max_block(kernel_for(k));
    if (most < o.threads) limits += std::string(" ") + coll::name_of(k) + " " + std::to_string(most);
  }
  for (const kind k : o.kinds) o.threads = std::min(o.threads, max_block(kernel_for(k)));
  hipEvent_t start, stop;
  must(hipEventCreate(&start), "hipEventCreate");
  must(hipEventCreate(&stop), "hipEventCreate");

  const std::string who = std::string("coll_bench, ") + portshmem_version_string();
  if (me == 0) coll::print_header(who.c_str(), n, o, limits);
  bool all_ok = true;
  for (const kind k : o.kinds) {
    const bool synced = coll::moves_data(k) && (o.sync_every || k == kind::broadcast);
    const std::size_t first = coll::moves_data(k) ? o.min_bytes : 0, last = coll::moves_data(k) ? o.max_bytes : 0;
    for (std::size_t bytes = first; bytes <= last; bytes = bytes ? bytes * 2 : 1) {
      const coll::shape s = coll::shape_of(k, bytes, n, esize);
      if (coll::moves_data(k) && s.block == 0) continue; // fewer bytes than one element per PE
      const int iters = coll::iters_for(o, s.size);
      const std::vector<std::uint8_t> host_src = coll::make_src(k, s, me, n, o.bf16);
      if (s.src_bytes) must(hipMemcpy(src, host_src.data(), s.src_bytes, hipMemcpyHostToDevice), "hipMemcpy");
      const call a{c, t, dest, src, s.arg};
      auto run = [&](int calls) {
        return portshmem::launch(kernel_for(k), dim3(1), dim3(o.threads), a, calls, int(synced));
      };
      must(hipDeviceSynchronize(), "hipDeviceSynchronize");
      portshmem_barrier_all();
      bool ok = true;
      if (o.warmup > 0) ok = run(std::min(o.warmup, iters)) == hipSuccess;
      must(hipDeviceSynchronize(), "hipDeviceSynchronize");
      std::vector<double> us;
      for (int r = 0; r < o.repeats; ++r) {
        if (s.dest_bytes) must(hipMemset(dest, coll::kGuard, s.dest_bytes), "hipMemset");
        must(hipDeviceSynchronize(),
             "hipDeviceSynchronize"); // the guard is in place before any peer's call writes here
        portshmem_barrier_all();
        must(hipEventRecord(start), "hipEventRecord");
        ok = run(iters) == hipSuccess && ok;
        must(hipEventRecord(stop), "hipEventRecord");
        must(hipEventSynchronize(stop), "hipEventSynchronize");
        float ms = 0;
        must(hipEventElapsedTime(&ms, start, stop), "hipEventElapsedTime");
        us.push_back(coll::max_over_pes(double(ms) * 1000.0 / iters));
      }
      std::size_t wrong = ok ? 0 : 1;
      if (s.dest_bytes) {
        std::vector<std::uint8_t> got(s.dest_bytes);
        must(hipMemcpy(got.data(), dest, s.dest_bytes, hipMemcpyDeviceToHost), "hipMemcpy");
        wrong += coll::count_mismatches(k, s, me, got, coll::expected_dest(k, s, me, n, o.bf16));
      }
      if (portshmem_check_device_errors() != PORTSHMEM_SUCCESS) {
        std::fprintf(stderr, "FAIL: %s size %zu: PE %d recorded a device error\n", coll::name_of(k), s.size, me);
        ++wrong;
      }
      const bool row_ok = coll::sum_over_pes(long(wrong)) == 0;
      all_ok = all_ok && row_ok;
      if (me == 0) coll::print_row(k, s, n, o.bf16, iters, coll::median(us), synced, row_ok);
      if (!coll::moves_data(k)) break;
    }
  }
  if (me == 0 && !all_ok) std::printf("FAIL: some results differ from the expected values (stderr has the first)\n");
  must(hipEventDestroy(start), "hipEventDestroy");
  must(hipEventDestroy(stop), "hipEventDestroy");
  portshmem_barrier_all();
  portshmem_free(src);
  portshmem_free(dest);
  return finish(all_ok ? 0 : 1);
}
