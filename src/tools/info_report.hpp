// portshmem-info's sections: each function appends one section of "key: value" lines to a report. Every probe of
// the machine (GPU management libraries, libibverbs) is loaded with dlopen when present, so the tool has no build
// dependency on them and runs, saying what it could not find, wherever portshmem is installed.
#pragma once

#include <string>
#include <string_view>

#include "env.hpp"

namespace portshmem::info {

/// The text being built: "== title" headers, then indented "key: value" lines.
class report {
 public:
  void section(std::string_view title);
  void line(std::string_view key, std::string_view value);
  /// A line of its own under the current section (no key).
  void note(std::string_view text);
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

/// Version, platform, config.h and the build options the library was configured with, the MPI library.
void build_section(report& out);

/// Host name, kernel, CPUs, and the free space of /dev/shm (where the host platform keeps its heaps).
void system_section(report& out);

/// The GPU runtime's devices (this build's platform), then NVML (NVIDIA) and ROCm SMI (AMD) when they load.
void gpu_section(report& out);

/// Parts of gpu_section: the runtime this build uses, and the management libraries (dlopen, any platform).
void gpu_runtime_lines(report& out);
void nvml_lines(report& out);
void rocm_smi_lines(report& out);

/// RDMA devices as libibverbs lists them and their ports, link layers and rates from sysfs under sysfs_root
/// ("/sys" on a real machine), and whether GPUDirect RDMA's kernel module is loaded.
void nic_section(report& out, const std::string& sysfs_root);

/// CUDA MPS: the pipe directory (CUDA_MPS_PIPE_DIRECTORY through lookup, else CUDA's default), whether its control
/// pipe exists, and which MPS processes run (from proc_root, "/proc" on a real machine).
void mps_section(report& out, const detail::env_lookup& lookup, const std::string& proc_root);

/// Every registered PORTSHMEM_* variable: its effective value and where it came from (default or environment),
/// each refused value with init's message, and PORTSHMEM_* names in envp that are not portshmem's. Returns false
/// when a value is refused (portshmem_init would fail with PORTSHMEM_ERR_ENV).
bool env_section(report& out, const detail::env_lookup& lookup, const char* const* envp);

/// Per-peer transports exist only inside a job: says how to see them.
void transport_section(report& out);

} // namespace portshmem::info
