// Host platform lowering: the "device" is the CPU. Atomics are std::atomic_ref, fences std::atomic_thread_fence;
// the CPU's caches are coherent, so the cache hints and the comm-only fence have nothing cheaper to do.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>

#include "portshmem/arch/common.hpp"
#include "portshmem/arch/host_launch.hpp"
#include "portshmem/gpu_runtime.hpp"

namespace portshmem::arch {

// ---- identity -------------------------------------------------------------------------------------------------
inline unsigned thread_rank() {
  return host::current_thread ? host::current_thread->thread : 0;
}
inline unsigned block_threads() {
  return host::current_thread ? host::current_thread->threads : 1;
}
inline unsigned block_rank() {
  return host::current_thread ? host::current_thread->block : 0;
}
inline unsigned grid_blocks() {
  return host::current_thread ? host::current_thread->blocks : 1;
}
inline unsigned wave_size() {
  return host::current_thread ? host::current_thread->wave_size : 1;
}
inline unsigned lane() {
  return thread_rank() % wave_size();
}
inline unsigned wave_threads() {
  return host::current_thread ? host::current_thread->wave_threads : 1;
}

// ---- group sync: the barrier's mutex orders memory among the group's threads ------------------------------------
inline void block_sync() {
  if (host::current_thread) host::current_thread->block_barrier->arrive_and_wait();
}
inline void wave_sync() {
  if (host::current_thread) host::current_thread->wave_barrier->arrive_and_wait();
}

// ---- atomics ------------------------------------------------------------------------------------------------------
namespace host {
constexpr std::memory_order to_std(order o) {
  switch (o) {
  case order::relaxed:
    return std::memory_order_relaxed;
  case order::acquire:
    return std::memory_order_acquire;
  case order::release:
    return std::memory_order_release;
  case order::acq_rel:
    return std::memory_order_acq_rel;
  default:
    return std::memory_order_seq_cst;
  }
}
// A load may not carry release semantics, a store no acquire: map them to the strongest order each allows.
constexpr std::memory_order load_order(order o) {
  return o == order::release ? std::memory_order_relaxed : o == order::acq_rel ? std::memory_order_acquire : to_std(o);
}
constexpr std::memory_order store_order(order o) {
  return o == order::acquire ? std::memory_order_relaxed : o == order::acq_rel ? std::memory_order_release : to_std(o);
}
} // namespace host

template <order O, scope S, class T>
inline T load(const T* p) {
  return std::atomic_ref<T>(*const_cast<T*>(p)).load(host::load_order(O));
}
template <order O, scope S, class T>
inline void store(T* p, T v) {
  std::atomic_ref<T>(*p).store(v, host::store_order(O));
}
template <order O, scope S, class T>
inline T exchange(T* p, T v) {
  return std::atomic_ref<T>(*p).exchange(v, host::to_std(O));
}
template <order O, scope S, class T>
inline T compare_exchange(T* p, T expected, T desired) {
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired, host::to_std(O), host::load_order(O));
  return expected; // holds the old value whether or not the exchange happened
}
template <order O, scope S, class T>
inline T fetch_add(T* p, T v) {
  return std::atomic_ref<T>(*p).fetch_add(v, host::to_std(O));
}
template <order O, scope S, class T>
inline T fetch_and(T* p, T v) {
  return std::atomic_ref<T>(*p).fetch_and(v, host::to_std(O));
}
template <order O, scope S, class T>
inline T fetch_or(T* p, T v) {
  return std::atomic_ref<T>(*p).fetch_or(v, host::to_std(O));
}
template <order O, scope S, class T>
inline T fetch_xor(T* p, T v) {
  return std::atomic_ref<T>(*p).fetch_xor(v, host::to_std(O));
}

// ---- fences -------------------------------------------------------------------------------------------------------
template <order O, scope S>
inline void fence() {
  std::atomic_thread_fence(host::to_std(O));
}
template <order O, scope S>
inline void fence_comm() {
  std::atomic_thread_fence(host::to_std(O));
}
inline constexpr bool kCheapCommFence = false;
/// An acquire load is an ordinary load on x86 (and a single ldar on Arm): waits poll with it.
inline constexpr bool kCheapAcquireLoad = true;
/// The group barrier (a mutex) already orders every member's stores before a later fence of any member.
inline void join_comm_stores() {}

// ---- data accesses: relaxed atomics of up to 8 bytes, so a concurrent reader races with nothing undefined --------
// S (the widest scope that reads the data after a matching fence_comm) matters only where caches are not coherent.
// 16 bytes (vec16, long double) move as two relaxed 8-byte halves: race-free, single-copy atomic per half, as on GPUs.
namespace host {
template <class T>
inline constexpr bool kHalves = sizeof(T) == 16 && alignof(T) >= 8;
}
template <cache C, scope S = scope::system, class T>
inline void store_data(T* p, const T& v) {
  static_assert((sizeof(T) <= 8 && alignof(T) >= sizeof(T)) || host::kHalves<T>,
                "data accesses move 1, 2, 4, 8 or 16 naturally aligned bytes");
  if constexpr (sizeof(T) <= 8) {
    std::atomic_ref<T>(*p).store(v, std::memory_order_relaxed);
  } else {
    auto* q = reinterpret_cast<std::uint64_t*>(static_cast<void*>(p));
    std::uint64_t h[2];
    std::memcpy(h, &v, sizeof h);
    std::atomic_ref<std::uint64_t>(q[0]).store(h[0], std::memory_order_relaxed);
    std::atomic_ref<std::uint64_t>(q[1]).store(h[1], std::memory_order_relaxed);
  }
}
template <cache C, scope S = scope::system, class T>
inline T load_data(const T* p) {
  static_assert((sizeof(T) <= 8 && alignof(T) >= sizeof(T)) || host::kHalves<T>,
                "data accesses move 1, 2, 4, 8 or 16 naturally aligned bytes");
  if constexpr (sizeof(T) <= 8) {
    return std::atomic_ref<T>(*const_cast<T*>(p)).load(std::memory_order_relaxed);
  } else {
    auto* q = reinterpret_cast<std::uint64_t*>(const_cast<void*>(static_cast<const void*>(p)));
    const std::uint64_t h[2] = {std::atomic_ref<std::uint64_t>(q[0]).load(std::memory_order_relaxed),
                                std::atomic_ref<std::uint64_t>(q[1]).load(std::memory_order_relaxed)};
    T v;
    std::memcpy(static_cast<void*>(&v), h, sizeof v);
    return v;
  }
}

/// Every host load is a relaxed atomic: the source of a put needs nothing more (the waits acquire).
inline constexpr cache kSourceCache = cache::keep;
/// CPU threads share one address space: every buffer is reachable by every thread, as global memory is on a GPU.
inline space space_of(const void*) {
  return space::global;
}
template <class U>
inline U load_source(const U* p) {
  return std::atomic_ref<U>(*const_cast<U*>(p)).load(std::memory_order_relaxed);
}

// ---- misc ---------------------------------------------------------------------------------------------------------
/// Spin-wait backoff: CPU threads of many PEs share few cores, so give the core away. A thread whose grid is stopping
/// (another thread of it trapped) unwinds here, as the GPU would have ended it with the kernel.
inline void spin_pause() {
  if (host::kernel_stopping()) host::unwind_kernel();
  std::this_thread::yield();
}
inline std::uint64_t time_ns() {
  return std::uint64_t(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}
/// Ends the kernel as a GPU trap does: inside a launch the thread unwinds, its grid stops and the launch returns
/// hipErrorLaunchFailure, so the host can still print the error record; outside one (device code called from a plain
/// CPU thread) there is no kernel to end, and the process aborts.
[[noreturn]] inline void trap() {
  if (host::current_thread) host::unwind_kernel();
  std::abort();
}

/// Runs kernel(args...) on a grid of CPU threads (see host_launch.hpp); synchronous, like every host-platform call.
/// hipErrorLaunchFailure when a thread trapped (what a GPU reports at the next synchronization).
template <class... Params, class... Args>
inline hipError_t launch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t /*shared_bytes*/,
                         hipStream_t /*stream*/, Args&&... args) {
  const bool finished = host::run_grid(grid.x * grid.y * grid.z, block.x * block.y * block.z, [&] { kernel(args...); });
  return finished ? hipSuccess : hipErrorLaunchFailure;
}

} // namespace portshmem::arch
