// The host platform's CPU launcher: every thread runs, identities are right, block and wave barriers hold.
#include <atomic>
#include <vector>

#include <gtest/gtest.h>

#include "portshmem/arch/host_launch.hpp"

using portshmem::arch::host::current_thread;
using portshmem::arch::host::kWaveSize;
using portshmem::arch::host::run_grid;

TEST(HostLaunch, EveryThreadRunsOnceWithItsIdentity) {
  constexpr unsigned blocks = 5, threads = 19; // 19: the last wave of each block is partial
  std::vector<std::atomic<int>> seen(blocks * threads);
  std::atomic<int> bad{0};
  run_grid(blocks, threads, [&] {
    const auto* t = current_thread;
    seen[t->block * threads + t->thread]++;
    const unsigned wave_first = t->thread / kWaveSize * kWaveSize;
    if (t->threads != threads || t->blocks != blocks || t->wave_threads != std::min(kWaveSize, threads - wave_first))
      bad++;
  });
  for (auto& s : seen) EXPECT_EQ(s.load(), 1);
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(current_thread, nullptr); // nothing leaks to the launching thread
}

TEST(HostLaunch, BlockBarrierSeparatesPhases) {
  // Each thread writes its slot, passes the barrier, then reads every slot of its block: all must be written.
  constexpr unsigned blocks = 3, threads = 24, rounds = 50;
  std::vector<int> slots(blocks * threads, -1);
  std::atomic<int> stale{0};
  run_grid(blocks, threads, [&] {
    const auto* t = current_thread;
    for (unsigned r = 0; r < rounds; ++r) {
      slots[t->block * threads + t->thread] = int(r);
      t->block_barrier->arrive_and_wait();
      for (unsigned i = 0; i < threads; ++i) stale += slots[t->block * threads + i] != int(r);
      t->block_barrier->arrive_and_wait();
    }
  });
  EXPECT_EQ(stale.load(), 0);
}

TEST(HostLaunch, WaveBarrierCoversOnlyItsWave) {
  constexpr unsigned threads = 2 * kWaveSize + 3;
  std::vector<int> slots(threads, -1);
  std::atomic<int> stale{0};
  run_grid(1, threads, [&] {
    const auto* t = current_thread;
    const unsigned first = t->thread / kWaveSize * kWaveSize;
    for (int r = 0; r < 50; ++r) {
      slots[t->thread] = r;
      t->wave_barrier->arrive_and_wait();
      for (unsigned i = first; i < first + t->wave_threads; ++i) stale += slots[i] != r;
      t->wave_barrier->arrive_and_wait();
    }
  });
  EXPECT_EQ(stale.load(), 0);
}

TEST(HostLaunch, LargeGridsRunInBatches) {
  std::atomic<int> count{0};
  run_grid(100, 64, [&] { count++; }); // 6400 threads: more than run at once
  EXPECT_EQ(count.load(), 6400);
}
