#!/usr/bin/env bash
# Installs what portshmem needs on Debian 12 / Ubuntu with apt, if it is missing: a C++20 compiler, CMake, Ninja,
# pkg-config, Open MPI, GoogleTest (not needed when PORTSHMEM_GTEST_SOURCE names a GoogleTest source tree), and
# libibverbs' headers and library (the ibverbs network is built and unit-tested against a fake NIC; no device needed).
# With --amd also clang-19, clang-tools-19 (its offload bundler), lld-19 and Debian's HIP headers (to build the amd
# platform); nvcc comes with CUDA. With --fuzz clang-19 and its libFuzzer and sanitizer runtimes (scripts/fuzz.sh).
set -euo pipefail
need=()
command -v cmake >/dev/null || need+=(cmake)
command -v ninja >/dev/null || need+=(ninja-build)
command -v g++ >/dev/null || need+=(g++)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v mpicxx >/dev/null || need+=(libopenmpi-dev openmpi-bin)
[ -f /usr/include/gtest/gtest.h ] || [ -n "${PORTSHMEM_GTEST_SOURCE:-}" ] || need+=(libgtest-dev)
[ -f /usr/include/infiniband/verbs.h ] || need+=(libibverbs-dev)
if [ "${1:-}" = "--amd" ]; then
  command -v clang++-19 >/dev/null || need+=(clang-19)
  command -v clang-offload-bundler-19 >/dev/null || [ -x /usr/lib/llvm-19/bin/clang-offload-bundler ] || need+=(clang-tools-19)
  [ -x /usr/lib/llvm-19/bin/ld.lld ] || need+=(lld-19)
  [ -f /usr/include/hip/hip_runtime_api.h ] || need+=(libamdhip64-dev)
fi
if [ "${1:-}" = "--fuzz" ]; then
  command -v clang++-19 >/dev/null || need+=(clang-19)
  [ -f /usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.fuzzer-x86_64.a ] || need+=(libclang-rt-19-dev)
fi
[ ${#need[@]} -eq 0 ] && exit 0
command -v apt-get >/dev/null || { echo "install-deps: missing ${need[*]} and no apt-get to install them" >&2; exit 1; }
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
echo "install-deps: installing ${need[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
