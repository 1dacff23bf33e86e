// The portshmem backend of the fused GEMM + communication workload's kernels (gemm_kernels.hpp): the thread's place in
// the launch (gemm::dev) and two policies whose members are the only communication calls the kernels make.
//   strict   OpenSHMEM's default semantics: put-with-signal with coverage all and a strong signal, acquire waits one
//            word at a time, quiet with coverage all, everything at system scope.
//   relaxed  the qualified calls docs/memory_model.md allows for this pattern; each member says which rule makes it
//            enough. It assumes every PE is on this PE's node (the host checks it before running it: every peer
//            reachable by load/store, which is what mm::node means).
// What the two forms share: every byte that reaches a peer is the data of a bypass put-with-signal (the default data
// path) whose source is device memory that an earlier kernel or copy wrote (the all-gather's shard: the host's copy
// before the iteration; the reduce-scatter's partial: the chunk's cuBLAS call, ordered before the put launch by an
// event); the kernels make no ordinary store to symmetric memory. What arrived is read by the next kernel on the
// waiting stream (cuBLAS, the reduction) with ordinary loads, after the wait kernel has returned.
#pragma once

#include <cstddef>
#include <cstdint>

#include <portshmem/portshmem.hpp>

#include "../common/portshmem_thread.hpp"

#include "gemm_args.hpp"

namespace gemm {

namespace dev = workloads::portshmem_thread;

namespace ps = portshmem;

/// OpenSHMEM default semantics. The qualifiers are spelled out although most are the defaults, so that the two
/// policies read side by side; the one that is not a default is the strong signal, which the strict forms of the
/// workloads take (an OpenSHMEM program that signals after a fence gets the same ordering).
struct strict_policy {
  ps::ctx c;
  static constexpr const char* name = "strict";

  WL_DEVICE int my_pe() const { return ps::my_pe(c); }
  WL_DEVICE int n_pes() const { return ps::n_pes(c); }

  /// One slice of a chunk by the whole block, then a signal add of 1: coverage all (also publishes the caller's
  /// ordinary stores), strong (after every earlier op toward pe as well), system scope.
  WL_OUTLINED void put_signal(void* d, const void* s, std::size_t n, std::uint64_t* sig, int pe) const {
    ps::putmem_signal_nbi_block(c, d, s, n, sig, 1, ps::signal_add, pe, ps::mm::all, ps::mm::strong, ps::mm::system);
  }

  /// Waits until words[0, n) are all >= t, before the next kernel on this stream reads what they announce with
  /// ordinary loads: one acquire wait (system scope) per word.
  WL_OUTLINED void wait(std::uint64_t* words, std::size_t n, std::uint64_t t) const {
    for (std::size_t i = 0; i < n; ++i)
      ps::signal_wait_until(c, words + i, ps::cmp::ge, t, ps::mm::acquire, ps::mm::system);
  }

  /// Quiet with coverage all at system scope, once per thread at the end of the put kernel.
  WL_DEVICE void quiet() const { ps::quiet(c, ps::mm::all, ps::mm::system); }
};

/// What the model allows for this pattern (docs/memory_model.md; the rule each member rests on is named there, and the
/// table in docs/workloads.md repeats it).
struct relaxed_policy {
  ps::ctx c;
  static constexpr const char* name = "relaxed";

  WL_DEVICE int my_pe() const { return ps::my_pe(c); }
  WL_DEVICE int n_pes() const { return ps::n_pes(c); }

  /// One slice of a chunk by the whole block, then a signal add of 1, with
  ///  - coverage comm: the data is bypass put data, which comm covers ("a bypass put is covered by comm", the
  ///    qualifiers table; A9: the data write is hb-before the signal under either coverage with bypass data;
  ///    MP+put_signal/bypass/comm is forbidden). The kernel makes no ordinary store at all, so there is nothing for
  ///    coverage all to publish (A6). The source was written by an earlier kernel (cuBLAS) or copy, ordered before
  ///    this launch by the stream and an event, and the put reads it as a comm read: what travels is the put's data.
  ///  - a weak signal: each word is a counter to which only this PE's blocks add, one add per slice after that slice's
  ///    own data, and the receiver waits for the full count of the iteration (A9; SIGNAL_ADD+nbi/weak/count is
  ///    forbidden: "waiting for the full count is safe even with weak signals"). A strong signal would add A10's
  ///    edges from every earlier put to that PE (the other chunks' slices), which nothing reads through.
  ///  - scope node: every PE is on this node (checked by the host before the run), so node scope leaves no PE out
  ///    (A16; SCOPE+node+same). mm::device would narrow it further only where every PE is on one GPU.
  WL_OUTLINED void put_signal(void* d, const void* s, std::size_t n, std::uint64_t* sig, int pe) const {
    ps::putmem_signal_nbi_block(c, d, s, n, sig, 1, ps::signal_add, pe, ps::mm::comm, ps::mm::weak, ps::mm::node);
  }

  /// Waits until words[0, n) are all >= t. One word (the fused forms: one chunk): signal_wait_until; several (the
  /// unfused form: every chunk of a peer): one wait_until_all, which returns once every word has held (as n waits
  /// would) and pays the acquire once, after the last word (wait_vector.hpp). Acquire, not comm: what the words
  /// announce is read with ordinary loads (cuBLAS, the reduction), by the next kernel on this stream, ordered after
  /// this one's acquire by the kernel boundary (A12; WAIT/comm+load is allowed, so comm would not do). Scope node as
  /// above.
  WL_OUTLINED void wait(std::uint64_t* words, std::size_t n, std::uint64_t t) const {
    if (n == 1) {
      ps::signal_wait_until(c, words, ps::cmp::ge, t, ps::mm::acquire, ps::mm::node);
    } else {
      ps::wait_until_all(c, words, n, static_cast<const int*>(nullptr), ps::cmp::ge, t, ps::mm::acquire, ps::mm::node);
    }
  }

  /// Quiet with coverage comm at node scope: what it completes is the kernel's bypass puts and signal adds, which comm
  /// covers (A7); the kernel made no ordinary store. After it the puts' sources may be rewritten (the next iteration's
  /// GEMM writes the partial again).
  WL_DEVICE void quiet() const { ps::quiet(c, ps::mm::comm, ps::mm::node); }
};

} // namespace gemm
