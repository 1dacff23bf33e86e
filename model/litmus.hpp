// Litmus tests for the portshmem memory model: the plain AST and its text format.
//
// The AST is deliberately flat (enums, ints, vectors of structs) so that the hardware litmus runner can encode a
// parsed test into a POD op array and interpret it with the real API; nothing here depends on the enumerator.
// The text format is described in docs/memory_model.md ("Litmus file format").
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace portshmem::model {

/// Every call the model knows. The group forms of the API behave as the thread form issued once.
enum class OpKind : std::uint8_t {
  Put,    // put x@1 = 1          (blocking put of one element)
  P,      // p x@1 = 1            (one coherent store: no data-path qualifier)
  PutNbi, // put_nbi x@1 = 1      (or: put x@1 = 1 nbi)
  Get,    // r = get x@1
  G,      // r = g x@1            (no data-path qualifier)
  GetNbi, // get_nbi d = x@1      (d: the caller's own copy of a symmetric location)
  AmoFetch,
  AmoSet,
  AmoSwap,
  AmoCompareSwap,
  AmoFetchInc,
  AmoInc,
  AmoFetchAdd,
  AmoAdd,
  AmoFetchAnd,
  AmoAnd,
  AmoFetchOr,
  AmoOr,
  AmoFetchXor,
  AmoXor,
  PutSignal,    // put_signal x@1 = 1, s@1 add 1
  PutSignalNbi, // put_signal_nbi ... (or: put_signal ... nbi)
  SignalOp,     // signal_op s@1 set 1
  SignalFetch,  // r = signal_fetch s
  SignalWait,   // [r =] signal_wait s >= 1   (signal_wait_until)
  WaitUntil,    // wait f == 1                (wait_until)
  Test,         // r = test f == 1
  Fence,
  Quiet,
  PeQuiet,    // pe_quiet 1
  BarrierAll, // barrier_all (quiet + synchronization)
  SyncAll,    // sync_all (synchronization only)
  Store,      // store x = 1 / store x@1 = 1 (ordinary store; remote one through portshmem_ptr)
  Load,       // r = load x / r = load x@1
  BypassLoad, // r = bypass_load x (the library's comm-class load of a local symmetric location)
};

// Qualifiers, spelled as the C++ tags of namespace portshmem::mm.
enum class Coverage : std::uint8_t { All, Comm };              // mm::all (default) / mm::comm
enum class Scope : std::uint8_t { Device, Node, System };      // mm::device / mm::node / mm::system (default)
enum class DataPath : std::uint8_t { Keep, Bypass };           // put/get families: mm::keep / mm::bypass (default)
enum class Strength : std::uint8_t { Acquire, Comm, Relaxed }; // waits: mm::acquire (default) / mm::comm / mm::relaxed
enum class SignalStrength : std::uint8_t { Weak, Strong };     // put_signal: mm::weak (default) / mm::strong
enum class SignalUpdate : std::uint8_t { Set, Add };           // SHMEM_SIGNAL_SET / SHMEM_SIGNAL_ADD
enum class Cmp : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
/// Width of a symmetric location (`locations f:u16`). The model computes with 64-bit values and only checks that the
/// constants a test writes to or compares with a location fit its type; the hardware runner accesses it at that width.
enum class LocType : std::uint8_t { U8, U16, U32, U64 };

/// A symmetric location: symbol index into LitmusTest::syms, and the PE whose copy it is.
struct Loc {
  int sym = -1;
  int pe = -1;
  friend bool operator==(const Loc&, const Loc&) = default;
};

/// One call. Which fields matter depends on kind (see the comments); the rest keep their defaults.
struct Op {
  OpKind kind = OpKind::Fence;
  int line = 0; // source line, for messages
  Loc loc;      // accessed location: put/AMO/store target, get/load source, awaited or fetched variable
  Loc loc2;     // put_signal: the signal location; get_nbi: the local destination
  Loc src;      // put, put_nbi, put_signal: the caller's own copy the data comes from (relay), or sym -1
  std::int64_t value =
      0; // value written (a put: unless src is set) / AMO operand / compare-swap condition / wait's value
  std::int64_t value2 = 0; // compare-swap new value / put_signal signal value
  Cmp cmp = Cmp::Eq;       // waits and test
  SignalUpdate update = SignalUpdate::Set;
  int reg = -1; // destination register (index into Thread::regs), -1 when none
  int pe = -1;  // pe_quiet: the PE
  Coverage coverage = Coverage::All;
  Scope scope = Scope::System;
  DataPath path = DataPath::Bypass; // put, put_nbi, put_signal, get, get_nbi; only keep on a put matters (cached write)
  Strength strength = Strength::Acquire;
  SignalStrength signal = SignalStrength::Weak;
};

/// The one thread of a PE that issues calls. PEs without a thread only hold memory.
struct Thread {
  int pe = 0;
  std::vector<Op> ops;
  std::vector<std::string> regs; // register names, index = Op::reg
};

/// Condition over the final state: a small expression tree stored in a vector (node 0 is not special; see root).
struct CondNode {
  enum class Kind : std::uint8_t { True, Reg, Mem, Not, And, Or };
  Kind kind = Kind::True;
  int thread = -1; // Reg: index into LitmusTest::threads
  int reg = -1;    // Reg: register index in that thread
  Loc loc;         // Mem: final value of this location
  Cmp cmp = Cmp::Eq;
  std::int64_t value = 0;
  int lhs = -1, rhs = -1; // Not (lhs), And/Or (lhs, rhs)
};

struct Condition {
  std::vector<CondNode> nodes;
  int root = -1;
};

enum class Expect : std::uint8_t { Allowed, Forbidden };

struct LitmusTest {
  std::string file; // as given to the parser, for messages
  std::string name;
  std::string doc;
  std::string row; // the MEMORY_MODEL.md catalogue row this test stands for, if any
  int pes = 0;
  std::vector<int> device; // device[pe]: which GPU the PE runs on (default: one each)
  std::vector<int> node;   // node[pe]: which node (default: all on node 0)
  std::vector<std::string> syms;
  std::vector<LocType> types;     // per symbol (default U64)
  std::vector<std::int64_t> init; // initial value of each location, index loc_index()
  std::vector<Thread> threads;
  std::vector<Loc> observe; // locations whose final values are reported besides those of the condition
  Condition cond;
  int cond_line = 0;
  Expect expect = Expect::Allowed;

  int loc_count() const { return static_cast<int>(syms.size()) * pes; }
  int loc_index(Loc l) const { return l.sym * pes + l.pe; }
  Loc loc_at(int index) const { return Loc{index / pes, index % pes}; }
  std::string loc_name(Loc l) const { return syms[l.sym] + "@" + std::to_string(l.pe); }
};

/// A parse or validation error; what() is "file:line: message".
class LitmusError : public std::runtime_error {
 public:
  LitmusError(const std::string& file, int line, const std::string& message);
  int line() const { return line_; }
  const std::string& message() const { return message_; }

 private:
  int line_;
  std::string message_;
};

/// Parses one test; throws LitmusError with the offending line.
LitmusTest parse_litmus(std::string_view text, const std::string& file = "<input>");
/// Reads and parses a file; throws LitmusError (line 0 when the file cannot be read).
LitmusTest parse_litmus_file(const std::string& path);

// Names and small helpers shared by the model, the CLI and the hardware runner.
const char* op_name(OpKind k);
const char* name(Coverage c);
const char* name(Scope s);
const char* name(DataPath d);
const char* name(Strength s);
const char* name(SignalStrength s);
const char* name(SignalUpdate u);
const char* name(Cmp c);
const char* name(LocType t);
/// Bits of a location type (8, 16, 32, 64).
int type_bits(LocType t);
bool compare(Cmp c, std::int64_t lhs, std::int64_t rhs);
/// Text of one op in the litmus syntax, with every qualifier that applies to it spelled out.
std::string format_op(const LitmusTest& t, const Thread& th, const Op& op);

/// Evaluates the test's condition; regs[thread][reg] and mem[loc_index] give the final state.
bool eval_condition(const LitmusTest& t, const std::vector<std::vector<std::int64_t>>& regs,
                    const std::vector<std::int64_t>& mem);
/// The condition as text.
std::string format_condition(const LitmusTest& t);
/// Locations named in the condition followed by LitmusTest::observe, without repeats.
std::vector<Loc> reported_locations(const LitmusTest& t);

/// True when the two PEs are both within `s` of each other under the test's placement.
bool in_scope(const LitmusTest& t, Scope s, int pe_a, int pe_b);

} // namespace portshmem::model
