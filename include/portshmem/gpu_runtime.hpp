// The GPU runtime API in HIP spelling, on every platform. On AMD it is HIP itself; on NVIDIA the project maps the
// names it uses onto the CUDA runtime (Debian's HIP nvidia_detail headers do not build with CUDA 13); on the host
// platform the "device" is the CPU, so allocation and copies are ordinary memory and every call is synchronous.
#pragma once

#include "portshmem/platform.hpp"

#if PORTSHMEM_PLATFORM_AMD
#include <hip/hip_runtime_api.h>
#if PORTSHMEM_GPU_COMPILER
#include <hip/hip_runtime.h>
#endif
/// The symmetric heap: fine-grained device memory. On gfx90a only fine-grained pages are written through L2 to
/// memory, which is what lets a relaxed system-scope flag publish bypass-stored data without an L2 write-back.
inline hipError_t portshmem_malloc_heap(void** ptr, std::size_t size) {
  return hipExtMallocWithFlags(ptr, size, hipDeviceMallocFinegrained);
}

#elif PORTSHMEM_PLATFORM_NVIDIA
#include <cstddef>

#include <cuda_runtime_api.h>
#if PORTSHMEM_GPU_COMPILER
#include <cuda_runtime.h>
#endif
using hipError_t = cudaError_t;
using hipStream_t = cudaStream_t;
using hipEvent_t = cudaEvent_t;
using hipIpcMemHandle_t = cudaIpcMemHandle_t;
using hipDeviceProp_t = cudaDeviceProp;
using hipModule_t = struct CUmod_st*; // CUmodule (the driver API's), for rocSHMEM's rocshmem_hipmodule_init
#define hipSuccess cudaSuccess
#define hipErrorNotReady cudaErrorNotReady
#define hipGetErrorString cudaGetErrorString
#define hipGetErrorName cudaGetErrorName
#define hipGetLastError cudaGetLastError
#define hipPeekAtLastError cudaPeekAtLastError
// Typed allocation, as HIP offers it in every translation unit (CUDA's typed overloads need the GPU compiler).
template <class T>
inline hipError_t hipMalloc(T** ptr, std::size_t size) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), size);
}
template <class T>
inline hipError_t hipHostMalloc(T** ptr, std::size_t size, unsigned /*flags: CUDA pinned memory is mapped*/ = 0) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), size);
}
#define hipFree cudaFree
/// The symmetric heap: ordinary device memory (NVIDIA's L2 is the point of coherence for every accessor).
inline hipError_t portshmem_malloc_heap(void** ptr, std::size_t size) {
  return cudaMalloc(ptr, size);
}
#define hipHostFree cudaFreeHost
#define hipHostRegister cudaHostRegister
#define hipHostUnregister cudaHostUnregister
#define hipHostGetDevicePointer cudaHostGetDevicePointer
#define hipHostRegisterMapped cudaHostRegisterMapped
#define hipHostRegisterPortable cudaHostRegisterPortable
#define hipMemcpy cudaMemcpy
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemset cudaMemset
#define hipMemsetAsync cudaMemsetAsync
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemcpyDefault cudaMemcpyDefault
#define hipMemGetInfo cudaMemGetInfo
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipSetDevice cudaSetDevice
#define hipGetDevice cudaGetDevice
#define hipGetDeviceCount cudaGetDeviceCount
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipDeviceGetPCIBusId cudaDeviceGetPCIBusId
#define hipDeviceCanAccessPeer cudaDeviceCanAccessPeer
#define hipDeviceEnablePeerAccess cudaDeviceEnablePeerAccess
#define hipIpcGetMemHandle cudaIpcGetMemHandle
#define hipIpcOpenMemHandle cudaIpcOpenMemHandle
#define hipIpcCloseMemHandle cudaIpcCloseMemHandle
#define hipIpcMemLazyEnablePeerAccess cudaIpcMemLazyEnablePeerAccess
#define hipStreamCreate cudaStreamCreate
#define hipStreamCreateWithFlags cudaStreamCreateWithFlags
#define hipStreamNonBlocking cudaStreamNonBlocking
#define hipStreamDestroy cudaStreamDestroy
#define hipStreamSynchronize cudaStreamSynchronize
#define hipEventCreate cudaEventCreate
#define hipEventDestroy cudaEventDestroy
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventElapsedTime cudaEventElapsedTime
#define hipOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor

#else // host platform
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <thread>

enum hipError_t { hipSuccess = 0, hipErrorOutOfMemory = 2, hipErrorInvalidValue = 1, hipErrorLaunchFailure = 719 };
enum hipMemcpyKind { hipMemcpyHostToDevice, hipMemcpyDeviceToHost, hipMemcpyDeviceToDevice, hipMemcpyDefault };
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
using hipStream_t = struct portshmem_host_stream*; // the host platform runs everything synchronously
using hipModule_t = struct portshmem_host_module*; // no code objects are loaded on the host platform: never one
struct portshmem_host_event {
  std::chrono::steady_clock::time_point at;
};
using hipEvent_t = portshmem_host_event*;

inline const char* hipGetErrorString(hipError_t e) {
  switch (e) {
  case hipSuccess:
    return "no error";
  case hipErrorOutOfMemory:
    return "out of memory";
  case hipErrorLaunchFailure: // a device thread trapped (arch::trap): a wait past PORTSHMEM_TIMEOUT
    return "unspecified launch failure";
  default:
    return "invalid value";
  }
}
inline hipError_t hipGetLastError() {
  return hipSuccess;
}
inline hipError_t hipPeekAtLastError() {
  return hipSuccess;
}
template <class T>
inline hipError_t hipMalloc(T** ptr, std::size_t size) {
  // 256-byte alignment, as GPU allocators give, so vectorized copies see the same alignment on every platform.
  *ptr = static_cast<T*>(std::aligned_alloc(256, (size + 255) / 256 * 256));
  return *ptr || size == 0 ? hipSuccess : hipErrorOutOfMemory;
}
inline hipError_t hipFree(void* ptr) {
  std::free(ptr);
  return hipSuccess;
}
template <class T>
inline hipError_t hipHostMalloc(T** ptr, std::size_t size, unsigned = 0) {
  return hipMalloc(ptr, size);
}
inline hipError_t hipHostFree(void* ptr) {
  return hipFree(ptr);
}
inline hipError_t hipMemcpy(void* dst, const void* src, std::size_t n, hipMemcpyKind) {
  std::memmove(dst, src, n);
  return hipSuccess;
}
inline hipError_t hipMemcpyAsync(void* dst, const void* src, std::size_t n, hipMemcpyKind k, hipStream_t = nullptr) {
  return hipMemcpy(dst, src, n, k);
}
inline hipError_t hipMemset(void* dst, int value, std::size_t n) {
  std::memset(dst, value, n);
  return hipSuccess;
}
inline hipError_t hipMemsetAsync(void* dst, int value, std::size_t n, hipStream_t = nullptr) {
  return hipMemset(dst, value, n);
}
inline hipError_t hipDeviceSynchronize() {
  return hipSuccess;
}
inline hipError_t hipSetDevice(int) {
  return hipSuccess;
}
inline hipError_t hipGetDevice(int* d) {
  *d = 0;
  return hipSuccess;
}
inline hipError_t hipGetDeviceCount(int* n) {
  *n = 1;
  return hipSuccess;
}
inline hipError_t hipDeviceGetPCIBusId(char* bus_id, int len, int) {
  if (len < 5) return hipErrorInvalidValue;
  std::strcpy(bus_id, "host");
  return hipSuccess;
}
struct hipDeviceProp_t {
  char name[256];
  int multiProcessorCount; // the CPU's hardware threads: what runs blocks concurrently here
};
inline hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int) {
  std::strcpy(prop->name, "host CPU");
  prop->multiProcessorCount = int(std::thread::hardware_concurrency());
  return hipSuccess;
}
inline hipError_t hipStreamCreate(hipStream_t* s) {
  *s = nullptr;
  return hipSuccess;
}
inline constexpr unsigned hipStreamNonBlocking = 1;
inline hipError_t hipStreamCreateWithFlags(hipStream_t* s, unsigned) {
  *s = nullptr;
  return hipSuccess;
}
inline hipError_t hipStreamDestroy(hipStream_t) {
  return hipSuccess;
}
inline hipError_t hipStreamSynchronize(hipStream_t) {
  return hipSuccess;
}
inline hipError_t hipEventCreate(hipEvent_t* e) {
  *e = new portshmem_host_event{};
  return hipSuccess;
}
inline hipError_t hipEventDestroy(hipEvent_t e) {
  delete e;
  return hipSuccess;
}
inline hipError_t hipEventRecord(hipEvent_t e, hipStream_t = nullptr) {
  e->at = std::chrono::steady_clock::now();
  return hipSuccess;
}
inline hipError_t hipEventSynchronize(hipEvent_t) {
  return hipSuccess;
}
inline hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  *ms = std::chrono::duration<float, std::milli>(stop->at - start->at).count();
  return hipSuccess;
}
#endif
