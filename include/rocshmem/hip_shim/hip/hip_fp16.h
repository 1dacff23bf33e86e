// HIP's __half for rocSHMEM programs built on portshmem (this directory is on their include path on the host and
// nvidia platforms): amd: HIP's own; nvidia: CUDA's __half (<cuda_fp16.h>, the same binary16 word with the same
// conversions); host platform: portshmem::half_t, with __float2half and __half2float (round to nearest-even, exact).
// rocSHMEM's half collectives take this type (rocshmem/detail/float16.hpp).
#pragma once

#include "portshmem/platform.hpp"

#if PORTSHMEM_PLATFORM_AMD
#include_next <hip/hip_fp16.h>
#elif PORTSHMEM_PLATFORM_NVIDIA
#include <cuda_fp16.h>
#else
#include "portshmem/float16.hpp"
using __half = portshmem::half_t;
inline __half __float2half(float f) {
  return portshmem::to_half(f);
}
inline float __half2float(__half h) {
  return portshmem::to_float(h);
}
#endif
