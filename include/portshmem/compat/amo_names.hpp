// rocSHMEM-style names for the AMOs, for code coming from rocSHMEM/OpenSHMEM: portshmem_int_atomic_fetch_add,
// portshmem_ctx_long_atomic_compare_swap, ... Each is a one-line forward to the C++ API (amo.hpp) with the same
// semantics and the default (system) scope; the device handle is the explicit first argument in both the plain and
// the ctx_ spelling. Generated over amo.hpp's type tables: fetch/set/swap for the extended types, compare_swap and
// the arithmetic forms for the standard types, and/or/xor for the bitwise types.
#pragma once

#include "portshmem/amo.hpp"

#define PORTSHMEM_DETAIL_AMO_EXTENDED_NAMES(PREFIX, NAME, TYPE)                                                        \
  PORTSHMEM_DEVICE TYPE PREFIX##NAME##_atomic_fetch(const portshmem::ctx& c, const TYPE* source, int pe) {             \
    return portshmem::atomic_fetch(c, source, pe);                                                                     \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##NAME##_atomic_set(const portshmem::ctx& c, TYPE* dest, TYPE value, int pe) {           \
    portshmem::atomic_set(c, dest, value, pe);                                                                         \
  }                                                                                                                    \
  PORTSHMEM_DEVICE TYPE PREFIX##NAME##_atomic_swap(const portshmem::ctx& c, TYPE* dest, TYPE value, int pe) {          \
    return portshmem::atomic_swap(c, dest, value, pe);                                                                 \
  }

#define PORTSHMEM_DETAIL_AMO_STANDARD_NAMES(PREFIX, NAME, TYPE)                                                        \
  PORTSHMEM_DETAIL_AMO_EXTENDED_NAMES(PREFIX, NAME, TYPE)                                                              \
  PORTSHMEM_DEVICE TYPE PREFIX##NAME##_atomic_compare_swap(const portshmem::ctx& c, TYPE* dest, TYPE cond, TYPE value, \
                                                           int pe) {                                                   \
    return portshmem::atomic_compare_swap(c, dest, cond, value, pe);                                                   \
  }                                                                                                                    \
  PORTSHMEM_DEVICE TYPE PREFIX##NAME##_atomic_fetch_inc(const portshmem::ctx& c, TYPE* dest, int pe) {                 \
    return portshmem::atomic_fetch_inc(c, dest, pe);                                                                   \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##NAME##_atomic_inc(const portshmem::ctx& c, TYPE* dest, int pe) {                       \
    portshmem::atomic_inc(c, dest, pe);                                                                                \
  }                                                                                                                    \
  PORTSHMEM_DEVICE TYPE PREFIX##NAME##_atomic_fetch_add(const portshmem::ctx& c, TYPE* dest, TYPE value, int pe) {     \
    return portshmem::atomic_fetch_add(c, dest, value, pe);                                                            \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##NAME##_atomic_add(const portshmem::ctx& c, TYPE* dest, TYPE value, int pe) {           \
    portshmem::atomic_add(c, dest, value, pe);                                                                         \
  }

#define PORTSHMEM_DETAIL_AMO_BITWISE_NAMES(PREFIX, NAME, TYPE)                                                         \
  PORTSHMEM_DEVICE TYPE PREFIX##NAME##_atomic_fetch_and(const portshmem::ctx& c, TYPE* dest, TYPE value, int pe) {     \
    return portshmem::atomic_fetch_and(c, dest, value, pe);                                                            \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##NAME##_atomic_and(const portshmem::ctx& c, TYPE* dest, TYPE value, int pe) {           \
    portshmem::atomic_and(c, dest, value, pe);                                                                         \
  }                                                                                                                    \
  PORTSHMEM_DEVICE TYPE PREFIX##NAME##_atomic_fetch_or(const portshmem::ctx& c, TYPE* dest, TYPE value, int pe) {      \
    return portshmem::atomic_fetch_or(c, dest, value, pe);                                                             \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##NAME##_atomic_or(const portshmem::ctx& c, TYPE* dest, TYPE value, int pe) {            \
    portshmem::atomic_or(c, dest, value, pe);                                                                          \
  }                                                                                                                    \
  PORTSHMEM_DEVICE TYPE PREFIX##NAME##_atomic_fetch_xor(const portshmem::ctx& c, TYPE* dest, TYPE value, int pe) {     \
    return portshmem::atomic_fetch_xor(c, dest, value, pe);                                                            \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##NAME##_atomic_xor(const portshmem::ctx& c, TYPE* dest, TYPE value, int pe) {           \
    portshmem::atomic_xor(c, dest, value, pe);                                                                         \
  }

#define PORTSHMEM_DETAIL_PLAIN_AMO_EXTENDED(NAME, TYPE) PORTSHMEM_DETAIL_AMO_EXTENDED_NAMES(portshmem_, NAME, TYPE)
#define PORTSHMEM_DETAIL_CTX_AMO_EXTENDED(NAME, TYPE) PORTSHMEM_DETAIL_AMO_EXTENDED_NAMES(portshmem_ctx_, NAME, TYPE)
#define PORTSHMEM_DETAIL_PLAIN_AMO_STANDARD(NAME, TYPE) PORTSHMEM_DETAIL_AMO_STANDARD_NAMES(portshmem_, NAME, TYPE)
#define PORTSHMEM_DETAIL_CTX_AMO_STANDARD(NAME, TYPE) PORTSHMEM_DETAIL_AMO_STANDARD_NAMES(portshmem_ctx_, NAME, TYPE)
#define PORTSHMEM_DETAIL_PLAIN_AMO_BITWISE(NAME, TYPE) PORTSHMEM_DETAIL_AMO_BITWISE_NAMES(portshmem_, NAME, TYPE)
#define PORTSHMEM_DETAIL_CTX_AMO_BITWISE(NAME, TYPE) PORTSHMEM_DETAIL_AMO_BITWISE_NAMES(portshmem_ctx_, NAME, TYPE)

PORTSHMEM_AMO_STANDARD_TYPES(PORTSHMEM_DETAIL_PLAIN_AMO_STANDARD)
PORTSHMEM_AMO_STANDARD_TYPES(PORTSHMEM_DETAIL_CTX_AMO_STANDARD)
PORTSHMEM_AMO_EXTENDED_ONLY_TYPES(PORTSHMEM_DETAIL_PLAIN_AMO_EXTENDED)
PORTSHMEM_AMO_EXTENDED_ONLY_TYPES(PORTSHMEM_DETAIL_CTX_AMO_EXTENDED)
PORTSHMEM_AMO_BITWISE_TYPES(PORTSHMEM_DETAIL_PLAIN_AMO_BITWISE)
PORTSHMEM_AMO_BITWISE_TYPES(PORTSHMEM_DETAIL_CTX_AMO_BITWISE)

#undef PORTSHMEM_DETAIL_PLAIN_AMO_EXTENDED
#undef PORTSHMEM_DETAIL_CTX_AMO_EXTENDED
#undef PORTSHMEM_DETAIL_PLAIN_AMO_STANDARD
#undef PORTSHMEM_DETAIL_CTX_AMO_STANDARD
#undef PORTSHMEM_DETAIL_PLAIN_AMO_BITWISE
#undef PORTSHMEM_DETAIL_CTX_AMO_BITWISE
#undef PORTSHMEM_DETAIL_AMO_BITWISE_NAMES
#undef PORTSHMEM_DETAIL_AMO_STANDARD_NAMES
#undef PORTSHMEM_DETAIL_AMO_EXTENDED_NAMES
