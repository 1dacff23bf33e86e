#!/usr/bin/env bash
# expect_dead_peer.sh SECONDS PE -- COMMAND [ARGS...]: runs a job (portshmem-run ...) in which PE dies mid-job, and
# passes only if the job ends non-zero within SECONDS, its output names PE as the one that ended (mpirun's words:
# "rank PE" or "[[job,1],PE]"), no process of the program is left, and nothing of the job is left in /dev/shm
# (portshmem's heap segments, or Open MPI's shared-memory segments in the run's own directory, which portshmem-run
# removes).
set -uo pipefail
[ $# -ge 4 ] && [ "$3" = "--" ] || { echo "usage: expect_dead_peer.sh SECONDS PE -- COMMAND [ARGS...]" >&2; exit 2; }
limit=$1
pe=$2
shift 3
program=""
for arg in "$@"; do # the program: the first argument that is an executable file, after portshmem-run
  if [ -z "$program" ] && [ -f "$arg" ] && [ -x "$arg" ] && [[ "$arg" != */portshmem-run ]]; then program=$arg; fi
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$SECONDS
marker=$(mktemp) # /dev/shm entries newer than this were made during the run
timeout -k 10 "$limit" "$@" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
took=$((SECONDS - start))
failed=0
fail() {
  echo "expect_dead_peer: FAILED: $*" >&2
  failed=1
}
if [ "$took" -ge "$limit" ]; then # not the status: mpirun returns 137 itself when a rank was killed
  fail "the job did not end within ${limit} s (the others did not notice PE $pe's death)"
elif [ "$rc" = 0 ]; then
  fail "the job ended with status 0"
fi
grep -qE "rank ${pe}[^0-9]|\\],${pe}\\]" "$out" || fail "the output does not name PE $pe as the process that ended"
grep -q "FAILED: still running" "$out" && fail "a surviving PE returned from its call instead of being ended"
sleep 2 # a killed process's exit and mpirun's cleanup may take a moment
if [ -n "$program" ]; then # processes running the program itself (not commands that name it, like this script)
  exe=$(realpath "$program")
  left=""
  for pid in $(pgrep -f -- "$(basename "$program")"); do
    [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$exe" ] && left+="$pid "
  done
  [ -z "$left" ] || fail "processes of $program are left: $left"
fi
# Segments of concurrent jobs exist only for the moment between their creation and unlinking: one still there after
# the pause, made during this run, is this job's.
left=$(find /dev/shm -maxdepth 1 -name 'portshmem*' -newer "$marker" 2>/dev/null)
[ -z "$left" ] || fail "left in /dev/shm: $left"
rm -f "$marker"
[ "$failed" = 0 ] && echo "expect_dead_peer: the job ended with status $rc after $took s, naming PE $pe, nothing left" >&2
exit "$failed"
