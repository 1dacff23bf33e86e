// The interface between the litmus runner's host driver (plain C++, with the model) and its kernels (device code):
// one litmus thread encoded as a flat array of POD ops, and the arguments of one batch of instances. Nothing here
// depends on the model's AST or on the device API, so both sides compile it with their own compiler.
#pragma once

#include <cstdint>

#include "portshmem/ctx.h"

namespace litmus_runner {

// Op kinds and qualifier values are the numeric values of the model's enums (model/litmus.hpp: OpKind, Coverage,
// Scope, DataPath, Strength, SignalStrength, SignalUpdate, Cmp); encode.cpp checks the correspondence at compile time.
enum : std::uint8_t {
  kPut,
  kP,
  kPutNbi,
  kGet,
  kG,
  kGetNbi,
  kAmoFetch,
  kAmoSet,
  kAmoSwap,
  kAmoCompareSwap,
  kAmoFetchInc,
  kAmoInc,
  kAmoFetchAdd,
  kAmoAdd,
  kAmoFetchAnd,
  kAmoAnd,
  kAmoFetchOr,
  kAmoOr,
  kAmoFetchXor,
  kAmoXor,
  kPutSignal,
  kPutSignalNbi,
  kSignalOp,
  kSignalFetch,
  kSignalWait,
  kWaitUntil,
  kTest,
  kFence,
  kQuiet,
  kPeQuiet,
  kBarrierAll,
  kSyncAll,
  kStore,
  kLoad,
  kBypassLoad,
  kOpKinds
};
enum : std::uint8_t { kCoverAll, kCoverComm };
enum : std::uint8_t { kScopeDevice, kScopeNode, kScopeSystem };
enum : std::uint8_t { kPathKeep, kPathBypass };
enum : std::uint8_t { kAcquire, kAcquireComm, kRelaxed };
enum : std::uint8_t { kWeak, kStrong };
enum : std::uint8_t { kUpdateSet, kUpdateAdd };
enum : std::uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

/// How a wait runs without ever hanging: poll with the call's own relaxed load until the condition holds (bounded
/// by the batch deadline), then call the real wait_until / signal_wait_until, which returns at once — sound only when
/// no later write can make the condition false again (kWaitStable, decided by encode.cpp from every write of the
/// test); otherwise the API's `test` with the same qualifiers is called in a bounded loop (kWaitByTest).
enum : std::uint8_t { kWaitStable, kWaitByTest };

/// One call of a litmus thread, with every PE already mapped to a real PE and every location to a word offset in
/// the runner's symmetric buffer (the instance's word is added at run time).
struct DevOp {
  std::int64_t value = 0;    // value written / operand / compared value; put's source (stable device memory; its first
                             // `width` bytes are the typed value on little-endian machines)
  std::int64_t value2 = 0;   // compare_swap new value, put_signal signal value
  std::uint64_t off = 0;     // word offset of the accessed location's array (loc)
  std::uint64_t off2 = 0;    // word offset of loc2 (put_signal signal, get_nbi destination)
  std::uint64_t src_off = 0; // relay put: word offset of the source location (the caller's own copy is copied)
  std::int32_t pe = -1;      // real PE holding loc
  std::int32_t pe2 = -1;     // real PE of loc2, or the PE of pe_quiet
  std::int32_t reg = -1;     // register slot in this thread's register block, -1 when the op writes none
  std::uint8_t kind = kFence, cover = kCoverAll, scope = kScopeSystem, path = kPathKeep;
  std::uint8_t strength = kAcquire, signal = kWeak, update = kUpdateSet, cmp = kEq;
  std::uint8_t wait_mode = kWaitStable;
  std::uint8_t width = 8; // bytes of loc's type (u8 1, u16 2, u32 4, u64 8); the slot is a word either way
  std::uint8_t relay = 0; // 1: a put's source is the caller's instance word at src_off, not `value`
  std::uint8_t pad[5] = {};
};

/// What this PE does in a batch.
enum : std::int32_t {
  kRoleStress = 0,  // no litmus thread here: stress threads only
  kRoleThread = 1,  // plays one litmus thread
  kRoleBarriers = 2 // serial mode, no litmus thread here: takes part in the test's barrier_all / sync_all calls only
};

/// Arguments of one batch kernel (passed by value). Symmetric pointers are this PE's addresses of symmetric objects.
struct BatchArgs {
  portshmem_ctx_t ctx;
  const DevOp* ops = nullptr; // device memory, nops entries
  std::int32_t nops = 0;
  std::int32_t role = kRoleStress;
  std::int64_t* heap = nullptr;        // symmetric: the test's locations, [sym][instance * stride]
  std::uint64_t* rendezvous = nullptr; // symmetric: [instance][2] counter and start time, used on PE `leader`
  std::uint64_t* done = nullptr;       // symmetric: finished worker threads, used on PE 0
  std::uint64_t* stress = nullptr;     // symmetric: the stress threads' playground
  std::uint64_t stress_words = 0;
  std::int64_t* regs = nullptr;        // private: [instance][nregs], each register `stride` words apart
  std::int32_t* stuck = nullptr;       // private: [instance], 1 when a wait gave up
  const std::uint32_t* perm = nullptr; // private: the order in which instances are run (same on every PE)
  std::uint32_t n = 0;                 // instances in this batch
  std::uint32_t stride = 1;            // words between two instances of one location (and between two registers)
  std::uint32_t nregs = 0;
  std::uint32_t worker_threads = 0; // threads of this launch that run instances (the first blocks)
  std::int32_t leader = 0;          // PE holding the rendezvous counters
  std::int32_t participants = 0;    // litmus threads that meet at each instance's rendezvous (0: no rendezvous)
  std::uint64_t workers_total = 0;  // worker threads of all PEs: the stress threads stop when `done` reaches it
  std::uint64_t seed = 0;
  std::uint32_t max_delay = 0; // random delay before an instance's first call, in spin iterations
  std::uint32_t sync_ns = 0;   // the rendezvous' start time lies this far after the last thread arrived
  std::uint64_t budget_ns = 0; // after this long every wait gives up at once (its instance is "stuck")
};

/// Whether this build can run an op kind through the real API, and if not why (every kind of model/litmus.hpp runs
/// now; a kind added to the model before the kernels learn it is reported "not runnable yet" instead of faked).
bool op_runnable(int kind);
const char* op_unavailable_reason(int kind);

/// Launches the batch kernel on this PE and waits for it: `blocks` x `threads`, the first
/// ceil(args.worker_threads / threads) blocks run instances, the rest stress memory. Returns a hipError_t value.
int run_batch(const BatchArgs& args, unsigned blocks, unsigned threads);

} // namespace litmus_runner
