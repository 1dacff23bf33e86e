// The portshmem backend of the suite's kernels: the thread's place in the launch (pt::dev), and pshm<Relaxed>, whose
// members are the library calls the kernels make. Relaxed = false: every call with OpenSHMEM's default qualifiers
// ("strict"). Relaxed = true: the qualified calls docs/memory_model.md allows for what the kernels need; each member
// says why its qualifiers are enough. Included by device.hpp only.
#pragma once

#include <cstddef>
#include <cstdint>

#include <portshmem/portshmem.hpp>

#include "programs.hpp"

#define PT_DEVICE PORTSHMEM_DEVICE
#define PT_GLOBAL PORTSHMEM_GLOBAL
#define PT_HOST_DEVICE PORTSHMEM_HOST_DEVICE

namespace pt {

namespace dev {
PT_DEVICE unsigned thread_rank() {
  return portshmem::thread_rank();
}
PT_DEVICE unsigned block_threads() {
  return portshmem::block_threads();
}
PT_DEVICE unsigned block_rank() {
  return portshmem::block_rank();
}
PT_DEVICE unsigned grid_blocks() {
  return portshmem::grid_blocks();
}
PT_DEVICE unsigned wave_size() {
  return portshmem::wave_size();
}
PT_DEVICE void block_sync() {
  portshmem::arch::block_sync();
}
PT_DEVICE void wave_sync() {
  portshmem::arch::wave_sync();
}
} // namespace dev

/// Launches kernel(args...) on blocks x threads: <<<>>> on GPUs, CPU threads on the host platform.
template <class... Params, class... Args>
bool dev_launch(void (*kernel)(Params...), unsigned blocks, unsigned threads, Args... args) {
  return portshmem::launch(kernel, dim3(blocks), dim3(threads), args...) == hipSuccess;
}

template <bool Relaxed>
struct pshm {
  portshmem::ctx c;
  static constexpr const char* name = "portshmem";
  static constexpr const char* mm = Relaxed ? "relaxed" : "strict";

  // Puts: bypass data (the default) in both sets: it is what a comm-covered quiet or fence orders, and keep data
  // would need coverage all, which is the expensive one.
  template <group G>
  PT_DEVICE void put_nbi(void* d, const void* s, std::size_t n, int pe) const {
    if constexpr (G == group::thread) portshmem::putmem_nbi(c, d, s, n, pe);
    if constexpr (G == group::warp) portshmem::putmem_nbi_wave(c, d, s, n, pe);
    if constexpr (G == group::block) portshmem::putmem_nbi_block(c, d, s, n, pe);
  }

  // Gets, relaxed: the local destination written with mm::keep (it may stay in this GPU's caches). The kernels never
  // read it; the host reads it after the kernel, and a get_nbi's destination is completed by a comm-covered quiet
  // for either data path (memory_model.md: "quiet comm" completes dst; the data path of a get changes nothing).
  template <group G>
  PT_DEVICE void get_nbi(void* d, const void* s, std::size_t n, int pe) const {
    if constexpr (Relaxed) {
      if constexpr (G == group::thread) portshmem::getmem_nbi(c, d, s, n, pe, portshmem::mm::keep);
      if constexpr (G == group::warp) portshmem::getmem_nbi_wave(c, d, s, n, pe, portshmem::mm::keep);
      if constexpr (G == group::block) portshmem::getmem_nbi_block(c, d, s, n, pe, portshmem::mm::keep);
    } else {
      if constexpr (G == group::thread) portshmem::getmem_nbi(c, d, s, n, pe);
      if constexpr (G == group::warp) portshmem::getmem_nbi_wave(c, d, s, n, pe);
      if constexpr (G == group::block) portshmem::getmem_nbi_block(c, d, s, n, pe);
    }
  }

  template <group G>
  PT_DEVICE void get(void* d, const void* s, std::size_t n, int pe) const {
    if constexpr (Relaxed) {
      if constexpr (G == group::thread) portshmem::getmem(c, d, s, n, pe, portshmem::mm::keep);
      if constexpr (G == group::warp) portshmem::getmem_wave(c, d, s, n, pe, portshmem::mm::keep);
      if constexpr (G == group::block) portshmem::getmem_block(c, d, s, n, pe, portshmem::mm::keep);
    } else {
      if constexpr (G == group::thread) portshmem::getmem(c, d, s, n, pe);
      if constexpr (G == group::warp) portshmem::getmem_wave(c, d, s, n, pe);
      if constexpr (G == group::block) portshmem::getmem_block(c, d, s, n, pe);
    }
  }

  // p, g and the AMOs take no qualifier: the same calls in both sets.
  template <class T>
  PT_DEVICE void p(T* d, T v, int pe) const {
    portshmem::p(c, d, v, pe);
  }
  template <class T>
  PT_DEVICE T g(const T* s, int pe) const {
    return portshmem::g(c, s, pe);
  }
  template <class T>
  PT_DEVICE T amo(amo_op op, T* d, T v, T cond, int pe) const {
    namespace ps = portshmem;
    switch (op) {
    case amo_op::inc:
      return ps::atomic_inc(c, d, pe), T(0);
    case amo_op::fetch_inc:
      return ps::atomic_fetch_inc(c, d, pe);
    case amo_op::add:
      return ps::atomic_add(c, d, v, pe), T(0);
    case amo_op::fetch_add:
      return ps::atomic_fetch_add(c, d, v, pe);
    case amo_op::set:
      return ps::atomic_set(c, d, v, pe), T(0);
    case amo_op::fetch:
      return ps::atomic_fetch(c, static_cast<const T*>(d), pe);
    case amo_op::swap:
      return ps::atomic_swap(c, d, v, pe);
    case amo_op::compare_swap:
      return ps::atomic_compare_swap(c, d, cond, v, pe);
    case amo_op::and_:
      return ps::atomic_and(c, d, v, pe), T(0);
    case amo_op::fetch_and:
      return ps::atomic_fetch_and(c, d, v, pe);
    case amo_op::or_:
      return ps::atomic_or(c, d, v, pe), T(0);
    case amo_op::fetch_or:
      return ps::atomic_fetch_or(c, d, v, pe);
    case amo_op::xor_:
      return ps::atomic_xor(c, d, v, pe), T(0);
    case amo_op::fetch_xor:
      return ps::atomic_fetch_xor(c, d, v, pe);
    }
    return T(0);
  }

  // quiet, relaxed: coverage comm. What the kernels complete with it is bypass puts, p, AMOs, signal updates and
  // get_nbi destinations, all of which comm covers; they make no ordinary stores to symmetric memory.
  PT_DEVICE void quiet() const {
    if constexpr (Relaxed) portshmem::quiet(c, portshmem::mm::comm);
    if constexpr (!Relaxed) portshmem::quiet(c);
  }

  // fence + signal (the put ping-pong), relaxed: the fence orders the bypass put before the signal with coverage
  // comm (memory_model.md's cheap publication), and the signal publishes no ordinary store, so it is comm too.
  PT_DEVICE void fence() const {
    if constexpr (Relaxed) portshmem::fence(c, portshmem::mm::comm);
    if constexpr (!Relaxed) portshmem::fence(c);
  }
  PT_DEVICE void signal_set(std::uint64_t* sig, std::uint64_t v, int pe) const {
    if constexpr (Relaxed) portshmem::signal_op(c, sig, v, portshmem::signal_set, pe, portshmem::mm::comm);
    if constexpr (!Relaxed) portshmem::signal_op(c, sig, v, portshmem::signal_set, pe);
  }

  // Waits, relaxed: acquire strength comm. After the wait the ping-pong kernels issue puts (writes, ordered by any
  // strength) and read the received data only with comm reads if at all (a relay reads its source coherently:
  // RELAY/comm is forbidden), never with ordinary loads, so the cache invalidate of a full acquire buys nothing.
  PT_DEVICE void wait_ge(std::uint64_t* ivar, std::uint64_t v) const {
    if constexpr (Relaxed) portshmem::wait_until(c, ivar, portshmem::cmp::ge, v, portshmem::mm::comm);
    if constexpr (!Relaxed) portshmem::wait_until(c, ivar, portshmem::cmp::ge, v);
  }
  PT_DEVICE void signal_wait_ge(std::uint64_t* sig, std::uint64_t v) const {
    if constexpr (Relaxed) portshmem::signal_wait_until(c, sig, portshmem::cmp::ge, v, portshmem::mm::comm);
    if constexpr (!Relaxed) portshmem::signal_wait_until(c, sig, portshmem::cmp::ge, v);
  }

  // put-with-signal, relaxed: coverage comm with the (default) bypass data: the signal then covers exactly its own
  // call's data, which is all the receiver waits for (bypass + comm is allowed; keep + comm would be refused).
  template <group G>
  PT_DEVICE void put_signal_nbi(void* d, const void* s, std::size_t n, std::uint64_t* sig, std::uint64_t v,
                                int pe) const {
    namespace ps = portshmem;
    if constexpr (Relaxed) {
      if constexpr (G == group::thread) ps::putmem_signal_nbi(c, d, s, n, sig, v, ps::signal_set, pe, ps::mm::comm);
      if constexpr (G == group::warp) ps::putmem_signal_nbi_wave(c, d, s, n, sig, v, ps::signal_set, pe, ps::mm::comm);
      if constexpr (G == group::block)
        ps::putmem_signal_nbi_block(c, d, s, n, sig, v, ps::signal_set, pe, ps::mm::comm);
    } else {
      if constexpr (G == group::thread) ps::putmem_signal_nbi(c, d, s, n, sig, v, ps::signal_set, pe);
      if constexpr (G == group::warp) ps::putmem_signal_nbi_wave(c, d, s, n, sig, v, ps::signal_set, pe);
      if constexpr (G == group::block) ps::putmem_signal_nbi_block(c, d, s, n, sig, v, ps::signal_set, pe);
    }
  }
};

} // namespace pt
