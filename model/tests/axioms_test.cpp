// The generated axiom table: docs/memory_model.md must hold exactly what `portshmem-model --axioms` prints, and the
// table must say what the axioms say on a few points that are easy to get wrong.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "axioms.hpp"

using namespace portshmem::model;

namespace {

// The row of the table for `call` ("| fence comm | ...").
std::string row(const std::string& table, const std::string& call) {
  std::istringstream in(table);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("| " + call + " |", 0) == 0) return line;
  ADD_FAILURE() << "no row for " << call;
  return "";
}

TEST(Axioms, DocumentTableMatchesTheModel) {
  std::ifstream in(std::string(PORTSHMEM_DOCS_DIR) + "/memory_model.md");
  ASSERT_TRUE(in) << "docs/memory_model.md not found";
  std::string doc, line;
  bool inside = false, found = false;
  while (std::getline(in, line)) {
    if (line.find("<!-- axioms:begin") != std::string::npos) {
      inside = found = true;
    } else if (line.find("<!-- axioms:end") != std::string::npos) {
      inside = false;
    } else if (inside) {
      doc += line + "\n";
    }
  }
  ASSERT_TRUE(found) << "no <!-- axioms:begin --> marker in docs/memory_model.md";
  EXPECT_EQ(doc, axiom_table()) << "the axiom table of docs/memory_model.md is out of date; regenerate it with "
                                   "portshmem-model --axioms";
}

TEST(Axioms, TableStatesTheKeyRules) {
  const std::string t = axiom_table();
  // A5: a fence orders writes toward one PE, and releases them; it orders no read.
  EXPECT_NE(row(t, "fence comm").find("bw → bw (same PE, rel)"), std::string::npos) << row(t, "fence comm");
  EXPECT_EQ(row(t, "fence all").find("cr"), std::string::npos) << row(t, "fence all");
  // A12: a wait orders without releasing; relaxed orders writes and sync events only.
  EXPECT_EQ(row(t, "wait_until acquire").find("rel"), std::string::npos);
  EXPECT_NE(row(t, "wait_until relaxed").find("S → bw, cw, sy, dst |"), std::string::npos)
      << row(t, "wait_until relaxed");
  // Release writes and SC points.
  EXPECT_NE(row(t, "put_signal weak comm").find("sig is a release write"), std::string::npos);
  EXPECT_EQ(row(t, "signal_op comm").find("release"), std::string::npos);
  EXPECT_NE(row(t, "quiet comm").find("Q is an SC point"), std::string::npos);
  EXPECT_EQ(row(t, "sync_all").find("SC point"), std::string::npos);
  // A2: a value-returning call orders only later reads of its location and sync events.
  EXPECT_NE(row(t, "g").find("R → bw, cr (same location); sy"), std::string::npos) << row(t, "g");
}

} // namespace
