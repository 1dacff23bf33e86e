// The 16-bit floating types of rocSHMEM's collectives (its `half` and `bfloat16` names) on each platform, and how they
// reach portshmem's reductions. rocSHMEM declares them with HIP's __half and __hip_bfloat16. Here:
//   amd     HIP's __half and __hip_bfloat16 (<hip/hip_fp16.h>, <hip/hip_bf16.h>; a HIP without hip_bf16.h, before
//           ROCm 6, has no __hip_bfloat16: there bfloat16 is portshmem's bfloat16_t);
//   nvidia  CUDA's __half and __nv_bfloat16 (<cuda_fp16.h>, <cuda_bf16.h>), the types the HIP shim maps HIP's onto
//           (hip_shim/hip/hip_fp16.h, hip_bf16.h);
//   host    portshmem's own half_t and bfloat16_t (portshmem/float16.hpp), which the host platform's HIP shim names
//           __half and __hip_bfloat16.
// Defined where the device API is (a GPU compiler, or the host platform): elsewhere the names that take them are not
// declared (ROCSHMEM_DETAIL_HAS_FLOAT16 is 0).
//
// portshmem's data-moving collectives take bytes (their typed forms use sizeof(T) only), so broadcast, alltoall,
// alltoallv and fcollect take these types as they are. Its reductions compute on half_t and bfloat16_t: the GPU types
// are passed to them by reinterpreting the pointers, which is sound because (1) the layouts agree (checked below: one
// 16-bit word holding the same IEEE binary16 / bfloat16 bits, same size and alignment, trivially copyable), and (2)
// the caller's accesses through the GPU type and the library's through half_t never meet: reinterpret() and done()
// put a compiler memory barrier before and after the collective, so no load or store of either type is moved across
// the call (type-based alias analysis may treat the two types as unrelated; the barriers leave it nothing to reorder).
#pragma once

#include <type_traits>

#include "portshmem/float16.hpp"
#include "portshmem/platform.hpp"

#if PORTSHMEM_HAS_DEVICE_API
#define ROCSHMEM_DETAIL_HAS_FLOAT16 1
#if PORTSHMEM_PLATFORM_AMD
#include <hip/hip_fp16.h>
#if __has_include(<hip/hip_bf16.h>) // ROCm 6 (rocSHMEM 3.x's); older HIP has no __hip_bfloat16
#include <hip/hip_bf16.h>
#define ROCSHMEM_DETAIL_HIP_BFLOAT16 1
#else
#define ROCSHMEM_DETAIL_HIP_BFLOAT16 0
#endif
#elif PORTSHMEM_PLATFORM_NVIDIA
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

namespace rocshmem::detail {

#if PORTSHMEM_PLATFORM_AMD
using half = __half;
#if ROCSHMEM_DETAIL_HIP_BFLOAT16
using bfloat16 = __hip_bfloat16;
#else
using bfloat16 = portshmem::bfloat16_t; // HIP before ROCm 6 (Debian's 5.2): no __hip_bfloat16 to take
#endif
#elif PORTSHMEM_PLATFORM_NVIDIA
using half = __half;
using bfloat16 = __nv_bfloat16;
#else
using half = portshmem::half_t;
using bfloat16 = portshmem::bfloat16_t;
#endif

template <class T, class Native>
inline constexpr bool
    kSameLayout = sizeof(T) == sizeof(Native) &&
                  alignof(T) == alignof(Native) && std::is_trivially_copyable_v<T>&& std::is_standard_layout_v<T>;
static_assert(kSameLayout<half, portshmem::half_t>, "rocSHMEM's half must be a 16-bit word like portshmem::half_t");
static_assert(kSameLayout<bfloat16, portshmem::bfloat16_t>,
              "rocSHMEM's bfloat16 must be a 16-bit word like portshmem::bfloat16_t");

/// portshmem's element type for a rocSHMEM element type T: half_t, bfloat16_t for the 16-bit floats, T otherwise.
template <class T>
struct native_element {
  using type = T;
};
template <>
struct native_element<half> {
  using type = portshmem::half_t;
};
template <>
struct native_element<bfloat16> {
  using type = portshmem::bfloat16_t;
};
template <class T>
using native_t = typename native_element<std::remove_const_t<T>>::type;

/// A compiler memory barrier: no load or store is moved across it (no instruction is emitted).
PORTSHMEM_DEVICE void compiler_barrier() {
  asm volatile("" ::: "memory");
}

/// p as a pointer to portshmem's element type, after a compiler barrier (the caller's stores through T come first).
template <class T>
PORTSHMEM_DEVICE auto* reinterpret(T* p) {
  compiler_barrier();
  if constexpr (std::is_const_v<T>) {
    return reinterpret_cast<const native_t<T>*>(p);
  } else {
    return reinterpret_cast<native_t<T>*>(p);
  }
}

/// The end of a reinterpreted call: a compiler barrier (the library's stores through half_t come before the caller's
/// next access through T); returns 0, the names' result.
PORTSHMEM_DEVICE int done() {
  compiler_barrier();
  return 0;
}

} // namespace rocshmem::detail
#else
#define ROCSHMEM_DETAIL_HAS_FLOAT16 0
#endif
