#!/usr/bin/env python3
"""ISA check of the public device API, and the generator of docs/lowering.md.

Reads the device assembly of tests/isa/api_probe.cpp for gfx90a and gfx942 (clang-19 -S) and the PTX for sm_90 (nvcc
-ptx), as tests/isa/check_api.sh compiles them; splits it per kernel; finds in each kernel the code of the call(s)
under test (the instructions reachable from the probe's "@@region begin" marker without passing "@@region end");
asserts what the memory model promises of that code; and renders what it found as docs/lowering.md and the section
"Static cost of the memory-model qualifiers" of docs/performance.md.

    api_lowering.py --repo ROOT --target gfx90a=FILE --target gfx942=FILE --target sm_90=FILE [--write | --check DIR]
                    [--show KERNEL]

--write  writes the docs (only when all three targets are given); --check DIR writes them into DIR and fails when the
         repository's copies differ. Exit status: 0 ok, 1 a failed assertion or stale docs.
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
# groups once their header exists). The order here is the order of the rows in the docs.
SCOPES3 = ["device", "node", "system"]
ORDERING_Q = ["default"] + [f"{c}_{s}" for c in ("all", "comm") for s in SCOPES3]
PUT_Q = ["default", "bypass_device", "bypass_system", "keep_device", "keep_system"]
WAIT_Q = ["default"] + [f"{a}_{s}" for a in ("acquire", "comm", "relaxed") for s in ("device", "system")]

CORE = (
    [("fence", q) for q in ORDERING_Q]
    + [("quiet", q) for q in ORDERING_Q]
    + [("pe_quiet", "comm_system"), ("pe_quiet", "all_system")]
    + [(c, q) for c in ("put", "putmem_block") for q in PUT_Q]
    + [("putmem_nbi_block", q) for q in ("default", "bypass_system", "keep_system")]
    + [("get", "bypass_system"), ("get", "keep_system")]
    + [("publish", q) for q in ("bypass_comm", "keep_comm", "bypass_all", "keep_all")]
    + [("putmem_block_quiet", "comm_system"), ("putmem_block_quiet", "all_system")]
    + [("wait_until", q) for q in WAIT_Q]
    + [("test", q) for q in ("acquire_system", "comm_system", "relaxed_system")]
    + [("barrier_all_block", q) for q in ("default", "all_system", "comm_system", "comm_device")]
    + [("sync_all_block", q) for q in ("default", "device")]
    + [("p", q) for q in ["default"] + SCOPES3]
    + [("g", q) for q in ["default"] + SCOPES3]
    + [("error_path", "put")]
)
OPTIONAL = {
    "amo.hpp": [(c, q) for c in ("atomic_fetch_add", "atomic_compare_swap", "atomic_set")
                for q in ["default"] + SCOPES3]
    + [("atomic_add", "system"), ("atomic_fetch", "system")],
    "signal.hpp": [("put_signal", f"{w}_{c}_{o}") for o in ("set", "add") for w in ("weak", "strong")
                   for c in ("all", "comm")]
    + [("put_signal", "default_set"), ("put_signal", "weak_comm_set_device"), ("put_signal", "weak_all_set_keep"),
       ("put_signal_nbi", "weak_comm_add"), ("put_signal_nbi", "strong_comm_add"),
       ("put_signal_block", "weak_comm_set"), ("put_signal_block", "weak_all_set")]
    + [("signal_op", q) for q in ("all_set", "all_add", "comm_set", "comm_add", "comm_add_device")]
    + [("signal_wait_until", q) for q in ("default", "acquire_device", "acquire_system", "comm_system",
                                          "relaxed_system")],
    "wait_vector.hpp": [("wait_until_all", q) for q in ("acquire_system", "comm_system", "relaxed_system")]
    + [("wait_until_any", "acquire_device"), ("wait_until_any", "comm_system"), ("test_any", "acquire_system"),
       ("test_any", "relaxed_system"), ("wait_until_some", "comm_system")],
}

# Families, for the checks and the docs' grouping.
GROUPS = [
    ("Fence, quiet", ("fence", "quiet", "pe_quiet"),
     "Context: a 16-byte bypass put before, a flag `p` after; the cell is the call's own code."),
    ("Puts and gets", ("put", "putmem_block", "putmem_nbi_block", "get"),
     "`data` gives the cache bits of the data accesses (a copy loop); after it, what the call ends with."),
    ("Publish patterns", ("publish", "putmem_block_quiet"),
     "`publish` is `put(path); fence(coverage); p(flag)`; `putmem_block_quiet` is `putmem_block; quiet` (the flag `p` "
     "after it is outside the counted code). After `data`: what orders the data before the flag."),
    ("Waits", ("wait_until", "test", "signal_wait_until", "wait_until_all", "wait_until_any", "wait_until_some",
               "test_any"),
     "The poll, then what the acquire strength adds; a `g` (a comm read) follows outside the counted code."),
    ("Barriers", ("barrier_all_block", "sync_all_block"),
     "One dissemination round is shown (the round loop is one copy of the code)."),
    ("Single-element RMA and AMOs", ("p", "g", "atomic_fetch_add", "atomic_compare_swap", "atomic_set", "atomic_add",
                                     "atomic_fetch"), ""),
    ("Signals", ("put_signal", "put_signal_nbi", "put_signal_block", "signal_op"),
     "After `data`: what orders the data before the signal, and the signal update."),
    ("The cold error path", ("error_path",),
     "Every other probe clears `ctx::error`, so a bad call's recording (`record_error`, which ends in "
     "`fence<release, system>`) folds away; this put keeps it, to show what that branch (never taken by a correct "
     "call) holds."),
]
DATA_FAMILIES = {"put", "putmem_block", "putmem_nbi_block", "get", "publish", "putmem_block_quiet", "put_signal",
                 "put_signal_nbi", "put_signal_block", "error_path"}
SOURCE_READING_FAMILIES = DATA_FAMILIES - {"get"}  # every load of these reads the caller's local source
FLAG_FAMILIES = {"publish", "put_signal", "put_signal_nbi", "put_signal_block"}  # the last store is a flag / signal
WAIT_FAMILIES = {"wait_until", "test", "signal_wait_until", "wait_until_all", "wait_until_any", "wait_until_some",
                 "test_any"}


# A probe without qualifiers, and the probe spelling out the defaults it must equal.
DEFAULTS = [("fence__default", "fence__all_system"), ("quiet__default", "quiet__all_system"),
            ("wait_until__default", "wait_until__acquire_system"),
            ("signal_wait_until__default", "signal_wait_until__acquire_system"),
            ("barrier_all_block__default", "barrier_all_block__all_system"),
            ("put_signal__default_set", "put_signal__weak_all_set")] + \
    [(f"{c}__default", f"{c}__system") for c in ("p", "g", "atomic_fetch_add", "atomic_compare_swap", "atomic_set")] + \
    [(f"{c}__default", f"{c}__bypass_system") for c in ("put", "putmem_block", "putmem_nbi_block")]


def split_name(name):
    call, _, q = name.partition("__")
    return call, q


def quals(q):
    return set(q.split("_")) if q else set()


def scope_of(q):
    """The scope a probe asks for: device, or system (node lowers to system; no scope word = the default)."""
    w = quals(q)
    return "device" if "device" in w else "system"


def has_scope(call):
    return call not in ("error_path",)


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


def amd_mem(ins):
    """(kind, op, bits) of a vector-memory access, or None. kind: st, ld or rmw."""
    m = AMD_MEM.match(ins)
    if not m:
        return None
    kind = {"store": "st", "load": "ld", "atomic": "rmw"}[m.group(2)]
    toks = ins.split()[1:]
    bits = " ".join(t for t in AMD_BITS if t in toks)
    return kind, m.group(3), bits


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
    m = amd_mem(ins)
    if m:
        kind, op, bits = m
        name = {"st": "store", "ld": "load"}.get(kind, "atomic_" + op)
        return (name + " " + bits).strip()
    return None


PTX_MEM = re.compile(r"^(ld|st|atom|red)\.(\S+)")
PTX_SEMS = ("relaxed", "acquire", "release", "acq_rel", "volatile")


def ptx_strip(ins):
    return re.sub(r"^@!?%\w+\s+", "", ins)


def ptx_mem(ins):
    """(kind, normalized op without types, sem, scope, cache) or None."""
    s = ptx_strip(ins)
    m = PTX_MEM.match(s)
    if not m or s.startswith(("ld.param", "st.param", "ld.local", "st.local", "ld.shared", "st.shared")):
        return None
    parts = m.group(2).split(".")
    keep = [p for p in parts if not re.match(r"^(b|u|s|f)(8|16|32|64|128)$|^v[248]$", p)]
    sem = next((p for p in keep if p in PTX_SEMS), "")
    scope = next((p for p in keep if p in ("cta", "gpu", "sys", "cluster")), "")
    cache = next((p for p in keep if p in ("cs", "cg", "ca", "lu", "cv", "wb", "wt")), "")
    kind = {"ld": "ld", "st": "st"}.get(m.group(1), "rmw")
    return kind, ".".join([m.group(1)] + keep), sem, scope, cache


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


# ---- what a probe's code shows -------------------------------------------------------------------------------------
class Probe:
    """The facts of one kernel's region on one target."""

    def __init__(self, target, name, items):
        self.target, self.name = target, name
        self.call, self.q = split_name(name)
        self.amd = target in AMD
        self.flow = Flow(items, self.amd)
        self.order = self.flow.region()
        self.inside = set(self.order)
        self.has_region = any(k == "mark" and v == "begin" for k, v in items)
        ins = [(i, items[i][1]) for i in self.order if items[i][0] == "ins"]
        self.ins = ins
        self.all_ins = [v for k, v in items if k == "ins"]
        tok = amd_token if self.amd else ptx_token
        self.tokens = [(i, tok(s), s) for i, s in ins if tok(s)]
        # memory accesses: (index, kind, bits-or-cache, token)
        self.mem = []
        for i, s in ins:
            if self.amd:
                m = amd_mem(s)
                if m:
                    self.mem.append((i, m[0], m[2], amd_token(s)))
            else:
                m = ptx_mem(s)
                if m:
                    self.mem.append((i, m[0], m, m[1]))
        self.flag = None
        if self.call in FLAG_FAMILIES:
            writes = [x for x in self.mem if x[1] in ("st", "rmw")]
            if writes:
                self.flag = writes[-1]  # the last write in reverse postorder: after all the data
        self.error_branch = self._error_branch() if self.call == "error_path" else []
        cold = {i for i, _ in self.error_branch}
        self.data = [x for x in self.mem if x is not self.flag and self.call in DATA_FAMILIES
                     and not self._plain_load(x) and x[0] not in cold]

    def _error_branch(self):
        """The error record's code (record_error): from its fetch_add on the error count to its release fence."""
        toks = [(i, t) for i, t, _ in self.tokens]
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

    def _plain_load(self, m):
        if m[1] != "ld":
            return False
        return (m[2] == "") if self.amd else (m[2][2] == "" and m[2][4] == "")

    # The sequence the docs show: tokens in reverse postorder, without plain loads (the library's table lookups: peer
    # heap bases) and the waits that only wait for them; for a data call, only what follows the last data access.
    def sequence(self):
        if self.error_branch:
            return collapse([t for _, t in self.error_branch])
        pos = {i: n for n, i in enumerate(self.order)}
        start = max((pos[x[0]] for x in self.data), default=-1)
        out, after_plain_load = [], False
        for i, t, s in self.tokens:
            if pos[i] <= start:
                continue
            m = amd_mem(s) if self.amd else ptx_mem(s)
            if m and m[0] == "ld" and self._plain_load((i, m[0], m[2] if self.amd else m, t)):
                after_plain_load = True
                continue
            if self.amd and t == "s_waitcnt vmcnt(0)" and after_plain_load:
                after_plain_load = False
                continue
            after_plain_load = False
            out.append(t)
        return collapse(out)

    def data_summary(self):
        if not self.data:
            return ""
        kinds = {}
        for _, kind, _, tok in self.data:
            kinds.setdefault(kind, set()).add(tok)
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
        return [m[1] for _, k, m, _ in self.mem if not self.amd and m[2] in ("acquire", "release", "acq_rel")]


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
class Checker:
    def __init__(self):
        self.failures, self.notes = [], []

    def fail(self, p, why):
        self.failures.append(f"FAIL {p.target} {p.name}: {why}")

    def expect(self, p, cond, why):
        if not cond:
            self.fail(p, why)

    def check(self, p):
        t, call, q, w = p.target, p.call, p.q, quals(p.q)
        if not p.has_region:
            self.fail(p, "no @@region begin marker in the output (the probe or the splitter is broken)")
            return
        if p.amd and any(s.startswith(("s_swappc", "s_setpc")) for s in p.all_ins):
            self.fail(p, "calls a function (device libraries are not linked for AMD)")
        self.check_scope(p)
        if p.amd:
            self.check_wbl2_completes(p)
        fam = call
        if fam in ("fence", "quiet", "pe_quiet"):
            self.check_ordering(p, fam)
        elif fam in ("put", "putmem_block", "putmem_nbi_block", "get"):
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
                    self.notes.append(f"NOTE {t} {p.name}: fence<comm> after keep puts lowers to "
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
                    self.expect(p, p.inv(), "quiet<all> has no invalidate")
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
            if p.amd:
                self.expect(p, p.wb(), "the error record's release fence is gone (expected a buffer_wbl2 in the "
                            "cold path)")

    # -- every probe: the scope of what it emits --
    def check_scope(self, p):
        if not has_scope(p.call):
            return
        sc = scope_of(p.q)
        if p.amd:
            if p.target == "gfx942":
                for _, kind, bits, tok in p.mem:
                    b = set(bits.split())
                    if sc == "device":
                        if kind in ("st", "ld") and {"sc0", "sc1"} <= b or kind == "rmw" and "sc1" in b:
                            self.fail(p, f"device scope, but '{tok}' has system-scope bits")
                for s in p.wb() + p.inv():
                    if sc == "device" and "sc0 sc1" in s:
                        self.fail(p, f"device scope, but '{s}' is system-scope cache maintenance")
            else:
                for s in p.wb() + p.inv():
                    if sc == "device" and (s.startswith("buffer_wbl2") or s.startswith("buffer_invl2")):
                        self.fail(p, f"device scope, but '{s}' writes back / invalidates the L2 (gfx90a's single "
                                  "L2 is already the device's point of coherence)")
        else:
            want = "gpu" if sc == "device" else "sys"
            for _, s in p.ins:
                f = ptx_fence(s)
                m = ptx_mem(s)
                if m and m[0] == "ld" and p.call in SOURCE_READING_FAMILIES:
                    continue  # a put's loads read its local source (device scope); its scope is that of its stores
                got = None
                if f:
                    got = f.split(".")[-1]
                elif m and m[2]:
                    got = m[3]
                if got and got != want:
                    self.fail(p, f"scope {sc}, but '{ptx_strip(s)}' has scope .{got} (expected .{want})")

    # -- AMD: a write-back must be complete before any later write can become visible --
    def check_wbl2_completes(self, p):
        items = p.flow.items
        for i, (k, v) in enumerate(items):
            if k == "ins" and amd_is_wb(v):
                bad = p.flow.reaches_without(i, amd_is_wait, amd_is_write)
                if bad:
                    self.fail(p, f"'{v}' is not followed by s_waitcnt vmcnt(0) before '{bad}': the write can "
                              "become visible before the L2 write-back completes (LLVM drops the wait after "
                              "buffer_wbl2 when no other vector-memory access is outstanding; fixed upstream by "
                              "llvm-project PR 178316)")

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
                    want_inv = {"gfx942": {"system": ["buffer_inv sc0 sc1"], "device": ["buffer_inv sc1"]},
                                "gfx90a": {"system": ["buffer_invl2", "buffer_wbinvl1_vol"],
                                           "device": ["buffer_wbinvl1_vol"]}}[p.target][sc]
                    self.expect(p, p.inv() == want_inv, f"quiet<all, {sc}> invalidates {p.inv()}, expected {want_inv}")
                if want_wb:
                    self.expect(p, seq.index("s_waitcnt vmcnt(0)") > seq.index(want_wb[0]) if want_wb[0] in seq
                                and "s_waitcnt vmcnt(0)" in seq else False,
                                f"the write-back is not waited for: {seq}")
        else:
            kind = "acq_rel" if fam == "fence" else "sc"
            want = [f"fence.{kind}.{'gpu' if sc == 'device' else 'sys'}"]
            self.expect(p, p.fences() == want, f"fences {p.fences()}, expected {want}")

    # -- data path of puts and gets --
    def check_data_path(self, p):
        w, sc = quals(p.q), scope_of(p.q)
        keep = "keep" in w
        stores = [x for x in p.data if x[1] == "st"]
        loads = [x for x in p.data if x[1] == "ld"]
        self.expect(p, stores, "no data stores found")
        if p.amd:
            if keep:
                want = ""
            elif p.target == "gfx942":
                want = "sc1" if sc == "device" else "sc0 sc1"
            else:
                want = "glc slc"
            got = {x[2] for x in stores}
            self.expect(p, got == {want}, f"data stores carry {sorted(got)}, expected {{'{want}'}} "
                        f"({'keep' if keep else 'bypass'}, {sc})")
            if p.call == "get":
                want_ld = {"gfx942": "sc1" if sc == "device" else "sc0 sc1", "gfx90a": "glc"}[p.target]
                got_ld = {x[2] for x in loads}
                self.expect(p, got_ld == {want_ld}, f"get loads carry {sorted(got_ld)}, expected {{'{want_ld}'}}")
        else:
            for x in stores:
                cs = x[2][4] == "cs"
                self.expect(p, cs != keep, f"data store '{x[3]}' {'has' if cs else 'lacks'} .cs "
                            f"({'keep' if keep else 'bypass'})")
            if p.call == "get":
                self.expect(p, loads and all(x[2][4] == "cs" for x in loads),
                            f"get loads are not all ld.global.cs: {[x[3] for x in loads]}")

    # -- the flag / signal comes after the data: a wait (AMD) or a fence / release (PTX) on every path --
    def check_flag_ordered(self, p):
        if not p.flag:
            self.fail(p, "no flag / signal write found")
            return
        fi = p.flag[0]
        if p.amd:
            bad = p.flow.reaches_without(fi, amd_is_wait, amd_is_write, backward=True, within=p.inside)
            self.expect(p, not bad, f"no s_waitcnt vmcnt(0) between the data store '{bad}' and the flag / signal "
                        f"'{p.flag[3]}'")
        else:
            sem = p.flag[2][2]
            if sem not in ("release", "acq_rel"):
                is_w = lambda s: (ptx_mem(s) or ("",))[0] in ("st", "rmw")
                bad = p.flow.reaches_without(fi, lambda s: ptx_fence(s) is not None, is_w, backward=True,
                                             within=p.inside)
                self.expect(p, not bad, f"neither a fence nor a release orders the data store '{bad}' before the "
                            f"flag / signal '{p.flag[3]}'")

    # -- coverage all: a write-back (and its wait) at the scope --
    def check_release_maintenance(self, p, sc):
        if p.amd:
            want = {"gfx942": {"system": "buffer_wbl2 sc0 sc1", "device": "buffer_wbl2 sc1"},
                    "gfx90a": {"system": "buffer_wbl2", "device": None}}[p.target][sc]
            if want:
                self.expect(p, want in p.wb(), f"coverage all at {sc} scope without '{want}': {p.wb()}")
        else:
            want = "gpu" if sc == "device" else "sys"
            rel = p.fences() + [x for x in p.ordered_ops() if ".release." in x or ".acq_rel." in x]
            scopes = {next((c for c in x.split(".") if c in ("cta", "gpu", "sys")), "") for x in rel}
            self.expect(p, rel and scopes == {want}, f"coverage all: no release at .{want} ({rel})")

    def check_signal_update(self, p):
        if not p.flag and p.call != "signal_op":
            return
        w, sc = quals(p.q), scope_of(p.q)
        target = p.flag if p.flag else ([x for x in p.mem if x[1] in ("st", "rmw")] or [None])[-1]
        if target is None:
            self.fail(p, "no signal update found")
            return
        add = "add" in w
        if p.amd:
            self.expect(p, target[1] == ("rmw" if add else "st"),
                        f"signal {'add' if add else 'set'} lowers to '{target[3]}'")
            if p.target == "gfx942":
                want = ("" if sc == "device" else "sc1") if add else ("sc1" if sc == "device" else "sc0 sc1")
                self.expect(p, target[2] == want, f"signal update '{target[3]}' carries '{target[2]}', expected "
                            f"'{want}'")
        else:
            op = target[2][1]
            want_kind = "atom" if add else "st"
            self.expect(p, op.startswith(want_kind + ".") and target[2][3] == ("gpu" if sc == "device" else "sys"),
                        f"signal update '{op}'")

    # -- waits --
    def check_wait(self, p):
        w, sc = quals(p.q), scope_of(p.q)
        strength = "relaxed" if "relaxed" in w else "comm" if "comm" in w else "acquire"
        polls = [x for x in p.mem if x[1] == "ld" and not p._plain_load(x)]
        self.expect(p, not p.wb(), f"a wait writes back: {p.wb()}")
        if p.amd:
            want_poll = {"gfx942": "sc1" if sc == "device" else "sc0 sc1", "gfx90a": "glc"}[p.target]
            self.expect(p, polls and {x[2] for x in polls} == {want_poll},
                        f"polls carry {sorted({x[2] for x in polls})}, expected {{'{want_poll}'}}")
            if strength == "acquire":
                want = {"gfx942": {"system": ["buffer_inv sc0 sc1"], "device": ["buffer_inv sc1"]},
                        "gfx90a": {"system": ["buffer_invl2", "buffer_wbinvl1_vol"],
                                   "device": ["buffer_wbinvl1_vol"]}}[p.target][sc]
                self.expect(p, p.inv() == want, f"wait<acquire, {sc}> invalidates {p.inv()}, expected {want}")
            else:
                self.expect(p, not p.inv(), f"wait<{strength}> invalidates: {p.inv()}")
        else:
            # sm_90 polls with ld.acquire (a load plus an L1 invalidate) instead of relaxed polls and one
            # fence.acq_rel (MEMBAR + invalidate): arch::kCheapAcquireLoad. A relaxed wait polls relaxed.
            want_sc = "gpu" if sc == "device" else "sys"
            want_order = "relaxed" if strength == "relaxed" else "acquire"
            self.expect(p, polls and all(x[2][2] == want_order and x[2][3] == want_sc for x in polls),
                        f"polls are not ld.{want_order}.{want_sc}: {[x[3] for x in polls]}")
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
            rmw = [x for x in p.mem if x[1] == "rmw"]
            self.expect(p, rmw, "no arrival atomic")
            for x in rmw:
                bad = p.flow.reaches_without(x[0], amd_is_wait, amd_is_write, backward=True, within=p.inside)
                self.expect(p, not bad, f"no s_waitcnt vmcnt(0) between '{bad}' and the arrival '{x[3]}'")
        else:
            self.expect(p, any(x[2][0] == "rmw" and x[2][2] in ("release", "acq_rel") for x in p.mem),
                        "the arrival is not a release atomic")

    # -- p, g, AMOs --
    def check_single(self, p):
        sc = scope_of(p.q)
        self.expect(p, not p.wb() and not p.inv() and not p.fences() and not p.ordered_ops(),
                    f"a single-element call orders something: {p.wb() + p.inv() + p.fences() + p.ordered_ops()}")
        kind = {"p": "st", "atomic_set": "st", "g": "ld", "atomic_fetch": "ld"}.get(p.call, "rmw")
        acc = [x for x in p.mem if x[1] == kind and not p._plain_load(x)] if kind == "ld" else \
            [x for x in p.mem if x[1] == kind]
        if not acc:
            self.fail(p, f"no {kind} access")
            return
        if p.amd:
            returns = p.call not in ("atomic_add",)
            if p.target == "gfx942":
                if kind in ("st", "ld"):
                    want = "sc1" if sc == "device" else "sc0 sc1"
                else:
                    want = " ".join(b for b, on in (("sc0", returns), ("sc1", sc != "device")) if on)
            else:
                want = {"st": "", "ld": "glc", "rmw": "glc" if returns else ""}[kind]
            got = {x[2] for x in acc}
            self.expect(p, got == {want}, f"{kind} carries {sorted(got)}, expected {{'{want}'}}")
        else:
            want_sc = "gpu" if sc == "device" else "sys"
            self.expect(p, all(x[2][2] == "relaxed" and x[2][3] == want_sc for x in acc),
                        f"expected relaxed .{want_sc} accesses, got {[x[3] for x in acc]}")


# ---- rendering -------------------------------------------------------------------------------------------------------
HOST = {
    "fence": "`atomic_thread_fence(release)`",
    "quiet": "`atomic_thread_fence(seq_cst)`",
    "pe_quiet": "`atomic_thread_fence(seq_cst)`",
    "put": "data `atomic_ref::store(relaxed)`",
    "putmem_block": "data `atomic_ref::store(relaxed)` · group barrier",
    "putmem_nbi_block": "data `atomic_ref::store(relaxed)` · group barrier",
    "get": "data `atomic_ref::load/store(relaxed)`",
    "publish": "data `store(relaxed)` · `atomic_thread_fence(release)` · `store(relaxed)`",
    "putmem_block_quiet": "data `store(relaxed)` · group barrier · `atomic_thread_fence(seq_cst)`",
    "wait_acquire": "`load(relaxed)` polls · `atomic_thread_fence(acquire)`",
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
    if q == "default":
        return "(none)"
    if call == "error_path":
        return "(none, ctx.error kept)"
    return ", ".join(q.split("_"))


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
        "  plain loads (the library's table lookups, such as a peer's heap base) and the waits that only wait for",
        "  them, and register moves and arithmetic.",
        "- `data …` gives the accesses of a copy loop (their cache bits), `→` what follows the last of them.",
        "- AMD: `store`/`load`/`atomic_*` are vector-memory accesses with their cache bits (gfx942: `sc0 sc1` system",
        "  scope, `sc1` agent scope, and on atomics `sc0` = returns the old value, `sc1` = system scope; gfx90a: `glc`",
        "  `slc`); `buffer_wbl2` writes back the L2, `buffer_inv*`/`buffer_wbinvl1_vol` invalidate.",
        "- sm_90: PTX, types dropped (`st.relaxed.sys` is `st.relaxed.sys.b32`); `.cs` = cache-streaming data access.",
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
            out.append(f"| `{call}` | {qual_label(call, q)} | " + " | ".join(cells) + f" | {host_cell(call, q)} |")
        out.append("")
    out += ["## Qualifiers that do not change the code", "",
            "Per call and target, the qualifier sets whose cells above are identical (only classes of two or more;",
            "`all+node` is the qualifier list `mm::all, mm::node`).",
            "Some are by design: `node` lowers to `system` everywhere; on sm_90 a comm-covered fence is the full",
            "fence (a PTX fence only waits for the thread's own accesses: nothing cheaper exists).", ""]
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
                txt = " · ".join("{" + ", ".join(qual_label(call, q).replace(", ", "+") for q in g) + "}"
                                 for g in groups)
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
        "`wait` the `s_waitcnt vmcnt(0)` of the ordering sequence (not the waits of a copy loop for its own loads).",
        "sm_90: PTX fences, and accesses that carry their own release or acquire (`st.release`, `atom.release`,",
        "`ld.acquire`; tests/isa/sass_check.sh shows what each becomes in SASS on a machine with cuobjdump). A",
        "write-back on AMD costs in proportion to the dirty lines of the whole L2 (up to 4 MB per XCD on MI300),",
        "whoever wrote them; a wait costs only the caller's own outstanding accesses. The host platform's cost is",
        "in docs/lowering.md: one `std::atomic_thread_fence` per fence, whatever the qualifiers. Compilers:",
        "clang-19 (Debian) and nvcc 13.0, with the compile lines of docs/lowering.md.",
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
        out.append(f"| `{call}` | {qual_label(call, q)} | " + " | ".join(cols) + " |")
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
    ap.add_argument("--show", action="append", default=[], help="print a kernel's region on every target")
    args = ap.parse_args()

    files = dict(t.split("=", 1) for t in args.target)
    commands = dict(c.split("=", 1) for c in args.command)
    chk = Checker()
    probes = {}
    expected = list(CORE)
    present = []
    for header, keys in OPTIONAL.items():
        if os.path.exists(os.path.join(args.repo, "include", "portshmem", header)):
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

    for name in args.show:
        for t in probes:
            p = probes[t].get(name)
            if p:
                print(f"---- {t} {name}: {len(p.ins)} instructions in the region")
                for _, s in p.ins:
                    print("   ", s)
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
