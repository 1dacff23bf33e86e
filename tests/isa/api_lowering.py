#!/usr/bin/env python3
"""ISA check of the public device API, and the generator of docs/lowering.md.

Reads the device assembly of tests/isa/api_probe.cpp for gfx90a and gfx942 (clang-19 -S) and the PTX for sm_90 (nvcc
-ptx), as tests/isa/check_api.sh compiles them; splits it per kernel; finds in each kernel the code of the call(s)
under test (the instructions reachable from the probe's "@@region begin" marker without passing "@@region end");
asserts what the memory model promises of that code; and renders what it found as docs/lowering.md and the section
"Static cost of the memory-model qualifiers" of docs/performance.md.

    api_lowering.py --repo ROOT --target gfx90a=FILE --target gfx942=FILE --target sm_90=FILE [--write | --check DIR]
                    [--include DIR] [--show KERNEL]

--write  writes the docs (only when all three targets are given); --check DIR writes them into DIR and fails when the
         repository's copies differ; neither: the assertions only. --include: the headers the probes were compiled
         against (default ROOT/include; it decides which optional probe groups must exist). Exit status: 0 ok, 1 a
         failed assertion or stale docs.
"""
import argparse
import difflib
import os
import re
import sys

TARGETS = ("gfx90a", "gfx942", "sm_90")
AMD = ("gfx90a", "gfx942")
SECTION = "## Static cost of the memory-model qualifiers"
GEN_CMD = "tests/isa/check_api.sh . --write"

# ---- the probes ------------------------------------------------------------------------------------------------------
# Kernel names are <call>__<qualifier>_<qualifier>...; each list below is what api_probe.cpp must define (the optional
# groups once their header exists). The order here is the order of the rows in the docs. Besides the mm:: qualifier
# words (and set/add, default), a name may carry context words (CONTEXT) that say what the probe around the call is.
SCOPES3 = ["device", "node", "system"]
ORDERING_Q = ["default"] + [f"{c}_{s}" for c in ("all", "comm") for s in SCOPES3]
PUT_Q = ["default", "bypass", "keep"]
WAIT_Q = ["default"] + [f"{a}_{s}" for a in ("acquire", "comm", "relaxed") for s in ("device", "system")]
CONTEXT = {
    "char": "on a `char`",
    "short": "on a `short`",
    "stack": "local buffer on the stack",
    "shared": "local buffer in `__shared__` memory",
    "relay": "source just awaited by `wait_until(comm)` (a relay)",
}
# The strict fallback, kept (strict__<q>): the call and qualifiers under test, and the probe of the default
# (all / acquire / system) lowering whose ordering its strict branch must hold.
STRICT = {
    "fence_comm_system": ("fence", "comm, system", "fence__all_system"),
    "fence_comm_device": ("fence", "comm, device", "fence__all_system"),
    "quiet_comm_device": ("quiet", "comm, device", "quiet__all_system"),
    "wait_comm": ("wait_until", "comm", "wait_until__acquire_system"),
    "wait_relaxed_device": ("wait_until", "relaxed, device", "wait_until__acquire_system"),
    "put_signal_comm": ("put_signal", "comm, set", "put_signal__weak_all_set"),
}

CORE = (
    [("fence", q) for q in ORDERING_Q]
    + [("quiet", q) for q in ORDERING_Q]
    + [("pe_quiet", "comm_system"), ("pe_quiet", "all_system")]
    + [(c, q) for c in ("put", "putmem_block", "putmem_nbi_block") for q in PUT_Q]
    + [("get", "bypass"), ("get", "keep")]
    + [("put", "stack"), ("put", "shared"), ("get", "stack"), ("putmem", "relay")]
    + [("publish", q) for q in ("bypass_comm", "keep_comm", "bypass_all", "keep_all")]
    + [("putmem_block_quiet", "comm_system"), ("putmem_block_quiet", "all_system")]
    + [("wait_until", q) for q in WAIT_Q + ["char", "short_comm_device"]]
    + [("test", q) for q in ("acquire_system", "comm_system", "relaxed_system", "char", "short_comm_device")]
    + [("barrier_all_block", q) for q in ("default", "all_system", "comm_system", "comm_device")]
    + [("sync_all_block", q) for q in ("default", "device")]
    + [(c, q) for c in ("p", "g") for q in ("default", "char", "short")]
    + [("error_path", "put")]
    + [("strict", q) for q in STRICT if q != "put_signal_comm"]
)
OPTIONAL = {
    "amo.hpp": [(c, "default") for c in ("atomic_fetch_add", "atomic_compare_swap", "atomic_set", "atomic_add",
                                         "atomic_fetch")],
    "signal.hpp": [("put_signal", f"{w}_{c}_{o}") for o in ("set", "add") for w in ("weak", "strong")
                   for c in ("all", "comm")]
    + [("put_signal", "default_set"), ("put_signal", "weak_comm_set_device"), ("put_signal", "weak_all_set_keep"),
       ("put_signal_nbi", "weak_comm_add"), ("put_signal_nbi", "strong_comm_add"),
       ("put_signal_block", "weak_comm_set"), ("put_signal_block", "weak_all_set")]
    + [("signal_op", q) for q in ("all_set", "all_add", "comm_set", "comm_add", "comm_add_device")]
    + [("signal_wait_until", q) for q in ("default", "acquire_device", "acquire_system", "comm_system",
                                          "relaxed_system")]
    + [("strict", "put_signal_comm")],
    "wait_vector.hpp": [("wait_until_all", q) for q in ("acquire_system", "comm_system", "relaxed_system")]
    + [("wait_until_any", "acquire_device"), ("wait_until_any", "comm_system"), ("test_any", "acquire_system"),
       ("test_any", "relaxed_system"), ("wait_until_some", "comm_system")],
}

# Families, for the checks and the docs' grouping.
GROUPS = [
    ("Fence, quiet", ("fence", "quiet", "pe_quiet"),
     "Context: a 16-byte bypass put before, a flag `p` after; the cell is the call's own code."),
    ("Puts and gets", ("put", "putmem", "putmem_block", "putmem_nbi_block", "get"),
     "`data` gives the data accesses with their cache bits (a copy loop: the loads of the source, then the stores); "
     "after it, what the call ends with. No scope qualifier: the data is written (and a get's remote data read) "
     "coherently at system scope. The local buffer of a put or get is global memory (a kernel argument) unless the "
     "row says otherwise."),
    ("Publish patterns", ("publish", "putmem_block_quiet"),
     "`publish` is `put(path); fence(coverage); p(flag)`; `putmem_block_quiet` is `putmem_block; quiet` (the flag `p` "
     "after it is outside the counted code). After `data`: what orders the data before the flag."),
    ("Waits", ("wait_until", "test", "signal_wait_until", "wait_until_all", "wait_until_any", "wait_until_some",
               "test_any"),
     "The poll, then what the acquire strength adds; a `g` (a comm read) follows outside the counted code. The poll "
     "is one atomic load of the variable's size, coherent at system scope whatever the scope qualifier."),
    ("Barriers", ("barrier_all_block", "sync_all_block"),
     "One dissemination round is shown (the round loop is one copy of the code)."),
    ("Single-element RMA and AMOs", ("p", "g", "atomic_fetch_add", "atomic_compare_swap", "atomic_set", "atomic_add",
                                     "atomic_fetch"),
     "No qualifier: one atomic access of the element's size, coherent at system scope, that orders nothing."),
    ("Signals", ("put_signal", "put_signal_nbi", "put_signal_block", "signal_op"),
     "After `data`: what orders the data before the signal, and the signal update."),
    ("The cold error path", ("error_path",),
     "Every other probe clears `ctx::error`, so a bad call's recording (`record_error`, which ends in "
     "`fence<release, system>`) folds away; this put keeps it, to show what that branch (never taken by a correct "
     "call) holds."),
    ("The strict fallback", ("strict",),
     "Every other probe clears `ctx::strict`, so the tables above show the relaxed lowering; these calls keep it. "
     "A call whose qualifiers are not the defaults branches (once, uniformly) on `ctx.strict`: the relaxed lowering, "
     "or the default one's ordering (coverage all, acquire, system scope), taken in a strict run "
     "(`PORTSHMEM_RELAXED=off`, or a premise of the relaxed lowering not established at init). The cell holds both "
     "branches; the checker asserts that the strict one holds what the default lowering (the `reference` probe in "
     "tests/isa/api_lowering.py) holds."),
]
DATA_FAMILIES = {"put", "putmem", "putmem_block", "putmem_nbi_block", "get", "publish", "putmem_block_quiet",
                 "put_signal", "put_signal_nbi", "put_signal_block", "error_path"}
SOURCE_READING_FAMILIES = DATA_FAMILIES - {"get"}  # every data load of these reads the caller's local source
FLAG_FAMILIES = {"publish", "put_signal", "put_signal_nbi", "put_signal_block"}  # the last store is a flag / signal
WAIT_FAMILIES = {"wait_until", "test", "signal_wait_until", "wait_until_all", "wait_until_any", "wait_until_some",
                 "test_any"}


# A probe without qualifiers, and the probe spelling out the defaults it must equal.
DEFAULTS = [("fence__default", "fence__all_system"), ("quiet__default", "quiet__all_system"),
            ("wait_until__default", "wait_until__acquire_system"),
            ("signal_wait_until__default", "signal_wait_until__acquire_system"),
            ("barrier_all_block__default", "barrier_all_block__all_system"),
            ("put_signal__default_set", "put_signal__weak_all_set")] + \
    [(f"{c}__default", f"{c}__bypass") for c in ("put", "putmem_block", "putmem_nbi_block")]


def split_name(name):
    call, _, q = name.partition("__")
    return call, q


def quals(q):
    return set(q.split("_")) if q else set()


def scope_of(q):
    """The scope a probe asks for: device, or system (node lowers to system; no scope word = the default)."""
    w = quals(q)
    return "device" if "device" in w else "system"


def family_of(call, q):
    """The call whose code the probe holds (a strict__ probe holds the call it names)."""
    return STRICT[q][0] if call == "strict" and q in STRICT else call


# ---- parsing ---------------------------------------------------------------------------------------------------------
def parse_amd(path):
    """{kernel: [(kind, text)]}, kind in ins / label / mark."""
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
        s = line.strip()
        m = re.match(r"^(\.L\w+):", s)
        if m:
            kernels[cur].append(("label", m.group(1)))
        elif s.startswith("; @@region"):
            kernels[cur].append(("mark", s.split()[2]))
        elif s and not s.startswith((";", ".")):
            kernels[cur].append(("ins", re.sub(r"\s+", " ", s.split(";")[0].strip())))
    return kernels


def parse_ptx(path):
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
        s = line.strip()
        m = re.match(r"^(\$\w+):", s)
        if m:
            kernels[cur].append(("label", m.group(1)))
        elif s.startswith("// @@region"):
            kernels[cur].append(("mark", s.split()[2]))
        else:
            s = s.split("//")[0].strip().rstrip(";").strip()
            if s and not s.startswith((".", "{", "}", ")")):
                kernels[cur].append(("ins", re.sub(r"\s+", " ", s)))
    return kernels


# ---- control flow ----------------------------------------------------------------------------------------------------
class Flow:
    """Instruction-level control flow of one kernel (items: parse_* output)."""

    def __init__(self, items, amd):
        self.items, self.amd = items, amd
        self.labels = {v: i for i, (k, v) in enumerate(items) if k == "label"}
        n = len(items)
        self.succ = [self._succ(i) for i in range(n)]
        self.pred = [[] for _ in range(n)]
        for i, ss in enumerate(self.succ):
            for j in ss:
                if j < n:
                    self.pred[j].append(i)

    def _succ(self, i):
        kind, v = self.items[i]
        nxt = [i + 1] if i + 1 < len(self.items) else []
        if kind != "ins":
            return nxt
        if self.amd:
            op = v.split()[0]
            if op == "s_branch":
                return [self.labels[v.split()[1]]]
            if op.startswith("s_cbranch"):
                return nxt + [self.labels[v.split()[1]]]
            if op in ("s_endpgm", "s_trap", "s_setpc_b64"):
                return []
            return nxt
        m = re.match(r"^(@!?%\w+\s+)?bra(?:\.uni)?\s+(\$\w+)$", v)
        if m:
            return (nxt if m.group(1) else []) + [self.labels[m.group(2)]]
        if re.match(r"^(@!?%\w+\s+)?(ret|exit|trap)\b", v) and not v.startswith("@"):
            return []
        return nxt

    def region(self):
        """Indices reachable from a begin marker without passing an end marker, in reverse postorder (so code that
        runs after other code of the region comes after it)."""
        begins = [i for i, (k, v) in enumerate(self.items) if k == "mark" and v == "begin"]
        seen, post = set(), []
        for b in begins:
            if b in seen:
                continue
            seen.add(b)
            stack = [(b, iter(self._rsucc(b)))]
            while stack:
                node, it = stack[-1]
                for j in it:
                    if j not in seen:
                        seen.add(j)
                        stack.append((j, iter(self._rsucc(j))))
                        break
                else:
                    stack.pop()
                    post.append(node)
        return list(reversed(post))

    def _rsucc(self, i):
        kind, v = self.items[i]
        if kind == "mark" and v == "end":
            return []
        return self.succ[i]

    def reaches_without(self, start, is_stop, is_target, backward=False, within=None):
        """Whether some path from start (exclusive) reaches an item with is_target before one with is_stop."""
        edges = self.pred if backward else self.succ
        seen, stack = set(), list(edges[start])
        while stack:
            j = stack.pop()
            if j in seen or j >= len(self.items) or (within is not None and j not in within):
                continue
            seen.add(j)
            kind, v = self.items[j]
            if kind == "ins":
                if is_target(v):
                    return v
                if is_stop(v):
                    continue
            stack.extend(edges[j])
        return None


# ---- instruction classes ---------------------------------------------------------------------------------------------
AMD_MEM = re.compile(r"^(global|flat|buffer|scratch)_(load|store|atomic)_(\w+)")
AMD_BITS = ("sc0", "sc1", "nt", "glc", "slc")
AMD_PRIVATE = ("scratch", "buffer")  # the library uses no buffer resources: a buffer_ access is MUBUF scratch


def amd_mem(ins):
    """(kind, op, bits) of a vector-memory access, or None. kind: st, ld or rmw."""
    m = AMD_MEM.match(ins)
    if not m:
        return None
    kind = {"store": "st", "load": "ld", "atomic": "rmw"}[m.group(2)]
    toks = ins.split()[1:]
    bits = " ".join(t for t in AMD_BITS if t in toks)
    return kind, m.group(3), bits


def amd_access(ins):
    """(kind, segment, opcode, bits) of any memory access: vector memory (segment global, flat, scratch, buffer), LDS
    (ds) or a scalar load (smem); None otherwise."""
    op = ins.split()[0]
    m = amd_mem(ins)
    if m:
        return m[0], op.split("_")[0], op, m[2]
    if op.startswith("s_load_") or op.startswith("s_buffer_load_"):
        return "ld", "smem", op, " ".join(t for t in AMD_BITS if t in ins.split()[1:])
    if op.startswith("ds_") and not op.startswith(("ds_swizzle", "ds_permute", "ds_bpermute", "ds_nop")):
        kind = "ld" if op.startswith(("ds_read", "ds_load")) else "st" if op.startswith(("ds_write", "ds_store")) \
            else "rmw"
        return kind, "ds", op, ""
    return None


def amd_is_wait(ins):
    return ins.startswith("s_waitcnt") and "vmcnt(0)" in ins


def amd_is_wb(ins):
    return ins.startswith("buffer_wbl2")


def amd_is_inv(ins):
    return re.match(r"^buffer_(inv|invl2|wbinvl1)", ins) is not None


def amd_is_write(ins):
    m = amd_mem(ins)
    return m is not None and m[0] in ("st", "rmw")


def amd_token(ins):
    """The instruction as the docs show it, or None when it does not matter for ordering."""
    if amd_is_wb(ins) or amd_is_inv(ins):
        return ins
    if amd_is_wait(ins):
        return "s_waitcnt vmcnt(0)"
    if ins.startswith("s_barrier"):
        return "s_barrier"
    a = amd_access(ins)
    if a:
        kind, seg, op, bits = a
        if seg in AMD_PRIVATE:
            name = "scratch_" + {"st": "store", "ld": "load"}.get(kind, "atomic")
        elif seg == "ds":
            name = {"st": "ds_write", "ld": "ds_read"}.get(kind, "ds_atomic")
        elif seg == "smem":
            name = "s_load"
        else:
            name = {"st": "store", "ld": "load"}.get(kind, "atomic_" + op.split("_", 2)[2])
        return (name + " " + bits).strip()
    return None


PTX_MEM = re.compile(r"^(ld|st|atom|red)\.(\S+)")
PTX_SEMS = ("relaxed", "acquire", "release", "acq_rel", "volatile")


def ptx_strip(ins):
    return re.sub(r"^@!?%\w+\s+", "", ins)


def ptx_mem(ins):
    """(kind, normalized op without types, sem, scope, cache, space) or None (param space: the kernel's arguments).
    space: global, local, shared or generic."""
    s = ptx_strip(ins)
    m = PTX_MEM.match(s)
    if not m or s.startswith(("ld.param", "st.param")):
        return None
    parts = m.group(2).split(".")
    keep = [p for p in parts if not re.match(r"^(b|u|s|f)(8|16|32|64|128)$|^v[248]$", p)]
    sem = next((p for p in keep if p in PTX_SEMS), "")
    scope = next((p for p in keep if p in ("cta", "gpu", "sys", "cluster")), "")
    cache = next((p for p in keep if p in ("cs", "cg", "ca", "lu", "cv", "wb", "wt")), "")
    space = next((p for p in keep if p in ("global", "local", "shared")), "generic")
    kind = {"ld": "ld", "st": "st"}.get(m.group(1), "rmw")
    return kind, ".".join([m.group(1)] + keep), sem, scope, cache, space


def ptx_width(ins):
    """Bits per element of a PTX access (8 for .b8/.u8/.s8, ...)."""
    m = re.search(r"\.(?:b|u|s|f)(8|16|32|64|128)\b", ptx_strip(ins).split()[0])
    return int(m.group(1)) if m else None


def ptx_fence(ins):
    s = ptx_strip(ins)
    return s if s.startswith(("fence.", "membar.")) else None


def ptx_token(ins):
    s = ptx_strip(ins)
    f = ptx_fence(s)
    if f:
        return f
    if re.match(r"^(bar|barrier)\.(sync|red|arrive)", s) or s.startswith("bar.warp.sync"):
        return s.split()[0] if not s.startswith("bar.sync") else "bar.sync"
    m = ptx_mem(s)
    if m:
        return m[1]
    return None


# ---- registers: what a loaded value is used for ------------------------------------------------------------------
# A load the docs leave out must be identified positively as a table lookup: its value (and what is computed from it)
# is used only to form addresses of later accesses, or compared (a null or alignment test) — the peer heap bases of
# ctx.peer_heaps. A scalar load on AMD whose address is computed from the entry SGPRs alone (the argument segment's
# address, the implicit arguments after it) reads the kernel's arguments, like ld.param in PTX. Everything else is
# data, shown with its bits.
class Roles:
    __slots__ = ("defs", "addr", "data", "uses", "compare", "mem")

    def __init__(self, defs=(), addr=(), data=(), uses=(), compare=False, mem=False):
        self.defs, self.addr, self.data, self.uses = set(defs), set(addr), set(data), set(uses)
        self.compare, self.mem = compare, mem


NO_ROLES = Roles()


def _amd_regs(tok):
    tok = tok.strip().lstrip("-|").rstrip("|")
    m = re.match(r"^(s|v|a)\[(\d+):(\d+)\]$", tok)
    if m:
        return {f"{m.group(1)}{i}" for i in range(int(m.group(2)), int(m.group(3)) + 1)}
    if re.match(r"^(s|v|a)\d+$", tok) or re.match(r"^(vcc|exec|flat_scratch)_(lo|hi)$", tok) or tok == "m0":
        return {tok}
    if tok in ("vcc", "exec", "flat_scratch"):
        return {tok + "_lo", tok + "_hi"}
    return set()


def amd_roles(ins):
    op, _, rest = ins.partition(" ")
    parts = [p.strip() for p in rest.split(", ")] if rest.strip() else []
    R = [_amd_regs(p.split()[0]) if p else set() for p in parts]
    n = len(R)

    def union(idx):
        out = set()
        for i in idx:
            if i < n:
                out |= R[i]
        return out
    if op.startswith(("s_waitcnt", "s_cbranch", "s_branch", "s_endpgm", "s_barrier", "buffer_wbl2", "buffer_inv",
                      "buffer_wbinvl1", "s_nop", "s_sleep", "s_setprio", "s_trap", "s_sethalt", "s_dcache",
                      "s_icache")):
        return NO_ROLES
    if op.startswith(("v_cmp", "s_cmp", "s_bitcmp")):
        return Roles(uses=union(range(n)), compare=True)
    a = amd_access(ins)
    if a:
        kind, seg, _, _ = a
        if kind == "ld":
            return Roles(defs=union([0]), addr=union(range(1, n)), mem=True)
        if seg == "ds":
            if kind == "st":
                return Roles(addr=union([0]), data=union(range(1, n)), mem=True)
            ret = "_rtn_" in op
            return Roles(defs=union([0]) if ret else (), addr=union([1 if ret else 0]),
                         data=union(range(2 if ret else 1, n)), mem=True)
        if kind == "st":
            if seg == "buffer":
                return Roles(data=union([0]), addr=union(range(1, n)), mem=True)
            if seg == "flat":
                return Roles(addr=union([0]), data=union(range(1, n)), mem=True)
            return Roles(addr=union([0, 2]), data=union([1]), mem=True)
        ret = n == (3 if seg == "flat" else 4)  # an atomic that returns the old value has a destination first
        o = 1 if ret else 0
        if seg == "flat":
            return Roles(defs=union([0]) if ret else (), addr=union([o]), data=union(range(o + 1, n)), mem=True)
        return Roles(defs=union([0]) if ret else (), addr=union([o, o + 2]), data=union([o + 1]), mem=True)
    ndefs = 2 if "_co_" in op or op.startswith(("v_mad_u64", "v_mad_i64", "v_div_scale")) else 1
    defs = union(range(ndefs))
    if op.startswith("s_and_saveexec") or op.startswith("s_or_saveexec") or op.startswith("s_andn2_saveexec"):
        defs |= {"exec_lo", "exec_hi"}
    return Roles(defs=defs, uses=union(range(ndefs, n)))


def _ptx_split(rest):
    out, depth, cur = [], 0, ""
    for ch in rest:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _ptx_regs(tok):
    return set(re.findall(r"%[A-Za-z_]+\d*", tok))


def ptx_roles(ins):
    s = ptx_strip(ins)
    op, _, rest = s.partition(" ")
    ops = _ptx_split(rest)
    R = [_ptx_regs(o) for o in ops]
    n = len(R)

    def union(idx):
        out = set()
        for i in idx:
            if i < n:
                out |= R[i]
        return out
    if op.startswith(("bra", "ret", "exit", "bar", "fence", "membar", "trap", "nanosleep", "barrier")):
        return NO_ROLES
    if op.startswith(("setp", "isspacep")):
        return Roles(uses=union(range(1, n)), compare=True)
    if op.startswith("ld."):
        return Roles(defs=union([0]), addr=union(range(1, n)), mem=True)
    if op.startswith("st."):
        return Roles(addr=union([0]), data=union(range(1, n)), mem=True)
    if op.startswith("atom."):
        return Roles(defs=union([0]), addr=union([1]), data=union(range(2, n)), mem=True)
    if op.startswith("red."):
        return Roles(addr=union([0]), data=union(range(1, n)), mem=True)
    return Roles(defs=union([0]), uses=union(range(1, n)))


class Dataflow:
    """Register roles of every instruction of a kernel, over its control flow (Flow)."""

    def __init__(self, flow):
        self.flow = flow
        roles = amd_roles if flow.amd else ptx_roles
        self.roles = [roles(v) if k == "ins" else None for k, v in flow.items]
        self._entry = None

    def address_only(self, start):
        """Whether the value loaded by items[start] is used only to form addresses (at least once, on some path) and in
        comparisons, through any chain of register arithmetic: never stored, never an atomic's operand."""
        r0 = self.roles[start]
        if r0 is None or not r0.defs:
            return False
        succ, roles, n = self.flow.succ, self.roles, len(self.roles)
        seen = {}
        work = [(j, frozenset(r0.defs)) for j in succ[start]]
        used = False  # as an address at least once
        while work:
            j, t = work.pop()
            if j >= n:
                continue
            old = seen.get(j)
            if old is not None and t <= old:
                continue
            t = t | old if old is not None else t
            seen[j] = t
            r = roles[j]
            if r is None:
                out = t
            else:
                if r.data & t:
                    return False
                used = used or bool(r.addr & t)
                if r.compare or r.mem:  # an address or a comparison: the value goes no further
                    out = t - r.defs
                elif r.uses & t:
                    out = t | r.defs
                else:
                    out = t - r.defs
            if not t and not out:
                continue
            for k in succ[j]:
                work.append((k, frozenset(out)))
        return used

    def entry_derived(self, i, regs):
        """Whether regs, at items[i], hold on every path values computed only from the kernel's entry registers (the
        argument segment's address, ...) and constants: no load feeds them."""
        preds, roles = self.flow.pred, self.roles
        seen = set()
        stack = [(j, frozenset(regs)) for j in preds[i]]
        while stack:
            j, want = stack.pop()
            if not want or (j, want) in seen:
                continue
            seen.add((j, want))
            r = roles[j]
            if r is not None and r.defs & want:
                if r.mem:
                    return False
                want = (want - r.defs) | r.uses
            stack.extend((k, want) for k in preds[j])
        return True


# ---- what a probe's code shows -------------------------------------------------------------------------------------
class Access:
    """One memory access of a probe's region. AMD: bits are the cache bits, seg the segment (global, flat, scratch,
    buffer = MUBUF scratch, ds = LDS, smem = scalar load). sm_90: sem, scope, cache and space (global, local, shared,
    generic) of the PTX access."""
    __slots__ = ("i", "kind", "bits", "seg", "op", "sem", "scope", "cache", "token", "text")

    def __init__(self, i, text, amd):
        self.i, self.text = i, text
        if amd:
            self.kind, self.seg, self.op, self.bits = amd_access(text)
            self.sem = self.scope = self.cache = ""
            self.token = amd_token(text)
        else:
            m = ptx_mem(text)
            self.kind, self.op, self.sem, self.scope, self.cache, self.seg = m
            self.bits = ""
            self.token = m[1]

    def private(self):
        return self.seg in AMD_PRIVATE or self.seg == "local"

    def lds(self):
        return self.seg in ("ds", "shared")

    def width(self):
        """Bytes moved by one element of the access (AMD: the opcode's unit; PTX: the type)."""
        if self.seg in ("global", "flat", "scratch", "buffer", "ds"):
            unit = self.op.rsplit("_", 1)[1]
            return {"byte": 1, "ubyte": 1, "sbyte": 1, "u8": 1, "i8": 1, "short": 2, "ushort": 2, "sshort": 2,
                    "u16": 2, "i16": 2, "b8": 1, "b16": 2, "dword": 4, "b32": 4, "dwordx2": 8, "b64": 8, "x2": 8, "dwordx3": 12,
                    "dwordx4": 16, "b128": 16}.get(unit, 4)
        if self.seg == "smem":
            return 4
        w = ptx_width(self.text)
        return (w or 32) // 8


class Probe:
    """The facts of one kernel's region on one target."""

    def __init__(self, target, name, items):
        self.target, self.name = target, name
        self.call, self.q = split_name(name)
        self.family = family_of(self.call, self.q)
        self.amd = target in AMD
        self.flow = Flow(items, self.amd)
        self.dataflow = Dataflow(self.flow)
        self.order = self.flow.region()
        self.inside = set(self.order)
        self.has_region = any(k == "mark" and v == "begin" for k, v in items)
        ins = [(i, items[i][1]) for i in self.order if items[i][0] == "ins"]
        self.ins = ins
        self.all_ins = [v for k, v in items if k == "ins"]
        tok = amd_token if self.amd else ptx_token
        self.tokens = [(i, tok(s), s) for i, s in ins if tok(s)]
        # Memory accesses, without the kernel-argument reads and the table lookups (positively identified, above).
        self.mem, self.lookups, self.argreads = [], set(), set()
        for i, s in ins:
            if (amd_access(s) if self.amd else ptx_mem(s)) is None:
                continue
            a = Access(i, s, self.amd)
            if a.seg == "smem" and self.dataflow.entry_derived(i, self.dataflow.roles[i].addr):
                self.argreads.add(i)
                continue
            if a.kind == "ld" and not a.bits and not a.sem and not a.private() and not a.lds() and \
                    self.dataflow.address_only(i):
                self.lookups.add(i)
                continue
            self.mem.append(a)
        # The flag / signal writes: the writes no other write follows on any path (one per branch of a strict probe).
        self.flags = []
        if self.family in FLAG_FAMILIES:
            def is_write(s):
                a = amd_access(s) if self.amd else ptx_mem(s)
                return a is not None and a[0] in ("st", "rmw") and (a[1] if self.amd else a[5]) not in \
                    ("scratch", "buffer", "ds", "local", "shared")
            self.flags = [a for a in self.mem if a.kind in ("st", "rmw") and not a.private() and not a.lds()
                          and not self.flow.reaches_without(a.i, lambda s: False, is_write, within=self.inside)]
        self.flag = self.flags[-1] if self.flags else None
        self.error_branch = self._error_branch() if self.call == "error_path" else []
        cold = {i for i, _ in self.error_branch}
        self.data = [a for a in self.mem if a not in self.flags and self.family in DATA_FAMILIES and a.i not in cold]

    def _error_branch(self):
        """The error record's code (record_error): from its fetch_add on the error count to its release fence."""
        toks = [(i, t) for i, t, _ in self.tokens if i not in self.lookups and i not in self.argreads]
        a = next((n for n, (_, t) in enumerate(toks) if t.startswith(("atomic_", "atom."))), None)
        if a is None:
            return []
        is_fence = (lambda t: t.startswith("buffer_wbl2")) if self.amd else (lambda t: t.startswith("fence."))
        b = next((n for n in range(a, len(toks)) if is_fence(toks[n][1])), None)
        if b is None:
            return []
        if self.amd and b + 1 < len(toks) and toks[b + 1][1] == "s_waitcnt vmcnt(0)":
            b += 1
        return toks[a:b + 1]

    # The sequence the docs show: tokens in reverse postorder, without the kernel-argument reads and table lookups and
    # the waits that wait only for lookups; for a data call, only what follows the last data access.
    def sequence(self):
        if self.error_branch:
            return collapse([t for _, t in self.error_branch])
        pos = {i: n for n, i in enumerate(self.order)}
        start = max((pos[a.i] for a in self.data), default=-1)
        hidden = self.lookups | self.argreads
        out, pending_hidden, pending_shown = [], False, False
        for i, t, s in self.tokens:
            if i in hidden:
                pending_hidden = pending_hidden or amd_mem(s) is not None
                continue
            if self.amd and t == "s_waitcnt vmcnt(0)":
                only_lookups = pending_hidden and not pending_shown
                pending_hidden = pending_shown = False
                if only_lookups:
                    continue
            elif self.amd and amd_mem(s):
                pending_shown = True
            if pos[i] > start:
                out.append(t)
        return collapse(out)

    def data_summary(self):
        if not self.data:
            return ""
        kinds = {}
        for a in self.data:
            kinds.setdefault(a.kind, set()).add(a.token)
        parts = []
        for k in ("ld", "st", "rmw"):
            if k in kinds:
                parts.append("; ".join(sorted(kinds[k])))
        return "; ".join(parts)

    # counts over the whole region (static: a loop body counts once)
    def count(self, pred):
        return sum(1 for _, s in self.ins if pred(s))

    def wb(self):
        return [s for _, s in self.ins if amd_is_wb(s)] if self.amd else []

    def inv(self):
        return [s for _, s in self.ins if amd_is_inv(s)] if self.amd else []

    def fences(self):
        return [ptx_fence(s) for _, s in self.ins if ptx_fence(s)] if not self.amd else []

    def ordered_ops(self):
        """PTX accesses with a release/acquire semantics (they carry their own fence)."""
        return [a.op for a in self.mem if not self.amd and a.sem in ("acquire", "release", "acq_rel")]

    def path_avoiding(self, bad):
        """Whether some path from the region's begin marker reaches its end marker without an instruction bad(s)."""
        items, succ = self.flow.items, self.flow.succ
        stack = [i for i, (k, v) in enumerate(items) if k == "mark" and v == "begin"]
        seen = set()
        while stack:
            j = stack.pop()
            if j in seen or j >= len(items):
                continue
            seen.add(j)
            k, v = items[j]
            if k == "mark" and v == "end":
                return True
            if k == "ins" and bad(v):
                continue
            stack.extend(succ[j])
        return False


def collapse(tokens):
    """Drops immediate repetitions of any run of up to four tokens (a peeled first poll and its loop read as one)."""
    out = list(tokens)
    changed = True
    while changed:
        changed = False
        for n in (1, 2, 3, 4):
            i = 0
            while i + 2 * n <= len(out):
                if out[i:i + n] == out[i + n:i + 2 * n]:
                    del out[i + n:i + 2 * n]
                    changed = True
                else:
                    i += 1
    return out


# ---- the assertions ------------------------------------------------------------------------------------------------
# What "coherent at system scope" is per target (every access the library makes to symmetric memory, and a put's
# global source): gfx942 sc0 sc1 on loads and stores (sc1 on atomics); gfx90a glc on loads (a system-scope relaxed
# atomic store is a plain store: the fine-grained heap's page type makes it coherent); sm_90 .relaxed.sys (or
# stronger). One coherent access moves at most 8 bytes on AMD (16 bytes = two 8-byte atomics).
COHERENT_LD = {"gfx942": "sc0 sc1", "gfx90a": "glc"}
COHERENT_ST = {"gfx942": "sc0 sc1", "gfx90a": ""}
AGENT_INV = {"gfx942": ["buffer_inv sc1"], "gfx90a": ["buffer_wbinvl1_vol"]}
SYSTEM_INV = {"gfx942": ["buffer_inv sc0 sc1"], "gfx90a": ["buffer_invl2", "buffer_wbinvl1_vol"]}
SUBWORD = {"char": 1, "short": 2}


class Checker:
    def __init__(self):
        self.failures, self.notes = [], []

    def fail(self, p, why):
        self.failures.append(f"FAIL {p.target} {p.name}: {why}")

    def expect(self, p, cond, why):
        if not cond:
            self.fail(p, why)

    def check(self, p):
        call, q, w = p.call, p.q, quals(p.q)
        if not p.has_region:
            self.fail(p, "no @@region begin marker in the output (the probe or the splitter is broken)")
            return
        if p.amd and any(s.startswith(("s_swappc", "s_setpc")) for s in p.all_ins):
            self.fail(p, "calls a function (device libraries are not linked for AMD)")
        self.check_scope(p)
        self.check_bits(p)
        if p.amd:
            self.check_amd_waits(p)
        fam = p.family
        if call == "strict":  # the relaxed and the strict branch together: see check_strict (main)
            if fam in DATA_FAMILIES:
                self.check_data_path(p)
                self.check_flag_ordered(p)
                self.check_signal_update(p)
            return
        if fam in ("fence", "quiet", "pe_quiet"):
            self.check_ordering(p, fam)
        elif fam in ("put", "putmem", "putmem_block", "putmem_nbi_block", "get"):
            self.check_data_path(p)
            self.expect(p, not p.wb() and not p.inv() and not p.fences(), "a put/get emits cache maintenance or a "
                        f"fence: {p.wb() + p.inv() + p.fences()}")
            if p.amd and "block" in call:
                seq = p.sequence()
                self.expect(p, seq[-2:] == ["s_waitcnt vmcnt(0)", "s_barrier"],
                            f"a block put must end with its members' stores joined (s_waitcnt vmcnt(0)) before the "
                            f"closing s_barrier, got {seq}")
        elif fam == "publish":
            self.check_data_path(p)
            self.check_flag_ordered(p)
            if "comm" in w:
                self.expect(p, not p.wb() and not p.inv(), f"fence<comm> in the publish pattern emits cache "
                            f"maintenance: {p.wb() + p.inv()}")
                if "keep" in w and p.amd:
                    self.notes.append(f"NOTE {p.target} {p.name}: fence<comm> after keep puts lowers to "
                                      f"{'; '.join(p.sequence()) or 'nothing'}: no write-back of the keep data, "
                                      "which only coverage all orders (docs/memory_model.md, data path)")
            else:
                self.check_release_maintenance(p, "system")
        elif fam == "putmem_block_quiet":
            self.check_data_path(p)
            if "comm" in w:
                self.expect(p, not p.wb() and not p.inv(), f"quiet<comm> after a bypass block put emits cache "
                            f"maintenance: {p.wb() + p.inv()}")
            else:
                self.check_release_maintenance(p, "system")
                if p.amd:
                    self.expect(p, p.inv() == SYSTEM_INV[p.target], f"quiet<all> invalidates {p.inv()}, expected "
                                f"{SYSTEM_INV[p.target]}")
            if not p.amd:
                want = "fence.sc.sys"
                self.expect(p, p.fences() == [want], f"fences {p.fences()}, expected [{want}]")
        elif fam in WAIT_FAMILIES:
            self.check_wait(p)
        elif fam in ("barrier_all_block", "sync_all_block"):
            self.check_barrier(p)
        elif fam in ("p", "g", "atomic_fetch_add", "atomic_compare_swap", "atomic_set", "atomic_add", "atomic_fetch"):
            self.check_single(p)
        elif fam in ("put_signal", "put_signal_nbi", "put_signal_block"):
            self.check_data_path(p)
            self.check_flag_ordered(p)
            self.check_signal_update(p)
            if "comm" in w:
                self.expect(p, not p.wb() and not p.inv(),
                            f"put_signal<comm> emits cache maintenance: {p.wb() + p.inv()}")
            else:
                self.check_release_maintenance(p, scope_of(q))
        elif fam == "signal_op":
            if "comm" in w:
                self.expect(p, not p.wb() and not p.inv() and not p.fences() and not p.ordered_ops(),
                            "signal_op<comm> must be one relaxed atomic update, got "
                            f"{p.wb() + p.inv() + p.fences() + p.ordered_ops()}")
            else:
                self.check_release_maintenance(p, scope_of(q))
            self.check_signal_update(p)
        elif fam == "error_path":
            self.check_data_path(p)
            if p.amd:
                self.expect(p, p.wb(), "the error record's release fence is gone (expected a buffer_wbl2 in the "
                            "cold path)")
            elif not any(t.startswith("atom.") and ".gpu." in t for _, t in p.error_branch):
                self.fail(p, "the error record's counter is not a .gpu atomic (arch::kErrorRecordScope: a .sys "
                          "atomic on host memory needs host-native atomics)")

    # -- every probe: the scope of what it emits. The scope qualifier narrows only the ordering: on AMD a device-scope
    # call's cache maintenance is agent-level; on sm_90 it is .sys like everything else (mm::device lowers to the
    # scope that reaches another process on the same GPU, arch::kPeerDeviceScope, which PTX spells .sys).
    def check_scope(self, p):
        sc = scope_of(p.q)
        if p.amd:
            if sc != "device" or p.call == "strict":
                return
            for s in p.wb() + p.inv():
                if p.target == "gfx942" and "sc0 sc1" in s:
                    self.fail(p, f"device scope, but '{s}' is system-scope cache maintenance")
                if p.target == "gfx90a" and (s.startswith("buffer_wbl2") or s.startswith("buffer_invl2")):
                    self.fail(p, f"device scope, but '{s}' writes back / invalidates the L2 (gfx90a's single L2 is "
                              "already the device's point of coherence)")
        else:
            # The error record's counter is the one .gpu access (arch::kErrorRecordScope: host memory only this PE's
            # kernels write); check_family requires it there.
            record = {i for i, t in p.error_branch if t.startswith("atom.")}
            for i, s in p.ins:
                if i in record:
                    continue
                f = ptx_fence(s)
                m = ptx_mem(s)
                got = f.split(".")[-1] if f else m[3] if m and m[2] else None
                if got and got != "sys":
                    self.fail(p, f"'{ptx_strip(s)}' has scope .{got}: every fence and strong access of the API is "
                              ".sys on sm_90 (PEs are processes: arch::kPeerDeviceScope)")

    # -- every probe: the bits of every access. A coherent access is at system scope whatever the call's scope; a
    # nontemporal or streaming hint is never a coherence mechanism; private and LDS memory take plain accesses.
    def check_bits(self, p):
        for a in p.mem:
            if p.amd:
                b = set(a.bits.split())
                if a.private():
                    self.expect(p, not b, f"a private (scratch) access carries cache bits: '{a.text}'")
                    continue
                if a.seg in ("ds", "smem"):
                    continue
                if b & {"nt", "slc"}:
                    self.fail(p, f"a nontemporal access: '{a.text}' (bypass data is a relaxed atomic, not a hint)")
                if p.target == "gfx942":
                    if a.kind in ("st", "ld") and b and b != {"sc0", "sc1"}:
                        self.fail(p, f"'{a.text}' is coherent below system scope (every access to symmetric memory "
                                  "is sc0 sc1, or plain for keep data)")
                    if a.kind == "rmw" and "sc1" not in b:
                        self.fail(p, f"atomic '{a.text}' is not at system scope (no sc1)")
                else:
                    if a.kind == "st" and b:
                        self.fail(p, f"gfx90a store '{a.text}' carries cache bits (a system-scope atomic store is a "
                                  "plain store there)")
                    if a.kind == "ld" and b - {"glc"}:
                        self.fail(p, f"gfx90a load '{a.text}': bits other than glc")
            else:
                if a.cache == "cs":
                    self.fail(p, f"a .cs (weak, streaming) access: '{a.text}'")
                if a.sem and a.seg in ("local", "shared"):
                    self.fail(p, f"a strong access to {a.seg} memory: '{a.text}'")

    # -- AMD, on every control-flow path of the kernel: after a write-back, a vmcnt(0) wait before any later write or
    # invalidate; before an invalidate, a vmcnt(0) wait after every earlier access and write-back --
    def check_amd_waits(self, p):
        items = p.flow.items
        for i, (k, v) in enumerate(items):
            if k != "ins":
                continue
            if amd_is_wb(v):
                bad = p.flow.reaches_without(i, amd_is_wait, lambda s: amd_is_write(s) or amd_is_inv(s))
                if bad:
                    self.fail(p, f"'{v}' is not followed by s_waitcnt vmcnt(0) before '{bad}': the "
                              f"{'invalidate' if amd_is_inv(bad) else 'write'} can overtake the L2 write-back (LLVM "
                              "drops the wait after buffer_wbl2 when no other vector-memory access is outstanding, "
                              "and between buffer_wbl2 and the invalidate of an acq_rel fence; fixed upstream by "
                              "llvm-project PR 178316)")
            if amd_is_inv(v):
                bad = p.flow.reaches_without(i, amd_is_wait, lambda s: amd_mem(s) is not None or amd_is_wb(s),
                                             backward=True)
                if bad:
                    self.fail(p, f"no s_waitcnt vmcnt(0) between '{bad}' and the later '{v}': the invalidate can run "
                              "before the acquiring load (or the write-back) completes")

    # -- fence / quiet / pe_quiet --
    def check_ordering(self, p, fam):
        w, sc = quals(p.q), scope_of(p.q)
        comm = "comm" in w
        seq = p.sequence()
        if p.amd:
            self.expect(p, "s_waitcnt vmcnt(0)" in seq, f"no s_waitcnt vmcnt(0): {seq}")
            if comm:
                self.expect(p, not p.wb() and not p.inv(),
                            f"{fam}<comm> after bypass puts emits cache maintenance: {p.wb() + p.inv()}")
            else:
                want_wb = {"gfx942": {"system": ["buffer_wbl2 sc0 sc1"], "device": ["buffer_wbl2 sc1"]},
                           "gfx90a": {"system": ["buffer_wbl2"], "device": []}}[p.target][sc]
                self.expect(p, p.wb() == want_wb, f"{fam}<all, {sc}> write-backs {p.wb()}, expected {want_wb}")
                if fam == "fence":
                    self.expect(p, not p.inv(), f"fence (a release) invalidates: {p.inv()}")
                else:
                    want_inv = (AGENT_INV if sc == "device" else SYSTEM_INV)[p.target]
                    self.expect(p, p.inv() == want_inv, f"quiet<all, {sc}> invalidates {p.inv()}, expected {want_inv}")
                if want_wb:
                    self.expect(p, seq.index("s_waitcnt vmcnt(0)") > seq.index(want_wb[0]) if want_wb[0] in seq
                                and "s_waitcnt vmcnt(0)" in seq else False,
                                f"the write-back is not waited for: {seq}")
        else:
            want = [f"fence.{'acq_rel' if fam == 'fence' else 'sc'}.sys"]
            self.expect(p, p.fences() == want, f"fences {p.fences()}, expected {want}")

    # -- data path of puts and gets: the remote side coherent at system scope, the local side as its memory allows --
    def check_data_path(self, p):
        w = quals(p.q)
        keep = "keep" in w
        get = p.family == "get"
        stores = [a for a in p.data if a.kind == "st"]
        loads = [a for a in p.data if a.kind == "ld"]
        self.expect(p, stores, "no data stores found")
        self.expect(p, loads, "no data loads found (a load the docs leave out must be a table lookup: its value used "
                    "only as an address)")
        remote, local = (loads, stores) if get else (stores, loads)
        where = "stack" if "stack" in w else "shared" if "shared" in w else "global"
        t = p.target
        # The remote side: symmetric memory, always coherent (keep: plain stores, the one cached write of the API).
        for a in remote:
            if p.amd:
                want = "" if keep and not get else (COHERENT_LD if get else COHERENT_ST)[t]
                self.expect(p, a.bits == want and a.seg in ("global", "flat"),
                            f"remote {'load' if get else 'store'} '{a.text}', expected a {a.kind} with bits "
                            f"'{want}' ({'keep' if keep and not get else 'coherent at system scope'})")
                if want or not keep:
                    self.expect(p, a.width() <= 8, f"'{a.text}' moves {a.width()} bytes: a coherent access is an "
                                "atomic of at most 8 bytes (16 bytes = two 8-byte atomics)")
            else:
                if keep and not get:
                    self.expect(p, not a.sem, f"keep store '{a.text}' is not a weak (cached) store")
                else:
                    self.expect(p, a.sem == "relaxed" and a.scope == "sys" and a.seg == "global",
                                f"remote access '{a.text}' is not ld/st.relaxed.sys.global")
        # The local side.
        for a in local:
            if where == "stack":
                if p.amd:
                    self.expect(p, a.private(), f"'{a.text}' touches the stack buffer through a non-private "
                                "instruction (bypass accesses need global memory)")
                else:
                    self.expect(p, a.seg in ("local", "generic") and not a.sem,
                                f"'{a.text}' touches the stack buffer as {a.seg} memory: a .global access to a local "
                                "address faults ('operation not supported on global/shared address space')")
            elif where == "shared":
                if p.amd:
                    self.expect(p, a.lds(), f"'{a.text}' reads the __shared__ buffer through a non-LDS instruction")
                else:
                    self.expect(p, a.seg in ("shared", "generic") and not a.sem,
                                f"'{a.text}' reads the __shared__ buffer as {a.seg} memory")
            elif get:  # stores into a global dest: the data path of the call
                if p.amd:
                    want = "" if keep else COHERENT_ST[t]
                    self.expect(p, a.bits == want and not a.private() and not a.lds(),
                                f"store into the global dest '{a.text}', expected bits '{want}'")
                else:
                    self.expect(p, not a.sem if keep else (a.sem == "relaxed" and a.scope == "sys"),
                                f"store into the global dest '{a.text}' ({'keep' if keep else 'bypass'})")
            elif p.amd:  # a put's global source: read coherently (a relay must not forward a stale cached copy)
                self.expect(p, a.bits == COHERENT_LD[t] and a.seg in ("global", "flat") and a.width() <= 8,
                            f"source load '{a.text}' is not coherent (bits '{COHERENT_LD[t]}', at most 8 bytes): a "
                            "put after wait<comm> could forward a stale L1/L2 copy of what a peer wrote (the relay)")
            # sm_90 global source: plain loads by design (arch::kSourceCache): shown, not constrained

    # -- the flag / signal comes after the data: a wait (AMD) or a fence / release (PTX) on every path --
    def check_flag_ordered(self, p):
        if not p.flags:
            self.fail(p, "no flag / signal write found")
        for flag in p.flags:
            if p.amd:
                bad = p.flow.reaches_without(flag.i, amd_is_wait, amd_is_write, backward=True, within=p.inside)
                self.expect(p, not bad, f"no s_waitcnt vmcnt(0) between the data store '{bad}' and the flag / "
                            f"signal '{flag.token}'")
            elif flag.sem not in ("release", "acq_rel"):
                is_w = lambda s: (ptx_mem(s) or ("",))[0] in ("st", "rmw")
                bad = p.flow.reaches_without(flag.i, lambda s: ptx_fence(s) is not None, is_w, backward=True,
                                             within=p.inside)
                self.expect(p, not bad, f"neither a fence nor a release orders the data store '{bad}' before the "
                            f"flag / signal '{flag.token}'")

    # -- coverage all: a write-back (and its wait) at the scope --
    def check_release_maintenance(self, p, sc):
        if p.amd:
            want = {"gfx942": {"system": "buffer_wbl2 sc0 sc1", "device": "buffer_wbl2 sc1"},
                    "gfx90a": {"system": "buffer_wbl2", "device": None}}[p.target][sc]
            if want:
                self.expect(p, want in p.wb(), f"coverage all at {sc} scope without '{want}': {p.wb()}")
        else:
            rel = p.fences() + [x for x in p.ordered_ops() if ".release." in x or ".acq_rel." in x]
            scopes = {next((c for c in x.split(".") if c in ("cta", "gpu", "sys")), "") for x in rel}
            self.expect(p, rel and scopes == {"sys"}, f"coverage all: no release at .sys ({rel})")

    def check_signal_update(self, p):
        if not p.flag and p.family != "signal_op":
            return
        w = quals(p.q)
        targets = p.flags or [a for a in p.mem if a.kind in ("st", "rmw")][-1:]
        if not targets:
            self.fail(p, "no signal update found")
        for target in targets:
            self.check_one_signal_update(p, target, "add" in w)

    def check_one_signal_update(self, p, target, add):
        if p.amd:
            self.expect(p, target.kind == ("rmw" if add else "st"),
                        f"signal {'add' if add else 'set'} lowers to '{target.token}'")
            want = ("sc1" if add else "sc0 sc1") if p.target == "gfx942" else ""
            self.expect(p, target.bits == want, f"signal update '{target.text}' carries '{target.bits}', expected "
                        f"'{want}' (system scope, whatever the call's scope)")
        else:
            want_kind = "atom" if add else "st"
            self.expect(p, target.op.startswith(want_kind + ".") and target.scope == "sys",
                        f"signal update '{target.op}'")

    # -- waits: one coherent atomic load of the variable's size per poll; the acquire at the call's scope --
    def check_wait(self, p):
        w, sc = quals(p.q), scope_of(p.q)
        strength = "relaxed" if "relaxed" in w else "comm" if "comm" in w else "acquire"
        polls = [a for a in p.mem if a.kind == "ld"]
        size = next((SUBWORD[x] for x in w if x in SUBWORD), None)
        self.expect(p, polls, "no poll found")
        if size:
            self.expect(p, all(a.width() == size for a in polls), f"polls of a {size}-byte variable: "
                        f"{[a.text for a in polls]}")
        self.expect(p, not p.wb(), f"a wait writes back: {p.wb()}")
        if p.amd:
            want_poll = COHERENT_LD[p.target]
            self.expect(p, polls and {a.bits for a in polls} == {want_poll},
                        f"polls carry {sorted({a.bits for a in polls})}, expected {{'{want_poll}'}}")
            if strength == "acquire":
                want = (AGENT_INV if sc == "device" else SYSTEM_INV)[p.target]
                self.expect(p, p.inv() == want, f"wait<acquire, {sc}> invalidates {p.inv()}, expected {want}")
            else:
                self.expect(p, not p.inv(), f"wait<{strength}> invalidates: {p.inv()}")
        else:
            # sm_90 polls with ld.acquire (a load plus an L1 invalidate) instead of relaxed polls and one
            # fence.acq_rel (MEMBAR + invalidate): arch::kCheapAcquireLoad. A relaxed wait polls relaxed.
            want_order = "relaxed" if strength == "relaxed" else "acquire"
            self.expect(p, polls and all(a.sem == want_order and a.scope == "sys" for a in polls),
                        f"polls are not ld.{want_order}.sys: {[a.token for a in polls]}")
            self.expect(p, not p.fences(), f"wait<{strength}> emits fences {p.fences()}, expected none")

    # -- barriers --
    def check_barrier(self, p):
        w = quals(p.q)
        if p.amd:
            if p.call == "barrier_all_block" and "comm" in w:
                self.expect(p, not p.wb() and not p.inv(),
                            f"barrier_all<comm> emits cache maintenance: {p.wb() + p.inv()}")
            elif p.call == "barrier_all_block":
                self.expect(p, p.wb() and p.inv(), f"barrier_all<all> without write-back and invalidate: "
                            f"{p.wb() + p.inv()}")
            rmw = [a for a in p.mem if a.kind == "rmw"]
            self.expect(p, rmw, "no arrival atomic")
            for a in rmw:
                bad = p.flow.reaches_without(a.i, amd_is_wait, amd_is_write, backward=True, within=p.inside)
                self.expect(p, not bad, f"no s_waitcnt vmcnt(0) between '{bad}' and the arrival '{a.token}'")
        else:
            self.expect(p, any(a.kind == "rmw" and a.sem in ("release", "acq_rel") for a in p.mem),
                        "the arrival is not a release atomic")

    # -- p, g, AMOs: one coherent atomic access of the element's size, ordering nothing --
    def check_single(self, p):
        w = quals(p.q)
        self.expect(p, not p.wb() and not p.inv() and not p.fences() and not p.ordered_ops(),
                    f"a single-element call orders something: {p.wb() + p.inv() + p.fences() + p.ordered_ops()}")
        kind = {"p": "st", "atomic_set": "st", "g": "ld", "atomic_fetch": "ld"}.get(p.call, "rmw")
        acc = [a for a in p.mem if a.kind == kind]
        if not acc:
            self.fail(p, f"no {kind} access")
            return
        size = next((SUBWORD[x] for x in w if x in SUBWORD), None)
        if size:
            self.expect(p, len(acc) == 1 and acc[0].width() == size and not [a for a in p.mem if a is not acc[0]],
                        f"a {size}-byte element is not one {size}-byte atomic access: {[a.text for a in p.mem]}")
        if p.amd:
            returns = p.call not in ("atomic_add",)
            if p.target == "gfx942":
                want = "sc0 sc1" if kind in ("st", "ld") or returns else "sc1"
            else:
                want = {"st": "", "ld": "glc", "rmw": "glc" if returns else ""}[kind]
            got = {a.bits for a in acc}
            self.expect(p, got == {want}, f"{kind} carries {sorted(got)}, expected {{'{want}'}}")
        else:
            self.expect(p, all(a.sem == "relaxed" and a.scope == "sys" for a in acc),
                        f"expected relaxed .sys accesses, got {[a.token for a in acc]}")

    # -- the strict fallback: its strict branch holds what the default lowering holds, and the relaxed path stays --
    def check_strict(self, p, ref):
        if p.amd:
            for kind, have, want in (("write-back", p.wb(), ref.wb()), ("invalidate", p.inv(), ref.inv())):
                missing = [x for x in set(want) if have.count(x) < want.count(x)]
                self.expect(p, not missing, f"the strict branch lacks the {kind} {missing} of the default "
                            f"lowering ({ref.name}: {want}; here {have})")
            if ref.wb() or ref.inv():
                self.expect(p, p.path_avoiding(lambda s: amd_is_wb(s) or amd_is_inv(s)),
                            "no path without cache maintenance: the relaxed lowering (ctx.strict == 0) is gone")
        else:
            fences = p.fences()
            full = [f for f in fences if re.match(r"^fence\.(acq_rel|sc)\.sys$", f)]
            for f in ref.fences():
                self.expect(p, fences.count(f) >= ref.fences().count(f) or (f.startswith("fence.acq_rel") and full),
                            f"the strict branch lacks '{f}' of the default lowering ({ref.name})")
            for op in ref.ordered_ops():
                self.expect(p, op in p.ordered_ops() or full, f"the strict branch has neither '{op}' of the default "
                            f"lowering ({ref.name}) nor a .sys fence")


# ---- rendering -------------------------------------------------------------------------------------------------------
HOST = {
    "fence": "`atomic_thread_fence(release)`",
    "quiet": "`atomic_thread_fence(seq_cst)`",
    "pe_quiet": "`atomic_thread_fence(seq_cst)`",
    "put": "data `atomic_ref::load/store(relaxed)`",
    "putmem": "data `atomic_ref::load/store(relaxed)`",
    "putmem_block": "data `atomic_ref::load/store(relaxed)` · group barrier",
    "putmem_nbi_block": "data `atomic_ref::load/store(relaxed)` · group barrier",
    "get": "data `atomic_ref::load/store(relaxed)`",
    "publish": "data `store(relaxed)` · `atomic_thread_fence(release)` · `store(relaxed)`",
    "putmem_block_quiet": "data `store(relaxed)` · group barrier · `atomic_thread_fence(seq_cst)`",
    "wait_acquire": "`load(acquire)` polls",
    "wait_relaxed": "`load(relaxed)` polls",
    "barrier_all_block": "group barrier · `atomic_thread_fence(seq_cst)` · `fetch_add(release)` · "
                         "`load(relaxed)` polls · `atomic_thread_fence(acquire)`",
    "sync_all_block": "group barrier · `fetch_add(release)` · `load(relaxed)` polls · "
                      "`atomic_thread_fence(acquire)`",
    "p": "`atomic_ref::store(relaxed)`",
    "g": "`atomic_ref::load(relaxed)`",
    "atomic_fetch_add": "`fetch_add(relaxed)`",
    "atomic_compare_swap": "`compare_exchange_strong(relaxed)`",
    "atomic_set": "`store(relaxed)`",
    "atomic_add": "`fetch_add(relaxed)`",
    "atomic_fetch": "`load(relaxed)`",
    "put_signal_set": "data `store(relaxed)` · `store(release)`",
    "put_signal_add": "data `store(relaxed)` · `fetch_add(release)`",
    "signal_op_all_set": "`store(release)`",
    "signal_op_all_add": "`fetch_add(release)`",
    "signal_op_comm_set": "`store(relaxed)`",
    "signal_op_comm_add": "`fetch_add(relaxed)`",
    "error_path": "data `store(relaxed)`; error path `fetch_add(relaxed)` · stores · `atomic_thread_fence(release)`",
}


def host_cell(call, q):
    if call == "strict":
        real, _, ref = STRICT[q]
        relaxed, strict = host_cell(real, q.replace(real + "_", "", 1)), host_cell(*split_name(ref))
        if real == "wait_until" and "relaxed" in quals(q):
            strict = HOST["wait_relaxed"] + " · `atomic_thread_fence(acquire)`"
        return relaxed if relaxed == strict else f"{relaxed}; strict: {strict}"
    w = quals(q)
    if call in WAIT_FAMILIES:
        return HOST["wait_relaxed" if "relaxed" in w else "wait_acquire"]
    if call in ("put_signal", "put_signal_nbi", "put_signal_block"):
        cell = HOST["put_signal_add" if "add" in w else "put_signal_set"]
        return cell.replace("data", "data", 1) + (" · group barrier" if "block" in call else "")
    if call == "signal_op":
        return HOST[f"signal_op_{'comm' if 'comm' in w else 'all'}_{'add' if 'add' in w else 'set'}"]
    return HOST.get(call, "")


def cell(p):
    seq = "; ".join(p.sequence())
    data = p.data_summary()
    out = []
    if data:
        out.append(f"data `{data}`")
    if seq:
        out.append(("cold branch " if p.error_branch else "") + f"`{seq}`")
    return (" · " if p.error_branch else " → ").join(out) if out else "(nothing)"


def qual_label(call, q):
    """The qualifiers of a row as the docs show them, with the probe's context words spelled out."""
    if call == "error_path":
        return "(none, ctx.error kept)"
    if call == "strict":
        return STRICT[q][1] + "; `ctx.strict` kept"
    words = [x for x in q.split("_") if x != "default"]
    label = ", ".join(x for x in words if x not in CONTEXT) or "(none)"
    context = [CONTEXT[x] for x in words if x in CONTEXT]
    return label + (" — " + "; ".join(context) if context else "")


def short_label(call, q):
    """A row's qualifiers in one word, for the table of qualifiers that change nothing."""
    if call in ("error_path", "strict"):
        return q
    return "+".join(x for x in q.split("_") if x != "default") or "(none)"


def call_label(call, q):
    return STRICT[q][0] if call == "strict" else call


def rows(probes):
    """[(call, q)] in doc order, for the kernels every target has."""
    names = None
    for t in probes:
        ks = set(probes[t])
        names = ks if names is None else names & ks
    order = []
    for _, calls, _ in GROUPS:
        for c in calls:
            for key in CORE + sum(OPTIONAL.values(), []):
                if key[0] == c and f"{key[0]}__{key[1]}" in names and key not in order:
                    order.append(key)
    return order


def render_lowering(probes, commands):
    keys = rows(probes)
    out = [
        "# Lowering of the device API, per platform",
        "",
        "<!-- Generated by `" + GEN_CMD + "` from tests/isa/api_probe.cpp: do not edit by hand. CI runs",
        "     `tests/isa/check_api.sh .`, which fails when this file is not what the compilers emit. -->",
        "",
        "What each call, with each qualifier combination that matters, compiles to: the instructions that order or",
        "publish memory (cache write-backs and invalidates, waits for outstanding accesses, fences, barriers) and the",
        "cache bits of the accesses. Read off the compilers by tests/isa/check_api.sh, which also asserts the",
        "properties the memory model promises (docs/memory_model.md); docs/performance.md counts them.",
        "",
        "Compiled with (one target per run, `-DPORTSHMEM_DEBUG_CHECKS=0`, the release lowering):",
        "",
    ]
    for t in TARGETS:
        out.append(f"- {t}: `{commands.get(t, '?')}`")
    out += [
        "",
        "How to read a cell:",
        "",
        "- The code is that of the call under test only (the probe marks it); instructions in reverse postorder of",
        "  the control flow, immediate repetitions dropped (a peeled first poll and its loop show once). Left out:",
        "  register moves and arithmetic; reads of the kernel's arguments (PTX `ld.param`; on AMD a scalar load",
        "  whose address is computed from the entry SGPRs alone, such as the argument segment's address); and the",
        "  library's table lookups, such as a peer's heap base — identified by what their value is used for: only to",
        "  form the address of a later access and in comparisons (a null or alignment test), never stored or used",
        "  as an operand — with the waits that wait only for them. Every other load is shown, with its bits.",
        "- `data …` gives the accesses of a copy loop (their cache bits), `→` what follows the last of them.",
        "- AMD: `store`/`load`/`atomic_*` are global or flat vector-memory accesses with their cache bits (gfx942:",
        "  `sc0 sc1` system scope, `sc1` agent scope, and on atomics `sc0` = returns the old value, `sc1` = system",
        "  scope; gfx90a: `glc` on a load misses the L1, and a relaxed atomic store at system scope is a plain",
        "  store); `scratch_*` are accesses to private memory (scratch or MUBUF), `ds_*` to LDS, `s_load` a scalar",
        "  load; `buffer_wbl2` writes back the L2, `buffer_inv*`/`buffer_wbinvl1_vol` invalidate.",
        "- sm_90: PTX, types dropped (`st.relaxed.sys.global` is `st.relaxed.sys.global.b32`); the state space is",
        "  shown where the instruction names it (`.global`, `.local`, `.shared`; none = a generic address).",
        "- host: hand-stated from include/portshmem/arch/host.hpp (not compiled): `std::` atomics and",
        "  `std::atomic_thread_fence(order)`; the CPU's caches are coherent, so data path, coverage and scope change",
        "  nothing there.",
        "",
    ]
    for title, calls, doc in GROUPS:
        ks = [k for k in keys if k[0] in calls]
        if not ks:
            continue
        out += [f"## {title}", ""]
        if doc:
            out += [doc, ""]
        out.append("| call | qualifiers | gfx90a | gfx942 | sm_90 | host |")
        out.append("|---|---|---|---|---|---|")
        for call, q in ks:
            name = f"{call}__{q}"
            cells = [cell(probes[t][name]) for t in TARGETS]
            out.append(f"| `{call_label(call, q)}` | {qual_label(call, q)} | " + " | ".join(cells) +
                       f" | {host_cell(call, q)} |")
        out.append("")
    out += ["## Qualifiers that do not change the code", "",
            "Per call and target, the qualifier sets whose cells above are identical (only classes of two or more;",
            "`all+node` is the qualifier list `mm::all, mm::node`).",
            "Some are by design: `node` lowers to `system` everywhere; on sm_90 `device` lowers to `system` too (two",
            "PEs are two processes, and PTX's `.gpu` scope covers one program's threads: arch::kPeerDeviceScope),",
            "and a comm-covered fence is the full fence (a PTX fence only waits for the thread's own accesses:",
            "nothing cheaper exists).", ""]
    out.append("| call | target | same code |")
    out.append("|---|---|---|")
    for call in dict.fromkeys(k[0] for k in keys):
        qs = [q for c, q in keys if c == call]
        for t in TARGETS:
            classes = {}
            for q in qs:
                p = probes[t][f"{call}__{q}"]
                classes.setdefault((tuple(p.sequence()), p.data_summary()), []).append(q)
            groups = [g for g in classes.values() if len(g) > 1]
            if groups:
                txt = " · ".join("{" + ", ".join(short_label(call, q) for q in g) + "}" for g in groups)
                out.append(f"| `{call}` | {t} | {txt} |")
    out.append("")
    return "\n".join(out)


def render_cost(probes):
    keys = rows(probes)
    out = [
        SECTION,
        "",
        "<!-- Generated by `" + GEN_CMD + "` (tests/isa/api_lowering.py): do not edit by hand; CI fails when it",
        "     differs from what the compilers emit. -->",
        "",
        "Per call and qualifiers, what the compiled code of the call holds (static counts: a loop body counts",
        "once, and a branch not taken still counts; the code itself is in docs/lowering.md). AMD: `wb` L2",
        "write-backs (`buffer_wbl2`), `inv` invalidates (`buffer_inv*`, `buffer_invl2`, `buffer_wbinvl1_vol`),",
        "`wait` the `s_waitcnt vmcnt(0)` after the copy loop (those of the ordering sequence, and a wait for a value",
        "the call reads, such as the barrier's epoch; not the waits of a copy loop for its own loads).",
        "sm_90: PTX fences, and accesses that carry their own release or acquire (`st.release`, `atom.release`,",
        "`ld.acquire`; tests/isa/sass_check.sh shows what each becomes in SASS on a machine with cuobjdump). A",
        "write-back on AMD costs in proportion to the dirty lines of the whole L2 (up to 4 MB per XCD on MI300),",
        "whoever wrote them; a wait costs only the caller's own outstanding accesses. The host platform's cost is",
        "in docs/lowering.md: one `std::atomic_thread_fence` per fence, whatever the qualifiers. Compilers:",
        "clang-19 (Debian) and nvcc 13.0, with the compile lines of docs/lowering.md. A row with `ctx.strict` kept",
        "counts both branches of the strict fallback (the relaxed lowering and the default one).",
        "",
        "| call | qualifiers | gfx90a wb/inv/wait | gfx942 wb/inv/wait | sm_90 fences "
        "| sm_90 release/acquire accesses |",
        "|---|---|---|---|---|---|",
    ]
    for call, q in keys:
        name = f"{call}__{q}"
        cols = []
        for t in AMD:
            p = probes[t][name]
            waits = sum(1 for x in p.sequence() if x == "s_waitcnt vmcnt(0)")
            cols.append(f"{len(p.wb())}/{len(p.inv())}/{waits}")
        p = probes["sm_90"][name]
        cols.append(summarize(p.fences()))
        cols.append(summarize(p.ordered_ops()))
        out.append(f"| `{call_label(call, q)}` | {qual_label(call, q)} | " + " | ".join(cols) + " |")
    out.append("")
    return "\n".join(out)


def summarize(items):
    if not items:
        return "0"
    counts = {}
    for x in items:
        counts[x] = counts.get(x, 0) + 1
    return ", ".join(f"{n} `{x}`" for x, n in counts.items())


def replace_section(text, section):
    """text with the section (from SECTION to the next '## ' heading or the end) replaced by / added as section."""
    lines = text.split("\n")
    start = next((i for i, l in enumerate(lines) if l.strip() == SECTION), None)
    if start is None:
        body = text.rstrip("\n")
        return (body + "\n\n" if body else "# Performance\n\n") + section.rstrip("\n") + "\n"
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    tail = lines[end:]
    new = lines[:start] + section.rstrip("\n").split("\n") + ([""] + tail if tail else [])
    return "\n".join(new).rstrip("\n") + "\n"


def extract_section(text):
    lines = text.split("\n")
    start = next((i for i, l in enumerate(lines) if l.strip() == SECTION), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n".join(lines[start:end]).rstrip("\n") + "\n"


# ---- main ------------------------------------------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--target", action="append", default=[], help="TARGET=FILE (gfx90a, gfx942: .s; sm_90: .ptx)")
    ap.add_argument("--command", action="append", default=[], help="TARGET=compile line shown in the docs")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", metavar="DIR")
    ap.add_argument("--include", help="the headers the probes were compiled against (default: REPO/include)")
    ap.add_argument("--show", action="append", default=[], help="print a kernel's region on every target")
    args = ap.parse_args()

    files = dict(t.split("=", 1) for t in args.target)
    commands = dict(c.split("=", 1) for c in args.command)
    chk = Checker()
    probes = {}
    expected = list(CORE)
    present = []
    for header, keys in OPTIONAL.items():
        if os.path.exists(os.path.join(args.include or os.path.join(args.repo, "include"), "portshmem", header)):
            expected += keys
            present.append(header)
    for t in TARGETS:
        if t not in files:
            continue
        kernels = (parse_amd if t in AMD else parse_ptx)(files[t])
        probes[t] = {}
        for name, items in kernels.items():
            if "__" not in name or name.startswith("__"):
                continue
            probes[t][name] = Probe(t, name, items)
        for call, q in expected:
            if f"{call}__{q}" not in probes[t]:
                chk.failures.append(f"FAIL {t}: probe kernel {call}__{q} missing (tests/isa/api_probe.cpp)")
        for p in probes[t].values():
            chk.check(p)

    # Omitted qualifiers mean OpenSHMEM's defaults: the "(none)" probe must compile to what the explicit defaults do.
    for t in probes:
        for plain, explicit in DEFAULTS:
            a, b = probes[t].get(plain), probes[t].get(explicit)
            if a and b and (a.sequence(), a.data_summary()) != (b.sequence(), b.data_summary()):
                chk.failures.append(f"FAIL {t} {plain}: without qualifiers it compiles to {cell(a)}, but "
                                    f"{explicit} (the defaults spelled out) to {cell(b)}")
        # The strict fallback holds what the default lowering holds.
        for name, p in probes[t].items():
            if p.call == "strict" and p.q in STRICT:
                ref = probes[t].get(STRICT[p.q][2])
                if ref is None:
                    chk.fail(p, f"no reference probe {STRICT[p.q][2]}")
                else:
                    chk.check_strict(p, ref)

    for name in args.show:
        for t in probes:
            p = probes[t].get(name)
            if p:
                print(f"---- {t} {name}: {len(p.ins)} instructions in the region")
                for i, s in p.ins:
                    print("   ", s, "  <- table lookup" if i in p.lookups else "  <- argument read"
                          if i in p.argreads else "")
                print("  sequence:", "; ".join(p.sequence()), "| data:", p.data_summary())

    # summary table on stdout
    for t in probes:
        print(f"\n== {t}: {len(probes[t])} probes")
        for p in sorted(probes[t].values(), key=lambda p: p.name):
            print(f"  {p.name:40} {cell(p)}")
    print(f"\noptional headers present: {', '.join(present) or 'none'}")
    for n in chk.notes:
        print(n)

    rc = 0
    docs_ok = True
    if all(t in probes for t in TARGETS):
        low = render_lowering(probes, commands)
        cost = render_cost(probes)
        low_path = os.path.join(args.repo, "docs", "lowering.md")
        perf_path = os.path.join(args.repo, "docs", "performance.md")
        if args.write:
            os.makedirs(os.path.dirname(low_path), exist_ok=True)
            with open(low_path, "w") as f:
                f.write(low)
            old = open(perf_path).read() if os.path.exists(perf_path) else ""
            with open(perf_path, "w") as f:
                f.write(replace_section(old, cost))
            print(f"wrote {low_path} and the section '{SECTION}' of {perf_path}")
        elif args.check:
            os.makedirs(args.check, exist_ok=True)
            with open(os.path.join(args.check, "lowering.md"), "w") as f:
                f.write(low)
            with open(os.path.join(args.check, "performance-section.md"), "w") as f:
                f.write(cost)
            have = open(low_path).read() if os.path.exists(low_path) else ""
            if have != low:
                docs_ok = False
                print(f"FAIL docs/lowering.md is not what the compilers emit (regenerate: {GEN_CMD}):",
                      file=sys.stderr)
                sys.stderr.writelines(list(difflib.unified_diff(have.splitlines(True), low.splitlines(True),
                                                                "docs/lowering.md", "generated"))[:60])
            have_sec = extract_section(open(perf_path).read()) if os.path.exists(perf_path) else None
            if have_sec != cost:
                docs_ok = False
                print(f"FAIL docs/performance.md section '{SECTION}' is stale or missing (regenerate: {GEN_CMD}):",
                      file=sys.stderr)
                sys.stderr.writelines(list(difflib.unified_diff((have_sec or "").splitlines(True),
                                                                cost.splitlines(True), "docs/performance.md",
                                                                "generated"))[:60])
    elif args.write:
        print("api_lowering: --write needs all three targets", file=sys.stderr)
        rc = 1

    print()
    for f in chk.failures:
        print(f, file=sys.stderr)
    if chk.failures or not docs_ok:
        print(f"check_api: {len(chk.failures)} failed assertion(s){'' if docs_ok else ', stale docs'}",
              file=sys.stderr)
        return 1
    print("check_api: all assertions hold" + (", docs are current" if args.check and probes else ""))
    return rc


if __name__ == "__main__":
    sys.exit(main())
