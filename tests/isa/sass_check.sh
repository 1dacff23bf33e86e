#!/usr/bin/env bash
# SASS check of the public device API on sm_90 (needs cuobjdump, so it runs where the CUDA toolkit has it, e.g. the
# H200 machine; it needs no GPU): builds tests/isa/api_probe.cpp as an sm_90 cubin (or takes one), dumps its SASS,
# counts per probe kernel the memory barriers by scope (MEMBAR.*.CTA / .GPU / .SYS), ERRBAR and CCTL.IVALL (the L1
# invalidate), prints them as a table, and asserts what the scopes promise. Counts are of the whole kernel: the probes
# clear ctx::error and ctx::strict, so the only fences in a kernel are those of the call under test and of its context
# (docs/lowering.md says which; the strict__* probes keep both branches).
#
#   usage: tests/isa/sass_check.sh REPO_ROOT [CUBIN]
#   env:   NVCC (default nvcc on PATH, else /usr/local/cuda/bin/nvcc), CUOBJDUMP (default: next to nvcc, else on PATH),
#          SHOW=<kernel> (also print that kernel's SASS), KEEP_DIR (keep the cubin and the dump there)
#   exit:  0 all checks passed; 1 a check or the build failed; 77 no nvcc / cuobjdump
set -euo pipefail

ROOT=${1:?usage: sass_check.sh REPO_ROOT [CUBIN]}
ROOT=$(cd "$ROOT" && pwd)
CUBIN=${2:-}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUOBJDUMP=${CUOBJDUMP:-$(dirname "$NVCC")/cuobjdump}
[[ -x $CUOBJDUMP ]] || CUOBJDUMP=$(command -v cuobjdump || true)
[[ -n $CUOBJDUMP && -x $CUOBJDUMP ]] || { echo "SKIP sass_check: no cuobjdump" >&2; exit 77; }

WORK=${KEEP_DIR:-$(mktemp -d /tmp/isa-sass.XXXXXX)}
mkdir -p "$WORK"
[[ -n ${KEEP_DIR:-} ]] || trap 'rm -rf "$WORK"' EXIT

if [[ -z $CUBIN ]]; then
  command -v "$NVCC" >/dev/null || { echo "SKIP sass_check: no nvcc (or pass a cubin)" >&2; exit 77; }
  # shellcheck source=tests/isa/config_h.sh
  . "$ROOT/tests/isa/config_h.sh"
  isa_config_h "$WORK/include/portshmem/config.h" 1 0
  CUBIN=$WORK/api_probe.cubin
  (cd "$ROOT" && "$NVCC" -arch=sm_90 -cubin -x cu -I"$WORK/include" -Iinclude -std=c++17 -O2 \
    -DPORTSHMEM_DEBUG_CHECKS=0 tests/isa/api_probe.cpp -o "$CUBIN") || { echo "FAIL sass_check: build" >&2; exit 1; }
fi
"$CUOBJDUMP" -sass "$CUBIN" >"$WORK/sass.txt"

[[ -n ${SHOW:-} ]] && awk -v k="$SHOW" '/Function : /{on = ($3 == k)} on' "$WORK/sass.txt"

# One row per kernel: name cta gpu sys errbar cctl (MEMBAR scopes from the opcode's last component).
awk '
  /Function : / { name = $3; names[++n] = name; next }
  name != "" && /\/\*[0-9a-f]+\*\// {
    line = $0
    sub(/^[^*]*\/\*[0-9a-f]+\*\/[ \t]*/, "", line)
    sub(/^@!?U?P[0-9T]+[ \t]+/, "", line)
    split(line, f, /[ \t;]+/)
    op = f[1]
    if (op ~ /^MEMBAR/) {
      k = split(op, parts, ".")
      sc = parts[k]
      if (sc == "CTA" || sc == "GPU" || sc == "SYS") cnt[name, sc]++
      else cnt[name, "OTHER"]++
    } else if (op == "ERRBAR") cnt[name, "ERRBAR"]++
    else if (op == "CCTL.IVALL") cnt[name, "CCTL"]++
  }
  END {
    for (i = 1; i <= n; i++) {
      m = names[i]
      printf "%s %d %d %d %d %d %d\n", m, cnt[m, "CTA"], cnt[m, "GPU"], cnt[m, "SYS"], cnt[m, "ERRBAR"], cnt[m, "CCTL"],
        cnt[m, "OTHER"]
    }
  }' "$WORK/sass.txt" | sort >"$WORK/counts.txt"

[[ -s $WORK/counts.txt ]] || { echo "FAIL sass_check: no kernels in the SASS dump" >&2; exit 1; }

printf '\n%-40s %10s %10s %10s %6s %10s\n' kernel MEMBAR.CTA MEMBAR.GPU MEMBAR.SYS ERRBAR CCTL.IVALL
awk '{ other = $7 ? "  (+" $7 " MEMBAR of another kind)" : ""
       printf "%-40s %10d %10d %10d %6d %10d%s\n", $1, $2, $3, $4, $5, $6, other }' "$WORK/counts.txt"

# The assertions, by the probe naming convention <call>__<qualifier>_<qualifier>... (tests/isa/api_probe.cpp).
awk '
  function fail(msg) { print "FAIL sm_90 SASS " $1 ": " msg > "/dev/stderr"; bad++ }
  {
    name = $1; cta = $2; gpu = $3; sys = $4; errbar = $5; cctl = $6; other = $7
    membar = cta + gpu + sys + other
    p = index(name, "__"); call = substr(name, 1, p - 1); q = substr(name, p + 2)
    relaxed = ("_" q "_") ~ /_relaxed_/
    # Every fence of the API is .sys on sm_90, whatever the scope qualifier: mm::device lowers to .sys (two PEs are
    # two processes, which PTX .gpu does not cover: arch::kPeerDeviceScope).
    if (cta || gpu) fail(cta + gpu " MEMBAR.*.CTA/.GPU: every API fence is .sys on sm_90")
    if (call ~ /^(fence|quiet|pe_quiet)$/ && !sys) fail("a " call " without MEMBAR.*.SYS")
    scoped = sys
    if (call ~ /^(wait_until|test|signal_wait_until|wait_until_all|wait_until_any|wait_until_some|test_any)$/) {
      if (relaxed && (membar || cctl)) fail("a relaxed wait emits " membar " MEMBAR, " cctl " CCTL.IVALL")
      # Acquiring waits poll with ld.acquire (arch::kCheapAcquireLoad): an L1 invalidate, no MEMBAR needed.
      if (!relaxed && !cctl) fail("an acquiring wait needs an L1 invalidate (CCTL.IVALL): " cctl)
    }
    if (call ~ /^put_signal/ && !scoped) fail("the signal is not released (no MEMBAR at the scope)")
    if (call == "signal_op" && ("_" q "_") ~ /_all_/ && !scoped) fail("signal_op<all> is not a release (no MEMBAR)")
    quiet_call = "^(put|putmem|putmem_block|putmem_nbi_block|get|p|g|atomic_(fetch_add|compare_swap|set|add|fetch))$"
    if (call ~ quiet_call && membar) fail("a call that orders nothing emits " membar " MEMBAR")
    if (call == "signal_op" && ("_" q "_") ~ /_comm_/ && membar) fail("signal_op<comm> emits " membar " MEMBAR")
    if (call == "error_path" && !sys) fail("the cold error path lost its MEMBAR.*.SYS")
    rows++
  }
  END {
    if (rows < 50) { print "FAIL sm_90 SASS: only " rows " probe kernels found" > "/dev/stderr"; bad++ }
    if (bad) { print "sass_check: " bad " failure(s)" > "/dev/stderr"; exit 1 }
    print "\nsass_check: all checks passed (" rows " kernels)"
  }' <(grep '__' "$WORK/counts.txt")
