// The MPS section: whether CUDA MPS runs (portshmem-run starts it when PEs share a GPU) and where its pipes are.
#include <filesystem>
#include <fstream>
#include <string>

#include "info_report.hpp"

namespace portshmem::info {
namespace {

namespace fs = std::filesystem;

/// The PIDs (as text) of processes under proc_root whose program is named program.
std::string pids_of(const fs::path& proc_root, const std::string& program) {
  std::string pids;
  std::error_code ec;
  for (fs::directory_iterator it(proc_root, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string pid = it->path().filename();
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(it->path() / "cmdline");
    std::string argv0;
    std::getline(in, argv0, '\0');
    if (fs::path(argv0).filename() == program) pids += (pids.empty() ? "" : ", ") + pid;
  }
  return pids;
}

/// Where scripts/portshmem-run points the daemon it starts.
constexpr const char* kRunPipeDir = "/tmp/portshmem-mps-pipe";

std::string control_pipe(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir / "control", ec) ? ": control pipe present" : ": no control pipe";
}

} // namespace

void mps_section(report& out, const detail::env_lookup& lookup, const std::string& proc_root) {
  out.section("MPS (CUDA Multi-Process Service)");
  const char* set = lookup("CUDA_MPS_PIPE_DIRECTORY");
  const std::string pipe_dir = set && *set ? set : "/tmp/nvidia-mps";
  out.line("pipe directory",
           pipe_dir + (set && *set ? " (CUDA_MPS_PIPE_DIRECTORY)" : " (CUDA's default)") + control_pipe(pipe_dir));
  out.line("portshmem-run's pipe directory", std::string(kRunPipeDir) + control_pipe(kRunPipeDir));
  for (const char* program : {"nvidia-cuda-mps-control", "nvidia-cuda-mps-server"}) {
    const std::string pids = pids_of(proc_root, program);
    out.line(program, pids.empty() ? "not running" : "running, PID " + pids);
  }
  out.note("portshmem-run starts MPS when more PEs than GPUs share a node and stops it at the end; a daemon still "
           "running from an earlier run is used as it is");
}

} // namespace portshmem::info
