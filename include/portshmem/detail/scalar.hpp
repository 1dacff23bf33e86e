// Single-element access to symmetric memory (p, g, waits, AMOs): one atomic access of the element's size (1, 2, 4 or
// 8 bytes) through the arch layer, so a p racing with a wait_until or a g on the same element is well defined and
// scoped like every other access of the library. The one 16-byte RMA type (long double, host platform only) moves as
// two atomic 8-byte halves.
#pragma once

#include <cstdint>
#include <type_traits>

#include "portshmem/arch.hpp"

namespace portshmem::detail {

/// Whether T moves as one atomic access.
template <class T>
inline constexpr bool kAtomicWord = arch::detail::is_access_type<T>&& std::is_trivially_copyable_v<T>;

using arch::detail::bit_cast;

/// The read-modify-writes of the AMOs, each a relaxed atomic on the bits of T (two's complement makes the unsigned
/// add exact for signed T, and keeps signed overflow defined); a transport implements each (fetch_modify).
enum class rmw { add, and_, or_, xor_, swap };

template <arch::order O, arch::scope S, class T>
PORTSHMEM_DEVICE void store_value(T* p, T v) {
  if constexpr (kAtomicWord<T>) {
    using U = arch::detail::uint_t<sizeof(T)>;
    arch::store<O, S>(reinterpret_cast<U*>(p), bit_cast<U>(v));
  } else {
    if constexpr (O != arch::order::relaxed) arch::fence<arch::order::release, S>();
    arch::store_data<arch::cache::bypass, S>(p, v);
  }
}

template <arch::order O, arch::scope S, class T>
PORTSHMEM_DEVICE T load_value(const T* p) {
  if constexpr (kAtomicWord<T>) {
    using U = arch::detail::uint_t<sizeof(T)>;
    return bit_cast<T>(arch::load<O, S>(reinterpret_cast<const U*>(p)));
  } else {
    T v = arch::load_data<arch::cache::bypass, S>(p);
    if constexpr (O != arch::order::relaxed) arch::fence<arch::order::acquire, S>();
    return v;
  }
}

} // namespace portshmem::detail
