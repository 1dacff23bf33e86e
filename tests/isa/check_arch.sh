#!/usr/bin/env bash
# ISA check of the arch layer (no GPU needed): compiles tests/isa/arch_probe.cpp for gfx90a and gfx942 (clang-19,
# device-only -S) and for sm_90 (nvcc -ptx), splits the output per kernel, asserts what each primitive must and must
# not lower to, and prints a table per target.
#
#   usage: tests/isa/check_arch.sh REPO_ROOT [--all]      (--all: a table row for every probe kernel)
#   env:   CLANG (default clang-19), NVCC (default nvcc on PATH, else /usr/local/cuda/bin/nvcc), KEEP_DIR (keep outputs)
#   exit:  0 all checks passed; 1 a check or a compile failed; 77 passed, but a target was skipped (no compiler)
set -euo pipefail

ROOT=${1:?usage: check_arch.sh REPO_ROOT [--all]}
ROOT=$(cd "$ROOT" && pwd)
ALL=${2:-}
PROBE="$ROOT/tests/isa/arch_probe.cpp"
CLANG=${CLANG:-clang-19}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
command -v python3 >/dev/null || { echo "check_arch: python3 is needed to parse the assembly" >&2; exit 1; }
[[ -f $PROBE ]] || { echo "check_arch: no $PROBE" >&2; exit 1; }

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

if command -v "$CLANG" >/dev/null; then
  config amd 0 1
  RES=$("$CLANG" -print-resource-dir)
  for arch in gfx90a gfx942; do
    # The compile line of docs TOOLCHAINS.md (device-only, one -S per target).
    if "$CLANG" -x hip --offload-arch=$arch -nogpulib -nogpuinc -I"$RES/include/cuda_wrappers" -I"$RES/include" \
      -I/usr/include -D__HIP_PLATFORM_AMD__ -include __clang_hip_runtime_wrapper.h -I"$WORK/amd" -I"$ROOT/include" \
      -std=c++17 -O2 -Wall -Wextra -Werror --cuda-device-only -S "$PROBE" -o "$WORK/$arch.s"; then
      targets+=("$arch=$WORK/$arch.s")
      # The assembly must also assemble (cache bits are spelled differently per target).
      MC=$(dirname "$(readlink -f "$(command -v "$CLANG")")")/llvm-mc
      if [[ -x $MC ]] && ! "$MC" -triple=amdgcn-amd-amdhsa -mcpu=$arch -filetype=obj "$WORK/$arch.s" -o /dev/null; then
        echo "FAIL $arch: llvm-mc rejects the generated assembly" >&2
        failed=1
      fi
    else
      echo "FAIL $arch: arch_probe.cpp does not compile" >&2
      failed=1
    fi
  done
else
  echo "SKIP gfx90a, gfx942: no $CLANG" >&2
  skipped=1
fi

if [[ -x $NVCC ]] || command -v "$NVCC" >/dev/null; then
  config nv 1 0
  if "$NVCC" -arch=sm_90 -ptx -std=c++17 -x cu -Xcompiler -Wall,-Wextra,-Werror -I"$WORK/nv" -I"$ROOT/include" \
    "$PROBE" -o "$WORK/sm_90.ptx"; then
    targets+=("sm_90=$WORK/sm_90.ptx")
    PTXAS=$(dirname "$NVCC")/ptxas
    if [[ -x $PTXAS ]] && ! "$PTXAS" -arch=sm_90 "$WORK/sm_90.ptx" -o /dev/null; then
      echo "FAIL sm_90: ptxas rejects the generated PTX" >&2
      failed=1
    fi
  else
    echo "FAIL sm_90: arch_probe.cpp does not compile" >&2
    failed=1
  fi
else
  echo "SKIP sm_90: no nvcc" >&2
  skipped=1
fi

if ((${#targets[@]})); then
  python3 - "$ALL" "${targets[@]}" <<'PYEOF' || failed=1
import re, sys

show_all = sys.argv[1] == "--all"
failures = []

def fail(target, kernel, why):
    failures.append(f"FAIL {target} {kernel}: {why}")

# ---- splitting -------------------------------------------------------------------------------------------------------
def split_amd(path):
    kernels, cur = {}, None
    for line in open(path):
        m = re.match(r"^([A-Za-z_]\w*):", line)
        if m:
            cur = m.group(1)
            kernels[cur] = []
            continue
        if cur is None:
            continue
        if line.startswith(".Lfunc_end") or re.match(r"^\s+\.end_amdhsa_kernel", line):
            cur = None
            continue
        m = re.match(r"^\s+([a-z_][\w.]*)(.*)$", line)
        if m and not line.lstrip().startswith("."):
            kernels[cur].append((m.group(1) + m.group(2).split(";")[0]).strip())
    return kernels

def split_ptx(path):
    kernels, cur = {}, None
    for line in open(path):
        m = re.match(r"^\.(?:visible|weak)\s+\.entry\s+(\w+)\(", line)
        if m:
            cur = m.group(1)
            kernels[cur] = []
            continue
        if cur is None:
            continue
        if line.startswith("}"):
            cur = None
            continue
        s = line.strip().split("//")[0].strip()
        if s and not s.startswith((".", "{", "}", "$", ")")) and not s.endswith(":"):
            kernels[cur].append(s)
    return kernels

# ---- AMD analysis ----------------------------------------------------------------------------------------------------
VMEM = re.compile(r"^(global|flat|buffer)_(load|store|atomic)_")
def amd_facts(ins):
    mem = [(i, s) for i, s in enumerate(ins) if VMEM.match(s)]
    stores = [i for i, s in mem if "_store_" in s]
    loads = [i for i, s in mem if "_load_" in s]
    waits = [i for i, s in enumerate(ins) if s.startswith("s_waitcnt") and "vmcnt(0)" in s]
    between = lambda a, b: any(a < w < b for w in waits)
    bits = {}
    for _, s in mem:
        kind = "st" if "_store_" in s else "ld" if "_load_" in s else "rmw"
        mods = " ".join(t for t in s.split() if t in ("glc", "slc", "nt", "sc0", "sc1", "scc")) or "none"
        bits.setdefault(kind, set()).add(mods)
    return {
        "wbl2": next((s for s in ins if s.startswith("buffer_wbl2")), None),
        "inv": next((s for s in ins if re.match(r"buffer_(inv|invl2|wbinvl1)", s)), None),
        "rel_ordered": len(stores) >= 2 and between(stores[0], stores[1]),
        "acq_ordered": len(loads) >= 2 and between(loads[0], loads[1]),
        "bits": bits,
        "calls": any(s.startswith(("s_swappc", "s_setpc")) for s in ins),
        "stores": [s for _, s in mem if "_store_" in s],
        "loads": [s for _, s in mem if "_load_" in s],
    }

def bits_str(bits):
    return " ".join(f"{k}:{'|'.join(sorted(v))}" for k, v in sorted(bits.items())) or "-"

FENCE = re.compile(r"^(fence|fence_comm)_(relaxed|acquire|release|acq_rel|seq_cst)_(wave|block|device|system)$")

def check_amd(target, ks):
    gfx942 = target == "gfx942"
    rows = []
    for name, ins in ks.items():
        if name.startswith("__hip_cuid"):
            continue
        f = amd_facts(ins)
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
            if kind == "fence_comm" and (f["wbl2"] or f["inv"]):
                fail(target, name, f"comm fence emits cache maintenance: {f['wbl2'] or f['inv']}")
            if kind == "fence" and s == "system":
                if rel and not f["wbl2"]:
                    fail(target, name, "system release without buffer_wbl2")
                if acq and not f["inv"]:
                    fail(target, name, "system acquire without an L2 invalidate")
                if rel and gfx942 and f["wbl2"] != "buffer_wbl2 sc0 sc1":
                    fail(target, name, f"expected buffer_wbl2 sc0 sc1, got {f['wbl2']}")
        if name.startswith("store_data") and "bypass" in name:
            want = ("sc0 sc1" if name.endswith("system") else "sc1" if name.endswith("device") else "nt") if gfx942 \
                else "glc slc"
            got = f["bits"].get("st", set())
            if got != {want}:
                fail(target, name, f"bypass store bits {sorted(got)}, expected {want}")
            if gfx942 and "16" in name and name.endswith(("device", "system")) and len(f["stores"]) != 2:
                fail(target, name, "16-byte scoped bypass store should be two 8-byte atomic stores")
            if not (gfx942 and name.endswith(("device", "system"))) and "16" in name and \
                    not any("dwordx4" in s for s in f["stores"]):
                fail(target, name, "16-byte nontemporal store is not one dwordx4")
        if name.startswith("load_data") and "bypass" in name:
            want = {"system": "sc0 sc1", "device": "sc1", "block": "sc0"} if gfx942 else \
                {"system": "glc", "device": "glc", "block": "none"}
            got = {b for b in f["bits"].get("ld", set())}
            exp = want[name.rsplit("_", 1)[1]]
            if got != {exp}:
                fail(target, name, f"bypass load bits {sorted(got)}, expected {exp}")
        if "_keep_" in name:
            kind = "st" if name.startswith("store") else "ld"
            if f["bits"].get(kind, {"none"}) != {"none"}:
                fail(target, name, f"keep access carries cache bits {bits_str(f['bits'])}")
        if name == "put_signal_comm_system":
            if f["wbl2"] or f["inv"]:
                fail(target, name, "put-with-signal<comm> emits cache maintenance")
            st = [i for i, s in enumerate(ins) if VMEM.match(s) and "_store_" in s]
            if len(st) < 2 or not any(s.startswith("s_waitcnt") and "vmcnt(0)" in s for s in ins[st[-2] + 1:st[-1]]):
                fail(target, name, "no vmcnt(0) wait between the last data store and the signal store")
        keep = show_all or (m and m.group(3) != "wave") or name.startswith(("store_data", "load_data", "put_signal")) \
            or (name.endswith("_system") and name.startswith(("load_", "store_", "fetch_add_")))
        if keep and name != "instantiate_all":
            if name == "put_signal_comm_system":  # data stores, then the signal: the wait must precede the last store
                st = [i for i, s in enumerate(ins) if VMEM.match(s) and "_store_" in s]
                f["rel_ordered"] = len(st) >= 2 and any("vmcnt(0)" in s for s in ins[st[-2] + 1:st[-1]])
            order = ("rel " if f["rel_ordered"] else "") + ("acq" if f["acq_ordered"] else "")
            rows.append((name, f["wbl2"] or "-", f["inv"] or "-", order.strip() or "-", bits_str(f["bits"])))
    print(f"\n== {target}  (vm-wait: a vmcnt(0) wait orders store->store [rel] / load->load [acq] across the fence)")
    print(f"{'kernel':34} {'wbl2':18} {'inv':24} {'vm-wait':8} cache bits (st/ld/rmw)")
    for r in sorted(rows):
        print(f"{r[0]:34} {r[1]:18} {r[2]:24} {r[3]:8} {r[4]}")

# ---- PTX analysis ----------------------------------------------------------------------------------------------------
PTX_SCOPE = {"wave": "cta", "block": "cta", "device": "gpu", "system": "sys"}
def check_ptx(target, ks):
    rows = []
    for name, ins in ks.items():
        ops = [s for s in ins if re.match(r"^(ld|st|atom|fence)\.", s) and not s.startswith(("ld.param", "st.param"))]
        scoped = [s for s in ops if re.match(r"^(ld|st|atom)\.(relaxed|acquire|release|acq_rel)\.|^fence\.", s)]
        fences = [s.rstrip(";") for s in ops if s.startswith("fence.")]
        sc = name.rsplit("_", 1)[-1]
        if sc in PTX_SCOPE and name != "instantiate_all":
            want = PTX_SCOPE[sc]
            for s in scoped:
                got = re.match(r"^\w+\.\w+\.(\w+)", s).group(1)
                if got != want:
                    fail(target, name, f"'{s}' has scope .{got}, expected .{want}")
        m = FENCE.match(name)
        if m:
            kind, o, s = m.groups()
            want = [] if o == "relaxed" else [f"fence.{'sc' if o == 'seq_cst' else 'acq_rel'}.{PTX_SCOPE[s]}"]
            if fences != want:
                fail(target, name, f"fences {fences}, expected {want}")
            if want:
                fi = next(i for i, s2 in enumerate(ops) if s2.startswith("fence."))
                before, after = ops[:fi], ops[fi + 1:]
                if o != "acquire" and not (any(x.startswith("st.global.cs") for x in before) and
                                           any(x.startswith("st.relaxed") for x in after)):
                    fail(target, name, "the fence is not between the data store and the flag store")
                if o in ("acquire", "acq_rel", "seq_cst") and not (any(x.startswith("ld.relaxed") for x in before) and
                                                                   any(x.startswith("ld.global.cs") for x in after)):
                    fail(target, name, "the fence is not between the flag load and the data load")
        am = re.match(r"^(load|store|exchange|cas|fetch_add)_(relaxed|acquire|release|acq_rel|seq_cst)_", name)
        if am:
            op, o = am.groups()
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
        if name.startswith(("store_data", "load_data")):
            verb = "st" if name.startswith("store") else "ld"
            data = [x for x in ops if x.startswith(verb + ".global")]  # load kernels: the loads only
            cs = "bypass" in name
            if not data or not all((".cs" in x) == cs for x in data):
                fail(target, name, f"expected {verb}.global{'.cs' if cs else ''} data accesses, got {data}")
            if "16" in name and not any(".v4.u32" in x for x in data):
                fail(target, name, "16-byte access is not one .v4.u32")
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

for t in sys.argv[2:]:
    target, path = t.split("=", 1)
    if target == "sm_90":
        check_ptx(target, split_ptx(path))
    else:
        check_amd(target, split_amd(path))

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
