// Flag parsing of the suite (options.hpp). NVSHMEM perftest's letters and long names, so that a command line written
// for one runs the other; values are checked (a malformed one is an error, never silently ignored).
#include "options.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace pt {

namespace {

constexpr dtype kTypes[] = {
    {"int", 4, true},    {"uint", 4, true},     {"int32", 4, true}, {"uint32", 4, true},
    {"long", 8, true},   {"longlong", 8, true}, {"ulong", 8, true}, {"ulonglong", 8, true},
    {"int64", 8, true},  {"uint64", 8, true},   {"size", 8, true},  {"ptrdiff", 8, true},
    {"float", 4, false}, {"double", 8, false},  {"fp16", 2, false}, {"bf16", 2, false},
};

/// Bytes or a count with an optional K/M/G suffix (1024-based), as perftest reads them; false on a malformed value.
bool parse_scaled(const char* s, std::size_t& out) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s || *s == '-') return false;
  int shift = 0;
  if (*end == 'K' || *end == 'k') shift = 10;
  if (*end == 'M' || *end == 'm') shift = 20;
  if (*end == 'G' || *end == 'g') shift = 30;
  if (shift) ++end;
  if (*end == 'B' || *end == 'b') ++end;
  if (*end) return false;
  out = std::size_t(v) << shift;
  return true;
}

/// The long spelling of a short flag (NVSHMEM perftest's names), so both forms take the same path.
std::string short_form(const std::string& flag) {
  static const char* const kLong[][2] = {{"--min_size", "-b"}, {"--max_size", "-e"},        {"--step", "-f"},
                                         {"--iters", "-n"},    {"--warmup_iters", "-w"},    {"--repetitions", "-r"},
                                         {"--ctas", "-c"},     {"--threads_per_cta", "-t"}, {"--scope", "-s"},
                                         {"--datatype", "-d"}, {"--atomic_op", "-a"},       {"--help", "-h"}};
  for (const auto& l : kLong) {
    if (flag == l[0]) return l[1];
  }
  return flag;
}

bool is_atomic(const program_info& p) {
  return p.fam == family::atomic;
}

bool moves_elements(const program_info& p) { // p, g and the AMOs move one element per call
  return p.id == program::p_bw || p.id == program::p_latency || p.id == program::g_latency || is_atomic(p);
}

} // namespace

options defaults_for(const program_info& p, bool host_platform) {
  options o;
  if (host_platform) { // CPU threads: every GPU thread is one, so keep grids and sizes small
    o.max_bytes = std::size_t(64) << 10;
    o.warmup = 2;
    o.blocks = 2;
    o.threads = 8;
  }
  if (p.id == program::put_msg_rate) o.min_bytes = o.max_bytes = 8; // one 8-byte put per thread
  if (p.id == program::atomic_bw) o.max_bytes = std::min<std::size_t>(o.max_bytes, 64 << 10); // as perftest's
  return o;
}

std::string usage(const program_info& p, const options& d) {
  auto num = [](std::size_t v) { return std::to_string(v); };
  std::string u = std::string("usage: ") + p.name + " [flags]    (run with portshmem-run -np 2)\n  " + p.what + "\n";
  u += "  -b, --min_size B      smallest size in bytes, K M G: powers of 1024 (" + num(d.min_bytes) + ")\n";
  u += "  -e, --max_size B      largest size (" + num(d.max_bytes) + ")\n";
  u += "  -f, --step F          size step factor (" + num(d.step) + ")\n";
  u += "  -n, --iters N         iterations per timed launch (" + num(std::size_t(d.iters)) + ")\n";
  u += "  -w, --warmup_iters N  iterations of the warm-up launch before the timed ones (" + num(std::size_t(d.warmup)) +
       ")\n";
  u += "  -r, --repetitions N   timed launches per size; the row is their median (" + num(std::size_t(d.repeats)) +
       ")\n";
  if (p.grid) u += "  -c, --ctas N          blocks of the grid (" + num(d.blocks) + ")\n";
  u += "  -t, --threads_per_cta N  threads per block (" + num(d.threads) + ")\n";
  if (p.groups != kThread) {
    u += "  -s, --scope G         issuing group: thread, warp, block or all (";
    for (int g = 0; g < 3; ++g) u += p.default_grp >> g & 1u ? std::string(kGroupNames[g]) + " " : "";
    u.back() = ')';
    u += "\n";
  }
  u += "  -d, --datatype T      int uint int32 uint32 long longlong ulong ulonglong int64 uint64 size ptrdiff";
  u += moves_elements(p) ? "" : " float double fp16 bf16";
  u += " (int)\n";
  if (is_atomic(p)) {
    u += "  -a, --atomic_op OP    ";
    for (const char* n : kAmoNames) u += std::string(n) + " ";
    u += "or all (inc)\n";
  }
  if (p.id == program::put_bw || p.id == program::get_bw) u += "  --bidir               both PEs issue at once\n";
  if (p.m == metric::bandwidth) u += "  --msgrate             report calls per second (Mops/s) instead of GB/s\n";
  u += "  --mm LIST             qualifier variants, comma-separated (strict); portshmem backend only (NVSHMEM: "
       "strict)\n";
  for (int v = 0; v < kMmCount; ++v) {
    std::string name = std::string("    ") + kMmNames[v];
    name.resize(24, ' ');
    const bool runs = applies(mm_set(v), p.id);
    u += name + kMmWhat[v] + (runs ? "" : std::string(" [not here: ") + p.name + " calls " + calls_of(p.id) + "]") +
         "\n";
  }
  u += "    both                strict,relaxed\n"
       "    all                 every variant above\n"
       "  --raw                 also run the hand-written load/store yardstick (portshmem backend only)\n"
       "  --json FILE, --csv FILE  machine-readable rows (the table goes to stdout either way)\n"
       "  -h, --help            this text\n";
  return u;
}

std::string parse(const program_info& p, int argc, char** argv, options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = short_form(argv[i]);
    if (flag == "-h") return "help";
    if (flag == "--bidir" || flag == "--msgrate" || flag == "--raw") {
      (flag == "--bidir" ? o.bidir : flag == "--msgrate" ? o.msgrate : o.raw) = true;
      continue;
    }
    static const char* const kValued[] = {"-b", "-e", "-f", "-n", "-w",   "-r",     "-c",
                                          "-t", "-s", "-d", "-a", "--mm", "--json", "--csv"};
    bool valued = false;
    for (const char* v : kValued) valued = valued || flag == v;
    if (!valued) return "unknown flag " + flag;
    if (i + 1 >= argc) return "missing value after " + flag;
    const std::string value = argv[++i];
    std::size_t v = 0;
    if (flag == "-b" || flag == "-e" || flag == "-f" || flag == "-n" || flag == "-w" || flag == "-r" || flag == "-c" ||
        flag == "-t") {
      if (!parse_scaled(value.c_str(), v)) return "bad value " + value + " for " + flag;
      const bool count = flag != "-b" && flag != "-e";
      if (count && (v > 100000000 || (v == 0 && flag != "-w"))) return "bad count " + value + " for " + flag;
      if (flag == "-b") o.min_bytes = v;
      if (flag == "-e") o.max_bytes = v;
      if (flag == "-f") o.step = v;
      if (flag == "-n") o.iters = int(v);
      if (flag == "-w") o.warmup = int(v);
      if (flag == "-r") o.repeats = int(v);
      if (flag == "-c") o.blocks = unsigned(v);
      if (flag == "-t") o.threads = unsigned(v);
    } else if (flag == "-s") {
      o.groups.clear();
      for (int g = 0; g < 3; ++g) {
        if ((value == kGroupNames[g] || value == "all") && (p.groups >> g & 1u)) o.groups.push_back(group(g));
      }
      if (o.groups.empty()) return "scope " + value + " does not apply to " + p.name;
    } else if (flag == "-d") {
      const std::string name = value.size() > 2 && value.compare(value.size() - 2, 2, "_t") == 0
                                   ? value.substr(0, value.size() - 2)
                                   : value; // int32_t etc., as perftest's help spells them
      const dtype* found = nullptr;
      for (const dtype& t : kTypes) {
        if (name == t.name) found = &t;
      }
      if (!found) return "unknown datatype " + value;
      if (moves_elements(p) && found->size < 4) return std::string(p.name) + " moves 4- and 8-byte elements only";
      if (is_atomic(p) && !found->integer) return "AMOs here take integer types (OpenSHMEM's standard AMO types)";
      o.type = *found;
    } else if (flag == "-a") {
      if (!is_atomic(p)) return std::string("-a does not apply to ") + p.name;
      o.ops.clear();
      for (int a = 0; a < kAmoCount; ++a) {
        if (value == kAmoNames[a] || value == "all") o.ops.push_back(amo_op(a));
      }
      if (o.ops.empty()) return "unknown atomic op " + value;
    } else if (flag == "--mm") {
      bool chosen[kMmCount] = {};
      std::size_t at = 0;
      while (at <= value.size()) { // comma-separated names; the rows come in kMmNames order, each once
        const std::size_t comma = std::min(value.find(',', at), value.size());
        const std::string name = value.substr(at, comma - at);
        bool known = name == "both" || name == "all";
        for (int v = 0; v < kMmCount; ++v) {
          const bool pick = name == kMmNames[v] || name == "all" || (name == "both" && v < 2);
          chosen[v] = chosen[v] || pick;
          known = known || pick;
        }
        if (!known) return "--mm: unknown variant '" + name + "' (-h lists them)";
        at = comma + 1;
      }
      o.mms.clear();
      for (int v = 0; v < kMmCount; ++v) {
        if (chosen[v]) o.mms.push_back(mm_set(v));
      }
    } else if (flag == "--json" || flag == "--csv") {
      (flag == "--json" ? o.json : o.csv) = value;
    }
  }
  if (o.groups.empty()) {
    for (int g = 0; g < 3; ++g) {
      if (p.default_grp >> g & 1u) o.groups.push_back(group(g));
    }
  }
  if (o.ops.empty()) o.ops.push_back(amo_op::inc);
  if (o.mms.empty()) o.mms.push_back(mm_set::strict);
  if (o.bidir && p.id != program::put_bw && p.id != program::get_bw) return "--bidir applies to put_bw and get_bw";
  if (o.msgrate && p.m != metric::bandwidth) return std::string("--msgrate does not apply to ") + p.name;
  if (o.min_bytes > o.max_bytes) return "-b is larger than -e";
  if (o.step < 2) return "-f must be at least 2";
  if (o.threads > 1024) return "-t: at most 1024 threads per block";
  if (sizes_of(p, o).empty()) return "no size of the sweep holds one element of " + std::string(o.type.name);
  return "";
}

std::vector<std::size_t> sizes_of(const program_info& p, const options& o) {
  const std::size_t e = o.type.size;
  if (p.id == program::atomic_latency) return {e};
  std::vector<std::size_t> out;
  for (std::size_t s = o.min_bytes; s <= o.max_bytes; s *= o.step) {
    const std::size_t rounded = s / e * e;
    if (rounded && (out.empty() || out.back() != rounded)) out.push_back(rounded);
    if (s == 0 || s > o.max_bytes / o.step) break; // s == 0: -b 0; else the next step would pass MAX (or overflow)
  }
  return out;
}

} // namespace pt
