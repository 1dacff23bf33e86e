#!/usr/bin/env bash
# Runs portshmem-info as a user would, in a clean environment with a few PORTSHMEM_* variables set, and checks that
# every section is there, that the variables are reported with the values set and where they came from, and that a
# refused value makes it exit 1 with init's message.   usage: check_portshmem_info.sh PORTSHMEM_INFO_BINARY
set -uo pipefail
bin=${1:?usage: check_portshmem_info.sh PORTSHMEM_INFO_BINARY}
failed=0
expect() { # expect TEXT LINE: LINE (a fixed string) is a whole line of TEXT
  if ! grep -qxF -- "$2" <<<"$1"; then
    echo "check_portshmem_info: missing line: $2" >&2
    failed=1
  fi
}

out=$(env -i PATH="$PATH" PORTSHMEM_TIMEOUT=42s PORTSHMEM_HEAP_SIZE=512MiB PORTSHMEM_HEAPSIZE=2G "$bin")
status=$?
echo "$out"
[ "$status" = 0 ] || { echo "check_portshmem_info: exit status $status with a valid environment" >&2; failed=1; }
for section in "portshmem" "build" "system" "GPUs" "NICs (RDMA)" "MPS (CUDA Multi-Process Service)" \
  "environment (docs/env.md; [job] = must be the same on every PE)" "transports"; do
  expect "$out" "== $section"
done
expect "$out" "  PORTSHMEM_TIMEOUT: 42s (environment \"42s\") [job]"
expect "$out" "  PORTSHMEM_HEAP_SIZE: 512M (environment \"512MiB\") [job]"
expect "$out" "  PORTSHMEM_DEBUG: WARN (default)"
expect "$out" "  PORTSHMEM_HEAPSIZE: not a portshmem variable (misspelled?); init warns and ignores it"
grep -q "^  version: [0-9]" <<<"$out" || { echo "check_portshmem_info: no version line" >&2; failed=1; }
grep -q "^  platform: " <<<"$out" || { echo "check_portshmem_info: no platform line" >&2; failed=1; }

bad=$(env -i PATH="$PATH" PORTSHMEM_DEBUG=verbose "$bin")
status=$?
[ "$status" = 1 ] || { echo "check_portshmem_info: exit status $status with PORTSHMEM_DEBUG=verbose, not 1" >&2; failed=1; }
expect "$bad" "  PORTSHMEM_DEBUG: REFUSED (environment \"verbose\"): PORTSHMEM_DEBUG=\"verbose\" is not a log level; \
accepted: ERROR, WARN, INFO or TRACE (any case). portshmem_init fails with PORTSHMEM_ERR_ENV"
[ "$failed" = 0 ] && echo "check_portshmem_info: passed"
exit "$failed"
