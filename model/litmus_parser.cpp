// Parser of the litmus text format (see docs/memory_model.md, "Litmus file format").
//
// Line based: header lines start with a keyword, "P<n>:" opens the thread of PE n, and every following line is one
// call until the next keyword line. Errors name the line and say what was expected.
#include "litmus.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace portshmem::model {
namespace {

struct Tok {
  enum class Kind { Ident, Number, Punct } kind;
  std::string text;
  std::int64_t num = 0;
};

struct Line {
  int no = 0;
  std::string raw; // without the comment
  std::vector<Tok> toks;
};

const std::set<std::string> kHeaderKeys = {"name",      "doc",  "row",     "pes",    "devices", "nodes",
                                           "locations", "init", "observe", "exists", "expect"};

class Parser {
 public:
  Parser(std::string_view text, std::string file) : file_(std::move(file)) { split(text); }
  LitmusTest parse();

 private:
  [[noreturn]] void fail(int line, const std::string& msg) const { throw LitmusError(file_, line, msg); }

  // --- lexing --------------------------------------------------------------------------------------------------
  void split(std::string_view text) {
    int no = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
      std::size_t end = text.find('\n', pos);
      if (end == std::string_view::npos) end = text.size();
      std::string raw(text.substr(pos, end - pos));
      ++no;
      pos = end + 1;
      if (auto hash = raw.find('#'); hash != std::string::npos) raw.erase(hash);
      if (!raw.empty() && raw.back() == '\r') raw.pop_back();
      // Free-text lines (name, row, doc) are not tokenized past their keyword.
      std::string first = raw.substr(0, raw.find_first_of(" \t", raw.find_first_not_of(" \t")));
      first.erase(0, first.find_first_not_of(" \t"));
      bool free_text = first == "name" || first == "row" || first == "doc";
      Line l{no, raw, lex(free_text ? first : raw, no)};
      if (!l.toks.empty()) lines_.push_back(std::move(l));
      if (end == text.size()) break;
    }
    last_line_ = lines_.empty() ? 1 : lines_.back().no; // missing parts are reported at the end of the content
  }

  std::vector<Tok> lex(const std::string& s, int no) const {
    std::vector<Tok> out;
    std::size_t i = 0;
    while (i < s.size()) {
      char c = s[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        std::size_t j = i;
        while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
        out.push_back({Tok::Kind::Ident, s.substr(i, j - i)});
        i = j;
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '-' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
        std::size_t j = i + 1;
        while (j < s.size() && std::isalnum(static_cast<unsigned char>(s[j]))) ++j;
        std::string t = s.substr(i, j - i);
        Tok tok{Tok::Kind::Number, t};
        try {
          std::size_t used = 0;
          tok.num = std::stoll(t, &used, 0);
          if (used != t.size()) fail(no, "bad number '" + t + "'");
        } catch (const std::logic_error&) {
          fail(no, "bad number '" + t + "'");
        }
        out.push_back(tok);
        i = j;
      } else {
        static const char* two[] = {"==", "!=", "<=", ">=", "/\\", "\\/"};
        std::string p;
        for (const char* t : two)
          if (s.compare(i, 2, t) == 0) p = t;
        if (p.empty()) {
          if (std::string("=<>,@:()~|").find(c) == std::string::npos)
            fail(no, std::string("unexpected character '") + c + "'");
          p = std::string(1, c);
        }
        out.push_back({Tok::Kind::Punct, p});
        i += p.size();
      }
    }
    return out;
  }

  // --- cursor over one line's tokens ------------------------------------------------------------------------------
  struct Cur {
    const Parser* p;
    const Line* line;
    std::size_t i = 0;
    bool done() const { return i >= line->toks.size(); }
    const Tok* peek() const { return done() ? nullptr : &line->toks[i]; }
    bool at(const std::string& text) const { return !done() && line->toks[i].text == text; }
    [[noreturn]] void fail(const std::string& msg) const { p->fail(line->no, msg); }
    std::string where() const { return done() ? "end of line" : "'" + line->toks[i].text + "'"; }
    void expect(const std::string& text) {
      if (!at(text)) fail("expected '" + text + "', found " + where());
      ++i;
    }
    bool accept(const std::string& text) {
      if (!at(text)) return false;
      ++i;
      return true;
    }
    std::string ident(const char* what) {
      if (done() || line->toks[i].kind != Tok::Kind::Ident)
        fail(std::string("expected ") + what + ", found " + where());
      return line->toks[i++].text;
    }
    std::int64_t number(const char* what) {
      if (done() || line->toks[i].kind != Tok::Kind::Number)
        fail(std::string("expected ") + what + " (a number), found " + where());
      return line->toks[i++].num;
    }
    void end() {
      if (!done()) fail("unexpected " + where() + " at the end of the line");
    }
  };
  Cur cur(const Line& l) const { return Cur{this, &l}; }

  // --- pieces ------------------------------------------------------------------------------------------------------
  int pe_number(Cur& c, std::int64_t v) const {
    if (v < 0 || v >= test_.pes)
      c.fail("PE " + std::to_string(v) + " out of range (the test has " + std::to_string(test_.pes) +
             " PEs; a 'pes' line sets the count)");
    return static_cast<int>(v);
  }

  int sym(Cur& c) const {
    std::string s = c.ident("a location name");
    auto it = std::find(test_.syms.begin(), test_.syms.end(), s);
    if (it == test_.syms.end()) c.fail("unknown location '" + s + "' (declare it on the 'locations' line)");
    return static_cast<int>(it - test_.syms.begin());
  }

  // x@N, or x alone for the own copy (own_pe < 0: the PE is required).
  Loc loc(Cur& c, int own_pe) const {
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

  Loc local_loc(Cur& c, int own_pe, const char* op) const {
    Loc l = loc(c, own_pe);
    if (l.pe != own_pe)
      c.fail(std::string(op) + " works on the caller's own copy: write '" + test_.syms[l.sym] + "', not '" +
             test_.loc_name(l) + "'");
    return l;
  }

  static std::optional<Cmp> cmp_of(const std::string& s) {
    if (s == "==") return Cmp::Eq;
    if (s == "!=") return Cmp::Ne;
    if (s == "<") return Cmp::Lt;
    if (s == "<=") return Cmp::Le;
    if (s == ">") return Cmp::Gt;
    if (s == ">=") return Cmp::Ge;
    return std::nullopt;
  }

  Cmp cmp(Cur& c) const {
    const Tok* t = c.peek();
    auto r = t ? cmp_of(t->text) : std::nullopt;
    if (!r) c.fail("expected a comparison (== != < <= > >=), found " + c.where());
    ++c.i;
    return *r;
  }

  // Trailing qualifier words. `allowed` lists the classes that apply to this op.
  enum Q : unsigned { kCoverage = 1, kScope = 2, kPath = 4, kStrength = 8, kSignal = 16, kNbi = 32 };
  void qualifiers(Cur& c, Op& op, unsigned allowed, bool* nbi = nullptr) const {
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
      if (!(allowed & cls)) c.fail("qualifier '" + w + "' does not apply to " + op_name(op.kind));
      if (seen & cls) c.fail("conflicting or repeated qualifier '" + w + "'");
      seen |= cls;
    }
  }

  int reg_index(Thread& th, const std::string& r) const {
    auto it = std::find(th.regs.begin(), th.regs.end(), r);
    if (it != th.regs.end()) return static_cast<int>(it - th.regs.begin());
    th.regs.push_back(r);
    return static_cast<int>(th.regs.size()) - 1;
  }

  // --- the parts of a test -----------------------------------------------------------------------------------------
  void header(const Line& l);
  void placement(const Line& l, std::vector<int>& out, const char* what);
  Op op(const Line& l, Thread& th);
  int cond_or(Cur& c);
  int cond_and(Cur& c);
  int cond_unary(Cur& c);
  int add_node(CondNode n) {
    test_.cond.nodes.push_back(n);
    return static_cast<int>(test_.cond.nodes.size()) - 1;
  }
  void validate();

  std::string file_;
  std::vector<Line> lines_;
  int last_line_ = 0;
  LitmusTest test_;
  std::map<std::string, int> seen_keys_; // header key -> line
  std::vector<int> thread_lines_;        // line of each "Pn:" header
};

void Parser::placement(const Line& l, std::vector<int>& out, const char* what) {
  Cur c = cur(l);
  c.i = 1;
  out.assign(test_.pes, -1);
  int group = 0;
  bool empty = true;
  while (!c.done()) {
    if (c.accept("|")) {
      if (empty) c.fail(std::string("empty group in '") + what + "'");
      ++group;
      empty = true;
      continue;
    }
    int pe = pe_number(c, c.number("a PE number"));
    if (out[pe] >= 0) c.fail("PE " + std::to_string(pe) + " listed twice in '" + what + "'");
    out[pe] = group;
    empty = false;
  }
  if (empty) c.fail(std::string("empty group in '") + what + "'");
  for (int pe = 0; pe < test_.pes; ++pe)
    if (out[pe] < 0) c.fail(std::string("'") + what + "' must list every PE; PE " + std::to_string(pe) + " is missing");
}

void Parser::header(const Line& l) {
  const std::string& key = l.toks[0].text;
  if (key != "init" && key != "observe") {
    if (auto it = seen_keys_.find(key); it != seen_keys_.end())
      fail(l.no, "'" + key + "' given twice (first on line " + std::to_string(it->second) + ")");
  }
  seen_keys_[key] = l.no;
  auto rest = [&] {
    std::string s = l.raw.substr(l.raw.find(key) + key.size());
    s.erase(0, s.find_first_not_of(" \t"));
    s.erase(s.find_last_not_of(" \t") + 1);
    return s;
  };
  Cur c = cur(l);
  c.i = 1;
  if (key == "name" || key == "row") {
    std::string v = rest();
    if (v.empty() || v.find_first_of(" \t") != std::string::npos)
      fail(l.no, "'" + key + "' takes one word without spaces");
    (key == "name" ? test_.name : test_.row) = v;
  } else if (key == "doc") {
    test_.doc = rest();
  } else if (key == "pes") {
    // handled before the rest (the PE count bounds every PE number)
  } else if (key == "devices") {
    placement(l, test_.device, "devices");
  } else if (key == "nodes") {
    placement(l, test_.node, "nodes");
  } else if (key == "locations") {
    if (c.done()) c.fail("'locations' needs at least one name");
    while (!c.done()) {
      std::string s = c.ident("a location name");
      if (kHeaderKeys.count(s) || (s.size() > 1 && s[0] == 'P' && std::isdigit(static_cast<unsigned char>(s[1]))))
        c.fail("'" + s + "' cannot be a location name");
      if (std::find(test_.syms.begin(), test_.syms.end(), s) != test_.syms.end())
        c.fail("location '" + s + "' declared twice");
      test_.syms.push_back(s);
    }
  } else if (key == "init") {
    if (test_.syms.empty()) c.fail("'init' must follow the 'locations' line");
    if (c.done()) c.fail("'init' needs at least one 'x@PE = value' (or 'x = value' for every PE)");
    while (!c.done()) {
      int s = sym(c);
      int pe = c.accept("@") ? pe_number(c, c.number("a PE number after '@'")) : -1;
      c.expect("=");
      std::int64_t v = c.number("an initial value");
      for (int p = 0; p < test_.pes; ++p)
        if (pe < 0 || p == pe) test_.init[test_.loc_index(Loc{s, p})] = v;
    }
  } else if (key == "observe") {
    while (!c.done()) test_.observe.push_back(loc(c, -1));
  } else if (key == "exists") {
    if (c.done()) c.fail("'exists' needs a condition");
    test_.cond.root = cond_or(c);
    test_.cond_line = l.no;
    c.end();
  } else if (key == "expect") {
    std::string v = c.ident("'allowed' or 'forbidden'");
    if (v != "allowed" && v != "forbidden") c.fail("expected 'allowed' or 'forbidden', found '" + v + "'");
    test_.expect = v == "allowed" ? Expect::Allowed : Expect::Forbidden;
    c.end();
  }
}

int Parser::cond_or(Cur& c) {
  int lhs = cond_and(c);
  while (c.accept("\\/")) {
    CondNode n;
    n.kind = CondNode::Kind::Or;
    n.lhs = lhs;
    n.rhs = cond_and(c);
    lhs = add_node(n);
  }
  return lhs;
}

int Parser::cond_and(Cur& c) {
  int lhs = cond_unary(c);
  while (c.accept("/\\")) {
    CondNode n;
    n.kind = CondNode::Kind::And;
    n.lhs = lhs;
    n.rhs = cond_unary(c);
    lhs = add_node(n);
  }
  return lhs;
}

int Parser::cond_unary(Cur& c) {
  if (c.accept("~") || c.accept("not")) {
    CondNode n;
    n.kind = CondNode::Kind::Not;
    n.lhs = cond_unary(c);
    return add_node(n);
  }
  if (c.accept("(")) {
    int r = cond_or(c);
    c.expect(")");
    return r;
  }
  if (c.accept("true")) {
    CondNode n;
    n.kind = CondNode::Kind::True;
    return add_node(n);
  }
  const Tok* t = c.peek();
  if (!t || t->kind != Tok::Kind::Ident)
    c.fail("expected 'P<n>:register' or 'location@PE' in the condition, found " + c.where());
  CondNode n;
  if (t->text.size() > 1 && t->text[0] == 'P' && std::all_of(t->text.begin() + 1, t->text.end(), ::isdigit) &&
      c.i + 1 < c.line->toks.size() && c.line->toks[c.i + 1].text == ":") {
    int pe = std::stoi(t->text.substr(1));
    c.i += 2;
    auto th = std::find_if(test_.threads.begin(), test_.threads.end(), [&](const Thread& x) { return x.pe == pe; });
    if (th == test_.threads.end()) c.fail("the condition names P" + std::to_string(pe) + ", which has no thread");
    std::string r = c.ident("a register name");
    auto it = std::find(th->regs.begin(), th->regs.end(), r);
    if (it == th->regs.end()) c.fail("P" + std::to_string(pe) + " has no register '" + r + "'");
    n.kind = CondNode::Kind::Reg;
    n.thread = static_cast<int>(th - test_.threads.begin());
    n.reg = static_cast<int>(it - th->regs.begin());
  } else {
    n.kind = CondNode::Kind::Mem;
    n.loc = loc(c, -1);
  }
  n.cmp = cmp(c);
  n.value = c.number("a value");
  return add_node(n);
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
    op.value = c.number("the value to put");
    qualifiers(c, op, kPath | (op.kind == OpKind::Put ? kNbi : 0u), &nbi);
    if (nbi) op.kind = OpKind::PutNbi;
    break;
  case OpKind::Get:
  case OpKind::G:
    op.loc = loc(c, me);
    if (c.at("nbi")) c.fail("a non-blocking get writes a local location: use 'get_nbi d = x@PE'");
    qualifiers(c, op, kPath);
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
    break;
  case OpKind::AmoSet:
    op.loc = loc(c, me);
    c.expect("=");
    op.value = c.number("the value to set");
    break;
  case OpKind::AmoCompareSwap:
    op.loc = loc(c, me);
    op.value = c.number("the compared value");
    op.value2 = c.number("the new value");
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
    break;
  case OpKind::PutSignal:
  case OpKind::PutSignalNbi: {
    op.loc = loc(c, me);
    c.expect("=");
    op.value = c.number("the value to put");
    c.expect(",");
    op.loc2 = loc(c, me);
    std::string u = c.ident("'set' or 'add'");
    if (u != "set" && u != "add") c.fail("expected 'set' or 'add' after the signal location, found '" + u + "'");
    op.update = u == "set" ? SignalUpdate::Set : SignalUpdate::Add;
    op.value2 = c.number("the signal value");
    qualifiers(c, op, kNbi | kSignal | kCoverage | kScope | kPath, &nbi);
    if (nbi) op.kind = OpKind::PutSignalNbi;
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
  if ((op.kind == OpKind::Store || op.kind == OpKind::Load) && test_.node[op.loc.pe] != test_.node[me])
    c.fail("P" + std::to_string(me) + " cannot reach " + test_.loc_name(op.loc) +
           " by load/store: it is on another node (portshmem_ptr returns null); use put/get");
  return op;
}

void Parser::validate() {
  if (test_.name.empty()) fail(last_line_, "missing 'name' line");
  if (test_.syms.empty()) fail(last_line_, "missing 'locations' line");
  if (test_.threads.empty()) fail(last_line_, "the test has no thread (a 'P0:' line followed by calls)");
  if (!seen_keys_.count("exists")) fail(last_line_, "missing 'exists' line (the condition)");
  if (!seen_keys_.count("expect")) fail(last_line_, "missing 'expect allowed' or 'expect forbidden' line");
  for (int a = 0; a < test_.pes; ++a)
    for (int b = 0; b < test_.pes; ++b)
      if (test_.device[a] == test_.device[b] && test_.node[a] != test_.node[b])
        fail(seen_keys_.count("devices") ? seen_keys_["devices"] : seen_keys_["nodes"],
             "PEs " + std::to_string(a) + " and " + std::to_string(b) + " share a device but not a node");
  // Collectives match by position: every thread calls the same sequence.
  std::vector<OpKind> first;
  for (std::size_t i = 0; i < test_.threads.size(); ++i) {
    std::vector<OpKind> seq;
    int line = thread_lines_[i];
    for (const Op& op : test_.threads[i].ops)
      if (op.kind == OpKind::BarrierAll || op.kind == OpKind::SyncAll) {
        seq.push_back(op.kind);
        line = op.line;
      }
    if (i == 0)
      first = seq;
    else if (seq != first)
      fail(line, "every thread must call barrier_all/sync_all the same number of times in the same order (P" +
                     std::to_string(test_.threads[i].pe) + " differs from P" + std::to_string(test_.threads[0].pe) +
                     ")");
  }
}

LitmusTest Parser::parse() {
  test_.file = file_;
  // The PE count bounds every PE number, so settle it first: the 'pes' line, else the largest PE mentioned.
  int max_pe = 0;
  int pes_line = 0;
  for (const Line& l : lines_) {
    const auto& t = l.toks;
    if (t[0].text == "pes") {
      if (pes_line) fail(l.no, "'pes' given twice (first on line " + std::to_string(pes_line) + ")");
      pes_line = l.no;
      if (t.size() != 2 || t[1].kind != Tok::Kind::Number || t[1].num < 1 || t[1].num > 16)
        fail(l.no, "'pes' takes one number from 1 to 16");
      test_.pes = static_cast<int>(t[1].num);
    }
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i].kind == Tok::Kind::Number && i > 0 && t[i - 1].text == "@")
        max_pe = std::max<std::int64_t>(max_pe, std::min<std::int64_t>(t[i].num, 1000));
      if (i == 0 && t.size() == 2 && t[1].text == ":" && t[0].text.size() > 1 && t[0].text[0] == 'P' &&
          std::all_of(t[0].text.begin() + 1, t[0].text.end(), ::isdigit))
        max_pe = std::max(max_pe, std::min(std::stoi(t[0].text.substr(1)), 1000));
    }
  }
  if (!pes_line) {
    if (max_pe >= 16)
      fail(lines_.empty() ? last_line_ : lines_.front().no, "too many PEs (the model handles at most 16)");
    test_.pes = max_pe + 1;
  }
  test_.device.resize(test_.pes);
  for (int pe = 0; pe < test_.pes; ++pe) test_.device[pe] = pe;
  test_.node.assign(test_.pes, 0);

  // Header lines first (placement and locations are needed to read the calls), in file order.
  Thread* th = nullptr;
  std::vector<const Line*> deferred; // condition lines: they name registers, known only after the threads
  for (const Line& l : lines_) {
    const std::string& k = l.toks[0].text;
    if (l.toks.size() == 2 && l.toks[1].text == ":" && k.size() > 1 && k[0] == 'P' &&
        std::all_of(k.begin() + 1, k.end(), ::isdigit))
      continue;
    if (!kHeaderKeys.count(k)) continue;
    if (k == "locations") {
      header(l);
      test_.init.assign(test_.loc_count(), 0);
    } else if (k == "devices" || k == "nodes" || k == "name" || k == "doc" || k == "row" || k == "pes") {
      header(l);
    }
  }
  for (const Line& l : lines_) {
    const std::string& k = l.toks[0].text;
    if (l.toks.size() == 2 && l.toks[1].text == ":" && k.size() > 1 && k[0] == 'P' &&
        std::all_of(k.begin() + 1, k.end(), ::isdigit)) {
      int pe = std::stoi(k.substr(1));
      if (pe >= test_.pes)
        fail(l.no, "P" + std::to_string(pe) + " is out of range (the test has " + std::to_string(test_.pes) + " PEs)");
      for (std::size_t i = 0; i < test_.threads.size(); ++i)
        if (test_.threads[i].pe == pe)
          fail(l.no,
               "P" + std::to_string(pe) + " already has a thread (line " + std::to_string(thread_lines_[i]) + ")");
      test_.threads.push_back(Thread{pe, {}, {}});
      thread_lines_.push_back(l.no);
      th = &test_.threads.back();
      continue;
    }
    if (kHeaderKeys.count(k)) {
      th = nullptr;
      if (k == "init" || k == "observe")
        header(l);
      else if (k == "exists" || k == "expect")
        deferred.push_back(&l);
      continue;
    }
    if (!th) fail(l.no, "'" + k + "' is not a header keyword, and no thread ('P0:') is open");
    if (test_.syms.empty()) fail(l.no, "the 'locations' line must come before the threads");
    th->ops.push_back(op(l, *th));
  }
  // Threads in PE order (the condition, parsed next, refers to them by index).
  std::vector<std::size_t> order(test_.threads.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return test_.threads[a].pe < test_.threads[b].pe; });
  std::vector<Thread> sorted;
  std::vector<int> lines;
  for (std::size_t i : order) {
    sorted.push_back(std::move(test_.threads[i]));
    lines.push_back(thread_lines_[i]);
  }
  test_.threads = std::move(sorted);
  thread_lines_ = std::move(lines);
  for (const Line* l : deferred) header(*l);
  validate();
  return test_;
}

} // namespace

LitmusTest parse_litmus(std::string_view text, const std::string& file) {
  return Parser(text, file).parse();
}

LitmusTest parse_litmus_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LitmusError(path, 0, "cannot read the file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_litmus(ss.str(), path);
}

} // namespace portshmem::model
