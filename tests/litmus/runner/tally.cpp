// The histogram of one litmus test and its verdict against the executable model.
#include "tally.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace litmus_runner {

std::vector<std::int64_t> key_of(const model::LitmusTest& t, const model::Outcome& o) {
  std::vector<std::int64_t> k = o.regs;
  for (const model::Loc& l : model::reported_locations(t)) k.push_back(o.mem[t.loc_index(l)]);
  return k;
}

std::unique_ptr<Allowed> allowed_outcomes(const model::LitmusTest& t) {
  auto a = std::make_unique<Allowed>();
  a->test = t;
  a->result = model::run_model(a->test);
  for (const model::Outcome& o : a->result.outcomes) {
    auto k = key_of(a->test, o);
    a->keys.insert(k);
    a->whole.insert(o);
    a->example.emplace(k, o);
  }
  return a;
}

namespace {
/// The placement pattern of a test: which pairs of PEs share a device and a node.
std::string pattern(const model::LitmusTest& t) {
  std::string s;
  for (int a = 0; a < t.pes; ++a)
    for (int b = a + 1; b < t.pes; ++b) {
      s += t.device[a] == t.device[b] ? 'D' : '-';
      s += t.node[a] == t.node[b] ? 'N' : '-';
    }
  return s;
}
} // namespace

Tally::Tally(const model::LitmusTest& t, std::unique_ptr<Allowed> declared) : t_(t), declared_(std::move(declared)) {}

const Allowed* Tally::realized(const model::LitmusTest& real) {
  const std::string p = pattern(real);
  if (p == pattern(t_)) return nullptr;
  auto it = realized_.find(p);
  if (it == realized_.end()) it = realized_.emplace(p, allowed_outcomes(real)).first;
  return it->second.get();
}

void Tally::add(const model::Outcome& o, bool stuck, const Allowed* real) {
  ++total_;
  if (stuck) {
    ++stuck_;
    return;
  }
  auto k = key_of(t_, o);
  Row& row = rows_[k];
  if (row.count == 0) row.example = o;
  ++row.count;
  const bool bad = !declared_->keys.count(k) || !declared_->whole.count(o);
  if (bad) {
    ++row.forbidden;
    if (row.forbidden == 1) row.example = o; // show the state that broke the model
  } else if (real && (!real->keys.count(k) || !real->whole.count(o))) {
    ++row.forbidden_real;
    if (row.forbidden_real == 1) row.example = o;
  }
}

std::string Tally::key_text(const std::vector<std::int64_t>& key) const {
  std::ostringstream s;
  const auto& names = declared_->result.reg_names;
  std::size_t i = 0;
  for (; i < names.size() && i < key.size(); ++i) s << (i ? " " : "") << names[i] << "=" << key[i];
  for (const model::Loc& l : model::reported_locations(t_)) {
    if (i < key.size()) s << (i ? " " : "") << t_.loc_name(l) << "=" << key[i];
    ++i;
  }
  return s.str();
}

std::string Tally::report(Summary& s) const {
  std::ostringstream out;
  const model::ModelResult& r = declared_->result;
  s.name = t_.name;
  s.iterations = total_;
  s.allowed = declared_->keys.size();
  s.observed = rows_.size();
  s.stuck = stuck_;
  s.condition_allowed = r.condition_reachable;
  s.forbidden = s.weak = 0;

  std::vector<std::pair<std::vector<std::int64_t>, const Row*>> rows;
  for (const auto& [k, row] : rows_) rows.emplace_back(k, &row);
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second->count != b.second->count ? a.second->count > b.second->count : a.first < b.first;
  });

  std::uint64_t cond_total = 0;
  out << "  histogram (" << total_ << " iterations):\n";
  for (const auto& [k, row] : rows) {
    const bool cond = model::satisfies(t_, r, row->example);
    const bool allowed = row->forbidden == 0 && row->forbidden_real == 0;
    char count[32];
    std::snprintf(count, sizeof count, "%10llu", static_cast<unsigned long long>(row->count));
    out << "  " << count << "  " << key_text(k) << (cond ? "   <- exists" : "") << "   ";
    if (allowed) {
      out << "allowed";
    } else if (row->forbidden) {
      out << "FORBIDDEN (" << row->forbidden << "x)";
    } else {
      out << "FORBIDDEN at the placement it ran on (" << row->forbidden_real << "x)";
    }
    if (row->forbidden && declared_->keys.count(k)) {
      // The registers and reported locations are allowed, but some other location's final value is not.
      out << " -- final state of every location:";
      for (int li = 0; li < t_.loc_count(); ++li)
        out << " " << t_.loc_name(t_.loc_at(li)) << "=" << row->example.mem[li];
    }
    out << "\n";
    s.forbidden += row->forbidden + row->forbidden_real;
    if (cond && allowed) s.weak += row->count;
    if (cond) cond_total += row->count;
  }
  if (stuck_) {
    char count[32];
    std::snprintf(count, sizeof count, "%10llu", static_cast<unsigned long long>(stuck_));
    out << "  " << count << "  stuck: a wait never saw its value within the batch's time budget (not classified)\n";
  }
  std::vector<std::string> unseen;
  for (const auto& k : declared_->keys) {
    if (rows_.count(k)) continue;
    const bool cond = model::satisfies(t_, r, declared_->example.at(k));
    unseen.push_back(key_text(k) + (cond ? "   <- exists (the weak outcome: never observed)" : ""));
  }
  if (!unseen.empty()) {
    out << "  allowed, never observed:\n";
    for (const auto& u : unseen) out << "              " << u << "\n";
  }
  out << "  exists " << model::format_condition(t_) << ": model " << (r.condition_reachable ? "allowed" : "forbidden")
      << ", observed " << cond_total << " times\n";
  s.pass = s.forbidden == 0;
  s.verdict = s.pass ? "PASS" : "FAIL";
  return out.str();
}

} // namespace litmus_runner
