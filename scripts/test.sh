#!/usr/bin/env bash
# Test: installs what is missing, builds portshmem (the GPU of this machine if any, else the host platform) with its
# tests, and runs them: unit tests, then the multi-process tests under mpirun with 2, 4 and 8 PEs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
build=${PORTSHMEM_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DPORTSHMEM_PLATFORM="${PORTSHMEM_PLATFORM:-auto}" \
  -DPORTSHMEM_GTEST_SOURCE="${PORTSHMEM_GTEST_SOURCE:-}"
cmake --build "$build"
ctest --test-dir "$build" --output-on-failure
