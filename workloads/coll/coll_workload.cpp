// coll_workload: the collective workload (docs/workloads.md). allreduce (sum) and alltoall of fp32 and bf16 buffers,
// written with device puts and signals as one-shot / two-shot kernels (coll_kernels.hpp), each run in the same
// command as:
//   strict        the kernel with OpenSHMEM's default semantics (backend_portshmem.hpp: strict_policy)
//   relaxed       the same kernel with the qualified calls the memory model allows (relaxed_policy)
//   coll          the library's own collective (sum_reduce_block / alltoallmem_block, one block)
//   nvshmem       the same kernel with NVSHMEM calls (backend_nvshmem.hpp), builds with PORTSHMEM_NVSHMEM_HOME only
//   nvshmem_coll  NVSHMEM's own collective (nvshmemx_*_sum_reduce_block / alltoallmem_block), likewise
// and prints one row per (op, type, size) with each variant's time and bandwidth and the relaxed form's ratio to
// each. --check compares every element of every variant's result with the CPU reference (coll_host.cpp).
//   scripts/portshmem-run -np N build/workloads/coll_workload [flags]     (-h: the flags)
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../common/launch.hpp"
#include "backend_portshmem.hpp"
#include "coll_host.hpp"
#include "coll_kernels.hpp"
#if WL_WITH_NVSHMEM
#include "nvshmem_side.hpp"
#endif

namespace {

using wl::dtype;
using wl::op;
using wl::variant;

/// The library's allreduce and alltoall, `iters` calls, one block per PE (a block-form collective is one call of
/// the PE).
template <class T>
PORTSHMEM_GLOBAL void lib_allreduce(portshmem::ctx c, portshmem::team t, void* dest, const void* src, std::size_t count,
                                    int iters) {
  for (int i = 0; i < iters; ++i)
    portshmem::sum_reduce_block(c, t, static_cast<T*>(dest), static_cast<const T*>(src), count);
}
PORTSHMEM_GLOBAL void lib_alltoall(portshmem::ctx c, portshmem::team t, void* dest, const void* src, std::size_t bytes,
                                   int iters) {
  for (int i = 0; i < iters; ++i) portshmem::alltoallmem_block(c, t, dest, src, bytes);
}

void must(hipError_t e, const char* what) {
  workloads::must(e, "coll_workload", what);
}

/// The most threads a block of kernel f can have.
template <class... A>
unsigned max_block(void (*f)(A...)) {
  return workloads::max_block(f, "coll_workload");
}

/// The portshmem side: buffers, signal counts and the launches of the strict, relaxed and coll variants.
struct pshm_side {
  portshmem::ctx c{};
  portshmem::team team{};
  void *src = nullptr, *dest = nullptr, *one = nullptr, *two = nullptr;
  std::uint64_t* sig = nullptr;
  int* not_me = nullptr;
  std::size_t one_slot = 0, two_slot = 0;
  std::uint64_t calls[wl::kSigSets] = {};
  unsigned blocks = 0, threads = 0;

  wl::coll_args args(const wl::shape& s, op k, int iters) const {
    wl::coll_args a{};
    a.src = src, a.dest = dest, a.one = one, a.two = two, a.sig = sig;
    a.bytes = s.bytes, a.one_slot = one_slot, a.two_slot = two_slot;
    a.iters = iters, a.algo = s.algo;
    a.epoch = k == op::alltoall ? calls[wl::kSigA2a] : s.algo == wl::kOneShot ? calls[wl::kSigOne] : calls[wl::kSigRs];
    return a;
  }
  void count(const wl::shape& s, op k, int iters) {
    if (k == op::alltoall)
      calls[wl::kSigA2a] += std::uint64_t(iters);
    else if (s.algo == wl::kOneShot)
      calls[wl::kSigOne] += std::uint64_t(iters);
    else
      calls[wl::kSigRs] += std::uint64_t(iters), calls[wl::kSigAg] += std::uint64_t(iters);
  }

  template <class Policy>
  hipError_t workload(const Policy& pol, op k, dtype t, const wl::shape& s, int iters) {
    const wl::coll_args a = args(s, k, iters);
    hipError_t e;
    if (k == op::alltoall)
      e = portshmem::launch(wl::alltoall_kernel<Policy>, dim3(blocks), dim3(threads), pol, a);
    else if (t == dtype::f32)
      e = portshmem::launch(wl::allreduce_kernel<Policy, wl::f32>, dim3(blocks), dim3(threads), pol, a);
    else
      e = portshmem::launch(wl::allreduce_kernel<Policy, wl::bf16>, dim3(blocks), dim3(threads), pol, a);
    count(s, k, iters);
    return e;
  }

  hipError_t launch(variant v, op k, dtype t, const wl::shape& s, int iters) {
    if (v == variant::strict) return workload(wl::strict_policy{c, not_me}, k, t, s, iters);
    if (v == variant::relaxed) return workload(wl::relaxed_policy{c, not_me}, k, t, s, iters);
    if (k == op::alltoall)
      return portshmem::launch(lib_alltoall, dim3(1), dim3(threads), c, team, dest, static_cast<const void*>(src),
                               s.bytes, iters);
    if (t == dtype::f32)
      return portshmem::launch(lib_allreduce<float>, dim3(1), dim3(threads), c, team, dest,
                               static_cast<const void*>(src), s.count, iters);
    return portshmem::launch(lib_allreduce<portshmem::bfloat16_t>, dim3(1), dim3(threads), c, team, dest,
                             static_cast<const void*>(src), s.count, iters);
  }
};

bool is_nvshmem(variant v) {
  return v == variant::nvshmem || v == variant::nvshmem_coll;
}

} // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv); // first, so that the heap can be sized for the number of PEs
  int me = 0, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  wl::options o;
  if (PORTSHMEM_PLATFORM_HOST) { // CPU threads: sizes and counts a CI run can afford
    o.max_bytes = std::size_t(256) << 10;
    o.iters = 5, o.warmup = 1, o.repeats = 2, o.blocks = 2, o.threads = 16;
  }
  const std::string error = wl::parse(argc, argv, o);
  if (!error.empty()) {
    if (me == 0)
      std::fprintf(stderr, "%s%s%s",
                   error == "help" ? "" : "coll_workload: ", error == "help" ? "" : (error + "\n").c_str(),
                   wl::usage());
    MPI_Finalize();
    return error == "help" ? 0 : 2;
  }
#if !WL_WITH_NVSHMEM
  o.run[int(variant::nvshmem)] = o.run[int(variant::nvshmem_coll)] = false;
#endif
  bool any_allreduce = false;
  for (const op k : o.ops) any_allreduce = any_allreduce || k == op::allreduce;
  const std::size_t buf = o.max_bytes / 16 * 16;
  const std::size_t one_slot = !any_allreduce || o.algo == wl::kTwoShot ? 16
                               : o.algo == wl::kOneShot
                                   ? buf
                                   : std::max<std::size_t>(16, std::min(o.crossover, buf) / 16 * 16);
  const std::size_t two_slot = !any_allreduce || o.algo == wl::kOneShot ? 16 : wl::two_shot_slot(buf, n);
  const std::size_t one_bytes = 2 * std::size_t(n) * one_slot, two_bytes = std::size_t(n) * two_slot;
  const std::size_t sig_bytes = std::size_t(wl::kSigSets) * o.blocks * std::size_t(n) * sizeof(std::uint64_t);
  const std::string heap = std::to_string(2 * buf + one_bytes + two_bytes + sig_bytes + (std::size_t(64) << 20));
  setenv("PORTSHMEM_HEAP_SIZE", heap.c_str(), 0);
  if (portshmem_init() != PORTSHMEM_SUCCESS) return 1;

  pshm_side ps;
  ps.blocks = o.blocks, ps.one_slot = one_slot, ps.two_slot = two_slot;
  portshmem_get_ctx(&ps.c);
  if (portshmem_team_get_handle(PORTSHMEM_TEAM_WORLD, &ps.team) != PORTSHMEM_SUCCESS) return 1;
  ps.src = portshmem_malloc(buf);
  ps.dest = portshmem_malloc(buf);
  ps.one = portshmem_malloc(one_bytes);
  ps.two = portshmem_malloc(two_bytes);
  ps.sig = static_cast<std::uint64_t*>(portshmem_calloc(sig_bytes / 8, 8));
  if (!ps.src || !ps.dest || !ps.one || !ps.two || !ps.sig) {
    if (me == 0)
      std::fprintf(stderr, "coll_workload: no room in the symmetric heap (%s); PORTSHMEM_HEAP_SIZE >= %s\n",
                   portshmem_status_string(portshmem_last_status()), heap.c_str());
    portshmem_finalize();
    MPI_Finalize();
    return 1;
  }
  std::vector<int> status(std::size_t(n), 0);
  status[std::size_t(me)] = 1;
  must(hipMalloc(&ps.not_me, sizeof(int) * std::size_t(n)), "hipMalloc");
  must(hipMemcpy(ps.not_me, status.data(), sizeof(int) * std::size_t(n), hipMemcpyHostToDevice), "hipMemcpy");

  // The relaxed form promises node scope: every peer must be reachable by load/store (no RDMA proxy in between).
  long remote = 0;
  for (int p = 0; p < n; ++p) remote += portshmem_transport(p) == PORTSHMEM_TRANSPORT_RDMA ? 1 : 0;
  const bool one_node = wl::sum_over_pes(remote) == 0;
  if (!one_node && o.run[int(variant::relaxed)]) {
    if (me == 0) std::printf("# relaxed form skipped: some PEs are not on one node (its qualifiers use mm::node)\n");
    o.run[int(variant::relaxed)] = false;
  }

  // One block size for every kernel: the one asked for, or the most every kernel of the run can launch.
  unsigned most = o.threads;
  most = std::min({most, max_block(wl::allreduce_kernel<wl::strict_policy, wl::f32>),
                   max_block(wl::allreduce_kernel<wl::relaxed_policy, wl::bf16>),
                   max_block(wl::alltoall_kernel<wl::relaxed_policy>), max_block(lib_allreduce<float>),
                   max_block(lib_allreduce<portshmem::bfloat16_t>), max_block(lib_alltoall)});
  if (most < o.threads && me == 0) std::printf("# threads per block: %u (the most these kernels can launch)\n", most);
  o.threads = ps.threads = most;

  std::string who = portshmem_version_string();
#if WL_WITH_NVSHMEM
  if (o.run[int(variant::nvshmem)] || o.run[int(variant::nvshmem_coll)]) {
    std::string why;
    const bool up = wl::nv::init(buf, one_bytes, two_bytes, o.blocks, why);
    if (wl::sum_over_pes(up ? 0 : 1) != 0) {
      if (me == 0) std::printf("# NVSHMEM variants skipped: %s\n", why.empty() ? "init failed on a PE" : why.c_str());
      o.run[int(variant::nvshmem)] = o.run[int(variant::nvshmem_coll)] = false;
    } else {
      who += ", " + wl::nv::version();
    }
  }
  std::uint64_t nv_calls[wl::kSigSets] = {};
#endif
  std::vector<variant> vs;
  for (int v = 0; v < wl::kVariants; ++v) {
    if (o.run[v]) vs.push_back(variant(v));
  }
  wl::report rep(o, n, who);
  if (me == 0) rep.header(vs);

  hipEvent_t start, stop;
  must(hipEventCreate(&start), "hipEventCreate");
  must(hipEventCreate(&stop), "hipEventCreate");
  bool all_ok = true;
  for (const op k : o.ops) {
    for (const dtype t : o.types) {
      for (const std::size_t sweep : wl::sizes_of(o)) {
        const wl::shape s = wl::shape_of(o, k, t, sweep, n);
        if (s.size == 0) continue;
        const int iters = wl::iters_for(o, s.size);
        const std::vector<std::uint8_t> host_src = wl::make_src(k, t, s, me, n);
        must(hipMemcpy(ps.src, host_src.data(), host_src.size(), hipMemcpyHostToDevice), "hipMemcpy");
#if WL_WITH_NVSHMEM
        if (o.run[int(variant::nvshmem)] || o.run[int(variant::nvshmem_coll)]) {
          if (!wl::nv::upload(host_src.data(), host_src.size())) MPI_Abort(MPI_COMM_WORLD, 1);
        }
#endif
        std::vector<wl::result> row;
        for (const variant v : vs) {
          const std::string what = std::string(wl::name_of(k)) + " " + wl::name_of(t) + " size " +
                                   std::to_string(s.size) + " " + wl::name_of(v);
          bool ok = true;
          std::vector<double> us;
          // One launch of `calls` calls, timed: its time in ms (< 0 on a failure).
          auto run = [&](int calls) -> double {
#if WL_WITH_NVSHMEM
            if (is_nvshmem(v)) {
              const std::uint64_t epoch = k == op::alltoall        ? nv_calls[wl::kSigA2a]
                                          : s.algo == wl::kOneShot ? nv_calls[wl::kSigOne]
                                                                   : nv_calls[wl::kSigRs];
              const double ms = wl::nv::launch(v, k, t, s, calls, one_slot, two_slot, o.blocks, o.threads, epoch);
              if (v == variant::nvshmem) {
                if (k == op::alltoall)
                  nv_calls[wl::kSigA2a] += std::uint64_t(calls);
                else if (s.algo == wl::kOneShot)
                  nv_calls[wl::kSigOne] += std::uint64_t(calls);
                else
                  nv_calls[wl::kSigRs] += std::uint64_t(calls), nv_calls[wl::kSigAg] += std::uint64_t(calls);
              }
              return ms;
            }
#endif
            must(hipEventRecord(start), "hipEventRecord");
            const hipError_t e = ps.launch(v, k, t, s, calls);
            must(hipEventRecord(stop), "hipEventRecord");
            must(hipEventSynchronize(stop), "hipEventSynchronize");
            float ms = 0;
            must(hipEventElapsedTime(&ms, start, stop), "hipEventElapsedTime");
            if (e != hipSuccess || hipDeviceSynchronize() != hipSuccess) {
              std::fprintf(stderr, "FAIL: %s: PE %d: the launch failed\n", what.c_str(), me);
              return -1.0;
            }
            return double(ms);
          };
          auto barrier = [&] {
#if WL_WITH_NVSHMEM
            if (is_nvshmem(v)) return wl::nv::barrier();
#endif
            portshmem_barrier_all();
          };
          barrier();
          if (o.warmup > 0) ok = run(o.warmup) >= 0 && ok;
          for (int r = 0; r < o.repeats; ++r) {
            if (o.check) { // every element is the guard (NaN) before the launch, so one never written fails
#if WL_WITH_NVSHMEM
              if (is_nvshmem(v))
                ok = wl::nv::guard(s.size) && ok;
              else
#endif
              {
                must(hipMemset(ps.dest, 0xFF, s.size), "hipMemset");
                must(hipDeviceSynchronize(), "hipDeviceSynchronize");
              }
            }
            barrier();
            const double ms = run(iters);
            ok = ms >= 0 && ok;
            us.push_back(wl::max_over_pes(ms * 1000.0 / iters));
          }
          std::size_t wrong = ok ? 0 : 1;
          if (o.check) {
            std::vector<std::uint8_t> got(s.size);
#if WL_WITH_NVSHMEM
            if (is_nvshmem(v))
              ok = wl::nv::download(got.data(), s.size) && ok;
            else
#endif
              must(hipMemcpy(got.data(), ps.dest, s.size, hipMemcpyDeviceToHost), "hipMemcpy");
            wrong += wl::check_dest(k, t, s, me, n, got, what);
          }
          if (!is_nvshmem(v) && portshmem_check_device_errors() != PORTSHMEM_SUCCESS) {
            std::fprintf(stderr, "FAIL: %s: PE %d recorded a device error\n", what.c_str(), me);
            ++wrong;
          }
          wl::result res{k, t, s, v};
          res.iters = iters;
          res.us = wl::median(us);
          res.checked = o.check || wrong > 0;
          res.ok = wl::sum_over_pes(long(wrong)) == 0;
          all_ok = all_ok && res.ok;
          row.push_back(res);
        }
        if (me == 0) rep.row(row);
      }
    }
  }
  if (me == 0 && !rep.finish()) all_ok = false;
  if (me == 0 && !all_ok) std::printf("FAIL: some results differ from the reference (stderr has the first)\n");
  must(hipEventDestroy(start), "hipEventDestroy");
  must(hipEventDestroy(stop), "hipEventDestroy");
#if WL_WITH_NVSHMEM
  if (o.run[int(variant::nvshmem)] || o.run[int(variant::nvshmem_coll)]) wl::nv::finalize();
#endif
  portshmem_barrier_all();
  must(hipFree(ps.not_me), "hipFree");
  portshmem_free(ps.sig);
  portshmem_free(ps.two);
  portshmem_free(ps.one);
  portshmem_free(ps.dest);
  portshmem_free(ps.src);
  portshmem_finalize();
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
