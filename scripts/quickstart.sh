#!/usr/bin/env bash
# Quickstart: installs what is missing, builds portshmem for the GPU of this machine (NVIDIA or AMD) or else for the
# host platform (CPU threads), and runs the examples (hello, ring, put_signal) on 4 PEs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
build=${PORTSHMEM_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DPORTSHMEM_PLATFORM="${PORTSHMEM_PLATFORM:-auto}" -DPORTSHMEM_BUILD_TESTS=OFF
cmake --build "$build"
scripts/portshmem-run -np 4 "$build/examples/01_hello"
scripts/portshmem-run -np 4 "$build/examples/02_ring"
scripts/portshmem-run -np 4 "$build/examples/03_put_signal"
