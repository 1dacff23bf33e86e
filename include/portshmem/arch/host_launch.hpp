// The host platform's kernel launcher: a grid of blocks runs as CPU threads, one thread per GPU thread, with a real
// barrier per block and per wave, so block and wave forms of the device API run (and are tested) on any machine.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace portshmem::arch::host {

/// Reusable barrier for a fixed number of threads (a generation count makes it safe to reuse at once).
class barrier {
 public:
  explicit barrier(unsigned count) : count_(count) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const std::uint64_t gen = generation_;
    if (++arrived_ == count_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return generation_ != gen; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  unsigned count_, arrived_ = 0;
  std::uint64_t generation_ = 0;
};

/// Where the calling CPU thread sits in the launched grid. Outside a launch there is none: the thread is then a
/// block of one thread, so the device API is also callable from plain CPU threads.
struct thread_info {
  unsigned thread, threads, block, blocks, wave_size;
  barrier* block_barrier;
  barrier* wave_barrier;
  unsigned wave_threads;
};

inline thread_local const thread_info* current_thread = nullptr;

/// Lanes per wave on the host platform: small, so that blocks hold several waves and wave forms are exercised.
inline constexpr unsigned kWaveSize = 8;

/// Largest number of CPU threads a launch runs at once; blocks beyond it run in later batches, as a GPU runs
/// blocks when resources free up (so, as on a GPU, blocks of one kernel must not wait for each other).
inline constexpr unsigned kMaxConcurrentThreads = 512;

/// Runs body() on blocks x threads CPU threads, each seeing its own thread_info; returns when all have finished.
template <class Body>
void run_grid(unsigned blocks, unsigned threads, const Body& body) {
  if (blocks == 0 || threads == 0) return;
  const unsigned per_batch = std::max(1u, kMaxConcurrentThreads / threads);
  for (unsigned first = 0; first < blocks; first += per_batch) {
    const unsigned batch = std::min(per_batch, blocks - first);
    std::deque<barrier> block_barriers; // deque: barriers cannot move
    const unsigned waves = (threads + kWaveSize - 1) / kWaveSize;
    std::deque<barrier> wave_barriers;
    for (unsigned b = 0; b < batch; ++b) {
      block_barriers.emplace_back(threads);
      for (unsigned w = 0; w < waves; ++w) wave_barriers.emplace_back(std::min(kWaveSize, threads - w * kWaveSize));
    }
    std::vector<thread_info> infos(batch * threads);
    std::vector<std::thread> workers;
    workers.reserve(infos.size());
    for (unsigned b = 0; b < batch; ++b) {
      for (unsigned t = 0; t < threads; ++t) {
        const unsigned w = t / kWaveSize;
        infos[b * threads + t] = {t,
                                  threads,
                                  first + b,
                                  blocks,
                                  kWaveSize,
                                  &block_barriers[b],
                                  &wave_barriers[b * waves + w],
                                  std::min(kWaveSize, threads - w * kWaveSize)};
        workers.emplace_back([&, info = &infos[b * threads + t]] {
          current_thread = info;
          body();
          current_thread = nullptr;
        });
      }
    }
    for (auto& w : workers) w.join();
  }
}

} // namespace portshmem::arch::host
