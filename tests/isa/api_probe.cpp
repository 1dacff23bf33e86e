// ISA probe of the public device API: one small extern "C" kernel per (call x qualifier combination that matters),
// written with the public API only (portshmem::ctx by value), compiled by tests/isa/check_api.sh for gfx90a, gfx942
// and sm_90 and checked by tests/isa/api_lowering.py, which also writes docs/lowering.md from what it finds.
//
// Kernel names follow one convention the checker parses: <call>__<qualifier>_<qualifier>... (qualifier words are the
// mm:: tag names, plus set/add for signal ops and "default" for a call with none). A probe marks the call(s) under
// test with REGION_BEGIN / REGION_END (inline-asm comments with a memory clobber: compiler barriers that emit no
// instruction); the checker counts and prints the instructions between the markers, the rest of the kernel is the
// context that makes the call meaningful (e.g. bypass puts before a fence, a flag p after it).
//
// Every probe clears its copy of ctx::error first. The argument checks stay (remote_range, is_local_symmetric), but
// record_error's body — a cold path taken only by a bad call, which ends in fence<release, system>, i.e. a
// buffer_wbl2 on AMD and a fence.acq_rel.sys on NVIDIA — folds away, so what is counted is the path a correct program
// executes. One probe (error_path__put) keeps it, to show what that cold path costs.
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

// ---- fence / quiet / pe_quiet: bypass puts before, a flag p after ---------------------------------------------------
#define ORDERING_PROBE(CALL, NAME, ...)                                                                                \
  PROBE CALL##__##NAME(ps::ctx c, int* d, const int* s, int* f, int pe) {                            \
    NO_ERROR_RECORD;                                                                                                   \
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
  ps::put(c, d, s, 4, pe);
  REGION_BEGIN;
  ps::pe_quiet(c, pes, 1, mm::comm, mm::system);
  REGION_END;
  ps::p(c, f, 1, pe);
}
PROBE pe_quiet__all_system(ps::ctx c, int* d, const int* s, int* f, const int* pes, int pe) {
  NO_ERROR_RECORD;
  ps::put(c, d, s, 4, pe);
  REGION_BEGIN;
  ps::pe_quiet(c, pes, 1, mm::all, mm::system);
  REGION_END;
  ps::p(c, f, 1, pe);
}

// ---- puts: data path x scope, thread and block forms, blocking and nbi ----------------------------------------------
#define PUT_PROBE(CALL, T, NAME, ...)                                                                                  \
  PROBE CALL##__##NAME(ps::ctx c, T* d, const T* s, std::size_t n, int pe) {                                          \
    NO_ERROR_RECORD;                                                                                                   \
    REGION_BEGIN;                                                                                                      \
    ps::CALL(c, d, s, n, pe, ##__VA_ARGS__);                                                                           \
    REGION_END;                                                                                                        \
  }
#define PUT_PROBES(CALL, T)                                                                                            \
  PUT_PROBE(CALL, T, default)                                                                                          \
  PUT_PROBE(CALL, T, bypass_device, mm::bypass, mm::device)                                                            \
  PUT_PROBE(CALL, T, bypass_system, mm::bypass, mm::system)                                                            \
  PUT_PROBE(CALL, T, keep_device, mm::keep, mm::device)                                                                \
  PUT_PROBE(CALL, T, keep_system, mm::keep, mm::system)
PUT_PROBES(put, int)
PUT_PROBES(putmem_block, void)
PUT_PROBES(putmem_nbi_block, void)
// get: the loads always bypass; the data path is that of the local stores into dest.
PUT_PROBE(get, int, bypass_system, mm::bypass, mm::system)
PUT_PROBE(get, int, keep_system, mm::keep, mm::system)

// ---- the publish pattern: put; fence; p ----------------------------------------------------------------------------
#define PUBLISH_PROBE(NAME, PATH, COVER)                                                                               \
  PROBE publish__##NAME(ps::ctx c, int* d, const int* s, std::size_t n, int* f, int pe) {                             \
    NO_ERROR_RECORD;                                                                                                   \
    REGION_BEGIN;                                                                                                      \
    ps::put(c, d, s, n, pe, PATH);                                                                                     \
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
  PROBE putmem_block_quiet__##NAME(ps::ctx c, char* d, const char* s, std::size_t n, int* f, int pe) {                \
    NO_ERROR_RECORD;                                                                                                   \
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
  PROBE wait_until__##NAME(ps::ctx c, int* f, const int* s, int* out, int pe) {                                       \
    NO_ERROR_RECORD;                                                                                                   \
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
  PROBE test__##NAME(ps::ctx c, int* f, const int* s, int* out, int pe) {                                             \
    NO_ERROR_RECORD;                                                                                                   \
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
  PROBE CALL##__##NAME(ps::ctx c) {                                                                                   \
    NO_ERROR_RECORD;                                                                                                   \
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

// ---- p / g x scope -------------------------------------------------------------------------------------------------
#define PG_PROBE(NAME, ...)                                                                                            \
  PROBE p__##NAME(ps::ctx c, int* d, int v, int pe) {                                                                 \
    NO_ERROR_RECORD;                                                                                                   \
    REGION_BEGIN;                                                                                                      \
    ps::p(c, d, v, pe, ##__VA_ARGS__);                                                                                 \
    REGION_END;                                                                                                        \
  }                                                                                                                   \
  PROBE g__##NAME(ps::ctx c, const int* s, int* out, int pe) {                                                        \
    NO_ERROR_RECORD;                                                                                                   \
    REGION_BEGIN;                                                                                                      \
    const int r = ps::g(c, s, pe, ##__VA_ARGS__);                                                                      \
    REGION_END;                                                                                                        \
    out[0] = r;                                                                                                        \
  }
PG_PROBE(default)
PG_PROBE(device, mm::device)
PG_PROBE(node, mm::node)
PG_PROBE(system, mm::system)

// ---- the cold error path, kept once (see the top of the file) -------------------------------------------------------
PROBE error_path__put(ps::ctx c, int* d, const int* s, std::size_t n, int pe) {
  REGION_BEGIN;
  ps::put(c, d, s, n, pe);
  REGION_END;
}

// @@optional
