// Parser of one call line of a litmus thread: "[reg =] call arguments qualifiers...".
#include <algorithm>
#include <map>

#include "litmus_parser.hpp"

namespace portshmem::model::detail {

int Parser::pe_number(Cur& c, std::int64_t v) const {
  if (v < 0 || v >= test_.pes)
    c.fail("PE " + std::to_string(v) + " out of range (the test has " + std::to_string(test_.pes) +
           " PEs; a 'pes' line sets the count)");
  return static_cast<int>(v);
}

int Parser::sym(Cur& c) const {
  std::string s = c.ident("a location name");
  auto it = std::find(test_.syms.begin(), test_.syms.end(), s);
  if (it == test_.syms.end()) c.fail("unknown location '" + s + "' (declare it on the 'locations' line)");
  return static_cast<int>(it - test_.syms.begin());
}

Loc Parser::loc(Cur& c, int own_pe) const {
  Loc l;
  l.sym = sym(c);
  if (c.accept("@"))
    l.pe = pe_number(c, c.number("a PE number after '@'"));
  else if (own_pe < 0)
    c.fail("expected '@PE' after location '" + test_.syms[l.sym] + "'");
  else
    l.pe = own_pe;
  return l;
}

Loc Parser::local_loc(Cur& c, int own_pe, const char* op) const {
  Loc l = loc(c, own_pe);
  if (l.pe != own_pe)
    c.fail(std::string(op) + " works on the caller's own copy: write '" + test_.syms[l.sym] + "', not '" +
           test_.loc_name(l) + "'");
  return l;
}

void Parser::fits(Cur& c, int sym, std::int64_t v) const {
  const LocType t = test_.types[sym];
  if (t == LocType::U64) return; // 64-bit values as the model computes them
  const std::int64_t max = (std::int64_t(1) << type_bits(t)) - 1;
  if (v < 0 || v > max)
    c.fail("value " + std::to_string(v) + " does not fit location '" + test_.syms[sym] + "' of type " + name(t) +
           " (0.." + std::to_string(max) + ")");
}

void Parser::check_ranges(Cur& c, const Op& op) const {
  // A copy (relay put, get_nbi) moves elements of one type.
  auto same_type = [&](Loc from, Loc to) {
    if (test_.types[from.sym] != test_.types[to.sym])
      c.fail(std::string(op_name(op.kind)) + " copies elements of one type: '" + test_.syms[from.sym] + "' is " +
             name(test_.types[from.sym]) + ", '" + test_.syms[to.sym] + "' is " + name(test_.types[to.sym]));
  };
  switch (op.kind) {
  case OpKind::Put:
  case OpKind::P:
  case OpKind::PutNbi:
  case OpKind::PutSignal:
  case OpKind::PutSignalNbi:
    if (op.src.sym >= 0)
      same_type(op.src, op.loc);
    else
      fits(c, op.loc.sym, op.value);
    if (op.kind == OpKind::PutSignal || op.kind == OpKind::PutSignalNbi) fits(c, op.loc2.sym, op.value2);
    break;
  case OpKind::GetNbi:
    same_type(op.loc, op.loc2);
    break;
  case OpKind::AmoCompareSwap:
    fits(c, op.loc.sym, op.value2);
    fits(c, op.loc.sym, op.value);
    break;
  case OpKind::AmoSet:
  case OpKind::AmoSwap:
  case OpKind::AmoFetchAdd:
  case OpKind::AmoAdd:
  case OpKind::AmoFetchAnd:
  case OpKind::AmoAnd:
  case OpKind::AmoFetchOr:
  case OpKind::AmoOr:
  case OpKind::AmoFetchXor:
  case OpKind::AmoXor:
  case OpKind::SignalOp:
  case OpKind::SignalWait:
  case OpKind::WaitUntil:
  case OpKind::Test:
  case OpKind::Store:
    fits(c, op.loc.sym, op.value);
    break;
  default:
    break;
  }
}

// put, get and AMO families: they take no scope (the library accesses symmetric memory coherently at system scope).
static bool takes_no_scope(OpKind k) {
  return k <= OpKind::AmoXor; // Put .. AmoXor in OpKind's order
}

void Parser::put_source(Cur& c, Op& op, int me) const {
  const Tok* t = c.peek();
  if (!t || t->kind != Tok::Kind::Ident) {
    op.value = c.number("the value to put (or the caller's location to copy)");
    return;
  }
  if (op.kind == OpKind::P) c.fail("p writes a value, not a copy of a location: use put to copy '" + t->text + "'");
  op.src = loc(c, me);
  if (op.src.pe != me)
    c.fail("the source of a put is the caller's local memory: write '" + test_.syms[op.src.sym] + "', not '" +
           test_.loc_name(op.src) + "'");
}

std::optional<Cmp> Parser::cmp_of(const std::string& s) {
  if (s == "==") return Cmp::Eq;
  if (s == "!=") return Cmp::Ne;
  if (s == "<") return Cmp::Lt;
  if (s == "<=") return Cmp::Le;
  if (s == ">") return Cmp::Gt;
  if (s == ">=") return Cmp::Ge;
  return std::nullopt;
}

Cmp Parser::cmp(Cur& c) const {
  const Tok* t = c.peek();
  auto r = t ? cmp_of(t->text) : std::nullopt;
  if (!r) c.fail("expected a comparison (== != < <= > >=), found " + c.where());
  ++c.i;
  return *r;
}

void Parser::qualifiers(Cur& c, Op& op, unsigned allowed, bool* nbi) const {
  unsigned seen = 0;
  while (!c.done()) {
    std::string w = c.ident("a qualifier");
    unsigned cls = 0;
    if ((allowed & kCoverage) && (w == "all" || w == "comm")) {
      cls = kCoverage;
      op.coverage = w == "all" ? Coverage::All : Coverage::Comm;
    } else if (w == "device" || w == "node" || w == "system") {
      cls = kScope;
      op.scope = w == "device" ? Scope::Device : w == "node" ? Scope::Node : Scope::System;
    } else if (w == "keep" || w == "bypass") {
      cls = kPath;
      op.path = w == "keep" ? DataPath::Keep : DataPath::Bypass;
    } else if ((allowed & kStrength) && (w == "acquire" || w == "comm" || w == "relaxed")) {
      cls = kStrength;
      op.strength = w == "acquire" ? Strength::Acquire : w == "comm" ? Strength::Comm : Strength::Relaxed;
    } else if (w == "weak" || w == "strong") {
      cls = kSignal;
      op.signal = w == "weak" ? SignalStrength::Weak : SignalStrength::Strong;
    } else if (w == "nbi") {
      cls = kNbi;
      if (nbi) *nbi = true;
    } else if (w == "all" || w == "comm" || w == "acquire" || w == "relaxed") {
      cls = w == "all" ? kCoverage : kStrength;
    } else {
      c.fail("unknown qualifier '" + w + "'");
    }
    if (cls == kScope && !(allowed & kScope) && takes_no_scope(op.kind))
      c.fail(std::string(op_name(op.kind)) +
             " takes no scope: the library writes and reads every symmetric location coherently at system scope; a "
             "scope belongs on the call that orders (fence, quiet, put_signal, signal_op, waits, barriers)");
    if (cls == kPath && (op.kind == OpKind::P || op.kind == OpKind::G))
      c.fail(std::string(op_name(op.kind)) + " is a single coherent access and takes no data-path qualifier ('" + w +
             "')");
    if (!(allowed & cls)) c.fail("qualifier '" + w + "' does not apply to " + op_name(op.kind));
    if (seen & cls) c.fail("conflicting or repeated qualifier '" + w + "'");
    seen |= cls;
  }
}

Op Parser::op(const Line& l, Thread& th) {
  Cur c = cur(l);
  const int me = th.pe;
  std::string reg;
  if (l.toks.size() >= 2 && l.toks[1].text == "=") {
    reg = c.ident("a register name");
    c.expect("=");
  }
  std::string w = c.ident("a call");
  if (w.rfind("atomic_", 0) == 0) w = w.substr(7);
  if (w == "wait_until") w = "wait";
  if (w == "signal_wait_until") w = "signal_wait";
  if (w == "barrier") w = "barrier_all";

  static const std::map<std::string, OpKind> kinds = {
      {"put", OpKind::Put},
      {"p", OpKind::P},
      {"put_nbi", OpKind::PutNbi},
      {"get", OpKind::Get},
      {"g", OpKind::G},
      {"get_nbi", OpKind::GetNbi},
      {"fetch", OpKind::AmoFetch},
      {"set", OpKind::AmoSet},
      {"swap", OpKind::AmoSwap},
      {"compare_swap", OpKind::AmoCompareSwap},
      {"fetch_inc", OpKind::AmoFetchInc},
      {"inc", OpKind::AmoInc},
      {"fetch_add", OpKind::AmoFetchAdd},
      {"add", OpKind::AmoAdd},
      {"fetch_and", OpKind::AmoFetchAnd},
      {"and", OpKind::AmoAnd},
      {"fetch_or", OpKind::AmoFetchOr},
      {"or", OpKind::AmoOr},
      {"fetch_xor", OpKind::AmoFetchXor},
      {"xor", OpKind::AmoXor},
      {"put_signal", OpKind::PutSignal},
      {"put_signal_nbi", OpKind::PutSignalNbi},
      {"signal_op", OpKind::SignalOp},
      {"signal_fetch", OpKind::SignalFetch},
      {"signal_wait", OpKind::SignalWait},
      {"wait", OpKind::WaitUntil},
      {"test", OpKind::Test},
      {"fence", OpKind::Fence},
      {"quiet", OpKind::Quiet},
      {"pe_quiet", OpKind::PeQuiet},
      {"barrier_all", OpKind::BarrierAll},
      {"sync_all", OpKind::SyncAll},
      {"store", OpKind::Store},
      {"load", OpKind::Load},
      {"bypass_load", OpKind::BypassLoad},
  };
  auto it = kinds.find(w);
  if (it == kinds.end()) c.fail("unknown call '" + w + "'");
  Op op;
  op.kind = it->second;
  op.line = l.no;

  // Which ops return a value: required register (1), optional (2), none (0).
  int wants_reg = 0;
  switch (op.kind) {
  case OpKind::Get:
  case OpKind::G:
  case OpKind::AmoFetch:
  case OpKind::AmoSwap:
  case OpKind::AmoCompareSwap:
  case OpKind::AmoFetchInc:
  case OpKind::AmoFetchAdd:
  case OpKind::AmoFetchAnd:
  case OpKind::AmoFetchOr:
  case OpKind::AmoFetchXor:
  case OpKind::SignalFetch:
  case OpKind::Test:
  case OpKind::Load:
  case OpKind::BypassLoad:
    wants_reg = 1;
    break;
  case OpKind::SignalWait:
    wants_reg = 2;
    break;
  default:
    break;
  }
  if (wants_reg == 1 && reg.empty())
    c.fail(std::string(op_name(op.kind)) + " returns a value: write 'r = " + op_name(op.kind) + " ...'");
  if (wants_reg == 0 && !reg.empty()) c.fail(std::string(op_name(op.kind)) + " returns no value; drop '" + reg + " ='");
  if (!reg.empty()) {
    if (kinds.count(reg) || kHeaderKeys.count(reg)) c.fail("'" + reg + "' cannot be a register name");
    op.reg = reg_index(th, reg);
  }

  bool nbi = false;
  switch (op.kind) {
  case OpKind::Put:
  case OpKind::P:
  case OpKind::PutNbi:
    op.loc = loc(c, me);
    c.expect("=");
    put_source(c, op, me);
    // p: no qualifier; put: data path and nbi; put_nbi: data path.
    qualifiers(c, op, op.kind == OpKind::P ? 0u : kPath | (op.kind == OpKind::Put ? kNbi : 0u), &nbi);
    if (nbi) op.kind = OpKind::PutNbi;
    break;
  case OpKind::Get:
  case OpKind::G:
    op.loc = loc(c, me);
    if (c.at("nbi")) c.fail("a non-blocking get writes a local location: use 'get_nbi d = x@PE'");
    // A get's data path concerns only its local destination stores: accepted, no effect in the model.
    qualifiers(c, op, op.kind == OpKind::G ? 0u : kPath);
    break;
  case OpKind::GetNbi:
    op.loc2 = local_loc(c, me, "the destination of get_nbi");
    c.expect("=");
    op.loc = loc(c, me);
    qualifiers(c, op, kPath);
    break;
  case OpKind::AmoFetch:
  case OpKind::AmoFetchInc:
  case OpKind::AmoInc:
    op.loc = loc(c, me);
    qualifiers(c, op, 0);
    break;
  case OpKind::AmoSet:
    op.loc = loc(c, me);
    c.expect("=");
    op.value = c.number("the value to set");
    qualifiers(c, op, 0);
    break;
  case OpKind::AmoCompareSwap:
    op.loc = loc(c, me);
    op.value = c.number("the compared value");
    op.value2 = c.number("the new value");
    qualifiers(c, op, 0);
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
    op.loc = loc(c, me);
    op.value = c.number("the operand");
    qualifiers(c, op, 0);
    break;
  case OpKind::PutSignal:
  case OpKind::PutSignalNbi: {
    op.loc = loc(c, me);
    c.expect("=");
    put_source(c, op, me);
    c.expect(",");
    op.loc2 = loc(c, me);
    std::string u = c.ident("'set' or 'add'");
    if (u != "set" && u != "add") c.fail("expected 'set' or 'add' after the signal location, found '" + u + "'");
    op.update = u == "set" ? SignalUpdate::Set : SignalUpdate::Add;
    op.value2 = c.number("the signal value");
    qualifiers(c, op, kNbi | kSignal | kCoverage | kScope | kPath, &nbi);
    if (nbi) op.kind = OpKind::PutSignalNbi;
    // A keep put is a cached write, which coverage comm does not order (A5): the signal could not cover its own data.
    // The API refuses this combination at compile time.
    if (op.path == DataPath::Keep && op.coverage == Coverage::Comm)
      c.fail(
          std::string(op_name(op.kind)) +
          " with keep data and coverage comm: the signal could not cover its own data (use bypass, or coverage all)");
    if (op.loc.pe != op.loc2.pe)
      c.fail("put_signal writes its data and its signal on one PE (" + test_.loc_name(op.loc) + " vs " +
             test_.loc_name(op.loc2) + ")");
    break;
  }
  case OpKind::SignalOp: {
    op.loc = loc(c, me);
    std::string u = c.ident("'set' or 'add'");
    if (u != "set" && u != "add") c.fail("expected 'set' or 'add' after the signal location, found '" + u + "'");
    op.update = u == "set" ? SignalUpdate::Set : SignalUpdate::Add;
    op.value = c.number("the signal value");
    qualifiers(c, op, kCoverage | kScope);
    break;
  }
  case OpKind::SignalFetch:
  case OpKind::BypassLoad:
    op.loc = local_loc(c, me, op_name(op.kind));
    break;
  case OpKind::SignalWait:
  case OpKind::WaitUntil:
  case OpKind::Test:
    op.loc = local_loc(c, me, op_name(op.kind));
    op.cmp = cmp(c);
    op.value = c.number("the compared value");
    qualifiers(c, op, kStrength | kScope);
    break;
  case OpKind::Fence:
  case OpKind::Quiet:
  case OpKind::BarrierAll:
    qualifiers(c, op, kCoverage | kScope);
    break;
  case OpKind::PeQuiet:
    op.pe = pe_number(c, c.number("the PE to quiet"));
    qualifiers(c, op, kCoverage | kScope);
    break;
  case OpKind::SyncAll:
    qualifiers(c, op, kScope);
    break;
  case OpKind::Store:
    op.loc = loc(c, me);
    c.expect("=");
    op.value = c.number("the value to store");
    break;
  case OpKind::Load:
    op.loc = loc(c, me);
    break;
  }
  c.end();
  check_ranges(c, op);
  if ((op.kind == OpKind::Store || op.kind == OpKind::Load) && test_.node[op.loc.pe] != test_.node[me])
    c.fail("P" + std::to_string(me) + " cannot reach " + test_.loc_name(op.loc) +
           " by load/store: it is on another node (portshmem_ptr returns null); use put/get");
  return op;
}

} // namespace portshmem::model::detail
