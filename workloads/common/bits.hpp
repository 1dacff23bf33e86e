// The bit-level helpers the workloads' kernels share: a 16-byte unit of data, float <-> bits, bf16 <-> float with
// round-to-nearest-even, and a unit of 8 bf16 <-> 8 floats. Needs WL_HOST_DEVICE (portshmem_thread.hpp or
// cuda_thread.hpp, included first).
#pragma once

#include <cstdint>

namespace workloads {

struct alignas(16) unit16 {
  std::uint32_t w[4];
};

WL_HOST_DEVICE float f32_of_bits(std::uint32_t b) {
  union {
    std::uint32_t u;
    float f;
  } x{b};
  return x.f;
}
WL_HOST_DEVICE std::uint32_t bits_of_f32(float f) {
  union {
    float f;
    std::uint32_t u;
  } x{f};
  return x.u;
}
/// bf16 bits -> float (exact) and float -> bf16 bits rounded to nearest, ties to even (NaN stays a quiet NaN).
WL_HOST_DEVICE float f32_of_bf16(std::uint16_t h) {
  return f32_of_bits(std::uint32_t(h) << 16);
}
WL_HOST_DEVICE std::uint16_t bf16_of_f32(float f) {
  const std::uint32_t x = bits_of_f32(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return std::uint16_t((x >> 16) | 0x40u);
  return std::uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

/// The 8 bf16 elements of a unit as floats, and 8 floats rounded (to nearest, ties to even) into a unit of bf16.
WL_HOST_DEVICE void unpack(const unit16& u, float* v) {
  for (int k = 0; k < 4; ++k) {
    v[2 * k] = f32_of_bf16(std::uint16_t(u.w[k] & 0xffffu));
    v[2 * k + 1] = f32_of_bf16(std::uint16_t(u.w[k] >> 16));
  }
}
WL_HOST_DEVICE unit16 pack(const float* v) {
  unit16 u;
  for (int k = 0; k < 4; ++k)
    u.w[k] = std::uint32_t(bf16_of_f32(v[2 * k])) | std::uint32_t(bf16_of_f32(v[2 * k + 1])) << 16;
  return u;
}

} // namespace workloads
