// The job kernel of the team and collective tests (coll_test.hpp): each job of a list is one collective call (or a
// helper step: snapshot, refill, ring put) in one of the three forms. Included only by the translation units coll.cmake
// generates, one per (form, element type), which instantiate it with COLL_INSTANTIATE.
#pragma once

#include "coll_test.hpp"

namespace coll {

/// The collective in form F: fn, fn_wave or fn_block.
#define COLL_CALL(F, fn, ...)                                                                                          \
  do {                                                                                                                 \
    if constexpr ((F) == ::coll::form::thread) {                                                                       \
      ::portshmem::fn(__VA_ARGS__);                                                                                    \
    } else if constexpr ((F) == ::coll::form::wave) {                                                                  \
      ::portshmem::fn##_wave(__VA_ARGS__);                                                                             \
    } else {                                                                                                           \
      ::portshmem::fn##_block(__VA_ARGS__);                                                                            \
    }                                                                                                                  \
  } while (0)

// Each call of the kernel below is a function of its own (not inlined): a kernel with every collective of every form
// inlined into it takes nvcc's device compiler many minutes per translation unit, one function per call a fraction.
#if PORTSHMEM_PLATFORM_HOST
#define COLL_NOINLINE [[gnu::noinline]] inline
#else
#define COLL_NOINLINE __device__ __noinline__ inline
#endif

template <form F, class T, op O>
COLL_NOINLINE void reduce_one(const portshmem::ctx& c, const portshmem::team& t, T* d, const T* s, std::size_t n) {
  if constexpr (O == op::sum) COLL_CALL(F, sum_reduce, c, t, d, s, n);
  if constexpr (O == op::prod) COLL_CALL(F, prod_reduce, c, t, d, s, n);
  if constexpr (O == op::min) COLL_CALL(F, min_reduce, c, t, d, s, n);
  if constexpr (O == op::max) COLL_CALL(F, max_reduce, c, t, d, s, n);
  if constexpr (O == op::band) COLL_CALL(F, and_reduce, c, t, d, s, n);
  if constexpr (O == op::bor) COLL_CALL(F, or_reduce, c, t, d, s, n);
  if constexpr (O == op::bxor) COLL_CALL(F, xor_reduce, c, t, d, s, n);
}

template <form F, class T, op O>
COLL_NOINLINE void reduce_scatter_one(const portshmem::ctx& c, const portshmem::team& t, T* d, const T* s,
                                      std::size_t n) {
  if constexpr (O == op::sum) COLL_CALL(F, sum_reduce_scatter, c, t, d, s, n);
  if constexpr (O == op::prod) COLL_CALL(F, prod_reduce_scatter, c, t, d, s, n);
  if constexpr (O == op::min) COLL_CALL(F, min_reduce_scatter, c, t, d, s, n);
  if constexpr (O == op::max) COLL_CALL(F, max_reduce_scatter, c, t, d, s, n);
  if constexpr (O == op::band) COLL_CALL(F, and_reduce_scatter, c, t, d, s, n);
  if constexpr (O == op::bor) COLL_CALL(F, or_reduce_scatter, c, t, d, s, n);
  if constexpr (O == op::bxor) COLL_CALL(F, xor_reduce_scatter, c, t, d, s, n);
}

/// The reduction (Scatter: reduce_scatter) of operator o, for the operators T takes.
template <form F, bool Scatter, class T>
PORTSHMEM_DEVICE void reduce_call(const portshmem::ctx& c, const portshmem::team& t, op o, T* d, const T* s,
                                  std::size_t n) {
#define COLL_REDUCE(O)                                                                                                 \
  do {                                                                                                                 \
    if constexpr (Scatter) {                                                                                           \
      reduce_scatter_one<F, T, O>(c, t, d, s, n);                                                                      \
    } else {                                                                                                           \
      reduce_one<F, T, O>(c, t, d, s, n);                                                                              \
    }                                                                                                                  \
  } while (0)
  switch (o) {
  case op::sum:
    COLL_REDUCE(op::sum);
    break;
  case op::prod:
    COLL_REDUCE(op::prod);
    break;
  case op::min:
    COLL_REDUCE(op::min);
    break;
  case op::max:
    COLL_REDUCE(op::max);
    break;
  default:
    if constexpr (std::is_integral_v<T>) {
      if (o == op::band) COLL_REDUCE(op::band);
      if (o == op::bor) COLL_REDUCE(op::bor);
      if (o == op::bxor) COLL_REDUCE(op::bxor);
    }
  }
#undef COLL_REDUCE
}

/// The calling group's rank and size for the helper jobs (the thread form's group is its one thread).
template <form F>
PORTSHMEM_DEVICE unsigned group_rank() {
  return F == form::thread ? 0 : F == form::wave ? portshmem::lane() : portshmem::thread_rank();
}
template <form F>
PORTSHMEM_DEVICE unsigned group_size() {
  if constexpr (F == form::thread) return 1;
  if constexpr (F == form::wave) return portshmem::arch::wave_threads();
  return portshmem::block_threads();
}
template <form F>
PORTSHMEM_DEVICE void group_sync() {
  if constexpr (F == form::wave) portshmem::arch::wave_sync();
  if constexpr (F == form::block) portshmem::arch::block_sync();
}

/// Launches of long run every kind of job; those of the other types only reductions (the tests give them no other
/// jobs), which keeps the kernels, and the nvcc build, smaller.
template <class T>
inline constexpr bool kAllKinds = std::is_same_v<T, long>;

/// Job j of kind K (not a reduction) on team t.
template <form F, class T, kind K>
COLL_NOINLINE void other_job(const portshmem::ctx& c, const portshmem::team& t, const job& j, char* dest_arena,
                             char* src_arena, char* log) {
  char* d = dest_arena + j.dest;
  char* s = j.src == kInPlace ? d : src_arena + j.src;
  T* dt = reinterpret_cast<T*>(d);
  const T* st = reinterpret_cast<const T*>(s);
  if constexpr (K == kind::barrier) COLL_CALL(F, barrier, c, t);
  if constexpr (K == kind::sync) COLL_CALL(F, team_sync, c, t);
  if constexpr (K == kind::broadcast) COLL_CALL(F, broadcast, c, t, dt, st, j.count, j.root);
  if constexpr (K == kind::broadcastmem) COLL_CALL(F, broadcastmem, c, t, d, s, j.count, j.root);
  if constexpr (K == kind::fcollect) COLL_CALL(F, fcollect, c, t, dt, st, j.count);
  if constexpr (K == kind::fcollectmem) COLL_CALL(F, fcollectmem, c, t, d, s, j.count);
  if constexpr (K == kind::collect) COLL_CALL(F, collect, c, t, dt, st, j.count);
  if constexpr (K == kind::collectmem) COLL_CALL(F, collectmem, c, t, d, s, j.count);
  if constexpr (K == kind::alltoall) COLL_CALL(F, alltoall, c, t, dt, st, j.count);
  if constexpr (K == kind::alltoallmem) COLL_CALL(F, alltoallmem, c, t, d, s, j.count);
  if constexpr (K == kind::snapshot) {
    // Read in the reverse of the collectives' split among the group: a call that returned before every byte of its
    // dest had landed shows up here.
    const unsigned size = group_size<F>(), me = size - 1 - group_rank<F>();
    for (std::uint64_t i = me; i < j.count; i += size) log[j.dest + i] = dest_arena[j.src + i];
    group_sync<F>();
  }
  if constexpr (K == kind::refill) {
    auto* words = reinterpret_cast<long*>(src_arena + j.src);
    for (std::uint64_t i = group_rank<F>(); i < j.count; i += group_size<F>())
      words[i] = refill_value(c.my_pe, i, std::uint64_t(j.root));
    group_sync<F>();
  }
  if constexpr (K == kind::ring_put) {
    if (group_rank<F>() == group_size<F>() - 1) {
      const int next = portshmem::team_world_pe(t, (t.my_index + 1) % t.size);
      portshmem::p(c, reinterpret_cast<std::uint64_t*>(d) + t.my_index, std::uint64_t(j.count), next);
      if (j.root == 1) portshmem::quiet(c);
    }
    group_sync<F>();
  }
}

template <form F, class T>
PORTSHMEM_DEVICE void run_job(const portshmem::ctx& c, const portshmem::team& t, const job& j, char* dest_arena,
                              char* src_arena, char* log) {
  if (j.what == kind::reduce || j.what == kind::reduce_scatter) {
    T* d = reinterpret_cast<T*>(dest_arena + j.dest);
    const T* s = j.src == kInPlace ? d : reinterpret_cast<const T*>(src_arena + j.src);
    if (j.what == kind::reduce) {
      reduce_call<F, false>(c, t, j.how, d, s, j.count);
    } else {
      reduce_call<F, true>(c, t, j.how, d, s, j.count);
    }
    return;
  }
  if constexpr (kAllKinds<T>) {
#define COLL_OTHER(K)                                                                                                  \
  case K:                                                                                                              \
    other_job<F, T, K>(c, t, j, dest_arena, src_arena, log);                                                           \
    break
    switch (j.what) {
      COLL_OTHER(kind::barrier);
      COLL_OTHER(kind::sync);
      COLL_OTHER(kind::broadcast);
      COLL_OTHER(kind::broadcastmem);
      COLL_OTHER(kind::fcollect);
      COLL_OTHER(kind::fcollectmem);
      COLL_OTHER(kind::collect);
      COLL_OTHER(kind::collectmem);
      COLL_OTHER(kind::alltoall);
      COLL_OTHER(kind::alltoallmem);
      COLL_OTHER(kind::snapshot);
      COLL_OTHER(kind::refill);
      COLL_OTHER(kind::ring_put);
    default:
      break;
    }
#undef COLL_OTHER
  }
}

/// Runs lists of jobs: the calling groups of the launch (a block; a wave; a wave's first thread) take lists in order,
/// block by block, so lists on different teams run at once. One launch per PE.
template <form F, class T>
PORTSHMEM_GLOBAL void run_lists(portshmem::ctx c, const portshmem::team* teams, const job* jobs,
                                const std::uint32_t* bounds, std::uint32_t lists, char* dest, char* src, char* log) {
  const unsigned ws = portshmem::wave_size(), rank = portshmem::thread_rank();
  if (F == form::thread && rank % ws != 0) return;
  const unsigned per_block = F == form::block ? 1 : (portshmem::block_threads() + ws - 1) / ws;
  const unsigned list = portshmem::block_rank() * per_block + (F == form::block ? 0 : rank / ws);
  if (list >= lists) return;
  for (std::uint32_t i = bounds[list]; i < bounds[list + 1]; ++i)
    run_job<F, T>(c, teams[jobs[i].team], jobs[i], dest, src, log);
}

template <form F, class T>
hipError_t launch_lists(unsigned blocks, const launch_args& a) {
  return portshmem::launch(run_lists<F, T>, dim3(blocks), dim3(mp::kBlockThreads), a.c, a.teams, a.jobs, a.bounds,
                           a.lists, a.dest, a.src, a.log);
}

} // namespace coll

/// Defines coll::launch_lists<form::F, T> in this translation unit.
#define COLL_INSTANTIATE(F, ...)                                                                                       \
  template hipError_t coll::launch_lists<coll::form::F, __VA_ARGS__>(unsigned, const coll::launch_args&);
