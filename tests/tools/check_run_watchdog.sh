#!/usr/bin/env bash
# check_run_watchdog.sh PORTSHMEM_RUN EXPECT_JOB_FAILS: portshmem-run ends an mpirun that hangs in its own teardown
# after its ranks ended (Open MPI 4.1's mpirun did, here). A fake mpirun first on the PATH starts two short "ranks",
# then waits with no child left; the launcher must end it, non-zero and saying why, long before the fake's own 120 s.
# Then the same job under tests/mp/expect_job_fails.sh, which must count it as ended (the launcher's status is then
# 137, as a KILL gives), not as hung: a CI run failed once on that confusion.
set -euo pipefail
run=$1
expect_job_fails=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/mpirun" <<'FAKE'
#!/usr/bin/env bash
[ "${1:-}" = --version ] && { echo "fake mpirun"; exit 0; }
sleep 3 &
sleep 3 &
wait
read -r -t 120 _ <> <(:) || true # hangs without a child process
FAKE
chmod +x "$dir/mpirun"
start=$SECONDS
status=0
PATH="$dir:$PATH" PORTSHMEM_RUN_MPS=off timeout 90 "$run" -np 2 true 2>"$dir/err" || status=$?
took=$((SECONDS - start))
cat "$dir/err" >&2
[ "$status" != 0 ] || { echo "check_run_watchdog: FAILED: the launcher reported success" >&2; exit 1; }
[ "$status" != 124 ] || { echo "check_run_watchdog: FAILED: the launcher did not end the hung mpirun" >&2; exit 1; }
grep -q "mpirun still runs 15 s after its last rank ended" "$dir/err" ||
  { echo "check_run_watchdog: FAILED: no line saying why the run was ended" >&2; exit 1; }
echo "check_run_watchdog: the hung mpirun was ended after $took s (status $status)"
PATH="$dir:$PATH" PORTSHMEM_RUN_MPS=off "$expect_job_fails" 40 "mpirun still runs 15 s" -- "$run" -np 2 true ||
  { echo "check_run_watchdog: FAILED: expect_job_fails.sh counted the ended job as hung" >&2; exit 1; }
