// Single-element access to symmetric memory (p, g, waits, AMOs): 4- and 8-byte values go through the arch layer's
// atomics (so a p racing with a wait_until on the same word is well defined); other sizes are plain data accesses.
#pragma once

#include <cstdint>
#include <type_traits>

#include "portshmem/arch.hpp"

namespace portshmem::detail {

template <class T>
inline constexpr bool kAtomicWord = (sizeof(T) == 4 || sizeof(T) == 8) && std::is_trivially_copyable_v<T>;

using arch::detail::bit_cast;

template <arch::order O, arch::scope S, class T>
PORTSHMEM_DEVICE void store_value(T* p, T v) {
  if constexpr (kAtomicWord<T>) {
    using U = arch::detail::uint_t<sizeof(T)>;
    arch::store<O, S>(reinterpret_cast<U*>(p), bit_cast<U>(v));
  } else {
    if constexpr (O != arch::order::relaxed) arch::fence<arch::order::release, S>();
    arch::store_data<arch::cache::keep>(p, v);
  }
}

template <arch::order O, arch::scope S, class T>
PORTSHMEM_DEVICE T load_value(const T* p) {
  if constexpr (kAtomicWord<T>) {
    using U = arch::detail::uint_t<sizeof(T)>;
    return bit_cast<T>(arch::load<O, S>(reinterpret_cast<const U*>(p)));
  } else {
    T v = arch::load_data<arch::cache::keep>(p);
    if constexpr (O != arch::order::relaxed) arch::fence<arch::order::acquire, S>();
    return v;
  }
}

} // namespace portshmem::detail
