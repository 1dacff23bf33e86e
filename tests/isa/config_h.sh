# shellcheck shell=bash
# Sourced by the ISA scripts: isa_config_h FILE NVIDIA AMD writes a portshmem/config.h selecting one GPU platform (what
# CMake generates from include/portshmem/config.h.in), for compiling probes without a configured build.
isa_config_h() {
  mkdir -p "$(dirname "$1")"
  cat >"$1" <<CFG
#ifndef PORTSHMEM_CONFIG_H
#define PORTSHMEM_CONFIG_H
#define PORTSHMEM_PLATFORM_HOST 0
#define PORTSHMEM_PLATFORM_NVIDIA $2
#define PORTSHMEM_PLATFORM_AMD $3
#define PORTSHMEM_ENABLE_RDMA 1
#define PORTSHMEM_VERSION_MAJOR 0
#define PORTSHMEM_VERSION_MINOR 0
#define PORTSHMEM_VERSION_PATCH 0
#define PORTSHMEM_VERSION_STRING "0.0.0-isa"
#endif
CFG
}
