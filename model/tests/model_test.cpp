// The model on the classic shapes (MP, SB, IRIW, CoRR, LB, 2+2W), written with portshmem calls, and on the
// mechanics of the enumerator (outcome sets, atomicity, waits that never return, scope notes).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "enumerate.hpp"
#include "litmus.hpp"

using namespace portshmem::model;

namespace {

// Builds a test from threads and a condition; the expectation line is irrelevant here.
LitmusTest make(const std::string& header, const std::string& threads, const std::string& cond) {
  return parse_litmus("name T\n" + header + threads + "exists " + cond + "\nexpect allowed\n", "inline");
}

bool allowed(const std::string& header, const std::string& threads, const std::string& cond) {
  return run_model(make(header, threads, cond)).condition_reachable;
}

// The set of values register `reg` ("P1:r0") takes over the allowed outcomes.
std::set<std::int64_t> values(const ModelResult& r, const std::string& reg) {
  auto it = std::find(r.reg_names.begin(), r.reg_names.end(), reg);
  EXPECT_NE(it, r.reg_names.end()) << reg;
  std::set<std::int64_t> out;
  for (const Outcome& o : r.outcomes) out.insert(o.regs[it - r.reg_names.begin()]);
  return out;
}

const std::string kXF = "locations x f\n";

TEST(Model, MessagePassing) {
  const std::string reader = "P1:\n  wait f == 1\n  r0 = load x\n";
  EXPECT_TRUE(allowed(kXF, "P0:\n  put x@1 = 1\n  p f@1 = 1\n" + reader, "P1:r0 == 0"));
  EXPECT_FALSE(allowed(kXF, "P0:\n  put x@1 = 1\n  fence\n  p f@1 = 1\n" + reader, "P1:r0 == 0"));
  EXPECT_FALSE(allowed(kXF, "P0:\n  put x@1 = 1\n  quiet\n  p f@1 = 1\n" + reader, "P1:r0 == 0"));
  EXPECT_FALSE(allowed(kXF, "P0:\n  put_signal x@1 = 1, f@1 set 1\n" + reader, "P1:r0 == 0"));
  // Exact outcome sets: without the fence both values, with it only the new one.
  ModelResult weak = run_model(make(kXF, "P0:\n  put x@1 = 1\n  p f@1 = 1\n" + reader, "true"));
  EXPECT_EQ(values(weak, "P1:r0"), (std::set<std::int64_t>{0, 1}));
  ModelResult strong = run_model(make(kXF, "P0:\n  put x@1 = 1\n  fence\n  p f@1 = 1\n" + reader, "true"));
  EXPECT_EQ(values(strong, "P1:r0"), (std::set<std::int64_t>{1}));
}

TEST(Model, StoreBuffering) {
  auto sb = [](const std::string& sep) {
    return allowed("locations x y\n",
                   "P0:\n  put x@2 = 1\n" + sep + "  r0 = g y@2\nP1:\n  put y@2 = 1\n" + sep + "  r0 = g x@2\n",
                   "P0:r0 == 0 /\\ P1:r0 == 0");
  };
  EXPECT_TRUE(sb(""));
  EXPECT_TRUE(sb("  fence\n")); // fence does not order the get
  EXPECT_FALSE(sb("  quiet\n"));
  EXPECT_FALSE(sb("  barrier_all\n"));
}

TEST(Model, IndependentReadsOfIndependentWrites) {
  auto iriw = [](const std::string& read, const std::string& sep) {
    std::string r = "P2:\n  r0 = " + read + " x@0\n" + sep + "  r1 = " + read + " y@1\nP3:\n  r0 = " + read + " y@1\n" +
                    sep + "  r1 = " + read + " x@0\n";
    return allowed("locations x y\n", "P0:\n  set x@0 = 1\nP1:\n  set y@1 = 1\n" + r,
                   "P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0");
  };
  EXPECT_FALSE(iriw("fetch", "  quiet\n"));
  EXPECT_FALSE(iriw("g", "  quiet\n")); // comm reads read at the home: once ordered, readers agree
  EXPECT_TRUE(iriw("fetch", ""));       // a call that returns a value does not hold back the next one
  EXPECT_TRUE(iriw("g", ""));
  EXPECT_TRUE(iriw("fetch", "  fence\n")); // x and y are on different PEs: fence orders per target only
  EXPECT_TRUE(iriw("load", "  quiet\n"));  // ordinary loads may be served by caches; quiet is no acquire
}

TEST(Model, CoherenceOfReads) {
  const std::string w = "P0:\n  set x@2 = 1\n";
  EXPECT_FALSE(allowed("locations x\n", w + "P1:\n  r0 = fetch x@2\n  r1 = fetch x@2\n", "P1:r0 == 1 /\\ P1:r1 == 0"));
  EXPECT_FALSE(allowed("locations x\n", w + "P2:\n  r0 = load x\n  r1 = load x\n", "P2:r0 == 1 /\\ P2:r1 == 0"));
  EXPECT_TRUE(allowed("locations x\n", w + "P1:\n  r0 = fetch x@2\n  r1 = fetch x@2\n", "P1:r0 == 0 /\\ P1:r1 == 1"));
  // get_nbi is not complete on return: a later blocking get may be performed first.
  EXPECT_TRUE(allowed("locations x d\n", w + "P1:\n  get_nbi d = x@2\n  r1 = g x@2\n  quiet\n  r0 = load d\n",
                      "P1:r0 == 0 /\\ P1:r1 == 1"));
}

TEST(Model, CoherenceOfWrites) {
  // One thread's ordinary stores to one location keep their order; its puts do not without a fence.
  EXPECT_FALSE(allowed("locations x\n", "P0:\n  store x@1 = 1\n  store x@1 = 2\n", "x@1 == 1"));
  EXPECT_TRUE(allowed("locations x\n", "P0:\n  put x@1 = 1\n  put x@1 = 2\n", "x@1 == 1"));
  EXPECT_FALSE(allowed("locations x\n", "P0:\n  put x@1 = 1\n  fence\n  put x@1 = 2\n", "x@1 == 1"));
  // A thread reads its own ordinary store (or something newer).
  EXPECT_FALSE(allowed("locations x\n", "P0:\n  store x = 1\n  r0 = load x\n", "P0:r0 == 0"));
}

TEST(Model, LoadBuffering) {
  EXPECT_TRUE(allowed("locations x y\n", "P0:\n  r0 = g x@2\n  p y@2 = 1\nP1:\n  r0 = g y@2\n  p x@2 = 1\n",
                      "P0:r0 == 1 /\\ P1:r0 == 1"));
  EXPECT_FALSE(allowed("locations x y\n",
                       "P0:\n  r0 = g x@2\n  quiet\n  p y@2 = 1\nP1:\n  r0 = g y@2\n  quiet\n  p x@2 = 1\n",
                       "P0:r0 == 1 /\\ P1:r0 == 1"));
  EXPECT_TRUE(allowed("locations x y\n", "P0:\n  r0 = load x\n  store y@1 = 1\nP1:\n  r0 = load y\n  store x@0 = 1\n",
                      "P0:r0 == 1 /\\ P1:r0 == 1"));
  // A barrier separates earlier loads from later stores of other PEs.
  EXPECT_FALSE(allowed("locations x\n", "P0:\n  r0 = load x\n  barrier_all\nP1:\n  barrier_all\n  store x@0 = 1\n",
                       "P0:r0 == 1"));
}

TEST(Model, TwoPlusTwoWrites) {
  auto w22 = [](const std::string& sep) {
    return allowed("locations x y\n",
                   "P0:\n  put x@2 = 1\n" + sep + "  put y@2 = 2\nP1:\n  put y@2 = 1\n" + sep + "  put x@2 = 2\n",
                   "x@2 == 1 /\\ y@2 == 1");
  };
  EXPECT_TRUE(w22(""));
  EXPECT_TRUE(w22("  fence\n"));  // fences order each writer's own puts, not the two writers' coherence
  EXPECT_FALSE(w22("  quiet\n")); // quiets are SC points (C4)
}

TEST(Model, AtomicsAreAtomic) {
  ModelResult r =
      run_model(make("locations c\n", "P0:\n  inc c@2\nP1:\n  r0 = fetch_inc c@2\nP3:\n  add c@2 10\n", "true"));
  for (const Outcome& o : r.outcomes) EXPECT_EQ(o.mem[0 * 4 + 2], 12);
  EXPECT_EQ(values(r, "P1:r0"), (std::set<std::int64_t>{0, 1, 10, 11}));
  ModelResult s = run_model(make("locations c\n", "P0:\n  r0 = swap c@2 5\nP1:\n  r0 = swap c@2 7\n", "true"));
  EXPECT_EQ(values(s, "P0:r0"), (std::set<std::int64_t>{0, 7}));
}

TEST(Model, WaitStrengths) {
  auto mp = [](const std::string& wait, const std::string& read) {
    return allowed(kXF, "P0:\n  put x@1 = 1\n  fence\n  p f@1 = 1\nP1:\n  " + wait + "\n  r0 = " + read + "\n",
                   "P1:r0 == 0");
  };
  EXPECT_FALSE(mp("wait f == 1", "load x"));
  EXPECT_FALSE(mp("wait f == 1", "g x@1"));
  EXPECT_TRUE(mp("wait f == 1 comm", "load x"));
  EXPECT_FALSE(mp("wait f == 1 comm", "g x@1"));
  EXPECT_FALSE(mp("wait f == 1 comm", "bypass_load x"));
  EXPECT_TRUE(mp("wait f == 1 relaxed", "load x"));
  EXPECT_TRUE(mp("wait f == 1 relaxed", "g x@1"));
  // Even a relaxed wait orders later writes (execution order): the flag it saw was written before.
  EXPECT_FALSE(
      allowed(kXF, "P0:\n  r0 = g x@1\n  quiet\n  p f@1 = 1\nP1:\n  wait f == 1 relaxed\n  p x@1 = 1\n", "P0:r0 == 1"));
}

// A keep put is, for coverage, an ordinary store: every call with coverage comm leaves it out, coverage all orders and
// completes it. Bypass (the default), p, AMOs and signals are covered by comm.
TEST(Model, KeepPutsAreCoveredOnlyByAll) {
  auto stale = [](const std::string& put, const std::string& sep, const std::string& flag = "p f@1 = 1") {
    return allowed("locations x f y\n",
                   "P0:\n  " + put + "\n" + sep + "  " + flag + "\nP1:\n  wait f == 1 comm\n  r0 = g x@1\n",
                   "P1:r0 == 0");
  };
  for (const std::string put : {"put x@1 = 1 keep", "put_nbi x@1 = 1 keep"}) {
    SCOPED_TRACE(put);
    EXPECT_TRUE(stale(put, "  fence comm\n"));
    EXPECT_FALSE(stale(put, "  fence all\n"));
    EXPECT_FALSE(stale(put, "  fence\n")); // coverage all is the default
    EXPECT_TRUE(stale(put, "  quiet comm\n"));
    EXPECT_FALSE(stale(put, "  quiet all\n"));
    EXPECT_TRUE(stale(put, "  pe_quiet 1 comm\n"));
    EXPECT_FALSE(stale(put, "  pe_quiet 1\n"));
    EXPECT_TRUE(stale(put, "", "put_signal y@1 = 1, f@1 set 1 strong comm"));
    EXPECT_FALSE(stale(put, "", "put_signal y@1 = 1, f@1 set 1 strong all"));
    // Under all a signal_op publishes cached writes (A6), keep puts as ordinary stores; under comm it does not.
    EXPECT_TRUE(stale(put, "", "signal_op f@1 set 1 comm"));
    EXPECT_FALSE(stale(put, "", "signal_op f@1 set 1 all"));
  }
  // Bypass puts (the default) and p are ordered by a comm fence and completed by a comm quiet.
  for (const std::string put : {"put x@1 = 1", "put x@1 = 1 bypass", "put_nbi x@1 = 1", "p x@1 = 1"}) {
    SCOPED_TRACE(put);
    EXPECT_FALSE(stale(put, "  fence comm\n"));
    EXPECT_FALSE(stale(put, "  quiet comm\n"));
  }
  // Like ordinary stores under all, keep puts are published before every later write, whatever its target (A6).
  EXPECT_FALSE(allowed("locations x f\n",
                       "P0:\n  put x@1 = 1 keep\n  fence\n  p f@2 = 1\nP2:\n  wait f == 1\n  r0 = g x@1\n",
                       "P2:r0 == 0"));
  EXPECT_TRUE(allowed("locations x f\n", "P0:\n  put x@1 = 1\n  fence\n  p f@2 = 1\nP2:\n  wait f == 1\n  r0 = g x@1\n",
                      "P2:r0 == 0"));
  // barrier_all: comm leaves keep puts out, all completes them; sync_all completes no put, keep or bypass.
  auto barrier = [](const std::string& put, const std::string& b) {
    return allowed("locations x\n", "P0:\n  " + put + "\n  " + b + "\nP1:\n  " + b + "\n  r0 = g x@1\n", "P1:r0 == 0");
  };
  EXPECT_TRUE(barrier("put x@1 = 1 keep", "barrier_all comm"));
  EXPECT_FALSE(barrier("put x@1 = 1 keep", "barrier_all"));
  EXPECT_FALSE(barrier("put x@1 = 1", "barrier_all comm"));
  EXPECT_TRUE(barrier("put x@1 = 1 keep", "sync_all"));
  EXPECT_TRUE(barrier("put x@1 = 1", "sync_all"));
  // A get's data path has no effect: keep and bypass gets return the same values.
  for (const char* path : {"keep", "bypass"}) {
    EXPECT_FALSE(allowed(kXF,
                         std::string("P0:\n  put x@1 = 1\n  fence\n  p f@1 = 1\nP1:\n  wait f == 1 comm\n"
                                     "  r0 = get x@1 ") +
                             path + "\n",
                         "P1:r0 == 0"));
  }
}

TEST(Model, WaitThatNeverReturnsHasNoExecution) {
  ModelResult r = run_model(make(kXF, "P0:\n  p f@1 = 1\nP1:\n  wait f == 2\n", "true"));
  EXPECT_TRUE(r.outcomes.empty());
  EXPECT_FALSE(r.condition_reachable);
}

TEST(Model, RegistersOfWaitsAndTests) {
  ModelResult r = run_model(make("locations s\n",
                                 "P0:\n  signal_op s@1 add 2\nP2:\n  signal_op s@1 add 3\n"
                                 "P1:\n  r0 = signal_wait s >= 2\n  r1 = test s == 5\n",
                                 "true"));
  EXPECT_EQ(values(r, "P1:r0"), (std::set<std::int64_t>{2, 3, 5}));
  EXPECT_EQ(values(r, "P1:r1"), (std::set<std::int64_t>{0, 1}));
}

TEST(Model, ScopeNotesExplainMissingOrder) {
  ModelResult r = run_model(make(kXF,
                                 "P0:\n  put x@1 = 1\n  fence comm device\n  p f@1 = 1\n"
                                 "P1:\n  wait f == 1 device\n  r0 = load x\n",
                                 "P1:r0 == 0"));
  EXPECT_TRUE(r.condition_reachable);
  ASSERT_EQ(r.notes.size(), 2u);
  EXPECT_NE(r.notes[0].find("fence has scope device, which does not include P1"), std::string::npos);
  EXPECT_NE(r.notes[1].find("wait has scope device, which does not include P0"), std::string::npos);
  ModelResult same = run_model(make("devices 0 1\n" + kXF,
                                    "P0:\n  put x@1 = 1\n  fence comm device\n  p f@1 = 1\n"
                                    "P1:\n  wait f == 1 device\n  r0 = load x\n",
                                    "P1:r0 == 0"));
  EXPECT_FALSE(same.condition_reachable);
  EXPECT_TRUE(same.notes.empty());
}

TEST(Model, ConditionOnFinalMemoryAndExpectation) {
  LitmusTest t =
      parse_litmus("name T\nlocations x\nP0:\n  put x@1 = 1\n  put x@1 = 2\nexists x@1 == 1\nexpect forbidden\n");
  ModelResult r = run_model(t);
  EXPECT_TRUE(r.condition_reachable);
  EXPECT_FALSE(r.as_expected);
  EXPECT_EQ(r.outcomes.size(), 2u);
}

} // namespace
