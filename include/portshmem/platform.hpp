// Which platform this build targets and how functions are marked for it. One of the two places (with arch/) where
// vendor macros may be tested; everything else uses the PORTSHMEM_* names defined here.
#pragma once

#include "portshmem/config.h" // PORTSHMEM_PLATFORM_{HOST,NVIDIA,AMD}, fixed when the library was built

#if (PORTSHMEM_PLATFORM_HOST + PORTSHMEM_PLATFORM_NVIDIA + PORTSHMEM_PLATFORM_AMD) != 1
#error "portshmem/config.h must select exactly one platform"
#endif

// PORTSHMEM_GPU_COMPILER: this translation unit is compiled by a GPU compiler (nvcc, or clang/hipcc in HIP mode),
// so __device__ code and kernel launches are available. Plain C++ units of a GPU build see only the host API.
#if PORTSHMEM_PLATFORM_NVIDIA && defined(__CUDACC__)
#define PORTSHMEM_GPU_COMPILER 1
#elif PORTSHMEM_PLATFORM_AMD && defined(__HIP__)
#define PORTSHMEM_GPU_COMPILER 1
#else
#define PORTSHMEM_GPU_COMPILER 0
#endif

// PORTSHMEM_GPU_DEVICE_PASS: the current compilation pass generates GPU device code (never on the host platform).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define PORTSHMEM_GPU_DEVICE_PASS 1
#else
#define PORTSHMEM_GPU_DEVICE_PASS 0
#endif

// PORTSHMEM_DEVICE_PASS: the current compilation pass generates device code (GPU) — or this is the host platform,
// whose "device" is the CPU.
#if PORTSHMEM_PLATFORM_HOST || defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define PORTSHMEM_DEVICE_PASS 1
#else
#define PORTSHMEM_DEVICE_PASS 0
#endif

// The device API exists where kernels can be written: the host platform, or a GPU compiler.
#define PORTSHMEM_HAS_DEVICE_API (PORTSHMEM_PLATFORM_HOST || PORTSHMEM_GPU_COMPILER)

// Whether the runtime can map the node's heaps into one symmetric range (docs/api.md, "One symmetric range"): the host
// platform and NVIDIA can; AMD keeps IPC handles (HIP's virtual memory API cannot request fine-grained memory), so its
// device code is built without the range's branch and lowers exactly as with the table alone.
#define PORTSHMEM_HAS_SYMMETRIC_RANGE (!PORTSHMEM_PLATFORM_AMD)

// PORTSHMEM_DEVICE_COLD: a device function kept out of line, for paths the hot ones must not pay for in code size and
// registers (the RDMA proxy's, taken only for PEs without a load/store path).
// PORTSHMEM_DEVICE_OUTLINED: a device function called from many sites of one kernel, kept out of line so that each
// site costs a call rather than a copy of its body (the collectives' messages and waits: inlined everywhere, they
// made one collective kernel minutes of compilation; a call costs nanoseconds against a message's microseconds).
#if PORTSHMEM_GPU_COMPILER
#define PORTSHMEM_DEVICE __device__ __forceinline__
#define PORTSHMEM_DEVICE_COLD __device__ __noinline__ inline
#define PORTSHMEM_DEVICE_OUTLINED __device__ __noinline__ inline
#define PORTSHMEM_HOST_DEVICE __host__ __device__ __forceinline__
#define PORTSHMEM_GLOBAL __global__
#define PORTSHMEM_DEVICE_VAR __device__
#else
#define PORTSHMEM_DEVICE inline
#define PORTSHMEM_DEVICE_COLD inline
#define PORTSHMEM_DEVICE_OUTLINED inline
#define PORTSHMEM_HOST_DEVICE inline
#define PORTSHMEM_GLOBAL
#define PORTSHMEM_DEVICE_VAR
#endif

#if PORTSHMEM_PLATFORM_NVIDIA
#define PORTSHMEM_PLATFORM_NAME "nvidia"
#elif PORTSHMEM_PLATFORM_AMD
#define PORTSHMEM_PLATFORM_NAME "amd"
#else
#define PORTSHMEM_PLATFORM_NAME "host"
#endif

// PORTSHMEM_DEBUG_CHECKS: device calls also check what costs a table lookup per call — that a device- or node-scoped
// call names a PE its scope reaches. On by default in builds without NDEBUG; define it 0 or 1 to choose.
#ifndef PORTSHMEM_DEBUG_CHECKS
#ifdef NDEBUG
#define PORTSHMEM_DEBUG_CHECKS 0
#else
#define PORTSHMEM_DEBUG_CHECKS 1
#endif
#endif
