// portshmem-info: what this portshmem was built for and how the environment configures it. Needs no MPI launch.
#include <cstdio>
#include <string>

#include "env.hpp"
#include "portshmem/portshmem.h"

int main() {
  using namespace portshmem::detail;
  std::printf("%s\nplatform: %s\n\nenvironment (docs/env.md):\n", portshmem_version_string(), portshmem_platform());
  config cfg;
  std::string error;
  const bool ok = load_config(process_env(), &cfg, &error) == PORTSHMEM_SUCCESS;
  if (!ok) {
    std::printf("  error: %s\n", error.c_str());
    cfg = default_config();
  }
  for (const env_entry& e : env_registry()) {
    std::printf("  %-22s %-8s = %-8s (default %s)\n      %s\n", e.name, e.type, e.show(cfg).c_str(), e.default_value,
                e.help);
  }
  return ok ? 0 : 1;
}
