// ROCm SMI through dlopen (it comes with ROCm, so no build needs its headers): each AMD GPU's name and bus id, and
// the link (XGMI or PCIe) and hop count between each pair.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "info_report.hpp"

namespace portshmem::info {
namespace {

// The few ROCm SMI types used, as rocm_smi.h defines them (a stable C ABI).
using rsmi_status = int; // rsmi_status_t; 0 is RSMI_STATUS_SUCCESS

struct rsmi_api {
  rsmi_status (*init)(std::uint64_t flags);
  rsmi_status (*shut_down)();
  rsmi_status (*status_string)(rsmi_status, const char**);
  rsmi_status (*count)(std::uint32_t*);
  rsmi_status (*name)(std::uint32_t, char*, std::size_t);
  rsmi_status (*pci_id)(std::uint32_t, std::uint64_t*);
  rsmi_status (*link_type)(std::uint32_t, std::uint32_t, std::uint64_t* hops, int* type);
};

template <class F>
bool bind(void* lib, const char* symbol, F& f) {
  f = reinterpret_cast<F>(dlsym(lib, symbol));
  return f != nullptr;
}

std::string bdf_text(std::uint64_t id) { // domain << 32 | bus << 8 | device << 3 | function
  char text[32];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", unsigned(id >> 32), unsigned((id >> 8) & 0xff),
                unsigned((id >> 3) & 0x1f), unsigned(id & 0x7));
  return text;
}

const char* link_name(int type) { // RSMI_IO_LINK_TYPE
  return type == 1 ? "PCIe" : type == 2 ? "XGMI" : "unknown link";
}

void* open_library() {
  for (const char* name : {"librocm_smi64.so.7", "librocm_smi64.so.6", "librocm_smi64.so.5", "librocm_smi64.so.1",
                           "librocm_smi64.so", "/opt/rocm/lib/librocm_smi64.so"}) {
    if (void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) return lib;
  }
  return nullptr;
}

void describe(report& out, const rsmi_api& smi) {
  std::uint32_t count = 0;
  if (smi.count(&count) != 0) return;
  for (std::uint32_t i = 0; i < count; ++i) {
    char name[128] = {};
    smi.name(i, name, sizeof name);
    std::uint64_t bdf = 0;
    out.line("ROCm SMI GPU " + std::to_string(i),
             std::string(name) + (smi.pci_id(i, &bdf) == 0 ? ", PCI " + bdf_text(bdf) : ""));
  }
  for (std::uint32_t a = 0; a < count; ++a) {
    for (std::uint32_t b = a + 1; b < count; ++b) {
      std::uint64_t hops = 0;
      int type = 0;
      if (smi.link_type(a, b, &hops, &type) == 0)
        out.line("ROCm SMI GPU " + std::to_string(a) + " <-> GPU " + std::to_string(b),
                 std::string(link_name(type)) + ", " + std::to_string(hops) + " hop(s)");
    }
  }
}

} // namespace

void rocm_smi_lines(report& out) {
  void* lib = open_library();
  if (lib == nullptr) {
    out.line("ROCm SMI", "not loaded (librocm_smi64: no ROCm here)");
    return;
  }
  rsmi_api smi{};
  const bool bound = bind(lib, "rsmi_init", smi.init) && bind(lib, "rsmi_shut_down", smi.shut_down) &&
                     bind(lib, "rsmi_status_string", smi.status_string) &&
                     bind(lib, "rsmi_num_monitor_devices", smi.count) && bind(lib, "rsmi_dev_name_get", smi.name) &&
                     bind(lib, "rsmi_dev_pci_id_get", smi.pci_id) &&
                     bind(lib, "rsmi_topo_get_link_type", smi.link_type);
  if (!bound) {
    out.line("ROCm SMI", "librocm_smi64 lacks a function this tool uses");
  } else if (const rsmi_status r = smi.init(0); r != 0) {
    const char* why = "unknown error";
    smi.status_string(r, &why);
    out.line("ROCm SMI", std::string("initialization failed: ") + why);
  } else {
    describe(out, smi);
    smi.shut_down();
  }
  dlclose(lib);
}

} // namespace portshmem::info
