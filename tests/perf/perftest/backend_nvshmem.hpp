// The NVSHMEM backend of the suite's kernels: the same members as pshm<false> (backend_portshmem.hpp), each one
// NVSHMEM device call with its default semantics, so the kernels compile unchanged against NVSHMEM. Built only for
// the nvidia platform when PORTSHMEM_NVSHMEM_HOME names an install (needs relocatable device code); written from
// NVSHMEM's API documentation. Included by device.hpp only.
#pragma once

#include <cstddef>
#include <cstdint>

#include <nvshmem.h>
#include <nvshmemx.h>

#include "programs.hpp"

#define PT_DEVICE __device__ __forceinline__
#define PT_GLOBAL __global__
#define PT_HOST_DEVICE __host__ __device__ __forceinline__

namespace pt {

namespace dev {
PT_DEVICE unsigned thread_rank() {
  return threadIdx.x;
}
PT_DEVICE unsigned block_threads() {
  return blockDim.x;
}
PT_DEVICE unsigned block_rank() {
  return blockIdx.x;
}
PT_DEVICE unsigned grid_blocks() {
  return gridDim.x;
}
PT_DEVICE unsigned wave_size() {
  return warpSize;
}
PT_DEVICE void block_sync() {
  __syncthreads();
}
PT_DEVICE void wave_sync() {
  __syncwarp();
}
} // namespace dev

template <class... Params, class... Args>
bool dev_launch(void (*kernel)(Params...), unsigned blocks, unsigned threads, Args... args) {
  kernel<<<blocks, threads>>>(args...);
  return cudaGetLastError() == cudaSuccess;
}

// The typed calls of the two element types the kernels use (nvshmem_uint32_*, nvshmem_uint64_*).
#define PT_NVSHMEM_TYPED(TYPE, NAME)                                                                                   \
  PT_DEVICE void nv_p(TYPE* d, TYPE v, int pe) {                                                                       \
    nvshmem_##NAME##_p(d, v, pe);                                                                                      \
  }                                                                                                                    \
  PT_DEVICE TYPE nv_g(const TYPE* s, int pe) {                                                                         \
    return nvshmem_##NAME##_g(s, pe);                                                                                  \
  }                                                                                                                    \
  PT_DEVICE TYPE nv_amo(amo_op op, TYPE* d, TYPE v, TYPE cond, int pe) {                                               \
    switch (op) {                                                                                                      \
    case amo_op::inc:                                                                                                  \
      return nvshmem_##NAME##_atomic_inc(d, pe), TYPE(0);                                                              \
    case amo_op::fetch_inc:                                                                                            \
      return nvshmem_##NAME##_atomic_fetch_inc(d, pe);                                                                 \
    case amo_op::add:                                                                                                  \
      return nvshmem_##NAME##_atomic_add(d, v, pe), TYPE(0);                                                           \
    case amo_op::fetch_add:                                                                                            \
      return nvshmem_##NAME##_atomic_fetch_add(d, v, pe);                                                              \
    case amo_op::set:                                                                                                  \
      return nvshmem_##NAME##_atomic_set(d, v, pe), TYPE(0);                                                           \
    case amo_op::fetch:                                                                                                \
      return nvshmem_##NAME##_atomic_fetch(d, pe);                                                                     \
    case amo_op::swap:                                                                                                 \
      return nvshmem_##NAME##_atomic_swap(d, v, pe);                                                                   \
    case amo_op::compare_swap:                                                                                         \
      return nvshmem_##NAME##_atomic_compare_swap(d, cond, v, pe);                                                     \
    case amo_op::and_:                                                                                                 \
      return nvshmem_##NAME##_atomic_and(d, v, pe), TYPE(0);                                                           \
    case amo_op::fetch_and:                                                                                            \
      return nvshmem_##NAME##_atomic_fetch_and(d, v, pe);                                                              \
    case amo_op::or_:                                                                                                  \
      return nvshmem_##NAME##_atomic_or(d, v, pe), TYPE(0);                                                            \
    case amo_op::fetch_or:                                                                                             \
      return nvshmem_##NAME##_atomic_fetch_or(d, v, pe);                                                               \
    case amo_op::xor_:                                                                                                 \
      return nvshmem_##NAME##_atomic_xor(d, v, pe), TYPE(0);                                                           \
    case amo_op::fetch_xor:                                                                                            \
      return nvshmem_##NAME##_atomic_fetch_xor(d, v, pe);                                                              \
    }                                                                                                                  \
    return TYPE(0);                                                                                                    \
  }
PT_NVSHMEM_TYPED(std::uint32_t, uint32)
PT_NVSHMEM_TYPED(std::uint64_t, uint64)
#undef PT_NVSHMEM_TYPED

struct nvshm {
  static constexpr const char* name = "nvshmem";
  static constexpr const char* mm = "strict"; // NVSHMEM's calls have OpenSHMEM's semantics; it has no qualifiers

  template <group G>
  PT_DEVICE void put_nbi(void* d, const void* s, std::size_t n, int pe) const {
    if constexpr (G == group::thread) nvshmem_putmem_nbi(d, s, n, pe);
    if constexpr (G == group::warp) nvshmemx_putmem_nbi_warp(d, s, n, pe);
    if constexpr (G == group::block) nvshmemx_putmem_nbi_block(d, s, n, pe);
  }
  template <group G>
  PT_DEVICE void get_nbi(void* d, const void* s, std::size_t n, int pe) const {
    if constexpr (G == group::thread) nvshmem_getmem_nbi(d, s, n, pe);
    if constexpr (G == group::warp) nvshmemx_getmem_nbi_warp(d, s, n, pe);
    if constexpr (G == group::block) nvshmemx_getmem_nbi_block(d, s, n, pe);
  }
  template <group G>
  PT_DEVICE void get(void* d, const void* s, std::size_t n, int pe) const {
    if constexpr (G == group::thread) nvshmem_getmem(d, s, n, pe);
    if constexpr (G == group::warp) nvshmemx_getmem_warp(d, s, n, pe);
    if constexpr (G == group::block) nvshmemx_getmem_block(d, s, n, pe);
  }
  template <class T>
  PT_DEVICE void p(T* d, T v, int pe) const {
    nv_p(d, v, pe);
  }
  template <class T>
  PT_DEVICE T g(const T* s, int pe) const {
    return nv_g(s, pe);
  }
  template <class T>
  PT_DEVICE T amo(amo_op op, T* d, T v, T cond, int pe) const {
    return nv_amo(op, d, v, cond, pe);
  }
  PT_DEVICE void quiet() const { nvshmem_quiet(); }
  PT_DEVICE void fence() const { nvshmem_fence(); }
  PT_DEVICE void signal_set(std::uint64_t* sig, std::uint64_t v, int pe) const {
    nvshmemx_signal_op(sig, v, NVSHMEM_SIGNAL_SET, pe);
  }
  PT_DEVICE void wait_ge(std::uint64_t* ivar, std::uint64_t v) const {
    nvshmem_uint64_wait_until(ivar, NVSHMEM_CMP_GE, v);
  }
  PT_DEVICE void signal_wait_ge(std::uint64_t* sig, std::uint64_t v) const {
    nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, v);
  }
  template <group G>
  PT_DEVICE void put_signal_nbi(void* d, const void* s, std::size_t n, std::uint64_t* sig, std::uint64_t v,
                                int pe) const {
    if constexpr (G == group::thread) nvshmem_putmem_signal_nbi(d, s, n, sig, v, NVSHMEM_SIGNAL_SET, pe);
    if constexpr (G == group::warp) nvshmemx_putmem_signal_nbi_warp(d, s, n, sig, v, NVSHMEM_SIGNAL_SET, pe);
    if constexpr (G == group::block) nvshmemx_putmem_signal_nbi_block(d, s, n, sig, v, NVSHMEM_SIGNAL_SET, pe);
  }
};

} // namespace pt
