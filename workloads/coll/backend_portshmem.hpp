// The portshmem backend of the collective workload's kernels (coll_kernels.hpp): the thread's place in the launch
// (wl::dev) and two policies whose members are the only communication calls the kernels make.
//   strict   OpenSHMEM's default semantics: put-with-signal with coverage all and a strong signal, acquire waits one
//            word at a time, quiet with coverage all, everything at system scope.
//   relaxed  the qualified calls docs/memory_model.md allows for this pattern; each member says which rule makes it
//            enough. It assumes every PE is on this PE's node (the host checks it before running it: every peer
//            reachable by load/store, which is what mm::node means).
// The kernels' own accesses are the same in both: the reduction reads scratch and src with ordinary loads and writes
// dest with ordinary stores (only this PE's heap), and every byte that reaches a peer goes as the data of a bypass
// put-with-signal (the default data path).
#pragma once

#include <cstddef>
#include <cstdint>

#include <portshmem/portshmem.hpp>

#include "coll_args.hpp"

#include "../common/portshmem_thread.hpp"

namespace wl {

namespace dev = workloads::portshmem_thread;

namespace ps = portshmem;

/// OpenSHMEM default semantics. The qualifiers are spelled out although most are the defaults, so that the two
/// policies can be read side by side; the one that is not a default is the strong signal, which the workload's
/// strict form takes (an OpenSHMEM program that signals after a fence gets the same ordering).
struct strict_policy {
  ps::ctx c;
  const int* not_me; // unused here (relaxed_policy's wait_until_all status)
  static constexpr const char* name = "strict";

  WL_DEVICE int my_pe() const { return ps::my_pe(c); }
  WL_DEVICE int n_pes() const { return ps::n_pes(c); }

  /// Data then a signal add of 1: coverage all (also publishes the caller's ordinary stores), strong (after every
  /// earlier op toward pe as well), system scope.
  WL_OUTLINED void put_signal(grp g, void* d, const void* s, std::size_t n, std::uint64_t* sig, int pe) const {
    if (g == grp::wave) {
      ps::putmem_signal_nbi_wave(c, d, s, n, sig, 1, ps::signal_add, pe, ps::mm::all, ps::mm::strong, ps::mm::system);
    } else {
      ps::putmem_signal_nbi_block(c, d, s, n, sig, 1, ps::signal_add, pe, ps::mm::all, ps::mm::strong, ps::mm::system);
    }
  }

  /// Waits until every word but words[skip] is >= t, one acquire wait (system scope) per word.
  WL_OUTLINED void wait_data(std::uint64_t* words, int skip, std::uint64_t t) const {
    for (int p = 0; p < n_pes(); ++p) {
      if (p != skip) ps::signal_wait_until(c, words + p, ps::cmp::ge, t, ps::mm::acquire, ps::mm::system);
    }
  }
  /// The same waits where nothing after them reads the data (the all-gather's and alltoall's end of a call).
  WL_OUTLINED void wait_after(std::uint64_t* words, int skip, std::uint64_t t, bool) const {
    wait_data(words, skip, t);
  }

  /// Quiet with coverage all at system scope, once per thread at the end of the kernel.
  WL_DEVICE void quiet() const { ps::quiet(c, ps::mm::all, ps::mm::system); }
};

/// What the model allows for this pattern (docs/memory_model.md; the rule each member rests on is named there).
struct relaxed_policy {
  ps::ctx c;
  const int* not_me; ///< this PE's wait_until_all status: 1 at my_pe, 0 elsewhere (device memory, n_pes ints)
  static constexpr const char* name = "relaxed";

  WL_DEVICE int my_pe() const { return ps::my_pe(c); }
  WL_DEVICE int n_pes() const { return ps::n_pes(c); }

  /// Data then a signal add of 1, with
  ///  - coverage comm: the data is bypass put data, which comm covers ("a bypass put is covered by comm", the
  ///    qualifiers table; A9: the data write is hb-before the signal under either coverage with bypass data;
  ///    MP+put_signal/bypass/comm is forbidden). The caller's ordinary stores need no publishing: the kernels store
  ///    only to this PE's own dest and scratch is never stored to. The all-gather sends the slice this block just
  ///    stored into dest, but as put data: the put reads its source after the block call's opening barrier, a comm
  ///    read that sees what the block stored there (A3, RELAY+own-store), and the value travels as bypass data.
  ///  - a weak signal: each word is a counter that only an add of this sender changes, and the receiver waits for
  ///    the count of every call so far, so each add needs to follow only its own call's data (A9;
  ///    SIGNAL_ADD+nbi/weak/count is forbidden: "waiting for the full count is safe even with weak signals"). A
  ///    strong signal would add A10's edges from every earlier put to that PE, which nothing here reads through.
  ///  - scope node: every PE is on this node (checked by the host before the run), so node scope leaves no PE out
  ///    (A16; SCOPE+node+same). mm::device would narrow it further only where every PE is on one GPU.
  WL_OUTLINED void put_signal(grp g, void* d, const void* s, std::size_t n, std::uint64_t* sig, int pe) const {
    if (g == grp::wave) {
      ps::putmem_signal_nbi_wave(c, d, s, n, sig, 1, ps::signal_add, pe, ps::mm::comm, ps::mm::weak, ps::mm::node);
    } else {
      ps::putmem_signal_nbi_block(c, d, s, n, sig, 1, ps::signal_add, pe, ps::mm::comm, ps::mm::weak, ps::mm::node);
    }
  }

  /// Waits until every word but words[skip] is >= t, before the block reads the data with ordinary loads: one
  /// wait_until_all with acquire strength. It returns once every word has held (as n waits would) and acquires as
  /// wait_until does, paid once after the last word (wait_vector.hpp: relaxed polls and one acquire fence where an
  /// acquire load is not the cheaper poll). Acquire, not comm, because the reduction reads with ordinary loads
  /// (A12; WAIT/comm+load is allowed). The other threads of the block read after a block barrier behind this thread.
  WL_OUTLINED void wait_data(std::uint64_t* words, int skip, std::uint64_t t) const {
    ps::wait_until_all(c, words, std::size_t(n_pes()), skip < 0 ? nullptr : not_me, ps::cmp::ge, t, ps::mm::acquire,
                       ps::mm::node);
  }

  /// Waits where nothing after them in the kernel reads the data: the end of an all-gather or alltoall call. What
  /// follows is the next call's puts, writes that a relaxed wait holds back (A12: relaxed orders the waiting
  /// thread's later writes and Q events; WAIT/relaxed+get shows that it orders no read), which is all the scratch
  /// reuse argument needs (coll_kernels.hpp). The last call of the launch waits with acquire strength, so the data
  /// in dest is ordered before the kernel's end, after which the host reads it.
  WL_OUTLINED void wait_after(std::uint64_t* words, int skip, std::uint64_t t, bool last) const {
    const int* status = skip < 0 ? nullptr : not_me;
    const std::size_t n = std::size_t(n_pes());
    if (last) {
      ps::wait_until_all(c, words, n, status, ps::cmp::ge, t, ps::mm::acquire, ps::mm::node);
    } else {
      ps::wait_until_all(c, words, n, status, ps::cmp::ge, t, ps::mm::relaxed, ps::mm::node);
    }
  }

  /// Quiet with coverage comm at node scope: what it completes is the kernel's bypass puts and signal adds, which
  /// comm covers (A7: "quiet comm" completes bw); the kernel's ordinary stores are to this PE's own dest, read by
  /// the host after the kernel, not by a peer.
  WL_DEVICE void quiet() const { ps::quiet(c, ps::mm::comm, ps::mm::node); }
};

} // namespace wl
