#!/usr/bin/env bash
# rocshmem_hipmodule_init (amd) finds a module's copies of ROCSHMEM_CTX_DEFAULT and the device ROCSHMEM_TEAM_WORLD /
# _SHARED by their mangled names. This compiles a module-like unit (the header and one kernel) for gfx942 with clang in
# HIP mode (device code only, to assembly; no GPU needed) and checks that each name the library looks up is a global
# symbol of the code object. No AMD GPU runs it here: the lookup itself is unexercised (docs/rocshmem.md).
#   usage: hipmodule_symbols_check.sh REPO_ROOT      env: CLANG (default clang++-19), MPI_INCLUDE
#   exit:  0 every name found; 1 one is missing or the compile failed; 77 no clang-19 or HIP headers here
set -euo pipefail
ROOT=$(cd "${1:?usage: hipmodule_symbols_check.sh REPO_ROOT}" && pwd)
CLANG=${CLANG:-clang++-19}
command -v "$CLANG" >/dev/null || { echo "SKIP: no $CLANG" >&2; exit 77; }
[ -f /usr/include/hip/hip_runtime_api.h ] || { echo "SKIP: no HIP headers" >&2; exit 77; }
MPI_INCLUDE=${MPI_INCLUDE:-$(mpicxx --showme:incdirs 2>/dev/null || true)}
WORK=$(mktemp -d /tmp/rocshmem-hipmodule.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
"$ROOT/tests/compat/write_config_h.sh" "$ROOT" amd "$WORK"
cat >"$WORK/module.hip" <<'SRC'
#include <rocshmem/rocshmem.hpp>
extern "C" __global__ void module_kernel(int* out) {
  out[0] = rocshmem::rocshmem_my_pe();
  out[1] = rocshmem::rocshmem_team_n_pes(rocshmem::ROCSHMEM_TEAM_WORLD);
}
SRC
RES=$("$CLANG" -print-resource-dir)
inc=()
for d in $MPI_INCLUDE; do inc+=(-isystem "$d"); done
"$CLANG" -x hip -nogpulib -nogpuinc -isystem "$RES/include/cuda_wrappers" -isystem "$RES/include" \
  -include __clang_hip_runtime_wrapper.h --offload-arch=gfx942 -D__HIP_PLATFORM_AMD__ -std=c++20 -O2 \
  -I"$WORK/include" -I"$ROOT/include" "${inc[@]}" --cuda-device-only -S "$WORK/module.hip" -o "$WORK/module.s"
status=0
for name in _ZN8rocshmemL20ROCSHMEM_CTX_DEFAULTE _ZN8rocshmem6deviceL19ROCSHMEM_TEAM_WORLDE \
  _ZN8rocshmem6deviceL20ROCSHMEM_TEAM_SHAREDE; do
  if ! grep -q "\"$name\"" "$ROOT/src/compat_rocshmem.cpp"; then
    echo "FAIL: src/compat_rocshmem.cpp does not look up $name" >&2
    status=1
  elif ! grep -Eq "^[[:space:]]*\.globl[[:space:]]+$name\$" "$WORK/module.s"; then
    echo "FAIL: $name is not a global symbol of the gfx942 code object:" >&2
    grep -E "ROCSHMEM_(CTX_DEFAULT|TEAM_WORLD|TEAM_SHARED)" "$WORK/module.s" | grep -E "globl|type" >&2 || true
    status=1
  fi
done
[ "$status" = 0 ] && echo "hipmodule_symbols_check: the three copies are module globals under the names looked up"
exit "$status"
