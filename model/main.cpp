// portshmem-model: prints the outcomes the memory model allows for litmus tests and checks their expectations.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "enumerate.hpp"
#include "litmus.hpp"

using namespace portshmem::model;

namespace {

void usage(std::FILE* f) {
  std::fprintf(f,
               "usage: portshmem-model [--all-outcomes] [--table] FILE.litmus...\n"
               "  Prints, per test, the outcomes the portshmem memory model allows (registers and the locations\n"
               "  named by the condition or the 'observe' line) and whether the condition agrees with the test's\n"
               "  'expect' line.\n"
               "  --all-outcomes  report the final value of every location too\n"
               "  --table         print one markdown table row per test (the verdict table of docs/memory_model.md)\n"
               "Exit status: 0 when every test agrees, 1 on a disagreement, 2 on a parse error or bad usage.\n");
}

const char* verdict(bool reachable) { return reachable ? "allowed" : "forbidden"; }

std::string outcome_text(const Test& t, const ModelResult& r, const Outcome& o, bool all) {
  std::string s;
  for (std::size_t i = 0; i < r.reg_names.size(); ++i)
    s += r.reg_names[i] + "=" + std::to_string(o.regs[i]) + " ";
  std::vector<Loc> locs;
  if (all)
    for (int l = 0; l < t.loc_count(); ++l)
      locs.push_back(t.loc_at(l));
  else
    locs = reported_locations(t);
  for (Loc l : locs)
    s += t.loc_name(l) + "=" + std::to_string(o.mem[t.loc_index(l)]) + " ";
  if (!s.empty())
    s.pop_back();
  return s.empty() ? "(nothing to report)" : s;
}

void print(const Test& t, const ModelResult& r, bool all, double ms) {
  std::printf("%s (%s)\n", t.name.c_str(), t.file.c_str());
  if (!t.doc.empty())
    std::printf("  %s\n", t.doc.c_str());
  for (const std::string& n : r.notes)
    std::printf("  note: %s\n", n.c_str());
  // Distinct projections, marking those that satisfy the condition.
  std::set<std::pair<std::string, bool>> shown;
  for (const Outcome& o : r.outcomes)
    shown.insert({outcome_text(t, r, o, all), satisfies(t, r, o)});
  std::printf("  allowed outcomes (%zu):\n", shown.size());
  for (const auto& [text, sat] : shown)
    std::printf("    %s%s\n", text.c_str(), sat ? "   <- exists" : "");
  if (r.outcomes.empty())
    std::printf("    none: no execution lets every wait return\n");
  std::printf("  exists %s\n", format_condition(t).c_str());
  std::printf("  model: %s, expected: %s -- %s   (%llu rf candidates, %llu executions, %.1f ms)\n\n",
              verdict(r.condition_reachable), verdict(t.expect == Expect::Allowed),
              r.as_expected ? "ok" : "MISMATCH", static_cast<unsigned long long>(r.rf_candidates),
              static_cast<unsigned long long>(r.executions), ms);
}

}  // namespace

int main(int argc, char** argv) {
  bool all = false, table = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--all-outcomes"))
      all = true;
    else if (!std::strcmp(argv[i], "--table"))
      table = true;
    else if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    } else if (argv[i][0] == '-') {
      std::fprintf(stderr, "portshmem-model: unknown option '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    } else
      files.push_back(argv[i]);
  }
  if (files.empty()) {
    usage(stderr);
    return 2;
  }
  int status = 0, mismatches = 0, errors = 0;
  if (table) {
    std::printf("| test | catalogue row | expected | model |\n|---|---|---|---|\n");
  }
  for (const std::string& f : files) {
    try {
      Test t = parse_litmus_file(f);
      auto start = std::chrono::steady_clock::now();
      ModelResult r = run_model(t);
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (table)
        std::printf("| %s | %s | %s | %s%s |\n", t.name.c_str(), t.row.empty() ? "" : t.row.c_str(),
                    verdict(t.expect == Expect::Allowed), verdict(r.condition_reachable),
                    r.as_expected ? "" : " (MISMATCH)");
      else
        print(t, r, all, ms);
      if (!r.as_expected) {
        ++mismatches;
        if (status == 0)
          status = 1;
      }
    } catch (const LitmusError& e) {
      std::fflush(stdout);
      std::fprintf(stderr, "%s\n", e.what());
      ++errors;
      status = 2;
    }
  }
  if (!table)
    std::printf("%zu tests: %zu agree with their expectation, %d disagree, %d could not be read\n", files.size(),
                files.size() - mismatches - errors, mismatches, errors);
  return status;
}
