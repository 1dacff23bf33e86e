// Placement of a litmus test on real PEs, wait stability, and the encoding of its threads into DevOps.
#include "encode.hpp"

#include <algorithm>
#include <functional>

namespace litmus_runner {

using model::Cmp;
using model::LitmusTest;
using model::Op;
using model::OpKind;

// The encoding reuses the model's enum values: keep the two lists in step.
static_assert(int(OpKind::Put) == kPut && int(OpKind::P) == kP && int(OpKind::PutNbi) == kPutNbi);
static_assert(int(OpKind::Get) == kGet && int(OpKind::G) == kG && int(OpKind::GetNbi) == kGetNbi);
static_assert(int(OpKind::AmoFetch) == kAmoFetch && int(OpKind::AmoSet) == kAmoSet && int(OpKind::AmoSwap) == kAmoSwap);
static_assert(int(OpKind::AmoCompareSwap) == kAmoCompareSwap && int(OpKind::AmoFetchInc) == kAmoFetchInc);
static_assert(int(OpKind::AmoInc) == kAmoInc && int(OpKind::AmoFetchAdd) == kAmoFetchAdd &&
              int(OpKind::AmoAdd) == kAmoAdd);
static_assert(int(OpKind::AmoFetchAnd) == kAmoFetchAnd && int(OpKind::AmoAnd) == kAmoAnd);
static_assert(int(OpKind::AmoFetchOr) == kAmoFetchOr && int(OpKind::AmoOr) == kAmoOr);
static_assert(int(OpKind::AmoFetchXor) == kAmoFetchXor && int(OpKind::AmoXor) == kAmoXor);
static_assert(int(OpKind::PutSignal) == kPutSignal && int(OpKind::PutSignalNbi) == kPutSignalNbi);
static_assert(int(OpKind::SignalOp) == kSignalOp && int(OpKind::SignalFetch) == kSignalFetch);
static_assert(int(OpKind::SignalWait) == kSignalWait && int(OpKind::WaitUntil) == kWaitUntil &&
              int(OpKind::Test) == kTest);
static_assert(int(OpKind::Fence) == kFence && int(OpKind::Quiet) == kQuiet && int(OpKind::PeQuiet) == kPeQuiet);
static_assert(int(OpKind::BarrierAll) == kBarrierAll && int(OpKind::SyncAll) == kSyncAll);
static_assert(int(OpKind::Store) == kStore && int(OpKind::Load) == kLoad && int(OpKind::BypassLoad) == kBypassLoad);
static_assert(int(model::Coverage::All) == kCoverAll && int(model::Coverage::Comm) == kCoverComm);
static_assert(int(model::Scope::Device) == kScopeDevice && int(model::Scope::Node) == kScopeNode &&
              int(model::Scope::System) == kScopeSystem);
static_assert(int(model::DataPath::Keep) == kPathKeep && int(model::DataPath::Bypass) == kPathBypass);
static_assert(int(model::Strength::Acquire) == kAcquire && int(model::Strength::Comm) == kAcquireComm &&
              int(model::Strength::Relaxed) == kRelaxed);
static_assert(int(model::SignalStrength::Weak) == kWeak && int(model::SignalStrength::Strong) == kStrong);
static_assert(int(model::SignalUpdate::Set) == kUpdateSet && int(model::SignalUpdate::Add) == kUpdateAdd);
static_assert(int(Cmp::Eq) == kEq && int(Cmp::Ne) == kNe && int(Cmp::Lt) == kLt && int(Cmp::Le) == kLe &&
              int(Cmp::Gt) == kGt && int(Cmp::Ge) == kGe);

// ---- placement ------------------------------------------------------------------------------------------------------

namespace {

/// needs[i][j]: test PE i's thread makes an ordinary access to test PE j's copy (i != j).
std::vector<std::vector<char>> ordinary_accesses(const LitmusTest& t) {
  std::vector<std::vector<char>> needs(std::size_t(t.pes), std::vector<char>(std::size_t(t.pes), 0));
  for (const auto& th : t.threads) {
    for (const auto& op : th.ops) {
      const bool ordinary = op.kind == OpKind::Store || op.kind == OpKind::Load || op.kind == OpKind::BypassLoad;
      if (ordinary && op.loc.pe != th.pe) needs[std::size_t(th.pe)][std::size_t(op.loc.pe)] = 1;
    }
  }
  return needs;
}

} // namespace

std::vector<std::vector<int>> candidate_maps(const LitmusTest& t, const std::vector<RealPlace>& places,
                                             const std::vector<std::vector<char>>& load_store, std::size_t limit) {
  const int P = t.pes, np = static_cast<int>(places.size());
  std::vector<std::vector<int>> best;
  if (P > np) return best;
  const auto needs = ordinary_accesses(t);
  // Whether real PE a reaches real PE b by loads and stores.
  auto reaches = [&](int a, int b) { return load_store.empty() || load_store[std::size_t(a)][std::size_t(b)] != 0; };
  int best_score = -1;
  std::size_t visited = 0;
  std::vector<int> map(P, -1);
  std::vector<char> used(np, 0);
  // Depth-first over injective maps, pruning as soon as a declared "same" is broken.
  std::function<void(int, int)> dfs = [&](int j, int score) {
    if (visited > 200000) return;
    if (j == P) {
      ++visited;
      if (score > best_score) {
        best_score = score;
        best.clear();
      }
      if (score == best_score && best.size() < limit) best.push_back(map);
      return;
    }
    for (int r = 0; r < np; ++r) {
      if (used[r]) continue;
      int add = 0;
      bool ok = true;
      for (int i = 0; i < j && ok; ++i) {
        const RealPlace &a = places[map[i]], &b = places[r];
        const bool same_dev = t.device[i] == t.device[j], same_node = t.node[i] == t.node[j];
        if (same_dev && a.device != b.device) ok = false;
        if (same_node && a.node != b.node) ok = false;
        if (needs[std::size_t(i)][std::size_t(j)] && !reaches(map[i], r)) ok = false;
        if (needs[std::size_t(j)][std::size_t(i)] && !reaches(r, map[i])) ok = false;
        if (!same_dev && a.device != b.device) ++add;
        if (!same_node && a.node != b.node) ++add;
      }
      if (!ok) continue;
      used[r] = 1;
      map[j] = r;
      dfs(j + 1, score + add);
      used[r] = 0;
      map[j] = -1;
    }
  };
  dfs(0, 0);
  return best;
}

LitmusTest realized_test(const LitmusTest& t, const std::vector<int>& map, const std::vector<RealPlace>& places) {
  LitmusTest r = t;
  for (int j = 0; j < t.pes; ++j) {
    r.device[j] = places[map[j]].device;
    r.node[j] = places[map[j]].node;
  }
  return r;
}

bool placement_differs(const LitmusTest& t, const LitmusTest& r) {
  for (int a = 0; a < t.pes; ++a) {
    for (int b = a + 1; b < t.pes; ++b) {
      if ((t.device[a] == t.device[b]) != (r.device[a] == r.device[b])) return true;
      if ((t.node[a] == t.node[b]) != (r.node[a] == r.node[b])) return true;
    }
  }
  return false;
}

// ---- waits
// ------------------------------------------------------------------------------------------------------------

namespace {

/// What writes to one location can do to its value.
struct Writes {
  std::vector<std::int64_t> sets; // values written outright (put, store, set, swap, compare_swap's new value, ...)
  std::vector<std::int64_t> adds; // amounts added atomically (inc, add, signal add)
  bool unknown = false;           // values the test cannot bound (and/or/xor, get_nbi destinations)
};

Writes writes_to(const LitmusTest& t, model::Loc l) {
  Writes w;
  for (const auto& th : t.threads) {
    for (const Op& op : th.ops) {
      const bool at = op.loc == l, at2 = op.loc2 == l;
      switch (op.kind) {
      case OpKind::Put:
      case OpKind::PutNbi:
        if (at && op.src.sym >= 0) w.unknown = true; // a relay copies a value the test cannot bound
        if (at && op.src.sym < 0) w.sets.push_back(op.value);
        break;
      case OpKind::P:
      case OpKind::AmoSet:
      case OpKind::AmoSwap:
      case OpKind::Store:
        if (at) w.sets.push_back(op.value);
        break;
      case OpKind::AmoCompareSwap:
        if (at) w.sets.push_back(op.value2);
        break;
      case OpKind::AmoFetchInc:
      case OpKind::AmoInc:
        if (at) w.adds.push_back(1);
        break;
      case OpKind::AmoFetchAdd:
      case OpKind::AmoAdd:
        if (at) w.adds.push_back(op.value);
        break;
      case OpKind::AmoFetchAnd:
      case OpKind::AmoAnd:
      case OpKind::AmoFetchOr:
      case OpKind::AmoOr:
      case OpKind::AmoFetchXor:
      case OpKind::AmoXor:
        if (at) w.unknown = true;
        break;
      case OpKind::GetNbi:
        if (at2) w.unknown = true;
        break;
      case OpKind::PutSignal:
      case OpKind::PutSignalNbi:
        if (at && op.src.sym >= 0) w.unknown = true; // a relay copies a value the test cannot bound
        if (at && op.src.sym < 0) w.sets.push_back(op.value);
        if (at2) (op.update == model::SignalUpdate::Set ? w.sets : w.adds).push_back(op.value2);
        break;
      case OpKind::SignalOp:
        if (at) (op.update == model::SignalUpdate::Set ? w.sets : w.adds).push_back(op.value);
        break;
      default:
        break;
      }
    }
  }
  return w;
}

bool stable(const LitmusTest& t, const Op& wait) {
  const Writes w = writes_to(t, wait.loc);
  if (w.unknown) return false;
  auto holds = [&](std::int64_t v) { return model::compare(wait.cmp, v, wait.value); };
  if (w.adds.empty()) { // only plain writes: stable when every value written satisfies the condition
    return std::all_of(w.sets.begin(), w.sets.end(), holds);
  }
  if (!w.sets.empty() || w.adds.size() > 12) return false;
  // Only atomic adds: the value is the initial value plus the sum of the adds performed so far, and later values add
  // more of them. Stable when every sum that satisfies the condition stays satisfied whatever is added next.
  const std::int64_t init = t.init[t.loc_index(wait.loc)];
  const std::size_t k = w.adds.size();
  auto sum = [&](std::size_t mask) {
    std::int64_t v = init;
    for (std::size_t i = 0; i < k; ++i)
      if (mask >> i & 1) v += w.adds[i];
    return v;
  };
  for (std::size_t m = 0; m < (std::size_t(1) << k); ++m) {
    if (!holds(sum(m))) continue;
    for (std::size_t sup = m; sup < (std::size_t(1) << k); sup = (sup + 1) | m)
      if (!holds(sum(sup))) return false;
  }
  return true;
}

} // namespace

std::vector<std::vector<std::uint8_t>> wait_modes(const LitmusTest& t) {
  std::vector<std::vector<std::uint8_t>> m(t.threads.size());
  for (std::size_t k = 0; k < t.threads.size(); ++k) {
    for (const Op& op : t.threads[k].ops) {
      const bool waits = op.kind == OpKind::WaitUntil || op.kind == OpKind::SignalWait;
      m[k].push_back(waits && !stable(t, op) ? kWaitByTest : kWaitStable);
    }
  }
  return m;
}

namespace {

/// Bytes of a location's type.
std::uint8_t width_of(const LitmusTest& t, model::Loc l) {
  return static_cast<std::uint8_t>(model::type_bits(t.types[l.sym]) / 8);
}

/// Why the API cannot run `op` at the width of its location ("" when it can): AMOs take 4- and 8-byte words, signals
/// are 64-bit words; put, get, p, g, waits, tests and ordinary accesses take every width.
std::string width_problem(const LitmusTest& t, const Op& op) {
  auto name = [&](model::Loc l) { return t.syms[l.sym] + ":" + model::name(t.types[l.sym]); };
  if (op.kind >= OpKind::AmoFetch && op.kind <= OpKind::AmoXor && width_of(t, op.loc) < 4)
    return std::string(model::op_name(op.kind)) + " on " + name(op.loc) + ": the API's AMOs take 4- and 8-byte words";
  model::Loc sig{-1, -1};
  if (op.kind == OpKind::PutSignal || op.kind == OpKind::PutSignalNbi) sig = op.loc2;
  if (op.kind == OpKind::SignalOp || op.kind == OpKind::SignalFetch || op.kind == OpKind::SignalWait) sig = op.loc;
  if (sig.sym >= 0 && t.types[sig.sym] != model::LocType::U64)
    return std::string(model::op_name(op.kind)) + " on " + name(sig) + ": signal words are 64-bit";
  return "";
}

} // namespace

std::string unrunnable_reason(const LitmusTest& t, const std::vector<std::vector<std::uint8_t>>& modes) {
  for (std::size_t k = 0; k < t.threads.size(); ++k) {
    const auto& th = t.threads[k];
    for (std::size_t i = 0; i < th.ops.size(); ++i) {
      const Op& op = th.ops[i];
      if (!op_runnable(int(op.kind)))
        return std::string("not runnable yet: ") + model::op_name(op.kind) + " (" +
               op_unavailable_reason(int(op.kind)) + ")";
      if (std::string why = width_problem(t, op); !why.empty()) return "line " + std::to_string(op.line) + ": " + why;
      if (op.kind == OpKind::SignalWait && modes[k][i] == kWaitByTest)
        return "line " + std::to_string(op.line) +
               ": a later write can make this signal_wait's condition false again, and the API has no signal test "
               "to bound the wait with; not run rather than risk a hang";
    }
  }
  return "";
}

bool needs_serial(const LitmusTest& t) {
  for (const auto& th : t.threads)
    for (const Op& op : th.ops)
      if (op.kind == OpKind::BarrierAll || op.kind == OpKind::SyncAll) return true;
  return false;
}

// ---- encoding
// ---------------------------------------------------------------------------------------------------------

namespace {

DevOp encode_op(const LitmusTest& t, const Op& op, const std::vector<int>& map, const Layout& layout,
                std::uint8_t mode) {
  DevOp d;
  d.kind = static_cast<std::uint8_t>(op.kind);
  d.value = op.value;
  d.value2 = op.value2;
  if (op.loc.sym >= 0) {
    d.off = layout.offset(op.loc.sym);
    d.pe = map[op.loc.pe];
    d.width = width_of(t, op.loc);
  }
  if (op.src.sym >= 0) { // relay: the put copies the caller's own copy of src (same type as loc: the parser checks)
    d.src_off = layout.offset(op.src.sym);
    d.relay = 1;
  }
  if (op.loc2.sym >= 0) {
    d.off2 = layout.offset(op.loc2.sym);
    d.pe2 = map[op.loc2.pe];
  }
  if (op.kind == OpKind::PeQuiet) d.pe2 = map[op.pe];
  d.reg = op.reg;
  d.cover = static_cast<std::uint8_t>(op.coverage);
  d.scope = static_cast<std::uint8_t>(op.scope);
  d.path = static_cast<std::uint8_t>(op.path);
  d.strength = static_cast<std::uint8_t>(op.strength);
  d.signal = static_cast<std::uint8_t>(op.signal);
  d.update = static_cast<std::uint8_t>(op.update);
  d.cmp = static_cast<std::uint8_t>(op.cmp);
  d.wait_mode = mode;
  return d;
}

} // namespace

std::vector<DevOp> encode_thread(const LitmusTest& t, int thread, const std::vector<int>& map, const Layout& layout,
                                 const std::vector<std::vector<std::uint8_t>>& modes) {
  std::vector<DevOp> ops;
  const auto& th = t.threads[thread];
  for (std::size_t i = 0; i < th.ops.size(); ++i) ops.push_back(encode_op(t, th.ops[i], map, layout, modes[thread][i]));
  return ops;
}

std::vector<DevOp> encode_barriers_only(const LitmusTest& t) {
  std::vector<DevOp> ops;
  if (t.threads.empty()) return ops;
  for (const Op& op : t.threads[0].ops) {
    if (op.kind != OpKind::BarrierAll && op.kind != OpKind::SyncAll) continue;
    DevOp d;
    d.kind = static_cast<std::uint8_t>(op.kind);
    d.cover = static_cast<std::uint8_t>(op.coverage);
    d.scope = static_cast<std::uint8_t>(op.scope);
    ops.push_back(d);
  }
  return ops;
}

} // namespace litmus_runner
