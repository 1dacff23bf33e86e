// portshmem-litmus: runs litmus tests (tests/litmus/*.litmus) on the machine through the real device API and checks
// every observed outcome against the executable model (model/). Launched with scripts/portshmem-run -np N; every PE
// runs the same sequence of collective steps, PE 0 classifies and prints. See README.md beside this file.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "encode.hpp"
#include "options.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "portshmem/portshmem.h"
#include "program.hpp"
#include "tally.hpp"

namespace litmus_runner {
namespace {

/// Everything a test run needs to know about the job and the options, resolved per platform.
struct Job {
  int me = 0, np = 1;
  portshmem_ctx_t ctx{};
  std::vector<RealPlace> places;
  std::vector<std::vector<char>> load_store; // [a][b]: PE a reaches PE b by loads and stores (not the RDMA proxy)
  std::string platform;
  Options o;
  std::uint64_t iterations = 0;
  std::uint32_t batch = 0, threads = 0, block = 0, delay = 0;
  std::uint32_t stress_idle = 0, stress_busy = 0, sync_ns = 0;
  static constexpr std::uint64_t kStressWords = 1u << 14;
};

bool check(hipError_t e, const char* what) {
  if (e == hipSuccess) return true;
  std::fprintf(stderr, "portshmem-litmus: %s failed: %s\n", what, hipGetErrorString(e));
  return false;
}

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Device memory of one test run: the symmetric buffer (locations, rendezvous counters, done counter, stress area)
/// and this PE's private buffers.
struct Buffers {
  std::int64_t* sym = nullptr;
  std::int64_t* heap = nullptr;
  std::uint64_t* rendezvous = nullptr;
  std::uint64_t* done = nullptr;
  std::uint64_t* stress = nullptr;
  std::int64_t* regs = nullptr;
  std::int32_t* stuck = nullptr;
  std::uint32_t* perm = nullptr;
  DevOp* ops = nullptr;
  bool ok = false;

  Buffers(const Layout& l, int nsyms, std::uint32_t nregs, std::size_t nops) {
    const std::uint64_t heap_words = l.words(nsyms);
    const std::uint64_t words = heap_words + 2 * l.capacity + 32 + Job::kStressWords;
    sym = static_cast<std::int64_t*>(portshmem_malloc(words * sizeof(std::int64_t))); // collective
    ok = sym != nullptr;
    if (!ok) return;
    heap = sym;
    rendezvous = reinterpret_cast<std::uint64_t*>(sym + heap_words);
    done = rendezvous + 2 * l.capacity;
    stress = done + 32;
    ok = check(hipMalloc(&regs, l.capacity * std::max<std::uint32_t>(nregs, 1) * l.stride * sizeof(std::int64_t)),
               "hipMalloc") &&
         check(hipMalloc(&stuck, l.capacity * sizeof(std::int32_t)), "hipMalloc") &&
         check(hipMalloc(&perm, l.capacity * sizeof(std::uint32_t)), "hipMalloc") &&
         check(hipMalloc(&ops, std::max<std::size_t>(nops, 1) * sizeof(DevOp)), "hipMalloc") &&
         check(hipMemset(stress, 0, Job::kStressWords * sizeof(std::uint64_t)), "hipMemset");
  }
  ~Buffers() {
    if (regs) (void)hipFree(regs);
    if (stuck) (void)hipFree(stuck);
    if (perm) (void)hipFree(perm);
    if (ops) (void)hipFree(ops);
    if (sym) portshmem_free(sym); // collective
  }
};

/// Ends the whole job with a diagnosis when a batch runs far past its budget. The runner's own waits are bounded, but
/// the API calls that block by design (barrier_all, sync_all, and wait_until / signal_wait_until once their condition
/// was seen to hold) cannot be: in a broken implementation — memory corruption undoing an awaited value, a barrier
/// that loses an arrival — they hang, and a hang should end with a message, not a CI timeout.
class Watchdog {
 public:
  Watchdog(int pe, double seconds, const std::string& test, int batch)
      : thread_([this, pe, seconds, test, batch] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (!cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; })) {
            std::fprintf(stderr,
                         "portshmem-litmus: PE %d: batch %d of %s still running after %.0f s: an API call that "
                         "blocks by design (barrier_all, sync_all, or a wait whose condition held and then stopped "
                         "holding: memory corruption?) is hung. Ending the job.\n",
                         pe, batch, test.c_str(), seconds);
            std::fflush(stdout);
            std::fflush(stderr);
            std::_Exit(3);
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

int bcast_int(int v) {
  MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return v;
}

std::string map_text(const std::vector<int>& map) {
  std::string s;
  for (std::size_t j = 0; j < map.size(); ++j)
    s += (j ? " " : "") + ("P" + std::to_string(j)) + "->PE" + std::to_string(map[j]);
  return s;
}

/// Runs one test on every PE; PE 0 prints its report and appends its summary. Returns 1 on a failure.
int run_test(const Job& job, const std::string& file, int index, std::vector<Summary>& summaries) {
  const bool root = job.me == 0;
  const Options& o = job.o;
  model::LitmusTest t;
  try {
    t = model::parse_litmus_file(file);
  } catch (const model::LitmusError& e) {
    if (root) std::printf("== %s\n  parse error: %s\n  ERROR\n\n", file.c_str(), e.what());
    Summary s;
    s.name = file;
    s.pass = false;
    s.verdict = "ERROR";
    s.note = "parse error";
    if (root) summaries.push_back(s);
    return 1;
  }
  if (t.pes < o.min_test_pes) return 0;
  auto skip = [&](const std::string& why) {
    if (root) {
      std::printf("== %s (%s)\n  SKIP: %s\n\n", t.name.c_str(), file.c_str(), why.c_str());
      std::printf("litmus-skip,%s,%s,%s\n\n", t.name.c_str(), job.platform.c_str(), why.c_str());
      Summary s;
      s.name = t.name;
      s.verdict = "SKIP";
      s.note = why;
      summaries.push_back(s);
    }
    return 0;
  };
  if (t.pes > job.np)
    return skip("needs " + std::to_string(t.pes) + " PEs, the job has " + std::to_string(job.np) + " (run with -np " +
                std::to_string(t.pes) + ")");
  const auto modes = wait_modes(t);
  if (std::string why = unrunnable_reason(t, modes); !why.empty()) return skip(why);
  const auto maps = candidate_maps(t, job.places, job.load_store);
  if (maps.empty() && !candidate_maps(t, job.places).empty())
    return skip("its ordinary stores/loads to another PE's copy need a load/store path, and no set of PEs of this job "
                "has one where the test needs it (PORTSHMEM_TRANSPORT=rdma, or PORTSHMEM_NODE_GROUPS)");
  if (maps.empty())
    return skip("no set of PEs of this job realizes the test's 'devices'/'nodes' placement (PEs it puts on one "
                "device must share a GPU here: run with more PEs per GPU)");

  // The model, on PE 0 only (it may refuse a test too large to enumerate).
  std::unique_ptr<Tally> tally;
  int model_ok = 1;
  if (root) {
    try {
      tally = std::make_unique<Tally>(t, allowed_outcomes(t));
    } catch (const std::exception& e) {
      std::printf("== %s (%s)\n  model error: %s\n  ERROR\n\n", t.name.c_str(), file.c_str(), e.what());
      Summary s;
      s.name = t.name;
      s.pass = false;
      s.verdict = "ERROR";
      s.note = "model error";
      summaries.push_back(s);
      model_ok = 0;
    }
  }
  if (!bcast_int(model_ok)) return 1;

  const bool serial = needs_serial(t);
  const std::uint32_t workers_wanted = serial ? 1 : job.threads;
  const std::uint32_t block = serial ? 1 : std::min(job.block, workers_wanted);
  const std::uint32_t worker_blocks = (workers_wanted + block - 1) / block;
  const std::uint32_t worker_threads = worker_blocks * block;
  Layout layout;
  layout.capacity = std::min<std::uint64_t>(job.batch, job.iterations);
  layout.stride = o.stride;
  const int nsyms = static_cast<int>(t.syms.size());
  std::uint32_t max_regs = 1;
  std::size_t max_ops = 1;
  for (const auto& th : t.threads) {
    max_regs = std::max<std::uint32_t>(max_regs, static_cast<std::uint32_t>(th.regs.size()));
    max_ops = std::max(max_ops, th.ops.size());
  }
  Buffers buf(layout, nsyms, max_regs, max_ops);
  int ok_all = 0, ok_me = buf.ok ? 1 : 0;
  MPI_Allreduce(&ok_me, &ok_all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!ok_all) {
    if (root) std::printf("== %s\n  ERROR: could not allocate the test's memory\n\n", t.name.c_str());
    return 1;
  }

  if (root) {
    std::printf("== %s (%s)\n", t.name.c_str(), file.c_str());
    if (!t.doc.empty()) std::printf("  %s\n", t.doc.c_str());
    for (const auto& n : tally->declared().result.notes) std::printf("  model note: %s\n", n.c_str());
    for (const auto& th : t.threads) {
      std::printf("  P%d:", th.pe);
      for (const auto& op : th.ops) std::printf("  %s;", model::format_op(t, th, op).c_str());
      std::printf("\n");
    }
    if (serial) std::printf("  calls barrier_all/sync_all: one instance at a time, every PE in each barrier\n");
    for (std::size_t k = 0; k < t.threads.size(); ++k)
      for (std::size_t i = 0; i < modes[k].size(); ++i)
        if (modes[k][i] == kWaitByTest)
          std::printf("  note: P%d's '%s' is run as a bounded loop of test() with the same qualifiers (a later write "
                      "can undo its condition)\n",
                      t.threads[k].pe, model::format_op(t, t.threads[k], t.threads[k].ops[i]).c_str());
  }

  const auto start = std::chrono::steady_clock::now();
  std::uint64_t done_iters = 0, device_errors = 0, launch_errors = 0;
  bool tighter = false; // some batch ran on a placement where the model allows fewer outcomes than declared
  std::size_t tighter_allowed = 0;
  std::string tighter_where;
  std::vector<std::int64_t> host_heap(layout.words(nsyms));
  for (int b = 0; done_iters < job.iterations; ++b) {
    const std::uint32_t n =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(layout.capacity, job.iterations - done_iters));
    std::mt19937_64 rng(mix(o.seed ^ mix(std::uint64_t(index) << 32 | std::uint64_t(b))));
    const std::vector<int>& map = maps[rng() % maps.size()];
    std::vector<std::uint32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0u);
    std::shuffle(perm.begin(), perm.end(), rng);
    const std::uint64_t batch_seed = rng();

    int my_pe_in_test = -1, my_thread = -1;
    for (int j = 0; j < t.pes; ++j)
      if (map[j] == job.me) my_pe_in_test = j;
    for (std::size_t k = 0; k < t.threads.size(); ++k)
      if (t.threads[k].pe == my_pe_in_test) my_thread = static_cast<int>(k);
    const int role = my_thread >= 0 ? kRoleThread : serial ? kRoleBarriers : kRoleStress;
    std::vector<DevOp> ops = role == kRoleThread     ? encode_thread(t, my_thread, map, layout, modes)
                             : role == kRoleBarriers ? encode_barriers_only(t)
                                                     : std::vector<DevOp>{};
    const std::uint32_t nregs = my_thread >= 0 ? static_cast<std::uint32_t>(t.threads[my_thread].regs.size()) : 0;
    // Roles of every PE (the same computation everywhere): how many worker threads exist in all.
    std::uint64_t workers_total = 0;
    for (int r = 0; r < job.np; ++r) {
      int j = -1;
      for (int q = 0; q < t.pes; ++q)
        if (map[q] == r) j = q;
      bool has_thread = false;
      for (const auto& th : t.threads) has_thread = has_thread || (j >= 0 && th.pe == j);
      if (has_thread || serial) workers_total += worker_threads;
    }

    // Reset: this PE's copies of every location to their initial values, counters to zero.
    std::fill(host_heap.begin(), host_heap.end(), 0);
    if (my_pe_in_test >= 0) {
      for (int s = 0; s < nsyms; ++s) {
        const std::int64_t v = t.init[t.loc_index(model::Loc{s, my_pe_in_test})];
        for (std::uint32_t i = 0; i < n; ++i) host_heap[layout.offset(s) + std::uint64_t(i) * layout.stride] = v;
      }
    }
    bool ok = check(hipMemcpy(buf.heap, host_heap.data(), host_heap.size() * 8, hipMemcpyHostToDevice), "hipMemcpy") &&
              check(hipMemset(buf.rendezvous, 0, layout.capacity * 16), "hipMemset") &&
              check(hipMemset(buf.done, 0, 8), "hipMemset") &&
              check(hipMemset(buf.regs, 0, layout.capacity * max_regs * layout.stride * 8), "hipMemset") &&
              check(hipMemset(buf.stuck, 0, layout.capacity * 4), "hipMemset") &&
              check(hipMemcpy(buf.perm, perm.data(), n * 4, hipMemcpyHostToDevice), "hipMemcpy") &&
              (ops.empty() ||
               check(hipMemcpy(buf.ops, ops.data(), ops.size() * sizeof(DevOp), hipMemcpyHostToDevice), "hipMemcpy"));

    BatchArgs a;
    a.ctx = job.ctx;
    a.ops = buf.ops;
    a.nops = static_cast<std::int32_t>(ops.size());
    a.role = role;
    a.heap = buf.heap;
    a.rendezvous = buf.rendezvous;
    a.done = buf.done;
    a.stress = buf.stress;
    a.stress_words = Job::kStressWords;
    a.regs = buf.regs;
    a.stuck = buf.stuck;
    a.perm = buf.perm;
    a.n = n;
    a.stride = layout.stride;
    a.nregs = nregs;
    a.worker_threads = role == kRoleStress ? 0 : worker_threads;
    a.leader = map[t.threads.front().pe];
    a.participants = o.rendezvous ? static_cast<std::int32_t>(t.threads.size()) : 0;
    a.workers_total = workers_total;
    a.seed = batch_seed;
    a.max_delay = job.delay;
    a.sync_ns = job.sync_ns;
    a.budget_ns = std::uint64_t(o.timeout_ms) * 1000000ull;
    const std::uint32_t stress = role == kRoleThread ? job.stress_busy : job.stress_idle;
    const std::uint32_t stress_blocks = (stress + block - 1) / block;
    const unsigned blocks = (role == kRoleStress ? 0 : worker_blocks) + stress_blocks;

    if (portshmem_barrier_all() != PORTSHMEM_SUCCESS) ok = false;
    {
      Watchdog dog(job.me, o.timeout_ms / 1000.0 + 60, t.name, b);
      if (ok && run_batch(a, blocks, block) != 0) {
        ++launch_errors;
        ok = false;
      }
    }
    if (portshmem_check_device_errors() != PORTSHMEM_SUCCESS) ++device_errors;
    if (portshmem_barrier_all() != PORTSHMEM_SUCCESS) ok = false;

    // Read back this PE's share of the outcomes and gather them on PE 0: [locations][stuck][registers].
    std::vector<std::int64_t> blob;
    if (my_pe_in_test >= 0) {
      ok = check(hipMemcpy(host_heap.data(), buf.heap, host_heap.size() * 8, hipMemcpyDeviceToHost), "hipMemcpy") && ok;
      for (int s = 0; s < nsyms; ++s)
        for (std::uint32_t i = 0; i < n; ++i)
          blob.push_back(host_heap[layout.offset(s) + std::uint64_t(i) * layout.stride]);
      if (my_thread >= 0) {
        std::vector<std::int32_t> st(n);
        std::vector<std::int64_t> rg(std::size_t(n) * nregs * layout.stride);
        ok = check(hipMemcpy(st.data(), buf.stuck, n * 4, hipMemcpyDeviceToHost), "hipMemcpy") && ok;
        if (nregs) ok = check(hipMemcpy(rg.data(), buf.regs, rg.size() * 8, hipMemcpyDeviceToHost), "hipMemcpy") && ok;
        blob.insert(blob.end(), st.begin(), st.end());
        for (std::size_t i = 0; i < std::size_t(n) * nregs; ++i) blob.push_back(rg[i * layout.stride]);
      }
    }
    if (!ok) ++launch_errors;
    int mine = static_cast<int>(blob.size());
    std::vector<int> counts(root ? job.np : 0), displs(root ? job.np : 0);
    MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<std::int64_t> all;
    if (root) {
      int total = 0;
      for (int r = 0; r < job.np; ++r) {
        displs[r] = total;
        total += counts[r];
      }
      all.resize(std::max(total, 1));
    }
    MPI_Gatherv(blob.data(), mine, MPI_INT64_T, all.data(), counts.data(), displs.data(), MPI_INT64_T, 0,
                MPI_COMM_WORLD);

    if (root) {
      const model::LitmusTest real = realized_test(t, map, job.places);
      const Allowed* real_allowed = tally->realized(real);
      if (real_allowed && real_allowed->keys.size() < tally->declared().keys.size() && !tighter) {
        tighter = true;
        tighter_allowed = real_allowed->keys.size();
        tighter_where = map_text(map);
      }
      const auto& res = tally->declared().result;
      model::Outcome out;
      out.regs.assign(res.reg_names.size(), 0);
      out.mem.assign(t.loc_count(), 0);
      for (std::uint32_t i = 0; i < n; ++i) {
        bool stuck = false;
        for (int j = 0; j < t.pes; ++j) {
          const std::int64_t* p = all.data() + displs[map[j]];
          for (int s = 0; s < nsyms; ++s) out.mem[t.loc_index(model::Loc{s, j})] = p[std::size_t(s) * n + i];
        }
        for (std::size_t k = 0; k < t.threads.size(); ++k) {
          const std::int64_t* p = all.data() + displs[map[t.threads[k].pe]] + std::size_t(nsyms) * n;
          stuck = stuck || p[i] != 0;
          const std::size_t nr = t.threads[k].regs.size();
          for (std::size_t r = 0; r < nr; ++r) out.regs[res.reg_base[k] + r] = p[n + std::size_t(i) * nr + r];
        }
        tally->add(out, stuck, real_allowed);
      }
      if (o.verbose) std::printf("  batch %d: %u instances on %s\n", b, n, map_text(map).c_str());
    }
    done_iters += n;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (!root) return 0;
  Summary s;
  std::string text = tally->report(s);
  if (device_errors || launch_errors) {
    s.pass = false;
    s.verdict = "FAIL";
    s.note = std::to_string(device_errors) + " batches with device errors, " + std::to_string(launch_errors) +
             " with launch/copy errors";
  }
  std::printf("  %llu iterations in %.2f s (%s, %u worker thread(s) per PE)\n",
              static_cast<unsigned long long>(done_iters), secs, serial ? "serial" : "parallel", worker_threads);
  if (tighter)
    std::printf("  placement: PEs the test declares on different devices/nodes ran closer (%s); the model allows "
                "fewer outcomes there (%zu of %zu), and every outcome was checked against that tighter set too\n",
                tighter_where.c_str(), tighter_allowed, tally->declared().keys.size());
  std::fputs(text.c_str(), stdout);
  if (!s.note.empty()) std::printf("  %s\n", s.note.c_str());
  if (s.stuck)
    std::printf("  warning: %llu stuck iterations (a wait that never saw its value)\n",
                static_cast<unsigned long long>(s.stuck));
  std::printf("  %s\n", s.verdict.c_str());
  std::printf("litmus,%s,%s,%llu,%zu,%llu,%llu\n\n", t.name.c_str(), job.platform.c_str(),
              static_cast<unsigned long long>(s.iterations), s.allowed, static_cast<unsigned long long>(s.forbidden),
              static_cast<unsigned long long>(s.weak));
  std::fflush(stdout);
  summaries.push_back(s);
  return s.pass ? 0 : 1;
}

void write_markdown(const Job& job, const std::vector<Summary>& all, const std::string& path) {
  std::ofstream f(path);
  f << "| test | iterations | allowed outcomes | observed outcomes | forbidden observed | weak seen | result |\n"
    << "|---|---|---|---|---|---|---|\n";
  for (const auto& s : all) {
    if (s.verdict == "SKIP" || s.verdict == "ERROR") {
      f << "| " << s.name << " | — | — | — | — | — | " << s.verdict << ": " << s.note << " |\n";
      continue;
    }
    f << "| " << s.name << " | " << s.iterations << " | " << s.allowed << " | " << s.observed << " | " << s.forbidden
      << " | " << (s.condition_allowed ? (s.weak ? "yes (" + std::to_string(s.weak) + ")" : "no") : "—") << " | "
      << s.verdict << (s.stuck ? " (" + std::to_string(s.stuck) + " stuck)" : "") << " |\n";
  }
  f << "\nplatform " << job.platform << ", " << job.np << " PEs; weak seen: iterations whose outcome satisfies the "
    << "test's condition where the model allows it (— where it forbids it).\n";
}

} // namespace
} // namespace litmus_runner

int main(int argc, char** argv) {
  using namespace litmus_runner;
  Job job;
  int status = 0;
  // Options first, so --help works without MPI; every PE parses the same argv.
  const bool print = true;
  if (!parse_options(argc, argv, job.o, print, status)) return status;
  if (portshmem_init() != PORTSHMEM_SUCCESS) return 2;
  job.me = portshmem_my_pe();
  job.np = portshmem_n_pes();
  job.platform = portshmem_platform();
  if (portshmem_get_ctx(&job.ctx) != PORTSHMEM_SUCCESS) return 2;
  {
    std::vector<std::int32_t> where(job.np, 0);
    if (job.ctx.pe_device)
      check(hipMemcpy(where.data(), job.ctx.pe_device, job.np * 4, hipMemcpyDeviceToHost), "hipMemcpy");
    for (int r = 0; r < job.np; ++r) job.places.push_back(RealPlace{where[r], where[r] >> 16});
    std::vector<char> mine(std::size_t(job.np)), all(std::size_t(job.np) * std::size_t(job.np));
    for (int pe = 0; pe < job.np; ++pe) {
      const portshmem_transport_t t = portshmem_transport(pe);
      mine[std::size_t(pe)] = t == PORTSHMEM_TRANSPORT_SELF || t == PORTSHMEM_TRANSPORT_IPC;
    }
    MPI_Allgather(mine.data(), job.np, MPI_CHAR, all.data(), job.np, MPI_CHAR, MPI_COMM_WORLD);
    for (int r = 0; r < job.np; ++r)
      job.load_store.emplace_back(all.begin() + r * job.np, all.begin() + (r + 1) * job.np);
  }
  const bool host = job.platform == "host";
  const Options& o = job.o;
  job.iterations = o.iterations ? o.iterations : host ? 10000 : 100000;
  job.batch = o.batch ? o.batch : host ? 2000 : 16384;
  job.threads = o.threads ? o.threads : host ? 2 : 1024;
  job.block = o.block ? o.block : host ? job.threads : 128;
  job.stress_idle = o.stress_idle >= 0 ? o.stress_idle : host ? 1 : 256;
  job.stress_busy = o.stress_busy >= 0 ? o.stress_busy : host ? 0 : 128;
  job.delay = o.delay >= 0 ? o.delay : 64;
  job.sync_ns = o.sync_ns >= 0 ? o.sync_ns : 2000;

  const std::vector<std::string> files = expand_inputs(o.files);
  if (job.me == 0) {
    std::printf("portshmem-litmus: %zu test(s), platform %s, %d PEs, %llu iterations per test, batches of %u, "
                "%u worker thread(s) per PE, stress %u/%u, delay <= %u, seed %#llx\n\n",
                files.size(), job.platform.c_str(), job.np, static_cast<unsigned long long>(job.iterations), job.batch,
                job.threads, job.stress_idle, job.stress_busy, job.delay, static_cast<unsigned long long>(o.seed));
    std::fflush(stdout);
  }
  if (job.me == 0) {
    bool one_device = true;
    for (const auto& p : job.places) one_device = one_device && p.device == job.places[0].device;
    if (one_device)
      std::printf("placement: every PE of this job is on one device and node, so tests that declare PEs on different "
                  "devices or nodes run on closer PEs. That is sound: closer PEs only add synchronization, so the "
                  "outcomes the model allows for the real placement are a subset of those it allows as declared; each "
                  "outcome is checked against both.\n\n");
  }
  std::vector<Summary> summaries;
  const auto start = std::chrono::steady_clock::now();
  int failed = 0;
  for (std::size_t i = 0; i < files.size(); ++i) failed |= run_test(job, files[i], static_cast<int>(i), summaries);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (job.me == 0) {
    int pass = 0, fail = 0, skip = 0, error = 0;
    for (const auto& s : summaries) {
      if (s.verdict == "PASS")
        ++pass;
      else if (s.verdict == "SKIP")
        ++skip;
      else if (s.verdict == "ERROR")
        ++error;
      else
        ++fail;
    }
    std::printf("== summary: %d passed, %d FAILED, %d skipped, %d errors, %.1f s\n", pass, fail, skip, error, secs);
    for (const auto& s : summaries)
      if (s.verdict != "PASS")
        std::printf("   %-40s %s%s%s\n", s.name.c_str(), s.verdict.c_str(), s.note.empty() ? "" : ": ", s.note.c_str());
    std::printf("   weak outcomes seen:");
    for (const auto& s : summaries)
      if (s.condition_allowed && s.weak) std::printf(" %s", s.name.c_str());
    std::printf("\n   weak outcomes allowed but never seen:");
    for (const auto& s : summaries)
      if (s.condition_allowed && !s.weak && s.verdict == "PASS") std::printf(" %s", s.name.c_str());
    std::printf("\n");
    if (!o.markdown.empty()) write_markdown(job, summaries, o.markdown);
  }
  int any = failed, all_failed = 0;
  MPI_Allreduce(&any, &all_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  portshmem_finalize();
  return all_failed ? 1 : 0;
}
