// The programs of the perftest-compatible suite: their names (NVSHMEM perftest's), what each measures, and which
// flags apply to it. Backend-neutral and C++17 (device translation units include it too).
#pragma once

#include <cstddef>

namespace pt {

enum class program {
  put_bw,
  get_bw,
  put_bibw,
  put_msg_rate,
  p_bw,
  atomic_bw,
  put_latency,
  get_latency,
  p_latency,
  g_latency,
  atomic_latency,
  put_ping_pong_latency,
  put_signal_ping_pong_latency,
};

/// The benchmark family that runs a program: one device translation unit each (bw.cpp, latency.cpp, atomic.cpp,
/// pingpong.cpp), compiled once per backend.
enum class family { bw, latency, atomic, pingpong };

enum class metric { latency, bandwidth, rate };

/// The issuing group of the RMA calls: one thread, a warp (NVIDIA) / wave (AMD), or a block.
enum class group { thread, warp, block };
inline constexpr const char* kGroupNames[] = {"thread", "warp", "block"};

/// Group bits of program_info::groups.
inline constexpr unsigned kThread = 1u << unsigned(group::thread), kWarp = 1u << unsigned(group::warp),
                          kBlock = 1u << unsigned(group::block), kAllGroups = kThread | kWarp | kBlock;

struct program_info {
  program id;
  const char* name; // the executable's name, and the program field of every row
  family fam;
  metric m;
  unsigned groups;      // groups -s may name
  unsigned default_grp; // groups run without -s
  bool grid;            // -c (blocks) applies: a grid of blocks issues the operations
  const char* what;     // one line for -h and the table's header
};

// clang-format off
inline constexpr program_info kPrograms[] = {
  {program::put_bw, "shmem_put_bw", family::bw, metric::bandwidth, kAllGroups, kBlock, true,
   "put_nbi of each group's share of SIZE bytes, ITERS times, then quiet; PE 0 -> PE 1"},
  {program::get_bw, "shmem_get_bw", family::bw, metric::bandwidth, kAllGroups, kBlock, true,
   "get_nbi of each group's share of SIZE bytes, ITERS times, then quiet; PE 0 <- PE 1"},
  {program::put_bibw, "shmem_put_bibw", family::bw, metric::bandwidth, kAllGroups, kBlock, true,
   "as shmem_put_bw, both PEs sending at once; GB/s counts both directions"},
  {program::put_msg_rate, "shmem_put_msg_rate", family::bw, metric::rate, kAllGroups, kThread, true,
   "every group puts its own SIZE-byte message (default 8 B, one per thread), ITERS times, then quiet"},
  {program::p_bw, "shmem_p_bw", family::bw, metric::bandwidth, kThread, kThread, true,
   "p of every element of SIZE bytes (grid-strided over threads), ITERS times, then quiet"},
  {program::atomic_bw, "shmem_atomic_bw", family::atomic, metric::bandwidth, kThread, kThread, true,
   "the AMO (-a) on every element of SIZE bytes (grid-strided over threads), ITERS times, then quiet"},
  {program::put_latency, "shmem_put_latency", family::latency, metric::latency, kAllGroups, kAllGroups, false,
   "one group: put_nbi of SIZE bytes, then quiet, per iteration"},
  {program::get_latency, "shmem_get_latency", family::latency, metric::latency, kAllGroups, kAllGroups, false,
   "one group: blocking get of SIZE bytes per iteration"},
  {program::p_latency, "shmem_p_latency", family::latency, metric::latency, kThread, kThread, false,
   "one block of -t threads: p of SIZE bytes' elements (block-strided), then quiet, per iteration"},
  {program::g_latency, "shmem_g_latency", family::latency, metric::latency, kThread, kThread, false,
   "one block of -t threads: g of SIZE bytes' elements (block-strided) per iteration"},
  {program::atomic_latency, "shmem_atomic_latency", family::atomic, metric::latency, kThread, kThread, false,
   "one thread: the AMO (-a) on one element per iteration (non-fetching ones followed by quiet)"},
  {program::put_ping_pong_latency, "shmem_put_ping_pong_latency", family::pingpong, metric::latency, kAllGroups,
   kThread, false, "round trip: put_nbi of SIZE bytes, fence, signal_op(set); the peer waits and answers alike"},
  {program::put_signal_ping_pong_latency, "shmem_put_signal_ping_pong_latency", family::pingpong, metric::latency,
   kAllGroups, kThread, false, "round trip: putmem_signal_nbi of SIZE bytes; the peer signal_wait_until and answers"},
};
// clang-format on

inline const program_info& info_of(program p) {
  return kPrograms[std::size_t(p)];
}

inline const char* metric_name(metric m) {
  return m == metric::latency ? "latency" : m == metric::bandwidth ? "bandwidth" : "rate";
}

inline const char* unit_of(metric m) {
  return m == metric::latency ? "us" : m == metric::bandwidth ? "GB/s" : "Mops/s";
}

/// The AMOs of -a (NVSHMEM perftest's spellings, plus fetch). The fetching ones return the old value.
enum class amo_op {
  inc,
  fetch_inc,
  add,
  fetch_add,
  set,
  fetch,
  swap,
  compare_swap,
  and_,
  fetch_and,
  or_,
  fetch_or,
  xor_,
  fetch_xor
};
inline constexpr const char* kAmoNames[] = {"inc",   "fetch_inc", "add",          "fetch_add", "set",
                                            "fetch", "swap",      "compare_swap", "and",       "fetch_and",
                                            "or",    "fetch_or",  "xor",          "fetch_xor"};
inline constexpr int kAmoCount = int(sizeof kAmoNames / sizeof kAmoNames[0]);

} // namespace pt
