// Every file of tests/litmus/ against the model, the MEMORY_MODEL.md catalogue rows it must cover, and the verdict
// table of docs/memory_model.md (which must list exactly what the model says).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "enumerate.hpp"
#include "litmus.hpp"
#include "report.hpp"

using namespace portshmem::model;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> litmus_files() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(PORTSHMEM_LITMUS_DIR))
    if (e.path().extension() == ".litmus") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Catalogue, EveryFileAgreesWithTheModelQuickly) {
  std::vector<std::string> files = litmus_files();
  ASSERT_GE(files.size(), 40u) << "tests/litmus/ looks empty";
  std::set<std::string> names;
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    LitmusTest t = parse_litmus_file(f);
    EXPECT_TRUE(names.insert(t.name).second) << "duplicate test name " << t.name;
    auto start = std::chrono::steady_clock::now();
    ModelResult r = run_model(t);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(r.as_expected) << format_report(t, r, false, s * 1e3);
    EXPECT_FALSE(r.outcomes.empty()) << "no execution: some wait can never return";
    EXPECT_LT(s, 0.25) << "the model should answer well under a second";
  }
}

// The catalogue of MEMORY_MODEL.md: each row and the verdicts its files must show (two for rows that contrast a
// weak and a strong variant).
TEST(Catalogue, CoversEveryRowOfTheBrief) {
  const std::map<std::string, std::set<std::string>> rows = {
      {"MP+put+fence+p", {"forbidden"}},
      {"MP+put+p", {"allowed"}},
      {"MP+put_signal", {"forbidden"}},
      {"MP+store+p/all", {"forbidden"}},
      {"MP+store+p/comm", {"allowed"}},
      {"MP+ptrstore+signal/comm", {"allowed"}},
      {"MP+ptrstore+signal/all", {"forbidden"}},
      {"QUIET+3PE", {"forbidden"}},
      {"FENCE+2targets", {"allowed"}},
      {"WAIT/relaxed", {"allowed"}},
      {"WAIT/comm", {"forbidden"}},
      {"SIGNAL_ADD+nbi", {"allowed", "forbidden"}},
      {"SB+amo", {"allowed", "forbidden"}},
      {"IRIW+amo+quiet", {"forbidden"}},
      {"CoRR+amo", {"forbidden"}},
      {"GET+quiet/GET_NBI", {"allowed", "forbidden"}},
      {"BARRIER", {"forbidden"}},
  };
  std::map<std::string, std::set<std::string>> seen;
  for (const std::string& f : litmus_files()) {
    LitmusTest t = parse_litmus_file(f);
    if (t.row.empty()) continue;
    EXPECT_TRUE(rows.count(t.row)) << f << ": unknown catalogue row '" << t.row << "'";
    seen[t.row].insert(verdict_name(run_model(t).condition_reachable));
  }
  for (const auto& [row, verdicts] : rows) EXPECT_EQ(seen[row], verdicts) << "catalogue row " << row;
}

TEST(Catalogue, DocumentTableMatchesTheModel) {
  std::ifstream in(std::string(PORTSHMEM_DOCS_DIR) + "/memory_model.md");
  ASSERT_TRUE(in) << "docs/memory_model.md not found";
  std::set<std::string> doc;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.find("<!-- verdicts:begin") != std::string::npos)
      inside = true;
    else if (line.find("<!-- verdicts:end") != std::string::npos)
      inside = false;
    else if (inside && line.rfind("| ", 0) == 0 && line.rfind("| test ", 0) != 0)
      doc.insert(line);
  }
  std::set<std::string> model;
  for (const std::string& f : litmus_files()) {
    LitmusTest t = parse_litmus_file(f);
    model.insert(table_row(t, run_model(t)));
  }
  for (const std::string& row : model)
    EXPECT_TRUE(doc.count(row)) << "missing from the verdict table of docs/memory_model.md: " << row
                                << "\n(regenerate it with: portshmem-model --table tests/litmus/*.litmus)";
  for (const std::string& row : doc) EXPECT_TRUE(model.count(row)) << "stale row in docs/memory_model.md: " << row;
}

} // namespace
