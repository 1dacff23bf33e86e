#!/usr/bin/env bash
# Test: installs what is missing, builds portshmem (the GPU of this machine if any, else the host platform) with its
# tests, and runs them: unit tests, then the multi-process tests under mpirun with 2, 4 and 8 PEs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
build=${PORTSHMEM_BUILD_DIR:-build}
# Tests ON explicitly: the quickstart configures the same build directory with them OFF, and the cache keeps that.
cmake -S . -B "$build" -G Ninja -DPORTSHMEM_PLATFORM="${PORTSHMEM_PLATFORM:-auto}" -DPORTSHMEM_BUILD_TESTS=ON \
  -DPORTSHMEM_GTEST_SOURCE="${PORTSHMEM_GTEST_SOURCE:-}"
cmake --build "$build"
# A run that found no tests is a failure, not a pass.
ctest --test-dir "$build" --output-on-failure --no-tests=error
