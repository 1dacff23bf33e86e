// The OpenSHMEM vocabulary of the device API, shared by the contracts (rma.hpp, amo.hpp, ...), their bodies
// (detail/) and the transports (transport/): the type tables of the typed RMA and AMO calls, listed once as
// X(TYPENAME, TYPE) (the C++ type checks and the C names of compat/ are generated from them), the comparisons of the
// waits and the signal operations. long double is an RMA type on the host platform only: GPU compilers give it a
// different size in device code than on the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "portshmem/platform.hpp"

#define PORTSHMEM_RMA_TYPES_COMMON(X)                                                                                  \
  X(float, float)                                                                                                      \
  X(double, double)                                                                                                    \
  X(char, char)                                                                                                        \
  X(schar, signed char)                                                                                                \
  X(short, short)                                                                                                      \
  X(int, int)                                                                                                          \
  X(long, long)                                                                                                        \
  X(longlong, long long)                                                                                               \
  X(uchar, unsigned char)                                                                                              \
  X(ushort, unsigned short)                                                                                            \
  X(uint, unsigned int)                                                                                                \
  X(ulong, unsigned long)                                                                                              \
  X(ulonglong, unsigned long long)                                                                                     \
  X(int8, std::int8_t)                                                                                                 \
  X(int16, std::int16_t)                                                                                               \
  X(int32, std::int32_t)                                                                                               \
  X(int64, std::int64_t)                                                                                               \
  X(uint8, std::uint8_t)                                                                                               \
  X(uint16, std::uint16_t)                                                                                             \
  X(uint32, std::uint32_t)                                                                                             \
  X(uint64, std::uint64_t)                                                                                             \
  X(size, std::size_t)                                                                                                 \
  X(ptrdiff, std::ptrdiff_t)

#if PORTSHMEM_PLATFORM_HOST
#define PORTSHMEM_RMA_TYPES(X) PORTSHMEM_RMA_TYPES_COMMON(X) X(longdouble, long double)
#else
#define PORTSHMEM_RMA_TYPES(X) PORTSHMEM_RMA_TYPES_COMMON(X)
#endif

// The OpenSHMEM AMO type tables: the standard AMO types (every AMO), the extended types (standard + float and double:
// fetch, set, swap), the bitwise types (and, or, xor).
#define PORTSHMEM_AMO_STANDARD_TYPES(X)                                                                                \
  X(int, int)                                                                                                          \
  X(long, long)                                                                                                        \
  X(longlong, long long)                                                                                               \
  X(uint, unsigned int)                                                                                                \
  X(ulong, unsigned long)                                                                                              \
  X(ulonglong, unsigned long long)                                                                                     \
  X(int32, std::int32_t)                                                                                               \
  X(int64, std::int64_t)                                                                                               \
  X(uint32, std::uint32_t)                                                                                             \
  X(uint64, std::uint64_t)                                                                                             \
  X(size, std::size_t)                                                                                                 \
  X(ptrdiff, std::ptrdiff_t)
#define PORTSHMEM_AMO_EXTENDED_ONLY_TYPES(X)                                                                           \
  X(float, float)                                                                                                      \
  X(double, double)
#define PORTSHMEM_AMO_EXTENDED_TYPES(X) PORTSHMEM_AMO_STANDARD_TYPES(X) PORTSHMEM_AMO_EXTENDED_ONLY_TYPES(X)
#define PORTSHMEM_AMO_BITWISE_TYPES(X)                                                                                 \
  X(uint, unsigned int)                                                                                                \
  X(ulong, unsigned long)                                                                                              \
  X(ulonglong, unsigned long long)                                                                                     \
  X(int32, std::int32_t)                                                                                               \
  X(int64, std::int64_t)                                                                                               \
  X(uint32, std::uint32_t)                                                                                             \
  X(uint64, std::uint64_t)

/// The signal operations as plain constants (OpenSHMEM's SHMEM_SIGNAL_SET / SHMEM_SIGNAL_ADD), for the C names.
#define PORTSHMEM_SIGNAL_SET 0
#define PORTSHMEM_SIGNAL_ADD 1

namespace portshmem {

/// Whether T is one of the standard RMA types (the int8_t... aliases name the same C++ types as the plain names).
template <class T>
struct is_rma_type : std::false_type {};
#define PORTSHMEM_DETAIL_RMA_TRAIT(NAME, TYPE)                                                                         \
  template <>                                                                                                          \
  struct is_rma_type<TYPE> : std::true_type {};
// Only the plain names: the fixed-width and size/ptrdiff aliases are the same C++ types, and a second
// specialization of one type would not compile.
PORTSHMEM_DETAIL_RMA_TRAIT(float, float)
PORTSHMEM_DETAIL_RMA_TRAIT(double, double)
PORTSHMEM_DETAIL_RMA_TRAIT(char, char)
PORTSHMEM_DETAIL_RMA_TRAIT(schar, signed char)
PORTSHMEM_DETAIL_RMA_TRAIT(short, short)
PORTSHMEM_DETAIL_RMA_TRAIT(int, int)
PORTSHMEM_DETAIL_RMA_TRAIT(long, long)
PORTSHMEM_DETAIL_RMA_TRAIT(longlong, long long)
PORTSHMEM_DETAIL_RMA_TRAIT(uchar, unsigned char)
PORTSHMEM_DETAIL_RMA_TRAIT(ushort, unsigned short)
PORTSHMEM_DETAIL_RMA_TRAIT(uint, unsigned int)
PORTSHMEM_DETAIL_RMA_TRAIT(ulong, unsigned long)
PORTSHMEM_DETAIL_RMA_TRAIT(ulonglong, unsigned long long)
#if PORTSHMEM_PLATFORM_HOST
PORTSHMEM_DETAIL_RMA_TRAIT(longdouble, long double)
#endif
#undef PORTSHMEM_DETAIL_RMA_TRAIT

template <class T>
inline constexpr bool is_rma_type_v = is_rma_type<std::remove_cv_t<T>>::value;

// Type tests as disjunctions over the tables: the fixed-width aliases name the same C++ types as the plain names, so
// a table entry may repeat a type (a specialization per entry would not compile). `long long` is not bitwise where
// int64_t is `long`, as in OpenSHMEM (there is no shmem_longlong_atomic_and).
#define PORTSHMEM_DETAIL_AMO_IS(NAME, TYPE) || std::is_same_v<T, TYPE>
/// Whether T is an OpenSHMEM standard AMO type.
template <class T>
inline constexpr bool is_amo_standard_type_v = false PORTSHMEM_AMO_STANDARD_TYPES(PORTSHMEM_DETAIL_AMO_IS);
/// Whether T is an OpenSHMEM extended AMO type (fetch, set, swap).
template <class T>
inline constexpr bool is_amo_extended_type_v = false PORTSHMEM_AMO_EXTENDED_TYPES(PORTSHMEM_DETAIL_AMO_IS);
/// Whether T is an OpenSHMEM bitwise AMO type (and, or, xor).
template <class T>
inline constexpr bool is_amo_bitwise_type_v = false PORTSHMEM_AMO_BITWISE_TYPES(PORTSHMEM_DETAIL_AMO_IS);
#undef PORTSHMEM_DETAIL_AMO_IS

/// Comparison of the waits and tests (OpenSHMEM's SHMEM_CMP_*).
enum class cmp { eq, ne, gt, ge, lt, le };

/// How a signal operation updates the signal word: overwrite it, or add to it atomically.
enum signal_update : int { signal_set = PORTSHMEM_SIGNAL_SET, signal_add = PORTSHMEM_SIGNAL_ADD };

} // namespace portshmem
