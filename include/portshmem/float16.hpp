// 16-bit floating-point element types for reductions: IEEE binary16 (half_t) and bfloat16 (bfloat16_t), stored as
// their bits, so a buffer of __half / __nv_bfloat16 / hip_bfloat16 can be passed by reinterpreting its pointer (same
// bits, same size). Reductions compute in float and round back to nearest-even, on every platform alike (the host
// platform has no native 16-bit float), so every PE produces the same bits.
#pragma once

#include <cstdint>

#include "portshmem/arch.hpp"

namespace portshmem {

/// IEEE 754 binary16, as bits.
struct half_t {
  std::uint16_t bits;
};

/// bfloat16 (the upper half of a binary32), as bits.
struct bfloat16_t {
  std::uint16_t bits;
};

namespace detail {

PORTSHMEM_DEVICE float float_of_bits(std::uint32_t b) {
  return arch::detail::bit_cast<float>(b);
}

PORTSHMEM_DEVICE std::uint32_t bits_of_float(float f) {
  return arch::detail::bit_cast<std::uint32_t>(f);
}

} // namespace detail

/// The float value of h (exact).
PORTSHMEM_DEVICE float to_float(half_t h) {
  const std::uint32_t sign = std::uint32_t(h.bits & 0x8000u) << 16, exp = (h.bits >> 10) & 0x1fu, man = h.bits & 0x3ffu;
  if (exp == 0) { // zero or subnormal: man * 2^-24, exact in float
    const float magnitude = float(man) * 5.9604644775390625e-8f;
    return detail::float_of_bits(detail::bits_of_float(magnitude) | sign);
  }
  if (exp == 31) return detail::float_of_bits(sign | 0x7f800000u | (man << 13)); // inf, NaN (payload kept)
  return detail::float_of_bits(sign | ((exp + 112u) << 23) | (man << 13));
}

/// f rounded to the nearest half (ties to even); overflow gives infinity, NaN stays NaN.
PORTSHMEM_DEVICE half_t to_half(float f) {
  const std::uint32_t x = detail::bits_of_float(f), sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
  if (a >= 0x7f800000u) return {std::uint16_t(sign | (a > 0x7f800000u ? 0x7e00u : 0x7c00u))};
  if (a >= 0x477ff000u) return {std::uint16_t(sign | 0x7c00u)}; // rounds to 65536 or more
  if (a < 0x38800000u) {                                        // below the smallest normal half, 2^-14
    if (a < 0x33000000u) return {std::uint16_t(sign)};          // at most 2^-25: rounds to zero
    const std::uint32_t e = a >> 23, m = (a & 0x7fffffu) | 0x800000u, shift = 126u - e;
    std::uint32_t h = m >> shift;
    const std::uint32_t rest = m & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
    if (rest > halfway || (rest == halfway && (h & 1u))) ++h;
    return {std::uint16_t(sign | h)};
  }
  std::uint32_t h = (a >> 13) - (112u << 10);
  const std::uint32_t rest = a & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h; // a carry into the exponent is still correct
  return {std::uint16_t(sign | h)};
}

/// The float value of b (exact).
PORTSHMEM_DEVICE float to_float(bfloat16_t b) {
  return detail::float_of_bits(std::uint32_t(b.bits) << 16);
}

/// f rounded to the nearest bfloat16 (ties to even); NaN stays NaN.
PORTSHMEM_DEVICE bfloat16_t to_bfloat16(float f) {
  const std::uint32_t x = detail::bits_of_float(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return {std::uint16_t((x >> 16) | 0x40u)};
  return {std::uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16)};
}

} // namespace portshmem
