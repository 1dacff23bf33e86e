#!/usr/bin/env bash
# Runs a rocSHMEM example program on NP PEs and checks what it reports: the examples return 0 whatever their check
# found and print one "[PASS]" or "[FAIL]" line per checking PE, so the run passes only when the job exits 0, no line
# says [FAIL], and exactly EXPECTED lines say [PASS].
# usage: run_rocshmem_example.sh NP EXPECTED PROGRAM [ARGS...]
set -u
np=$1
expected=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$here/../../scripts/portshmem-run" -np "$np" "$@" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
passes=$(grep -c '\[PASS\]' "$out")
fails=$(grep -c '\[FAIL\]' "$out")
if [ "$rc" -ne 0 ] || [ "$fails" -ne 0 ] || [ "$passes" -ne "$expected" ]; then
  echo "run_rocshmem_example: exit $rc, $passes [PASS] lines (expected $expected), $fails [FAIL] lines" >&2
  exit 1
fi
echo "run_rocshmem_example: $passes/$expected PEs passed"
