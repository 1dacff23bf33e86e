#!/usr/bin/env bash
# expect_job_fails.sh SECONDS TEXT... -- COMMAND [ARGS...]: runs COMMAND (a whole job, portshmem-run ...) and passes
# only if the job ends with a non-zero status within SECONDS and its output (stdout and stderr, shown as it comes)
# contains every TEXT. For scenarios in which a PE must end the job after a device error while a peer lives on.
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: expect_job_fails.sh SECONDS TEXT... -- COMMAND [ARGS...]" >&2; exit 2; }
limit=$1
shift
texts=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  texts+=("$1")
  shift
done
[ $# -ge 2 ] || { echo "expect_job_fails.sh: no command after --" >&2; exit 2; }
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$SECONDS
timeout -k 10 "$limit" "$@" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
took=$((SECONDS - start))
failed=0
# Not the status: portshmem-run returns 137 itself when it had to kill an mpirun hung in its own teardown.
if [ "$took" -ge "$limit" ]; then
  echo "expect_job_fails: FAILED: the job did not end within ${limit} s (a PE hung instead of ending it)" >&2
  failed=1
elif [ "$rc" = 0 ]; then
  echo "expect_job_fails: FAILED: the job ended with status 0; a device error must end it non-zero" >&2
  failed=1
fi
for text in "${texts[@]}"; do
  if ! grep -qF -- "$text" "$out"; then
    echo "expect_job_fails: FAILED: the output lacks \"$text\"" >&2
    failed=1
  fi
done
[ "$failed" = 0 ] && echo "expect_job_fails: the job ended with status $rc after $took s, with the expected lines" >&2
exit "$failed"
