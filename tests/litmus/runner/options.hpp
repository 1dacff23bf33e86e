// Command line of portshmem-litmus.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace litmus_runner {

struct Options {
  std::uint64_t iterations = 0;  // instances per test (0: platform default)
  std::uint32_t batch = 0;       // instances per kernel launch (0: platform default)
  std::uint32_t threads = 0;     // worker threads per PE (0: platform default)
  std::uint32_t block = 0;       // threads per block (0: platform default)
  std::int32_t stress_idle = -1; // stress threads on each PE that plays no litmus thread (-1: default)
  std::int32_t stress_busy = -1; // stress threads on each PE that plays one (-1: default)
  std::int32_t sync_ns = -1;     // rendezvous start-time lead in ns (-1: default)
  std::int32_t delay = -1;       // largest random delay before an instance, in spin iterations (-1: default)
  std::uint32_t stride = 1;      // words between two instances of a location
  std::uint64_t seed = 0x5eed1a5e;
  std::uint32_t timeout_ms = 10000; // per-batch budget before waits give up
  bool rendezvous = true;
  int min_test_pes = 0; // run only tests with at least this many PEs
  bool verbose = false;
  std::string markdown;
  std::vector<std::string> files;
};

/// Parses argv; on a bad or --help argument prints usage (on `print`) and returns false with `status` set.
bool parse_options(int argc, char** argv, Options& o, bool print, int& status);

/// Expands directories into their *.litmus files (sorted); keeps files as given.
std::vector<std::string> expand_inputs(const std::vector<std::string>& inputs);

} // namespace litmus_runner
