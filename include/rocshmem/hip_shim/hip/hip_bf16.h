// HIP's __hip_bfloat16 for rocSHMEM programs built on portshmem (this directory is on their include path on the host
// and nvidia platforms): amd: HIP's own; nvidia: CUDA's __nv_bfloat16 (<cuda_bf16.h>, the same 16-bit word), with
// __float2bfloat16 and __bfloat162float as CUDA has them; host platform: portshmem::bfloat16_t, with those two
// conversions (round to nearest-even, exact). rocSHMEM's bfloat16 collectives take this type
// (rocshmem/detail/float16.hpp).
#pragma once

#include "portshmem/platform.hpp"

#if PORTSHMEM_PLATFORM_AMD
#include_next <hip/hip_bf16.h>
#elif PORTSHMEM_PLATFORM_NVIDIA
#include <cuda_bf16.h>
using __hip_bfloat16 = __nv_bfloat16;
#else
#include "portshmem/float16.hpp"
using __hip_bfloat16 = portshmem::bfloat16_t;
inline __hip_bfloat16 __float2bfloat16(float f) {
  return portshmem::to_bfloat16(f);
}
inline float __bfloat162float(__hip_bfloat16 b) {
  return portshmem::to_float(b);
}
#endif
