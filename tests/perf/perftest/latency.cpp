// The latency family: shmem_put_latency, shmem_get_latency, shmem_p_latency, shmem_g_latency. One block on PE 0
// (1 thread for -s thread, one warp for -s warp, -t threads for -s block and for p/g) issues to PE 1; the time of a
// launch divided by ITERS is the row. Check: after the last timed launch the destination holds the source's data
// (put, get, p: it held guard bytes before), and each g thread's sum of what it read is what the peer holds.
#include <cstring>
#include <vector>

#include "device.hpp"

namespace pt {

namespace {

/// Per iteration: the group's put_nbi of n bytes, then one member's quiet (the group waits for it).
template <class B, group G>
PT_GLOBAL void put_kernel(B b, char* dest, const char* src, std::size_t n, int pe, int iters) {
  for (int i = 0; i < iters; ++i) {
    b.template put_nbi<G>(dest, src, n, pe);
    group_sync<G>();
    if (group_rank<G>() == 0) b.quiet();
    group_sync<G>();
  }
}

/// Per iteration: the group's blocking get of n bytes.
template <class B, group G>
PT_GLOBAL void get_kernel(B b, char* dest, const char* src, std::size_t n, int pe, int iters) {
  for (int i = 0; i < iters; ++i) b.template get<G>(dest, src, n, pe);
}

/// Per iteration: every thread p's its elements (block-strided) and completes them with its own quiet (a quiet
/// completes the calling thread's operations), then the block waits for all of them.
template <class B, class T>
PT_GLOBAL void p_kernel(B b, T* dest, const T* src, std::size_t elems, int pe, int iters) {
  for (int i = 0; i < iters; ++i) {
    for (std::size_t j = dev::thread_rank(); j < elems; j += dev::block_threads()) b.p(dest + j, src[j], pe);
    b.quiet();
    dev::block_sync();
  }
}

/// Per iteration: every thread g's its elements (block-strided), then the block waits; each thread's sum of what it
/// read goes to sums[thread] (so the reads cannot be dropped, and the host checks them).
template <class B, class T>
PT_GLOBAL void g_kernel(B b, T* sums, const T* src, std::size_t elems, int pe, int iters) {
  T acc = 0;
  for (int i = 0; i < iters; ++i) {
    for (std::size_t j = dev::thread_rank(); j < elems; j += dev::block_threads()) acc += b.g(src + j, pe);
    dev::block_sync();
  }
  sums[dev::thread_rank()] = acc;
}

/// What g_kernel's thread t must have summed: ITERS times its elements of the peer's pattern.
template <class T>
std::size_t g_mismatches(const T* sums, std::size_t elems, unsigned threads, int iters, int peer, std::size_t size) {
  std::vector<T> got(threads);
  copy_out(got.data(), sums, threads * sizeof(T));
  std::size_t wrong = 0;
  for (unsigned t = 0; t < threads; ++t) {
    T want = 0;
    for (std::size_t j = t; j < elems; j += threads) {
      std::uint8_t bytes[sizeof(T)];
      for (std::size_t k = 0; k < sizeof(T); ++k) bytes[k] = pattern(peer, j * sizeof(T) + k);
      T v;
      std::memcpy(&v, bytes, sizeof v);
      want = T(want + v);
    }
    want = T(want * T(iters));
    if (got[t] != want && wrong++ == 0) {
      std::fprintf(stderr, "FAIL: shmem_g_latency, size %zu: thread %u read a sum of %llu, expected %llu\n", size, t,
                   static_cast<unsigned long long>(got[t]), static_cast<unsigned long long>(want));
    }
  }
  return wrong;
}

/// One run of the family: its buffers, and the rows of one backend and group.
struct latency_run {
  const program_info& p;
  const options& o;
  report& out;
  char *dest, *src;
  void* sums;
  int peer;
  bool active = false, checked = false;

  template <group G, class B>
  bool rows(const B& b) const {
    // -s thread is one thread, except for p and g, whose one block has -t threads.
    const unsigned threads = G == group::thread ? (p.groups == kThread ? o.threads : 1u)
                             : G == group::warp ? host::wave_size()
                                                : o.threads;
    const bool g_lat = p.id == program::g_latency;
    const std::size_t esize = o.type.size;
    bool ok = true;
    for (const std::size_t size : sizes_of(p, o)) {
      const std::size_t elems = size / esize;
      auto launch = [&](int iters) { // each kernel compiled only for the variants that change its calls (runs<B>)
        if (p.id == program::put_latency) {
          if constexpr (runs<B>(program::put_latency))
            return dev_launch(put_kernel<B, G>, 1, threads, b, dest, src, size, peer, iters);
          return false;
        }
        if (p.id == program::get_latency) {
          if constexpr (runs<B>(program::get_latency))
            return dev_launch(get_kernel<B, G>, 1, threads, b, dest, src, size, peer, iters);
          return false;
        }
        return with_element(esize, [&](auto t) {
          using T = decltype(t);
          if (g_lat) {
            if constexpr (runs<B>(program::g_latency)) {
              return dev_launch(g_kernel<B, T>, 1, threads, b, static_cast<T*>(sums), reinterpret_cast<const T*>(src),
                                elems, peer, iters);
            }
            return false;
          }
          if constexpr (runs<B>(program::p_latency)) {
            return dev_launch(p_kernel<B, T>, 1, threads, b, reinterpret_cast<T*>(dest),
                              reinterpret_cast<const T*>(src), elems, peer, iters);
          }
          return false;
        });
      };
      auto reset = [&] {
        if (checked) fill_bytes(g_lat ? sums : dest, g_lat ? threads * esize : size, kGuard);
      };
      const measured t = measure(o, active, launch, reset);
      std::size_t wrong = t.ok ? 0 : 1;
      if (checked && !g_lat) wrong += pattern_mismatches(dest, size, peer, p.name, size);
      if (checked && g_lat) {
        wrong += with_element(esize, [&](auto e) {
          return g_mismatches(static_cast<const decltype(e)*>(sums), elems, threads, o.iters, peer, size) != 0;
        });
      }
      row r = row_of(b, o, G, 1, threads);
      r.size = size;
      r.ok = sum_over_pes(long(wrong)) == 0;
      r.value = value_of(metric::latency, t.us, 0, 0);
      out.add(r);
      ok = ok && r.ok;
    }
    return ok;
  }
};

} // namespace

bool run_latency(const program_info& p, const options& o, report& out) {
  const int me = host::my_pe(), peer = 1 - me;
  char* dest = static_cast<char*>(host::sym_malloc(o.max_bytes));
  char* src = static_cast<char*>(host::sym_malloc(o.max_bytes));
  void* sums = host::sym_malloc(std::size_t(o.threads) * 8); // g: one sum per thread
  if (!dest || !src || !sums) {
    if (me == 0) std::fprintf(stderr, "%s: no room for 2 x %zu symmetric bytes\n", p.name, o.max_bytes);
    return false;
  }
  fill_pattern(src, o.max_bytes, me);
  latency_run run{p, o, out, dest, src, sums, peer};
  run.active = me == 0; // PE 0 issues; what it gets lands on it, what it puts on PE 1
  run.checked = p.id == program::get_latency || p.id == program::g_latency ? me == 0 : me == 1;
  const bool ok = for_each_backend<family::latency>(o, dest, peer, [&](auto b) {
    return for_each_group(o, [&](auto g) { return run.rows<decltype(g)::value>(b); });
  });
  host::sym_free(sums);
  host::sym_free(src);
  host::sym_free(dest);
  return ok;
}

} // namespace pt
