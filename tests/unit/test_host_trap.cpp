// Waits past PORTSHMEM_TIMEOUT on the host platform: the trap ends the kernel as a GPU's trap does, as far as the host
// sees (the launch fails, the process lives on, the grid's other threads stop at their next barrier or paused poll),
// and the record says what the wait saw and whom it waited for. The clock is read only from a wait's 1024th poll.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include <gtest/gtest.h>

#include <portshmem/portshmem.hpp>

#if PORTSHMEM_HAS_DEVICE_API && PORTSHMEM_PLATFORM_HOST
#include "portshmem/detail/internal_area.hpp"
#include "portshmem/detail/spin.hpp"

namespace {

namespace arch = portshmem::arch;
namespace host = portshmem::arch::host;
using namespace std::chrono_literals;

// ---- the launcher: a trapped thread stops its grid ------------------------------------------------------------------

TEST(HostTrap, ATrappedThreadStopsItsGridAndTheLaunchFails) {
  std::atomic<int> started{0}, finished{0};
  const bool completed = host::run_grid(3, 16, [&] {
    ++started;
    const auto* t = host::current_thread;
    if (t->block == 0 && t->thread == 5) {
      std::this_thread::sleep_for(20ms); // the others are waiting by now
      arch::trap();
    }
    if (t->block == 0) {
      t->block_barrier->arrive_and_wait(); // thread 5 never arrives
    } else if (t->block == 1) {
      t->wave_barrier->arrive_and_wait(); // a wave that completes: its lanes go on to spin
      for (;;) arch::spin_pause();        // a poll that never ends, as a wait's
    } else {
      if (t->thread < 8) t->wave_barrier->arrive_and_wait(); // wave 0 completes
      t->block_barrier->arrive_and_wait();                   // block 2 completes too
      for (;;) arch::spin_pause();
    }
    ++finished;
  });
  EXPECT_FALSE(completed);
  EXPECT_EQ(started.load(), 48);
  EXPECT_EQ(finished.load(), 0) << "every thread was stopped in its barrier or poll";
  EXPECT_EQ(host::current_thread, nullptr);
}

TEST(HostTrap, BlocksOfLaterBatchesDoNotRunAfterATrap) {
  std::atomic<int> started{0};
  // 512 threads per block: one block per batch.
  EXPECT_FALSE(host::run_grid(3, host::kMaxConcurrentThreads, [&] {
    ++started;
    if (host::current_thread->thread == 0) arch::trap();
    host::current_thread->block_barrier->arrive_and_wait();
  }));
  EXPECT_EQ(started.load(), int(host::kMaxConcurrentThreads));
}

void traps(int* ran) {
  if (portshmem::thread_rank() == 0) arch::trap();
  ++ran[portshmem::thread_rank()];
}

void runs(int* ran) {
  ++ran[portshmem::thread_rank()];
}

TEST(HostTrap, LaunchReportsTheTrapAndTheNextLaunchRuns) {
  int ran[4] = {};
  EXPECT_EQ(portshmem::launch(traps, dim3(1), dim3(1), ran), hipErrorLaunchFailure);
  EXPECT_STREQ(hipGetErrorString(hipErrorLaunchFailure), "unspecified launch failure");
  EXPECT_EQ(ran[0], 0);
  EXPECT_EQ(portshmem::launch(runs, dim3(1), dim3(4), ran), hipSuccess);
  for (int r : ran) EXPECT_EQ(r, 1);
}

// ---- the clock of a wait --------------------------------------------------------------------------------------------

TEST(WaitClock, ReadsNoClockBeforeThe1024thPoll) {
  portshmem_ctx_t c{};
  c.timeout_ns = 1; // any reading after the first is past it
  portshmem::detail::wait_clock clock;
  for (std::uint32_t polls = 1; polls < portshmem::detail::kClockPolls; ++polls) EXPECT_FALSE(clock.expired(c, polls));
  EXPECT_EQ(clock.start, 0u) << "no clock read before the 1024th poll";
  EXPECT_FALSE(clock.expired(c, 1024)) << "the first reading starts the bound";
  EXPECT_NE(clock.start, 0u);
  EXPECT_FALSE(clock.expired(c, 1025));
  std::this_thread::sleep_for(1ms);
  EXPECT_TRUE(clock.expired(c, 2048));

  c.timeout_ns = 0; // no bound: never a reading
  portshmem::detail::wait_clock off;
  for (std::uint32_t polls = 1; polls <= 8192; ++polls) EXPECT_FALSE(off.expired(c, polls));
  EXPECT_EQ(off.start, 0u);
}

// ---- the record of a wait that timed out, through the API -----------------------------------------------------------

/// Two PEs' heaps in this process; this thread is PE 0, and PE 1 never runs. The handle names each heap's user part,
/// after its reserved area (where the barrier's counters are).
struct fake_pair {
  static constexpr std::size_t kHeap = 2 * portshmem::detail::kInternalHeapBytes;
  char* heaps[2] = {static_cast<char*>(std::aligned_alloc(4096, kHeap)),
                    static_cast<char*>(std::aligned_alloc(4096, kHeap))};
  char* user_parts[2] = {heaps[0] + portshmem::detail::kInternalHeapBytes,
                         heaps[1] + portshmem::detail::kInternalHeapBytes};
  std::int32_t places[2] = {0, 0};
  portshmem_device_error_t error{};
  portshmem::ctx c{};
  fake_pair() {
    for (char* h : heaps) std::fill(h, h + kHeap, 0);
    c.my_pe = 0;
    c.n_pes = 2;
    c.heap = user_parts[0];
    c.heap_size = kHeap - portshmem::detail::kInternalHeapBytes;
    c.peer_heaps = user_parts;
    c.pe_device = places;
    c.error = &error;
    c.timeout_ns = 50'000'000; // 50 ms
  }
  ~fake_pair() {
    for (char* h : heaps) std::free(h);
  }
  template <class T>
  T* at(std::size_t offset) {
    return reinterpret_cast<T*>(heaps[0] + portshmem::detail::kInternalHeapBytes + offset);
  }
};

void await_signal(portshmem::ctx c, std::uint64_t* sig, std::uint64_t value) {
  if (portshmem::thread_rank() == 0) portshmem::signal_wait_until(c, sig, portshmem::cmp::ge, value);
  arch::block_sync(); // the other threads wait for thread 0, which never comes back
}

TEST(WaitTimeout, SignalWaitRecordsWhatItSaw) {
  fake_pair w;
  auto* sig = w.at<std::uint64_t>(0);
  *sig = 3;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(portshmem::launch(await_signal, dim3(1), dim3(8), w.c, sig, std::uint64_t(5)), hipErrorLaunchFailure);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_GE(took, 50ms);
  EXPECT_LT(took, 10s);
  EXPECT_EQ(w.error.count, 1u);
  EXPECT_EQ(w.error.status, PORTSHMEM_ERR_TIMEOUT);
  EXPECT_EQ(w.error.call, PORTSHMEM_CALL_SIGNAL);
  EXPECT_EQ(w.error.pe, 0);
  EXPECT_EQ(w.error.target_pe, 0);
  EXPECT_EQ(w.error.address, reinterpret_cast<std::uintptr_t>(sig));
  EXPECT_EQ(w.error.size, 5u);
  EXPECT_EQ(w.error.seen, 3u);
  EXPECT_EQ(w.error.awaited_pe, PORTSHMEM_PE_UNKNOWN) << "any PE may signal";
  EXPECT_EQ(w.error.wait_kind, PORTSHMEM_WAIT_MEMORY);
  EXPECT_EQ(w.error.cmp, int(portshmem::cmp::ge) + 1);
  EXPECT_EQ(w.error.value_signed, 0);
}

void await_int(portshmem::ctx c, int* ivar, int value) {
  portshmem::wait_until(c, ivar, portshmem::cmp::gt, value);
}

TEST(WaitTimeout, WaitUntilOnASignedWordRecordsSignedValues) {
  fake_pair w;
  int* ivar = w.at<int>(64);
  *ivar = -7;
  EXPECT_EQ(portshmem::launch(await_int, dim3(1), dim3(1), w.c, ivar, -2), hipErrorLaunchFailure);
  EXPECT_EQ(w.error.call, PORTSHMEM_CALL_WAIT);
  EXPECT_EQ(w.error.address, reinterpret_cast<std::uintptr_t>(ivar));
  EXPECT_EQ(std::int64_t(w.error.size), -2);
  EXPECT_EQ(std::int64_t(w.error.seen), -7);
  EXPECT_EQ(w.error.value_signed, 1);
  EXPECT_EQ(w.error.cmp, int(portshmem::cmp::gt) + 1);
}

void block_barrier(portshmem::ctx c) {
  portshmem::barrier_all_block(c); // thread 0 runs the barrier among PEs; the others wait for it in the block's sync
}

TEST(WaitTimeout, DeviceBarrierNamesThePeThatDidNotArrive) {
  fake_pair w;
  EXPECT_EQ(portshmem::launch(block_barrier, dim3(1), dim3(8), w.c), hipErrorLaunchFailure);
  const auto* area = reinterpret_cast<const portshmem::detail::internal_area*>(w.heaps[0]);
  EXPECT_EQ(w.error.status, PORTSHMEM_ERR_TIMEOUT);
  EXPECT_EQ(w.error.call, PORTSHMEM_CALL_BARRIER);
  EXPECT_EQ(w.error.address, reinterpret_cast<std::uintptr_t>(&area->barrier_arrivals[0]));
  EXPECT_EQ(w.error.size, 1u) << "the first barrier";
  EXPECT_EQ(w.error.seen, 0u);
  EXPECT_EQ(w.error.awaited_pe, 1) << "round 0's arrival comes from PE 1";
  EXPECT_EQ(w.error.cmp, int(portshmem::cmp::ge) + 1);
  const auto* peer = reinterpret_cast<const portshmem::detail::internal_area*>(w.heaps[1]);
  EXPECT_EQ(peer->barrier_arrivals[0], 1u) << "PE 0 did arrive at PE 1";
}

TEST(WaitTimeout, AWaitThatEndsRecordsNothing) {
  fake_pair w;
  auto* sig = w.at<std::uint64_t>(0);
  *sig = 9;
  EXPECT_EQ(portshmem::launch(await_signal, dim3(1), dim3(8), w.c, sig, std::uint64_t(5)), hipSuccess);
  EXPECT_EQ(w.error.count, 0u);
}

} // namespace
#endif
