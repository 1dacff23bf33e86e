// The suite's output: a human-readable table on stdout, and the same rows as JSON and/or CSV (--json, --csv) for
// scripts/perf-plot.py. PE 0 prints and writes; every row names everything needed to tell two runs apart.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "options.hpp"
#include "programs.hpp"

namespace pt {

/// What the run is: the same for every row of it.
struct run_info {
  std::string program;  // shmem_put_bw, ... (shmem_get_bibw for get_bw --bidir)
  std::string platform; // host, nvidia or amd: host numbers are CPU numbers
  std::string version;  // the backend library's version string
  metric m;             // latency, or bandwidth / rate
  int pes;
  unsigned blocks, threads; // the grid of the grid programs; the latency programs report their own block
};

struct row {
  std::string backend; // portshmem, nvshmem or raw (the hand-written yardstick)
  std::string mm;      // the qualifier variant (kMmNames); "none" for raw (no library call, no qualifier)
  std::string group;   // thread, warp or block
  std::string type;    // -d
  std::string op;      // the AMO, "-" elsewhere
  unsigned blocks, threads;
  std::size_t size; // bytes per row as perftest counts them (the sweep's size)
  int iters;
  double value; // in unit_of(m)
  bool ok;      // the data check of this row passed on every PE
};

class report {
 public:
  report(run_info run, const options& o, bool printer) : run_(std::move(run)), opts_(o), printer_(printer) {}
  /// The comment lines and the column names.
  void header(const char* what) const;
  /// Prints the row (PE 0) and keeps it for the files.
  void add(const row& r);
  /// Writes --json and --csv (PE 0); false when a file cannot be written.
  bool write_files() const;
  const run_info& run() const { return run_; }

 private:
  run_info run_;
  options opts_;
  bool printer_;
  std::vector<row> rows_;
};

} // namespace pt
