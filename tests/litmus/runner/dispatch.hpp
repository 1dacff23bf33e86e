// From the runtime qualifier values of an encoded op (program.hpp) to the compile-time tags of portshmem::mm: each
// with_* calls f with the tag object, so a call written once, e.g.
//   with_cover(op.cover, [&](auto cv) { with_scope(op.scope, [&](auto sc) { portshmem::fence(c, cv, sc); }); });
// instantiates the real API call for every combination the litmus format allows. Tags are built in place
// (mm::device_t{}), not taken from the namespace-scope constants, so no host variable is used in device code.
#pragma once

#include <cstdint>

#include "portshmem/memory_model.hpp"
#include "portshmem/platform.hpp"
#include "program.hpp"

namespace litmus_runner {

namespace mm = portshmem::mm;

template <class F>
PORTSHMEM_DEVICE void with_scope(std::uint8_t v, const F& f) {
  if (v == kScopeDevice) {
    f(mm::device_t{});
  } else if (v == kScopeNode) {
    f(mm::node_t{});
  } else {
    f(mm::system_t{});
  }
}

template <class F>
PORTSHMEM_DEVICE void with_cover(std::uint8_t v, const F& f) {
  if (v == kCoverComm) {
    f(mm::comm_t{});
  } else {
    f(mm::all_t{});
  }
}

template <class F>
PORTSHMEM_DEVICE void with_path(std::uint8_t v, const F& f) {
  if (v == kPathBypass) {
    f(mm::bypass_t{});
  } else {
    f(mm::keep_t{});
  }
}

/// Acquire strength of waits: acquire, comm (the same mm::comm tag as coverage; the wait reads it as a strength)
/// or relaxed.
template <class F>
PORTSHMEM_DEVICE void with_strength(std::uint8_t v, const F& f) {
  if (v == kAcquireComm) {
    f(mm::comm_t{});
  } else if (v == kRelaxed) {
    f(mm::relaxed_t{});
  } else {
    f(mm::acquire_t{});
  }
}

template <class F>
PORTSHMEM_DEVICE void with_signal_strength(std::uint8_t v, const F& f) {
  if (v == kStrong) {
    f(mm::strong_t{});
  } else {
    f(mm::weak_t{});
  }
}

/// The integer type of a location of `bytes` bytes (LocType u8, u16, u32; 8 bytes: the runner's std::int64_t words):
/// f gets a zero of that type. Every location lives in an 8-byte slot of the runner's buffer and is accessed at its
/// first bytes, the others staying 0: on a little-endian machine (all the platforms) the slot read as 64 bits is
/// the typed value, so final values and registers need no conversion.
template <class F>
PORTSHMEM_DEVICE void with_width(std::uint8_t bytes, const F& f) {
  if (bytes == 1) {
    f(std::uint8_t{});
  } else if (bytes == 2) {
    f(std::uint16_t{});
  } else if (bytes == 4) {
    f(std::uint32_t{});
  } else {
    f(std::int64_t{});
  }
}

/// As with_width for AMOs, which take 4- and 8-byte words only (encode.cpp does not run a test with a narrower one).
template <class F>
PORTSHMEM_DEVICE void with_amo_width(std::uint8_t bytes, const F& f) {
  if (bytes == 4) {
    f(std::uint32_t{});
  } else {
    f(std::int64_t{});
  }
}

/// The litmus comparison as the API's portshmem::cmp (the enumerators are in a different order).
template <class Cmp>
PORTSHMEM_DEVICE Cmp to_api_cmp(std::uint8_t v) {
  switch (v) {
  case kEq:
    return Cmp::eq;
  case kNe:
    return Cmp::ne;
  case kLt:
    return Cmp::lt;
  case kLe:
    return Cmp::le;
  case kGt:
    return Cmp::gt;
  default:
    return Cmp::ge;
  }
}

/// The same comparison evaluated here (for the runner's own bounded polls).
template <class T>
PORTSHMEM_DEVICE bool holds(std::uint8_t v, T a, T b) {
  switch (v) {
  case kEq:
    return a == b;
  case kNe:
    return a != b;
  case kLt:
    return a < b;
  case kLe:
    return a <= b;
  case kGt:
    return a > b;
  default:
    return a >= b;
  }
}

} // namespace litmus_runner
