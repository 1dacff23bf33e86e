// The AMO family: shmem_atomic_latency (one thread, one element, per iteration one AMO; a non-fetching one followed
// by quiet) and shmem_atomic_bw (every thread of the grid on its elements of SIZE bytes, grid-strided; quiet at the
// end). The AMO is -a (default inc; all: each in turn), on PE 1's elements from PE 0. Iteration i's operand depends
// on i, so the final value of every element and the sum of what the fetching AMOs returned show whether every call
// happened once and in order: the elements start from a known value before each timed launch, and the host replays
// the sequence to check both.
#include <vector>

#include "device.hpp"

namespace pt {

namespace {

/// The operand of iteration i (compare_swap's condition is i: the element goes 0, 1, 2, ... when every swap lands).
template <class T>
PT_HOST_DEVICE T operand(amo_op op, int i) {
  const T bit = T(T(1) << (i % int(sizeof(T) * 8)));
  switch (op) {
  case amo_op::set:
  case amo_op::swap:
  case amo_op::compare_swap:
    return T(i + 1);
  case amo_op::and_:
  case amo_op::fetch_and:
    return T(~bit);
  case amo_op::or_:
  case amo_op::fetch_or:
  case amo_op::xor_:
  case amo_op::fetch_xor:
    return bit;
  default:
    return T(1); // add (inc and fetch take none)
  }
}

template <class B, class T>
PT_GLOBAL void amo_kernel(B b, amo_op op, T* dest, std::size_t elems, int pe, int iters, int quiet_each, T* fetched) {
  const std::size_t first = grid_thread(), step = grid_threads();
  T acc = 0;
  for (int i = 0; i < iters; ++i) {
    const T v = operand<T>(op, i), cond = T(i);
    for (std::size_t j = first; j < elems; j += step) acc = T(acc + b.amo(op, dest + j, v, cond, pe));
    if (quiet_each) b.quiet();
  }
  b.quiet();
  fetched[first] = acc;
}

bool fetching(amo_op op) {
  return op != amo_op::inc && op != amo_op::add && op != amo_op::set && op != amo_op::and_ && op != amo_op::or_ &&
         op != amo_op::xor_;
}

template <class T>
T initial(amo_op op) {
  return op == amo_op::and_ || op == amo_op::fetch_and ? T(~T(0)) : op == amo_op::fetch ? T(42) : T(0);
}

/// An element after op with operand v (and condition cond), as the host replays it.
template <class T>
T apply(amo_op op, T x, T v, T cond) {
  switch (op) {
  case amo_op::inc:
  case amo_op::fetch_inc:
    return T(x + 1);
  case amo_op::add:
  case amo_op::fetch_add:
    return T(x + v);
  case amo_op::set:
  case amo_op::swap:
    return v;
  case amo_op::compare_swap:
    return x == cond ? v : x;
  case amo_op::and_:
  case amo_op::fetch_and:
    return T(x & v);
  case amo_op::or_:
  case amo_op::fetch_or:
    return T(x | v);
  case amo_op::xor_:
  case amo_op::fetch_xor:
    return T(x ^ v);
  case amo_op::fetch:
    break;
  }
  return x;
}

/// The target's elements must all hold the replayed final value (PE 1), and every thread's sum of fetched values its
/// share of the replayed old values (PE 0). Returns the number of wrong values.
template <class T>
std::size_t amo_mismatches(amo_op op, const T* dest, const T* fetched, std::size_t elems, std::size_t threads,
                           int iters, bool target, std::size_t size, const char* name) {
  T x = initial<T>(op), olds = 0;
  for (int i = 0; i < iters; ++i) {
    olds = T(olds + x);
    x = apply<T>(op, x, operand<T>(op, i), T(i));
  }
  std::size_t wrong = 0;
  auto fail = [&](const char* what, std::size_t at, T got, T want) {
    if (wrong++ == 0) {
      std::fprintf(stderr, "FAIL: %s %s, size %zu: %s %zu is %llu, expected %llu\n", name, kAmoNames[int(op)], size,
                   what, at, static_cast<unsigned long long>(got), static_cast<unsigned long long>(want));
    }
  };
  if (target) {
    std::vector<T> got(elems);
    copy_out(got.data(), dest, elems * sizeof(T));
    for (std::size_t j = 0; j < elems; ++j) {
      if (got[j] != x) fail("element", j, got[j], x);
    }
  } else {
    std::vector<T> got(threads);
    copy_out(got.data(), fetched, threads * sizeof(T));
    for (std::size_t t = 0; t < threads; ++t) {
      const std::size_t mine = t < elems ? (elems - 1 - t) / threads + 1 : 0;
      const T want = fetching(op) ? T(olds * T(mine)) : T(0);
      if (got[t] != want) fail("thread's fetched sum, thread", t, got[t], want);
    }
  }
  return wrong;
}

} // namespace

bool run_atomic(const program_info& p, const options& o, report& out) {
  const int me = host::my_pe(), peer = 1 - me;
  const bool bw = p.id == program::atomic_bw;
  const unsigned blocks = bw ? o.blocks : 1, threads = bw ? o.threads : 1;
  const std::size_t esize = o.type.size, grid = std::size_t(blocks) * threads;
  void* dest = host::sym_malloc(o.max_bytes + esize);
  void* fetched = host::sym_malloc(grid * esize);
  if (!dest || !fetched) {
    if (me == 0) std::fprintf(stderr, "%s: no room for %zu symmetric bytes\n", p.name, o.max_bytes + grid * esize);
    return false;
  }
  const bool active = me == 0, target = me == 1;
  const bool all_ok = for_each_backend<family::atomic>(o, dest, peer, [&](auto b) {
    using B = decltype(b);
    return with_element(esize, [&](auto e) {
      using T = decltype(e);
      bool ok = true;
      for (const amo_op op : o.ops) {
        for (const std::size_t size : sizes_of(p, o)) {
          const std::size_t elems = size / esize;
          auto launch = [&](int iters) {
            const int quiet_each = !bw && !fetching(op);
            return dev_launch(amo_kernel<B, T>, blocks, threads, b, op, static_cast<T*>(dest), elems, peer, iters,
                              quiet_each, static_cast<T*>(fetched));
          };
          auto reset = [&] {
            if (target) {
              const std::vector<T> start(elems, initial<T>(op));
              copy_in(dest, start.data(), elems * sizeof(T));
            }
            if (active) fill_bytes(fetched, grid * esize, kGuard);
          };
          const measured t = measure(o, active, launch, reset);
          std::size_t wrong = t.ok ? 0 : 1;
          wrong += amo_mismatches<T>(op, static_cast<const T*>(dest), static_cast<const T*>(fetched), elems, grid,
                                     o.iters, target, size, p.name);
          row r = row_of(b, o, group::thread, blocks, threads);
          r.op = kAmoNames[int(op)];
          r.size = size;
          r.ok = sum_over_pes(long(wrong)) == 0;
          r.value = value_of(out.run().m, t.us, double(size), double(elems));
          out.add(r);
          ok = ok && r.ok;
        }
      }
      return ok;
    });
  });
  host::sym_free(fetched);
  host::sym_free(dest);
  return all_ok;
}

} // namespace pt
