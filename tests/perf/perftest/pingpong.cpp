// The ping-pong family: shmem_put_ping_pong_latency (put_nbi of SIZE bytes, fence, signal_op set; the peer waits on
// the flag with wait_until) and shmem_put_signal_ping_pong_latency (putmem_signal_nbi; the peer signal_wait_until).
// Both PEs run one group (-s: a thread by default); round i is PE 0 sending i and waiting for PE 1's answer i. The row
// is the full round trip: a launch's time / ITERS (NVSHMEM perftest reports these round trips the same way). Check:
// after the last timed launch each PE's data holds the peer's source and its flag the last round.
#include <cstdint>

#include "device.hpp"

namespace pt {

namespace {

template <class B, group G, bool Signal>
PT_DEVICE void send(const B& b, char* data, const char* src, std::size_t n, std::uint64_t* flag, std::uint64_t round,
                    int pe) {
  if constexpr (Signal) {
    b.template put_signal_nbi<G>(data, src, n, flag, round, pe);
  } else {
    b.template put_nbi<G>(data, src, n, pe);
    group_sync<G>();
    if (group_rank<G>() == 0) {
      b.fence();
      b.signal_set(flag, round, pe);
    }
  }
}

template <class B, group G, bool Signal>
PT_DEVICE void wait(const B& b, std::uint64_t* flag, std::uint64_t round) {
  if (group_rank<G>() == 0) {
    if constexpr (Signal) b.signal_wait_ge(flag, round);
    if constexpr (!Signal) b.wait_ge(flag, round);
  }
  group_sync<G>();
}

template <class B, group G, bool Signal>
PT_GLOBAL void pingpong_kernel(B b, char* data, const char* src, std::size_t n, std::uint64_t* flag, int me, int pe,
                               int iters) {
  for (std::uint64_t i = 1; i <= std::uint64_t(iters); ++i) {
    if (me == 1) wait<B, G, Signal>(b, flag, i);
    send<B, G, Signal>(b, data, src, n, flag, i, pe);
    if (me == 0) wait<B, G, Signal>(b, flag, i);
  }
  group_sync<G>();
  if (group_rank<G>() == 0) b.quiet();
}

/// One run of the family: its buffers, and the rows of one backend and group.
struct pingpong_run {
  const program_info& p;
  const options& o;
  report& out;
  char *data, *src;
  std::uint64_t* flag;
  int me, peer;

  template <group G, class B>
  bool rows(const B& b) const {
    const unsigned threads = G == group::thread ? 1u : G == group::warp ? host::wave_size() : o.threads;
    const bool signal = p.id == program::put_signal_ping_pong_latency;
    bool ok = true;
    for (const std::size_t size : sizes_of(p, o)) {
      auto launch = [&](int iters) { // each kernel compiled only for the variants that change its calls (runs<B>)
        if (signal) {
          if constexpr (runs<B>(program::put_signal_ping_pong_latency))
            return dev_launch(pingpong_kernel<B, G, true>, 1, threads, b, data, src, size, flag, me, peer, iters);
          return false;
        }
        if constexpr (runs<B>(program::put_ping_pong_latency))
          return dev_launch(pingpong_kernel<B, G, false>, 1, threads, b, data, src, size, flag, me, peer, iters);
        return false;
      };
      auto reset = [&] {
        fill_bytes(data, size, kGuard);
        fill_bytes(flag, sizeof *flag, 0);
      };
      const measured t = measure(o, true, launch, reset);
      std::uint64_t last = 0;
      copy_out(&last, flag, sizeof last);
      std::size_t wrong = (t.ok ? 0 : 1) + pattern_mismatches(data, size, peer, p.name, size);
      if (last != std::uint64_t(o.iters)) {
        std::fprintf(stderr, "FAIL: %s, size %zu: PE %d's flag is %llu after %d rounds\n", p.name, size, me,
                     static_cast<unsigned long long>(last), o.iters);
        ++wrong;
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

bool run_pingpong(const program_info& p, const options& o, report& out) {
  const int me = host::my_pe(), peer = 1 - me;
  char* data = static_cast<char*>(host::sym_malloc(o.max_bytes));
  char* src = static_cast<char*>(host::sym_malloc(o.max_bytes));
  auto* flag = static_cast<std::uint64_t*>(host::sym_malloc(sizeof(std::uint64_t)));
  if (!data || !src || !flag) {
    if (me == 0) std::fprintf(stderr, "%s: no room for 2 x %zu symmetric bytes\n", p.name, o.max_bytes);
    return false;
  }
  fill_pattern(src, o.max_bytes, me);
  const pingpong_run run{p, o, out, data, src, flag, me, peer};
  const bool ok = for_each_backend<family::pingpong>(o, data, peer, [&](auto b) {
    return for_each_group(o, [&](auto g) { return run.rows<decltype(g)::value>(b); });
  });
  host::sym_free(flag);
  host::sym_free(src);
  host::sym_free(data);
  return ok;
}

} // namespace pt
