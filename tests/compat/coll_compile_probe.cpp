// A compile check of the newer collective names on the GPU platforms (compat_rocshmem_coll_nvcc_compile: nvcc for
// sm_90 through the HIP shim): one name of each group, so the per-platform 16-bit types (CUDA's __half and
// __nv_bfloat16 behind HIP's names, detail/float16.hpp's layout checks), the reinterpreting reductions, the wave and
// the untyped forms compile for a GPU. test_rocshmem_coll.cpp, which calls every name, compiles with nvcc too, but
// takes many minutes and gigabytes (every collective inlined into its kind's kernel), too much for every CI run.
#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

using namespace rocshmem;

__global__ void coll_probe(rocshmem_team_t team, __half* h, __hip_bfloat16* b, signed char* c, void* v, int* out) {
  const rocshmem_ctx_t ctx = ROCSHMEM_CTX_DEFAULT;
  out[0] = rocshmem_ctx_half_sum_reduce_wave(ctx, team, h, h + 64, 8);
  out[1] = rocshmem_ctx_bfloat16_max_reduce_scatter_wg(ctx, team, b, b + 64, 8);
  out[2] = rocshmem_ctx_schar_xor_reduce_wave(ctx, team, c, c + 64, 8);
  out[3] = rocshmem_uint16_prod_reduce_wg(team, reinterpret_cast<uint16_t*>(c), reinterpret_cast<uint16_t*>(c) + 8, 4);
  out[4] = rocshmem_ctx_half_alltoall_wave(ctx, team, h, h + 64, 8);
  out[5] = rocshmem_ctx_bfloat16_broadcast_wave(ctx, team, b, b + 64, 8, 0);
  out[6] = rocshmem_ctx_fcollectmem_wave(ctx, team, v, v, 8);
  rocshmem_ctx_broadcastmem_wg(ctx, team, v, v, 8, 0);
  rocshmem_int8_alltoall_wg(team, reinterpret_cast<int8_t*>(c), reinterpret_cast<int8_t*>(c) + 8, 2);
  rocshmem_half_alltoallv_wg(team, h, nullptr, nullptr, h, nullptr, nullptr);
}

int host_half_reduce(rocshmem_ctx_t ctx, rocshmem_team_t team, __half* d, const __half* s) {
  return rocshmem_ctx_half_sum_reduce(ctx, team, d, s, 8);
}
