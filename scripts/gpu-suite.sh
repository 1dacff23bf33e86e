#!/usr/bin/env bash
# gpu-suite: the multi-GPU runs of docs/performance.md and docs/litmus_results.md in one command, on an NVIDIA node.
# Binaries come from an nvidia-platform build (BIN holds portshmem_mp_tests, portshmem_mp_scope_tests,
# portshmem-litmus, put_bw, pingpong and libportshmem.so.0); each part's output goes to OUT/<part>.log.
#
#   scripts/gpu-suite.sh BIN OUT [part...]
#
# Parts (default: all, in this order):
#   pingpong     8-byte put-with-signal ping-pong, 2 PEs on 2 GPUs, then 2 PEs sharing GPU 0 (MPS)
#   bandwidth    put_bw, 2 PEs on 2 GPUs
#   nvshmem      builds tests/perf/nvshmem_ref.cu against NVSHMEM (NVSHMEM_HOME, or the Python package) and runs it
#   functional   the mp suite with one PE per GPU, then 2 PEs per GPU (MPS); the scope suite both ways
#   litmus       the litmus catalogue with PEs spread over the GPUs (LITMUS_NP PEs, default 5)
# PART_TIMEOUT (seconds, default 300) bounds each program; a part that fails is reported and the next one runs.
set -uo pipefail

[ $# -ge 2 ] || { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
bin=$(cd "$1" && pwd)
out=$2
shift 2
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(pingpong bandwidth nvshmem functional litmus)
root=$(cd "$(dirname "$0")/.." && pwd)
run=("$root/scripts/portshmem-run")
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
export PORTSHMEM_TIMEOUT=${PORTSHMEM_TIMEOUT:-60s}
suite_heap=${PORTSHMEM_HEAP_SIZE:-512M} # the mp suites' heap (the benchmarks size theirs)
limit=${PART_TIMEOUT:-300}
gpus=$(nvidia-smi -L | grep -c '^GPU ')
failed=()

# step NAME LOG CMD...: runs CMD under the time limit, appends to LOG, records a failure.
step() {
  local name=$1 log=$2
  shift 2
  echo "== $name: $*" | tee -a "$log"
  local t0=$SECONDS
  timeout -k 10 "$limit" "$@" >>"$log" 2>&1
  local rc=$?
  echo "== $name: exit $rc after $((SECONDS - t0)) s" | tee -a "$log"
  [ $rc = 0 ] || failed+=("$name")
}

for part in "${parts[@]}"; do
  log="$out/$part.log"
  case "$part" in
  pingpong)
    nvidia-smi topo -m >>"$log" 2>&1
    # Waits as a user gets them by default (no timeout), then with the timeout's clock reads.
    PORTSHMEM_TIMEOUT=0 step "pingpong, PEs on separate GPUs" "$log" "${run[@]}" -np 2 "$bin/pingpong"
    PORTSHMEM_TIMEOUT=0 CUDA_VISIBLE_DEVICES=0 step "pingpong, 2 PEs on GPU 0" "$log" "${run[@]}" -np 2 "$bin/pingpong"
    step "pingpong, PEs on separate GPUs, PORTSHMEM_TIMEOUT=$PORTSHMEM_TIMEOUT" "$log" "${run[@]}" -np 2 "$bin/pingpong"
    ;;
  bandwidth)
    step "put_bw, PEs on separate GPUs" "$log" "${run[@]}" -np 2 "$bin/put_bw"
    ;;
  nvshmem)
    nv=${NVSHMEM_HOME:-$(python3 -c 'import nvidia.nvshmem, os; print(list(nvidia.nvshmem.__path__)[0])' 2>/dev/null)}
    if [ -z "$nv" ] || [ ! -d "$nv/include" ]; then
      echo "no NVSHMEM found (set NVSHMEM_HOME)" >>"$log"
      failed+=(nvshmem)
      continue
    fi
    libdir=$(mktemp -d)
    ln -sf "$nv/lib/libnvshmem_host.so.3" "$libdir/libnvshmem_host.so"
    step "build nvshmem_ref" "$log" nvcc -O3 -std=c++17 -arch=sm_90 -rdc=true -ccbin mpicxx -I"$nv/include" \
      "$root/tests/perf/nvshmem_ref.cu" -o "$libdir/nvshmem_ref" -L"$libdir" -lnvshmem_host \
      "$nv/lib/libnvshmem_device.a" -lcuda
    NVSHMEM_BOOTSTRAP=MPI NVSHMEM_BOOTSTRAP_MPI_PLUGIN="$nv/lib/nvshmem_bootstrap_mpi.so.3" \
      NVSHMEM_REMOTE_TRANSPORT=none LD_LIBRARY_PATH="$nv/lib:$LD_LIBRARY_PATH" \
      step "nvshmem_ref, PEs on separate GPUs" "$log" "${run[@]}" -np 2 "$libdir/nvshmem_ref"
    ;;
  functional)
    PORTSHMEM_HEAP_SIZE=$suite_heap step "mp suite, one PE per GPU" "$log" "${run[@]}" -np "$gpus" "$bin/portshmem_mp_tests"
    PORTSHMEM_HEAP_SIZE=$suite_heap step "mp suite, 2 PEs per GPU" "$log" "${run[@]}" -np $((2 * gpus)) "$bin/portshmem_mp_tests"
    PORTSHMEM_HEAP_SIZE=$suite_heap step "scope suite, one PE per GPU" "$log" "${run[@]}" -np "$gpus" "$bin/portshmem_mp_scope_tests"
    PORTSHMEM_HEAP_SIZE=$suite_heap step "scope suite, 2 PEs per GPU" "$log" "${run[@]}" -np $((2 * gpus)) "$bin/portshmem_mp_scope_tests"
    ;;
  litmus)
    step "litmus, ${LITMUS_NP:-5} PEs over $gpus GPUs" "$log" "${run[@]}" -np "${LITMUS_NP:-5}" "$bin/portshmem-litmus" \
      --markdown "$out/litmus.md" "$root/tests/litmus"
    ;;
  *)
    echo "unknown part $part" >&2
    exit 2
    ;;
  esac
done

if [ ${#failed[@]} -gt 0 ]; then
  printf 'gpu-suite: failed: %s\n' "${failed[*]}"
  exit 1
fi
echo "gpu-suite: all parts passed"
