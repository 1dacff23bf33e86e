// HIP's runtime API for rocSHMEM programs built on portshmem (portshmem_add_hip_executable puts this directory on the
// include path on the host and nvidia platforms). Host platform: portshmem's CPU subset; nvidia: portshmem's mapping
// of the hip* names onto CUDA (Debian's HIP nvidia headers do not build with CUDA 13); amd: HIP itself.
#pragma once

#include "portshmem/platform.hpp"

#if PORTSHMEM_PLATFORM_AMD
#include_next <hip/hip_runtime_api.h>
#else
#include "portshmem/gpu_runtime.hpp"
#endif
