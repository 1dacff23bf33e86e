// The GPU section: the devices of this build's GPU runtime (CUDA or HIP), then what NVML and ROCm SMI report, which
// also shows GPUs a host-platform build does not use.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "info_report.hpp"
#include "portshmem/config.h"
#include "portshmem/gpu_runtime.hpp"

namespace portshmem::info {
namespace {

#if !PORTSHMEM_PLATFORM_HOST
std::string version_text(int v) { // CUDA and HIP encode major * 1000 + minor * 10 (HIP adds a patch below)
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string pci_text(const hipDeviceProp_t& p) {
  char text[32];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x.0", unsigned(p.pciDomainID), unsigned(p.pciBusID),
                unsigned(p.pciDeviceID));
  return text;
}
#endif

} // namespace

void gpu_runtime_lines(report& out) {
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"})
    if (const char* value = std::getenv(name)) out.line(name, value);
#if PORTSHMEM_PLATFORM_HOST
  out.line("runtime", "none: the host platform runs kernels on CPU threads (GPUs below are not used by this build)");
#else
  int runtime = 0, driver = 0;
#if PORTSHMEM_PLATFORM_NVIDIA
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  out.line("runtime", "CUDA " + version_text(runtime) + ", driver supports CUDA " + version_text(driver));
#else
  hipRuntimeGetVersion(&runtime);
  hipDriverGetVersion(&driver);
  out.line("runtime", "HIP " + std::to_string(runtime) + ", driver " + std::to_string(driver));
#endif
  int count = 0;
  if (const hipError_t e = hipGetDeviceCount(&count); e != hipSuccess) {
    out.line("devices", std::string("none usable: ") + hipGetErrorString(e));
    return;
  }
  out.line("devices", std::to_string(count));
  for (int d = 0; d < count; ++d) {
    hipDeviceProp_t p{};
    if (hipGetDeviceProperties(&p, d) != hipSuccess) continue;
#if PORTSHMEM_PLATFORM_NVIDIA
    const std::string arch = "sm_" + std::to_string(p.major) + std::to_string(p.minor);
#else
    const std::string arch = p.gcnArchName;
#endif
    out.line("GPU " + std::to_string(d),
             std::string(p.name) + ", " + arch + ", " + std::to_string(p.multiProcessorCount) + " multiprocessors, " +
                 detail::format_size(p.totalGlobalMem / (1 << 20) * (1 << 20)) + ", PCI " + pci_text(p));
  }
  std::string peers;
  for (int a = 0; a < count; ++a) {
    for (int b = 0; b < count; ++b) {
      int can = 0;
      if (a != b && hipDeviceCanAccessPeer(&can, a, b) == hipSuccess && !can)
        peers += (peers.empty() ? "" : ", ") + std::to_string(a) + "->" + std::to_string(b);
    }
  }
  if (count > 1) out.line("peer access", peers.empty() ? "every pair" : "missing for " + peers);
#endif
}

void gpu_section(report& out) {
  out.section("GPUs");
  gpu_runtime_lines(out);
  nvml_lines(out);
  rocm_smi_lines(out);
}

} // namespace portshmem::info
