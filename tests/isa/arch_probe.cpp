// ISA probe of the arch layer: one small kernel per primitive x order x scope (extern "C", so each kernel's code can be
// found by name in the assembly / PTX), compiled by tests/isa/check_arch.sh for gfx90a, gfx942 and sm_90 and checked
// there. Kernel shapes are fixed so the script can tell what a fence ordered:
//   release shape: store_data<bypass, S>(d); FENCE; store<relaxed, S>(f)          (a wait must sit between the stores)
//   acquire shape: r = load<relaxed, S>(f); FENCE; out = load_data<bypass, S>(d)  (a wait must sit between the loads)
//   both shape (acq_rel, seq_cst): the two combined.
// The last kernel instantiates every function of the interface for every supported type (a compile check only).
#include "portshmem/arch.hpp"

using namespace portshmem::arch;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

#define PROBE extern "C" PORTSHMEM_GLOBAL void

// ---- fences: fence / fence_comm x order x scope ---------------------------------------------------------------------
template <bool Comm, order O, scope S>
PORTSHMEM_DEVICE void fence_under_test() {
  if constexpr (Comm)
    fence_comm<O, S>();
  else
    fence<O, S>();
}
template <bool Comm, order O, scope S>
PORTSHMEM_DEVICE void fence_probe(u32* f, u32* d, u32 v, u32* out) {
  constexpr bool releases = O != order::acquire;
  constexpr bool acquires = O == order::acquire || O == order::acq_rel || O == order::seq_cst;
  u32 r = 0;
  if constexpr (acquires) r = load<order::relaxed, S>(f);
  if constexpr (releases) store_data<cache::bypass, S>(d, v);
  fence_under_test<Comm, O, S>();
  if constexpr (releases) store<order::relaxed, S>(f + 1, v);
  if constexpr (acquires) out[0] = r + load_data<cache::bypass, S>(d + 1);
}
#define FENCE_PROBE(KIND, COMM, O, S)                                                                                  \
  PROBE KIND##_##O##_##S(u32* f, u32* d, u32 v, u32* out) {                                                            \
    fence_probe<COMM, order::O, scope::S>(f, d, v, out);                                                               \
  }
#define FENCE_PROBES_S(KIND, COMM, S)                                                                                  \
  FENCE_PROBE(KIND, COMM, relaxed, S)                                                                                  \
  FENCE_PROBE(KIND, COMM, acquire, S)                                                                                  \
  FENCE_PROBE(KIND, COMM, release, S)                                                                                  \
  FENCE_PROBE(KIND, COMM, acq_rel, S)                                                                                  \
  FENCE_PROBE(KIND, COMM, seq_cst, S)
#define FENCE_PROBES(KIND, COMM)                                                                                       \
  FENCE_PROBES_S(KIND, COMM, wave)                                                                                     \
  FENCE_PROBES_S(KIND, COMM, block)                                                                                    \
  FENCE_PROBES_S(KIND, COMM, device)                                                                                   \
  FENCE_PROBES_S(KIND, COMM, system)
FENCE_PROBES(fence, false)
FENCE_PROBES(fence_comm, true)

// ---- bare fences: nothing outstanding before the fence, a flag store after it (clang-19 drops its own wait after
// buffer_wbl2 when no other vector-memory access is outstanding, so only the library's explicit wait is left) -------
#define BARE_FENCE_PROBE(O, S)                                                                                         \
  PROBE barefence_##O##_##S(u32* f, u32 v) {                                                                           \
    fence<order::O, scope::S>();                                                                                       \
    store<order::relaxed, scope::S>(f, v);                                                                             \
  }
BARE_FENCE_PROBE(release, device)
BARE_FENCE_PROBE(release, system)
BARE_FENCE_PROBE(acq_rel, device)
BARE_FENCE_PROBE(acq_rel, system)
BARE_FENCE_PROBE(seq_cst, device)
BARE_FENCE_PROBE(seq_cst, system)

// ---- atomics x order x scope (u32; the 64-bit forms differ only in width) -------------------------------------------
#define ATOMIC_PROBES_OS(O, S)                                                                                         \
  PROBE load_##O##_##S(u32* p, u32* out) {                                                                             \
    out[0] = load<order::O, scope::S>(p);                                                                              \
  }                                                                                                                    \
  PROBE store_##O##_##S(u32* p, u32 v) {                                                                               \
    store<order::O, scope::S>(p, v);                                                                                   \
  }                                                                                                                    \
  PROBE exchange_##O##_##S(u32* p, u32 v, u32* out) {                                                                  \
    out[0] = exchange<order::O, scope::S>(p, v);                                                                       \
  }                                                                                                                    \
  PROBE cas_##O##_##S(u32* p, u32 e, u32 v, u32* out) {                                                                \
    out[0] = compare_exchange<order::O, scope::S>(p, e, v);                                                            \
  }                                                                                                                    \
  PROBE fetch_add_##O##_##S(u32* p, u32 v, u32* out) {                                                                 \
    out[0] = fetch_add<order::O, scope::S>(p, v);                                                                      \
  }
#define ATOMIC_PROBES_S(S)                                                                                             \
  ATOMIC_PROBES_OS(relaxed, S)                                                                                         \
  ATOMIC_PROBES_OS(acquire, S)                                                                                         \
  ATOMIC_PROBES_OS(release, S)                                                                                         \
  ATOMIC_PROBES_OS(acq_rel, S)                                                                                         \
  ATOMIC_PROBES_OS(seq_cst, S)
ATOMIC_PROBES_S(block)
ATOMIC_PROBES_S(device)
ATOMIC_PROBES_S(system)
// Sub-word atomic loads and stores (1 and 2 bytes: what p, g and the waits on char / short lower to).
#define SUBWORD_PROBES(T, BITS, S)                                                                                     \
  PROBE store_u##BITS##_relaxed_##S(T* p, T v) {                                                                       \
    store<order::relaxed, scope::S>(p, v);                                                                             \
  }                                                                                                                    \
  PROBE load_u##BITS##_relaxed_##S(const T* p, T* out) {                                                               \
    out[0] = load<order::relaxed, scope::S>(p);                                                                        \
  }
SUBWORD_PROBES(std::uint8_t, 8, device)
SUBWORD_PROBES(std::uint8_t, 8, system)
SUBWORD_PROBES(std::uint16_t, 16, device)
SUBWORD_PROBES(std::uint16_t, 16, system)
PROBE fetch_and_relaxed_device(u64* p, u64 v, u64* out) {
  out[0] = fetch_and<order::relaxed, scope::device>(p, v);
}
PROBE fetch_or_relaxed_device(u64* p, u64 v, u64* out) {
  out[0] = fetch_or<order::relaxed, scope::device>(p, v);
}
PROBE fetch_xor_relaxed_device(u64* p, u64 v, u64* out) {
  out[0] = fetch_xor<order::relaxed, scope::device>(p, v);
}

// ---- data accesses: cache x scope, 4 and 16 bytes -------------------------------------------------------------------
#define DATA_PROBES(C, S)                                                                                              \
  PROBE store_data_##C##_##S(u32* p, u32 v) {                                                                          \
    store_data<cache::C, scope::S>(p, v);                                                                              \
  }                                                                                                                    \
  PROBE store_data16_##C##_##S(vec16* p, u32 v) {                                                                      \
    store_data<cache::C, scope::S>(p, vec16{v, v + 1, v + 2, v + 3});                                                  \
  }                                                                                                                    \
  PROBE load_data_##C##_##S(const u32* p, u32* out) {                                                                  \
    out[0] = load_data<cache::C, scope::S>(p);                                                                         \
  }                                                                                                                    \
  PROBE load_data16_##C##_##S(const vec16* p, vec16* out) {                                                            \
    out[0] = load_data<cache::C, scope::S>(p);                                                                         \
  }
DATA_PROBES(keep, system)
DATA_PROBES(bypass, block)
DATA_PROBES(bypass, device)
DATA_PROBES(bypass, system)

// ---- the put-with-signal pattern the API builds: bypass data, comm release, relaxed signal --------------------------
PROBE put_signal_comm_system(vec16* dst, const vec16* src, u64* sig, unsigned n) {
  for (unsigned i = thread_rank(); i < n; i += block_threads())
    store_data<cache::bypass, scope::system>(dst + i, load_data<cache::keep>(src + i));
  fence_comm<order::release, scope::system>();
  block_sync();
  if (thread_rank() == 0) store<order::relaxed, scope::system>(sig, u64{1});
}

// ---- group sync, identity, misc -------------------------------------------------------------------------------------
PROBE block_sync_probe(u32* p) {
  p[thread_rank()] = 1;
  block_sync();
  p[thread_rank() + 1] += 1;
}
PROBE wave_sync_probe(u32* p) {
  p[thread_rank()] = 1;
  wave_sync();
  p[thread_rank() + 1] += 1;
}
PROBE identity_probe(u32* out) {
  u32* o = out + 8 * (block_rank() * block_threads() + thread_rank());
  o[0] = thread_rank();
  o[1] = block_threads();
  o[2] = block_rank();
  o[3] = grid_blocks();
  o[4] = wave_size();
  o[5] = lane();
  o[6] = wave_threads();
}
PROBE misc_probe(u64* out, u32 bad) {
  const u64 t0 = time_ns();
  spin_pause();
  out[0] = time_ns() - t0;
  if (bad) trap();
}

// ---- every function for every type (compile check) ------------------------------------------------------------------
template <class T, order O, scope S>
PORTSHMEM_DEVICE void all_atomics(T* p, T v) {
  p[1] = load<O, S>(p);
  store<O, S>(p, v);
  p[2] = exchange<O, S>(p, v);
  p[3] = compare_exchange<O, S>(p, v, T(v + 1));
  p[4] = fetch_add<O, S>(p, v);
  p[5] = fetch_and<O, S>(p, v);
  p[6] = fetch_or<O, S>(p, v);
  p[7] = fetch_xor<O, S>(p, v);
}
template <class T, scope S>
PORTSHMEM_DEVICE void all_orders(T* p, T v) {
  all_atomics<T, order::relaxed, S>(p, v);
  all_atomics<T, order::acquire, S>(p, v);
  all_atomics<T, order::release, S>(p, v);
  all_atomics<T, order::acq_rel, S>(p, v);
  all_atomics<T, order::seq_cst, S>(p, v);
}
template <class T>
PORTSHMEM_DEVICE void all_scopes(T* p, T v) {
  all_orders<T, scope::wave>(p, v);
  all_orders<T, scope::block>(p, v);
  all_orders<T, scope::device>(p, v);
  all_orders<T, scope::system>(p, v);
}
template <order O>
PORTSHMEM_DEVICE void all_fences() {
  fence<O, scope::wave>(), fence<O, scope::block>(), fence<O, scope::device>(), fence<O, scope::system>();
  fence_comm<O, scope::wave>(), fence_comm<O, scope::block>(), fence_comm<O, scope::device>();
  fence_comm<O, scope::system>();
}
template <class T, scope S>
PORTSHMEM_DEVICE void all_data(T* p) {
  store_data<cache::keep, S>(p + 1, load_data<cache::keep, S>(p));
  store_data<cache::bypass, S>(p + 2, load_data<cache::bypass, S>(p));
}
template <class T>
PORTSHMEM_DEVICE void all_data_scopes(T* p) {
  all_data<T, scope::wave>(p), all_data<T, scope::block>(p), all_data<T, scope::device>(p);
  all_data<T, scope::system>(p);
  store_data<cache::bypass>(p + 3, load_data<cache::bypass>(p)); // default scope: system
}
PROBE instantiate_all(u32* a, u64* b, std::int32_t* c, std::int64_t* d, std::uint8_t* e, std::uint16_t* f, vec16* g) {
  all_scopes(a, u32{3}), all_scopes(b, u64{3}), all_scopes(c, std::int32_t{-3}), all_scopes(d, std::int64_t{-3});
  all_fences<order::relaxed>(), all_fences<order::acquire>(), all_fences<order::release>();
  all_fences<order::acq_rel>(), all_fences<order::seq_cst>();
  all_data_scopes(e), all_data_scopes(f), all_data_scopes(a), all_data_scopes(b), all_data_scopes(g);
  all_data_scopes(reinterpret_cast<float*>(a)), all_data_scopes(reinterpret_cast<double*>(b));
  block_sync(), wave_sync(), spin_pause();
  a[0] = thread_rank() + block_threads() + block_rank() + grid_blocks() + wave_size() + lane() + wave_threads();
  b[0] = time_ns();
  if (a[1] == 12345) trap();
}

// Host side: launch() must compile for the kernels above.
hipError_t launch_probe(u32* p) {
  return launch(block_sync_probe, dim3(1), dim3(64), 0, nullptr, p);
}
