// NVML through dlopen (libnvidia-ml.so.1 comes with the NVIDIA driver, so no build needs its headers): the driver,
// each GPU's name, bus id, memory and compute mode, its active NVLinks, and the topology between each pair.
#include <dlfcn.h>

#include <string>
#include <vector>

#include "info_report.hpp"

namespace portshmem::info {
namespace {

// The few NVML types used, as nvml.h defines them (a stable C ABI).
using nvml_return = int; // nvmlReturn_t; 0 is NVML_SUCCESS
using nvml_device = struct nvml_device_opaque*;
struct nvml_pci_info { // nvmlPciInfo_t (the _v3 query)
  char bus_id_legacy[16];
  unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
  char bus_id[32];
};
struct nvml_memory { // nvmlMemory_t
  unsigned long long total, free, used;
};

struct nvml_api {
  nvml_return (*init)();
  nvml_return (*shutdown)();
  const char* (*error_string)(nvml_return);
  nvml_return (*driver_version)(char*, unsigned);
  nvml_return (*count)(unsigned*);
  nvml_return (*handle)(unsigned, nvml_device*);
  nvml_return (*name)(nvml_device, char*, unsigned);
  nvml_return (*pci)(nvml_device, nvml_pci_info*);
  nvml_return (*memory)(nvml_device, nvml_memory*);
  nvml_return (*compute_mode)(nvml_device, int*);
  nvml_return (*nvlink_state)(nvml_device, unsigned, int*);
  nvml_return (*common_ancestor)(nvml_device, nvml_device, int*);
};

template <class F>
bool bind(void* lib, const char* symbol, F& f) {
  f = reinterpret_cast<F>(dlsym(lib, symbol));
  return f != nullptr;
}

const char* compute_mode_name(int mode) {
  switch (mode) {
  case 0:
    return "default";
  case 1:
    return "exclusive thread";
  case 2:
    return "prohibited";
  case 3:
    return "exclusive process (only one process, or the MPS server, may use it)";
  }
  return "unknown";
}

const char* topology_name(int level) { // nvmlGpuTopologyLevel_t
  switch (level) {
  case 0:
    return "same board";
  case 10:
    return "one PCIe switch";
  case 20:
    return "several PCIe switches";
  case 30:
    return "PCIe host bridge";
  case 40:
    return "same NUMA node";
  case 50:
    return "across NUMA nodes";
  }
  return "unknown";
}

void describe(report& out, const nvml_api& nv) {
  char driver[96] = {};
  if (nv.driver_version(driver, sizeof driver) == 0) out.line("NVIDIA driver", driver);
  unsigned count = 0;
  if (const nvml_return r = nv.count(&count); r != 0) {
    out.line("NVML", std::string("device count failed: ") + nv.error_string(r));
    return;
  }
  std::vector<nvml_device> devices;
  for (unsigned i = 0; i < count; ++i) {
    nvml_device d = nullptr;
    if (nv.handle(i, &d) != 0) continue;
    devices.push_back(d);
    char name[96] = {};
    nv.name(d, name, sizeof name);
    std::string text = name;
    nvml_pci_info pci{};
    if (nv.pci(d, &pci) == 0) text += ", PCI " + std::string(pci.bus_id);
    nvml_memory memory{};
    if (nv.memory(d, &memory) == 0) text += ", " + detail::format_size(memory.total / (1 << 20) * (1 << 20));
    int mode = 0;
    if (nv.compute_mode(d, &mode) == 0) text += std::string(", compute mode ") + compute_mode_name(mode);
    int links = 0;
    for (unsigned link = 0; link < 32; ++link) {
      int active = 0;
      if (nv.nvlink_state(d, link, &active) != 0) break; // past the last link, or no NVLink
      links += active != 0;
    }
    text += ", " + std::to_string(links) + " NVLinks active";
    out.line("NVML GPU " + std::to_string(i), text);
  }
  for (std::size_t a = 0; a < devices.size(); ++a) {
    for (std::size_t b = a + 1; b < devices.size(); ++b) {
      int level = -1;
      if (nv.common_ancestor(devices[a], devices[b], &level) == 0)
        out.line("NVML GPU " + std::to_string(a) + " <-> GPU " + std::to_string(b), topology_name(level));
    }
  }
}

} // namespace

void nvml_lines(report& out) {
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    out.line("NVML", "not loaded (libnvidia-ml.so.1: no NVIDIA driver here)");
    return;
  }
  nvml_api nv{};
  const bool bound =
      bind(lib, "nvmlInit_v2", nv.init) && bind(lib, "nvmlShutdown", nv.shutdown) &&
      bind(lib, "nvmlErrorString", nv.error_string) && bind(lib, "nvmlSystemGetDriverVersion", nv.driver_version) &&
      bind(lib, "nvmlDeviceGetCount_v2", nv.count) && bind(lib, "nvmlDeviceGetHandleByIndex_v2", nv.handle) &&
      bind(lib, "nvmlDeviceGetName", nv.name) && bind(lib, "nvmlDeviceGetPciInfo_v3", nv.pci) &&
      bind(lib, "nvmlDeviceGetMemoryInfo", nv.memory) && bind(lib, "nvmlDeviceGetComputeMode", nv.compute_mode) &&
      bind(lib, "nvmlDeviceGetNvLinkState", nv.nvlink_state) &&
      bind(lib, "nvmlDeviceGetTopologyCommonAncestor", nv.common_ancestor);
  if (!bound) {
    out.line("NVML", "libnvidia-ml.so.1 lacks a function this tool uses (a driver older than 2018?)");
  } else if (const nvml_return r = nv.init(); r != 0) {
    out.line("NVML", std::string("initialization failed: ") + nv.error_string(r));
  } else {
    describe(out, nv);
    nv.shutdown();
  }
  dlclose(lib);
}

} // namespace portshmem::info
