// ep_workload: the expert-parallel workload (docs/workloads.md). MoE dispatch and combine in the DeepEP shape — T
// tokens per PE of `hidden` bf16, each routed to its top-K of E experts split over the PEs — in a normal (throughput)
// mode and a low-latency mode, written with device puts and signals (ep_kernels.hpp), each run in the same command as:
//   strict    the kernel with OpenSHMEM's default semantics (backend_portshmem.hpp: strict_policy)
//   relaxed   the same kernel with the qualified calls the memory model allows (relaxed_policy)
//   nvshmem   the same kernel with NVSHMEM calls (backend_nvshmem.hpp), builds with PORTSHMEM_NVSHMEM_HOME only
// and prints one row per (mode, tokens) with each variant's time and bandwidth per dispatch and per combine, and the
// relaxed form's ratio to the others. Every row's last round is checked against the CPU reference (ep_host.cpp), bit
// for bit: received copies, their metadata, the signal words' counts and the combined tokens.
//   scripts/portshmem-run -np N build/workloads/ep_workload [flags]     (-h: the flags)
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../common/launch.hpp"
#include "backend_portshmem.hpp"
#include "ep_host.hpp"
#include "ep_kernels.hpp"
#if WL_WITH_NVSHMEM
#include "nvshmem_side.hpp"
#endif

namespace {

using ep::variant;

void must(hipError_t e, const char* what) {
  workloads::must(e, "ep_workload", what);
}

/// The most threads a block of kernel f can have.
template <class... A>
unsigned max_block(void (*f)(A...)) {
  return workloads::max_block(f, "ep_workload");
}

/// One library's buffers: its symmetric block (laid out by ep::layout) and signal words, and the rounds made on each
/// mode's words (the same on every PE; the strict and relaxed forms share portshmem's).
struct side {
  unsigned char* data = nullptr;
  std::uint64_t* words = nullptr;
  std::uint64_t rounds[2] = {};
};

/// Writes the device's wave size (the host numbers the waves, lays out the signal words and checks by it).
PORTSHMEM_GLOBAL void wave_size_kernel(int* out) {
  if (ep::dev::thread_rank() == 0 && ep::dev::block_rank() == 0) *out = int(ep::dev::wave_size());
}

ep::ep_args args_of(const side& s, const ep::layout& l, const ep::options& o, int mode, int tokens, int cap,
                    int* scratch) {
  ep::ep_args a{};
  a.mode = mode, a.tokens = tokens, a.units = o.hidden / 8, a.experts = o.experts, a.topk = o.topk, a.ll_cap = cap;
  a.route_bytes = ep::route_bytes(o.topk);
  unsigned char* d = s.data;
  a.x = d + l.x, a.route = d + l.route, a.out = d + l.out;
  a.n_data = d + l.n_data, a.n_meta = d + l.n_meta, a.n_stage = d + l.n_stage, a.n_back = d + l.n_back;
  a.l_data = d + l.l_data, a.l_meta = reinterpret_cast<int*>(d + l.l_meta), a.l_stage = d + l.l_stage;
  a.l_back = d + l.l_back;
  a.n_dsig = s.words + l.n_dsig, a.n_csig = s.words + l.n_csig, a.l_dsig = s.words + l.l_dsig;
  a.l_csig = s.words + l.l_csig;
  a.scratch = scratch;
  return a;
}

} // namespace

int main(int argc, char** argv) {
  // First, so that the heap can be sized for the number of PEs; with threads, so that the RDMA path's MPI network
  // (PORTSHMEM_TRANSPORT=rdma) can run its proxy thread.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int me = 0, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  ep::options o;
  if (PORTSHMEM_PLATFORM_HOST) { // CPU threads: sizes and counts a CI run can afford
    o.min_tokens = 8, o.max_tokens = 16, o.hidden = 128, o.experts = 16, o.topk = 4;
    o.iters = 3, o.warmup = 1, o.repeats = 2, o.blocks = 2, o.threads = 16;
  }
  const std::string error = ep::parse(argc, argv, o, n);
  if (!error.empty()) {
    if (me == 0)
      std::fprintf(stderr, "%s%s%s",
                   error == "help" ? "" : "ep_workload: ", error == "help" ? "" : (error + "\n").c_str(), ep::usage());
    MPI_Finalize();
    return error == "help" ? 0 : 2;
  }
#if !WL_WITH_NVSHMEM
  o.run[int(variant::nvshmem)] = false;
#endif
  bool normal = false, ll = false;
  for (const int m : o.modes) (m == ep::kNormal ? normal : ll) = true;

  // The sizes of the largest row: the first T tokens of a larger routing route as the smaller one does, so its
  // low-latency capacity bounds every row's.
  const ep::routing largest = ep::make_routing(o, n, o.max_tokens);
  const int most_cap = ll ? ep::ll_capacity_of(o, largest, n) : 1;
  // Signal words for the most waves the grid can have (threads / 1 per block); data for the largest row.
  const int most_waves = int(o.blocks * o.threads);
  const ep::layout big = ep::layout_of(o, n, o.max_tokens, most_cap, most_waves, normal, ll);
  const std::string heap = std::to_string(big.total + big.words * 8 + (std::size_t(64) << 20));
  setenv("PORTSHMEM_HEAP_SIZE", heap.c_str(), 0);
  if (portshmem_init() != PORTSHMEM_SUCCESS) return 1;

  side pss;
  portshmem::ctx c{};
  portshmem_get_ctx(&c);
  pss.data = static_cast<unsigned char*>(portshmem_malloc(big.total));
  pss.words = static_cast<std::uint64_t*>(portshmem_calloc(big.words, 8));
  if (!pss.data || !pss.words) {
    if (me == 0)
      std::fprintf(stderr, "ep_workload: no room in the symmetric heap (%s); PORTSHMEM_HEAP_SIZE >= %s\n",
                   portshmem_status_string(portshmem_last_status()), heap.c_str());
    portshmem_finalize();
    MPI_Finalize();
    return 1;
  }

  // The relaxed form promises node scope: every peer must be reachable by load/store (no RDMA proxy in between).
  long remote = 0;
  for (int p = 0; p < n; ++p) remote += portshmem_transport(p) == PORTSHMEM_TRANSPORT_RDMA ? 1 : 0;
  if (ep::sum_over_pes(remote) != 0 && o.run[int(variant::relaxed)]) {
    if (me == 0) std::printf("# relaxed form skipped: some PEs are not on one node (its qualifiers use mm::node)\n");
    o.run[int(variant::relaxed)] = false;
  }

  // Waves: the device's wave size; whole waves per block, as many threads as every kernel of the run can launch.
  int* probe = nullptr;
  must(hipMalloc(&probe, sizeof(int)), "hipMalloc");
  must(portshmem::launch(wave_size_kernel, dim3(1), dim3(1), probe), "the wave size probe");
  int ws = 0;
  must(hipMemcpy(&ws, probe, sizeof(int), hipMemcpyDeviceToHost), "hipMemcpy");
  must(hipFree(probe), "hipFree");
  unsigned most =
      std::min({o.threads, max_block(ep::ep_kernel<ep::strict_policy>), max_block(ep::ep_kernel<ep::relaxed_policy>)});
#if WL_WITH_NVSHMEM
  if (o.run[int(variant::nvshmem)]) most = std::min(most, std::max(1u, ep::nv::max_threads()));
#endif
  if (most >= unsigned(ws)) most = most / unsigned(ws) * unsigned(ws);
  if (most != o.threads && me == 0)
    std::printf("# threads per block: %u (whole waves these kernels can launch)\n", most);
  o.threads = most;
  const int per_block = int((o.threads + unsigned(ws) - 1) / unsigned(ws)), waves = int(o.blocks) * per_block;
#if PORTSHMEM_PLATFORM_HOST
  // Every block must run at once (the low-latency combine's blocks wait for each other's sends).
  if (o.blocks * o.threads > portshmem::arch::host::kMaxConcurrentThreads) {
    if (me == 0)
      std::fprintf(stderr, "ep_workload: blocks x threads must be at most %u on the host platform\n",
                   portshmem::arch::host::kMaxConcurrentThreads);
    portshmem_finalize();
    MPI_Finalize();
    return 2;
  }
#endif
  int* scratch = nullptr; // the low-latency scan's per-wave lists (this PE's, shared by every variant)
  must(hipMalloc(&scratch, sizeof(int) * std::size_t(waves) * std::size_t(ws)), "hipMalloc");

  std::string who = portshmem_version_string();
  side nvs;
#if WL_WITH_NVSHMEM
  if (o.run[int(variant::nvshmem)]) {
    std::string why;
    void* data = nullptr;
    const bool up = ep::nv::init(big.total, big.words, &data, &nvs.words, why);
    nvs.data = static_cast<unsigned char*>(data);
    if (ep::sum_over_pes(up ? 0 : 1) != 0) {
      if (me == 0) std::printf("# NVSHMEM variant skipped: %s\n", why.empty() ? "init failed on a PE" : why.c_str());
      o.run[int(variant::nvshmem)] = false;
    } else {
      who += ", " + ep::nv::version();
    }
  }
#endif
  std::vector<variant> vs;
  for (int v = 0; v < ep::kVariants; ++v) {
    if (o.run[v]) vs.push_back(variant(v));
  }
  ep::report rep(o, n, waves, who);
  if (me == 0) rep.header(vs);

  std::vector<hipEvent_t> ev(std::size_t(2 * o.iters + 1));
  for (hipEvent_t& e : ev) must(hipEventCreate(&e), "hipEventCreate");
  bool all_ok = true;
  for (const int tokens : ep::tokens_of(o)) {
    const ep::routing rt = ep::make_routing(o, n, tokens);
    const int cap = ll ? ep::ll_capacity_of(o, rt, n) : 1;
    const ep::layout lay = ep::layout_of(o, n, tokens, cap, waves, normal, ll);
    const std::vector<std::uint8_t> x = ep::make_x(o, me, tokens), route = ep::make_route(rt, me);
    for (const variant v : vs) {
      side& s = v == variant::nvshmem ? nvs : pss;
      must(hipMemcpy(s.data + lay.x, x.data(), x.size(), hipMemcpyHostToDevice), "hipMemcpy");
      must(hipMemcpy(s.data + lay.route, route.data(), route.size(), hipMemcpyHostToDevice), "hipMemcpy");
    }
    const std::size_t tb = std::size_t(o.hidden) * 2, rb = ep::route_bytes(o.topk), T = std::size_t(tokens);
    const std::size_t per = std::size_t((o.experts + n - 1) / n);
    for (const int mode : o.modes) {
      const bool nm = mode == ep::kNormal;
      // The regions a round writes and the check reads (guarded with 0xFF bytes before each timed sequence).
      const std::size_t data_at = nm ? lay.n_data : lay.l_data, meta_at = nm ? lay.n_meta : lay.l_meta;
      const std::size_t back_at = nm ? lay.n_back : lay.l_back;
      const std::size_t data_bytes = nm ? std::size_t(n) * T * tb : per * n * std::size_t(cap) * tb;
      const std::size_t meta_bytes = nm ? std::size_t(n) * T * rb : per * n * std::size_t(cap) * 4;
      const std::size_t back_bytes = nm ? T * n * tb : T * std::size_t(o.topk) * tb;
      const std::size_t dsig_at = nm ? lay.n_dsig : lay.l_dsig, csig_at = nm ? lay.n_csig : lay.l_csig;
      const std::size_t dsig_n = nm ? std::size_t(waves) * n : per * n;
      const std::size_t csig_n = nm ? std::size_t(waves) * n : std::size_t(o.experts);
      std::vector<ep::result> row;
      for (const variant v : vs) {
        side& s = v == variant::nvshmem ? nvs : pss;
        const std::string what =
            std::string(ep::mode_name(mode)) + " tokens " + std::to_string(tokens) + " " + ep::name_of(v);
        ep::ep_args a = args_of(s, lay, o, mode, tokens, cap, scratch);
        bool ok = true;
        // One launch of the given phase of round `call`.
        auto launch = [&](int phase, std::uint64_t call) {
          a.phase = phase, a.call = call;
#if WL_WITH_NVSHMEM
          if (v == variant::nvshmem) return ep::nv::launch(a, o.blocks, o.threads);
#endif
          const hipError_t e = v == variant::strict
                                   ? portshmem::launch(ep::ep_kernel<ep::strict_policy>, dim3(o.blocks),
                                                       dim3(o.threads), ep::strict_policy{c}, a)
                                   : portshmem::launch(ep::ep_kernel<ep::relaxed_policy>, dim3(o.blocks),
                                                       dim3(o.threads), ep::relaxed_policy{c}, a);
          return e == hipSuccess;
        };
        auto barrier = [&] {
#if WL_WITH_NVSHMEM
          if (v == variant::nvshmem) return ep::nv::barrier();
#endif
          portshmem_barrier_all();
        };
        barrier();
        for (int i = 0; i < o.warmup; ++i) {
          const std::uint64_t call = ++s.rounds[mode];
          ok = launch(ep::kDispatch, call) && launch(ep::kCombine, call) && ok;
        }
        must(hipDeviceSynchronize(), "the warm-up rounds");
        std::vector<double> d_us, c_us;
        for (int r = 0; r < o.repeats; ++r) {
          // Every PE's kernels have ended (the barrier after its device synchronization): nothing writes these now.
          must(hipMemset(s.data + data_at, 0xFF, data_bytes), "hipMemset");
          must(hipMemset(s.data + meta_at, 0xFF, meta_bytes), "hipMemset");
          must(hipMemset(s.data + back_at, 0xFF, back_bytes), "hipMemset");
          must(hipMemset(s.data + lay.out, 0xFF, T * tb), "hipMemset");
          must(hipDeviceSynchronize(), "hipDeviceSynchronize");
          barrier();
          must(hipEventRecord(ev[0]), "hipEventRecord");
          for (int i = 0; i < o.iters; ++i) {
            const std::uint64_t call = ++s.rounds[mode];
            ok = launch(ep::kDispatch, call) && ok;
            must(hipEventRecord(ev[std::size_t(2 * i + 1)]), "hipEventRecord");
            ok = launch(ep::kCombine, call) && ok;
            must(hipEventRecord(ev[std::size_t(2 * i + 2)]), "hipEventRecord");
          }
          must(hipEventSynchronize(ev.back()), "hipEventSynchronize");
          if (hipDeviceSynchronize() != hipSuccess) ok = false;
          double d = 0, cm = 0;
          for (int i = 0; i < o.iters; ++i) {
            float a_ms = 0, b_ms = 0;
            must(hipEventElapsedTime(&a_ms, ev[std::size_t(2 * i)], ev[std::size_t(2 * i + 1)]), "hipEventElapsedTime");
            must(hipEventElapsedTime(&b_ms, ev[std::size_t(2 * i + 1)], ev[std::size_t(2 * i + 2)]),
                 "hipEventElapsedTime");
            d += a_ms, cm += b_ms;
          }
          d_us.push_back(ep::max_over_pes(d * 1000.0 / o.iters));
          c_us.push_back(ep::max_over_pes(cm * 1000.0 / o.iters));
        }
        if (!ok) std::fprintf(stderr, "FAIL: %s: PE %d: a launch failed\n", what.c_str(), me);
        // The check: what the last round left on this PE.
        ep::readback rb_;
        rb_.data.resize(data_bytes), rb_.meta.resize(meta_bytes), rb_.out.resize(T * tb);
        rb_.dsig.resize(dsig_n), rb_.csig.resize(csig_n);
        must(hipMemcpy(rb_.data.data(), s.data + data_at, data_bytes, hipMemcpyDeviceToHost), "hipMemcpy");
        must(hipMemcpy(rb_.meta.data(), s.data + meta_at, meta_bytes, hipMemcpyDeviceToHost), "hipMemcpy");
        must(hipMemcpy(rb_.out.data(), s.data + lay.out, T * tb, hipMemcpyDeviceToHost), "hipMemcpy");
        must(hipMemcpy(rb_.dsig.data(), s.words + dsig_at, dsig_n * 8, hipMemcpyDeviceToHost), "hipMemcpy");
        must(hipMemcpy(rb_.csig.data(), s.words + csig_at, csig_n * 8, hipMemcpyDeviceToHost), "hipMemcpy");
        if (o.corrupt && me == 0) rb_.out[0] ^= 1;
        std::size_t wrong = ok ? 0 : 1;
        if (o.repeats > 0) {
          wrong += nm ? ep::check_normal(o, rt, me, n, waves, s.rounds[mode], rb_, what)
                      : ep::check_ll(o, rt, me, n, cap, s.rounds[mode], rb_, what);
        }
        if (v != variant::nvshmem && portshmem_check_device_errors() != PORTSHMEM_SUCCESS) {
          std::fprintf(stderr, "FAIL: %s: PE %d recorded a device error\n", what.c_str(), me);
          ++wrong;
        }
        ep::result res;
        res.mode = mode, res.tokens = tokens, res.cap = cap, res.v = v;
        res.copies = ep::copies_per_pe(rt, mode, n);
        res.disp_us = ep::median(d_us), res.comb_us = ep::median(c_us);
        res.checked = true;
        res.ok = ep::sum_over_pes(long(wrong)) == 0;
        all_ok = all_ok && res.ok;
        row.push_back(res);
      }
      if (me == 0) rep.row(row);
    }
  }
  if (me == 0 && !rep.finish()) all_ok = false;
  if (me == 0 && !all_ok) std::printf("FAIL: some results differ from the reference (stderr has the first)\n");
  for (hipEvent_t& e : ev) must(hipEventDestroy(e), "hipEventDestroy");
#if WL_WITH_NVSHMEM
  if (o.run[int(variant::nvshmem)]) ep::nv::finalize();
#endif
  portshmem_barrier_all();
  must(hipFree(scratch), "hipFree");
  portshmem_free(pss.words);
  portshmem_free(pss.data);
  portshmem_finalize();
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
