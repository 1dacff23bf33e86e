// portshmem-info: what to paste into a bug report. What this portshmem is and how it was built, the machine's GPUs,
// links, NICs and MPS state, and every PORTSHMEM_* variable with its effective value and where it came from.
// Needs no MPI launch. Exit status 1 when a PORTSHMEM_* value is refused (portshmem_init would fail), else 0.
#include <unistd.h>

#include <cstdio>

#include "env.hpp"
#include "info_report.hpp"

namespace portshmem::info {

void transport_section(report& out) {
  out.section("transports");
  out.note("chosen per peer at init, so known only inside a job: run the job with PORTSHMEM_INFO=1 and PE 0 prints");
  out.note("each PE's node and transport (self, ipc or rdma) and the lowering (relaxed or strict)");
}

} // namespace portshmem::info

int main() {
  using namespace portshmem;
  info::report out;
  info::build_section(out);
  info::system_section(out);
  info::gpu_section(out);
  info::nic_section(out, "/sys");
  info::mps_section(out, detail::process_env(), "/proc");
  const bool env_ok = info::env_section(out, detail::process_env(), environ);
  info::transport_section(out);
  std::fputs(out.text().c_str(), stdout);
  return env_ok ? 0 : 1;
}
