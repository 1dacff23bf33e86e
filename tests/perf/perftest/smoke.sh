#!/usr/bin/env bash
# Smoke test of one perftest program (CTest runs one per program on the host platform):
#   smoke.sh OUTDIR ROWS PROGRAM [ARGS...]
# runs PROGRAM on 2 PEs with ARGS, writing OUTDIR/<name>.json and .csv, then scripts/perf-plot.py --check on both:
# each must parse and hold ROWS rows of that program, all with check ok and a positive value, and the two files must
# agree; then scripts/qualifier-cost.py --check on the JSON (with --all-variants when ARGS hold --mm all). With
# PERFTEST_SMOKE_SELF_TEST=1 it also proves both checkers reject broken copies of the JSON (a failed row, a missing
# row, a value that is no number). With PERFTEST_SMOKE_CORRUPT=1 it runs PROGRAM with PERFTEST_CORRUPT=1 (every
# pattern check reads one wrong byte) instead, and passes when the program exits 1 with ROWS rows, every one FAIL,
# and both checkers reject the file. PERFTEST_PYTHON: the Python 3 to run the checkers with (python3). Exit 0 when
# all holds.
set -euo pipefail

[ $# -ge 3 ] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
out=$1 rows=$2 program=$3
shift 3
root=$(cd "$(dirname "$0")/../../.." && pwd)
python=${PERFTEST_PYTHON:-python3}
name=$(basename "$program")
mkdir -p "$out"
rm -f "$out/$name.json" "$out/$name.csv"
mm="" prev=""
for arg in "$@"; do
  [ "$prev" = --mm ] && mm=$arg # the last --mm counts, as the program reads them
  prev=$arg
done
qc_args=(--check)
[ "$mm" = all ] && qc_args+=(--all-variants)

if [ "${PERFTEST_SMOKE_CORRUPT:-0}" = 1 ]; then
  rc=0
  PERFTEST_CORRUPT=1 "$root/scripts/portshmem-run" -np 2 "$program" "$@" --json "$out/$name.json" >/dev/null 2>&1 ||
    rc=$?
  [ "$rc" = 1 ] || { echo "smoke: $name with a corrupted check exited $rc, expected 1" >&2; exit 1; }
  failed=$(grep -c '"check": "FAIL"' "$out/$name.json" || true)
  [ "$failed" = "$rows" ] || { echo "smoke: $failed of the expected $rows rows say FAIL" >&2; exit 1; }
  for checker in perf-plot.py qualifier-cost.py; do
    if "$python" "$root/scripts/$checker" --check "$out/$name.json" >/dev/null 2>&1; then
      echo "smoke: $checker --check accepted rows that failed their data check" >&2
      exit 1
    fi
  done
  echo "smoke: a wrong byte fails all $rows rows of $name, and both checkers reject them"
  exit 0
fi

"$root/scripts/portshmem-run" -np 2 "$program" "$@" --json "$out/$name.json" --csv "$out/$name.csv"
"$python" "$root/scripts/perf-plot.py" --check --program "$name" --rows "$rows" "$out/$name.json" "$out/$name.csv"
"$python" "$root/scripts/qualifier-cost.py" "${qc_args[@]}" "$out/$name.json" >/dev/null

if [ "${PERFTEST_SMOKE_SELF_TEST:-0}" = 1 ]; then
  bad="$out/$name.bad.json"
  for edit in 's/"check": "ok"/"check": "FAIL"/' '0,/^  {/{/^  {/d}' 's/"value": [0-9.e+-]*/"value": null/'; do
    sed "$edit" "$out/$name.json" >"$bad"
    if "$python" "$root/scripts/perf-plot.py" --check --program "$name" --rows "$rows" "$bad" 2>/dev/null; then
      echo "smoke: perf-plot.py accepted a broken file (sed '$edit')" >&2
      exit 1
    fi
    if "$python" "$root/scripts/qualifier-cost.py" "${qc_args[@]}" "$bad" >/dev/null 2>&1; then
      echo "smoke: qualifier-cost.py accepted a broken file (sed '$edit')" >&2
      exit 1
    fi
  done
  rm -f "$bad"
  echo "smoke: both checkers reject a failed row, a missing row and a non-number"
fi
