// Single-element access to symmetric memory (p, g, waits, AMOs): 4- and 8-byte values go through the arch layer's
// atomics (so a p racing with a wait_until on the same word is well defined); other sizes are plain data accesses.
#pragma once

#include <cstdint>
#include <type_traits>

#include "portshmem/arch.hpp"

namespace portshmem::detail {

template <std::size_t N>
struct uint_of_size {};
template <>
struct uint_of_size<4> {
  using type = std::uint32_t;
};
template <>
struct uint_of_size<8> {
  using type = std::uint64_t;
};

template <class T>
inline constexpr bool kAtomicWord = (sizeof(T) == 4 || sizeof(T) == 8) && std::is_trivially_copyable_v<T>;

template <class To, class From>
PORTSHMEM_DEVICE To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast between types of different size");
  To to;
  __builtin_memcpy(&to, &from, sizeof(To));
  return to;
}

template <arch::order O, arch::scope S, class T>
PORTSHMEM_DEVICE void store_value(T* p, T v) {
  if constexpr (kAtomicWord<T>) {
    using U = typename uint_of_size<sizeof(T)>::type;
    arch::store<O, S>(reinterpret_cast<U*>(p), bit_cast<U>(v));
  } else {
    if constexpr (O != arch::order::relaxed) arch::fence<arch::order::release, S>();
    arch::store_data<arch::cache::keep>(p, v);
  }
}

template <arch::order O, arch::scope S, class T>
PORTSHMEM_DEVICE T load_value(const T* p) {
  if constexpr (kAtomicWord<T>) {
    using U = typename uint_of_size<sizeof(T)>::type;
    return bit_cast<T>(arch::load<O, S>(reinterpret_cast<const U*>(p)));
  } else {
    T v = arch::load_data<arch::cache::keep>(p);
    if constexpr (O != arch::order::relaxed) arch::fence<arch::order::acquire, S>();
    return v;
  }
}

}  // namespace portshmem::detail
