// The axiom table: for each ordering call, the static hb edges its axioms add between classes of events, read off the
// real event builder for a program that surrounds the call with events of every class toward several PEs and
// locations. Each edge is attributed to the call whose axiom added it (EdgeInfo), so the other calls of the program
// add nothing to the call's row.
#include "axioms.hpp"

#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

#include "events.hpp"
#include "litmus.hpp"

namespace portshmem::model {
namespace {

enum Cls : int { kBw, kCw, kCr, kSr, kLd, kSy, kDst, kClasses };
constexpr const char* kClsName[kClasses] = {"bw", "cw", "cr", "sr", "ld", "sy", "dst"};

int cls(const Event& e) {
  if (e.kind == EvKind::Sync) return kSy;
  if (e.kind == EvKind::Read) return e.plain ? kLd : e.sync_read ? kSr : kCr;
  return e.cached_write() ? kCw : e.get_dest ? kDst : kBw;
}

// The calls placed before and after the call under study, by P0 (x@0, y@0 are its own heap): every class toward the
// call's PE (1), another PE (2) and the caller, on the call's location x and on others.
// clang-format off
constexpr const char* kSurroundings[] = {
    // bypass writes
    "put x@1 = 1", "put y@1 = 1", "put y@2 = 1", "put x@0 = 1", "p x@1 = 1", "p y@2 = 1", "set x@1 = 1",
    "r = fetch_inc x@1", "inc y@2", "signal_op s@1 set 1 comm", "signal_op s@2 add 1 comm",
    // cached writes
    "store x@1 = 1", "store y@2 = 1", "store x@0 = 1", "put y@1 = 1 keep", "put x@2 = 1 keep",
    // comm reads (the relay also writes d@1, get_nbi its destination d@0)
    "r = g x@1", "r = get y@1", "r = g y@2", "r = fetch x@1", "r = fetch y@2", "r = bypass_load x",
    "r = signal_fetch s", "put d@1 = y", "get_nbi d = y@2",
    // synchronizing reads, ordinary loads, a sync event
    "wait x == 0 relaxed", "r = test y == 0",
    "r = load x@1", "r = load y@2", "r = load x@0", "r = load y@0", "r = load d",
    "quiet",
};
// clang-format on

struct Row {
  const char* call; // as the table names it
  const char* text; // the litmus line
};
constexpr Row kRows[] = {
    {"fence all", "fence all"},
    {"fence comm", "fence comm"},
    {"quiet all", "quiet all"},
    {"quiet comm", "quiet comm"},
    {"pe_quiet j", "pe_quiet 1"},
    {"put_signal weak all", "put_signal x@1 = 1, s@1 set 1 weak all"},
    {"put_signal weak comm", "put_signal x@1 = 1, s@1 set 1 weak comm"},
    {"put_signal strong all", "put_signal x@1 = 1, s@1 set 1 strong all"},
    {"put_signal strong comm", "put_signal x@1 = 1, s@1 set 1 strong comm"},
    {"signal_op all", "signal_op s@1 set 1 all"},
    {"signal_op comm", "signal_op s@1 set 1 comm"},
    {"wait_until acquire", "wait s == 0 acquire"},
    {"wait_until comm", "wait s == 0 comm"},
    {"wait_until relaxed", "wait s == 0 relaxed"},
    {"test acquire", "r = test s == 0 acquire"},
    {"barrier_all all", "barrier_all all"},
    {"barrier_all comm", "barrier_all comm"},
    {"sync_all", "sync_all"},
    {"get", "r = get x@1"},
    {"g", "r = g x@1"},
    {"fetch", "r = fetch x@1"},
    {"bypass_load", "r = bypass_load x"},
    {"get_nbi", "get_nbi d = x@1"},
    {"put (relay)", "put x@1 = d"},
};

/// One call surrounded by kSurroundings, its events built, and the edges its axioms added.
class Study {
 public:
  explicit Study(const Row& row) : row_(row) {
    std::string around;
    for (const char* s : kSurroundings) around += std::string("  ") + s + "\n";
    std::string text = "name AXIOMS\nlocations x y s d\nP0:\n" + around + "  " + row.text + "\n" + around;
    const std::string_view call = row.text;
    if (call.starts_with("barrier_all") || call.starts_with("sync_all"))
      text += std::string("P1:\n  ") + row.text + "\n"; // the barrier's partner
    t_ = parse_litmus(text + "exists true\nexpect allowed\n", "axioms");
    g_ = build_events(t_);
    k_ = static_cast<int>(std::size(kSurroundings));
    const Op& op = t_.threads[0].ops[k_];
    loc_ = op.loc.sym >= 0 ? t_.loc_index(op.loc) : -1;
    target_ = op.kind == OpKind::PeQuiet                      ? op.pe
              : op.loc2.sym >= 0 && op.kind != OpKind::GetNbi ? op.loc2.pe
              : op.loc.sym >= 0                               ? op.loc.pe
                                                              : -1;
    for (int e = 0; e < static_cast<int>(g_.ev.size()); ++e) {
      const Event& ev = g_.ev[e];
      if (ev.thread != 0) continue;
      (ev.op < k_ ? before_ : ev.op == k_ ? own_ : after_).push_back(e);
    }
    for (const EdgeInfo& r : g_.edges)
      if (r.thread == 0 && r.op == k_) {
        edges_[{r.a, r.b}] |= r.releasing;
        on_success_ |= r.on_success;
      }
  }

  std::string line() const {
    std::string events, into, out, across, within, notes;
    for (int e : own_) events += (events.empty() ? "" : ", ") + name(e);
    for (int e : own_) {
      std::string in = one_sided(before_, [&](int a) { return std::pair{a, e}; });
      if (!in.empty()) into += (into.empty() ? "" : "<br>") + in + " → " + name(e);
      std::string o = one_sided(after_, [&](int b) { return std::pair{e, b}; });
      if (!o.empty()) out += (out.empty() ? "" : "<br>") + name(e) + " → " + o;
    }
    across = two_sided();
    for (const auto& [ab, rel] : edges_) {
      const auto [a, b] = ab;
      if (!is_own(b)) continue;
      std::string item;
      if (is_own(a))
        item = name(a) + " → " + name(b) + (rel ? " (rel)" : "");
      else if (g_.ev[a].thread != 0)
        item = "Arr of each other PE → " + name(b);
      if (!item.empty() && within.find(item) == std::string::npos) within += (within.empty() ? "" : "; ") + item;
    }
    for (int e : own_) {
      if (g_.ev[e].release) notes += (notes.empty() ? "" : "; ") + name(e) + " is a release write";
      if (g_.ev[e].sc_point) notes += (notes.empty() ? "" : "; ") + name(e) + " is an SC point";
    }
    if (on_success_) notes += (notes.empty() ? "" : "; ") + std::string("only when it returns 1");
    auto cell = [](const std::string& s) { return s.empty() ? std::string("—") : s; };
    return "| " + std::string(row_.call) + " | " + cell(events) + " | " + cell(into) + " | " + cell(out) + " | " +
           cell(across) + " | " + cell(within) + " | " + cell(notes) + " |";
  }

 private:
  bool is_own(int e) const { return g_.ev[e].thread == 0 && g_.ev[e].op == k_; }

  std::string name(int e) const {
    const Event& ev = g_.ev[e];
    const OpKind kind = t_.threads[0].ops[k_].kind;
    if (ev.kind == EvKind::Sync)
      return kind == OpKind::Quiet || kind == OpKind::PeQuiet ? "Q" : e == own_.front() ? "Arr" : "Dep";
    if (ev.kind == EvKind::Read) return ev.sync_read ? "S" : "R";
    if (ev.get_dest) return "dst";
    const bool signal = kind == OpKind::PutSignal || kind == OpKind::PutSignalNbi || kind == OpKind::SignalOp;
    return signal && e == own_.back() ? "sig" : "W";
  }

  // The restriction that names exactly the events (or pairs) with an edge among all of a class: "" for all of them.
  template <class T, class Pred>
  static std::string restriction(const std::vector<T>& all, const std::set<T>& hit,
                                 const std::vector<std::pair<const char*, Pred>>& preds) {
    if (hit.size() == all.size()) return "";
    for (const auto& [label, pred] : preds) {
      std::set<T> match;
      for (const T& x : all)
        if (pred(x)) match.insert(x);
      if (match == hit) return label;
    }
    return "some";
  }

  static std::string tag(const std::string& restriction, bool rel) {
    std::string t = restriction;
    if (rel) t += t.empty() ? "rel" : ", rel";
    return t.empty() ? "" : " (" + t + ")";
  }

  // Classes of `side` with an edge to or from the call's event (edge(e) gives the pair), grouped by tag.
  template <class Edge>
  std::string one_sided(const std::vector<int>& side, Edge edge) const {
    using Pred = std::function<bool(int)>;
    const std::vector<std::pair<const char*, Pred>> preds = {
        {"same location", [&](int e) { return g_.ev[e].loc == loc_ && g_.ev[e].reads(); }},
        {"same PE", [&](int e) { return g_.ev[e].target == target_; }},
        {"ordinary stores", [&](int e) { return g_.ev[e].plain; }},
    };
    std::vector<std::pair<std::string, std::string>> groups; // tag, classes
    for (int c = 0; c < kClasses; ++c) {
      std::vector<int> all;
      std::set<int> hit;
      bool rel = true;
      for (int e : side) {
        if (cls(g_.ev[e]) != c) continue;
        all.push_back(e);
        auto it = edges_.find(edge(e));
        if (it == edges_.end()) continue;
        hit.insert(e);
        rel = rel && it->second;
      }
      if (hit.empty()) continue;
      add(groups, tag(restriction(all, hit, preds), rel), kClsName[c]);
    }
    return join(groups);
  }

  // Direct edges from earlier to later events, grouped by tag; sources with the same targets are merged.
  std::string two_sided() const {
    using P = std::pair<int, int>;
    using Pred = std::function<bool(P)>;
    auto ev = [&](int e) -> const Event& { return g_.ev[e]; };
    const std::vector<std::pair<const char*, Pred>> preds = {
        {"own heap, same location",
         [&](P p) { return ev(p.first).loc == ev(p.second).loc && ev(p.first).target == t_.threads[0].pe; }},
        {"same location", [&](P p) { return ev(p.first).loc == ev(p.second).loc; }},
        {"same PE", [&](P p) { return ev(p.first).target == ev(p.second).target; }},
    };
    std::map<std::string, std::map<int, std::string>> by_tag; // tag -> source class -> target classes
    std::vector<std::string> tags;
    for (int ca = 0; ca < kClasses; ++ca)
      for (int cb = 0; cb < kClasses; ++cb) {
        std::vector<P> all;
        std::set<P> hit;
        bool rel = true;
        for (int a : before_)
          for (int b : after_) {
            if (cls(ev(a)) != ca || cls(ev(b)) != cb) continue;
            all.push_back({a, b});
            auto it = edges_.find({a, b});
            if (it == edges_.end()) continue;
            hit.insert({a, b});
            rel = rel && it->second;
          }
        if (hit.empty()) continue;
        std::string t = tag(restriction(all, hit, preds), rel);
        if (!by_tag.count(t)) tags.push_back(t);
        std::string& to = by_tag[t][ca];
        to += (to.empty() ? "" : ", ") + std::string(kClsName[cb]);
      }
    std::vector<std::pair<std::string, std::string>> groups;
    for (const std::string& t : tags) {
      std::vector<std::pair<std::string, std::string>> merged; // targets, sources
      for (const auto& [ca, to] : by_tag[t]) add(merged, to, kClsName[ca]);
      for (const auto& [to, from] : merged) groups.push_back({t, from + " → " + to});
    }
    return join(groups);
  }

  // Appends `item` to the group with key `key` (groups keep their first-seen order).
  static void add(std::vector<std::pair<std::string, std::string>>& groups, const std::string& key,
                  const std::string& item) {
    for (auto& [k, items] : groups)
      if (k == key) {
        items += ", " + item;
        return;
      }
    groups.push_back({key, item});
  }

  static std::string join(const std::vector<std::pair<std::string, std::string>>& groups) {
    std::string s;
    for (const auto& [t, items] : groups) s += (s.empty() ? "" : "; ") + items + t;
    return s;
  }

  const Row& row_;
  LitmusTest t_;
  EventGraph g_;
  int k_ = 0, loc_ = -1, target_ = -1;
  std::vector<int> before_, own_, after_;     // P0's events before the call, of the call, after it
  std::map<std::pair<int, int>, bool> edges_; // the call's edges, releasing or not
  bool on_success_ = false;
};

constexpr const char* kLegendClasses =
    "Event classes: **bw** bypass write (bypass put or put_signal data, p, AMO write, signal update), **cw** cached "
    "write (ordinary store, keep put), **cr** comm read (get, g, fetch, signal_fetch, bypass_load, a relay put's "
    "source), **sr** synchronizing read (wait, test), **ld** ordinary load, **sy** Q/Arr/Dep of another call, **dst** "
    "get_nbi destination. The call's own events: Q, Arr, Dep, W (data write), sig (signal update), R (comm read), S "
    "(synchronizing read).";
constexpr const char* kLegendTags =
    "Tags: *same PE*: only events toward the call's target PE (earlier → later: two events toward one PE); *same "
    "location*: only reads (AMOs included) of the location the call reads; *own heap, same location*: a write to the "
    "caller's own copy and a later load of that copy; *ordinary stores*: not keep puts; *rel*: releasing, carried by "
    "A11 to a home read that observes the write. Every call here has scope `system`; a narrower scope drops the edges "
    "toward PEs outside it (A16).";

// A paragraph broken into lines of at most `width` columns (the docs' prose width).
std::string wrap(const std::string& text, std::size_t width = 120) {
  std::string out, line, word;
  std::istringstream in(text);
  while (in >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return out + line + "\n";
}

} // namespace

std::string axiom_table() {
  std::string s = wrap(kLegendClasses) + "\n" + wrap(kLegendTags) + "\n";
  s += "| call | events | earlier → call | call → later | earlier → later | within the call | notes |\n"
       "|---|---|---|---|---|---|---|\n";
  for (const Row& r : kRows) s += Study(r).line() + "\n";
  return s;
}

} // namespace portshmem::model
