// The OpenSHMEM standard RMA types, listed once: X(TYPENAME, TYPE) for every type the typed RMA calls accept.
// long double is on the host platform only: GPU compilers give it a different size in device code than on the host.
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

} // namespace portshmem
