#!/usr/bin/env bash
# The cost of rocSHMEM's context-free calls (include/rocshmem, docs/rocshmem.md "The default context"): compiles pairs
# of kernels for sm_90 (nvcc -ptx, no GPU needed), each pair the same portshmem call once with the handle as a kernel
# parameter (explicit) and once through the rocSHMEM name that reads the translation unit's ROCSHMEM_CTX_DEFAULT
# (compat), and checks that the compat kernel's instructions are the explicit kernel's (the same ones, in the same
# order or as the scheduler reordered them) once the loads of parameters (ld.param) and of constant memory (ld.const)
# and the register moves (mov) are set aside, with no more moves in the compat kernel than in the explicit one (where
# a field comes from constant memory rather than a parameter, nvcc may need one copy fewer); that the compat kernel reads the handle with ld.const and the explicit one never does; and that both
# make the same number of loads: each handle field the explicit kernel loads from its parameter, the compat kernel
# loads from constant memory instead, and nothing else differs.
#   usage: tests/isa/rocshmem_implicit_handle.sh REPO_ROOT
#   env:   NVCC, MPI_INCLUDE (mpi.h's directories), KEEP_DIR (keep the PTX there), INCLUDE_DIR (headers to check,
#          default REPO_ROOT/include)
#   exit:  0 passed; 1 a check or the compile failed; 77 no nvcc
set -euo pipefail

ROOT=$(cd "${1:?usage: rocshmem_implicit_handle.sh REPO_ROOT}" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
command -v "$NVCC" >/dev/null || { echo "SKIP rocshmem_implicit_handle: no nvcc" >&2; exit 77; }
command -v python3 >/dev/null || { echo "SKIP rocshmem_implicit_handle: no python3" >&2; exit 77; }
MPI_INCLUDE=${MPI_INCLUDE:-$(mpicxx --showme:incdirs 2>/dev/null || true)}
WORK=${KEEP_DIR:-$(mktemp -d /tmp/rocshmem-isa.XXXXXX)}
mkdir -p "$WORK/include/portshmem"
[[ -n ${KEEP_DIR:-} ]] || trap 'rm -rf "$WORK"' EXIT

# shellcheck source=tests/isa/config_h.sh
. "$ROOT/tests/isa/config_h.sh"
isa_config_h "$WORK/include/portshmem/config.h" 1 0

# Pairs: explicit_<what> takes the handle as a parameter, compat_<what> uses the rocSHMEM name.
cat >"$WORK/probe.cu" <<'PROBE'
#include <rocshmem/rocshmem.hpp>
using namespace rocshmem;
__global__ void explicit_my_pe(portshmem::ctx c, int* out) { *out = portshmem::my_pe(c); }
__global__ void compat_my_pe(int* out) { *out = rocshmem_my_pe(); }
__global__ void explicit_p(portshmem::ctx c, int* d, int v, int pe) { portshmem::p(c, d, v, pe); }
__global__ void compat_p(int* d, int v, int pe) { rocshmem_int_p(d, v, pe); }
__global__ void explicit_g(portshmem::ctx c, long* out, const long* s, int pe) { *out = portshmem::g(c, s, pe); }
__global__ void compat_g(long* out, const long* s, int pe) { *out = rocshmem_long_g(s, pe); }
__global__ void explicit_putmem_wg(portshmem::ctx c, void* d, const void* s, size_t n, int pe) {
  portshmem::putmem_block(c, d, s, n, pe);
}
__global__ void compat_putmem_wg(void* d, const void* s, size_t n, int pe) { rocshmem_putmem_wg(d, s, n, pe); }
__global__ void explicit_fetch_add(portshmem::ctx c, unsigned long long* out, unsigned long long* d, int pe) {
  *out = portshmem::atomic_fetch_add(c, d, 1ull, pe);
}
__global__ void compat_fetch_add(unsigned long long* out, unsigned long long* d, int pe) {
  *out = rocshmem_ulonglong_atomic_fetch_add(d, 1ull, pe);
}
__global__ void explicit_put_signal(portshmem::ctx c, uint64_t* d, const uint64_t* s, size_t n, uint64_t* sig, int pe) {
  portshmem::put_signal(c, d, s, n, sig, uint64_t(1), portshmem::signal_set, pe);
}
__global__ void compat_put_signal(uint64_t* d, const uint64_t* s, size_t n, uint64_t* sig, int pe) {
  rocshmem_uint64_put_signal(d, s, n, sig, 1, ROCSHMEM_SIGNAL_SET, pe);
}
__global__ void explicit_wait(portshmem::ctx c, int* ivar) { portshmem::wait_until(c, ivar, portshmem::cmp::eq, 1); }
__global__ void compat_wait(int* ivar) { rocshmem_int_wait_until(ivar, ROCSHMEM_CMP_EQ, 1); }
__global__ void explicit_quiet(portshmem::ctx c) { portshmem::quiet(c); }
__global__ void compat_quiet() { rocshmem_quiet(); }
PROBE

inc=()
for d in $MPI_INCLUDE; do inc+=(-I"$d"); done
(cd "$WORK" && "$NVCC" -arch=sm_90 -ptx -x cu -std=c++17 -O2 -DPORTSHMEM_DEBUG_CHECKS=0 -I"$WORK/include" \
  -I"${INCLUDE_DIR:-$ROOT/include}" "${inc[@]}" probe.cu -o probe.ptx) >"$WORK/nvcc.log" 2>&1 ||
  { echo "FAIL rocshmem_implicit_handle: the probe does not compile:" >&2; sed -n 1,40p "$WORK/nvcc.log" >&2; exit 1; }

python3 - "$WORK/probe.ptx" <<'PY'
import re
import sys

ptx = open(sys.argv[1]).read()
kernels = {}
for m in re.finditer(r"\.entry\s+(\w+)\(", ptx):
    body = ptx[m.end():]
    body = body[body.index("{"):]
    depth = 0
    for i, ch in enumerate(body):
        depth += ch == "{"
        depth -= ch == "}"
        if depth == 0:
            body = body[:i]
            break
    ops = []
    for line in body.splitlines():
        line = line.strip()
        if not line.endswith(";") or line.startswith((".", "//")):
            continue
        tokens = line.rstrip(";").split()
        if tokens[0].startswith("@"):  # predicated
            tokens = tokens[1:]
        ops.append(tokens[0])
    kernels[m.group(1)] = ops

def plain(name):
    for k in kernels:
        if k.startswith("_Z%d%s" % (len(name), name)) or k == name:  # mangled: _Z<length><name><parameters>
            return kernels[k]
    sys.exit("rocshmem_implicit_handle: no kernel %s in the PTX" % name)

failed = 0
for what in ["my_pe", "p", "g", "putmem_wg", "fetch_add", "put_signal", "wait", "quiet"]:
    e, c = plain("explicit_" + what), plain("compat_" + what)
    strip = lambda ops: [o for o in ops if not o.startswith(("ld.param", "ld.const"))]
    const_c = sum(o.startswith("ld.const") for o in c)
    const_e = sum(o.startswith("ld.const") for o in e)
    loads_e = sum(o.startswith(("ld.param", "ld.const")) for o in e)
    loads_c = sum(o.startswith(("ld.param", "ld.const")) for o in c)
    work = lambda ops: sorted(o for o in strip(ops) if not o.startswith("mov."))
    moves = lambda ops: sum(o.startswith("mov.") for o in ops)
    same = work(e) == work(c) and moves(c) <= moves(e)
    ok = same and const_c >= 1 and const_e == 0 and loads_c == loads_e
    print("%-4s %-10s %4d instructions besides loads (%s); explicit: %d ld.param; compat: %d ld.param + %d ld.const" %
          ("ok" if ok else "FAIL", what, len(strip(e)), "same order" if strip(e) == strip(c) else "reordered",
           loads_e, loads_c - const_c, const_c))
    if not ok:
        failed = 1
        if not same:
            print("  explicit: " + " ".join(strip(e)) + "\n  compat:   " + " ".join(strip(c)))
sys.exit(failed)
PY
