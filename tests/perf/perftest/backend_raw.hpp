// The yardstick of the portshmem builds (--raw): what a kernel author writes by hand without a library, the same
// members as the other backends made of plain loads and stores through the peer's mapped heap (portshmem_ptr) and the
// arch layer's atomics and fences. No checks, no dispatch, no qualifiers: a copy loop, a fence, a release store of a
// flag, an acquire poll. It needs a load/store path to the peer (one node). Included by device.hpp only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <portshmem/portshmem.hpp>

#include "groups.hpp"

namespace pt {

struct raw {
  std::ptrdiff_t delta; // peer's mapping of a symmetric address minus the address (the same for the whole heap)
  static constexpr const char* name = "raw";
  static constexpr const char* mm = "none";

  template <class T>
  PT_DEVICE T* peer(T* p) const {
    return reinterpret_cast<T*>(reinterpret_cast<char*>(const_cast<std::remove_const_t<T>*>(p)) + delta);
  }

  /// The group's members copy n bytes, 16 at a time where both sides allow it, with plain (keep) accesses.
  template <group G>
  PT_DEVICE static void copy(char* d, const char* s, std::size_t n) {
    namespace a = portshmem::arch;
    const std::size_t r = group_rank<G>(), k = group_size<G>();
    std::size_t head = (16 - reinterpret_cast<std::uintptr_t>(d) % 16) % 16;
    if (((reinterpret_cast<std::uintptr_t>(d) ^ reinterpret_cast<std::uintptr_t>(s)) & 15) != 0 || head > n) head = n;
    const std::size_t units = (n - head) / 16, tail = head + units * 16;
    for (std::size_t i = r; i < head; i += k) {
      a::store_data<a::cache::keep>(reinterpret_cast<std::uint8_t*>(d) + i,
                                    a::load_data<a::cache::keep>(reinterpret_cast<const std::uint8_t*>(s) + i));
    }
    auto* dv = reinterpret_cast<a::vec16*>(d + head);
    const auto* sv = reinterpret_cast<const a::vec16*>(s + head);
    for (std::size_t i = r; i < units; i += k)
      a::store_data<a::cache::keep>(dv + i, a::load_data<a::cache::keep>(sv + i));
    for (std::size_t i = tail + r; i < n; i += k) {
      a::store_data<a::cache::keep>(reinterpret_cast<std::uint8_t*>(d) + i,
                                    a::load_data<a::cache::keep>(reinterpret_cast<const std::uint8_t*>(s) + i));
    }
  }

  template <group G>
  PT_DEVICE void put_nbi(void* d, const void* s, std::size_t n, int) const {
    copy<G>(peer(static_cast<char*>(d)), static_cast<const char*>(s), n);
  }
  template <group G>
  PT_DEVICE void get_nbi(void* d, const void* s, std::size_t n, int) const {
    copy<G>(static_cast<char*>(d), peer(static_cast<const char*>(s)), n);
  }
  template <group G>
  PT_DEVICE void get(void* d, const void* s, std::size_t n, int pe) const {
    get_nbi<G>(d, s, n, pe);
    group_sync<G>();
  }
  template <class T>
  PT_DEVICE void p(T* d, T v, int) const {
    portshmem::arch::store<portshmem::arch::order::relaxed, portshmem::arch::scope::system>(peer(d), v);
  }
  template <class T>
  PT_DEVICE T g(const T* s, int) const {
    return portshmem::arch::load<portshmem::arch::order::relaxed, portshmem::arch::scope::system>(peer(s));
  }
  template <class T>
  PT_DEVICE T amo(amo_op op, T* d, T v, T cond, int) const {
    namespace a = portshmem::arch;
    constexpr a::order R = a::order::relaxed;
    constexpr a::scope S = a::scope::system;
    T* q = peer(d);
    switch (op) { // a non-fetching AMO returns nothing, as the library's do
    case amo_op::inc:
      return a::fetch_add<R, S>(q, T(1)), T(0);
    case amo_op::fetch_inc:
      return a::fetch_add<R, S>(q, T(1));
    case amo_op::add:
      return a::fetch_add<R, S>(q, v), T(0);
    case amo_op::fetch_add:
      return a::fetch_add<R, S>(q, v);
    case amo_op::set:
      return a::store<R, S>(q, v), T(0);
    case amo_op::fetch:
      return a::load<R, S>(static_cast<const T*>(q));
    case amo_op::swap:
      return a::exchange<R, S>(q, v);
    case amo_op::compare_swap:
      return a::compare_exchange<R, S>(q, cond, v);
    case amo_op::and_:
      return a::fetch_and<R, S>(q, v), T(0);
    case amo_op::fetch_and:
      return a::fetch_and<R, S>(q, v);
    case amo_op::or_:
      return a::fetch_or<R, S>(q, v), T(0);
    case amo_op::fetch_or:
      return a::fetch_or<R, S>(q, v);
    case amo_op::xor_:
      return a::fetch_xor<R, S>(q, v), T(0);
    case amo_op::fetch_xor:
      return a::fetch_xor<R, S>(q, v);
    }
    return T(0);
  }
  PT_DEVICE void quiet() const {
    portshmem::arch::fence<portshmem::arch::order::seq_cst, portshmem::arch::scope::system>();
  }
  /// A release fence: with the relaxed store of signal_set after it, the release store of a hand-written flag.
  PT_DEVICE void fence() const {
    portshmem::arch::fence<portshmem::arch::order::release, portshmem::arch::scope::system>();
  }
  PT_DEVICE void signal_set(std::uint64_t* sig, std::uint64_t v, int) const {
    portshmem::arch::store<portshmem::arch::order::relaxed, portshmem::arch::scope::system>(peer(sig), v);
  }
  /// An acquire poll of one's own word; after a minute it traps (the launch fails) rather than hang the job.
  PT_DEVICE void wait_ge(std::uint64_t* ivar, std::uint64_t v) const {
    namespace a = portshmem::arch;
    const std::uint64_t start = a::time_ns();
    while (a::load<a::order::acquire, a::scope::system>(static_cast<const std::uint64_t*>(ivar)) < v) {
      a::spin_pause();
      if (a::time_ns() - start > 60000000000ull) a::trap();
    }
  }
  PT_DEVICE void signal_wait_ge(std::uint64_t* sig, std::uint64_t v) const { wait_ge(sig, v); }
  template <group G>
  PT_DEVICE void put_signal_nbi(void* d, const void* s, std::size_t n, std::uint64_t* sig, std::uint64_t v,
                                int pe) const {
    put_nbi<G>(d, s, n, pe);
    group_sync<G>();
    if (group_rank<G>() == 0) {
      portshmem::arch::store<portshmem::arch::order::release, portshmem::arch::scope::system>(peer(sig), v);
    }
  }
};

} // namespace pt
