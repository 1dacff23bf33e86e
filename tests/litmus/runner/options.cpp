// Command line of portshmem-litmus.
#include "options.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace litmus_runner {

namespace {
const char* kUsage =
    "usage: portshmem-run -np N portshmem-litmus [options] FILE.litmus|DIR...\n"
    "Runs each litmus test on the machine many times, with its threads on distinct PEs, and checks every outcome\n"
    "against the executable model (model/). N must be at least the test's PE count; extra PEs add memory stress.\n"
    "  --iterations N     instances per test (default 10000 on the host platform, 100000 on GPUs)\n"
    "  --batch N          instances per kernel launch (default 2000 host, 16384 GPU)\n"
    "  --threads N        worker threads per PE, each running a share of the batch's instances (default 2 host,\n"
    "                     1024 GPU); tests with barrier_all/sync_all always use one\n"
    "  --block N          threads per block (default: --threads on host, 128 on GPUs)\n"
    "  --stress N         stress threads on each PE that plays no litmus thread (default 1 host, 256 GPU)\n"
    "  --stress-busy N    stress threads on each PE that plays one (default 0 host, 128 GPU)\n"
    "  --delay N          largest random delay before an instance's first call, in spin iterations (default 64)\n"
    "  --stride N         words between two instances of one location, and between two registers (default 1:\n"
    "                     neighbours share cache lines; 16 puts each on its own 128-byte line)\n"
    "  --seed S           seed of every random choice (placement, instance order, delays)\n"
    "  --timeout-ms N     a batch's time budget; waits still unsatisfied after it give up and their instance\n"
    "                     is reported as stuck (default 10000)\n"
    "  --sync-ns N        the litmus threads of an instance meet, then start together N ns after the last\n"
    "                     arrived, by their clocks (default 2000)\n"
    "  --no-rendezvous    do not make the litmus threads of an instance meet before it starts\n"
    "  --min-test-pes N   run only the tests that use at least N PEs\n"
    "  --markdown FILE    also write a results table (markdown) to FILE\n"
    "  --verbose          print the placement and per-batch details\n"
    "Exit status: 0 when no test observed a forbidden outcome, 1 otherwise (or on a parse error).\n";

bool number(const char* s, std::uint64_t& v) {
  char* end = nullptr;
  v = std::strtoull(s, &end, 0);
  return end && *end == '\0' && end != s;
}
} // namespace

bool parse_options(int argc, char** argv, Options& o, bool print, int& status) {
  auto fail = [&](const std::string& why) {
    if (print) std::fprintf(stderr, "portshmem-litmus: %s\n%s", why.c_str(), kUsage);
    status = 2;
    return false;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::uint64_t& v) {
      if (i + 1 >= argc || !number(argv[i + 1], v)) return false;
      ++i;
      return true;
    };
    std::uint64_t v = 0;
    if (a == "-h" || a == "--help") {
      if (print) std::fputs(kUsage, stdout);
      status = 0;
      return false;
    } else if (a == "--iterations" && value(v)) {
      o.iterations = v;
    } else if (a == "--batch" && value(v) && v > 0) {
      o.batch = static_cast<std::uint32_t>(v);
    } else if (a == "--threads" && value(v) && v > 0) {
      o.threads = static_cast<std::uint32_t>(v);
    } else if (a == "--block" && value(v) && v > 0) {
      o.block = static_cast<std::uint32_t>(v);
    } else if (a == "--stress" && value(v)) {
      o.stress_idle = static_cast<std::int32_t>(v);
    } else if (a == "--stress-busy" && value(v)) {
      o.stress_busy = static_cast<std::int32_t>(v);
    } else if (a == "--sync-ns" && value(v)) {
      o.sync_ns = static_cast<std::int32_t>(v);
    } else if (a == "--delay" && value(v)) {
      o.delay = static_cast<std::int32_t>(v);
    } else if (a == "--stride" && value(v) && v > 0) {
      o.stride = static_cast<std::uint32_t>(v);
    } else if (a == "--seed" && value(v)) {
      o.seed = v;
    } else if (a == "--timeout-ms" && value(v) && v > 0) {
      o.timeout_ms = static_cast<std::uint32_t>(v);
    } else if (a == "--min-test-pes" && value(v)) {
      o.min_test_pes = static_cast<int>(v);
    } else if (a == "--no-rendezvous") {
      o.rendezvous = false;
    } else if (a == "--verbose") {
      o.verbose = true;
    } else if (a == "--markdown" && i + 1 < argc) {
      o.markdown = argv[++i];
    } else if (!a.empty() && a[0] == '-') {
      return fail("bad option or value: " + a);
    } else {
      o.files.push_back(a);
    }
  }
  if (o.files.empty()) return fail("no litmus file given");
  return true;
}

std::vector<std::string> expand_inputs(const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& in : inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      std::vector<std::string> found;
      for (const auto& e : fs::directory_iterator(in, ec))
        if (e.path().extension() == ".litmus") found.push_back(e.path().string());
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else {
      out.push_back(in);
    }
  }
  return out;
}

} // namespace litmus_runner
