// Load test (issue #13 item 6): every PE runs many blocks that, for a given time, hammer one PE (or every PE) with
// AMOs of several widths (fetch-add and add on 32- and 64-bit counters, a compare-swap increment loop) and with
// put-with-signal (signal_add) of patterned payloads, per thread and per block. Then the PEs agree the exact totals:
// each thread counted what it issued to each PE, every target checks its counters, signal words and payloads against
// the sum of what the others report (the fetch-adds' returned values too: exactly 0..N-1), and the guard blocks
// around every buffer. With --heap-full the symmetric heap is first filled to 99% with canary blocks, checked after
// the run. Deadlocks end in PORTSHMEM_TIMEOUT's diagnosis or the caller's time limit (CTest's TIMEOUT).
//
//   portshmem-run -np 8 portshmem_mp_load [--seconds S] [--target pe0|all|both] [--heap-full] [--fill PERCENT]
//                                         [--blocks B] [--threads T]
//   exit: 0 every total exact; 1 a wrong total, payload, guard or device error; 2 bad usage or a failed setup
#include <mpi.h>

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <portshmem/portshmem.hpp>

namespace {

namespace ps = portshmem;
namespace arch = portshmem::arch;

constexpr unsigned kSlotWords = 8;    // a thread's payload: 64 bytes
constexpr unsigned kBlockWords = 128; // a block's payload: 1 KiB
constexpr unsigned kCasWords = 8;     // compare-swap counters: thread t loops on word t % 8 (contention, not a crawl)
constexpr std::size_t kGuardBytes = 256;
constexpr std::uint8_t kGuardByte = 0xC3;

/// The counters every PE holds as a target, one of each width.
struct counters {
  unsigned long long u64;            // fetch_add 1: the values returned to all callers are exactly 0..N-1
  unsigned long long cas[kCasWords]; // compare_swap increment loops: one success per thread and round
  long long i64;                     // add of a weight 1..3
  unsigned int u32;                  // fetch_add 1
  int i32;                           // add 1
};

/// What each thread counts per target PE.
enum stat : unsigned {
  u64_count,
  u64_fetch_sum,
  u32_count,
  i32_count,
  i64_sum,
  cas_count,
  put_count,
  put_last,
  kStats
};
/// What each block counts per target PE (its put_signal_block).
enum block_stat : unsigned { block_count, block_last, kBlockStats };

struct load_args {
  int n, me;
  int everyone; // 0: every operation targets PE 0; 1: each targets a PE chosen by (operation, thread, round)
  std::uint64_t duration_ns;
  unsigned blocks, threads;
  // symmetric
  counters* ctr;
  std::uint64_t* slots;   // [n * blocks * threads][kSlotWords]: one slot per sending thread of every PE
  std::uint64_t* sigs;    // [n * blocks]: one signal word per sending block, bumped by its threads' puts
  std::uint64_t* regions; // [n * blocks][kBlockWords]: one region per sending block
  std::uint64_t* bsigs;   // [n * blocks]: bumped by the block's put_signal_block
  // this PE's device memory
  std::uint64_t* thread_src;  // [blocks * threads][kSlotWords]
  std::uint64_t* block_src;   // [blocks][kBlockWords]
  std::uint64_t* stats;       // [blocks * threads][n][kStats]
  std::uint64_t* block_stats; // [blocks][n][kBlockStats]
  std::uint64_t* rounds;      // [blocks]
  std::uint64_t* start;       // the first block's start time (0 until then)
  std::uint32_t* go;          // [blocks]: thread 0's verdict for the round
};

PORTSHMEM_HOST_DEVICE std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

/// Word i of the payload sender `who` (a thread index, or blocks*threads + a block index) of PE src sent in round r.
PORTSHMEM_HOST_DEVICE std::uint64_t payload(int src, std::uint64_t who, std::uint64_t r, unsigned i) {
  return mix((std::uint64_t(src) << 56) ^ (who << 36) ^ (r << 8) ^ i) | 1; // never 0: an unwritten slot is 0
}

/// The PE operation op of thread (block b, thread t) of PE src targets in round r.
PORTSHMEM_DEVICE int target_of(const load_args& a, unsigned op, unsigned b, unsigned t, std::uint64_t r) {
  if (!a.everyone) return 0;
  return int(mix((std::uint64_t(op) << 60) ^ (std::uint64_t(a.me) << 48) ^ (std::uint64_t(b) << 32) ^
                 (std::uint64_t(t) << 20) ^ r) %
             std::uint64_t(a.n));
}

PORTSHMEM_GLOBAL void load_kernel(ps::ctx c, load_args a) {
  constexpr auto kRelaxed = arch::order::relaxed;
  constexpr auto kSys = arch::scope::system;
  const unsigned b = ps::block_rank(), t = ps::thread_rank();
  const unsigned total = a.blocks * a.threads, gt = b * a.threads + t;
  std::uint64_t* st = a.stats + std::size_t(gt) * unsigned(a.n) * kStats;
  std::uint64_t* bst = a.block_stats + std::size_t(b) * unsigned(a.n) * kBlockStats;
  std::uint64_t* mine = a.thread_src + std::size_t(gt) * kSlotWords;
  std::uint64_t* bsrc = a.block_src + std::size_t(b) * kBlockWords;
  // One deadline for the grid: blocks scheduled late (more blocks than run at once) stop with the others.
  std::uint64_t deadline = 0;
  if (t == 0) {
    const std::uint64_t now = arch::time_ns();
    const std::uint64_t first = arch::compare_exchange<kRelaxed, kSys>(a.start, std::uint64_t(0), now);
    deadline = (first ? first : now) + a.duration_ns;
  }
  std::uint64_t r = 0;
  for (;; ++r) {
    // Every thread of the block runs the same rounds (put_signal_block is a call of the whole block).
    if (t == 0) arch::store<kRelaxed, kSys>(&a.go[b], arch::time_ns() < deadline ? 1u : 0u);
    arch::block_sync();
    const bool go = arch::load<kRelaxed, kSys>(&a.go[b]) != 0;
    arch::block_sync(); // every thread has read it before thread 0 writes the next one
    if (!go) break;
    int pe = target_of(a, 0, b, t, r);
    st[pe * kStats + u64_fetch_sum] += ps::atomic_fetch_add(c, &a.ctr->u64, 1ull, pe);
    ++st[pe * kStats + u64_count];
    pe = target_of(a, 1, b, t, r);
    ps::atomic_add(c, &a.ctr->i32, 1, pe);
    ++st[pe * kStats + i32_count];
    pe = target_of(a, 2, b, t, r);
    (void)ps::atomic_fetch_add(c, &a.ctr->u32, 1u, pe);
    ++st[pe * kStats + u32_count];
    pe = target_of(a, 3, b, t, r);
    const auto weight = static_cast<long long>(t % 3 + 1);
    ps::atomic_add(c, &a.ctr->i64, weight, pe);
    st[pe * kStats + i64_sum] += std::uint64_t(weight);
    pe = target_of(a, 4, b, t, r);
    unsigned long long* word = &a.ctr->cas[t % kCasWords];
    for (unsigned long long seen = ps::atomic_fetch(c, word, pe);;) {
      const unsigned long long old = ps::atomic_compare_swap(c, word, seen, seen + 1, pe);
      if (old == seen) break;
      seen = old;
    }
    ++st[pe * kStats + cas_count];
    // A thread's put-with-signal: 64 bytes into its own slot on the target, +1 on its block's signal word there.
    pe = target_of(a, 5, b, t, r);
    for (unsigned i = 0; i < kSlotWords; ++i) mine[i] = payload(a.me, gt, r, i);
    ps::put_signal(c, a.slots + (std::size_t(a.me) * total + gt) * kSlotWords, mine, kSlotWords,
                   a.sigs + std::size_t(a.me) * a.blocks + b, 1, ps::signal_add, pe);
    ++st[pe * kStats + put_count];
    st[pe * kStats + put_last] = r + 1;
    // The block's put-with-signal: 1 KiB into its region on the target (the same target for all its threads).
    pe = target_of(a, 6, b, 0, r);
    for (unsigned i = t; i < kBlockWords; i += a.threads) bsrc[i] = payload(a.me, total + b, r, i);
    ps::put_signal_block(c, a.regions + (std::size_t(a.me) * a.blocks + b) * kBlockWords, bsrc, kBlockWords,
                         a.bsigs + std::size_t(a.me) * a.blocks + b, 1, ps::signal_add, pe);
    if (t == 0) {
      ++bst[pe * kBlockStats + block_count];
      bst[pe * kBlockStats + block_last] = r + 1;
    }
  }
  if (t == 0) a.rounds[b] = r;
}

// ---- host side
// -------------------------------------------------------------------------------------------------------

struct options {
  double seconds = 10;
  std::string target = "both";
  bool heap_full = false;
  unsigned fill = 99;
  unsigned blocks = PORTSHMEM_PLATFORM_HOST ? 2 : 32;
  unsigned threads = PORTSHMEM_PLATFORM_HOST ? 16 : 128;
};

int g_me = 0;
unsigned g_failures = 0;

/// A failed check: one line naming the PE, counted.
void fail(const char* format, ...) __attribute__((format(printf, 1, 2)));
void fail(const char* format, ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  std::printf("[PE %d] load: FAIL: %s\n", g_me, text);
  std::fflush(stdout);
  ++g_failures;
}

bool check_gpu(hipError_t e, const char* what) {
  if (e == hipSuccess) return true;
  fail("%s: %s", what, hipGetErrorString(e));
  return false;
}

template <class T>
std::vector<T> to_host(const T* device, std::size_t count) {
  std::vector<T> v(count);
  if (count) check_gpu(hipMemcpy(v.data(), device, count * sizeof(T), hipMemcpyDeviceToHost), "hipMemcpy");
  return v;
}

/// A symmetric block followed by a guard block (first fit places it right after), both tracked for the checks.
struct heap_layout {
  struct guarded {
    void* block;
    std::size_t bytes;
    std::uint8_t* guard;
  };
  std::vector<guarded> buffers;
  std::vector<std::pair<std::uint8_t*, std::size_t>> fillers; // (block, bytes), each of its own byte value
  std::size_t used = 0;                                       // bytes allocated (sizes rounded to 256)

  template <class T>
  T* take(std::size_t count) {
    const std::size_t bytes = (count * sizeof(T) + 255) / 256 * 256;
    void* p = portshmem_calloc(1, bytes);
    auto* guard = static_cast<std::uint8_t*>(portshmem_malloc(kGuardBytes));
    if (!p || !guard) {
      fail("allocating %zu bytes: %s", bytes, portshmem_status_string(portshmem_last_status()));
      return nullptr;
    }
    if (guard != static_cast<std::uint8_t*>(p) + bytes) fail("the guard block does not follow its buffer");
    check_gpu(hipMemset(guard, kGuardByte, kGuardBytes), "hipMemset");
    buffers.push_back({p, bytes, guard});
    used += bytes + kGuardBytes;
    return static_cast<T*>(p);
  }

  static std::uint8_t filler_byte(std::size_t i) { return std::uint8_t(0x11 + (g_me * 37 + i * 13) % 200); }

  /// Fills the heap's user part to percent % with canary blocks; then a request for more than what is left must fail.
  void fill_to(const ps::ctx& c, unsigned percent) {
    const std::size_t goal = std::size_t(double(c.heap_size) * percent / 100) / 256 * 256;
    constexpr std::size_t kChunk = std::size_t(4) << 20;
    while (used < goal) {
      const std::size_t bytes = std::min(kChunk, goal - used);
      auto* p = static_cast<std::uint8_t*>(portshmem_malloc(bytes));
      if (!p) {
        fail("filling the heap: %zu of %" PRIu64 " bytes in use, the next %zu failed: %s", used, c.heap_size, bytes,
             portshmem_status_string(portshmem_last_status()));
        return;
      }
      check_gpu(hipMemset(p, filler_byte(fillers.size()), bytes), "hipMemset");
      fillers.push_back({p, bytes});
      used += bytes;
    }
    const std::size_t left = c.heap_size - used;
    if (g_me == 0) {
      std::printf("load: the heap is %u%% full (%zu of %" PRIu64 " bytes, %zu filler blocks); one more block of %zu "
                  "bytes must be refused: the 'symmetric heap exhausted' lines of every PE that follow are expected\n",
                  percent, used, c.heap_size, fillers.size(), left + 256);
      std::fflush(stdout);
    }
    void* more = portshmem_malloc(left + 256);
    if (more || portshmem_last_status() != PORTSHMEM_ERR_OUT_OF_MEMORY) {
      fail("the heap is not full: %zu more bytes were %s", left + 256,
           more ? "allocated" : "refused for another reason");
      if (more) (void)portshmem_free(more);
    }
  }

  void check_canaries() {
    for (const auto& g : buffers) {
      std::size_t bad = 0;
      for (std::uint8_t v : to_host(g.guard, kGuardBytes)) bad += v != kGuardByte;
      if (bad) fail("%zu bytes of the guard after the %zu-byte buffer at %p changed", bad, g.bytes, g.block);
    }
    constexpr std::size_t kPiece = std::size_t(1) << 20;
    for (std::size_t i = 0; i < fillers.size(); ++i) {
      std::size_t bad = 0;
      for (std::size_t off = 0; off < fillers[i].second; off += kPiece) {
        const std::size_t n = std::min(kPiece, fillers[i].second - off);
        for (std::uint8_t v : to_host(fillers[i].first + off, n)) bad += v != filler_byte(i);
      }
      if (bad)
        fail("%zu bytes of filler block %zu (%zu bytes at %p) changed", bad, i, fillers[i].second,
             static_cast<void*>(fillers[i].first));
    }
  }

  void release() {
    for (auto it = fillers.rbegin(); it != fillers.rend(); ++it) (void)portshmem_free(it->first);
    for (auto it = buffers.rbegin(); it != buffers.rend(); ++it) {
      (void)portshmem_free(it->guard);
      (void)portshmem_free(it->block);
    }
    fillers.clear();
    buffers.clear();
    used = 0;
  }
};

template <class T>
T* device_zeroed(std::size_t count) {
  T* p = nullptr;
  if (!check_gpu(hipMalloc(&p, count * sizeof(T)), "hipMalloc")) return nullptr;
  check_gpu(hipMemset(p, 0, count * sizeof(T)), "hipMemset");
  return p;
}

std::vector<std::uint64_t> allgather(const std::vector<std::uint64_t>& mine, int n) {
  std::vector<std::uint64_t> all(mine.size() * std::size_t(n));
  MPI_Allgather(mine.data(), int(mine.size()), MPI_UINT64_T, all.data(), int(mine.size()), MPI_UINT64_T,
                MPI_COMM_WORLD);
  return all;
}

/// One phase: the kernel for the given time, then every check. Returns the operations this PE issued.
std::uint64_t run_phase(const options& o, bool everyone) {
  const int n = portshmem_n_pes(), me = portshmem_my_pe();
  ps::ctx c{};
  portshmem_get_ctx(&c);
  const unsigned blocks = o.blocks, threads = o.threads, total = blocks * threads;
  const unsigned failures_before = g_failures; // an earlier phase's failures do not stop this one
  heap_layout heap;
  load_args a{};
  a.n = n;
  a.me = me;
  a.everyone = everyone ? 1 : 0;
  a.duration_ns = std::uint64_t(o.seconds * 1e9);
  a.blocks = blocks;
  a.threads = threads;
  a.ctr = heap.take<counters>(1);
  a.slots = heap.take<std::uint64_t>(std::size_t(n) * total * kSlotWords);
  a.sigs = heap.take<std::uint64_t>(std::size_t(n) * blocks);
  a.regions = heap.take<std::uint64_t>(std::size_t(n) * blocks * kBlockWords);
  a.bsigs = heap.take<std::uint64_t>(std::size_t(n) * blocks);
  if (o.heap_full) heap.fill_to(c, o.fill);
  a.thread_src = device_zeroed<std::uint64_t>(std::size_t(total) * kSlotWords);
  a.block_src = device_zeroed<std::uint64_t>(std::size_t(blocks) * kBlockWords);
  a.stats = device_zeroed<std::uint64_t>(std::size_t(total) * n * kStats);
  a.block_stats = device_zeroed<std::uint64_t>(std::size_t(blocks) * n * kBlockStats);
  a.rounds = device_zeroed<std::uint64_t>(blocks);
  a.start = device_zeroed<std::uint64_t>(1);
  a.go = device_zeroed<std::uint32_t>(blocks);
  std::uint64_t issued = 0;
  const bool ready = g_failures == failures_before && a.thread_src && a.block_src && a.stats && a.block_stats &&
                     a.rounds && a.start && a.go;
  int everyone_ready = 0, mine_ready = ready ? 1 : 0;
  MPI_Allreduce(&mine_ready, &everyone_ready, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (everyone_ready && portshmem_barrier_all() == PORTSHMEM_SUCCESS) {
    const double t0 = MPI_Wtime();
    const hipError_t launched = ps::launch(load_kernel, dim3(blocks), dim3(threads), c, a);
    const bool ran = check_gpu(launched, "the load kernel") && check_gpu(hipDeviceSynchronize(), "the load kernel");
    if (portshmem_check_device_errors() != PORTSHMEM_SUCCESS) fail("device code recorded an error (the line above)");
    if (portshmem_barrier_all() != PORTSHMEM_SUCCESS) fail("portshmem_barrier_all after the run failed");
    const double took = MPI_Wtime() - t0;
    // What every PE says it issued, to every target.
    const std::vector<std::uint64_t> stats = ran ? to_host(a.stats, std::size_t(total) * n * kStats)
                                                 : std::vector<std::uint64_t>(std::size_t(total) * n * kStats);
    const std::vector<std::uint64_t> bstats = ran ? to_host(a.block_stats, std::size_t(blocks) * n * kBlockStats)
                                                  : std::vector<std::uint64_t>(std::size_t(blocks) * n * kBlockStats);
    const std::vector<std::uint64_t> rounds = ran ? to_host(a.rounds, blocks) : std::vector<std::uint64_t>(blocks);
    const std::vector<std::uint64_t> all_stats = allgather(stats, n), all_bstats = allgather(bstats, n);
    // This PE as a target: the sums of what was issued to it.
    std::uint64_t expect[kStats] = {}, expect_blocks = 0;
    for (int src = 0; src < n; ++src) {
      for (unsigned g = 0; g < total; ++g) {
        const std::uint64_t* s = &all_stats[((std::size_t(src) * total + g) * n + me) * kStats];
        for (unsigned k = 0; k < kStats; ++k) {
          if (k != put_last) expect[k] += s[k];
        }
      }
      for (unsigned b = 0; b < blocks; ++b) {
        expect_blocks += all_bstats[((std::size_t(src) * blocks + b) * n + me) * kBlockStats + block_count];
      }
    }
    const counters got = to_host(a.ctr, 1)[0];
    const std::uint64_t n64 = expect[u64_count];
    if (got.u64 != n64) fail("64-bit fetch-add counter %llu, expected %" PRIu64, got.u64, n64);
    // The fetch-adds returned exactly 0..N-1 between them (a lost or doubled update shows here too).
    const std::uint64_t fetched = n64 % 2 == 0 ? (n64 / 2) * (n64 - 1) : n64 * ((n64 - 1) / 2);
    if (expect[u64_fetch_sum] != fetched) {
      fail("the 64-bit fetch-adds returned values summing to %" PRIu64 ", expected %" PRIu64 " (0..%" PRIu64 "-1)",
           expect[u64_fetch_sum], fetched, n64);
    }
    if (got.u32 != std::uint32_t(expect[u32_count])) {
      fail("32-bit fetch-add counter %u, expected %u", got.u32, std::uint32_t(expect[u32_count]));
    }
    if (got.i32 != int(std::uint32_t(expect[i32_count]))) {
      fail("32-bit add counter %d, expected %d", got.i32, int(std::uint32_t(expect[i32_count])));
    }
    if (std::uint64_t(got.i64) != expect[i64_sum]) {
      fail("64-bit add counter %lld, expected %" PRIu64, got.i64, expect[i64_sum]);
    }
    unsigned long long cas = 0;
    for (unsigned long long w : got.cas) cas += w;
    if (cas != expect[cas_count]) fail("compare-swap counters sum to %llu, expected %" PRIu64, cas, expect[cas_count]);
    // Signals and payloads: per sending thread and block, exactly what it issued here, its last payload intact.
    const std::vector<std::uint64_t> sigs = to_host(a.sigs, std::size_t(n) * blocks);
    const std::vector<std::uint64_t> bsigs = to_host(a.bsigs, std::size_t(n) * blocks);
    const std::vector<std::uint64_t> slots = to_host(a.slots, std::size_t(n) * total * kSlotWords);
    const std::vector<std::uint64_t> regions = to_host(a.regions, std::size_t(n) * blocks * kBlockWords);
    std::uint64_t sig_total = 0;
    for (int src = 0; src < n; ++src) {
      for (unsigned b = 0; b < blocks; ++b) {
        std::uint64_t from_block = 0;
        for (unsigned t = 0; t < threads; ++t) {
          const unsigned g = b * threads + t;
          const std::uint64_t* s = &all_stats[((std::size_t(src) * total + g) * n + me) * kStats];
          from_block += s[put_count];
          const std::uint64_t* slot = &slots[(std::size_t(src) * total + g) * kSlotWords];
          for (unsigned i = 0; i < kSlotWords; ++i) {
            const std::uint64_t want = s[put_last] ? payload(src, g, s[put_last] - 1, i) : 0;
            if (slot[i] != want) {
              fail("payload word %u from PE %d thread %u: %#" PRIx64 ", expected %#" PRIx64 " (its round %" PRIu64 ")",
                   i, src, g, slot[i], want, s[put_last]);
              break;
            }
          }
        }
        const std::size_t sb = std::size_t(src) * blocks + b;
        sig_total += sigs[sb];
        if (sigs[sb] != from_block) {
          fail("signal word of PE %d block %u: %" PRIu64 ", expected %" PRIu64 " (lost or extra signals)", src, b,
               sigs[sb], from_block);
        }
        const std::uint64_t* bs = &all_bstats[(sb * n + me) * kBlockStats];
        if (bsigs[sb] != bs[block_count]) {
          fail("block signal word of PE %d block %u: %" PRIu64 ", expected %" PRIu64, src, b, bsigs[sb],
               bs[block_count]);
        }
        for (unsigned i = 0; i < kBlockWords; ++i) {
          const std::uint64_t want = bs[block_last] ? payload(src, total + b, bs[block_last] - 1, i) : 0;
          if (regions[sb * kBlockWords + i] != want) {
            fail("block payload word %u from PE %d block %u: %#" PRIx64 ", expected %#" PRIx64, i, src, b,
                 regions[sb * kBlockWords + i], want);
            break;
          }
        }
      }
    }
    if (sig_total != expect[put_count]) fail("signals %" PRIu64 ", expected %" PRIu64, sig_total, expect[put_count]);
    std::uint64_t bsig_total = 0;
    for (std::uint64_t v : bsigs) bsig_total += v;
    if (bsig_total != expect_blocks) {
      fail("block signals %" PRIu64 ", expected %" PRIu64, bsig_total, expect_blocks);
    }
    heap.check_canaries();
    // What this PE issued, for the summary.
    std::uint64_t my_rounds = 0;
    for (std::uint64_t r : rounds) my_rounds += r;
    issued =
        my_rounds * (threads * 6 + 1); // per thread 5 AMOs (a compare-swap loop counted once) and 1 put, 1 per block
    std::uint64_t all_issued = 0, all_rounds = 0, min_rounds = my_rounds, least = 0;
    MPI_Allreduce(&issued, &all_issued, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&my_rounds, &all_rounds, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&min_rounds, &least, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    if (least == 0) fail("a PE ran no round (the kernel did not get to run within the time)");
    if (me == 0) {
      const std::string full = o.heap_full ? ", heap " + std::to_string(o.fill) + "% full" : "";
      std::printf("load: %s, %d PEs x %u blocks x %u threads%s, %.1f s: %" PRIu64 " block rounds, %" PRIu64
                  " operations (%.2f M/s)\n",
                  everyone ? "into every PE" : "into PE 0", n, blocks, threads, full.c_str(), took, all_rounds,
                  all_issued, double(all_issued) / took / 1e6);
      std::fflush(stdout);
    }
  } else {
    fail("setup failed on some PE; nothing was run");
  }
  for (void* p : {static_cast<void*>(a.thread_src), static_cast<void*>(a.block_src), static_cast<void*>(a.stats),
                  static_cast<void*>(a.block_stats), static_cast<void*>(a.rounds), static_cast<void*>(a.start),
                  static_cast<void*>(a.go)}) {
    if (p) (void)hipFree(p);
  }
  (void)portshmem_barrier_all(); // nobody frees while another PE still checks
  heap.release();
  return issued;
}

bool parse(int argc, char** argv, options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (arg == "--heap-full") {
      o->heap_full = true;
    } else if (arg == "--seconds" && value) {
      o->seconds = std::atof(value), ++i;
    } else if (arg == "--target" && value) {
      o->target = value, ++i;
    } else if (arg == "--fill" && value) {
      o->fill = unsigned(std::atoi(value)), ++i;
    } else if (arg == "--blocks" && value) {
      o->blocks = unsigned(std::atoi(value)), ++i;
    } else if (arg == "--threads" && value) {
      o->threads = unsigned(std::atoi(value)), ++i;
    } else {
      return false;
    }
  }
  return o->seconds > 0 && o->fill >= 1 && o->fill <= 99 && o->blocks >= 1 && o->threads >= 1 &&
         (o->target == "pe0" || o->target == "all" || o->target == "both");
}

} // namespace

int main(int argc, char** argv) {
  options o;
  if (!parse(argc, argv, &o)) {
    std::fprintf(stderr,
                 "usage: %s [--seconds S] [--target pe0|all|both] [--heap-full] [--fill PERCENT (1-99)] "
                 "[--blocks B] [--threads T]\n",
                 argv[0]);
    return 2;
  }
  if (portshmem_init() != PORTSHMEM_SUCCESS) {
    std::fprintf(stderr, "load: portshmem_init failed\n");
    return 2;
  }
  g_me = portshmem_my_pe();
  const bool both = o.target == "both";
  options phase = o;
  if (both) phase.seconds = o.seconds / 2;
  if (o.target != "all") run_phase(phase, false);
  if (o.target != "pe0") run_phase(phase, true);
  unsigned failures = 0;
  MPI_Allreduce(&g_failures, &failures, 1, MPI_UNSIGNED, MPI_SUM, MPI_COMM_WORLD);
  if (portshmem_finalize() != PORTSHMEM_SUCCESS) failures += 1;
  if (g_me == 0) std::printf("load: %s (%u failed check(s) on all PEs)\n", failures ? "FAILED" : "passed", failures);
  return failures ? 1 : 0;
}
