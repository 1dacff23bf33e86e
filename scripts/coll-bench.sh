#!/usr/bin/env bash
# coll-bench: the collective benchmarks of portshmem (coll_bench) and NVSHMEM (nvshmem_coll) at several PE counts on
# this node, both programs at each count, then one side-by-side table per count: time per call of each and their ratio.
#
#   scripts/coll-bench.sh BIN [OUT] [-- FLAGS...]
#
# BIN holds coll_bench (a build directory, whose tests/perf has it, or a folder it was carried to, with
# libportshmem.so.0 beside it). FLAGS go to both programs (coll_bench -h lists them; e.g. -- -e 1M -c reduce).
# OUT (default: a new folder under /tmp) gets each run's table (PROGRAM_npN.log), its stderr (.err) and the joined
# tables (tables.txt).
# NVSHMEM columns appear when an NVIDIA GPU is present and NVSHMEM is found (NVSHMEM_HOME, else the Python package
# nvidia.nvshmem): nvshmem_coll is taken from BIN, or built from tests/perf/nvshmem_coll.cu with nvcc (CUDACXX) into
# OUT. Without them (the host platform, or no NVSHMEM) the tables show portshmem alone.
# NPS: the PE counts (default "2 4 8"); MPS runs when they share GPUs (portshmem-run starts it; told so explicitly,
# since it would take a -n or -c of FLAGS for the PE count). RUN_TIMEOUT (seconds, default 900) bounds each program.
# Exit 1 when a program fails (a FAIL row: a wrong result) or times out.
set -uo pipefail

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
case "$1" in -h | --help) usage ;; esac
bin=$(cd "$1" && pwd) || exit 2
shift
out=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  out=$1
  shift
fi
[ "${1:-}" = "--" ] && shift
flags=("$@")
root=$(cd "$(dirname "$0")/.." && pwd)
out=${out:-$(mktemp -d /tmp/coll-bench.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
read -r -a nps <<<"${NPS:-2 4 8}"
limit=${RUN_TIMEOUT:-900}
run=("$root/scripts/portshmem-run")

bench=""
for candidate in "$bin/coll_bench" "$bin/tests/perf/coll_bench"; do
  [ -x "$candidate" ] && bench=$candidate && break
done
[ -n "$bench" ] || { echo "coll-bench: no coll_bench in $bin or $bin/tests/perf" >&2; exit 2; }
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" # a carried build's libportshmem.so.0
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0

# ---- NVSHMEM: only with a GPU and an install; its program from BIN, else built here as gpu-suite builds nvshmem_ref
gpus=0
command -v nvidia-smi >/dev/null 2>&1 && gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ] && [ "$gpus" -gt 0 ]; then # as portshmem-run counts them
  gpus=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .)
fi
nv=""
nvbench=""
if [ "$gpus" -gt 0 ]; then
  nv=${NVSHMEM_HOME:-$(python3 -c 'import nvidia.nvshmem, os; print(list(nvidia.nvshmem.__path__)[0])' 2>/dev/null)}
  if [ -z "$nv" ] || [ ! -d "$nv/include" ]; then
    echo "coll-bench: no NVSHMEM found (set NVSHMEM_HOME): portshmem alone" >&2
    nv=""
  fi
fi
if [ -n "$nv" ]; then
  for candidate in "$bin/nvshmem_coll" "$bin/tests/perf/nvshmem_coll"; do
    [ -x "$candidate" ] && nvbench=$candidate && break
  done
  if [ -z "$nvbench" ]; then
    nvcc=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
    ln -sf "$nv/lib/libnvshmem_host.so.3" "$out/libnvshmem_host.so"
    echo "coll-bench: building nvshmem_coll against $nv" >&2
    if "$nvcc" -O3 -std=c++17 -arch=sm_90 -rdc=true -ccbin mpicxx -I"$nv/include" \
      "$root/tests/perf/nvshmem_coll.cu" -o "$out/nvshmem_coll" -L"$out" -lnvshmem_host \
      "$nv/lib/libnvshmem_device.a" -lcuda >"$out/build_nvshmem_coll.log" 2>&1; then
      nvbench=$out/nvshmem_coll
    else
      echo "coll-bench: building nvshmem_coll failed ($out/build_nvshmem_coll.log): portshmem alone" >&2
    fi
  fi
fi

failed=()
# one LOG NP PROGRAM [ENV...]: runs PROGRAM on NP PEs under the time limit (portshmem-run: MPS when PEs share GPUs).
one() {
  local log=$1 np=$2 program=$3
  shift 3
  echo "== $np PEs: $program ${flags[*]}" >&2
  # portshmem-run reads the PE count from any -n/-c in the line, the program's flags too: say MPS explicitly.
  local mps=off
  [ "$np" -gt "$gpus" ] && mps=on
  env PORTSHMEM_RUN_MPS="$mps" "$@" timeout -k 10 "$limit" "${run[@]}" -np "$np" "$program" "${flags[@]}" \
    >"$log" 2>"$log.err" # stdout alone: stderr lines would break the rows
  local rc=$?
  [ $rc = 0 ] || { failed+=("$(basename "$program") np$np (exit $rc, $log.err)"); tail -n 5 "$log.err" >&2; }
}

# table NP PORTSHMEM_LOG [NVSHMEM_LOG]: the rows of both logs joined on (collective, size, type).
table() {
  local np=$1 mine=$2 theirs=${3:-}
  echo
  if [ -n "$theirs" ]; then
    echo "== $np PEs: time per call in us; ratio = portshmem / NVSHMEM (below 1: portshmem faster); busbw GB/s"
  else
    echo "== $np PEs: time per call in us (portshmem alone); busbw GB/s"
  fi
  grep -E '^# (coll_bench|block size)' "$mine" || true
  if [ -n "$theirs" ]; then
    grep -E '^# (nvshmem_coll|block size)' "$theirs" || true
    # Each program takes the block size asked for (-t) or the most its kernels can launch: say when they differ.
    local a b
    a=$(sed -n 's/^# coll_bench.*one block of \([0-9]*\) threads.*/\1/p' "$mine")
    b=$(sed -n 's/^# nvshmem_coll.*one block of \([0-9]*\) threads.*/\1/p' "$theirs")
    [ "$a" = "$b" ] || echo "# note: the block sizes differ ($a vs $b threads); -- -t N gives both the same"
  fi
  awk -v theirs="$theirs" '
    function row(f) { return f ~ /^(barrier|sync|broadcast|fcollect|alltoall|reduce|reduce_scatter)$/ }
    !row($1) || NF != 10 { next }
    theirs != "" && FILENAME == theirs { k = $1 " " $2 " " $4; us[k] = $6; bus[k] = $8; ok[k] = $10; next }
    !header++ {
      if (theirs != "") printf "%-15s %12s %-6s %-4s %13s %13s %8s %11s %11s %s\n", "collective", "size_B", "type",
                               "sync", "portshmem_us", "nvshmem_us", "ratio", "portshmem", "nvshmem", "check"
      else printf "%-15s %12s %-6s %-4s %13s %11s %s\n", "collective", "size_B", "type", "sync", "portshmem_us",
                  "busbw", "check"
    }
    theirs == "" { printf "%-15s %12s %-6s %-4s %13s %11s %s\n", $1, $2, $4, $9, $6, $8, $10; next }
    {
      k = $1 " " $2 " " $4
      found = k in us
      ratio = found && us[k] > 0 ? sprintf("%.2f", $6 / us[k]) : "-"
      check = $10 == "ok" && found && ok[k] == "ok" ? "ok" : "portshmem:" $10 ",nvshmem:" (found ? ok[k] : "missing")
      printf "%-15s %12s %-6s %-4s %13s %13s %8s %11s %11s %s\n", $1, $2, $4, $9, $6, found ? us[k] : "-", ratio, $8,
             found ? bus[k] : "-", check
    }' ${theirs:+"$theirs"} "$mine"
}

for np in "${nps[@]}"; do
  one "$out/portshmem_np$np.log" "$np" "$bench"
  if [ -n "$nvbench" ]; then
    mps_env=()
    [ "$np" -gt "$gpus" ] && mps_env=(NVSHMEM_IGNORE_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=1)
    one "$out/nvshmem_np$np.log" "$np" "$nvbench" NVSHMEM_BOOTSTRAP=MPI \
      NVSHMEM_BOOTSTRAP_MPI_PLUGIN="$nv/lib/nvshmem_bootstrap_mpi.so.3" NVSHMEM_REMOTE_TRANSPORT=none \
      LD_LIBRARY_PATH="$nv/lib:$LD_LIBRARY_PATH" "${mps_env[@]}"
  fi
done

for np in "${nps[@]}"; do
  if [ -n "$nvbench" ]; then
    table "$np" "$out/portshmem_np$np.log" "$out/nvshmem_np$np.log"
  else
    table "$np" "$out/portshmem_np$np.log"
  fi
done | tee "$out/tables.txt"

echo
if [ ${#failed[@]} -gt 0 ]; then
  printf 'coll-bench: failed: %s\n' "${failed[@]}"
  exit 1
fi
echo "coll-bench: all runs verified (logs and tables in $out)"
