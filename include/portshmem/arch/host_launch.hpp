// The host platform's kernel launcher: a grid of blocks runs as CPU threads, one thread per GPU thread, with a real
// barrier per block and per wave, so block and wave forms of the device API run (and are tested) on any machine.
// A thread that traps (a wait past PORTSHMEM_TIMEOUT) ends the kernel as a GPU's trap does, as far as the host can
// see: the launch fails, and the process lives on to print what device code recorded. The trapping thread unwinds
// (an exception, kernel_trapped); the grid's other threads stop at their next barrier or wait.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace portshmem::arch::host {

/// What a trapping device thread throws; run_grid catches it. Not an std::exception: kernel code has no business
/// catching it.
struct kernel_trapped {};

/// Throws kernel_trapped, or aborts where exceptions are off (the process then ends as a GPU kernel's trap would
/// have left it: unusable).
[[noreturn]] inline void unwind_kernel() {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  throw kernel_trapped{};
#else
  std::abort();
#endif
}

/// Reusable barrier for a fixed number of threads (a generation count makes it safe to reuse at once). stopped (when
/// given) is the grid's stop flag: once it is set and wake() called, waiting threads unwind instead of waiting.
class barrier {
 public:
  explicit barrier(unsigned count, const std::atomic<bool>* stopped = nullptr) : count_(count), stopped_(stopped) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const std::uint64_t gen = generation_;
    if (++arrived_ == count_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return generation_ != gen || stop_requested(); });
    if (generation_ == gen) {
      lock.unlock();
      unwind_kernel(); // a thread of the grid trapped: the one this barrier waits for may never come
    }
  }
  /// Wakes every waiting thread to look at the stop flag (set before calling).
  void wake() {
    const std::lock_guard<std::mutex> lock(mutex_);
    cv_.notify_all();
  }

 private:
  bool stop_requested() const { return stopped_ && stopped_->load(std::memory_order_relaxed); }
  std::mutex mutex_;
  std::condition_variable cv_;
  unsigned count_, arrived_ = 0;
  std::uint64_t generation_ = 0;
  const std::atomic<bool>* stopped_;
};

/// Where the calling CPU thread sits in the launched grid. Outside a launch there is none: the thread is then a
/// block of one thread, so the device API is also callable from plain CPU threads.
struct thread_info {
  unsigned thread, threads, block, blocks, wave_size;
  barrier* block_barrier;
  barrier* wave_barrier;
  unsigned wave_threads;
  const std::atomic<bool>* stopped; ///< set once a thread of the grid trapped: the others stop at their next wait
};

inline thread_local const thread_info* current_thread = nullptr;

/// Whether the calling thread's grid is stopping (a thread of it trapped); false outside a launch.
inline bool kernel_stopping() {
  return current_thread && current_thread->stopped && current_thread->stopped->load(std::memory_order_relaxed);
}

/// Lanes per wave on the host platform: small, so that blocks hold several waves and wave forms are exercised.
inline constexpr unsigned kWaveSize = 8;

/// Largest number of CPU threads a launch runs at once; blocks beyond it run in later batches, as a GPU runs
/// blocks when resources free up (so, as on a GPU, blocks of one kernel must not wait for each other).
inline constexpr unsigned kMaxConcurrentThreads = 512;

/// A kernel body as run_grid takes it: the caller's callable, by reference, and the function that calls it. So
/// run_grid (threads, barriers, containers) is compiled once per translation unit, not once per kernel launched: as a
/// template it made a file of many launches minutes slower to build (tests/compat/test_rocshmem_names.cpp).
class body_ref {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, body_ref>>>
  body_ref(const F& f) : callable_(&f), call_([](const void* c) { (*static_cast<const F*>(c))(); }) {}
  void operator()() const { call_(callable_); }

 private:
  const void* callable_;
  void (*call_)(const void*);
};

/// One batch of a launch's blocks: their barriers and the grid's stop flag.
struct grid_batch {
  std::atomic<bool>* stopped;
  std::deque<barrier> block_barriers; // deque: barriers cannot move
  std::deque<barrier> wave_barriers;
  /// Stops the grid (a thread trapped): waiting threads wake up and unwind.
  void stop() {
    if (stopped->exchange(true)) return;
    for (auto& b : block_barriers) b.wake();
    for (auto& b : wave_barriers) b.wake();
  }
};

/// What each CPU thread of a launch runs. A plain function, not a lambda of run_grid: std::thread's state for it is
/// then a type every module shares harmlessly (it calls the pointer it was given), whereas a lambda's would be one type
/// in the application and in libportshmem, and the loader would bind the library's launches to the application's copy
/// (which sets the application's current_thread, not the hidden one of the library's kernels).
inline void run_grid_thread(grid_batch* batch, const thread_info* info, body_ref body) {
  current_thread = info;
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  try {
    body();
  } catch (const kernel_trapped&) {
    batch->stop();
  }
#else
  body();
#endif
  current_thread = nullptr;
}

/// Runs body() on blocks x threads CPU threads, each seeing its own thread_info; returns when all have finished:
/// true, or false when a thread trapped (unwound with kernel_trapped), which stops the grid: its other threads unwind
/// at their next block or wave barrier or paused poll (arch::spin_pause), and blocks not started yet never run. The
/// callable body refers to must outlive the call (a lambda written in the call does).
inline bool run_grid(unsigned blocks, unsigned threads, body_ref body) {
  if (blocks == 0 || threads == 0) return true;
  std::atomic<bool> stopped{false};
  const unsigned per_batch = std::max(1u, kMaxConcurrentThreads / threads);
  const unsigned waves = (threads + kWaveSize - 1) / kWaveSize;
  for (unsigned first = 0; first < blocks && !stopped.load(); first += per_batch) {
    const unsigned count = std::min(per_batch, blocks - first);
    grid_batch batch{&stopped, {}, {}};
    for (unsigned b = 0; b < count; ++b) {
      batch.block_barriers.emplace_back(threads, &stopped);
      for (unsigned w = 0; w < waves; ++w) {
        batch.wave_barriers.emplace_back(std::min(kWaveSize, threads - w * kWaveSize), &stopped);
      }
    }
    std::vector<thread_info> infos(count * threads);
    std::vector<std::thread> workers;
    workers.reserve(infos.size());
    for (unsigned b = 0; b < count; ++b) {
      for (unsigned t = 0; t < threads; ++t) {
        const unsigned w = t / kWaveSize;
        infos[b * threads + t] = {t,
                                  threads,
                                  first + b,
                                  blocks,
                                  kWaveSize,
                                  &batch.block_barriers[b],
                                  &batch.wave_barriers[b * waves + w],
                                  std::min(kWaveSize, threads - w * kWaveSize),
                                  &stopped};
        workers.emplace_back(run_grid_thread, &batch, &infos[b * threads + t], body);
      }
    }
    for (auto& w : workers) w.join();
  }
  return !stopped.load();
}

} // namespace portshmem::arch::host
