// Text reports of model results (CLI output and the verdict table).
#include "report.hpp"

#include <cstdio>
#include <set>
#include <utility>
#include <vector>

namespace portshmem::model {
namespace {

std::string outcome_text(const LitmusTest& t, const ModelResult& r, const Outcome& o, bool all) {
  std::string s;
  for (std::size_t i = 0; i < r.reg_names.size(); ++i) s += r.reg_names[i] + "=" + std::to_string(o.regs[i]) + " ";
  std::vector<Loc> locs;
  if (all)
    for (int l = 0; l < t.loc_count(); ++l) locs.push_back(t.loc_at(l));
  else
    locs = reported_locations(t);
  for (Loc l : locs) s += t.loc_name(l) + "=" + std::to_string(o.mem[t.loc_index(l)]) + " ";
  if (!s.empty()) s.pop_back();
  return s.empty() ? "(nothing to report)" : s;
}

} // namespace

const char* verdict_name(bool reachable) {
  return reachable ? "allowed" : "forbidden";
}

std::string format_report(const LitmusTest& t, const ModelResult& r, bool all_locations, double ms) {
  std::string s = t.name + " (" + t.file + ")\n";
  if (!t.doc.empty()) s += "  " + t.doc + "\n";
  for (const std::string& n : r.notes) s += "  note: " + n + "\n";
  // Distinct projections, marking those that satisfy the condition.
  std::set<std::pair<std::string, bool>> shown;
  for (const Outcome& o : r.outcomes) shown.insert({outcome_text(t, r, o, all_locations), satisfies(t, r, o)});
  s += "  allowed outcomes (" + std::to_string(shown.size()) + "):\n";
  for (const auto& [text, sat] : shown) s += "    " + text + (sat ? "   <- exists" : "") + "\n";
  if (r.outcomes.empty()) s += "    none: no execution lets every wait return\n";
  s += "  exists " + format_condition(t) + "\n";
  char line[256];
  std::snprintf(line, sizeof line, "  model: %s, expected: %s -- %s   (%llu rf candidates, %llu executions, %.1f ms)\n",
                verdict_name(r.condition_reachable), verdict_name(t.expect == Expect::Allowed),
                r.as_expected ? "ok" : "MISMATCH", static_cast<unsigned long long>(r.rf_candidates),
                static_cast<unsigned long long>(r.executions), ms);
  return s + line;
}

std::string table_header() {
  return "| test | catalogue row | what it shows | expected | model |\n|---|---|---|---|---|\n";
}

std::string table_row(const LitmusTest& t, const ModelResult& r) {
  std::string cell; // markdown: '|' ends a cell and <x> reads as an HTML tag
  for (char c : t.doc) cell += c == '|' ? "\\|" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : std::string(1, c);
  return "| " + t.name + " | " + t.row + " | " + cell + " | " + verdict_name(t.expect == Expect::Allowed) + " | " +
         verdict_name(r.condition_reachable) + (r.as_expected ? "" : " (MISMATCH)") + " |";
}

} // namespace portshmem::model
