// The table, JSON and CSV of the suite (report.hpp). JSON: {"suite": ..., "rows": [{...}, ...]}, one object per row
// with every field; CSV: a header line, then one line per row with the same fields. Strings come from fixed sets
// (names, types, flags), so neither format needs escaping beyond what is done here.
#include "report.hpp"

#include <cmath>
#include <cstdio>

namespace pt {

namespace {

constexpr const char* kFields = "program,backend,platform,mm,group,blocks,threads,type,op,size,iters,metric,value,unit,"
                                "pes,check";

/// A number JSON can hold: a non-finite value (a zero time) becomes null, which the checker rejects.
std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

} // namespace

void report::header(const char* what) const {
  if (!printer_) return;
  const bool host = run_.platform == "host";
  std::printf("# %s: %s\n", run_.program.c_str(), what);
  std::printf("# %s, platform %s%s, %d PEs\n", run_.version.c_str(), run_.platform.c_str(),
              host ? " (CPU threads: these are CPU numbers, not GPU ones)" : "", run_.pes);
  const char* formula = run_.m == metric::latency     ? "time per iteration, in microseconds"
                        : run_.m == metric::bandwidth ? "SIZE x ITERS / time, GB/s = 1e9 B/s"
                                                      : "calls (messages or AMOs) x ITERS / time, in 1e6 per second";
  std::printf("# value: %s; median of %d timed launch(es) of ITERS iterations (the slowest PE's event time), after "
              "a warm-up launch of %d\n",
              formula, opts_.repeats, opts_.warmup);
  std::printf("%-10s %-13s %-6s %6s %7s %-9s %-12s %12s %7s %14s %-7s %s\n", "#backend", "mm", "group", "blocks",
              "threads", "type", "op", "size_B", "iters", "value", "unit", "check");
  std::fflush(stdout);
}

void report::add(const row& r) {
  rows_.push_back(r);
  if (!printer_) return;
  std::printf("%-10s %-13s %-6s %6u %7u %-9s %-12s %12zu %7d %14.6g %-7s %s\n", r.backend.c_str(), r.mm.c_str(),
              r.group.c_str(), r.blocks, r.threads, r.type.c_str(), r.op.c_str(), r.size, r.iters, r.value,
              unit_of(run_.m), r.ok ? "ok" : "FAIL");
  std::fflush(stdout);
}

bool report::write_files() const {
  if (!printer_) return true;
  bool ok = true;
  if (!opts_.json.empty()) {
    std::FILE* f = std::fopen(opts_.json.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "%s: cannot write %s\n", run_.program.c_str(), opts_.json.c_str());
      ok = false;
    } else {
      std::fprintf(f, "{\"suite\": \"portshmem-perftest\", \"format\": 1, \"program\": %s, \"rows\": [",
                   quoted(run_.program).c_str());
      for (std::size_t i = 0; i < rows_.size(); ++i) {
        const row& r = rows_[i];
        std::fprintf(f,
                     "%s\n  {\"program\": %s, \"backend\": %s, \"platform\": %s, \"mm\": %s, \"group\": %s, "
                     "\"blocks\": %u, \"threads\": %u, \"type\": %s, \"op\": %s, \"size\": %zu, \"iters\": %d, "
                     "\"metric\": %s, \"value\": %s, \"unit\": %s, \"pes\": %d, \"check\": %s}",
                     i ? "," : "", quoted(run_.program).c_str(), quoted(r.backend).c_str(),
                     quoted(run_.platform).c_str(), quoted(r.mm).c_str(), quoted(r.group).c_str(), r.blocks, r.threads,
                     quoted(r.type).c_str(), quoted(r.op).c_str(), r.size, r.iters, quoted(metric_name(run_.m)).c_str(),
                     json_number(r.value).c_str(), quoted(unit_of(run_.m)).c_str(), run_.pes,
                     r.ok ? "\"ok\"" : "\"FAIL\"");
      }
      std::fprintf(f, "\n]}\n");
      ok = std::fclose(f) == 0 && ok;
    }
  }
  if (!opts_.csv.empty()) {
    std::FILE* f = std::fopen(opts_.csv.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "%s: cannot write %s\n", run_.program.c_str(), opts_.csv.c_str());
      ok = false;
    } else {
      std::fprintf(f, "%s\n", kFields);
      for (const row& r : rows_) {
        std::fprintf(f, "%s,%s,%s,%s,%s,%u,%u,%s,%s,%zu,%d,%s,%s,%s,%d,%s\n", run_.program.c_str(), r.backend.c_str(),
                     run_.platform.c_str(), r.mm.c_str(), r.group.c_str(), r.blocks, r.threads, r.type.c_str(),
                     r.op.c_str(), r.size, r.iters, metric_name(run_.m),
                     std::isfinite(r.value) ? json_number(r.value).c_str() : "nan", unit_of(run_.m), run_.pes,
                     r.ok ? "ok" : "FAIL");
      }
      ok = std::fclose(f) == 0 && ok;
    }
  }
  return ok;
}

} // namespace pt
