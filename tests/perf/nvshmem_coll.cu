// The yardstick for coll_bench: the same measurements with NVSHMEM's device collectives, block form, on
// NVSHMEM_TEAM_WORLD — same flags, sizes, data, check and table (coll_bench.hpp), so scripts/coll-bench.sh can put the
// two side by side. Initialized as nvshmem_ref.cu is (MPI communicator, one GPU per node-local rank modulo the GPUs);
// built only when PORTSHMEM_NVSHMEM_HOME names an NVSHMEM 3.x install; needs relocatable device code.
//   portshmem-run -np N ./nvshmem_coll [-b MIN] [-e MAX] [-n ITERS] [-w WARMUP] [-r REPEATS] [-c NAME,...]
//                                      [-d float|bf16] [-t THREADS] [-s]    (-h: what each flag does)
// Environment: NVSHMEM_BOOTSTRAP=MPI, NVSHMEM_BOOTSTRAP_MPI_PLUGIN=<install>/lib/nvshmem_bootstrap_mpi.so.3,
// NVSHMEM_REMOTE_TRANSPORT=none; with several PEs per GPU (MPS), NVSHMEM_IGNORE_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=1 so
// NVSHMEM runs in its full multi-process-per-GPU mode without capping each PE's share of the GPU (coll_bench's PEs
// are not capped either). NVSHMEM_SYMMETRIC_SIZE and NVSHMEM_REDUCE_SCRATCH_SIZE are sized for MAX unless set.
// Calls: nvshmemx_barrier_block, nvshmemx_team_sync_block, nvshmemx_uint32_broadcast_block (root 0: the typed form,
// because NVSHMEM 3.4.5's host/nvshmemx_coll_api.h declares nvshmemx_broadcastmem_block without the root argument),
// nvshmemx_fcollectmem_block, nvshmemx_alltoallmem_block, nvshmemx_{float,bfloat16}_sum_reduce_block and
// nvshmemx_{float,bfloat16}_sum_reducescatter_block. The kernel goes through nvshmemx_collective_launch, which
// NVSHMEM requires for kernels that call its collectives or synchronization (perftest launches its collective tests
// that way too); the timed loop is coll_bench's, team_sync after broadcast (or after every call with -s) included.
// Block size: as coll_bench, 1024 threads (-t) or the most that every kernel of the run can launch, in the header.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include "coll_bench.hpp"

namespace {

using coll::kind;

struct call {
  void* dest;
  const void* src;
  std::size_t arg; // bytes for the *mem forms, elements for the reductions
};

/// `iters` calls of collective K (reductions on T: float or __nv_bfloat16), each followed by a team_sync when
/// sync_each.
template <kind K, class T>
__global__ void bench(call a, int iters, int sync_each) {
  const nvshmem_team_t world = NVSHMEM_TEAM_WORLD;
  for (int i = 0; i < iters; ++i) {
    if constexpr (K == kind::barrier) {
      nvshmemx_barrier_block(world);
    } else if constexpr (K == kind::sync) {
      nvshmemx_team_sync_block(world);
    } else if constexpr (K == kind::broadcast) {
      nvshmemx_uint32_broadcast_block(world, static_cast<std::uint32_t*>(a.dest),
                                      static_cast<const std::uint32_t*>(a.src), a.arg / sizeof(std::uint32_t),
                                      0); // the moved bytes are 32-bit words
    } else if constexpr (K == kind::fcollect) {
      nvshmemx_fcollectmem_block(world, a.dest, a.src, a.arg);
    } else if constexpr (K == kind::alltoall) {
      nvshmemx_alltoallmem_block(world, a.dest, a.src, a.arg);
    } else if constexpr (K == kind::reduce && std::is_same_v<T, float>) {
      nvshmemx_float_sum_reduce_block(world, static_cast<float*>(a.dest), static_cast<const float*>(a.src), a.arg);
    } else if constexpr (K == kind::reduce) {
      nvshmemx_bfloat16_sum_reduce_block(world, static_cast<__nv_bfloat16*>(a.dest),
                                         static_cast<const __nv_bfloat16*>(a.src), a.arg);
    } else if constexpr (std::is_same_v<T, float>) {
      nvshmemx_float_sum_reducescatter_block(world, static_cast<float*>(a.dest), static_cast<const float*>(a.src),
                                             a.arg);
    } else {
      nvshmemx_bfloat16_sum_reducescatter_block(world, static_cast<__nv_bfloat16*>(a.dest),
                                                static_cast<const __nv_bfloat16*>(a.src), a.arg);
    }
    if (sync_each) nvshmemx_team_sync_block(world);
  }
}

/// A runtime call that must succeed: without it the row would mean nothing, so the job ends.
void must(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "nvshmem_coll: %s failed: %s\n", what, cudaGetErrorString(e));
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

/// The most threads a block of f can have (a kernel given more than 64 registers per thread cannot launch 1024).
unsigned max_block(kernel f) {
  cudaFuncAttributes attr{};
  must(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(f)), "cudaFuncGetAttributes");
  return unsigned(attr.maxThreadsPerBlock);
}

/// Launches f through nvshmemx_collective_launch (0 on success).
int launch(kernel f, call a, unsigned threads, int iters, int sync_each) {
  void* args[] = {&a, &iters, &sync_each};
  return nvshmemx_collective_launch(reinterpret_cast<const void*>(f), dim3(1), dim3(threads), args, 0, 0);
}

} // namespace

int main(int argc, char** argv) {
  coll::options o;
  const std::string error = coll::parse(argc, argv, o);
  // Two buffers of the largest size, and room for NVSHMEM's own allocations.
  // Its device reduce_scatter asserts unless NVSHMEM_REDUCE_SCRATCH_SIZE holds about twice the source (seen with
  // NVSHMEM 3.4.5 on an H200: 256 KiB passed and 512 KiB failed with the default), so twice MAX; the heap holds the
  // two buffers, that scratch and room for NVSHMEM's own allocations. Both only unless already set.
  const std::size_t scratch = std::max<std::size_t>(std::size_t(512) << 10, 2 * o.max_bytes);
  setenv("NVSHMEM_REDUCE_SCRATCH_SIZE", std::to_string(scratch).c_str(), 0);
  const std::string heap = std::to_string(2 * o.max_bytes + scratch + (std::size_t(64) << 20));
  setenv("NVSHMEM_SYMMETRIC_SIZE", heap.c_str(), 0);
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int local = 0, devices = 1;
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  if (!error.empty()) {
    if (rank == 0) std::fprintf(stderr, "nvshmem_coll: %s\n%s", error == "help" ? "" : error.c_str(), coll::usage());
    MPI_Finalize();
    return error == "help" ? 0 : 2;
  }
  cudaGetDeviceCount(&devices);
  cudaSetDevice(local % devices); // NVSHMEM needs the context before init
  cudaFree(nullptr);
  MPI_Comm world_comm = MPI_COMM_WORLD;
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  attr.mpi_comm = &world_comm;
  nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr);
  const int me = nvshmem_my_pe(), n = nvshmem_n_pes();
  auto finish = [](int rc) {
    nvshmem_finalize();
    MPI_Finalize();
    return rc;
  };
  if (o.bf16 && n > 32) {
    if (me == 0) std::fprintf(stderr, "nvshmem_coll: bf16 sums are exact only up to 32 PEs (see coll_bench.hpp)\n");
    return finish(2);
  }
  void* dest = nvshmem_malloc(o.max_bytes);
  void* src = nvshmem_malloc(o.max_bytes);
  if (coll::sum_over_pes(dest && src ? 0 : 1) != 0) {
    if (me == 0)
      std::fprintf(stderr, "nvshmem_coll: no room for 2 x %zu bytes (NVSHMEM_SYMMETRIC_SIZE)\n", o.max_bytes);
    return finish(1);
  }
  const std::size_t esize = o.bf16 ? sizeof(__nv_bfloat16) : sizeof(float);
  auto kernel_for = [&](kind k) { return o.bf16 ? kernel_of<__nv_bfloat16>(k) : kernel_of<float>(k); };
  // One block size for every row: the one asked for, or less where a kernel of this run cannot launch that many.
  std::string limits;
  for (const kind k : o.kinds) {
    const unsigned most = max_block(kernel_for(k));
    if (most < o.threads) limits += std::string(" ") + coll::name_of(k) + " " + std::to_string(most);
  }
  for (const kind k : o.kinds) o.threads = std::min(o.threads, max_block(kernel_for(k)));
  cudaEvent_t start, stop;
  must(cudaEventCreate(&start), "cudaEventCreate");
  must(cudaEventCreate(&stop), "cudaEventCreate");

#ifdef NVSHMEM_VENDOR_STRING
  const std::string who = std::string("nvshmem_coll, ") + NVSHMEM_VENDOR_STRING;
#else
  const std::string who = "nvshmem_coll, NVSHMEM";
#endif
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
      if (s.src_bytes) must(cudaMemcpy(src, host_src.data(), s.src_bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
      const call a{dest, src, s.arg};
      auto run = [&](int calls) { return launch(kernel_for(k), a, o.threads, calls, int(synced)); };
      must(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      MPI_Barrier(MPI_COMM_WORLD);
      bool ok = true;
      if (o.warmup > 0) ok = run(std::min(o.warmup, iters)) == 0;
      must(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      std::vector<double> us;
      for (int r = 0; r < o.repeats; ++r) {
        if (s.dest_bytes) must(cudaMemset(dest, coll::kGuard, s.dest_bytes), "cudaMemset");
        must(cudaDeviceSynchronize(),
             "cudaDeviceSynchronize"); // the guard is in place before any peer's call writes here
        MPI_Barrier(MPI_COMM_WORLD);
        must(cudaEventRecord(start), "cudaEventRecord");
        ok = run(iters) == 0 && ok;
        must(cudaEventRecord(stop), "cudaEventRecord");
        must(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float ms = 0;
        must(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        us.push_back(coll::max_over_pes(double(ms) * 1000.0 / iters));
      }
      std::size_t wrong = ok ? 0 : 1;
      if (!ok)
        std::fprintf(stderr, "FAIL: %s size %zu: PE %d could not launch the kernel\n", coll::name_of(k), s.size, me);
      const cudaError_t e = cudaGetLastError();
      if (e != cudaSuccess) {
        std::fprintf(stderr, "FAIL: %s size %zu: PE %d: %s\n", coll::name_of(k), s.size, me, cudaGetErrorString(e));
        ++wrong;
      }
      if (s.dest_bytes) {
        std::vector<std::uint8_t> got(s.dest_bytes);
        must(cudaMemcpy(got.data(), dest, s.dest_bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
        wrong += coll::count_mismatches(k, s, me, got, coll::expected_dest(k, s, me, n, o.bf16));
      }
      const bool row_ok = coll::sum_over_pes(long(wrong)) == 0;
      all_ok = all_ok && row_ok;
      if (me == 0) coll::print_row(k, s, n, o.bf16, iters, coll::median(us), synced, row_ok);
      if (!coll::moves_data(k)) break;
    }
  }
  if (me == 0 && !all_ok) std::printf("FAIL: some results differ from the expected values (stderr has the first)\n");
  must(cudaEventDestroy(start), "cudaEventDestroy");
  must(cudaEventDestroy(stop), "cudaEventDestroy");
  nvshmem_barrier_all();
  nvshmem_free(src);
  nvshmem_free(dest);
  return finish(all_ok ? 0 : 1);
}
