// portshmem-model: prints the outcomes the memory model allows for litmus tests and checks their expectations.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "axioms.hpp"
#include "enumerate.hpp"
#include "litmus.hpp"
#include "report.hpp"

using namespace portshmem::model;

namespace {

void usage(std::FILE* f) {
  std::fprintf(f,
               "usage: portshmem-model [--all-outcomes] [--table] FILE.litmus...\n"
               "       portshmem-model --axioms\n"
               "  Prints, per test, the outcomes the portshmem memory model allows (registers and the locations\n"
               "  named by the condition or the 'observe' line) and whether the condition agrees with the test's\n"
               "  'expect' line.\n"
               "  --all-outcomes  report the final value of every location too\n"
               "  --table         print one markdown table row per test (the verdict table of docs/memory_model.md)\n"
               "  --axioms        print the ordering axioms as the model applies them (the axiom table of the docs)\n"
               "Exit status: 0 when every test agrees, 1 on a disagreement, 2 on a parse error or bad usage.\n");
}

} // namespace

int main(int argc, char** argv) {
  bool all = false, table = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--all-outcomes")) {
      all = true;
    } else if (!std::strcmp(argv[i], "--table")) {
      table = true;
    } else if (!std::strcmp(argv[i], "--axioms")) {
      std::fputs(axiom_table().c_str(), stdout);
      return 0;
    } else if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    } else if (argv[i][0] == '-') {
      std::fprintf(stderr, "portshmem-model: unknown option '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    } else {
      files.push_back(argv[i]);
    }
  }
  if (files.empty()) {
    usage(stderr);
    return 2;
  }
  int status = 0, mismatches = 0, errors = 0;
  std::vector<std::string> catalogue_rows, other_rows; // --table: the brief's catalogue rows first
  for (const std::string& f : files) {
    try {
      LitmusTest t = parse_litmus_file(f);
      auto start = std::chrono::steady_clock::now();
      ModelResult r = run_model(t);
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (table)
        (t.row.empty() ? other_rows : catalogue_rows).push_back(table_row(t, r));
      else
        std::printf("%s\n", format_report(t, r, all, ms).c_str());
      if (!r.as_expected) {
        ++mismatches;
        status = status ? status : 1;
      }
    } catch (const LitmusError& e) {
      std::fflush(stdout);
      std::fprintf(stderr, "%s\n", e.what());
      ++errors;
      status = 2;
    }
  }
  if (table) {
    std::fputs(table_header().c_str(), stdout);
    for (const auto* rows : {&catalogue_rows, &other_rows})
      for (const std::string& row : *rows) std::printf("%s\n", row.c_str());
  } else {
    std::printf("%zu tests: %zu agree with their expectation, %d disagree, %d could not be read\n", files.size(),
                files.size() - mismatches - errors, mismatches, errors);
  }
  return status;
}
