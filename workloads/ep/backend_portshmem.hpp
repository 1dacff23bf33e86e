// The portshmem backend of the expert-parallel workload's kernels (ep_kernels.hpp): the thread's place in the launch
// (ep::dev) and two policies whose members are the only communication calls the kernels make.
//   strict   OpenSHMEM's default semantics: puts, fence with coverage all, signal updates with coverage all, acquire
//            waits one word at a time, quiet with coverage all, everything at system scope.
//   relaxed  the qualified calls docs/memory_model.md allows for this pattern; each member says which rule makes it
//            enough. It assumes every PE is on this PE's node (the host checks it before running it: every peer
//            reachable by load/store, which is what mm::node means).
// The kernels' own accesses are the same in both: ordinary loads of what arrived (after an acquire wait, or in the
// next launch), ordinary stores only to this PE's staging buffers, scan scratch and output; every byte that reaches a
// peer goes as the data of a bypass put (the default data path) or a p.
#pragma once

#include <cstddef>
#include <cstdint>

#include <portshmem/portshmem.hpp>

#include "../common/portshmem_thread.hpp"

#include "ep_args.hpp"

namespace ep {

namespace dev = workloads::portshmem_thread;

namespace ps = portshmem;

/// OpenSHMEM default semantics, the qualifiers spelled out so that the two policies read side by side.
struct strict_policy {
  ps::ctx c;
  static constexpr const char* name = "strict";

  WL_DEVICE int my_pe() const { return ps::my_pe(c); }
  WL_DEVICE int n_pes() const { return ps::n_pes(c); }

  /// One token (or route record) to pe, by the calling wave: a bypass put, nbi (the source does not change before
  /// the kernel's quiet). The same call in both forms: a put takes no coverage or scope.
  WL_OUTLINED void put(void* d, const void* s, std::size_t n, int pe) const { ps::putmem_nbi_wave(c, d, s, n, pe); }
  /// One int to pe (the low-latency copy's token and k).
  WL_OUTLINED void put_int(int* d, int v, int pe) const { ps::p(c, d, v, pe); }
  /// Orders the calling thread's (and its wave's) earlier puts to each PE before its later writes to that PE:
  /// coverage all (also the caller's ordinary stores), system scope.
  WL_OUTLINED void fence() const { ps::fence(c, ps::mm::all, ps::mm::system); }
  /// Sets a signal word on pe to v: coverage all (publishes the caller's ordinary stores first), system scope.
  WL_OUTLINED void signal(std::uint64_t* sig, std::uint64_t v, int pe) const {
    ps::signal_op(c, sig, v, ps::signal_set, pe, ps::mm::all, ps::mm::system);
  }
  /// Waits until words[0, n) are all >= v before the block reads what they announce with ordinary loads: one
  /// acquire wait (system scope) per word.
  WL_OUTLINED void wait_data(std::uint64_t* words, std::size_t n, std::uint64_t v) const {
    for (std::size_t i = 0; i < n; ++i)
      ps::signal_wait_until(c, words + i, ps::cmp::ge, v, ps::mm::acquire, ps::mm::system);
  }
  /// This PE's signal word, read coherently (a count the previous launch's wait already acquired).
  WL_DEVICE std::uint64_t fetch(const std::uint64_t* word) const { return ps::signal_fetch(c, word); }
  /// Quiet with coverage all at system scope, once per thread at the end of the kernel.
  WL_DEVICE void quiet() const { ps::quiet(c, ps::mm::all, ps::mm::system); }
};

/// What the model allows for this pattern (docs/memory_model.md; the rule each member rests on is named there, and the
/// table in docs/workloads.md repeats it).
struct relaxed_policy {
  ps::ctx c;
  static constexpr const char* name = "relaxed";

  WL_DEVICE int my_pe() const { return ps::my_pe(c); }
  WL_DEVICE int n_pes() const { return ps::n_pes(c); }

  WL_OUTLINED void put(void* d, const void* s, std::size_t n, int pe) const { ps::putmem_nbi_wave(c, d, s, n, pe); }
  WL_OUTLINED void put_int(int* d, int v, int pe) const { ps::p(c, d, v, pe); }
  /// Coverage comm: what the fence must order before a signal is the wave's bypass puts and the caller's p, all
  /// coherent writes that comm covers (A5: bw -> bw to the same PE, a releasing edge; MP+put/bypass+fence/comm is
  /// forbidden). The kernel's ordinary stores go only to this PE's staging buffers (read by its own later puts,
  /// after the put's opening wave barrier: A3, RELAY+own-store), its scan scratch and its output, none of which a
  /// peer reads, so nothing needs the cache write-back of coverage all. Scope node: every PE is on this node
  /// (checked by the host before the run), so node scope leaves no PE out (A16; SCOPE+node+same).
  WL_OUTLINED void fence() const { ps::fence(c, ps::mm::comm, ps::mm::node); }
  /// Coverage comm, a relaxed write: the fence before it already released the copies it announces (A5's rdo edges
  /// are releasing, so a wait that reads the signal gains them: A11; SIGNAL_OP/comm+3PE shows a comm signal_op
  /// carrying what an earlier releasing call ordered). Coverage all would add the publication of ordinary stores
  /// (A6), and there are none a peer reads (SIGNAL_OP+set/comm is allowed, and harmless here). Scope node as above.
  WL_OUTLINED void signal(std::uint64_t* sig, std::uint64_t v, int pe) const {
    ps::signal_op(c, sig, v, ps::signal_set, pe, ps::mm::comm, ps::mm::node);
  }
  /// One wait_until_all with acquire strength: it returns once every word has held (as n waits would) and pays the
  /// acquire once, after the last word (wait_vector.hpp). Acquire, not comm, because what the words announce is read
  /// with ordinary loads (A12; WAIT/comm+load is allowed). Scope node as above.
  WL_OUTLINED void wait_data(std::uint64_t* words, std::size_t n, std::uint64_t v) const {
    ps::wait_until_all(c, words, n, static_cast<const int*>(nullptr), ps::cmp::ge, v, ps::mm::acquire, ps::mm::node);
  }
  WL_DEVICE std::uint64_t fetch(const std::uint64_t* word) const { return ps::signal_fetch(c, word); }
  /// Coverage comm at node scope: what it completes is the kernel's bypass puts, p's and signal updates, which comm
  /// covers (A7); the sources of the puts (inputs, staging) may then be rewritten by the next launch.
  WL_DEVICE void quiet() const { ps::quiet(c, ps::mm::comm, ps::mm::node); }
};

} // namespace ep
