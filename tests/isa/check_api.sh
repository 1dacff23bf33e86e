#!/usr/bin/env bash
# ISA check of the public device API (no GPU needed): compiles tests/isa/api_probe.cpp for gfx90a and gfx942 (clang-19,
# device-only -S, one target per run) and for sm_90 (nvcc -ptx), then tests/isa/api_lowering.py splits the output per
# kernel, asserts what the memory model promises of each call x qualifier, and checks that docs/lowering.md and the
# section "Static cost of the memory-model qualifiers" of docs/performance.md are what the compilers emit.
#
#   usage: tests/isa/check_api.sh REPO_ROOT [--check | --write | --no-docs]
#          --check (the default): regenerate the docs into a temporary folder and fail when the repository's differ
#          --write: regenerate them in place (docs/lowering.md, and only that section of docs/performance.md)
#          --no-docs: the assertions only (tests/isa/mutation_test.sh)
#   env:   CLANG (default clang-19), NVCC (default nvcc on PATH, else /usr/local/cuda/bin/nvcc), KEEP_DIR (keep the
#          assembly, PTX and regenerated docs there), SHOW (a kernel name: print its region on every target),
#          INCLUDE_DIR (the library headers to check, default REPO_ROOT/include; anything else implies --no-docs)
#   exit:  0 all checks passed; 1 a check or a compile failed, or the docs are stale; 77 a toolchain is missing
#          (what could be checked was, and passed; the docs are compared only when all three targets compiled)
set -euo pipefail

ROOT=${1:?usage: check_api.sh REPO_ROOT [--check | --write | --no-docs]}
ROOT=$(cd "$ROOT" && pwd)
MODE=${2:-}
[[ -z $MODE || $MODE == --write || $MODE == --check || $MODE == --no-docs ]] ||
  { echo "check_api: unknown option $MODE" >&2; exit 1; }
INC=$(cd "${INCLUDE_DIR:-$ROOT/include}" && pwd)
if [[ $INC != "$ROOT/include" ]]; then
  [[ $MODE == --write ]] && { echo "check_api: --write documents REPO_ROOT/include only" >&2; exit 1; }
  MODE=--no-docs
fi
PROBE=tests/isa/api_probe.cpp
CLANG=${CLANG:-clang-19}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
command -v python3 >/dev/null || { echo "SKIP check_api: no python3" >&2; exit 77; }
[[ -f $ROOT/$PROBE ]] || { echo "check_api: no $ROOT/$PROBE" >&2; exit 1; }

WORK=${KEEP_DIR:-$(mktemp -d /tmp/isa-work.XXXXXX)}
mkdir -p "$WORK"
[[ -n ${KEEP_DIR:-} ]] || trap 'rm -rf "$WORK"' EXIT

# shellcheck source=tests/isa/config_h.sh
. "$ROOT/tests/isa/config_h.sh"
config() { isa_config_h "$WORK/$1/include/portshmem/config.h" "$2" "$3"; } # config DIR NVIDIA AMD

# The compile lines (TOOLCHAINS.md), with the release lowering (no per-call debug table lookups). DEFS are shown in
# docs/lowering.md as they are written here; the paths of this run are substituted when the command runs.
FLAGS=(-std=c++17 -O2 -DPORTSHMEM_DEBUG_CHECKS=0)
targets=()
commands=()
pids=()
skipped=0
failed=0

if command -v "$CLANG" >/dev/null && [[ -f /usr/include/hip/hip_runtime.h ]]; then
  config amd 0 1
  RES=$("$CLANG" -print-resource-dir)
  for arch in gfx90a gfx942; do
    show="clang-19 -x hip --offload-arch=$arch -nogpulib -nogpuinc -I\$RES/include/cuda_wrappers -I\$RES/include"
    show+=" -I/usr/include -D__HIP_PLATFORM_AMD__ -include __clang_hip_runtime_wrapper.h -I<config.h dir> -Iinclude"
    show+=" ${FLAGS[*]} -Wall -Wextra --cuda-device-only -S $PROBE"
    (cd "$ROOT" && "$CLANG" -x hip --offload-arch=$arch -nogpulib -nogpuinc -I"$RES/include/cuda_wrappers" \
      -I"$RES/include" -I/usr/include -D__HIP_PLATFORM_AMD__ -include __clang_hip_runtime_wrapper.h \
      -I"$WORK/amd/include" -I"$INC" "${FLAGS[@]}" -Wall -Wextra --cuda-device-only -S $PROBE -o "$WORK/$arch.s") \
      >"$WORK/$arch.log" 2>&1 &
    pids+=("$arch:$!")
    targets+=(--target "$arch=$WORK/$arch.s")
    commands+=(--command "$arch=$show")
  done
else
  echo "SKIP gfx90a, gfx942: no $CLANG or no HIP headers (/usr/include/hip; scripts/install-deps.sh --amd)" >&2
  skipped=1
fi

if command -v "$NVCC" >/dev/null; then
  config nv 1 0
  show="nvcc -arch=sm_90 -ptx -x cu -I<config.h dir> -Iinclude ${FLAGS[*]} $PROBE"
  (cd "$ROOT" && "$NVCC" -arch=sm_90 -ptx -x cu -I"$WORK/nv/include" -I"$INC" "${FLAGS[@]}" $PROBE \
    -o "$WORK/sm_90.ptx") >"$WORK/sm_90.log" 2>&1 &
  pids+=("sm_90:$!")
  targets+=(--target "sm_90=$WORK/sm_90.ptx")
  commands+=(--command "sm_90=$show")
else
  echo "SKIP sm_90: no nvcc" >&2
  skipped=1
fi

for entry in "${pids[@]}"; do
  t=${entry%%:*}
  if ! wait "${entry#*:}"; then
    echo "FAIL $t: $PROBE does not compile:" >&2
    sed -n 1,40p "$WORK/$t.log" >&2
    failed=1
  fi
done
((failed)) && exit 1
((${#targets[@]})) || exit 77

args=(--repo "$ROOT" --include "$INC" "${targets[@]}" "${commands[@]}")
[[ -n ${SHOW:-} ]] && args+=(--show "$SHOW")
if [[ $MODE == --write ]]; then
  if ((skipped)); then
    echo "check_api: --write needs all three targets (gfx90a, gfx942, sm_90); docs left as they are" >&2
    exit 77
  fi
  args+=(--write)
elif [[ $MODE != --no-docs ]] && ((!skipped)); then
  args+=(--check "$WORK/docs")
fi
python3 "$ROOT/tests/isa/api_lowering.py" "${args[@]}" || exit 1
if ((skipped)); then exit 77; fi
exit 0
