// Host-initiated RMA, AMOs, waits and tests: the host bodies of the rocSHMEM names that exist on both sides
// (rocshmem_putmem, rocshmem_int_p, rocshmem_long_atomic_fetch_add, rocshmem_int_wait_until, ... called from host
// code). Each generated name is one __host__ __device__ function choosing its body with ROCSHMEM_DETAIL_BOTH: the
// device call in device code, these in host code. The library side (src/compat_rocshmem.cpp) runs every operation on
// one stream of its own (non-blocking: it does not wait for the application's kernels on the default stream):
//   put/get    portshmem_putmem_on_stream / _getmem_on_stream; the blocking forms wait for the stream (the source may
//              be reused, a get's data has arrived), the _nbi forms return once enqueued (quiet completes them). The
//              local buffer must be memory the GPU reaches (the symmetric heap, as rocSHMEM requires, or device or
//              pinned memory); p and g stage their one value through a small device buffer of the library.
//   AMOs       one library kernel per element size (4 and 8 bytes: every AMO type) with the operation chosen at run
//              time (src/stream/kernels.cpp), run by one thread as the device AMO (system scope), then the stream is
//              waited for; a fetching AMO returns the old value through the staging buffer. Operations act on the
//              value's bits as the unsigned integer of its size (two's complement makes add exact for signed types).
//   quiet      portshmem_quiet_on_stream on the library's stream, then waits for it; fence is a quiet.
//   waits      poll this PE's variable from the host, one acquire load per poll (a copy from device memory on GPUs,
//              an atomic load on the host platform), compared as T (as the device waits do: floating types as
//              floating values); no timeout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "portshmem/gpu_runtime.hpp" // hipStream_t
#include "portshmem/stream.h"        // portshmem_datatype_t, portshmem_reduce_op_t
#include "portshmem/team.h"
#include "portshmem/types.hpp"

namespace rocshmem::detail::host {

/// The operations of the host AMO kernel (src/stream/kernels.cpp).
enum amo_op : int { amo_fetch, amo_set, amo_swap, amo_cswap, amo_add, amo_and, amo_or, amo_xor };

/// nbytes from this PE's src to dest on pe; waits for local completion unless nbi.
void putmem(void* dest, const void* src, std::size_t nbytes, int pe, bool nbi);
/// nbytes of src on pe into this PE's dest; waits for the data unless nbi (then a quiet does).
void getmem(void* dest, const void* src, std::size_t nbytes, int pe, bool nbi);
/// bytes (at most 8) from value, copied first, to dest on pe.
void put_value(void* dest, const void* value, std::size_t bytes, int pe);
/// bytes (at most 8) of src on pe into value.
void get_value(void* value, const void* src, std::size_t bytes, int pe);
/// The AMO op on the word (bytes: 4 or 8) at dest on pe with value (and cond for cswap); returns the old value's bits
/// for the fetching ops, 0 for set.
std::uint64_t amo(void* dest, int op, std::uint64_t value, std::uint64_t cond, std::size_t bytes, int pe);
/// Completes every operation the host issued (portshmem_quiet_on_stream on the library's stream, then waits).
void quiet();
/// One acquire load of bytes (1, 2, 4 or 8) of this PE's src into dst.
void load(void* dst, const void* src, std::size_t bytes);

// The host collectives (detail/host_coll.hpp). A team is a rocshmem_team_t (the device handle it points to);
// ROCSHMEM_TEAM_INVALID makes each a no-op (the int-returning ones return nonzero).

/// Collective over team: root's src (nelems elements of elem bytes) into dest on every member, the root included
/// (portshmem_broadcastmem_on_stream on the library's stream, then a wait).
void broadcast(portshmem_team_handle_t* team, void* dest, const void* src, int nelems, std::size_t elem, int root);
/// Collective over the active set start + k * 2^log_stride (k < size), OpenSHMEM 1.4's broadcast: the set's root-th
/// member's src into dest on every other member (the root's dest is not written), synchronized through p_sync (at
/// least 3 longs of ROCSHMEM_BCAST_SYNC_SIZE, every one ROCSHMEM_SYNC_VALUE before the call, and again after it).
void broadcast_active_set(void* dest, const void* src, int nelems, std::size_t elem, int root, int start,
                          int log_stride, int size, long* p_sync);
/// Collective over team: the reduction (scatter: reduce-scatter) of nreduce elements of type with op, on the library's
/// stream, then a wait. Returns 0, or 1 when portshmem refused the call (it logged why) or team is invalid.
int reduce(portshmem_team_handle_t* team, void* dest, const void* src, int nreduce, portshmem_datatype_t type,
           portshmem_reduce_op_t op, bool scatter);
/// reduce enqueued on stream (portshmem_reduce_on_stream); returns once enqueued: 0, or 1 as reduce.
int reduce_on_stream(portshmem_team_handle_t* team, void* dest, const void* src, int nreduce, portshmem_datatype_t type,
                     portshmem_reduce_op_t op, hipStream_t stream);

template <class T>
inline std::uint64_t bits(T v) {
  static_assert(sizeof(T) <= 8, "host AMOs take types of at most 8 bytes");
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v); // little-endian: the low bytes hold the value
  return b;
}
template <class T>
inline T from_bits(std::uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

template <class T>
inline void p(T* dest, T value, int pe) {
  put_value(dest, &value, sizeof value, pe);
}
template <class T>
inline T g(const T* src, int pe) {
  T v;
  get_value(&v, src, sizeof v, pe);
  return v;
}
template <class T>
inline T atomic(T* dest, amo_op op, T value, T cond, int pe) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "host AMOs take types of 4 or 8 bytes");
  return from_bits<T>(amo(dest, op, bits(value), bits(cond), sizeof(T), pe));
}

template <class T>
inline T value_of(const T* ivar) {
  T v;
  load(&v, ivar, sizeof v);
  return v;
}
template <class T>
inline bool compare(T a, int op, T b) {
  switch (portshmem::cmp(op)) {
  case portshmem::cmp::eq:
    return a == b;
  case portshmem::cmp::ne:
    return a != b;
  case portshmem::cmp::gt:
    return a > b;
  case portshmem::cmp::ge:
    return a >= b;
  case portshmem::cmp::lt:
    return a < b;
  default:
    return a <= b;
  }
}
inline bool included(const int* status, std::size_t i) {
  return !status || status[i] == 0;
}
/// Compare values: the same for every element, or values[i] (the host _vector forms).
template <class T>
struct one_value {
  T v;
  T operator[](std::size_t) const { return v; }
};

template <class T>
inline int test(T* ivar, int op, T value) {
  return compare(value_of(ivar), op, value) ? 1 : 0;
}
template <class T>
inline void wait_until(T* ivar, int op, T value) {
  while (!compare(value_of(ivar), op, value)) {
  }
}
template <class T, class V>
inline void wait_until_all(T* ivars, std::size_t n, const int* status, int op, const V& values) {
  for (std::size_t i = 0; i < n; ++i) {
    if (included(status, i)) {
      while (!compare(value_of(ivars + i), op, T(values[i]))) {
      }
    }
  }
}
template <class T, class V>
inline std::size_t wait_until_any(T* ivars, std::size_t n, const int* status, int op, const V& values) {
  bool any = false;
  for (std::size_t i = 0; i < n; ++i) any = any || included(status, i);
  if (!any) return SIZE_MAX;
  for (;;) {
    for (std::size_t i = 0; i < n; ++i) {
      if (included(status, i) && compare(value_of(ivars + i), op, T(values[i]))) return i;
    }
  }
}
template <class T, class V>
inline std::size_t wait_until_some(T* ivars, std::size_t n, std::size_t* indices, const int* status, int op,
                                   const V& values) {
  bool any = false;
  for (std::size_t i = 0; i < n; ++i) any = any || included(status, i);
  if (!any) return 0;
  for (;;) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (included(status, i) && compare(value_of(ivars + i), op, T(values[i]))) indices[count++] = i;
    }
    if (count) return count;
  }
}

} // namespace rocshmem::detail::host
