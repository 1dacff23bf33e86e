// Operation events and the static part of happens-before (axioms A1-A10, A12-A16 of docs/memory_model.md). Edges that
// A11 carries to an observer are releasing: fence (A5, A6), put_signal (A9, A10, A6) and every edge out of a quiet or
// barrier into a later write. Waits, tests, value-returning calls and copies order without releasing.
#include "events.hpp"

#include <algorithm>

namespace portshmem::model {

std::int64_t RmwFn::apply(std::int64_t old) const {
  switch (kind) {
  case Kind::Add:
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(old) + static_cast<std::uint64_t>(a));
  case Kind::And:
    return old & a;
  case Kind::Or:
    return old | a;
  case Kind::Xor:
    return old ^ a;
  case Kind::Swap:
    return a;
  case Kind::Cas:
    return old == a ? b : old; // a failed compare-swap is still one atomic access (writes old back)
  }
  return old;
}

unsigned Event::cat() const {
  switch (kind) {
  case EvKind::Init:
    return 0;
  case EvKind::Write:
  case EvKind::Rmw:
    return kW;
  case EvKind::Read:
    return home ? kHR : kPL;
  case EvKind::Sync:
    return kSY;
  }
  return 0;
}

namespace {

class Builder {
 public:
  explicit Builder(const LitmusTest& t) : t_(t) {}
  EventGraph build();

 private:
  int add(Event e) {
    g_.ev.push_back(e);
    if (g_.ev.size() > static_cast<std::size_t>(kMaxEvents))
      throw LitmusError(t_.file, 0,
                        "the test is too large for the model (more than " + std::to_string(kMaxEvents) + " events)");
    return static_cast<int>(g_.ev.size()) - 1;
  }
  void events_of(int ti, int oi);
  void edges_of(int ti, int oi);
  void barriers();
  void edge(int a, int b, bool releasing = false) {
    releasing = releasing && g_.ev[b].writes(); // only an edge into a write is carried by A11
    g_.hb.add(a, b);
    if (releasing) g_.rel.add(a, b);
    g_.edges.push_back({a, b, cur_thread_, cur_op_, releasing, false});
  }
  bool in(Scope s, int p, int target) const { return in_scope(t_, s, p, target); }
  std::string where(int ti, int oi) const {
    const Op& op = t_.threads[ti].ops[oi];
    return "line " + std::to_string(op.line) + ": P" + std::to_string(t_.threads[ti].pe) + "'s " + op_name(op.kind);
  }
  void note(const std::string& s) {
    if (std::find(g_.notes.begin(), g_.notes.end(), s) == g_.notes.end()) g_.notes.push_back(s);
  }
  // Events of thread ti issued by calls before / after call oi.
  template <class F>
  void earlier(int ti, int oi, F f) const {
    for (int e : thread_ev_[ti])
      if (g_.ev[e].op < oi) f(e);
  }
  template <class F>
  void later(int ti, int oi, F f) const {
    for (int e : thread_ev_[ti])
      if (g_.ev[e].op > oi) f(e);
  }
  // Edges from `from` to the later events of the given categories whose target is within scope (A16); releasing when
  // `from` is a quiet or barrier event.
  void to_later(int from, int ti, int oi, unsigned cats, Scope s) {
    int p = t_.threads[ti].pe;
    later(ti, oi, [&](int e) {
      if (!(g_.ev[e].cat() & cats)) return;
      if (in(s, p, g_.ev[e].target))
        edge(from, e, g_.ev[from].kind == EvKind::Sync);
      else
        scope_note(ti, oi, g_.ev[e].target);
    });
  }
  // Which earlier events a completion (quiet, barrier_all) covers (A7): comm ops, except that cached writes (ordinary
  // stores, keep puts) are covered only under coverage all.
  bool quiet_covers(const Event& e, Coverage c) const {
    if (e.cached_write()) return c == Coverage::All;
    if (e.plain) return false;
    return e.kind != EvKind::Sync && !e.sync_read;
  }
  // Which events a fence orders (A5): writes only — of bypass puts, p, AMOs and signals under either coverage; cached
  // writes (ordinary stores and keep puts) under coverage all only. A fence orders delivery, never reads.
  static bool fence_covers(const Event& e, Coverage c) {
    return e.writes() && (e.fenced || (c == Coverage::All && e.cached_write()));
  }
  // sync_all publishes ordinary stores only: it completes no comm op, keep puts included (A15).
  static bool plain_store(const Event& e) { return e.plain && e.kind == EvKind::Write; }
  // A8: a write completed by the quiet at call oi, to the caller's own memory, is visible to the caller's later loads.
  void local_completion(int a, int ti, int oi) {
    const Event& ea = g_.ev[a];
    if (!ea.writes() || ea.target != t_.threads[ti].pe) return;
    later(ti, oi, [&](int b) {
      if (g_.ev[b].plain && g_.ev[b].kind == EvKind::Read && g_.ev[b].loc == ea.loc) edge(a, b);
    });
  }
  void scope_note(int ti, int oi, int target) {
    const Op& op = t_.threads[ti].ops[oi];
    note(where(ti, oi) + " has scope " + name(op.scope) + ", which does not include P" + std::to_string(target) +
         ": it gives no ordering toward that PE (A16)");
  }

  const LitmusTest& t_;
  EventGraph g_;
  int cur_thread_ = -1, cur_op_ = -1;                // the call whose edges are being added (EdgeInfo)
  std::vector<int> init_of_;                         // per location: its init event, -1 when never accessed
  std::vector<std::vector<int>> thread_ev_;          // per thread: its events in program order
  std::vector<std::vector<std::vector<int>>> op_ev_; // per thread, per call: its events
};

void Builder::events_of(int ti, int oi) {
  const Thread& th = t_.threads[ti];
  const Op& op = th.ops[oi];
  const int p = th.pe;
  auto base = [&](EvKind k) {
    Event e;
    e.kind = k;
    e.thread = ti;
    e.pe = p;
    e.op = oi;
    e.target = p;
    return e;
  };
  auto access = [&](EvKind k, Loc l) {
    Event e = base(k);
    e.loc = t_.loc_index(l);
    e.target = l.pe;
    return e;
  };
  auto reg = [&] { return op.reg >= 0 ? g_.reg_base[ti] + op.reg : -1; };
  std::vector<int>& out = op_ev_[ti][oi];
  auto push = [&](Event e) { out.push_back(add(e)); };
  auto rmw = [&](RmwFn::Kind k, std::int64_t a, std::int64_t b = 0) {
    Event e = access(EvKind::Rmw, op.loc);
    e.home = true;
    e.fenced = true;
    e.fn = RmwFn{k, a, b};
    e.reg = reg();
    push(e);
  };
  // keep: the data write of a put issued with mm::keep, a cached write that coverage comm does not order (A5).
  auto comm_write = [&](Loc l, std::int64_t v, bool keep = false) {
    Event e = access(EvKind::Write, l);
    e.fenced = !keep;
    e.keep = keep;
    e.value = v;
    push(e);
  };
  auto home_read = [&] {
    Event e = access(EvKind::Read, op.loc);
    e.home = true;
    e.reg = reg();
    push(e);
  };
  // The data write of a put: of a constant, or (relay) of the value its comm read of the caller's own copy returns.
  auto put_data = [&] {
    const bool keep = op.path == DataPath::Keep;
    if (op.src.sym < 0) return comm_write(op.loc, op.value, keep);
    Event r = access(EvKind::Read, op.src);
    r.home = true;
    r.source = true;
    push(r);
    comm_write(op.loc, 0, keep);
    g_.ev[out.back()].value_from = out[out.size() - 2];
  };
  auto signal = [&](Loc l, std::int64_t v) {
    if (op.update == SignalUpdate::Set) {
      comm_write(l, v);
    } else {
      Event e = access(EvKind::Rmw, l);
      e.home = true;
      e.fenced = true;
      e.fn = RmwFn{RmwFn::Kind::Add, v, 0};
      push(e);
    }
  };

  switch (op.kind) {
  case OpKind::Put:
  case OpKind::PutNbi:
    put_data();
    break;
  case OpKind::P: // one coherent store, never keep
  case OpKind::AmoSet:
    comm_write(op.loc, op.value);
    break;
  case OpKind::Get: // a get's data path concerns only its local destination stores: the read is a home read anyway
  case OpKind::G:
  case OpKind::SignalFetch:
  case OpKind::BypassLoad:
    home_read();
    break;
  case OpKind::AmoFetch: // a read: no fence orders it (A5)
    home_read();
    break;
  case OpKind::GetNbi: {
    home_read();
    Event d = access(EvKind::Write, op.loc2);
    d.get_dest = true;
    d.value_from = out.back();
    push(d);
    break;
  }
  case OpKind::AmoSwap:
    rmw(RmwFn::Kind::Swap, op.value);
    break;
  case OpKind::AmoCompareSwap:
    rmw(RmwFn::Kind::Cas, op.value, op.value2);
    break;
  case OpKind::AmoFetchInc:
  case OpKind::AmoInc:
    rmw(RmwFn::Kind::Add, 1);
    break;
  case OpKind::AmoFetchAdd:
  case OpKind::AmoAdd:
    rmw(RmwFn::Kind::Add, op.value);
    break;
  case OpKind::AmoFetchAnd:
  case OpKind::AmoAnd:
    rmw(RmwFn::Kind::And, op.value);
    break;
  case OpKind::AmoFetchOr:
  case OpKind::AmoOr:
    rmw(RmwFn::Kind::Or, op.value);
    break;
  case OpKind::AmoFetchXor:
  case OpKind::AmoXor:
    rmw(RmwFn::Kind::Xor, op.value);
    break;
  case OpKind::PutSignal:
  case OpKind::PutSignalNbi:
    put_data(); // keep + comm is rejected by the parser
    signal(op.loc2, op.value2);
    break;
  case OpKind::SignalOp:
    signal(op.loc, op.value);
    break;
  case OpKind::SignalWait:
  case OpKind::WaitUntil:
  case OpKind::Test: {
    Event e = access(EvKind::Read, op.loc);
    e.home = true;
    e.sync_read = true;
    e.scope = op.scope;
    e.reg = reg();
    e.cmp = op.cmp;
    e.cmp_value = op.value;
    e.waits = op.kind != OpKind::Test;
    e.is_test = op.kind == OpKind::Test;
    push(e);
    break;
  }
  case OpKind::Fence:
    break;
  case OpKind::Quiet:
  case OpKind::PeQuiet:
  case OpKind::BarrierAll:
  case OpKind::SyncAll: {
    Event e = base(EvKind::Sync); // completion of a quiet, or arrival at a barrier
    e.scope = op.scope;
    e.sc_point = op.kind != OpKind::SyncAll; // sync_all completes no comm op: no SC point (C4)
    push(e);
    if (op.kind == OpKind::BarrierAll || op.kind == OpKind::SyncAll) push(base(EvKind::Sync)); // departure
    break;
  }
  case OpKind::Store: {
    Event e = access(EvKind::Write, op.loc);
    e.plain = true;
    e.value = op.value;
    push(e);
    break;
  }
  case OpKind::Load: {
    Event e = access(EvKind::Read, op.loc);
    e.plain = true;
    e.reg = reg();
    push(e);
    break;
  }
  }
  for (int e : out) thread_ev_[ti].push_back(e);
}

void Builder::edges_of(int ti, int oi) {
  const Thread& th = t_.threads[ti];
  const Op& op = th.ops[oi];
  const int p = th.pe;
  const std::vector<int>& evs = op_ev_[ti][oi];
  const Scope S = op.scope;
  const unsigned exec = kW | kHR | kSY; // what a blocking call's return orders (execution order)
  cur_thread_ = ti;
  cur_op_ = oi;

  switch (op.kind) {
  case OpKind::Get:
  case OpKind::G:
  case OpKind::AmoFetch:
  case OpKind::AmoSwap:
  case OpKind::AmoCompareSwap:
  case OpKind::AmoFetchInc:
  case OpKind::AmoFetchAdd:
  case OpKind::AmoFetchAnd:
  case OpKind::AmoFetchOr:
  case OpKind::AmoFetchXor:
  case OpKind::SignalFetch:
  case OpKind::BypassLoad:
    // A2: a call that returns a value does not hold back the calls after it (on a GPU the next independent access
    // issues before the value arrives); it only precedes later reads of the same location (no read goes back in
    // coherence) and the caller's later quiet/barrier/sync_all, which wait for it.
    later(ti, oi, [&](int b) {
      const Event& eb = g_.ev[b];
      if (eb.kind == EvKind::Sync || (eb.reads() && eb.home && eb.loc == g_.ev[evs[0]].loc)) edge(evs[0], b);
    });
    break;
  case OpKind::GetNbi:
    // A4: the destination receives what the source read returned.
    edge(evs[0], evs[1]);
    break;
  case OpKind::Put:
  case OpKind::PutNbi:
    // Relay: the data write copies what the read of the source returned (not releasing: that read acquires nothing).
    if (evs.size() == 2) edge(evs[0], evs[1]);
    break;
  case OpKind::Fence:
    earlier(ti, oi, [&](int a) {
      const Event& ea = g_.ev[a];
      later(ti, oi, [&](int b) {
        const Event& eb = g_.ev[b];
        // A5: delivery order toward one target PE.
        if (fence_covers(ea, op.coverage) && fence_covers(eb, op.coverage) && ea.target == eb.target) {
          if (in(S, p, ea.target))
            edge(a, b, true);
          else
            scope_note(ti, oi, ea.target);
        }
        // A6: under coverage all, earlier cached writes (ordinary stores, keep puts) are released to every later write.
        if (op.coverage == Coverage::All && ea.cached_write() && eb.writes() && !eb.get_dest && in(S, p, ea.target) &&
            in(S, p, eb.target))
          edge(a, b, true);
      });
    });
    break;
  case OpKind::Quiet:
  case OpKind::PeQuiet: {
    int q = evs[0];
    earlier(ti, oi, [&](int a) {
      const Event& ea = g_.ev[a];
      if (!quiet_covers(ea, op.coverage) || (op.kind == OpKind::PeQuiet && ea.target != op.pe)) return;
      if (!in(S, p, ea.target)) {
        scope_note(ti, oi, ea.target);
        return;
      }
      edge(a, q); // A7 (A6 for cached writes under coverage all)
      local_completion(a, ti, oi);
    });
    to_later(q, ti, oi, exec, S); // A7: nothing after a quiet starts before it returns
    break;
  }
  case OpKind::PutSignal:
  case OpKind::PutSignalNbi:
  case OpKind::SignalOp: {
    int sig = evs.back();
    int tgt = g_.ev[sig].target;
    if (op.kind != OpKind::SignalOp && evs.size() == 3) edge(evs[0], evs[1]); // relay: data copies the source read
    if (!in(S, p, tgt)) {
      scope_note(ti, oi, tgt);
      break;
    }
    // A11: the signal of a put-with-signal is a release write, and so is signal_op's under coverage all.
    g_.ev[sig].release = op.kind != OpKind::SignalOp || op.coverage == Coverage::All;
    if (op.kind != OpKind::SignalOp) edge(evs[evs.size() - 2], sig, true); // A9 (keep data only under all)
    earlier(ti, oi, [&](int a) {
      const Event& ea = g_.ev[a];
      // A10: a strong signal also follows every earlier covered write toward the same PE.
      if (op.signal == SignalStrength::Strong && fence_covers(ea, op.coverage) && ea.target == tgt) edge(a, sig, true);
      // A6: coverage all releases earlier cached writes (ordinary stores, keep puts) before the signal.
      if (op.coverage == Coverage::All && ea.cached_write() && in(S, p, ea.target)) edge(a, sig, true);
    });
    break;
  }
  case OpKind::SignalWait:
  case OpKind::WaitUntil:
  case OpKind::Test: {
    // A12: what the wait's return orders depends on its strength. A13: a test orders the same, but only when it
    // returns 1 (code after a test that failed is not held back by it).
    int w = evs[0];
    unsigned cats = op.strength == Strength::Acquire ? (exec | kPL) : op.strength == Strength::Comm ? exec : kW | kSY;
    if (op.kind != OpKind::Test)
      to_later(w, ti, oi, cats, S);
    else
      later(ti, oi, [&](int b) {
        if (!(g_.ev[b].cat() & cats) || !in(S, p, g_.ev[b].target)) return;
        g_.on_success[w].push_back({w, b});
        g_.edges.push_back({w, b, ti, oi, false, true});
      });
    for (int wr : g_.writes_to[g_.ev[w].loc])
      if (g_.ev[wr].pe >= 0 && !in(S, p, g_.ev[wr].pe))
        note(where(ti, oi) + " has scope " + name(S) + ", which does not include P" + std::to_string(g_.ev[wr].pe) +
             ": that PE's writes do not synchronize with it (A11, A16)");
    break;
  }
  case OpKind::BarrierAll:
  case OpKind::SyncAll: {
    int arrive = evs[0], depart = evs[1];
    earlier(ti, oi, [&](int a) {
      const Event& ea = g_.ev[a];
      if (ea.plain && ea.kind == EvKind::Read) {
        edge(a, arrive); // A14/A15: the caller's earlier loads are done
        return;
      }
      bool covered = op.kind == OpKind::BarrierAll ? quiet_covers(ea, op.coverage) : plain_store(ea);
      if (!covered) return;
      if (!in(S, p, ea.target)) {
        scope_note(ti, oi, ea.target);
        return;
      }
      edge(a, arrive); // A14: quiet part of barrier_all; A15: sync_all publishes ordinary stores (A6), not keep puts
      if (op.kind == OpKind::BarrierAll) local_completion(a, ti, oi);
    });
    edge(arrive, depart);
    unsigned cats = (op.kind == OpKind::SyncAll || op.coverage == Coverage::All) ? (exec | kPL) : exec;
    to_later(depart, ti, oi, cats, S);
    break;
  }
  default:
    break; // A4: put, p, put_nbi (either data path), non-fetching AMOs: no order of their own
  }
}

void Builder::barriers() {
  // A14/A15: the k-th collective of every thread matches; each arrival precedes each departure within scope.
  std::vector<std::vector<std::pair<int, int>>> coll(t_.threads.size()); // (call, arrive event)
  for (std::size_t ti = 0; ti < t_.threads.size(); ++ti)
    for (std::size_t oi = 0; oi < t_.threads[ti].ops.size(); ++oi) {
      OpKind k = t_.threads[ti].ops[oi].kind;
      if (k == OpKind::BarrierAll || k == OpKind::SyncAll)
        coll[ti].push_back({static_cast<int>(oi), op_ev_[ti][oi][0]});
    }
  if (coll.empty()) return;
  for (std::size_t k = 0; k < coll[0].size(); ++k)
    for (std::size_t pi = 0; pi < t_.threads.size(); ++pi) {
      const Op& op = t_.threads[pi].ops[coll[pi][k].first];
      int depart = coll[pi][k].second + 1;
      cur_thread_ = static_cast<int>(pi);
      cur_op_ = coll[pi][k].first;
      for (std::size_t qi = 0; qi < t_.threads.size(); ++qi) {
        if (pi == qi) continue;
        int q = t_.threads[qi].pe;
        if (in(op.scope, t_.threads[pi].pe, q))
          edge(coll[qi][k].second, depart);
        else
          scope_note(static_cast<int>(pi), coll[pi][k].first, q);
      }
    }
}

EventGraph Builder::build() {
  const int nthreads = static_cast<int>(t_.threads.size());
  for (const Thread& th : t_.threads) {
    g_.reg_base.push_back(static_cast<int>(g_.reg_names.size()));
    for (const std::string& r : th.regs)
      g_.reg_names.push_back(std::string("P").append(std::to_string(th.pe)).append(":").append(r));
  }
  // Init events first, for the locations some call touches.
  std::vector<bool> used(static_cast<std::size_t>(t_.loc_count()), false);
  for (const Thread& th : t_.threads)
    for (const Op& op : th.ops) {
      if (op.loc.sym >= 0) used[t_.loc_index(op.loc)] = true;
      if (op.loc2.sym >= 0) used[t_.loc_index(op.loc2)] = true;
      if (op.src.sym >= 0) used[t_.loc_index(op.src)] = true;
    }
  init_of_.assign(used.size(), -1);
  g_.writes_to.resize(used.size());
  for (int l = 0; l < t_.loc_count(); ++l)
    if (used[l]) {
      Event e;
      e.kind = EvKind::Init;
      e.loc = l;
      e.target = t_.loc_at(l).pe;
      e.value = t_.init[l];
      init_of_[l] = add(e);
    }
  thread_ev_.resize(nthreads);
  op_ev_.resize(nthreads);
  for (int ti = 0; ti < nthreads; ++ti) {
    op_ev_[ti].resize(t_.threads[ti].ops.size());
    for (int oi = 0; oi < static_cast<int>(t_.threads[ti].ops.size()); ++oi) events_of(ti, oi);
  }
  const int n = static_cast<int>(g_.ev.size());
  for (int e = 0; e < n; ++e) {
    g_.ev[e].pos = e;
    if (g_.ev[e].writes()) g_.writes_to[g_.ev[e].loc].push_back(e);
    if (g_.ev[e].reads()) g_.reads.push_back(e);
  }
  g_.hb = Relation(n);
  g_.rel = Relation(n);
  g_.on_success.resize(n);
  // A1: the initial state precedes everything.
  for (int l = 0; l < t_.loc_count(); ++l)
    if (init_of_[l] >= 0)
      for (int e = 0; e < n; ++e)
        if (g_.ev[e].kind != EvKind::Init) edge(init_of_[l], e);
  for (int ti = 0; ti < nthreads; ++ti) {
    // A3: one thread's ordinary accesses to one location keep program order, and so does a relay put's read of its
    // source with them: the put sends what the thread stored there before it, and a store after it does not change
    // what was sent (the source may be reused on return).
    const std::vector<int>& te = thread_ev_[ti];
    cur_thread_ = cur_op_ = -1;
    auto local = [&](int e) { return g_.ev[e].plain || g_.ev[e].source; };
    for (std::size_t i = 0; i < te.size(); ++i)
      for (std::size_t j = i + 1; j < te.size(); ++j)
        if (local(te[i]) && local(te[j]) && g_.ev[te[i]].loc == g_.ev[te[j]].loc) edge(te[i], te[j]);
    for (int oi = 0; oi < static_cast<int>(t_.threads[ti].ops.size()); ++oi) edges_of(ti, oi);
  }
  barriers();
  return std::move(g_);
}

} // namespace

EventGraph build_events(const LitmusTest& t) {
  return Builder(t).build();
}

} // namespace portshmem::model
