#!/usr/bin/env bash
# Smoke test of one perftest program (CTest runs one per program on the host platform):
#   smoke.sh OUTDIR ROWS PROGRAM [ARGS...]
# runs PROGRAM on 2 PEs with ARGS, writing OUTDIR/<name>.json and .csv, then scripts/perf-plot.py --check on both:
# each must parse and hold ROWS rows of that program, all with check ok and a positive value, and the two files must
# agree. With PERFTEST_SMOKE_SELF_TEST=1 it also proves the checker rejects broken copies of the JSON (a failed row,
# a missing row, a value that is no number). PERFTEST_PYTHON: the Python 3 to run the checker with (python3).
# Exit 0 when all holds.
set -euo pipefail

[ $# -ge 3 ] || { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
out=$1 rows=$2 program=$3
shift 3
root=$(cd "$(dirname "$0")/../../.." && pwd)
python=${PERFTEST_PYTHON:-python3}
name=$(basename "$program")
mkdir -p "$out"
rm -f "$out/$name.json" "$out/$name.csv"

"$root/scripts/portshmem-run" -np 2 "$program" "$@" --json "$out/$name.json" --csv "$out/$name.csv"
"$python" "$root/scripts/perf-plot.py" --check --program "$name" --rows "$rows" "$out/$name.json" "$out/$name.csv"

if [ "${PERFTEST_SMOKE_SELF_TEST:-0}" = 1 ]; then
  bad="$out/$name.bad.json"
  for edit in 's/"check": "ok"/"check": "FAIL"/' '0,/^  {/{/^  {/d}' 's/"value": [0-9.e+-]*/"value": null/'; do
    sed "$edit" "$out/$name.json" >"$bad"
    if "$python" "$root/scripts/perf-plot.py" --check --program "$name" --rows "$rows" "$bad" 2>/dev/null; then
      echo "smoke: the checker accepted a broken file (sed '$edit')" >&2
      exit 1
    fi
  done
  rm -f "$bad"
  echo "smoke: the checker rejects a failed row, a missing row and a non-number"
fi
