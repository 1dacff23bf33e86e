#!/usr/bin/env bash
# Code size of the device API as users meet it (no GPU needed): each kernel of tests/isa/size_probe.cpp (one call,
# release build, every path it may take) compiled alone for sm_90 (nvcc -O3 -ptx) and gfx942 (clang-19 -O3, device
# -S), its instructions counted (the kernel and every function it calls: the whole output), and each count held to a
# budget. The copy's tail was once a loop nest that tripled every put; this keeps such growth from landing unnoticed.
# The budgets are the counts of 2026-12-07 (docs/performance.md, "Code size") plus a quarter; raise one only with the
# reason in the commit.
#
#   usage: tests/isa/code_size.sh REPO_ROOT     env: CLANG, NVCC, INCLUDE_DIR (headers to measure, default ROOT/include)
#   exit:  0 every count within its budget; 1 a count over budget or a compile failed; 77 a toolchain is missing
set -euo pipefail
ROOT=$(cd "${1:?usage: code_size.sh REPO_ROOT}" && pwd)
INC=$(cd "${INCLUDE_DIR:-$ROOT/include}" && pwd)
CLANG=${CLANG:-clang-19}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
command -v "$CLANG" >/dev/null && [[ -f /usr/include/hip/hip_runtime.h ]] ||
  { echo "SKIP code_size: no $CLANG or no HIP headers" >&2; exit 77; }
command -v "$NVCC" >/dev/null || { echo "SKIP code_size: no nvcc" >&2; exit 77; }
PROBE=$ROOT/tests/isa/size_probe.cpp
WORK=$(mktemp -d /tmp/code-size.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# name (as in size_probe.cpp, in its order), then the budgets: sm_90 PTX instructions, gfx942 instructions
budgets=(
  "put_signal 5800 6550"
  "put_signal_block 4150 6200"
  "putmem_block 2650 3750"
  "put_nbi 3500 3950"
  "get 3300 2700"
  "p 550 950"
  "atomic_fetch_add 575 1050"
  "signal_wait_until 200 400"
)

# shellcheck source=tests/isa/config_h.sh
. "$ROOT/tests/isa/config_h.sh"
isa_config_h "$WORK/nv/include/portshmem/config.h" 1 0
isa_config_h "$WORK/amd/include/portshmem/config.h" 0 1
RES=$("$CLANG" -print-resource-dir)
compile() { # index target: the output of size probe #index for the target
  local i=$1 t=$2
  if [[ $t == sm_90 ]]; then
    "$NVCC" -arch=sm_90 -O3 -std=c++17 -ptx -x cu -DSIZE_PROBE="$i" -I"$WORK/nv/include" -I"$INC" "$PROBE" \
      -o "$WORK/$i.$t"
  else
    "$CLANG" -x hip --offload-arch=gfx942 -nogpulib -nogpuinc -I"$RES/include/cuda_wrappers" -I"$RES/include" \
      -I/usr/include -D__HIP_PLATFORM_AMD__ -include __clang_hip_runtime_wrapper.h -I"$WORK/amd/include" -I"$INC" \
      -std=c++17 -O3 -DSIZE_PROBE="$i" --cuda-device-only -S "$PROBE" -o "$WORK/$i.$t"
  fi
}
count() { # instructions in an output: PTX statements (an optional guard, then a mnemonic), or AMDGPU mnemonics
  if [[ $2 == sm_90 ]]; then
    grep -cE '^\s*(@!?%\w+\s+)?[a-z][a-z0-9_.]*(\s|;)' "$1"
  else
    grep -cE '^\s+(s|v|global|flat|buffer|ds|scratch)_[a-z0-9_]+' "$1"
  fi
}

pids=()
for i in "${!budgets[@]}"; do
  for t in sm_90 gfx942; do
    compile $((i + 1)) $t >"$WORK/$((i + 1)).$t.log" 2>&1 &
    pids+=("$!:$((i + 1)).$t")
    while (($(jobs -rp | wc -l) >= $(nproc))); do sleep 0.2; done
  done
done
failed=0
for p in "${pids[@]}"; do
  wait "${p%%:*}" || { echo "FAIL code_size: probe ${p#*:} does not compile:" >&2; cat "$WORK/${p#*:}.log" >&2; failed=1; }
done
((failed == 0)) || exit 1

printf '%-20s %10s %8s %10s %8s\n' call "sm_90 PTX" budget gfx942 budget
for i in "${!budgets[@]}"; do
  read -r name nv_budget amd_budget <<<"${budgets[$i]}"
  nv_n=$(count "$WORK/$((i + 1)).sm_90" sm_90)
  amd_n=$(count "$WORK/$((i + 1)).gfx942" gfx942)
  printf '%-20s %10s %8s %10s %8s\n' "$name" "$nv_n" "$nv_budget" "$amd_n" "$amd_budget"
  for t in sm_90 gfx942; do # each output must hold the kernel the row names (the list and the probe agree)
    grep -qE "^\.visible \.entry $name\(|^$name:" "$WORK/$((i + 1)).$t" ||
      { echo "FAIL code_size: kernel $name not found in the $t output of probe $((i + 1))" >&2; failed=1; }
  done
  ((nv_n <= nv_budget)) || { echo "FAIL code_size: $name is $nv_n PTX instructions, budget $nv_budget" >&2; failed=1; }
  ((amd_n <= amd_budget)) || { echo "FAIL code_size: $name is $amd_n gfx942 instructions, budget $amd_budget" >&2; failed=1; }
done
((failed == 0)) && echo "code_size: every call within its budget"
exit $failed
