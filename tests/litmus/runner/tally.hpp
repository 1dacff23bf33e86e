// Host side of the litmus runner: the histogram of observed outcomes of one test, classified against the model.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "enumerate.hpp"
#include "litmus.hpp"

namespace litmus_runner {

namespace model = portshmem::model;

/// The model's verdict on one placement of a test: allowed outcomes, whole and projected onto what the histogram
/// shows (every register, and the locations of the condition and `observe`).
struct Allowed {
  model::LitmusTest test;
  model::ModelResult result;
  std::set<std::vector<std::int64_t>> keys; // projections of the allowed outcomes
  std::set<model::Outcome> whole;           // allowed outcomes with the final value of every location
  std::map<std::vector<std::int64_t>, model::Outcome> example; // an allowed outcome per key
};

/// Runs the model on t (throws what run_model throws).
std::unique_ptr<Allowed> allowed_outcomes(const model::LitmusTest& t);

/// The histogram key of an outcome: registers, then the reported locations.
std::vector<std::int64_t> key_of(const model::LitmusTest& t, const model::Outcome& o);

/// Summary numbers of one test's run, as printed on the machine-readable line and in the markdown table.
struct Summary {
  std::string name;
  std::uint64_t iterations = 0;
  std::size_t allowed = 0;        // distinct allowed outcomes (projected)
  std::size_t observed = 0;       // distinct observed outcomes (projected)
  std::uint64_t forbidden = 0;    // iterations with an outcome the model forbids (declared or real placement)
  std::uint64_t weak = 0;         // iterations with an allowed outcome that satisfies the test's condition
  std::uint64_t stuck = 0;        // iterations in which a wait gave up
  bool condition_allowed = false; // the model allows the condition (the test has a weak outcome to look for)
  bool pass = true;
  std::string verdict; // PASS / FAIL / SKIP ...
  std::string note;
};

class Tally {
 public:
  /// declared: the model for the test as written; the real placements are added with realized().
  Tally(const model::LitmusTest& t, std::unique_ptr<Allowed> declared);

  /// The model for the placement a batch ran on, when it differs from the declared one (computed once per pattern).
  const Allowed* realized(const model::LitmusTest& real);

  /// One instance: its outcome and the model to check it against besides the declared one (nullptr: same).
  void add(const model::Outcome& o, bool stuck, const Allowed* real);

  /// The report of the test (histogram, unseen allowed outcomes, verdict) and its summary.
  std::string report(Summary& s) const;

  const Allowed& declared() const { return *declared_; }

 private:
  struct Row {
    std::uint64_t count = 0;
    std::uint64_t forbidden = 0;      // outcome outside the declared model's set
    std::uint64_t forbidden_real = 0; // allowed as declared, but outside the set of the placement it ran on
    model::Outcome example;
  };
  std::string key_text(const std::vector<std::int64_t>& key) const;

  const model::LitmusTest& t_;
  std::unique_ptr<Allowed> declared_;
  std::map<std::string, std::unique_ptr<Allowed>> realized_; // by placement pattern
  std::map<std::vector<std::int64_t>, Row> rows_;
  std::uint64_t stuck_ = 0, total_ = 0;
};

} // namespace litmus_runner
