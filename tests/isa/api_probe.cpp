// ISA probe of the public device API: one small extern "C" kernel per (call x qualifier combination that matters),
// written with the public API only (portshmem::ctx by value), compiled by tests/isa/check_api.sh for gfx90a, gfx942
// and sm_90 and checked by tests/isa/api_lowering.py, which also writes docs/lowering.md from what it finds.
//
// Kernel names follow one convention the checker parses: <call>__<qualifier>_<qualifier>... (qualifier words are the
// mm:: tag names, plus set/add for signal ops, "default" for a call with none, and context words: char / short (the
// element type), stack / shared (where the local buffer lives), relay (a put of what a wait just acquired)). Two
// pseudo-calls keep a cold branch: error_path__* and strict__<call>_<qualifiers>. A probe marks the call(s) under
// test with REGION_BEGIN / REGION_END (inline-asm comments with a memory clobber: compiler barriers that emit no
// instruction); the checker takes the instructions reachable from the begin marker without passing the end marker
// (control flow, not text order: the compiler lays blocks out as it likes). The rest of the kernel is the context that
// makes the call meaningful (e.g. a bypass put before a fence, a flag p after it).
//
// Every probe clears its copy of ctx::error first. The argument checks stay (remote_range, is_local_symmetric), but
// record_error's body — a cold path taken only by a bad call, which ends in fence<release, system>, i.e. a
// buffer_wbl2 on AMD and a fence.acq_rel.sys on NVIDIA — folds away, so what is counted is the path a correct program
// executes. One probe (error_path__put) keeps it, to show what that cold path costs. Likewise every probe clears
// ctx::strict (NOT_STRICT), so the documented lowering is the relaxed one; the strict__* probes keep the flag, and
// the checker asserts that their strict branch holds what the default (all / acquire / system) lowering holds.
//
// Optional parts (AMOs, signals, wait_vector) are compiled once their headers exist in include/portshmem/.
#include "portshmem/portshmem.hpp"
#if __has_include("portshmem/amo.hpp")
#include "portshmem/amo.hpp"
#define API_PROBE_HAVE_AMO 1
#endif
#if __has_include("portshmem/signal.hpp")
#include "portshmem/signal.hpp"
#define API_PROBE_HAVE_SIGNAL 1
#endif
#if __has_include("portshmem/wait_vector.hpp")
#include "portshmem/wait_vector.hpp"
#define API_PROBE_HAVE_WAIT_VECTOR 1
#endif

namespace ps = portshmem;
namespace mm = portshmem::mm;
using u64 = std::uint64_t;

#define PROBE extern "C" PORTSHMEM_GLOBAL void
#if PORTSHMEM_PLATFORM_NVIDIA
#define API_PROBE_MARK(TEXT) asm volatile("// @@region " TEXT ::: "memory")
#else
#define API_PROBE_MARK(TEXT) asm volatile("; @@region " TEXT ::: "memory")
#endif
#define REGION_BEGIN API_PROBE_MARK("begin")
#define REGION_END API_PROBE_MARK("end")
#define NO_ERROR_RECORD c.error = nullptr
// Every probe but the strict__* ones also clears ctx::strict: what the docs show is the relaxed lowering, and the
// strict fallback (a uniform branch on the flag, detail/publish.hpp) folds away; the strict__* probes keep it.
#define NOT_STRICT c.strict = 0
// Every probe but the proxy__* ones also clears ctx::proxy_rings (NO_PROXY): a job whose peers are all mapped has no
// ring table, and then every branch to the RDMA transport (transport/dispatch.hpp) folds away, so the tables show the
// load/store transport's code exactly. The proxy__* probes keep the table: the code of the proxy path.
#define NO_PROXY c.proxy_rings = nullptr

// ---- fence / quiet / pe_quiet: a bypass put before (4 ints: a small copy), a flag p after ---------------------------
#define ORDERING_PROBE(CALL, NAME, ...)                                                                                \
  PROBE CALL##__##NAME(ps::ctx c, int* d, const int* s, int* f, int pe) {                                              \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    ps::put(c, d, s, 4, pe);                                                                                           \
    REGION_BEGIN;                                                                                                      \
    ps::CALL(c, ##__VA_ARGS__);                                                                                        \
    REGION_END;                                                                                                        \
    ps::p(c, f, 1, pe);                                                                                                \
  }
#define ORDERING_PROBES(CALL)                                                                                          \
  ORDERING_PROBE(CALL, default)                                                                                        \
  ORDERING_PROBE(CALL, all_device, mm::all, mm::device)                                                                \
  ORDERING_PROBE(CALL, all_node, mm::all, mm::node)                                                                    \
  ORDERING_PROBE(CALL, all_system, mm::all, mm::system)                                                                \
  ORDERING_PROBE(CALL, comm_device, mm::comm, mm::device)                                                              \
  ORDERING_PROBE(CALL, comm_node, mm::comm, mm::node)                                                                  \
  ORDERING_PROBE(CALL, comm_system, mm::comm, mm::system)
ORDERING_PROBES(fence)
ORDERING_PROBES(quiet)

PROBE pe_quiet__comm_system(ps::ctx c, int* d, const int* s, int* f, const int* pes, int pe) {
  NO_ERROR_RECORD;
  NO_PROXY;
  NOT_STRICT;
  ps::put(c, d, s, 4, pe);
  REGION_BEGIN;
  ps::pe_quiet(c, pes, 1, mm::comm, mm::system);
  REGION_END;
  ps::p(c, f, 1, pe);
}
PROBE pe_quiet__all_system(ps::ctx c, int* d, const int* s, int* f, const int* pes, int pe) {
  NO_ERROR_RECORD;
  NO_PROXY;
  NOT_STRICT;
  ps::put(c, d, s, 4, pe);
  REGION_BEGIN;
  ps::pe_quiet(c, pes, 1, mm::all, mm::system);
  REGION_END;
  ps::p(c, f, 1, pe);
}

// ---- puts: data path, thread and block forms, blocking and nbi (no scope: the data is coherent at system scope) -----
#define PUT_PROBE(CALL, T, NAME, ...)                                                                                  \
  PROBE CALL##__##NAME(ps::ctx c, T* d, const T* s, std::size_t n, int pe) {                                           \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    ps::CALL(c, d, s, n, pe, ##__VA_ARGS__);                                                                           \
    REGION_END;                                                                                                        \
  }
#define PUT_PROBES(CALL, T)                                                                                            \
  PUT_PROBE(CALL, T, default)                                                                                          \
  PUT_PROBE(CALL, T, bypass, mm::bypass)                                                                               \
  PUT_PROBE(CALL, T, keep, mm::keep)
PUT_PROBES(put, int)
PUT_PROBES(putmem_block, void)
// nbi: on load/store transports the same copy as the blocking form (what differs is what the caller may assume).
PUT_PROBES(putmem_nbi_block, void)
// get: the loads always read coherently; the data path is that of the local stores into dest.
PUT_PROBE(get, int, bypass, mm::bypass)
PUT_PROBE(get, int, keep, mm::keep)

// ---- the local side in private or shared memory (bypass accesses need global memory: the copy must use plain
// private / LDS accesses there, never a .global or cache-bypassing one) --------------------------------------------
PROBE get__stack(ps::ctx c, const int* s, std::size_t n, int* out, int pe) {
  NO_ERROR_RECORD;
  NO_PROXY;
  NOT_STRICT;
  int buf[16];
  REGION_BEGIN;
  ps::get(c, buf, s, n < 16 ? n : 16, pe);
  REGION_END;
  for (int i = 0; i < 16; i += 4) out[i] = buf[(i + n) % 16];
}
PROBE put__stack(ps::ctx c, int* d, const int* in, std::size_t n, int pe) {
  NO_ERROR_RECORD;
  NO_PROXY;
  NOT_STRICT;
  int buf[16];
  for (int i = 0; i < 16; ++i) buf[(i * 7 + n) % 16] = in[i];
  REGION_BEGIN;
  ps::put(c, d, buf, n < 16 ? n : 16, pe);
  REGION_END;
}
PROBE put__shared(ps::ctx c, int* d, const int* in, std::size_t n, int pe) {
  NO_ERROR_RECORD;
  NO_PROXY;
  NOT_STRICT;
  __shared__ int buf[256];
  buf[ps::arch::thread_rank()] = in[ps::arch::thread_rank()];
  ps::arch::block_sync();
  REGION_BEGIN;
  ps::put(c, d, buf, n < 256 ? n : 256, pe);
  REGION_END;
}

// ---- a relay: the put's source is what a wait<comm> just acquired (it must be read coherently, not from a stale
// cached copy) ------------------------------------------------------------------------------------------------------
PROBE putmem__relay(ps::ctx c, char* d, const char* buf, std::size_t n, int* f, int pe) {
  NO_ERROR_RECORD;
  NO_PROXY;
  NOT_STRICT;
  ps::wait_until(c, f, ps::cmp::eq, 1, mm::comm);
  REGION_BEGIN;
  ps::putmem(c, d, buf, n, pe);
  REGION_END;
}

// ---- the publish pattern: put; fence; p ----------------------------------------------------------------------------
#define PUBLISH_PROBE(NAME, PATH, COVER)                                                                               \
  PROBE publish__##NAME(ps::ctx c, int* d, const int* s, int* f, int pe) {                                             \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    ps::put(c, d, s, 4, pe, PATH);                                                                                     \
    ps::fence(c, COVER);                                                                                               \
    ps::p(c, f, 1, pe);                                                                                                \
    REGION_END;                                                                                                        \
  }
PUBLISH_PROBE(bypass_comm, mm::bypass, mm::comm)
PUBLISH_PROBE(keep_comm, mm::keep, mm::comm)
PUBLISH_PROBE(bypass_all, mm::bypass, mm::all)
PUBLISH_PROBE(keep_all, mm::keep, mm::all)

// ---- block put completed by quiet ----------------------------------------------------------------------------------
#define BLOCK_QUIET_PROBE(NAME, ...)                                                                                   \
  PROBE putmem_block_quiet__##NAME(ps::ctx c, char* d, const char* s, std::size_t n, int* f, int pe) {                 \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    ps::putmem_block(c, d, s, n, pe);                                                                                  \
    ps::quiet(c, __VA_ARGS__);                                                                                         \
    REGION_END;                                                                                                        \
    if (ps::arch::thread_rank() == 0) ps::p(c, f, 1, pe);                                                              \
  }
BLOCK_QUIET_PROBE(comm_system, mm::comm, mm::system)
BLOCK_QUIET_PROBE(all_system, mm::all, mm::system)

// ---- waits: acquire strength x scope, followed by a comm read (g: a bypass load) ------------------------------------
#define WAIT_PROBE(NAME, ...)                                                                                          \
  PROBE wait_until__##NAME(ps::ctx c, int* f, const int* s, int* out, int pe) {                                        \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    ps::wait_until(c, f, ps::cmp::eq, 1, ##__VA_ARGS__);                                                               \
    REGION_END;                                                                                                        \
    out[0] = ps::g(c, s, pe);                                                                                          \
  }
WAIT_PROBE(default)
WAIT_PROBE(acquire_device, mm::acquire, mm::device)
WAIT_PROBE(acquire_system, mm::acquire, mm::system)
WAIT_PROBE(comm_device, mm::comm, mm::device)
WAIT_PROBE(comm_system, mm::comm, mm::system)
WAIT_PROBE(relaxed_device, mm::relaxed, mm::device)
WAIT_PROBE(relaxed_system, mm::relaxed, mm::system)

#define TEST_PROBE(NAME, ...)                                                                                          \
  PROBE test__##NAME(ps::ctx c, int* f, const int* s, int* out, int pe) {                                              \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    const bool ok = ps::test(c, f, ps::cmp::eq, 1, ##__VA_ARGS__);                                                     \
    REGION_END;                                                                                                        \
    if (ok) out[0] = ps::g(c, s, pe);                                                                                  \
  }
TEST_PROBE(acquire_system, mm::acquire, mm::system)
TEST_PROBE(comm_system, mm::comm, mm::system)
TEST_PROBE(relaxed_system, mm::relaxed, mm::system)

// ---- barriers ------------------------------------------------------------------------------------------------------
#define BARRIER_PROBE(CALL, NAME, ...)                                                                                 \
  PROBE CALL##__##NAME(ps::ctx c) {                                                                                    \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    ps::CALL(c, ##__VA_ARGS__);                                                                                        \
    REGION_END;                                                                                                        \
  }
BARRIER_PROBE(barrier_all_block, default)
BARRIER_PROBE(barrier_all_block, all_system, mm::all, mm::system)
BARRIER_PROBE(barrier_all_block, comm_system, mm::comm, mm::system)
BARRIER_PROBE(barrier_all_block, comm_device, mm::comm, mm::device)
BARRIER_PROBE(sync_all_block, default)
BARRIER_PROBE(sync_all_block, device, mm::device)

// ---- p / g: one coherent access of the element's size (no qualifier) ----------------------------------------------
#define PG_PROBE(NAME, T)                                                                                              \
  PROBE p__##NAME(ps::ctx c, T* d, T v, int pe) {                                                                      \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    ps::p(c, d, v, pe);                                                                                                \
    REGION_END;                                                                                                        \
  }                                                                                                                    \
  PROBE g__##NAME(ps::ctx c, const T* s, T* out, int pe) {                                                             \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    const T r = ps::g(c, s, pe);                                                                                       \
    REGION_END;                                                                                                        \
    out[0] = r;                                                                                                        \
  }
PG_PROBE(default, int)
PG_PROBE(char, char)
PG_PROBE(short, short)

// ---- sub-word waits: the poll is one atomic load of the variable's size -------------------------------------------
#define SUBWORD_WAIT_PROBE(T, NAME, ...)                                                                               \
  PROBE wait_until__##NAME(ps::ctx c, T* f, const int* s, int* out, int pe) {                                          \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    ps::wait_until(c, f, ps::cmp::eq, T(1), ##__VA_ARGS__);                                                            \
    REGION_END;                                                                                                        \
    out[0] = ps::g(c, s, pe);                                                                                          \
  }                                                                                                                    \
  PROBE test__##NAME(ps::ctx c, T* f, const int* s, int* out, int pe) {                                                \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    const bool ok = ps::test(c, f, ps::cmp::eq, T(1), ##__VA_ARGS__);                                                  \
    REGION_END;                                                                                                        \
    if (ok) out[0] = ps::g(c, s, pe);                                                                                  \
  }
SUBWORD_WAIT_PROBE(char, char)
SUBWORD_WAIT_PROBE(short, short_comm_device, mm::comm, mm::device)

// ---- the cold error path, kept once (see the top of the file) -------------------------------------------------------
PROBE error_path__put(ps::ctx c, int* d, const int* s, int pe) {
  NOT_STRICT;
  NO_PROXY;
  REGION_BEGIN;
  ps::put(c, d, s, 5, pe); // 20 bytes: the copy path alone (4, 8 and 16 bytes also have the word path, a second record)
  REGION_END;
}

// ---- the strict fallback, kept: a relaxed call's uniform branch on ctx::strict to its default lowering -------------
#define STRICT_ORDERING_PROBE(CALL, NAME, ...)                                                                         \
  PROBE strict__##CALL##_##NAME(ps::ctx c, int* d, const int* s, int* f, int pe) {                                     \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    ps::put(c, d, s, 4, pe);                                                                                           \
    REGION_BEGIN;                                                                                                      \
    ps::CALL(c, ##__VA_ARGS__);                                                                                        \
    REGION_END;                                                                                                        \
    ps::p(c, f, 1, pe);                                                                                                \
  }
STRICT_ORDERING_PROBE(fence, comm_system, mm::comm, mm::system)
STRICT_ORDERING_PROBE(fence, comm_device, mm::comm, mm::device)
STRICT_ORDERING_PROBE(quiet, comm_device, mm::comm, mm::device)
#define STRICT_WAIT_PROBE(NAME, ...)                                                                                   \
  PROBE strict__wait_##NAME(ps::ctx c, int* f, const int* s, int* out, int pe) {                                       \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    REGION_BEGIN;                                                                                                      \
    ps::wait_until(c, f, ps::cmp::eq, 1, ##__VA_ARGS__);                                                               \
    REGION_END;                                                                                                        \
    out[0] = ps::g(c, s, pe);                                                                                          \
  }
STRICT_WAIT_PROBE(comm, mm::comm)
STRICT_WAIT_PROBE(relaxed_device, mm::relaxed, mm::device)

// ---- AMOs (no qualifier) -------------------------------------------------------------------------------------
#ifdef API_PROBE_HAVE_AMO
#define AMO_PROBES(NAME, ...)                                                                                          \
  PROBE atomic_fetch_add__##NAME(ps::ctx c, u64* d, u64 v, u64* out, int pe) {                                         \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    const u64 r = ps::atomic_fetch_add(c, d, v, pe, ##__VA_ARGS__);                                                    \
    REGION_END;                                                                                                        \
    out[0] = r;                                                                                                        \
  }                                                                                                                    \
  PROBE atomic_compare_swap__##NAME(ps::ctx c, u64* d, u64 e, u64 v, u64* out, int pe) {                               \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    const u64 r = ps::atomic_compare_swap(c, d, e, v, pe, ##__VA_ARGS__);                                              \
    REGION_END;                                                                                                        \
    out[0] = r;                                                                                                        \
  }                                                                                                                    \
  PROBE atomic_set__##NAME(ps::ctx c, u64* d, u64 v, int pe) {                                                         \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    ps::atomic_set(c, d, v, pe, ##__VA_ARGS__);                                                                        \
    REGION_END;                                                                                                        \
  }
AMO_PROBES(default)
PROBE atomic_add__default(ps::ctx c, u64* d, u64 v, int pe) {
  NO_ERROR_RECORD;
  NO_PROXY;
  NOT_STRICT;
  REGION_BEGIN;
  ps::atomic_add(c, d, v, pe);
  REGION_END;
}
PROBE atomic_fetch__default(ps::ctx c, const u64* s, u64* out, int pe) {
  NO_ERROR_RECORD;
  NO_PROXY;
  NOT_STRICT;
  REGION_BEGIN;
  const u64 r = ps::atomic_fetch(c, s, pe);
  REGION_END;
  out[0] = r;
}
#endif

// ---- signals: put_signal strength x coverage x update, signal_op, signal_wait_until --------------------------------
#ifdef API_PROBE_HAVE_SIGNAL
#define PUT_SIGNAL_PROBE(CALL, NAME, OP, ...)                                                                          \
  PROBE CALL##__##NAME(ps::ctx c, int* d, const int* s, u64* sig, int pe) {                                            \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    ps::CALL(c, d, s, 4, sig, u64{1}, ps::OP, pe, ##__VA_ARGS__);                                                      \
    REGION_END;                                                                                                        \
  }
#define PUT_SIGNAL_PROBES(CALL, OPNAME, OP)                                                                            \
  PUT_SIGNAL_PROBE(CALL, weak_all_##OPNAME, OP, mm::weak, mm::all)                                                     \
  PUT_SIGNAL_PROBE(CALL, weak_comm_##OPNAME, OP, mm::weak, mm::comm)                                                   \
  PUT_SIGNAL_PROBE(CALL, strong_all_##OPNAME, OP, mm::strong, mm::all)                                                 \
  PUT_SIGNAL_PROBE(CALL, strong_comm_##OPNAME, OP, mm::strong, mm::comm)
PUT_SIGNAL_PROBES(put_signal, set, signal_set)
PUT_SIGNAL_PROBES(put_signal, add, signal_add)
PUT_SIGNAL_PROBE(put_signal, default_set, signal_set)
PUT_SIGNAL_PROBE(put_signal, weak_comm_set_device, signal_set, mm::weak, mm::comm, mm::device)
PUT_SIGNAL_PROBE(put_signal, weak_all_set_keep, signal_set, mm::weak, mm::all, mm::keep)
PUT_SIGNAL_PROBE(put_signal_nbi, weak_comm_add, signal_add, mm::weak, mm::comm)
PUT_SIGNAL_PROBE(put_signal_nbi, strong_comm_add, signal_add, mm::strong, mm::comm)
PUT_SIGNAL_PROBE(put_signal_block, weak_comm_set, signal_set, mm::weak, mm::comm)
PUT_SIGNAL_PROBE(put_signal_block, weak_all_set, signal_set, mm::weak, mm::all)
PROBE strict__put_signal_comm(ps::ctx c, int* d, const int* s, u64* sig, int pe) {
  NO_ERROR_RECORD;
  NO_PROXY;
  REGION_BEGIN;
  ps::put_signal(c, d, s, 4, sig, u64{1}, ps::signal_set, pe, mm::comm);
  REGION_END;
}

#define SIGNAL_OP_PROBE(NAME, OP, ...)                                                                                 \
  PROBE signal_op__##NAME(ps::ctx c, u64* sig, u64 v, int pe) {                                                        \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    ps::signal_op(c, sig, v, ps::OP, pe, ##__VA_ARGS__);                                                               \
    REGION_END;                                                                                                        \
  }
SIGNAL_OP_PROBE(all_set, signal_set, mm::all)
SIGNAL_OP_PROBE(all_add, signal_add, mm::all)
SIGNAL_OP_PROBE(comm_set, signal_set, mm::comm)
SIGNAL_OP_PROBE(comm_add, signal_add, mm::comm)
SIGNAL_OP_PROBE(comm_add_device, signal_add, mm::comm, mm::device)

#define SIGNAL_WAIT_PROBE(NAME, ...)                                                                                   \
  PROBE signal_wait_until__##NAME(ps::ctx c, u64* sig, const int* s, int* out, int pe) {                               \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    const u64 seen = ps::signal_wait_until(c, sig, ps::cmp::ge, u64{1}, ##__VA_ARGS__);                                \
    REGION_END;                                                                                                        \
    out[0] = ps::g(c, s, pe) + int(seen);                                                                              \
  }
SIGNAL_WAIT_PROBE(default)
SIGNAL_WAIT_PROBE(acquire_device, mm::acquire, mm::device)
SIGNAL_WAIT_PROBE(acquire_system, mm::acquire, mm::system)
SIGNAL_WAIT_PROBE(comm_system, mm::comm, mm::system)
SIGNAL_WAIT_PROBE(relaxed_system, mm::relaxed, mm::system)
#endif

// ---- waits on arrays (status nullptr: every element takes part; a status array only adds plain loads of the
// caller's own array, which order nothing) ------------------------------------------------------------------
#ifdef API_PROBE_HAVE_WAIT_VECTOR
#define WAIT_VECTOR_PROBE(CALL, NAME, ...)                                                                             \
  PROBE CALL##__##NAME(ps::ctx c, int* f, std::size_t n, const int* s, int* out, int pe) {                             \
    NO_ERROR_RECORD;                                                                                                   \
    NO_PROXY;                                                                                                          \
    NOT_STRICT;                                                                                                        \
    REGION_BEGIN;                                                                                                      \
    ps::CALL(c, f, n, nullptr, ps::cmp::eq, 1, ##__VA_ARGS__);                                                         \
    REGION_END;                                                                                                        \
    out[0] = ps::g(c, s, pe);                                                                                          \
  }
WAIT_VECTOR_PROBE(wait_until_all, acquire_system, mm::acquire, mm::system)
WAIT_VECTOR_PROBE(wait_until_all, comm_system, mm::comm, mm::system)
WAIT_VECTOR_PROBE(wait_until_all, relaxed_system, mm::relaxed, mm::system)
WAIT_VECTOR_PROBE(wait_until_any, acquire_device, mm::acquire, mm::device)
WAIT_VECTOR_PROBE(wait_until_any, comm_system, mm::comm, mm::system)
WAIT_VECTOR_PROBE(test_any, acquire_system, mm::acquire, mm::system)
WAIT_VECTOR_PROBE(test_any, relaxed_system, mm::relaxed, mm::system)
PROBE wait_until_some__comm_system(ps::ctx c, int* f, std::size_t n, std::size_t* idx, const int* s, int* out, int pe) {
  NO_ERROR_RECORD;
  NO_PROXY;
  NOT_STRICT;
  REGION_BEGIN;
  const std::size_t k = ps::wait_until_some(c, f, n, idx, nullptr, ps::cmp::eq, 1, mm::comm, mm::system);
  REGION_END;
  out[0] = ps::g(c, s, pe) + int(k);
}
#endif
