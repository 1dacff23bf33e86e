// One program of the suite from start to end (harness.hpp: run_program): flags, the backend's start with a heap
// large enough for the sweep, the checks every family shares, the family, the machine-readable files, the exit code.
#include <cstdio>
#include <string>
#include <vector>

#include "harness.hpp"

namespace pt {

namespace {

/// The largest symmetric buffer a family allocates (it allocates at most two, plus a few words).
std::size_t largest_buffer(const program_info& p, const options& o) {
  if (p.id == program::put_msg_rate) return o.max_bytes * o.blocks * o.threads; // one message per group, at most
  if (p.fam == family::atomic) return o.max_bytes + o.type.size;
  return o.max_bytes;
}

std::string label_of(const program_info& p, const options& o) {
  if (o.bidir && p.id == program::put_bw) return "shmem_put_bibw";
  if (o.bidir && p.id == program::get_bw) return "shmem_get_bibw";
  return p.name;
}

} // namespace

int run_program(program id, int argc, char** argv) {
  const program_info& p = info_of(id);
  const options defaults = defaults_for(p, std::string(host::platform()) == "host");
  options o = defaults;
  const std::string error = parse(p, argc, argv, o);
  const std::size_t heap = 2 * largest_buffer(p, o) + (std::size_t(64) << 20);
  if (!host::init(&argc, &argv, heap)) return 1;
  const int me = host::my_pe();
  auto finish = [](int rc) {
    host::finalize();
    return rc;
  };
  auto refuse = [&](const std::string& why) {
    if (me == 0) std::fprintf(stderr, "%s: %s\n", p.name, why.c_str());
    return finish(2);
  };
  if (error == "help") {
    if (me == 0) std::fputs(usage(p, defaults).c_str(), stdout);
    return finish(0);
  }
  if (!error.empty()) return refuse(error + " (-h lists the flags)");
  if (host::n_pes() != 2) return refuse("runs on exactly 2 PEs (portshmem-run -np 2)");
  for (const mm_set mm : o.mms) {
    if (!host::supports(mm)) return refuse(std::string("--mm ") + kMmNames[int(mm)] + " needs the portshmem backend");
  }
  if (o.raw && !host::supports_raw()) return refuse("--raw needs the portshmem backend");
  // A variant that changes none of the program's calls would repeat strict's row under another name; one whose scope
  // does not reach the peer would be a broken promise (memory_model.md, A16: no ordering toward the peer, so an
  // unsound row; debug builds refuse such a call with PORTSHMEM_ERR_SCOPE). Both are skipped with a line saying why.
  std::vector<mm_set> runs;
  for (const mm_set mm : o.mms) {
    std::string why;
    if (!applies(mm, id)) {
      why = std::string("its calls (") + calls_of(id) + ") take no " + kMmCategory[int(mm)] + " qualifier";
    } else if (kMmChanges[int(mm)] == qual::scope &&
               sum_over_pes(host::scope_reaches(mm, 1 - me, why) ? 0 : 1) != 0) { // every PE decides alike
      why += ": the scope does not reach it (memory_model.md A16; debug builds refuse the call, PORTSHMEM_ERR_SCOPE)";
    } else {
      runs.push_back(mm);
      continue;
    }
    if (me == 0) std::fprintf(stderr, "%s: --mm %s skipped: %s\n", p.name, kMmNames[int(mm)], why.c_str());
  }
  if (me == 0 && host::lowers_strictly() && (runs.size() > 1 || (runs.size() == 1 && runs[0] != mm_set::strict))) {
    std::fprintf(stderr,
                 "%s: this job lowers every call strictly (portshmem_ctx_t.strict, PORTSHMEM_RELAXED): the "
                 "variants' qualifiers change no instruction in this run\n",
                 p.name);
  }
  o.mms = runs;
  for (const group g : o.groups) {
    if (g == group::warp && p.grid && o.threads % host::wave_size() != 0) {
      return refuse("-s warp needs -t to be a multiple of the warp size " + std::to_string(host::wave_size()));
    }
  }

  run_info run{label_of(p, o), host::platform(), host::version(), o.msgrate ? metric::rate : p.m,
               host::n_pes(),  o.blocks,         o.threads};
  if (p.id == program::put_bibw) o.bidir = true;
  report out(run, o, me == 0);
  out.header(p.what);
  bool ok = false;
  switch (p.fam) {
  case family::bw:
    ok = run_bw(p, o, out);
    break;
  case family::latency:
    ok = run_latency(p, o, out);
    break;
  case family::atomic:
    ok = run_atomic(p, o, out);
    break;
  case family::pingpong:
    ok = run_pingpong(p, o, out);
    break;
  }
  ok = sum_over_pes(host::device_ok() ? 0 : 1) == 0 && ok; // every PE exits alike
  if (me == 0 && !ok) std::printf("FAIL: a result differs from the expected values (stderr says which)\n");
  if (!out.write_files()) ok = false;
  host::barrier();
  return finish(ok ? 0 : 1);
}

} // namespace pt
