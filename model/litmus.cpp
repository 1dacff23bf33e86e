// Names, printing and condition evaluation for the litmus AST (shared by the model, the CLI and the runner).
#include "litmus.hpp"

#include <algorithm>

namespace portshmem::model {

LitmusError::LitmusError(const std::string& file, int line, const std::string& message)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + message), line_(line), message_(message) {}

const char* op_name(OpKind k) {
  switch (k) {
  case OpKind::Put:
    return "put";
  case OpKind::P:
    return "p";
  case OpKind::PutNbi:
    return "put_nbi";
  case OpKind::Get:
    return "get";
  case OpKind::G:
    return "g";
  case OpKind::GetNbi:
    return "get_nbi";
  case OpKind::AmoFetch:
    return "fetch";
  case OpKind::AmoSet:
    return "set";
  case OpKind::AmoSwap:
    return "swap";
  case OpKind::AmoCompareSwap:
    return "compare_swap";
  case OpKind::AmoFetchInc:
    return "fetch_inc";
  case OpKind::AmoInc:
    return "inc";
  case OpKind::AmoFetchAdd:
    return "fetch_add";
  case OpKind::AmoAdd:
    return "add";
  case OpKind::AmoFetchAnd:
    return "fetch_and";
  case OpKind::AmoAnd:
    return "and";
  case OpKind::AmoFetchOr:
    return "fetch_or";
  case OpKind::AmoOr:
    return "or";
  case OpKind::AmoFetchXor:
    return "fetch_xor";
  case OpKind::AmoXor:
    return "xor";
  case OpKind::PutSignal:
    return "put_signal";
  case OpKind::PutSignalNbi:
    return "put_signal_nbi";
  case OpKind::SignalOp:
    return "signal_op";
  case OpKind::SignalFetch:
    return "signal_fetch";
  case OpKind::SignalWait:
    return "signal_wait";
  case OpKind::WaitUntil:
    return "wait";
  case OpKind::Test:
    return "test";
  case OpKind::Fence:
    return "fence";
  case OpKind::Quiet:
    return "quiet";
  case OpKind::PeQuiet:
    return "pe_quiet";
  case OpKind::BarrierAll:
    return "barrier_all";
  case OpKind::SyncAll:
    return "sync_all";
  case OpKind::Store:
    return "store";
  case OpKind::Load:
    return "load";
  case OpKind::BypassLoad:
    return "bypass_load";
  }
  return "?";
}

const char* name(Coverage c) {
  return c == Coverage::All ? "all" : "comm";
}
const char* name(Scope s) {
  return s == Scope::Device ? "device" : s == Scope::Node ? "node" : "system";
}
const char* name(DataPath d) {
  return d == DataPath::Keep ? "keep" : "bypass";
}
const char* name(Strength s) {
  return s == Strength::Acquire ? "acquire" : s == Strength::Comm ? "comm" : "relaxed";
}
const char* name(SignalStrength s) {
  return s == SignalStrength::Weak ? "weak" : "strong";
}
const char* name(SignalUpdate u) {
  return u == SignalUpdate::Set ? "set" : "add";
}
const char* name(Cmp c) {
  switch (c) {
  case Cmp::Eq:
    return "==";
  case Cmp::Ne:
    return "!=";
  case Cmp::Lt:
    return "<";
  case Cmp::Le:
    return "<=";
  case Cmp::Gt:
    return ">";
  case Cmp::Ge:
    return ">=";
  }
  return "?";
}

const char* name(LocType t) {
  return t == LocType::U8 ? "u8" : t == LocType::U16 ? "u16" : t == LocType::U32 ? "u32" : "u64";
}

int type_bits(LocType t) {
  return t == LocType::U8 ? 8 : t == LocType::U16 ? 16 : t == LocType::U32 ? 32 : 64;
}

bool compare(Cmp c, std::int64_t lhs, std::int64_t rhs) {
  switch (c) {
  case Cmp::Eq:
    return lhs == rhs;
  case Cmp::Ne:
    return lhs != rhs;
  case Cmp::Lt:
    return lhs < rhs;
  case Cmp::Le:
    return lhs <= rhs;
  case Cmp::Gt:
    return lhs > rhs;
  case Cmp::Ge:
    return lhs >= rhs;
  }
  return false;
}

bool in_scope(const LitmusTest& t, Scope s, int pe_a, int pe_b) {
  switch (s) {
  case Scope::Device:
    return t.device[pe_a] == t.device[pe_b];
  case Scope::Node:
    return t.node[pe_a] == t.node[pe_b];
  case Scope::System:
    return true;
  }
  return false;
}

std::string format_op(const LitmusTest& t, const Thread& th, const Op& op) {
  auto loc = [&](Loc l) { return t.loc_name(l); };
  auto own = [&](Loc l) { return t.syms[l.sym]; };
  auto num = [](std::int64_t v) { return std::to_string(v); };
  auto source = [&](const Op& o) { return o.src.sym >= 0 ? own(o.src) : num(o.value); }; // a relay names its source
  std::string reg = op.reg >= 0 ? th.regs[op.reg] + " = " : "";
  std::string s;
  switch (op.kind) {
  case OpKind::Put:
  case OpKind::P:
  case OpKind::PutNbi:
    s = std::string(op_name(op.kind)) + " " + loc(op.loc) + " = " + source(op);
    break;
  case OpKind::Get:
  case OpKind::G:
    s = reg + op_name(op.kind) + " " + loc(op.loc);
    break;
  case OpKind::GetNbi:
    s = "get_nbi " + own(op.loc2) + " = " + loc(op.loc);
    break;
  case OpKind::AmoFetch:
  case OpKind::AmoFetchInc:
  case OpKind::AmoInc:
    s = reg + op_name(op.kind) + " " + loc(op.loc);
    break;
  case OpKind::AmoSet:
    s = "set " + loc(op.loc) + " = " + num(op.value);
    break;
  case OpKind::AmoCompareSwap:
    s = reg + "compare_swap " + loc(op.loc) + " " + num(op.value) + " " + num(op.value2);
    break;
  case OpKind::AmoSwap:
  case OpKind::AmoFetchAdd:
  case OpKind::AmoAdd:
  case OpKind::AmoFetchAnd:
  case OpKind::AmoAnd:
  case OpKind::AmoFetchOr:
  case OpKind::AmoOr:
  case OpKind::AmoFetchXor:
  case OpKind::AmoXor:
    s = reg + op_name(op.kind) + " " + loc(op.loc) + " " + num(op.value);
    break;
  case OpKind::PutSignal:
  case OpKind::PutSignalNbi:
    s = std::string(op_name(op.kind)) + " " + loc(op.loc) + " = " + source(op) + ", " + loc(op.loc2) + " " +
        name(op.update) + " " + num(op.value2) + " " + name(op.signal) + " " + name(op.coverage) + " " +
        name(op.scope) + " " + name(op.path);
    return s;
  case OpKind::SignalOp:
    return "signal_op " + loc(op.loc) + " " + name(op.update) + " " + num(op.value) + " " + name(op.coverage) + " " +
           name(op.scope);
  case OpKind::SignalFetch:
    s = reg + "signal_fetch " + own(op.loc);
    break;
  case OpKind::SignalWait:
  case OpKind::WaitUntil:
  case OpKind::Test:
    return reg + op_name(op.kind) + " " + own(op.loc) + " " + name(op.cmp) + " " + num(op.value) + " " +
           name(op.strength) + " " + name(op.scope);
  case OpKind::Fence:
  case OpKind::Quiet:
  case OpKind::BarrierAll:
    return std::string(op_name(op.kind)) + " " + name(op.coverage) + " " + name(op.scope);
  case OpKind::PeQuiet:
    return "pe_quiet " + num(op.pe) + " " + name(op.coverage) + " " + name(op.scope);
  case OpKind::SyncAll:
    return std::string("sync_all ") + name(op.scope);
  case OpKind::Store:
    s = "store " + loc(op.loc) + " = " + num(op.value);
    break;
  case OpKind::Load:
    s = reg + "load " + loc(op.loc);
    break;
  case OpKind::BypassLoad:
    s = reg + "bypass_load " + own(op.loc);
    break;
  }
  switch (op.kind) {
  case OpKind::Put:
  case OpKind::PutNbi:
  case OpKind::Get:
  case OpKind::GetNbi:
    s += std::string(" ") + name(op.path); // p and g take no data path
    break;
  default:
    break;
  }
  return s;
}

namespace {

bool eval_node(const LitmusTest& t, int n, const std::vector<std::vector<std::int64_t>>& regs,
               const std::vector<std::int64_t>& mem) {
  const CondNode& c = t.cond.nodes[n];
  switch (c.kind) {
  case CondNode::Kind::True:
    return true;
  case CondNode::Kind::Reg:
    return compare(c.cmp, regs[c.thread][c.reg], c.value);
  case CondNode::Kind::Mem:
    return compare(c.cmp, mem[t.loc_index(c.loc)], c.value);
  case CondNode::Kind::Not:
    return !eval_node(t, c.lhs, regs, mem);
  case CondNode::Kind::And:
    return eval_node(t, c.lhs, regs, mem) && eval_node(t, c.rhs, regs, mem);
  case CondNode::Kind::Or:
    return eval_node(t, c.lhs, regs, mem) || eval_node(t, c.rhs, regs, mem);
  }
  return false;
}

std::string format_node(const LitmusTest& t, int n, int parent_prec) {
  const CondNode& c = t.cond.nodes[n];
  switch (c.kind) {
  case CondNode::Kind::True:
    return "true";
  case CondNode::Kind::Reg:
    // (std::string first: g++ 12 warns falsely on "literal" + std::string&&)
    return std::string("P") + std::to_string(t.threads[c.thread].pe) + ":" + t.threads[c.thread].regs[c.reg] + " " +
           name(c.cmp) + " " + std::to_string(c.value);
  case CondNode::Kind::Mem:
    return t.loc_name(c.loc) + " " + name(c.cmp) + " " + std::to_string(c.value);
  case CondNode::Kind::Not:
    return std::string("~") + format_node(t, c.lhs, 3);
  case CondNode::Kind::And:
  case CondNode::Kind::Or: {
    int prec = c.kind == CondNode::Kind::And ? 2 : 1;
    std::string s = format_node(t, c.lhs, prec) + (prec == 2 ? " /\\ " : " \\/ ") + format_node(t, c.rhs, prec);
    return parent_prec != 0 && prec != parent_prec ? "(" + s + ")" : s; // parenthesize mixed /\ and \/
  }
  }
  return "?";
}

void collect_locs(const LitmusTest& t, int n, std::vector<Loc>& out) {
  if (n < 0) return;
  const CondNode& c = t.cond.nodes[n];
  if (c.kind == CondNode::Kind::Mem && std::find(out.begin(), out.end(), c.loc) == out.end()) out.push_back(c.loc);
  collect_locs(t, c.lhs, out);
  collect_locs(t, c.rhs, out);
}

} // namespace

bool eval_condition(const LitmusTest& t, const std::vector<std::vector<std::int64_t>>& regs,
                    const std::vector<std::int64_t>& mem) {
  return t.cond.root < 0 || eval_node(t, t.cond.root, regs, mem);
}

std::string format_condition(const LitmusTest& t) {
  return t.cond.root < 0 ? "true" : format_node(t, t.cond.root, 0);
}

std::vector<Loc> reported_locations(const LitmusTest& t) {
  std::vector<Loc> out;
  collect_locs(t, t.cond.root, out);
  for (Loc l : t.observe)
    if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(l);
  return out;
}

} // namespace portshmem::model
