// The build and system sections: what this portshmem is, how it was configured, and the machine it runs on.
#include <mpi.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "env.hpp"
#include "info_report.hpp"
#include "portshmem/config.h"
#include "portshmem/portshmem.h"

// Build options, passed by src/tools/CMakeLists.txt from the configuration of this build.
#ifndef PORTSHMEM_INFO_COMPILER
#define PORTSHMEM_INFO_COMPILER "unknown"
#endif
#ifndef PORTSHMEM_INFO_BUILD_TYPE
#define PORTSHMEM_INFO_BUILD_TYPE "unknown"
#endif
#ifndef PORTSHMEM_INFO_SANITIZE
#define PORTSHMEM_INFO_SANITIZE ""
#endif
#ifndef PORTSHMEM_INFO_IBVERBS
#define PORTSHMEM_INFO_IBVERBS 0
#endif
#ifndef PORTSHMEM_INFO_GPU_ARCHS
#define PORTSHMEM_INFO_GPU_ARCHS ""
#endif

namespace portshmem::info {
namespace {

std::string first_line(const char* text) {
  const std::string all(text);
  return all.substr(0, all.find('\n'));
}

} // namespace

void build_section(report& out) {
  out.section("portshmem");
  out.line("version", PORTSHMEM_VERSION_STRING);
  out.line("platform", portshmem_platform());
  out.section("build");
  out.line("compiler", PORTSHMEM_INFO_COMPILER);
  out.line("build type", PORTSHMEM_INFO_BUILD_TYPE);
  if (*PORTSHMEM_INFO_GPU_ARCHS) out.line("GPU architectures", PORTSHMEM_INFO_GPU_ARCHS);
  out.line("sanitizers", *PORTSHMEM_INFO_SANITIZE ? PORTSHMEM_INFO_SANITIZE : "none");
  out.line("RDMA transport", PORTSHMEM_ENABLE_RDMA ? "built (PORTSHMEM_ENABLE_RDMA=ON)"
                                                   : "not built (PORTSHMEM_ENABLE_RDMA=OFF: load/store peers only)");
  if (PORTSHMEM_ENABLE_RDMA) {
    out.line("ibverbs network", PORTSHMEM_INFO_IBVERBS ? "built (libibverbs)" : "not built (MPI network only)");
  }
  out.line("config.h", "PORTSHMEM_PLATFORM_HOST=" + std::to_string(PORTSHMEM_PLATFORM_HOST) +
                           " PORTSHMEM_PLATFORM_NVIDIA=" + std::to_string(PORTSHMEM_PLATFORM_NVIDIA) +
                           " PORTSHMEM_PLATFORM_AMD=" + std::to_string(PORTSHMEM_PLATFORM_AMD) +
                           " PORTSHMEM_VERSION_STRING=" PORTSHMEM_VERSION_STRING);
  // MPI_Get_library_version may be called before MPI_Init, so the tool needs no MPI launch.
  char mpi[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  out.line("MPI", MPI_Get_library_version(mpi, &length) == MPI_SUCCESS ? first_line(mpi) : "unknown");
}

void system_section(report& out) {
  out.section("system");
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) out.line("host", host);
  utsname uts{};
  if (uname(&uts) == 0) out.line("kernel", std::string(uts.sysname) + " " + uts.release + " " + uts.machine);
  out.line("CPUs", std::to_string(std::thread::hardware_concurrency()));
  struct statvfs shm {};
  if (statvfs("/dev/shm", &shm) == 0) {
    const auto bytes = [&](unsigned long long blocks) {
      return detail::format_size(blocks * shm.f_frsize / (1024 * 1024) * (1024 * 1024));
    };
    out.line("/dev/shm",
             bytes(shm.f_bavail) + " free of " + bytes(shm.f_blocks) +
                 (PORTSHMEM_PLATFORM_HOST ? " (the host platform's heaps: PORTSHMEM_HEAP_SIZE per PE)" : ""));
  } else {
    out.line("/dev/shm", "not mounted");
  }
}

} // namespace portshmem::info
