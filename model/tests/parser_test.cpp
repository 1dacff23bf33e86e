// The litmus parser: good input gives the expected AST; bad input names its line and says what is wrong.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "litmus.hpp"

using namespace portshmem::model;

namespace {

const char* kMp = R"(name MP+put+fence+p   # a comment
doc  fence orders a put before a later p to the same PE
row  MP+put+fence+p
pes 2
locations x f
init x@1 = 5
P0:
  put x@1 = 1
  fence
  p f@1 = 1
P1:
  wait f == 1
  r0 = load x
exists P1:r0 == 0
expect forbidden
)";

// Parses `body` and returns the error (fails the test when it parses).
LitmusError error_of(const std::string& body) {
  try {
    parse_litmus(body, "t.litmus");
  } catch (const LitmusError& e) {
    return e;
  }
  ADD_FAILURE() << "parsed without error:\n" << body;
  return LitmusError("", 0, "");
}

// A test skeleton around one thread body, for error cases.
std::string with_ops(const std::string& header, const std::string& p0, const std::string& p1 = "") {
  return "name T\n" + header + "locations x f s\nP0:\n" + p0 + "\nP1:\n" + (p1.empty() ? "  wait f == 1" : p1) +
         "\nexists true\nexpect allowed\n";
}

TEST(Parser, MessagePassing) {
  LitmusTest t = parse_litmus(kMp, "mp.litmus");
  EXPECT_EQ(t.name, "MP+put+fence+p");
  EXPECT_EQ(t.row, "MP+put+fence+p");
  EXPECT_EQ(t.doc, "fence orders a put before a later p to the same PE");
  EXPECT_EQ(t.pes, 2);
  ASSERT_EQ(t.syms.size(), 2u);
  EXPECT_EQ(t.init[t.loc_index(Loc{0, 1})], 5);
  EXPECT_EQ(t.init[t.loc_index(Loc{0, 0})], 0);
  EXPECT_EQ(t.device, (std::vector<int>{0, 1})); // default: one GPU per PE, one node
  EXPECT_EQ(t.node, (std::vector<int>{0, 0}));
  ASSERT_EQ(t.threads.size(), 2u);
  const Thread& p0 = t.threads[0];
  ASSERT_EQ(p0.ops.size(), 3u);
  EXPECT_EQ(p0.ops[0].kind, OpKind::Put);
  EXPECT_EQ(p0.ops[0].loc, (Loc{0, 1}));
  EXPECT_EQ(p0.ops[0].value, 1);
  EXPECT_EQ(p0.ops[0].line, 8);
  EXPECT_EQ(p0.ops[1].kind, OpKind::Fence);
  EXPECT_EQ(p0.ops[1].coverage, Coverage::All);
  EXPECT_EQ(p0.ops[1].scope, Scope::System);
  EXPECT_EQ(p0.ops[2].kind, OpKind::P);
  const Thread& p1 = t.threads[1];
  EXPECT_EQ(p1.ops[0].kind, OpKind::WaitUntil);
  EXPECT_EQ(p1.ops[0].loc, (Loc{1, 1})); // own copy
  EXPECT_EQ(p1.ops[0].strength, Strength::Acquire);
  EXPECT_EQ(p1.ops[1].kind, OpKind::Load);
  EXPECT_EQ(p1.ops[1].reg, 0);
  EXPECT_EQ(p1.regs, (std::vector<std::string>{"r0"}));
  EXPECT_EQ(t.expect, Expect::Forbidden);
  EXPECT_EQ(format_condition(t), "P1:r0 == 0");
  EXPECT_TRUE(eval_condition(t, {{}, {0}}, std::vector<std::int64_t>(4, 0)));
  EXPECT_FALSE(eval_condition(t, {{}, {1}}, std::vector<std::int64_t>(4, 0)));
}

TEST(Parser, QualifiersAndAliases) {
  LitmusTest t = parse_litmus(R"(name Q
devices 0 1 | 2 | 3
nodes 0 1 2 | 3
locations x s d
init s = 3
P0:
  put_signal x@1 = 1, s@1 add 2 nbi strong comm device bypass
  fence comm node
  quiet all
  pe_quiet 2 comm
  barrier comm system
  r1 = atomic_fetch_add x@2 4
  r2 = compare_swap x@2 0 9
  get_nbi d = x@3 bypass
  put x@1 = 3 nbi
P1:
  r0 = signal_wait_until s >= 1 comm node
  wait_until s != 2 relaxed
  r1 = test s == 1
  r2 = bypass_load x
  r3 = signal_fetch s
  store x@0 = 1
  signal_op s@0 set 1 comm
  barrier_all
P2:
  barrier_all
P3:
  barrier_all
exists P1:r0 == 3 /\ ~(x@1 == 1 \/ P0:r2 < 0)
expect allowed
)");
  EXPECT_EQ(t.pes, 4);
  EXPECT_EQ(t.device, (std::vector<int>{0, 0, 1, 2}));
  EXPECT_EQ(t.node, (std::vector<int>{0, 0, 0, 1}));
  EXPECT_EQ(t.init[t.loc_index(Loc{1, 2})], 3); // "init s = 3": every PE's copy
  const auto& a = t.threads[0].ops;
  EXPECT_EQ(a[0].kind, OpKind::PutSignalNbi);
  EXPECT_EQ(a[0].update, SignalUpdate::Add);
  EXPECT_EQ(a[0].value2, 2);
  EXPECT_EQ(a[0].loc2, (Loc{1, 1}));
  EXPECT_EQ(a[0].signal, SignalStrength::Strong);
  EXPECT_EQ(a[0].coverage, Coverage::Comm);
  EXPECT_EQ(a[0].scope, Scope::Device);
  EXPECT_EQ(a[0].path, DataPath::Bypass);
  EXPECT_EQ(a[1].coverage, Coverage::Comm);
  EXPECT_EQ(a[1].scope, Scope::Node);
  EXPECT_EQ(a[3].kind, OpKind::PeQuiet);
  EXPECT_EQ(a[3].pe, 2);
  EXPECT_EQ(a[4].kind, OpKind::BarrierAll);
  EXPECT_EQ(a[5].kind, OpKind::AmoFetchAdd);
  EXPECT_EQ(a[5].value, 4);
  EXPECT_EQ(a[6].kind, OpKind::AmoCompareSwap);
  EXPECT_EQ(a[6].value, 0);
  EXPECT_EQ(a[6].value2, 9);
  EXPECT_EQ(a[7].kind, OpKind::GetNbi);
  EXPECT_EQ(a[7].loc2, (Loc{2, 0}));
  EXPECT_EQ(a[7].loc, (Loc{0, 3}));
  EXPECT_EQ(a[8].kind, OpKind::PutNbi);
  const auto& b = t.threads[1].ops;
  EXPECT_EQ(b[0].kind, OpKind::SignalWait);
  EXPECT_EQ(b[0].cmp, Cmp::Ge);
  EXPECT_EQ(b[0].strength, Strength::Comm);
  EXPECT_EQ(b[0].scope, Scope::Node);
  EXPECT_EQ(b[1].kind, OpKind::WaitUntil);
  EXPECT_EQ(b[1].cmp, Cmp::Ne);
  EXPECT_EQ(b[1].strength, Strength::Relaxed);
  EXPECT_EQ(b[1].reg, -1);
  EXPECT_EQ(b[2].kind, OpKind::Test);
  EXPECT_EQ(b[3].kind, OpKind::BypassLoad);
  EXPECT_EQ(b[6].kind, OpKind::SignalOp);
  EXPECT_EQ(b[6].coverage, Coverage::Comm);
  EXPECT_EQ(format_condition(t), "P1:r0 == 3 /\\ ~(x@1 == 1 \\/ P0:r2 < 0)");
  EXPECT_EQ(format_op(t, t.threads[0], a[0]), "put_signal_nbi x@1 = 1, s@1 add 2 strong comm device bypass");
}

// Data path: bypass by default on the put and get families; keep with coverage all (or bypass with comm) is a valid
// put_signal; p and g take no data path (keep + comm on put_signal and a path on p/g are in the error cases).
TEST(Parser, DataPath) {
  LitmusTest t = parse_litmus(with_ops("", "  put x@1 = 1\n  put x@1 = 1 keep\n  put x@1 = 1 nbi keep\n  p x@1 = 1\n"
                                           "  put_signal x@1 = 1, s@1 set 1 keep all\n"
                                           "  put_signal x@1 = 1, s@1 set 1 comm bypass\n"
                                           "  put_signal x@1 = 1, s@1 set 1 keep\n  r0 = g x@1\n  r1 = get x@1 keep\n"
                                           "  get_nbi f = x@1"),
                              "t.litmus");
  const auto& a = t.threads[0].ops;
  ASSERT_EQ(a.size(), 10u);
  EXPECT_EQ(a[0].path, DataPath::Bypass);
  EXPECT_EQ(a[1].path, DataPath::Keep);
  EXPECT_EQ(a[2].kind, OpKind::PutNbi);
  EXPECT_EQ(a[2].path, DataPath::Keep);
  EXPECT_EQ(a[3].path, DataPath::Bypass);
  EXPECT_EQ(a[4].path, DataPath::Keep);
  EXPECT_EQ(a[4].coverage, Coverage::All);
  EXPECT_EQ(a[5].path, DataPath::Bypass);
  EXPECT_EQ(a[5].coverage, Coverage::Comm);
  EXPECT_EQ(a[6].coverage, Coverage::All); // keep alone: coverage all by default, accepted
  EXPECT_EQ(a[7].path, DataPath::Bypass);
  EXPECT_EQ(a[8].path, DataPath::Keep);
  EXPECT_EQ(a[9].path, DataPath::Bypass);
  EXPECT_EQ(format_op(t, t.threads[0], a[0]), "put x@1 = 1 bypass");
  EXPECT_EQ(format_op(t, t.threads[0], a[3]), "p x@1 = 1");
  EXPECT_EQ(format_op(t, t.threads[0], a[7]), "r0 = g x@1");
  EXPECT_EQ(format_op(t, t.threads[0], a[4]), "put_signal x@1 = 1, s@1 set 1 weak all system keep");
}

TEST(Parser, ThreadsAreOrderedByPe) {
  LitmusTest t = parse_litmus("name T\nlocations x\nP1:\n r0 = load x\nP0:\n store x@1 = 1\nexists P1:r0 == 1\n"
                              "expect allowed\n");
  ASSERT_EQ(t.threads.size(), 2u);
  EXPECT_EQ(t.threads[0].pe, 0);
  EXPECT_EQ(t.threads[1].pe, 1);
  EXPECT_EQ(t.cond.nodes[t.cond.root].thread, 1);
}

struct BadCase {
  std::string text;
  int line;
  std::string message; // a substring of the message
};

TEST(Parser, ErrorsNameTheLineAndTheProblem) {
  const std::vector<BadCase> cases = {
      {with_ops("", "  frobnicate x@1"), 4, "unknown call 'frobnicate'"},
      {with_ops("", "  put y@1 = 1"), 4, "unknown location 'y'"},
      {with_ops("pes 2\n", "  put x@3 = 1"), 5, "PE 3 out of range"},
      {with_ops("", "  fence strong"), 4, "qualifier 'strong' does not apply to fence"},
      {with_ops("", "  fence all comm"), 4, "conflicting or repeated qualifier 'comm'"},
      {with_ops("", "  quiet sometimes"), 4, "unknown qualifier 'sometimes'"},
      {with_ops("", "  put x@1 = 1 acquire"), 4, "does not apply to put"},
      {with_ops("", "  wait f@1 == 1"), 4, "wait works on the caller's own copy"},
      {with_ops("", "  get x@1"), 4, "get returns a value"},
      {with_ops("", "  r0 = put x@1 = 1"), 4, "put returns no value"},
      {with_ops("", "  put x@1 1"), 4, "expected '='"},
      {with_ops("", "  wait f = 1"), 4, "expected a comparison"},
      {with_ops("", "  put_signal x@1 = 1, s@0 set 1"), 4, "one PE"},
      {with_ops("", "  put_signal x@1 = 1, s@1 set 1 keep comm"), 4, "keep data and coverage comm"},
      {with_ops("", "  put_signal x@1 = 1, s@1 add 1 comm strong keep nbi"), 4, "signal could not cover its own data"},
      {with_ops("", "  p x@1 = 1 bypass"), 4, "p is a single coherent access and takes no data-path qualifier"},
      {with_ops("", "  p x@1 = 1 keep"), 4, "takes no data-path qualifier ('keep')"},
      {with_ops("", "  r0 = g x@1 keep"), 4, "g is a single coherent access and takes no data-path qualifier"},
      {with_ops("", "  put x@1 = 1 keep bypass"), 4, "conflicting or repeated qualifier 'bypass'"},
      {with_ops("", "  signal_op s@1 mul 1"), 4, "expected 'set' or 'add'"},
      {with_ops("nodes 0 | 1\n", "  store x@1 = 1"), 5, "another node"},
      {with_ops("devices 0 1\nnodes 0 | 1\n", "  fence"), 2, "share a device but not a node"},
      {with_ops("devices 0\n", "  fence"), 2, "must list every PE"},
      {with_ops("", "  barrier_all"), 5, "same number of times"},
      {with_ops("", "  put x@1 = 1 $"), 4, "unexpected character '$'"},
      {"name T\nlocations x\nP0:\n  fence\nexists true\n", 5, "missing 'expect"},
      {"name T\nlocations x\nP0:\n  fence\nexpect allowed\n", 5, "missing 'exists'"},
      {"locations x\nP0:\n  fence\nexists true\nexpect allowed\n", 5, "missing 'name'"},
      {"name T\nlocations x\nP0:\n  fence\nexists true\nexpect sometimes\n", 6, "expected 'allowed' or 'forbidden'"},
      {"name T\nlocations x\nP0:\n  fence\nexists P1:r0 == 0\nexpect allowed\n", 5, "P1, which has no thread"},
      {"name T\nlocations x\nP0:\n  r1 = load x\nexists P0:r0 == 0\nexpect allowed\n", 5, "no register 'r0'"},
      {"name T\nlocations x\nP0:\n  fence\nexists x == 0\nexpect allowed\n", 5, "expected '@PE'"},
      {"name T\nlocations x\nP0:\n  fence\nP0:\n  fence\nexists true\nexpect allowed\n", 5, "already has a thread"},
      {"name T\nlocations x\n  fence\nexists true\nexpect allowed\n", 3, "no thread ('P0:') is open"},
      {"name T\nname U\nlocations x\nP0:\n  fence\nexists true\nexpect allowed\n", 2, "'name' given twice"},
      {"name T\nlocations x x\nP0:\n  fence\nexists true\nexpect allowed\n", 2, "declared twice"},
      {"name T\nlocations x\nP0:\n  fence\nexists (true\nexpect allowed\n", 5, "expected ')'"},
      {"name T\nlocations x\nP0:\n  put x@0 = 99999999999999999999\nexists true\nexpect allowed\n", 4, "bad number"},
      {with_ops("", "  r0 = fetch x@1 keep"), 4, "qualifier 'keep' does not apply to fetch"},
      {with_ops("", "  p x@1 = s"), 4, "p writes a value, not a copy of a location: use put"},
      {with_ops("", "  put x@1 = s@1"), 4, "the source of a put is the caller's local memory: write 's', not 's@1'"},
      {with_ops("", "  put_signal x@1 = f@1, s@1 set 1"), 4, "the source of a put is the caller's local memory"},
      {with_ops("", "  put x@1 = y"), 4, "unknown location 'y'"},
  };
  for (const BadCase& c : cases) {
    LitmusError e = error_of(c.text);
    EXPECT_EQ(e.line(), c.line) << c.text << "\n-> " << e.what();
    EXPECT_NE(e.message().find(c.message), std::string::npos) << "wanted '" << c.message << "', got: " << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("t.litmus:" + std::to_string(c.line) + ": ", 0), 0u) << e.what();
  }
}

// Scope belongs on the calls that order: every put, get and AMO refuses it with the same explanation.
TEST(Parser, CommOpsTakeNoScope) {
  const std::vector<std::pair<std::string, std::string>> calls = {
      {"put x@1 = 1", "put"},
      {"put x@1 = 1 nbi", "put"},
      {"put_nbi x@1 = s", "put_nbi"},
      {"p x@1 = 1", "p"},
      {"r0 = get x@1", "get"},
      {"get_nbi f = x@1", "get_nbi"},
      {"r0 = g x@1", "g"},
      {"r0 = fetch x@1", "fetch"},
      {"set x@1 = 1", "set"},
      {"r0 = swap x@1 2", "swap"},
      {"r0 = compare_swap x@1 0 1", "compare_swap"},
      {"r0 = fetch_inc x@1", "fetch_inc"},
      {"inc x@1", "inc"},
      {"add x@1 2", "add"},
      {"r0 = atomic_fetch_xor x@1 3", "fetch_xor"},
      {"or x@1 1", "or"},
  };
  for (const auto& [call, name] : calls)
    for (const char* scope : {"device", "node", "system"}) {
      LitmusError e = error_of(with_ops("", "  " + call + " " + scope));
      EXPECT_EQ(e.line(), 4);
      EXPECT_EQ(e.message(), name +
                                 " takes no scope: the library writes and reads every symmetric location coherently "
                                 "at system scope; a scope belongs on the call that orders (fence, quiet, put_signal, "
                                 "signal_op, waits, barriers)")
          << call << " " << scope;
    }
  // The calls that order keep their scope.
  EXPECT_NO_THROW(parse_litmus(with_ops("", "  fence device\n  quiet node\n  put_signal x@1 = 1, s@1 set 1 device\n"
                                            "  signal_op s@1 add 1 node\n  pe_quiet 1 system"),
                               "t.litmus"));
}

// A relay put copies the caller's own copy of a location: a comm read of it, whose value the put writes.
TEST(Parser, RelayPut) {
  LitmusTest t =
      parse_litmus(with_ops("", "  put x@1 = s\n  put_nbi x@1 = s@0 keep\n  put_signal x@1 = f, s@1 add 2 comm\n"
                                "  put x@1 = 7"),
                   "t.litmus");
  const auto& a = t.threads[0].ops;
  EXPECT_EQ(a[0].src, (Loc{2, 0}));
  EXPECT_EQ(a[1].src, (Loc{2, 0})); // s@0 is the caller's own copy: accepted
  EXPECT_EQ(a[1].kind, OpKind::PutNbi);
  EXPECT_EQ(a[2].src, (Loc{1, 0}));
  EXPECT_EQ(a[3].src.sym, -1);
  EXPECT_EQ(a[3].value, 7);
  EXPECT_EQ(format_op(t, t.threads[0], a[0]), "put x@1 = s bypass");
  EXPECT_EQ(format_op(t, t.threads[0], a[2]), "put_signal x@1 = f, s@1 add 2 weak comm system bypass");
}

// Location types: u8, u16, u32, u64 (the default); the constants a test writes to, adds to, compares with or swaps
// into a typed location must fit its unsigned range.
TEST(Parser, LocationTypes) {
  auto typed = [](const std::string& p0, const std::string& extra = "") {
    return "name T\nlocations x c:u8 h:u16 w:u32 d:u64\n" + extra + "P0:\n" + p0 + "\nexists true\nexpect allowed\n";
  };
  LitmusTest t = parse_litmus(
      typed("  p c@1 = 255\n  p h@1 = 65535\n  p w@1 = 4294967295\n  p d@1 = -1\n  p x@1 = -5", "init c = 3 h@1 = 9\n"),
      "t.litmus");
  EXPECT_EQ(t.types, (std::vector<LocType>{LocType::U64, LocType::U8, LocType::U16, LocType::U32, LocType::U64}));
  EXPECT_EQ(t.init[t.loc_index(Loc{1, 1})], 3);
  const std::vector<BadCase> cases = {
      {typed("  p c@1 = 256"), 4, "value 256 does not fit location 'c' of type u8 (0..255)"},
      {typed("  p h@1 = -1"), 4, "value -1 does not fit location 'h' of type u16 (0..65535)"},
      {typed("  p w@1 = 4294967296"), 4, "of type u32 (0..4294967295)"},
      {typed("  store c = 300"), 4, "value 300 does not fit location 'c'"},
      {typed("  put h@1 = 70000 keep"), 4, "value 70000 does not fit location 'h'"},
      {typed("  add c@1 256"), 4, "value 256 does not fit"},
      {typed("  r0 = compare_swap c@1 0 256"), 4, "value 256 does not fit"},
      {typed("  r0 = compare_swap c@1 256 0"), 4, "value 256 does not fit"},
      {typed("  r0 = swap h@1 65536"), 4, "value 65536 does not fit"},
      {typed("  wait c == 256"), 4, "value 256 does not fit"},
      {typed("  r0 = test h != 65536"), 4, "value 65536 does not fit"},
      {typed("  signal_op c@1 set 256"), 4, "value 256 does not fit"},
      {typed("  put_signal x@1 = 1, c@1 set 256"), 4, "value 256 does not fit"},
      {typed("  put_signal c@1 = 256, x@1 set 1"), 4, "value 256 does not fit"},
      {typed("  put h@1 = c"), 4, "put copies elements of one type: 'c' is u8, 'h' is u16"},
      {typed("  get_nbi c = x@1"), 4, "get_nbi copies elements of one type: 'x' is u64, 'c' is u8"},
      {typed("  fence", "init c@1 = 256\n"), 3, "value 256 does not fit location 'c'"},
      {"name T\nlocations c:u8\nP0:\n  fence\nexists c@0 == 256\nexpect allowed\n", 5, "value 256 does not fit"},
      {"name T\nlocations c:u7\nP0:\n  fence\nexists true\nexpect allowed\n", 2, "unknown type 'u7' of location 'c'"},
  };
  for (const BadCase& c : cases) {
    LitmusError e = error_of(c.text);
    EXPECT_EQ(e.line(), c.line) << c.text << "\n-> " << e.what();
    EXPECT_NE(e.message().find(c.message), std::string::npos) << "wanted '" << c.message << "', got: " << e.what();
  }
}

// format_op writes what the parser reads: every op of every catalogue test survives a round trip.
TEST(Parser, FormattedOpsParseBack) {
  for (const auto& entry : std::filesystem::directory_iterator(PORTSHMEM_LITMUS_DIR)) {
    if (entry.path().extension() != ".litmus") continue;
    LitmusTest t = parse_litmus_file(entry.path().string());
    std::string text = "name R\npes " + std::to_string(t.pes) + "\nlocations";
    for (std::size_t i = 0; i < t.syms.size(); ++i)
      text += " " + t.syms[i] + (t.types[i] == LocType::U64 ? "" : std::string(":") + name(t.types[i]));
    for (const auto& [key, group] : {std::pair{"devices", &t.device}, std::pair{"nodes", &t.node}}) {
      text += std::string("\n") + key;
      for (int g = 0; g <= *std::max_element(group->begin(), group->end()); ++g) {
        text += g ? " |" : "";
        for (int pe = 0; pe < t.pes; ++pe)
          if ((*group)[pe] == g) text += " " + std::to_string(pe);
      }
    }
    text += "\n";
    for (const Thread& th : t.threads) {
      text += "P" + std::to_string(th.pe) + ":\n";
      for (const Op& op : th.ops) text += "  " + format_op(t, th, op) + "\n";
    }
    text += "exists true\nexpect allowed\n";
    SCOPED_TRACE(entry.path().string() + "\n" + text);
    LitmusTest u = parse_litmus(text, "roundtrip");
    ASSERT_EQ(u.threads.size(), t.threads.size());
    for (std::size_t i = 0; i < t.threads.size(); ++i) {
      ASSERT_EQ(u.threads[i].ops.size(), t.threads[i].ops.size());
      EXPECT_EQ(u.threads[i].regs, t.threads[i].regs);
      for (std::size_t j = 0; j < t.threads[i].ops.size(); ++j) {
        const Op &a = t.threads[i].ops[j], &b = u.threads[i].ops[j];
        EXPECT_EQ(format_op(u, u.threads[i], b), format_op(t, t.threads[i], a));
        EXPECT_TRUE(a.kind == b.kind && a.loc == b.loc && a.loc2 == b.loc2 && a.src == b.src && a.value == b.value &&
                    a.value2 == b.value2 && a.cmp == b.cmp && a.update == b.update && a.reg == b.reg && a.pe == b.pe &&
                    a.coverage == b.coverage && a.scope == b.scope && a.path == b.path && a.strength == b.strength &&
                    a.signal == b.signal)
            << format_op(t, t.threads[i], a);
      }
    }
  }
}

TEST(Parser, MissingFileIsAnError) {
  try {
    parse_litmus_file("/nonexistent/dir/x.litmus");
    FAIL() << "no error";
  } catch (const LitmusError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/x.litmus:0: cannot read"), std::string::npos);
  }
}

} // namespace
