#!/usr/bin/env bash
# Compiles a rocSHMEM example with nvcc as the nvidia platform would (-x cu, sm_90, include/rocshmem/hip_shim for the
# hip* names), so a host-platform CI run also proves the compatibility header builds for NVIDIA GPUs. No GPU needed.
#   usage: nvcc_compile_check.sh REPO_ROOT SOURCE      env: NVCC, MPI_INCLUDE (mpi.h's directories)
#   exit:  0 compiled; 1 it did not; 77 no nvcc here
set -euo pipefail
ROOT=$(cd "${1:?usage: nvcc_compile_check.sh REPO_ROOT SOURCE}" && pwd)
SRC=${2:?usage: nvcc_compile_check.sh REPO_ROOT SOURCE}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
command -v "$NVCC" >/dev/null || { echo "SKIP: no nvcc" >&2; exit 77; }
MPI_INCLUDE=${MPI_INCLUDE:-$(mpicxx --showme:incdirs 2>/dev/null || true)}
WORK=$(mktemp -d /tmp/rocshmem-nvcc.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
"$ROOT/tests/compat/write_config_h.sh" "$ROOT" nvidia "$WORK"
inc=()
for d in $MPI_INCLUDE; do inc+=(-I"$d"); done
"$NVCC" -arch=sm_90 -x cu -std=c++17 -O2 -I"$WORK/include" -I"$ROOT/include" -I"$ROOT/include/rocshmem/hip_shim" \
  "${inc[@]}" -c "$SRC" -o "$WORK/example.o"
echo "nvcc_compile_check: $(basename "$SRC") compiles for sm_90"
