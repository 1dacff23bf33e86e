#!/usr/bin/env bash
# Installs what portshmem needs on Debian 12 / Ubuntu (apt): a C++20 compiler, CMake, Ninja, Open MPI, GoogleTest.
# With --amd also clang-19 and Debian's HIP headers (to build the amd platform); nvcc comes from CUDA itself.
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config libopenmpi-dev openmpi-bin libgtest-dev)
[ "${1:-}" = "--amd" ] && packages+=(clang-19 libamdhip64-dev)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
