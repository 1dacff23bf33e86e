// Candidate executions and the consistency axioms C1-C5 (docs/memory_model.md, "Consistency").
//
// Search order: reads-from first (each read picks a write to its location and gains the synchronizes-with edges of
// A11; C1, C5 and the parts of C2 that hb already decides prune as soon as a choice is made), then values, then
// coherence order per location, grown front to back (only orders that extend hb, keep RMWs atomic (C3) and pass C2
// so far), then the acyclicity checks C2 and C4 (psc over the SC points). A runaway test stops with an error after
// kMaxChecks executions.
#include "enumerate.hpp"

#include <functional>
#include <set>

#include "events.hpp"
#include "relation.hpp"

namespace portshmem::model {
namespace {

class Enumerator {
 public:
  Enumerator(const LitmusTest& t, EventGraph g) : t_(t), g_(std::move(g)), n_(static_cast<int>(g_.ev.size())) {}

  ModelResult run() {
    rf_.assign(n_, -1);
    home_.assign(n_, true);
    loc_mask_.assign(g_.writes_to.size(), Bits());
    for (int e = 0; e < n_; ++e)
      if (g_.ev[e].loc >= 0) loc_mask_[g_.ev[e].loc].set(e);
    rel_in_.assign(n_, Bits());
    for (int x = 0; x < n_; ++x)
      for (int w = 0; w < n_; ++w)
        if (g_.rel.has(x, w)) rel_in_[w].set(x);
    for (int e = 0; e < n_; ++e)
      if (g_.ev[e].sc_point) sc_points_.push_back(e);
    for (int a : sc_points_)
      for (int b : sc_points_) {
        const Event &ea = g_.ev[a], &eb = g_.ev[b];
        if (ea.thread != eb.thread && in_scope(t_, ea.scope, ea.pe, eb.pe) && in_scope(t_, eb.scope, eb.pe, ea.pe))
          sc_pairs_.push_back({a, b});
      }
    Relation hb = g_.hb;
    hb.close();
    Relation tc = hb;
    for (int e = 0; e < n_; ++e)
      if (hb.has(e, e))
        return result(); // an ordering cycle among the calls themselves: no execution (cannot happen for valid tests)
    choose_rf(0, hb, tc);
    return result();
  }

 private:
  ModelResult result() {
    ModelResult r;
    r.outcomes.assign(outcomes_.begin(), outcomes_.end());
    r.reg_names = g_.reg_names;
    r.reg_base = g_.reg_base;
    r.rf_candidates = candidates_;
    r.executions = executions_;
    r.notes = g_.notes;
    return r;
  }

  // The value a write event leaves in memory, once reads-from is fixed.
  std::int64_t written(int w) {
    const Event& e = g_.ev[w];
    if (e.kind == EvKind::Rmw) return e.fn.apply(read_value(w));
    if (e.value_from >= 0) return read_value(e.value_from); // get_nbi destination, relay put data
    return e.value;
  }
  std::int64_t read_value(int r) { return written(rf_[r]); } // rf is acyclic (C1), so this terminates

  // A write whose value does not depend on reads-from (to prune waits early).
  bool constant(int w) const {
    return g_.ev[w].kind == EvKind::Write ? g_.ev[w].value_from < 0 : g_.ev[w].kind == EvKind::Init;
  }

  // A home read is a home access (in H) unless it is a scoped synchronizing read that observes a writer outside its
  // scope (A16): then it synchronizes with nothing.
  bool home_access(int w, int r) const {
    const Event& er = g_.ev[r];
    if (!er.home) return false;
    return !(er.sync_read && g_.ev[w].pe >= 0 && !in_scope(t_, er.scope, er.pe, g_.ev[w].pe));
  }

  // A11: a home access r that reads a coherent write w is hb-after everything with a releasing edge into w, and after w
  // itself when w is a release write. False when an edge would close a cycle (the candidate is inconsistent).
  bool synchronize(int w, int r, Relation& hb, Relation& tc) const {
    if (!home_access(w, r) || !g_.ev[w].coherent_write()) return true;
    Bits from = rel_in_[w];
    if (g_.ev[w].release) from.set(w);
    for (int x = 0; x < n_; ++x)
      if (from[x] && (!hb.add_closed(x, r) || !tc.add_closed(x, r))) return false;
    return true;
  }

  // C2 leaves out an rf edge from a cached write (ordinary store, keep put) to a read of another thread: a weak write
  // observed elsewhere gives no coherence order across threads.
  bool coherence_rf(int w, int r) const { return !(g_.ev[w].cached_write() && g_.ev[w].thread != g_.ev[r].thread); }

  void choose_rf(std::size_t k, const Relation& hb, const Relation& tc) {
    if (k == g_.reads.size()) {
      leaf(hb, tc);
      return;
    }
    const int r = g_.reads[k];
    const Event& er = g_.ev[r];
    for (int w : g_.writes_to[er.loc]) {
      if (w == r) continue;
      // C5 early: a blocking wait reads only values that satisfy it.
      if (er.waits && constant(w) && !compare(er.cmp, g_.ev[w].value, er.cmp_value)) continue;
      if (!coherent_choice(r, w, hb, k)) continue;
      Relation tc2 = tc;
      if (!tc2.add_closed(w, r)) // C1: no read from a write that depends on it
        continue;
      rf_[r] = w;
      home_[r] = home_access(w, r);
      Relation hb2 = hb;
      if (!synchronize(w, r, hb2, tc2)) continue;
      choose_rf(k + 1, hb2, tc2);
    }
    rf_[r] = -1;
  }

  // C2 early, for the read r choosing w given the reads chosen so far: w must not be hb-before another write that is
  // hb-before r (CoWR), and r must agree with the reads of the same location it is hb-ordered with (CoRR) — where the
  // cycle runs through an rf edge, only if C2 counts that edge (coherence_rf).
  bool coherent_choice(int r, int w, const Relation& hb, std::size_t k) const {
    const int loc = g_.ev[r].loc;
    for (int w2 : g_.writes_to[loc])
      if (w2 != w && hb.has(w, w2) && hb.has(w2, r)) return false;
    for (std::size_t i = 0; i < k; ++i) {
      const int r0 = g_.reads[i], w0 = rf_[r0];
      if (g_.ev[r0].loc != loc || w0 == w) continue;
      if (hb.has(r0, r) && hb.has(w, w0) && coherence_rf(w0, r0)) return false; // w0 -rf-> r0 -hb-> r -fr-> w0
      if (hb.has(r, r0) && hb.has(w0, w) && coherence_rf(w, r)) return false;   // w -rf-> r -hb-> r0 -fr-> w
    }
    return true;
  }

  void leaf(Relation hb, Relation tc) {
    // C5: every wait returns.
    for (int r : g_.reads)
      if (g_.ev[r].waits && !compare(g_.ev[r].cmp, read_value(r), g_.ev[r].cmp_value)) return;
    // A13: a test that returns 1 orders like a wait of its strength.
    for (int r : g_.reads)
      if (g_.ev[r].is_test && compare(g_.ev[r].cmp, read_value(r), g_.ev[r].cmp_value))
        for (auto [a, b] : g_.on_success[r])
          if (!hb.add_closed(a, b) || !tc.add_closed(a, b)) return;
    ++candidates_;
    home_mask_.reset();
    for (int e = 0; e < n_; ++e)
      if (in_home(e)) home_mask_.set(e);
    readers_.assign(n_, {});
    for (int r : g_.reads) readers_[rf_[r]].push_back(r);
    co_.assign(n_, -1);
    locs_.clear();
    for (int l = 0; l < static_cast<int>(g_.writes_to.size()); ++l)
      if (!g_.writes_to[l].empty()) locs_.push_back(l);
    choose_co(0, hb);
  }

  // Coherence order of one location at a time, built front to back: a write may come next only when every write
  // hb-before it is placed (C2 for writes) and, if it is an RMW, right after the write it reads (C3).
  void choose_co(std::size_t li, const Relation& hb) {
    if (li == locs_.size()) {
      check(hb);
      return;
    }
    const std::vector<int>& ws = g_.writes_to[locs_[li]];
    std::vector<int> order{ws[0]}; // init first
    std::vector<bool> placed(ws.size(), false);
    placed[0] = true;
    std::function<void()> next = [&] {
      if (order.size() == ws.size()) {
        for (std::size_t i = 0; i < order.size(); ++i) co_[order[i]] = static_cast<int>(i);
        chain_[locs_[li]] = order;
        choose_co(li + 1, hb);
        return;
      }
      const int last = order.back();
      int forced = -1; // an unplaced RMW reading `last` must follow it immediately (C3)
      for (std::size_t i = 1; i < ws.size(); ++i)
        if (!placed[i] && g_.ev[ws[i]].kind == EvKind::Rmw && rf_[ws[i]] == last) {
          if (forced >= 0) return; // two RMWs read the same write: not atomic
          forced = static_cast<int>(i);
        }
      for (std::size_t i = 1; i < ws.size(); ++i) {
        if (placed[i] || (forced >= 0 && static_cast<int>(i) != forced)) continue;
        const int w = ws[i];
        if (g_.ev[w].kind == EvKind::Rmw && rf_[w] != last) continue;
        bool ready = true;
        for (std::size_t j = 1; j < ws.size() && ready; ++j)
          if (!placed[j] && j != i && hb.has(ws[j], w)) ready = false;
        if (!ready || !coherent_after(w, order, hb)) continue;
        placed[i] = true;
        order.push_back(w);
        next();
        order.pop_back();
        placed[i] = false;
      }
    };
    next();
  }

  // C2 early, for w placed after every write of `before` in coherence order: no read of an earlier write may be
  // hb-after w (CoWR); no read of w may be hb-before an earlier write (CoRW) or a read of one (CoRR). The last two
  // close their cycle through w -rf-> rw, so they count only when C2 does (coherence_rf).
  bool coherent_after(int w, const std::vector<int>& before, const Relation& hb) const {
    for (int y : before)
      for (int r : readers_[y]) {
        if (hb.has(w, r)) return false;
        for (int rw : readers_[w])
          if (hb.has(rw, r) && coherence_rf(w, rw)) return false;
      }
    for (int rw : readers_[w])
      for (int y : before)
        if (hb.has(rw, y) && coherence_rf(w, rw)) return false;
    return true;
  }

  void check(const Relation& hb) {
    if (++checked_ > kMaxChecks)
      throw LitmusError(t_.file, 0,
                        "too many candidate executions for the model (over " + std::to_string(kMaxChecks) +
                            "): many unordered writes to one location, each read by several reads, multiply; "
                            "split the test or order its writes");
    // com = rf, co (successive writes) and fr (a read to the write after the one it read); C2 uses co, fr and the rf
    // edges that coherence_rf keeps.
    Relation com(n_), c2(n_);
    for (int r : g_.reads) {
      com.add(rf_[r], r);
      if (coherence_rf(rf_[r], r)) c2.add(rf_[r], r);
      const std::vector<int>& ch = chain_[g_.ev[r].loc];
      std::size_t succ = static_cast<std::size_t>(co_[rf_[r]]) + 1;
      if (succ < ch.size() && ch[succ] != r) {
        com.add(r, ch[succ]);
        c2.add(r, ch[succ]);
      }
    }
    for (int l : locs_) {
      const std::vector<int>& ch = chain_[l];
      for (std::size_t i = 0; i + 1 < ch.size(); ++i) {
        com.add(ch[i], ch[i + 1]);
        c2.add(ch[i], ch[i + 1]);
      }
    }
    // C2 coherence: hb between accesses of one location, with rf, co, fr, is acyclic.
    for (int a = 0; a < n_; ++a)
      if (g_.ev[a].loc >= 0) c2.row[a] |= hb.row[a] & loc_mask_[g_.ev[a].loc];
    if (!c2.acyclic()) return;
    if (!sc_points_agree(hb, com)) return;
    ++executions_;
    Outcome o;
    o.regs.assign(g_.reg_names.size(), 0);
    for (int r : g_.reads)
      if (g_.ev[r].reg >= 0)
        o.regs[g_.ev[r].reg] =
            g_.ev[r].is_test ? compare(g_.ev[r].cmp, read_value(r), g_.ev[r].cmp_value) : read_value(r);
    o.mem = t_.init;
    for (int l : locs_) o.mem[l] = written(chain_[l].back());
    outcomes_.insert(std::move(o));
  }

  // C4: psc, over SC points a, b of different threads within each other's scope, is acyclic. psc(a, b) when a -hb-> b,
  // or a -hb-> x -eco-> y -hb-> b for home accesses x, y (eco: the transitive closure of com).
  bool sc_points_agree(const Relation& hb, const Relation& com) const {
    if (sc_pairs_.empty()) return true;
    Relation eco = com;
    eco.close();
    std::vector<Bits> before(n_); // per SC point b: the home accesses hb-before it
    for (int y = 0; y < n_; ++y)
      if (home_mask_[y])
        for (int b : sc_points_)
          if (hb.has(y, b)) before[b].set(y);
    Relation psc(n_);
    for (auto [a, b] : sc_pairs_) {
      bool ordered = hb.has(a, b);
      const Bits after = hb.row[a] & home_mask_;
      for (int x = 0; x < n_ && !ordered; ++x)
        if (after[x] && (eco.row[x] & before[b]).any()) ordered = true;
      if (ordered) psc.add(a, b);
    }
    return psc.acyclic();
  }

  bool in_home(int e) const {
    const Event& ev = g_.ev[e];
    if (ev.writes()) return true;
    return ev.kind == EvKind::Read && ev.home && home_[e];
  }

  const LitmusTest& t_;
  EventGraph g_;
  int n_;
  std::vector<int> rf_;        // per read: the write it reads from
  std::vector<bool> home_;     // per read: performed at the home (false for an out-of-scope observation, A11)
  std::vector<int> co_;        // per write: position in its location's coherence order
  std::vector<Bits> loc_mask_; // per location: its events
  std::vector<Bits> rel_in_;   // per write: the events with a releasing edge into it (A11)
  std::vector<int> sc_points_; // Q of quiet/pe_quiet, Arr of barrier_all
  std::vector<std::pair<int, int>> sc_pairs_; // SC points of different threads within each other's scope (C4)
  Bits home_mask_;                            // H of the current reads-from choice (C4)
  std::vector<std::vector<int>> readers_;     // per write: the reads that read from it
  std::vector<int> locs_;                     // locations with events
  std::vector<std::vector<int>> chain_ = std::vector<std::vector<int>>(g_.writes_to.size());
  std::set<Outcome> outcomes_;
  std::uint64_t candidates_ = 0, executions_ = 0, checked_ = 0;
  static constexpr std::uint64_t kMaxChecks = 2'000'000; // a few seconds: a runaway test fails instead of hanging
};

} // namespace

ModelResult run_model(const LitmusTest& t) {
  ModelResult r = Enumerator(t, build_events(t)).run();
  for (const Outcome& o : r.outcomes)
    if (satisfies(t, r, o)) {
      r.condition_reachable = true;
      break;
    }
  r.as_expected = r.condition_reachable == (t.expect == Expect::Allowed);
  return r;
}

std::vector<std::vector<std::int64_t>> regs_by_thread(const LitmusTest& t, const ModelResult& r, const Outcome& o) {
  std::vector<std::vector<std::int64_t>> regs(t.threads.size());
  for (std::size_t ti = 0; ti < t.threads.size(); ++ti)
    for (std::size_t i = 0; i < t.threads[ti].regs.size(); ++i) regs[ti].push_back(o.regs[r.reg_base[ti] + i]);
  return regs;
}

bool satisfies(const LitmusTest& t, const ModelResult& r, const Outcome& o) {
  return eval_condition(t, regs_by_thread(t, r, o), o.mem);
}

} // namespace portshmem::model
