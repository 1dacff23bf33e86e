// Internals of the litmus parser, shared by litmus_parser.cpp (file structure, header lines, conditions) and
// litmus_ops.cpp (one call per line). Not part of the model's interface.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "litmus.hpp"

namespace portshmem::model::detail {

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

inline constexpr std::array<LocType, 4> kTypes = {LocType::U8, LocType::U16, LocType::U32, LocType::U64};

inline const std::set<std::string> kHeaderKeys = {"name",      "doc",  "row",     "pes",    "devices", "nodes",
                                                  "locations", "init", "observe", "exists", "expect"};

class Parser {
 public:
  Parser(std::string_view text, std::string file) : file_(std::move(file)) { split(text); }
  LitmusTest parse();

 private:
  [[noreturn]] void fail(int line, const std::string& msg) const { throw LitmusError(file_, line, msg); }

  // --- lexing (litmus_parser.cpp) -------------------------------------------------------------------------------
  void split(std::string_view text);
  std::vector<Tok> lex(const std::string& s, int no) const;

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

  // --- pieces of a call (litmus_ops.cpp) ------------------------------------------------------------------------
  int pe_number(Cur& c, std::int64_t v) const;
  int sym(Cur& c) const;
  Loc loc(Cur& c, int own_pe) const; // x@N, or x alone for the own copy (own_pe < 0: the PE is required)
  Loc local_loc(Cur& c, int own_pe, const char* op) const;
  // A constant written to, added to, compared with or swapped into a typed location fits its unsigned range.
  void fits(Cur& c, int sym, std::int64_t v) const;
  void check_ranges(Cur& c, const Op& op) const;
  // After "put x@j =": a constant, or (relay) the caller's own copy of a location, whose value the put copies.
  void put_source(Cur& c, Op& op, int me) const;
  static std::optional<Cmp> cmp_of(const std::string& s);
  Cmp cmp(Cur& c) const;
  // Trailing qualifier words. `allowed` lists the classes that apply to this op.
  enum Q : unsigned { kCoverage = 1, kScope = 2, kPath = 4, kStrength = 8, kSignal = 16, kNbi = 32 };
  void qualifiers(Cur& c, Op& op, unsigned allowed, bool* nbi = nullptr) const;
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

} // namespace portshmem::model::detail
