#!/usr/bin/env bash
# ISA check of the arch layer (no GPU needed): compiles tests/isa/arch_probe.cpp for gfx90a and gfx942 (clang-19,
# device-only -S) and for sm_90 (nvcc -ptx), in parallel, splits the output per kernel, asserts what each primitive
# must and must not lower to, and prints a table per target.
#
#   usage: tests/isa/check_arch.sh REPO_ROOT [--all]      (--all: a table row for every probe kernel)
#   env:   CLANG (default clang-19), NVCC (default nvcc on PATH, else /usr/local/cuda/bin/nvcc), KEEP_DIR (keep outputs),
#          INCLUDE_DIR (the library headers to check, default REPO_ROOT/include: tests/isa/mutation_test.sh points it
#          at a mutated copy)
#   exit:  0 all checks passed; 1 a check or a compile failed; 77 passed, but a target was skipped (no compiler)
set -euo pipefail

ROOT=${1:?usage: check_arch.sh REPO_ROOT [--all]}
ROOT=$(cd "$ROOT" && pwd)
ALL=${2:-}
PROBE="$ROOT/tests/isa/arch_probe.cpp"
INC=${INCLUDE_DIR:-$ROOT/include}
CLANG=${CLANG:-clang-19}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
command -v python3 >/dev/null || { echo "check_arch: python3 is needed to parse the assembly" >&2; exit 1; }
[[ -f $PROBE ]] || { echo "check_arch: no $PROBE" >&2; exit 1; }
[[ -d $INC/portshmem ]] || { echo "check_arch: no $INC/portshmem" >&2; exit 1; }

WORK=${KEEP_DIR:-$(mktemp -d)}
mkdir -p "$WORK"
[[ -n ${KEEP_DIR:-} ]] || trap 'rm -rf "$WORK"' EXIT

config() {  # a throwaway portshmem/config.h selecting one platform
  mkdir -p "$WORK/$1/portshmem"
  printf '#define PORTSHMEM_PLATFORM_%s %d\n' HOST 0 NVIDIA "$2" AMD "$3" >"$WORK/$1/portshmem/config.h"
}

skipped=0
failed=0
targets=()
pids=()

if command -v "$CLANG" >/dev/null; then
  config amd 0 1
  RES=$("$CLANG" -print-resource-dir)
  MC=$(dirname "$(readlink -f "$(command -v "$CLANG")")")/llvm-mc
  for arch in gfx90a gfx942; do
    # The compile line of docs TOOLCHAINS.md (device-only, one -S per target); the assembly must also assemble (cache
    # bits are spelled differently per target).
    (
      "$CLANG" -x hip --offload-arch=$arch -nogpulib -nogpuinc -I"$RES/include/cuda_wrappers" -I"$RES/include" \
        -I/usr/include -D__HIP_PLATFORM_AMD__ -include __clang_hip_runtime_wrapper.h -I"$WORK/amd" -I"$INC" \
        -std=c++17 -O2 -Wall -Wextra -Werror --cuda-device-only -S "$PROBE" -o "$WORK/$arch.s" ||
        { echo "FAIL $arch: arch_probe.cpp does not compile"; exit 1; }
      if [[ -x $MC ]] && ! "$MC" -triple=amdgcn-amd-amdhsa -mcpu=$arch -filetype=obj "$WORK/$arch.s" -o /dev/null; then
        echo "FAIL $arch: llvm-mc rejects the generated assembly"
        exit 1
      fi
    ) >"$WORK/$arch.log" 2>&1 &
    pids+=("$arch:$!")
  done
else
  echo "SKIP gfx90a, gfx942: no $CLANG" >&2
  skipped=1
fi

if [[ -x $NVCC ]] || command -v "$NVCC" >/dev/null; then
  config nv 1 0
  (
    "$NVCC" -arch=sm_90 -ptx -std=c++17 -x cu -Xcompiler -Wall,-Wextra,-Werror -I"$WORK/nv" -I"$INC" "$PROBE" \
      -o "$WORK/sm_90.ptx" || { echo "FAIL sm_90: arch_probe.cpp does not compile"; exit 1; }
    PTXAS=$(dirname "$NVCC")/ptxas
    if [[ -x $PTXAS ]] && ! "$PTXAS" -arch=sm_90 "$WORK/sm_90.ptx" -o /dev/null; then
      echo "FAIL sm_90: ptxas rejects the generated PTX"
      exit 1
    fi
  ) >"$WORK/sm_90.log" 2>&1 &
  pids+=("sm_90:$!")
else
  echo "SKIP sm_90: no nvcc" >&2
  skipped=1
fi

for entry in "${pids[@]}"; do
  t=${entry%%:*}
  if wait "${entry#*:}"; then
    targets+=("$t=$WORK/$t.$([[ $t == sm_90 ]] && echo ptx || echo s)")
  else
    sed -n 1,40p "$WORK/$t.log" >&2
    failed=1
  fi
done

if ((${#targets[@]})); then
  python3 - "$ROOT/tests/isa" "$ALL" "${targets[@]}" <<'PYEOF' || failed=1
import re, sys

sys.path.insert(0, sys.argv[1])
from api_lowering import Dataflow, Flow, amd_is_inv, amd_is_wait, amd_is_wb, amd_is_write, amd_mem, parse_amd, parse_ptx

show_all = sys.argv[2] == "--all"
failures = []

def fail(target, kernel, why):
    failures.append(f"FAIL {target} {kernel}: {why}")

def instructions(items):
    return [v for k, v in items if k == "ins"]

# ---- AMD analysis ----------------------------------------------------------------------------------------------------
VMEM = re.compile(r"^(global|flat|buffer|scratch)_(load|store|atomic)_")
def amd_facts(ins):
    mem = [(i, s) for i, s in enumerate(ins) if VMEM.match(s)]
    stores = [i for i, s in mem if "_store_" in s]
    loads = [i for i, s in mem if "_load_" in s]
    waits = [i for i, s in enumerate(ins) if amd_is_wait(s)]
    between = lambda a, b: any(a < w < b for w in waits)
    bits = {}
    for _, s in mem:
        kind = "st" if "_store_" in s else "ld" if "_load_" in s else "rmw"
        mods = " ".join(t for t in s.split() if t in ("glc", "slc", "nt", "sc0", "sc1", "scc")) or "none"
        bits.setdefault(kind, set()).add(mods)
    return {
        "wbl2": next((s for s in ins if amd_is_wb(s)), None),
        "inv": next((s for s in ins if amd_is_inv(s)), None),
        "wbs": [s for s in ins if amd_is_wb(s)],
        "invs": [s for s in ins if amd_is_inv(s)],
        "rel_ordered": len(stores) >= 2 and between(stores[0], stores[1]),
        "acq_ordered": len(loads) >= 2 and between(loads[0], loads[1]),
        "bits": bits,
        "calls": any(s.startswith(("s_swappc", "s_setpc")) for s in ins),
        "stores": [s for _, s in mem if "_store_" in s],
        "loads": [s for _, s in mem if "_load_" in s],
        "rmws": [s for _, s in mem if "_atomic_" in s],
    }

def bits_of(s):
    return " ".join(t for t in ("sc0", "sc1", "nt", "glc", "slc") if t in s.split()) or "none"

def bits_str(bits):
    return " ".join(f"{k}:{'|'.join(sorted(v))}" for k, v in sorted(bits.items())) or "-"

FENCE = re.compile(r"^(fence|fence_comm)_(relaxed|acquire|release|acq_rel|seq_cst)_(wave|block|device|system)$")
BARE_FENCE = re.compile(r"^barefence_(release|acq_rel|seq_cst)_(device|system)$")
ATOMIC = re.compile(r"^(load|store|exchange|cas|fetch_add)_(relaxed|acquire|release|acq_rel|seq_cst)_(block|device|system)$")
SUBWORD = re.compile(r"^(load|store)_u(8|16)_relaxed_(device|system)$")

# The cache maintenance of a release (write-back) and of an acquire (invalidate) at each scope, from AMDGPUUsage's
# GFX90A and GFX942 code sequences. An acquire at system scope must invalidate every cache that can hold a stale copy:
# on gfx90a the L2 (buffer_invl2, for memory another agent writes) and the L1 (buffer_wbinvl1_vol); on gfx942 both
# levels at once (buffer_inv sc0 sc1). "buffer_inv sc1" or a lone buffer_wbinvl1_vol is the agent-scope (L1-only on
# gfx90a) acquire. Wave and block scopes need none (the CU's L1 is shared, outside tgsplit mode).
AMD_WB = {"gfx90a": {"system": ["buffer_wbl2"]}, "gfx942": {"system": ["buffer_wbl2 sc0 sc1"],
                                                             "device": ["buffer_wbl2 sc1"]}}
AMD_INV = {"gfx90a": {"system": ["buffer_invl2", "buffer_wbinvl1_vol"], "device": ["buffer_wbinvl1_vol"]},
           "gfx942": {"system": ["buffer_inv sc0 sc1"], "device": ["buffer_inv sc1"]}}
# Scope bits of an atomic load or store (gfx942: sc0 = wave/workgroup... see the CDNA3 ISA's scope table).
GFX942_SCOPE_BITS = {"block": "sc0", "device": "sc1", "system": "sc0 sc1"}

def check_maintenance(target, name, f, rel, acq, scope):
    """Exactly the write-backs and invalidates an operation with a release (rel) / acquire (acq) part at scope needs:
    nothing weaker (an L1-only or agent-scope acquire where system is asked) and nothing extra."""
    want_wb = AMD_WB[target].get(scope, []) if rel else []
    want_inv = AMD_INV[target].get(scope, []) if acq else []
    if set(f["wbs"]) != set(want_wb) or (want_wb and not f["wbs"]):
        fail(target, name, f"write-backs {f['wbs']}, expected {want_wb} ({scope} scope)")
    if set(f["invs"]) != set(want_inv):
        fail(target, name, f"invalidates {f['invs']}, expected {want_inv} ({scope} scope)")

def check_waits(target, name, items):
    """The waits around cache maintenance, on every control-flow path: after buffer_wbl2 a s_waitcnt vmcnt(0) before
    any later vector-memory write and before any invalidate (the write-back counts in vmcnt; a write, or the
    invalidate of an acq_rel fence, that overtakes it breaks the release); before an invalidate, a s_waitcnt
    vmcnt(0) after every earlier vector-memory access and write-back (the acquire's load, or the release, must be
    complete before the caches are invalidated)."""
    flow = Flow(items, True)
    for i, (k, v) in enumerate(items):
        if k != "ins":
            continue
        if amd_is_wb(v):
            bad = flow.reaches_without(i, amd_is_wait, lambda s: amd_is_write(s) or amd_is_inv(s))
            if bad:
                fail(target, name, f"no s_waitcnt vmcnt(0) between '{v}' and the later '{bad}'")
        if amd_is_inv(v):
            bad = flow.reaches_without(i, amd_is_wait, lambda s: amd_mem(s) is not None or amd_is_wb(s),
                                       backward=True)
            if bad:
                fail(target, name, f"no s_waitcnt vmcnt(0) between the earlier '{bad}' and '{v}'")
            # gfx90a system scope: the L1 invalidate comes with an L2 invalidate right before it.
            if v == "buffer_wbinvl1_vol" and "buffer_invl2" in AMD_INV[target].get(name.rsplit("_", 1)[-1], []):
                prev = flow.reaches_without(i, lambda s: s == "buffer_invl2",
                                            lambda s: amd_mem(s) is not None or amd_is_wait(s) or amd_is_wb(s),
                                            backward=True)
                if prev or not flow.reaches_without(i, lambda s: False, lambda s: s == "buffer_invl2", backward=True):
                    fail(target, name, "a system-scope buffer_wbinvl1_vol without a buffer_invl2 right before it "
                         "(an L1-only acquire)")

def check_amd(target, ks):
    gfx942 = target == "gfx942"
    rows = []
    for name, items in ks.items():
        if name.startswith("__hip_cuid"):
            continue
        ins = instructions(items)
        f = amd_facts(ins)
        check_waits(target, name, items)
        if f["calls"]:
            fail(target, name, "calls a function (device libraries are not linked)")
        m = FENCE.match(name)
        if m:
            kind, o, s = m.groups()
            rel, acq = o in ("release", "acq_rel", "seq_cst"), o in ("acquire", "acq_rel", "seq_cst")
            # Wave and block scopes share the CU's in-order L1 path: LLVM emits no wait there (not in tgsplit mode).
            if rel and s in ("device", "system") and not f["rel_ordered"]:
                fail(target, name, "no s_waitcnt vmcnt(0) between the data store and the flag store")
            if acq and s in ("device", "system") and not f["acq_ordered"]:
                fail(target, name, "no s_waitcnt vmcnt(0) between the flag load and the data load")
            if kind == "fence_comm":
                if f["wbs"] or f["invs"]:
                    fail(target, name, f"comm fence emits cache maintenance: {f['wbs'] + f['invs']}")
            else:
                check_maintenance(target, name, f, rel, acq, s)
        bm = BARE_FENCE.match(name)
        if bm:  # the waits themselves are checked for every kernel (check_waits)
            o, s = bm.groups()
            check_maintenance(target, name, f, True, o != "release", s)
        am = ATOMIC.match(name)
        if am:
            op, o, s = am.groups()
            rel = o in ("release", "acq_rel", "seq_cst") and op != "load"
            acq = o == "seq_cst" if op == "store" else o in ("acquire", "acq_rel", "seq_cst")
            check_maintenance(target, name, f, rel, acq, s)
            kind = {"load": "loads", "store": "stores"}.get(op, "rmws")
            acc = f[kind]
            if not acc:
                fail(target, name, f"no {op} access")
            elif op in ("load", "store"):
                want = GFX942_SCOPE_BITS[s] if gfx942 else \
                    ("glc" if op == "load" and s != "block" else "none")
                got = {bits_of(x) for x in acc}
                if got != {want}:
                    fail(target, name, f"atomic {op} bits {sorted(got)}, expected {want} ({s} scope)")
            elif gfx942 and any(("sc1" in x.split()) != (s == "system") for x in acc):
                fail(target, name, f"atomic {acc}: sc1 (system scope) must be set exactly at system scope")
        sw = SUBWORD.match(name)
        if sw:
            op, width, s = sw.groups()
            acc = f["stores"] if op == "store" else f["loads"]
            want = GFX942_SCOPE_BITS[s] if gfx942 else ("none" if op == "store" else "glc")
            unit = {"8": "byte", "16": "short"}[width]
            if len(acc) != 1 or bits_of(acc[0]) != want or unit not in acc[0].split()[0]:
                fail(target, name, f"sub-word atomic {op}: {acc}, expected one {unit} access with bits {want}")
            if f["wbs"] or f["invs"]:
                fail(target, name, f"a relaxed access emits cache maintenance: {f['wbs'] + f['invs']}")
        if name.startswith(("store_data", "load_data")):
            c, s = name.rsplit("_", 2)[1:]
            kind = "stores" if name.startswith("store") else "loads"
            acc = f[kind]
            if kind == "loads" and c == "keep":  # a plain load the compiler may scalarize: s_load, not an argument read
                df = Dataflow(Flow(items, True))
                acc = acc + [v for i, (k, v) in enumerate(items) if k == "ins" and v.startswith("s_load") and
                             not df.entry_derived(i, df.roles[i].addr)]
            if c == "keep":
                want = "none"
            elif gfx942:
                want = GFX942_SCOPE_BITS[s]
            else:  # gfx90a: a relaxed atomic store is a plain store; a load misses the L1 with glc above block scope
                want = "none" if kind == "stores" or s == "block" else "glc"
            got = {bits_of(x) for x in acc}
            if got != {want}:
                fail(target, name, f"{c} {kind[:-1]} bits {sorted(got)}, expected {want}")
            if "16" in name:
                units = [x.split()[0].rsplit("_", 1)[1] for x in acc]
                # bypass: two 8-byte atomics (no 16-byte atomic exists); keep: one plain 16-byte access
                want_units = ["dwordx2", "dwordx2"] if c == "bypass" else ["dwordx4"]
                if units != want_units:
                    fail(target, name, f"16-byte {c} access as {units}, expected {want_units}")
        if name == "put_signal_comm_system":
            if f["wbs"] or f["invs"]:
                fail(target, name, "put-with-signal<comm> emits cache maintenance")
            st = [i for i, s in enumerate(ins) if VMEM.match(s) and "_store_" in s]
            if len(st) < 2 or not any(amd_is_wait(s) for s in ins[st[-2] + 1:st[-1]]):
                fail(target, name, "no vmcnt(0) wait between the last data store and the signal store")
        keep = show_all or (m and m.group(3) != "wave") or name.startswith(("store_data", "load_data", "put_signal")) \
            or (name.endswith("_system") and name.startswith(("load_", "store_", "fetch_add_", "barefence_")))
        if keep and name != "instantiate_all":
            if name == "put_signal_comm_system":  # data stores, then the signal: the wait must precede the last store
                st = [i for i, s in enumerate(ins) if VMEM.match(s) and "_store_" in s]
                f["rel_ordered"] = len(st) >= 2 and any(amd_is_wait(s) for s in ins[st[-2] + 1:st[-1]])
            order = ("rel " if f["rel_ordered"] else "") + ("acq" if f["acq_ordered"] else "")
            rows.append((name, f["wbl2"] or "-", " ".join(f["invs"]) or "-", order.strip() or "-",
                         bits_str(f["bits"])))
    print(f"\n== {target}  (vm-wait: a vmcnt(0) wait orders store->store [rel] / load->load [acq] across the fence)")
    print(f"{'kernel':34} {'wbl2':20} {'inv':31} {'vm-wait':8} cache bits (st/ld/rmw)")
    for r in sorted(rows):
        print(f"{r[0]:34} {r[1]:20} {r[2]:31} {r[3]:8} {r[4]}")

# ---- PTX analysis ----------------------------------------------------------------------------------------------------
PTX_SCOPE = {"wave": "cta", "block": "cta", "device": "gpu", "system": "sys"}
def check_ptx(target, ks):
    rows = []
    for name, items in ks.items():
        ins = instructions(items)
        ops = [s for s in ins if re.match(r"^(ld|st|atom|fence)\.", s) and not s.startswith(("ld.param", "st.param"))]
        scoped = [s for s in ops if re.match(r"^(ld|st|atom)\.(relaxed|acquire|release|acq_rel)\.|^fence\.", s)]
        fences = [s for s in ops if s.startswith("fence.")]
        sc = name.rsplit("_", 1)[-1]
        if sc in PTX_SCOPE and name != "instantiate_all":
            want = PTX_SCOPE[sc]
            for s in scoped:
                got = re.match(r"^\w+\.\w+\.(\w+)", s).group(1)
                if got != want:
                    fail(target, name, f"'{s}' has scope .{got}, expected .{want}")
        if any(re.match(r"^(ld|st)\.(\w+\.)*cs\b", s) for s in ops):
            fail(target, name, f"a .cs (weak, streaming) access: {[s for s in ops if '.cs' in s]}")
        # The probes' data accesses are the .global ones; the flag accesses of the fence shapes are generic.
        data_st = lambda s: s.startswith("st.") and ".global" in s
        data_ld = lambda s: s.startswith("ld.") and ".global" in s
        m = FENCE.match(name)
        if m:
            kind, o, s = m.groups()
            want = [] if o == "relaxed" else [f"fence.{'sc' if o == 'seq_cst' else 'acq_rel'}.{PTX_SCOPE[s]}"]
            if fences != want:
                fail(target, name, f"fences {fences}, expected {want}")
            if want:
                fi = next(i for i, s2 in enumerate(ops) if s2.startswith("fence."))
                before, after = ops[:fi], ops[fi + 1:]
                if o != "acquire" and not (any(data_st(x) for x in before) and
                                           any(x.startswith("st.relaxed") and not data_st(x) for x in after)):
                    fail(target, name, "the fence is not between the data store and the flag store")
                if o in ("acquire", "acq_rel", "seq_cst") and not (
                        any(x.startswith("ld.relaxed") and not data_ld(x) for x in before) and
                        any(data_ld(x) for x in after)):
                    fail(target, name, "the fence is not between the flag load and the data load")
        am = ATOMIC.match(name)
        if am:
            op, o, _ = am.groups()
            # seq_cst: NVIDIA's PTX atomics ABI (fence.sc + ld.acquire / st.relaxed / atom.acquire).
            sem = {"load": {"relaxed": "relaxed", "acquire": "acquire", "release": "relaxed", "acq_rel": "acquire",
                            "seq_cst": "acquire"},
                   "store": {"relaxed": "relaxed", "acquire": "relaxed", "release": "release", "acq_rel": "release",
                             "seq_cst": "relaxed"}}.get(op, {"seq_cst": "acquire"}).get(o, o)
            prefix = {"load": "ld.", "store": "st."}.get(op, "atom.") + sem + "."
            if not any(s.startswith(prefix) for s in ops):
                fail(target, name, f"no {prefix}* in {ops}")
            if (o == "seq_cst") != any(s.startswith("fence.sc.") for s in ops):
                fail(target, name, "seq_cst must (and only seq_cst may) add fence.sc")
        sw = SUBWORD.match(name)
        if sw:
            op, width, s = sw.groups()
            want = f"{'st' if op == 'store' else 'ld'}.relaxed.{PTX_SCOPE[s]}.b{width}"
            if not any(x.startswith(want + " ") for x in ops):
                fail(target, name, f"no {want} in {ops}")
        if name.startswith(("store_data", "load_data")):
            c, s = name.rsplit("_", 2)[1:]
            verb = "st" if name.startswith("store") else "ld"
            data = [x for x in ops if x.startswith(verb + ".") and ".global" in x]
            # keep: a weak access (ld/st.global); bypass: a strong relaxed one at the scope, never .cs
            want = f"{verb}.global." if c == "keep" else f"{verb}.relaxed.{PTX_SCOPE[s]}.global."
            if not data or not all(x.startswith(want) for x in data):
                fail(target, name, f"expected {want}* data accesses, got {data}")
            if "16" in name and (len(data) != 1 or ".v4.u32" not in data[0]):
                fail(target, name, f"16-byte access is not one .v4.u32: {data}")
        if name == "wave_sync_probe" and not any(s.startswith("bar.warp.sync") for s in ins):
            fail(target, name, "no bar.warp.sync")
        if name == "misc_probe":
            for needle in ("%globaltimer", "nanosleep", "trap"):
                if not any(needle in s for s in ins):
                    fail(target, name, f"no {needle}")
        keep = show_all or (m and m.group(3) != "wave") or name.startswith(("store_data", "load_data", "put_signal")) \
            or (name.endswith("_system") and name.startswith(("load_", "store_", "cas_", "fetch_add_")))
        if keep and name != "instantiate_all":
            rows.append((name, " ".join(fences) or "-",
                         " ".join(sorted({re.sub(r"\s.*", "", s) for s in ops if not s.startswith("fence.")})) or "-"))
    print(f"\n== {target}")
    print(f"{'kernel':34} {'fences':26} memory operations")
    for r in sorted(rows):
        print(f"{r[0]:34} {r[1]:26} {r[2]}")

for t in sys.argv[3:]:
    target, path = t.split("=", 1)
    if target == "sm_90":
        check_ptx(target, parse_ptx(path))
    else:
        check_amd(target, parse_amd(path))

print()
for f in failures:
    print(f, file=sys.stderr)
print(f"check_arch: {len(failures)} failure(s)" if failures else "check_arch: all checks passed")
sys.exit(1 if failures else 0)
PYEOF
fi

if ((failed)); then exit 1; fi
if ((skipped)); then exit 77; fi
exit 0
