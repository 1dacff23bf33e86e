// Synchronization as the model computes it: A11 carries only releasing edges (and release writes) to a home read that
// observes a coherent write; C2 ignores a cached write observed by another thread; C4 orders SC points (psc); relay
// puts carry a value from one PE to the next.
#include <gtest/gtest.h>

#include <string>

#include "enumerate.hpp"
#include "litmus.hpp"

using namespace portshmem::model;

namespace {

bool allowed(const std::string& locations, const std::string& threads, const std::string& cond) {
  const std::string text = "name T\nlocations " + locations + "\n" + threads + "exists " + cond + "\nexpect allowed\n";
  return run_model(parse_litmus(text, "inline")).condition_reachable;
}

// WRC: P1 observes P0's put, then writes a flag for P2; `middle` is P1's code between its wait and its flag.
bool wrc(const std::string& middle) {
  return allowed("x f s",
                 "P0:\n  put x@1 = 1\nP1:\n  wait x == 1 relaxed\n" + middle + "P2:\n  wait f == 1\n  r0 = load x@1\n",
                 "P2:r0 == 0");
}

TEST(Sync, ObservingARelaxedWriteCarriesNothing) {
  EXPECT_TRUE(wrc("  p f@2 = 1\n"));                           // a plain p releases nothing
  EXPECT_TRUE(wrc("  fence\n  p f@2 = 1\n"));                  // a fence orders P1's writes only, not what it observed
  EXPECT_TRUE(wrc("  signal_op f@2 set 1 comm\n"));            // signal_op<comm> is a relaxed write
  EXPECT_FALSE(wrc("  quiet\n  p f@2 = 1\n"));                 // an edge out of a quiet into a write is releasing
  EXPECT_FALSE(wrc("  signal_op f@2 set 1\n"));                // signal_op<all> is a release write
  EXPECT_FALSE(wrc("  put_signal s@2 = 1, f@2 set 1 comm\n")); // so is every put_signal signal
}

TEST(Sync, AnAcquireWaitIsNoRelease) {
  EXPECT_TRUE(allowed("x f",
                      "P0:\n  put x@1 = 1\n  fence\n  p f@1 = 1\nP1:\n  wait f == 1\n  p f@2 = 1\n"
                      "P2:\n  wait f == 1\n  r0 = g x@1\n",
                      "P2:r0 == 0"));
}

TEST(Sync, ACachedWriteIsNoFlag) {
  const std::string reader = "P1:\n  wait f == 1\n  r0 = load x\n";
  EXPECT_TRUE(allowed("x f", "P0:\n  store x@1 = 1\n  fence\n  store f@1 = 1\n" + reader, "P1:r0 == 0"));
  EXPECT_TRUE(allowed("x f", "P0:\n  put x@1 = 1\n  fence\n  put f@1 = 1 keep\n" + reader, "P1:r0 == 0"));
  EXPECT_FALSE(allowed("x f", "P0:\n  store x@1 = 1\n  fence\n  p f@1 = 1\n" + reader, "P1:r0 == 0"));
  EXPECT_FALSE(allowed("x f", "P0:\n  put x@1 = 1 keep\n  fence\n  put f@1 = 1\n" + reader, "P1:r0 == 0"));
}

TEST(Sync, FenceOrdersWritesNotFetches) {
  auto iriw = [](const std::string& sep) {
    const std::string r =
        "  r0 = fetch x@4\n" + sep + "  r1 = fetch y@4\nP3:\n  r0 = fetch y@4\n" + sep + "  r1 = fetch x@4\n";
    return allowed("x y", "P0:\n  set x@4 = 1\nP1:\n  set y@4 = 1\nP2:\n" + r,
                   "P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0");
  };
  EXPECT_TRUE(iriw("  fence\n"));
  EXPECT_FALSE(iriw("  quiet\n"));
}

TEST(Sync, CoherenceIgnoresAnotherThreadsCachedWrite) {
  auto corr = [](const std::string& write) {
    return allowed("x", "P0:\n  " + write + "\nP1:\n  r0 = load x\n  r1 = load x\n", "P1:r0 == 1 /\\ P1:r1 == 0");
  };
  EXPECT_TRUE(corr("store x@1 = 1"));
  EXPECT_TRUE(corr("put x@1 = 1 keep"));
  EXPECT_FALSE(corr("p x@1 = 1"));
  EXPECT_FALSE(corr("put x@1 = 1"));
  // The caller's own ordinary store stays in coherence order.
  EXPECT_FALSE(allowed("x", "P1:\n  store x = 1\n  r0 = load x\n", "P1:r0 == 0"));
}

TEST(Sync, ScPointsOrderHomeAccesses) {
  auto iriw = [](const std::string& sep) {
    const std::string r = "  r0 = g x@0\n" + sep + "  r1 = g y@1\nP3:\n  r0 = g y@1\n" + sep + "  r1 = g x@0\n";
    return allowed("x y", "P0:\n  put x@0 = 1\nP1:\n  put y@1 = 1\nP2:\n" + r,
                   "P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0");
  };
  EXPECT_FALSE(iriw("  quiet\n"));
  EXPECT_FALSE(iriw("  pe_quiet 3\n")); // pe_quiet's Q is an SC point too, whatever PE it completes
  EXPECT_TRUE(iriw(""));
  // Store buffering with a quiet on each side, and 2+2W with quiets.
  EXPECT_FALSE(allowed("x y",
                       "P0:\n  set x@2 = 1\n  quiet\n  r0 = fetch y@2\nP1:\n  set y@2 = 1\n  quiet\n"
                       "  r0 = fetch x@2\n",
                       "P0:r0 == 0 /\\ P1:r0 == 0"));
  // R: one writer fenced, the other quieted. Only SC points of both threads give psc; C4 no longer orders every home
  // access.
  auto r = [&](const std::string& sep0) {
    return allowed("x y", "P0:\n  put x@2 = 1\n" + sep0 + "  put y@2 = 1\nP1:\n  put y@2 = 2\n  quiet\n  r0 = g x@2\n",
                   "y@2 == 2 /\\ P1:r0 == 0");
  };
  EXPECT_TRUE(r("  fence\n"));
  EXPECT_FALSE(r("  quiet\n"));
  // sync_all completes nothing and is no SC point.
  EXPECT_TRUE(allowed("x y",
                      "P0:\n  set x@2 = 1\n  sync_all\n  r0 = fetch y@2\nP1:\n  set y@2 = 1\n  sync_all\n"
                      "  r0 = fetch x@2\n",
                      "P0:r0 == 0 /\\ P1:r0 == 0"));
}

TEST(Sync, ReleaseThroughAtomicChains) {
  // The second add reads the first (a home read of a release write) and releases in turn.
  EXPECT_FALSE(allowed("x y s",
                       "P0:\n  store x@2 = 1\n  signal_op s@2 add 1\nP1:\n  store y@2 = 1\n  signal_op s@2 add 1\n"
                       "P2:\n  signal_wait s == 2\n  r0 = load x\n  r1 = load y\n",
                       "P2:r0 == 0 \\/ P2:r1 == 0"));
}

TEST(Sync, RelayCarriesTheValueItRead) {
  auto relay = [](const std::string& wait, const std::string& put) {
    return allowed("x y f g",
                   "P0:\n  put x@1 = 1\n  fence comm\n  p f@1 = 1\nP1:\n  " + wait + "\n  " + put +
                       "\n  fence comm\n  p g@2 = 1\nP2:\n  wait g == 1\n  r0 = load y\n",
                   "P2:r0 == 0");
  };
  EXPECT_FALSE(relay("wait f == 1 comm", "put y@2 = x"));
  EXPECT_FALSE(relay("wait f == 1", "put_nbi y@2 = x"));
  EXPECT_TRUE(relay("wait f == 1 relaxed", "put y@2 = x"));   // the source read may come before the flag's
  EXPECT_TRUE(relay("wait f == 1 comm", "put y@2 = x keep")); // fence<comm> does not order a keep put
  // The data is what the source read returned (here the initial value).
  EXPECT_FALSE(allowed("x y",
                       "init x = 5\nP0:\n  put y@1 = x\n  quiet\n  p x@1 = 1\nP1:\n  wait x == 1\n  r0 = load y\n",
                       "~(P1:r0 == 5)"));
}

} // namespace
