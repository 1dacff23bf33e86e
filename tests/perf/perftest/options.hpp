// The suite's flags, spelled as NVSHMEM's perftest spells them (-b -e -f -n -w -r -c -t -s -d -a, --bidir,
// --msgrate, and their long forms), plus ours: --mm, --raw, --json, --csv. Host code only.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "programs.hpp"

namespace pt {

/// The element type of -d: what the sizes count in, and what p, g and the AMOs move.
struct dtype {
  const char* name;
  std::size_t size;
  bool integer;
};

struct options {
  std::size_t min_bytes = 4, max_bytes = std::size_t(4) << 20, step = 2;
  int iters = 10, warmup = 5, repeats = 1;
  unsigned blocks = 32, threads = 256;
  std::vector<group> groups;  // from -s; empty: the program's default
  dtype type{"int", 4, true}; // -d
  std::vector<amo_op> ops;    // -a; empty: inc
  std::vector<mm_set> mms;    // --mm (programs.hpp: the variants), in kMmNames order; empty: strict
  bool raw = false;           // --raw: also the hand-written load/store yardstick (portshmem builds only)
  bool bidir = false;         // --bidir: both PEs issue (put_bw, get_bw)
  bool msgrate = false;       // --msgrate: report operations per second instead of GB/s
  std::string json, csv;      // machine-readable output files (written by PE 0)
};

/// The defaults of program p on this platform (NVSHMEM perftest's on GPUs; small ones on the host platform, whose
/// threads are CPU threads).
options defaults_for(const program_info& p, bool host_platform);

/// Parses argv into o (which holds the defaults); returns an error message, "help" for -h, or empty when fine.
/// Fills groups, ops and mms with the defaults when the flags are absent, and checks them against the program (a
/// variant of --mm that changes no call of the program stays in mms: the driver skips it with a line saying why).
std::string parse(const program_info& p, int argc, char** argv, options& o);

/// The help text of program p, with the defaults d.
std::string usage(const program_info& p, const options& d);

/// The sizes of the sweep: MIN, MIN*STEP, ... up to MAX, each rounded down to whole elements of the type (a size
/// below one element, and a repeat after rounding, is dropped). atomic_latency: one size, the element.
std::vector<std::size_t> sizes_of(const program_info& p, const options& o);

} // namespace pt
