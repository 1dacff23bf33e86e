// The bandwidth family: shmem_put_bw, shmem_get_bw, shmem_put_bibw (and put_bw/get_bw --bidir), shmem_put_msg_rate,
// shmem_p_bw. A grid of -c blocks x -t threads on PE 0 (both PEs with --bidir) moves SIZE bytes to or from PE 1,
// ITERS times per launch, then completes with quiet. No barrier between iterations: each iteration of a group rewrites
// the same share, as NVSHMEM perftest's put_bw does with --no-iteration-barrier. Check: the receiving side's buffer
// holds the sender's pattern after the last timed launch (it held guard bytes before it).
#include <algorithm>

#include "device.hpp"

namespace pt {

namespace {

/// Each group of the grid moves its share of `total` bytes (whole elements of esize) `iters` times with put_nbi
/// (Get: get_nbi, src on PE pe) between src and dest, then one member completes the group's calls with quiet.
template <class B, group G, bool Get>
PT_GLOBAL void rma_kernel(B b, char* dest, const char* src, std::size_t total, std::size_t esize, int pe, int iters) {
  const std::size_t g = grid_group<G>(), groups = grid_groups<G>(), elems = total / esize;
  const std::size_t begin = elems * g / groups * esize, end = elems * (g + 1) / groups * esize;
  for (int i = 0; i < iters; ++i) {
    if constexpr (Get) b.template get_nbi<G>(dest + begin, src + begin, end - begin, pe);
    if constexpr (!Get) b.template put_nbi<G>(dest + begin, src + begin, end - begin, pe);
  }
  group_sync<G>();
  if (group_rank<G>() == 0) b.quiet();
}

/// Every thread of the grid p's its elements (grid-strided) `iters` times, then completes its own p's with quiet.
template <class B, class T>
PT_GLOBAL void p_kernel(B b, T* dest, const T* src, std::size_t elems, int pe, int iters) {
  const std::size_t first = grid_thread(), step = grid_threads();
  for (int i = 0; i < iters; ++i) {
    for (std::size_t j = first; j < elems; j += step) b.p(dest + j, src[j], pe);
  }
  b.quiet();
}

std::size_t groups_of(group g, const options& o) {
  const unsigned per_block = g == group::thread ? o.threads : g == group::warp ? o.threads / host::wave_size() : 1;
  return std::size_t(o.blocks) * per_block;
}

/// One run of the family: its buffers, who issues and whose buffer is checked, and the rows of one backend and group.
struct bw_run {
  const program_info& p;
  const options& o;
  report& out;
  char *dest, *src;
  int peer;
  bool get = false, msg = false, pbw = false, active = false, checked = false;

  template <group G, class B>
  bool rows(const B& b) const {
    bool ok = true;
    const std::size_t esize = o.type.size;
    for (const std::size_t size : sizes_of(p, o)) {
      const std::size_t groups = groups_of(G, o), total = msg ? size * groups : size, elems = total / esize;
      auto launch = [&](int iters) { // each kernel compiled only for the variants that change its calls (runs<B>)
        if (pbw) {
          if constexpr (runs<B>(program::p_bw)) {
            return with_element(esize, [&](auto t) {
              using T = decltype(t);
              return dev_launch(p_kernel<B, T>, o.blocks, o.threads, b, reinterpret_cast<T*>(dest),
                                reinterpret_cast<const T*>(src), elems, peer, iters);
            });
          }
          return false;
        }
        if (get) {
          if constexpr (runs<B>(program::get_bw))
            return dev_launch(rma_kernel<B, G, true>, o.blocks, o.threads, b, dest, src, total, esize, peer, iters);
          return false;
        }
        if constexpr (runs<B>(program::put_bw)) // put_bibw and put_msg_rate make the same calls
          return dev_launch(rma_kernel<B, G, false>, o.blocks, o.threads, b, dest, src, total, esize, peer, iters);
        return false;
      };
      auto reset = [&] {
        if (checked) fill_bytes(dest, total, kGuard);
      };
      const measured t = measure(o, active, launch, reset);
      // put: this PE's dest got the peer's source; get: this PE's dest got the peer's source too.
      const std::size_t wrong = (t.ok ? 0 : 1) + (checked ? pattern_mismatches(dest, total, peer, p.name, size) : 0);
      row r = row_of(b, o, G, o.blocks, o.threads);
      r.size = size;
      r.ok = sum_over_pes(long(wrong)) == 0;
      const double dirs = o.bidir ? 2.0 : 1.0;
      const double calls = pbw ? double(elems) : double(std::min(groups, elems)); // the groups with a share
      r.value = value_of(out.run().m, t.us, dirs * double(total), dirs * calls);
      out.add(r);
      ok = ok && r.ok;
    }
    return ok;
  }
};

} // namespace

bool run_bw(const program_info& p, const options& o, report& out) {
  const int me = host::my_pe(), peer = 1 - me;
  const bool msg = p.id == program::put_msg_rate;
  std::size_t cap = o.max_bytes;
  for (const group g : o.groups) cap = std::max(cap, msg ? o.max_bytes * groups_of(g, o) : 0);
  char* dest = static_cast<char*>(host::sym_malloc(cap)); // collective: null on every PE or on none
  char* src = static_cast<char*>(host::sym_malloc(cap));
  if (!dest || !src) {
    if (me == 0) std::fprintf(stderr, "%s: no room for 2 x %zu symmetric bytes\n", p.name, cap);
    return false;
  }
  fill_pattern(src, cap, me);
  bw_run run{p, o, out, dest, src, peer};
  run.get = p.id == program::get_bw;
  run.msg = msg;
  run.pbw = p.id == program::p_bw;
  run.active = me == 0 || o.bidir;                         // who issues
  run.checked = run.get ? run.active : me == 1 || o.bidir; // whose dest receives the data
  const bool ok = for_each_backend<family::bw>(o, dest, peer, [&](auto b) {
    return for_each_group(o, [&](auto g) { return run.rows<decltype(g)::value>(b); });
  });
  host::sym_free(src);
  host::sym_free(dest);
  return ok;
}

} // namespace pt
