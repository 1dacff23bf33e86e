// The executable model: every outcome the axioms of docs/memory_model.md allow for a litmus test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "litmus.hpp"

namespace portshmem::model {

/// Final state of one execution.
struct Outcome {
  std::vector<std::int64_t> regs; // per register slot (ModelResult::reg_names)
  std::vector<std::int64_t> mem;  // final value of every location, index LitmusTest::loc_index
  friend auto operator<=>(const Outcome&, const Outcome&) = default;
};

struct ModelResult {
  std::vector<Outcome> outcomes;      // allowed outcomes, sorted, without repeats
  std::vector<std::string> reg_names; // "P1:r0" per register slot
  std::vector<int> reg_base;          // first register slot of each thread
  bool condition_reachable = false;   // the test's condition holds in some allowed outcome
  bool as_expected = false;           // ... and that agrees with the test's 'expect' line
  std::uint64_t rf_candidates = 0;    // complete reads-from choices that passed C1, C5 and early C2
  std::uint64_t executions = 0;       // consistent executions (rf, co) found
  std::vector<std::string> notes;     // scope misuse and similar remarks
};

/// Enumerates the consistent executions of `t` and collects their outcomes.
ModelResult run_model(const LitmusTest& t);

/// Registers of one outcome arranged per thread, as eval_condition wants them.
std::vector<std::vector<std::int64_t>> regs_by_thread(const LitmusTest& t, const ModelResult& r, const Outcome& o);

/// True when the outcome satisfies the test's condition.
bool satisfies(const LitmusTest& t, const ModelResult& r, const Outcome& o);

} // namespace portshmem::model
