// The reduction operators of the collectives (OpenSHMEM's sum, prod, min, max, and, or, xor) as small function
// objects, and the element types each accepts: bitwise ones integers only; the 16-bit floats compute in float.
#pragma once

#include <type_traits>

#include "portshmem/arch.hpp"
#include "portshmem/float16.hpp"

namespace portshmem::detail {

template <class T>
inline constexpr bool kFloat16 = std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>;

/// Whether T is an element type of the arithmetic reductions (sum, prod, min, max).
template <class T>
inline constexpr bool kArithmeticElement = (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) || kFloat16<T>;

/// Whether T is an element type of the bitwise reductions (and, or, xor).
template <class T>
inline constexpr bool kBitwiseElement = std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// f(a, b) in T's computing type: float for the 16-bit floats, T itself otherwise.
template <class T, class F>
PORTSHMEM_DEVICE T combine(T a, T b, F f) {
  if constexpr (std::is_same_v<T, half_t>) {
    return to_half(f(to_float(a), to_float(b)));
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    return to_bfloat16(f(to_float(a), to_float(b)));
  } else {
    return T(f(a, b));
  }
}

struct op_sum {
  static constexpr unsigned id = 1;
  template <class T>
  static constexpr bool accepts = kArithmeticElement<T>;
  template <class T>
  PORTSHMEM_DEVICE static T apply(T a, T b) {
    return combine(a, b, [](auto x, auto y) { return x + y; });
  }
};
struct op_prod {
  static constexpr unsigned id = 2;
  template <class T>
  static constexpr bool accepts = kArithmeticElement<T>;
  template <class T>
  PORTSHMEM_DEVICE static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T> && sizeof(T) < sizeof(unsigned)) {
      // Narrow integers would multiply as int, where two unsigned shorts' product overflows: unsigned wraps, with the
      // same low bits.
      return T(unsigned(a) * unsigned(b));
    } else {
      return combine(a, b, [](auto x, auto y) { return x * y; });
    }
  }
};
struct op_min {
  static constexpr unsigned id = 3;
  template <class T>
  static constexpr bool accepts = kArithmeticElement<T>;
  template <class T>
  PORTSHMEM_DEVICE static T apply(T a, T b) {
    return combine(a, b, [](auto x, auto y) { return y < x ? y : x; });
  }
};
struct op_max {
  static constexpr unsigned id = 4;
  template <class T>
  static constexpr bool accepts = kArithmeticElement<T>;
  template <class T>
  PORTSHMEM_DEVICE static T apply(T a, T b) {
    return combine(a, b, [](auto x, auto y) { return x < y ? y : x; });
  }
};
struct op_and {
  static constexpr unsigned id = 5;
  template <class T>
  static constexpr bool accepts = kBitwiseElement<T>;
  template <class T>
  PORTSHMEM_DEVICE static T apply(T a, T b) {
    return T(a & b);
  }
};
struct op_or {
  static constexpr unsigned id = 6;
  template <class T>
  static constexpr bool accepts = kBitwiseElement<T>;
  template <class T>
  PORTSHMEM_DEVICE static T apply(T a, T b) {
    return T(a | b);
  }
};
struct op_xor {
  static constexpr unsigned id = 7;
  template <class T>
  static constexpr bool accepts = kBitwiseElement<T>;
  template <class T>
  PORTSHMEM_DEVICE static T apply(T a, T b) {
    return T(a ^ b);
  }
};

} // namespace portshmem::detail
