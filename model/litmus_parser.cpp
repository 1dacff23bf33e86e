// Parser of the litmus text format (see docs/memory_model.md, "Litmus file format").
//
// Line based: header lines start with a keyword, "P<n>:" opens the thread of PE n, and every following line is one
// call until the next keyword line (litmus_ops.cpp reads the calls). Errors name the line and say what was expected.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "litmus_parser.hpp"

namespace portshmem::model {
namespace detail {

void Parser::split(std::string_view text) {
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

std::vector<Tok> Parser::lex(const std::string& s, int no) const {
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
      test_.types.push_back(LocType::U64);
      if (c.accept(":")) {
        std::string ty = c.ident("a type (u8, u16, u32, u64)");
        auto it = std::find_if(kTypes.begin(), kTypes.end(), [&](LocType t) { return ty == name(t); });
        if (it == kTypes.end()) c.fail("unknown type '" + ty + "' of location '" + s + "' (u8, u16, u32 or u64)");
        test_.types.back() = *it;
      }
    }
  } else if (key == "init") {
    if (test_.syms.empty()) c.fail("'init' needs a 'locations' line");
    if (c.done()) c.fail("'init' needs at least one 'x@PE = value' (or 'x = value' for every PE)");
    while (!c.done()) {
      int s = sym(c);
      int pe = c.accept("@") ? pe_number(c, c.number("a PE number after '@'")) : -1;
      c.expect("=");
      std::int64_t v = c.number("an initial value");
      fits(c, s, v);
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
  if (t->text.size() > 1 && t->text.size() <= 4 && t->text[0] == 'P' &&
      std::all_of(t->text.begin() + 1, t->text.end(), [](unsigned char ch) { return std::isdigit(ch); }) &&
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
  if (n.kind == CondNode::Kind::Mem) fits(c, n.loc.sym, n.value);
  return add_node(n);
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

// The PE of a "P<n>:" line, -1 for any other line.
static int thread_header(const Line& l) {
  const std::string& k = l.toks[0].text;
  if (l.toks.size() != 2 || l.toks[1].text != ":" || k.size() < 2 || k.size() > 4 || k[0] != 'P') return -1;
  if (!std::all_of(k.begin() + 1, k.end(), [](unsigned char c) { return std::isdigit(c); })) return -1;
  return std::stoi(k.substr(1));
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
        max_pe = static_cast<int>(std::clamp<std::int64_t>(t[i].num, max_pe, 1000));
      if (i == 0) max_pe = std::max(max_pe, thread_header(l));
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
    if (thread_header(l) >= 0 || !kHeaderKeys.count(k)) continue;
    if (k == "locations") {
      header(l);
      test_.init.assign(test_.loc_count(), 0);
    } else if (k == "devices" || k == "nodes" || k == "name" || k == "doc" || k == "row" || k == "pes") {
      header(l);
    }
  }
  for (const Line& l : lines_) {
    const std::string& k = l.toks[0].text;
    if (int pe = thread_header(l); pe >= 0) {
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
    if (test_.syms.empty()) fail(l.no, "missing 'locations' line (declare the symmetric locations first)");
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

} // namespace detail

LitmusTest parse_litmus(std::string_view text, const std::string& file) {
  return detail::Parser(text, file).parse();
}

LitmusTest parse_litmus_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LitmusError(path, 0, "cannot read the file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_litmus(ss.str(), path);
}

} // namespace portshmem::model
