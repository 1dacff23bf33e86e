// The portshmem backend of the suite's kernels: the thread's place in the launch (pt::dev), and pshm<V>, whose members
// are the library calls the kernels make, with the qualifiers of the variant V (--mm; programs.hpp lists them).
// Included by device.hpp only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

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

/// The qualifiers of variant V (programs.hpp: mm_set), one tag type per category and call kind. strict: OpenSHMEM's
/// defaults, spelled out (a call resolves an omitted qualifier to the same default: the same lowering). relaxed: the
/// qualified calls below say why each is enough for the kernels. Every other variant is strict with one category
/// changed in every call that takes it; what each changes cannot break a kernel's data check (README.md).
template <mm_set V>
struct quals {
  using mm_all = portshmem::mm::all_t;
  using mm_comm = portshmem::mm::comm_t;
  template <bool B, class T, class F>
  using pick = std::conditional_t<B, T, F>;
  /// Coverage of fence, quiet, signal_op, put_signal.
  using cover = pick<V == mm_set::relaxed || V == mm_set::coverage_comm, mm_comm, mm_all>;
  /// Scope of the same calls and the waits.
  using scope = pick<V == mm_set::scope_device, portshmem::mm::device_t,
                     pick<V == mm_set::scope_node, portshmem::mm::node_t, portshmem::mm::system_t>>;
  /// Data path of puts (put_signal's included) and of gets.
  using put_path = pick<V == mm_set::data_keep, portshmem::mm::keep_t, portshmem::mm::bypass_t>;
  using get_path = pick<V == mm_set::data_keep || V == mm_set::relaxed, portshmem::mm::keep_t, portshmem::mm::bypass_t>;
  /// Acquire strength of wait_until and signal_wait_until.
  using wait = pick<V == mm_set::relaxed || V == mm_set::wait_comm, mm_comm,
                    pick<V == mm_set::wait_relaxed, portshmem::mm::relaxed_t, portshmem::mm::acquire_t>>;
  /// Signal strength of put_signal.
  using signal = pick<V == mm_set::signal_strong, portshmem::mm::strong_t, portshmem::mm::weak_t>;
};

/// The library calls of the kernels, with the qualifiers of variant V. Why relaxed's are enough:
/// - quiet, coverage comm: what the kernels complete with it is bypass puts, p, AMOs, signal updates and get_nbi
///   destinations, all of which comm covers; they make no ordinary stores to symmetric memory.
/// - gets, data path keep for the local destination (it may stay in this GPU's caches): the kernels never read it;
///   the host reads it after the kernel, and a get_nbi's destination is completed by a comm-covered quiet for either
///   data path (memory_model.md: the data path of a get changes nothing in the model).
/// - fence + signal_op (the put ping-pong), comm: the fence orders the bypass put before the signal with coverage comm
///   (memory_model.md's cheap publication), and the signal publishes no ordinary store.
/// - waits, acquire strength comm: after the wait the ping-pong kernels issue puts (writes, ordered by any strength)
///   whose source is their own, never read with ordinary loads, so the cache invalidate of a full acquire buys
///   nothing (a relay reads its source coherently: RELAY/comm is forbidden).
/// - put-with-signal, coverage comm with the (default) bypass data: the signal then covers exactly its own call's
///   data, which is all the receiver waits for (bypass + comm is allowed; keep + comm would be refused).
/// Puts keep the bypass data path in relaxed (keep data would need coverage all, the expensive one); p, g and the
/// AMOs take no qualifier in any variant.
template <mm_set V>
struct pshm {
  portshmem::ctx c;
  static constexpr const char* name = "portshmem";
  static constexpr mm_set variant = V;
  static constexpr const char* mm = kMmNames[int(V)];
  using Q = quals<V>;

  template <group G>
  PT_DEVICE void put_nbi(void* d, const void* s, std::size_t n, int pe) const {
    const typename Q::put_path path{};
    if constexpr (G == group::thread) portshmem::putmem_nbi(c, d, s, n, pe, path);
    if constexpr (G == group::warp) portshmem::putmem_nbi_wave(c, d, s, n, pe, path);
    if constexpr (G == group::block) portshmem::putmem_nbi_block(c, d, s, n, pe, path);
  }

  template <group G>
  PT_DEVICE void get_nbi(void* d, const void* s, std::size_t n, int pe) const {
    const typename Q::get_path path{};
    if constexpr (G == group::thread) portshmem::getmem_nbi(c, d, s, n, pe, path);
    if constexpr (G == group::warp) portshmem::getmem_nbi_wave(c, d, s, n, pe, path);
    if constexpr (G == group::block) portshmem::getmem_nbi_block(c, d, s, n, pe, path);
  }

  template <group G>
  PT_DEVICE void get(void* d, const void* s, std::size_t n, int pe) const {
    const typename Q::get_path path{};
    if constexpr (G == group::thread) portshmem::getmem(c, d, s, n, pe, path);
    if constexpr (G == group::warp) portshmem::getmem_wave(c, d, s, n, pe, path);
    if constexpr (G == group::block) portshmem::getmem_block(c, d, s, n, pe, path);
  }

  // p, g and the AMOs take no qualifier: the same calls in every variant.
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

  PT_DEVICE void quiet() const { portshmem::quiet(c, typename Q::cover{}, typename Q::scope{}); }
  PT_DEVICE void fence() const { portshmem::fence(c, typename Q::cover{}, typename Q::scope{}); }
  PT_DEVICE void signal_set(std::uint64_t* sig, std::uint64_t v, int pe) const {
    portshmem::signal_op(c, sig, v, portshmem::signal_set, pe, typename Q::cover{}, typename Q::scope{});
  }
  PT_DEVICE void wait_ge(std::uint64_t* ivar, std::uint64_t v) const {
    portshmem::wait_until(c, ivar, portshmem::cmp::ge, v, typename Q::wait{}, typename Q::scope{});
  }
  PT_DEVICE void signal_wait_ge(std::uint64_t* sig, std::uint64_t v) const {
    portshmem::signal_wait_until(c, sig, portshmem::cmp::ge, v, typename Q::wait{}, typename Q::scope{});
  }

  template <group G>
  PT_DEVICE void put_signal_nbi(void* d, const void* s, std::size_t n, std::uint64_t* sig, std::uint64_t v,
                                int pe) const {
    namespace ps = portshmem;
    const typename Q::cover cover{};
    const typename Q::scope scope{};
    const typename Q::put_path path{};
    const typename Q::signal strength{};
    if constexpr (G == group::thread)
      ps::putmem_signal_nbi(c, d, s, n, sig, v, ps::signal_set, pe, cover, scope, path, strength);
    if constexpr (G == group::warp)
      ps::putmem_signal_nbi_wave(c, d, s, n, sig, v, ps::signal_set, pe, cover, scope, path, strength);
    if constexpr (G == group::block)
      ps::putmem_signal_nbi_block(c, d, s, n, sig, v, ps::signal_set, pe, cover, scope, path, strength);
  }
};

} // namespace pt
