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

// ---- qualifier variants (--mm)
// ---------------------------------------------------------------------------------------

/// The qualifier categories of docs/memory_model.md that a call can take (the bits of portshmem::mm::cat, restated
/// here so that host code and the NVSHMEM build need no library header).
namespace qual {
inline constexpr unsigned coverage = 1u << 0, scope = 1u << 1, data_path = 1u << 2, acquire = 1u << 3, signal = 1u << 4;
}

/// Which calls the portshmem backend makes (--mm). strict: every call with its OpenSHMEM default qualifiers
/// (coverage all, scope system, data path bypass, acquire wait, weak signal). relaxed: the qualified calls the memory
/// model allows for what the benchmark needs (backend_portshmem.hpp says which and why). Every other variant is strict
/// with exactly one qualifier changed, in every call of the kernel that takes it (kMmChanges: its category).
enum class mm_set {
  strict,
  relaxed,
  scope_device,
  scope_node,
  coverage_comm,
  data_keep,
  signal_strong,
  wait_comm,
  wait_relaxed
};
inline constexpr const char* kMmNames[] = {"strict",    "relaxed",       "scope-device", "scope-node",  "coverage-comm",
                                           "data-keep", "signal-strong", "wait-comm",    "wait-relaxed"};
inline constexpr int kMmCount = int(sizeof kMmNames / sizeof kMmNames[0]);
/// The category a one-qualifier variant changes (0: strict and relaxed, which every program runs).
inline constexpr unsigned kMmChanges[] = {
    0, 0, qual::scope, qual::scope, qual::coverage, qual::data_path, qual::signal, qual::acquire, qual::acquire};
/// The category each variant changes, in words (docs/memory_model.md's names), for the skip lines.
inline constexpr const char* kMmCategory[] = {
    "", "", "scope", "scope", "coverage", "data path", "signal strength", "acquire strength", "acquire strength"};
/// What each variant changes, for -h.
inline constexpr const char* kMmWhat[] = {
    "every call with OpenSHMEM's defaults: coverage all, scope system, data bypass, acquire wait, weak signal",
    "the qualified calls the memory model allows for the benchmark (README.md)",
    "strict with mm::device scope on fence, quiet, signal_op, put_signal and the waits (peer on this GPU only)",
    "strict with mm::node scope on the same calls (peer on this node only)",
    "strict with mm::comm coverage on fence, quiet, signal_op and put_signal",
    "strict with the mm::keep data path on puts, gets and put_signal",
    "strict with the mm::strong signal on put_signal",
    "strict with acquire strength mm::comm on wait_until and signal_wait_until",
    "strict with acquire strength mm::relaxed on wait_until and signal_wait_until",
};

/// The qualifier categories the portshmem calls of program p take (a variant changing another one is skipped), and
/// those calls, for the line that says so.
constexpr unsigned quals_of(program p) {
  constexpr unsigned order = qual::coverage | qual::scope; // quiet, fence
  switch (p) {
  case program::put_bw:
  case program::get_bw:
  case program::put_bibw:
  case program::put_msg_rate:
  case program::put_latency:
    return order | qual::data_path; // put_nbi / get_nbi, quiet
  case program::p_bw:
  case program::atomic_bw:
  case program::p_latency:
  case program::atomic_latency:
    return order; // p or AMOs (no qualifier), quiet
  case program::get_latency:
    return qual::data_path; // blocking get only
  case program::g_latency:
    return 0; // g only
  case program::put_ping_pong_latency:
    return order | qual::data_path | qual::acquire; // put_nbi, fence, signal_op, wait_until, quiet
  case program::put_signal_ping_pong_latency:
    return order | qual::data_path | qual::acquire | qual::signal; // putmem_signal_nbi, signal_wait_until, quiet
  }
  return 0;
}
constexpr const char* calls_of(program p) {
  switch (p) {
  case program::put_bw:
  case program::put_bibw:
  case program::put_msg_rate:
  case program::put_latency:
    return "put_nbi, quiet";
  case program::get_bw:
    return "get_nbi, quiet";
  case program::p_bw:
  case program::p_latency:
    return "p, quiet";
  case program::atomic_bw:
  case program::atomic_latency:
    return "AMOs, quiet";
  case program::get_latency:
    return "get";
  case program::g_latency:
    return "g";
  case program::put_ping_pong_latency:
    return "put_nbi, fence, signal_op, wait_until, quiet";
  case program::put_signal_ping_pong_latency:
    return "putmem_signal_nbi, signal_wait_until, quiet";
  }
  return "";
}

/// Whether variant v changes a call of program p (strict and relaxed: always run).
constexpr bool applies(mm_set v, program p) {
  return kMmChanges[int(v)] == 0 || (kMmChanges[int(v)] & quals_of(p)) != 0;
}

/// The qualifier categories the programs of family f take together: the variants its kernels are compiled for.
constexpr unsigned family_quals(family f) {
  unsigned q = 0;
  for (const program_info& i : kPrograms) q |= i.fam == f ? quals_of(i.id) : 0u;
  return q;
}
constexpr bool compiled_for(mm_set v, family f) {
  return kMmChanges[int(v)] == 0 || (kMmChanges[int(v)] & family_quals(f)) != 0;
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
