// Shared pieces of the multi-process tests. Every PE runs every test in the same order, so a test must reach each
// collective call (malloc, free, barrier) on every PE: checks use EXPECT_*, never an early return.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <portshmem/portshmem.hpp>

#include "portshmem/detail/internal_area.hpp"

namespace mp {

/// Threads per block in tests: CPU threads are costly on the host platform.
inline constexpr unsigned kBlockThreads = PORTSHMEM_PLATFORM_HOST ? 16 : 256;

inline portshmem::ctx context() {
  portshmem::ctx c{};
  EXPECT_EQ(portshmem_get_ctx(&c), PORTSHMEM_SUCCESS);
  return c;
}
/// The start of this PE's heap: the runtime's reserved area, kInternalHeapBytes before ctx.heap (the part of the heap
/// allocations come from, which the team area follows).
inline char* heap_start(const portshmem::ctx& c) {
  return c.heap - portshmem::detail::kInternalHeapBytes;
}
inline int me() {
  return portshmem_my_pe();
}
inline int npes() {
  return portshmem_n_pes();
}
inline int next_pe() {
  return (me() + 1) % npes();
}
inline int prev_pe() {
  return (me() + npes() - 1) % npes();
}
/// Whether this PE reaches pe by loads and stores (itself, or a mapped peer), not through the RDMA proxy
/// (PORTSHMEM_TRANSPORT=rdma, PORTSHMEM_NODE_GROUPS): what portshmem_ptr gives a pointer for.
inline bool load_store_to(int pe) {
  const portshmem_transport_t t = portshmem_transport(pe);
  return t == PORTSHMEM_TRANSPORT_SELF || t == PORTSHMEM_TRANSPORT_IPC;
}
/// Whether every PE reaches its next PE by loads and stores: a test that needs it decides with this, so that all PEs
/// take the same branch (a mixed job, PORTSHMEM_NODE_GROUPS, has both kinds of PEs).
inline bool everyone_has_load_store_to_next() {
  int mine = load_store_to(next_pe()) ? 1 : 0, all = 0;
  EXPECT_EQ(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD), MPI_SUCCESS);
  return all != 0;
}

/// Runs kernel(args...) and waits for it; the kernel must have launched and finished without error.
template <class... Params, class... Args>
void run(void (*kernel)(Params...), dim3 grid, dim3 block, Args&&... args) {
  ASSERT_EQ(portshmem::launch(kernel, grid, block, static_cast<Args&&>(args)...), hipSuccess);
  ASSERT_EQ(hipDeviceSynchronize(), hipSuccess);
}

/// Symmetric allocation that must succeed (the same on every PE).
template <class T>
T* sym_alloc(std::size_t count) {
  T* p = static_cast<T*>(portshmem_malloc(count * sizeof(T)));
  EXPECT_NE(p, nullptr) << portshmem_status_string(portshmem_last_status());
  return p;
}

/// Private (non-symmetric) device memory.
template <class T>
T* private_alloc(std::size_t count) {
  T* p = nullptr;
  EXPECT_EQ(hipMalloc(&p, count * sizeof(T)), hipSuccess);
  return p;
}

template <class T>
std::vector<T> to_host(const T* device, std::size_t count) {
  std::vector<T> v(count);
  EXPECT_EQ(hipMemcpy(v.data(), device, count * sizeof(T), hipMemcpyDeviceToHost), hipSuccess);
  return v;
}

template <class T>
void to_device(T* device, const std::vector<T>& v) {
  EXPECT_EQ(hipMemcpy(device, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice), hipSuccess);
}

/// A byte pattern that differs by PE, position and a per-test salt, and is never the guard value.
inline std::uint8_t pattern(int pe, std::size_t i, unsigned salt) {
  const std::uint8_t v = std::uint8_t(pe * 131 + i * 7 + (i >> 8) * 13 + salt * 29);
  return v == 0xAA ? 0x55 : v;
}
inline constexpr std::uint8_t kGuard = 0xAA;

inline void barrier() {
  ASSERT_EQ(portshmem_barrier_all(), PORTSHMEM_SUCCESS);
}

} // namespace mp
