#!/usr/bin/env bash
# Builds the GPU platforms on a machine without GPUs — nvidia (nvcc, sm_90) and amd (clang-19 with Debian's HIP
# headers, gfx942): library, examples, benchmarks and workloads; amd's library for gfx90a too (each offload target is
# a whole device compilation; the arch-specific lowering of both is what the ISA checks compare) — then runs the ISA
# checks, which also fail when docs/lowering.md or the cost table in docs/performance.md is stale, the code-size
# budgets of single calls (tests/isa/code_size.sh), and the mutation test of the ISA checks (known-bad edits of the
# arch layer must each make a check fail). A missing toolchain is an error, never a silent skip (the ISA scripts exit
# 77 for that, which fails this script too).
#
# NVIDIA_TESTS=ON and AMD_TESTS=ON build that platform's tests too (nvidia about 10 minutes more on two cores, amd
# about 8). CI leaves them out for its time limit: on nvidia they are built wherever they run (the GPU machine, by
# scripts/test.sh), on amd nothing runs them. Run them before landing a change to test code only a GPU build compiles.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --amd
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || { echo "compile-checks: nvcc not found at $nvcc (set CUDACXX)" >&2; exit 1; }

start=$SECONDS
took() { echo "compile-checks: $1 took $((SECONDS - start)) s"; start=$SECONDS; }
# Release: these builds are compile checks (nothing here runs them), and debug info is a fifth of a device compile.
nvidia_tests=${NVIDIA_TESTS:-OFF}
amd_tests=${AMD_TESTS:-OFF}
echo "== nvidia platform (nvcc sm_90): library, examples, benchmarks and workloads (tests: $nvidia_tests)"
cmake -S . -B build-nvidia -G Ninja -DPORTSHMEM_PLATFORM=nvidia -DCMAKE_CUDA_COMPILER="$nvcc" \
  -DCMAKE_BUILD_TYPE=Release -DPORTSHMEM_BUILD_TESTS="$nvidia_tests" >/dev/null
cmake --build build-nvidia
took "the nvidia build"

amd=(-G Ninja -DPORTSHMEM_PLATFORM=amd -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19
  -DCMAKE_BUILD_TYPE=Release)
echo "== amd platform (clang-19): library, examples, benchmarks and workloads for gfx942 (tests: $amd_tests)"
cmake -S . -B build-amd "${amd[@]}" -DPORTSHMEM_AMD_ARCHS=gfx942 -DPORTSHMEM_BUILD_TESTS="$amd_tests" >/dev/null
cmake --build build-amd
echo "== amd platform (clang-19): the library for gfx90a"
cmake -S . -B build-amd-lib "${amd[@]}" -DPORTSHMEM_AMD_ARCHS=gfx90a -DPORTSHMEM_BUILD_TESTS=OFF \
  -DPORTSHMEM_BUILD_EXAMPLES=OFF -DPORTSHMEM_BUILD_BENCHMARKS=OFF -DPORTSHMEM_BUILD_WORKLOADS=OFF >/dev/null
cmake --build build-amd-lib
took "the amd builds"

echo "== host platform without the RDMA transport (-DPORTSHMEM_ENABLE_RDMA=OFF: the proxy branches compiled away)"
cmake -S . -B build-nordma -G Ninja -DPORTSHMEM_PLATFORM=host -DPORTSHMEM_ENABLE_RDMA=OFF -DPORTSHMEM_BUILD_TESTS=OFF \
  -DPORTSHMEM_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-nordma
scripts/portshmem-run -np 2 build-nordma/examples/03_put_signal
took "the RDMA-off build"

echo "== ISA checks: arch primitives, then every call x qualifier (and docs/lowering.md is current)"
tests/isa/check_arch.sh .
tests/isa/check_api.sh . --check
tests/isa/code_size.sh .
took "the ISA checks"

echo "== mutation test of the ISA checks: every known-bad edit of the arch layer must fail a check"
tests/isa/mutation_test.sh .
took "the mutation test"
