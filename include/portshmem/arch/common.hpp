// Vocabulary shared by the arch headers: the few memory primitives every operation of portshmem is built from.
// Each arch header (host, nvidia, amd) implements, in namespace portshmem::arch, exactly this interface:
//
//   identity     thread_rank() block_threads() block_rank() grid_blocks() wave_size() lane() wave_threads()
//   group sync   block_sync()  wave_sync()      (barrier + memory ordering among the group's threads)
//   atomics      load<O,S>(p) store<O,S>(p,v)                                    (T: 1-, 2-, 4- and 8-byte integers)
//                exchange<O,S>(p,v) compare_exchange<O,S>(p,expected,desired) -> old
//                fetch_add/fetch_and/fetch_or/fetch_xor<O,S>(p,v) -> old          (T: 4- and 8-byte integers)
//   fences       fence<O,S>()       orders every earlier access of the thread (ordinary stores included)
//                fence_comm<O,S>()  orders only the library's own accesses: bypass data stores/loads and atomics;
//                                   where the caches allow, no write-back or invalidate (the cheap path)
//                kCheapCommFence    whether fence_comm is cheaper than fence (then fence_comm + relaxed store is
//                                   the cheapest publication; otherwise a release store is)
//                kCheapAcquireLoad  whether polling with acquire loads beats relaxed polls + one acquire fence
//                join_comm_stores() every member of a group calls it before the group's closing barrier, so that
//                                   one member's later fence_comm covers all members' stores
//   data         store_data<C,S>(p,v) / load_data<C,S>(p)  access of 1, 2, 4, 8 or 16 bytes (vec16) of global memory:
//                                   keep = a plain access, cached as the hardware likes (a "cached write" of the
//                                   model); bypass = a coherent (relaxed atomic, per 8 bytes at most) access at scope
//                                   S that leaves nothing in a cache a comm fence would have to write back
//                kSourceCache       the data path a put reads its (global) source with, so that a source written by a
//                                   peer and acquired by a wait<comm> is read fresh (docs/memory_model.md, A12)
//                load_source<U>(p)  one word of a put's source, wherever it lives (private, shared or global memory),
//                                   read as kSourceCache says and kept in place by the compiler (the word path)
//                space_of(p)        which memory a generic pointer names (global, shared, local): the local side of a
//                                   put/get may be any of them, and bypass accesses need global memory
//                kPeerDeviceScope   the hardware scope that reaches the other PEs of this GPU (PEs are processes)
//                kErrorRecordScope  the scope of the device error record's counter (host memory, one PE's kernels)
//   misc         spin_pause()  time_ns()  trap()  launch(kernel, grid, block, shmem, stream, args...)
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "portshmem/platform.hpp"

namespace portshmem::arch {

/// Memory order of an atomic access or fence (C++ names).
enum class order { relaxed, acquire, release, acq_rel, seq_cst };

/// Who must observe an ordering: the wave, the block, every thread of this GPU, or everyone (other GPUs, CPUs).
enum class scope { wave, block, device, system };

/// Cache policy of a data access: keep (normal caching) or bypass (streaming, leaves nothing dirty to write back).
enum class cache { keep, bypass };

/// Where a generic pointer points: global memory (device or host memory, symmetric heaps), the block's shared memory,
/// or the calling thread's private (local, scratch) memory.
enum class space { global, shared, local };

/// The widest unit a data copy moves per access.
struct alignas(16) vec16 {
  std::uint32_t x, y, z, w;
};

namespace detail {
// Unsigned integer of N bytes: data accesses move bit patterns, whatever T is (float, struct, pointer).
template <std::size_t N>
struct uint_of;
template <>
struct uint_of<1> {
  using type = std::uint8_t;
};
template <>
struct uint_of<2> {
  using type = std::uint16_t;
};
template <>
struct uint_of<4> {
  using type = std::uint32_t;
};
template <>
struct uint_of<8> {
  using type = std::uint64_t;
};
template <std::size_t N>
using uint_t = typename uint_of<N>::type;

// By value: a memcpy from a reference into global memory can become byte-wise loads (nvcc does that).
template <class To, class From>
PORTSHMEM_DEVICE To bit_cast(From from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast between types of different size");
  if constexpr (std::is_same_v<To, From>) {
    return from;
  } else {
    To to;
    __builtin_memcpy(&to, &from, sizeof(To));
    return to;
  }
}

// Variable templates, not constexpr functions: nvcc does not let __device__ code call a constexpr __host__ function.
template <class T>
inline constexpr bool is_data_type = (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 ||
                                      sizeof(T) == 16) &&
                                     (alignof(T) >= sizeof(T) || sizeof(T) == 1);
template <class T>
inline constexpr bool is_atomic_type = sizeof(T) == 4 || sizeof(T) == 8;
/// Atomic loads and stores also take 1- and 2-byte types (read-modify-writes do not).
template <class T>
inline constexpr bool is_access_type = sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8;
} // namespace detail

/// The hardware scope at which two PEs of one GPU synchronize. Two PEs are two processes: PTX's .gpu scope covers the
/// threads of one program only (PTX ISA, "Scope"), so on NVIDIA it is .sys; AMD's agent scope covers every work-item
/// on the agent (LLVM AMDGPUUsage, "Memory Scopes"), whichever process it belongs to.
inline constexpr scope kPeerDeviceScope = PORTSHMEM_PLATFORM_NVIDIA ? scope::system : scope::device;

/// The scope of the device error record's counter (ctx.error: host memory that only this PE's kernels write and its
/// host reads after them). NVIDIA: .gpu, because a .sys atomic on host memory needs host-native atomics, which a
/// PCIe-attached GPU lacks (compute-sanitizer's memcheck refuses it); elsewhere system.
inline constexpr scope kErrorRecordScope = PORTSHMEM_PLATFORM_NVIDIA ? scope::device : scope::system;

} // namespace portshmem::arch
