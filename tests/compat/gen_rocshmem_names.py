#!/usr/bin/env python3
"""Writes rocSHMEM's typed device names out in full: include/rocshmem/detail/{rma,amo,signal,wait,coll}.hpp, each
name a one-line forward to portshmem's C++ API, and tests/compat/names_cases.inc, the table test's list (one case per
name). Run from anywhere; --check compares instead of writing (the ctest compat_names_generated does that)."""
import os
import shutil
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# rocSHMEM's type tables (TYPENAME, TYPE).
RMA_STD = [("float", "float"), ("double", "double"), ("char", "char"), ("schar", "signed char"), ("short", "short"),
           ("int", "int"), ("long", "long"), ("longlong", "long long"), ("uchar", "unsigned char"),
           ("ushort", "unsigned short"), ("uint", "unsigned int"), ("ulong", "unsigned long"),
           ("ulonglong", "unsigned long long")]
RMA_SIZED = [("int8", "int8_t"), ("int16", "int16_t"), ("int32", "int32_t"), ("int64", "int64_t"),
             ("uint8", "uint8_t"), ("uint16", "uint16_t"), ("uint32", "uint32_t"), ("uint64", "uint64_t"),
             ("size", "size_t"), ("ptrdiff", "ptrdiff_t")]
RMA = RMA_STD + RMA_SIZED
AMO_STANDARD = [("int", "int"), ("long", "long"), ("longlong", "long long"), ("uint", "unsigned int"),
                ("ulong", "unsigned long"), ("ulonglong", "unsigned long long"), ("int32", "int32_t"),
                ("int64", "int64_t"), ("uint32", "uint32_t"), ("uint64", "uint64_t"), ("size", "size_t"),
                ("ptrdiff", "ptrdiff_t")]
AMO_EXTENDED_ONLY = [("float", "float"), ("double", "double")]
AMO_BITWISE = [("uint", "unsigned int"), ("ulong", "unsigned long"), ("ulonglong", "unsigned long long"),
               ("int32", "int32_t"), ("int64", "int64_t"), ("uint32", "uint32_t"), ("uint64", "uint64_t")]
# rocSHMEM's wait types (its 13 C types incl. float and double, uint64) and the other sized types of its RMA table;
# portshmem polls integers of 1, 2, 4, 8 bytes, and float/double as the same-size integer compared as floating values.
WAIT = RMA
COLL = RMA_STD
REDUCE_ARITH = [("short", "short"), ("int", "int"), ("long", "long"), ("longlong", "long long"), ("float", "float"),
                ("double", "double")]
REDUCE_BITWISE = [("short", "short"), ("int", "int"), ("long", "long"), ("longlong", "long long")]

# The host and on-stream reductions: rocSHMEM (3.x) declares them for every integer type of its collective list and
# for float and double (and half, bfloat16: not mapped, docs/rocshmem.md), wider than its _reduce_wg list.
HOST_REDUCE_INT = [("char", "char"), ("schar", "signed char"), ("short", "short"), ("int", "int"), ("long", "long"),
                   ("longlong", "long long"), ("uchar", "unsigned char"), ("ushort", "unsigned short"),
                   ("uint", "unsigned int"), ("ulong", "unsigned long"), ("ulonglong", "unsigned long long"),
                   ("int8", "int8_t"), ("int16", "int16_t"), ("uint8", "uint8_t"), ("uint16", "uint16_t")]
HOST_REDUCE_FLOAT = [("float", "float"), ("double", "double")]
# portshmem_datatype_t of each (portshmem/stream.h).
DATATYPE = {"char": "CHAR", "signed char": "SCHAR", "short": "SHORT", "int": "INT", "long": "LONG",
            "long long": "LONGLONG", "unsigned char": "UCHAR", "unsigned short": "USHORT", "unsigned int": "UINT",
            "unsigned long": "ULONG", "unsigned long long": "ULONGLONG", "int8_t": "INT8", "int16_t": "INT16",
            "uint8_t": "UINT8", "uint16_t": "UINT16", "float": "FLOAT", "double": "DOUBLE"}

GROUPS = [("", ""), ("_wave", "_wave"), ("_wg", "_block")]  # rocSHMEM suffix, portshmem suffix
CTX = "detail::default_ctx()"


def fn(ret, name, params, body):
    return "PORTSHMEM_DEVICE %s %s(%s) {\n  %s;\n}\n" % (ret, name, params, body)


def fn_hd(ret, name, params, call, host):
    """A name rocSHMEM has on the host and the device: one __host__ __device__ function (ROCSHMEM_DETAIL_BOTH)."""
    return "PORTSHMEM_HOST_DEVICE %s %s(%s) {\n  return ROCSHMEM_DETAIL_BOTH((%s), (%s));\n}\n" % (
        ret, name, params, call, host)


def both(ret, stem, params, call, cases=None, case=None, host=None, host_case=None):
    """The plain name (default context) and its ctx_ form; records the table test's cases. With host (the host body,
    detail/host_ops.hpp), each is __host__ __device__ and host_case (if given) records the host table's cases."""
    if host is None:
        out = fn(ret, "rocshmem_" + stem, params, call.replace("@C", CTX))
        out += fn(ret, "rocshmem_ctx_" + stem, "rocshmem_ctx_t ctx, " + params, call.replace("@C", "ctx"))
    else:
        call = call.replace("return ", "")
        out = fn_hd(ret, "rocshmem_" + stem, params, call.replace("@C", CTX), host)
        out += fn_hd(ret, "rocshmem_ctx_" + stem, "rocshmem_ctx_t ctx, " + params, call.replace("@C", "ctx"),
                     "(void)ctx, " + host)
        if host_case is not None:
            HOST_CASES.append(host_case.replace("@N", "rocshmem_" + stem).replace("@X", ""))
            HOST_CASES.append(host_case.replace("@N", "rocshmem_ctx_" + stem).replace("@X", "ctx, "))
    if cases is not None:
        cases.append(case.replace("@N", "rocshmem_" + stem).replace("@X", ""))
        cases.append(case.replace("@N", "rocshmem_ctx_" + stem).replace("@X", "ctx, "))
    return out


HOST_CASES = []  # the host table test's cases (tests/compat/host_cases.inc): names called from host code


def ret_of(ret):
    return "return " if ret != "void" else ""


def header(what, body, extra=""):
    return ("// GENERATED by tests/compat/gen_rocshmem_names.py: do not edit. " + what + "\n"
            "#pragma once\n\n#include \"rocshmem/detail/common.hpp\"\n" + extra +
            "#include \"rocshmem/detail/host_ops.hpp\"\n\n"
            "namespace rocshmem {\n\n" + body +
            "\n} // namespace rocshmem\n")


def rma(cases):
    o = []
    for op in ("put", "get"):
        for nbi in ("", "_nbi"):
            for sfx, psfx in GROUPS:
                stem = "%smem%s%s" % (op, nbi, sfx)
                host = None if sfx else "detail::host::%smem(dest, source, nelems, pe, %s)" % (
                    op, "true" if nbi else "false")
                o.append(both("void", stem, "void* dest, const void* source, size_t nelems, int pe",
                              "portshmem::%smem%s%s(@C, dest, source, nelems, pe)" % (op, nbi, psfx), cases,
                              "CASE_MEM(%s, %s, %s, @N, @X)" % (op, nbi or "blk", sfx or "_thread"), host,
                              "HOST_MEM(unsigned_char, %s, %s, @N, @X)" % (op, nbi or "blk")))
    for tn, t in RMA:
        for op in ("put", "get"):
            for nbi in ("", "_nbi"):
                for sfx, psfx in GROUPS:
                    stem = "%s_%s%s%s" % (tn, op, nbi, sfx)
                    host = None if sfx else "detail::host::%smem(dest, source, nelems * sizeof(%s), pe, %s)" % (
                        op, t, "true" if nbi else "false")
                    o.append(both("void", stem, "%s* dest, const %s* source, size_t nelems, int pe" % (t, t),
                                  "portshmem::%s%s%s(@C, dest, source, nelems, pe)" % (op, nbi, psfx), cases,
                                  "CASE_TYPED(%s, %s, %s, %s, @N, @X)" % (t.replace(" ", "_"), op, nbi or "blk",
                                                                         sfx or "_thread"), host,
                                  "HOST_MEM(%s, %s, %s, @N, @X)" % (t.replace(" ", "_"), op, nbi or "blk")))
        o.append(both("void", tn + "_p", "%s* dest, %s value, int pe" % (t, t), "portshmem::p(@C, dest, value, pe)",
                      cases, "CASE_P(%s, @N, @X)" % t.replace(" ", "_"), "detail::host::p(dest, value, pe)",
                      "HOST_P(%s, @N, @X)" % t.replace(" ", "_")))
        o.append(both(t, tn + "_g", "const %s* source, int pe" % t, "return portshmem::g(@C, source, pe)", cases,
                      "CASE_G(%s, @N, @X)" % t.replace(" ", "_"), "detail::host::g(source, pe)",
                      "HOST_G(%s, @N, @X)" % t.replace(" ", "_")))
    return header("RMA: putmem/getmem and typed put/get/p/g, blocking and _nbi, per thread, _wave and _wg.",
                  "\n".join(o))


def amo(cases):
    o = []

    def host(t, dest, op, value="0", cond="0", void=False):
        call = "detail::host::atomic(%s, detail::host::amo_%s, (%s)%s, (%s)%s, pe)" % (dest, op, t, value, t, cond)
        return ("(void)" if void else "") + call

    def ext(tn, t):
        c = t.replace(" ", "_")
        o.append(both(t, tn + "_atomic_fetch", "%s* source, int pe" % t, "return portshmem::atomic_fetch(@C, source, pe)",
                      cases, "CASE_AMO_FETCH(%s, @N, @X)" % c, host(t, "source", "fetch"),
                      "HOST_AMO_FETCH(%s, @N, @X)" % c))
        o.append(both("void", tn + "_atomic_set", "%s* dest, %s value, int pe" % (t, t),
                      "portshmem::atomic_set(@C, dest, value, pe)", cases, "CASE_AMO_SET(%s, @N, @X)" % c,
                      host(t, "dest", "set", "value", void=True), "HOST_AMO_SET(%s, @N, @X)" % c))
        o.append(both(t, tn + "_atomic_swap", "%s* dest, %s value, int pe" % (t, t),
                      "return portshmem::atomic_swap(@C, dest, value, pe)", cases, "CASE_AMO_SWAP(%s, @N, @X)" % c,
                      host(t, "dest", "swap", "value"), "HOST_AMO_SWAP(%s, @N, @X)" % c))
    for tn, t in AMO_STANDARD + AMO_EXTENDED_ONLY:
        ext(tn, t)
    for tn, t in AMO_STANDARD:
        c = t.replace(" ", "_")
        o.append(both(t, tn + "_atomic_compare_swap", "%s* dest, %s cond, %s value, int pe" % (t, t, t),
                      "return portshmem::atomic_compare_swap(@C, dest, cond, value, pe)", cases,
                      "CASE_AMO_CSWAP(%s, @N, @X)" % c, host(t, "dest", "cswap", "value", "cond"),
                      "HOST_AMO_CSWAP(%s, @N, @X)" % c))
        o.append(both(t, tn + "_atomic_fetch_inc", "%s* dest, int pe" % t,
                      "return portshmem::atomic_fetch_inc(@C, dest, pe)", cases, "CASE_AMO_FINC(%s, @N, @X)" % c,
                      host(t, "dest", "add", "1"), "HOST_AMO_FINC(%s, @N, @X)" % c))
        o.append(both("void", tn + "_atomic_inc", "%s* dest, int pe" % t, "portshmem::atomic_inc(@C, dest, pe)", cases,
                      "CASE_AMO_INC(%s, @N, @X)" % c, host(t, "dest", "add", "1", void=True),
                      "HOST_AMO_INC(%s, @N, @X)" % c))
        o.append(both(t, tn + "_atomic_fetch_add", "%s* dest, %s value, int pe" % (t, t),
                      "return portshmem::atomic_fetch_add(@C, dest, value, pe)", cases,
                      "CASE_AMO_FADD(%s, @N, @X)" % c, host(t, "dest", "add", "value"),
                      "HOST_AMO_FADD(%s, @N, @X)" % c))
        o.append(both("void", tn + "_atomic_add", "%s* dest, %s value, int pe" % (t, t),
                      "portshmem::atomic_add(@C, dest, value, pe)", cases, "CASE_AMO_ADD(%s, @N, @X)" % c,
                      host(t, "dest", "add", "value", void=True), "HOST_AMO_ADD(%s, @N, @X)" % c))
    for tn, t in AMO_BITWISE:
        c = t.replace(" ", "_")
        for op in ("and", "or", "xor"):
            o.append(both(t, "%s_atomic_fetch_%s" % (tn, op), "%s* dest, %s value, int pe" % (t, t),
                          "return portshmem::atomic_fetch_%s(@C, dest, value, pe)" % op, cases,
                          "CASE_AMO_F%s(%s, @N, @X)" % (op.upper(), c), host(t, "dest", op, "value"),
                          "HOST_AMO_F%s(%s, @N, @X)" % (op.upper(), c)))
            o.append(both("void", "%s_atomic_%s" % (tn, op), "%s* dest, %s value, int pe" % (t, t),
                          "portshmem::atomic_%s(@C, dest, value, pe)" % op, cases,
                          "CASE_AMO_%s(%s, @N, @X)" % (op.upper(), c), host(t, "dest", op, "value", void=True),
                          "HOST_AMO_%s(%s, @N, @X)" % (op.upper(), c)))
    return header("AMOs (default scope: system), per type as rocSHMEM declares them; each also a host call "
                  "(detail/host_ops.hpp).", "\n".join(o))


def signal(cases):
    o = []
    for nbi in ("", "_nbi"):
        for sfx, psfx in GROUPS:
            o.append(both("void", "putmem_signal%s%s" % (nbi, sfx),
                          "void* dest, const void* source, size_t nelems, uint64_t* sig_addr, uint64_t signal, "
                          "int sig_op, int pe",
                          "portshmem::putmem_signal%s%s(@C, dest, source, nelems, sig_addr, signal, "
                          "portshmem::signal_update(sig_op), pe)" % (nbi, psfx), cases,
                          "CASE_PUTMEM_SIGNAL(%s, %s, @N, @X)" % (nbi or "blk", sfx or "_thread")))
    for tn, t in RMA:
        for nbi in ("", "_nbi"):
            for sfx, psfx in GROUPS:
                o.append(both("void", "%s_put_signal%s%s" % (tn, nbi, sfx),
                              "%s* dest, const %s* source, size_t nelems, uint64_t* sig_addr, uint64_t signal, "
                              "int sig_op, int pe" % (t, t),
                              "portshmem::put_signal%s%s(@C, dest, source, nelems, sig_addr, signal, "
                              "portshmem::signal_update(sig_op), pe)" % (nbi, psfx), cases,
                              "CASE_PUT_SIGNAL(%s, %s, %s, @N, @X)" % (t.replace(" ", "_"), nbi or "blk",
                                                                       sfx or "_thread")))
    for sfx in ("", "_wg", "_wave"):
        # rocSHMEM's _wg/_wave fetch: every thread of the group calls and each gets the value (one atomic load each).
        o.append(fn("uint64_t", "rocshmem_signal_fetch" + sfx, "const uint64_t* sig_addr",
                    "return portshmem::signal_fetch(%s, sig_addr)" % CTX))
        cases.append("CASE_SIGNAL_FETCH(%s, rocshmem_signal_fetch%s)" % (sfx or "_thread", sfx))
    for op in ("set", "add"):
        o.append(both("void", "signal_" + op, "uint64_t* sig_addr, uint64_t signal, int pe",
                      "portshmem::signal_op(@C, sig_addr, signal, portshmem::signal_%s, pe)" % op, cases,
                      "CASE_SIGNAL_%s(@N, @X)" % op.upper()))
    return header("put-with-signal, signal_fetch, signal_set/add.", "\n".join(o))


def wait(cases):
    o = []
    for tn, t in WAIT:
        c = t.replace(" ", "_")
        one = "detail::host::one_value<%s>{val}" % t
        o.append(both("void", tn + "_wait_until", "%s* ivar, int cmp, %s val" % (t, t),
                      "portshmem::wait_until(@C, ivar, portshmem::cmp(cmp), val)", cases,
                      "CASE_WAIT_UNTIL(%s, @N, @X)" % c, "detail::host::wait_until(ivar, cmp, val)",
                      "HOST_WAIT_UNTIL(%s, @N, @X)" % c))
        o.append(both("int", tn + "_test", "%s* ivar, int cmp, %s val" % (t, t),
                      "return portshmem::test(@C, ivar, portshmem::cmp(cmp), val) ? 1 : 0", cases,
                      "CASE_TEST(%s, @N, @X)" % c, "detail::host::test(ivar, cmp, val)", "HOST_TEST(%s, @N, @X)" % c))
        o.append(both("void", tn + "_wait_until_all", "%s* ivars, size_t nelems, const int* status, int cmp, %s val" %
                      (t, t), "portshmem::wait_until_all(@C, ivars, nelems, status, portshmem::cmp(cmp), val)", cases,
                      "CASE_WAIT_ALL(%s, @N, @X)" % c,
                      "detail::host::wait_until_all(ivars, nelems, status, cmp, %s)" % one,
                      "HOST_WAIT_ALL(%s, @N, @X)" % c))
        o.append(both("size_t", tn + "_wait_until_any",
                      "%s* ivars, size_t nelems, const int* status, int cmp, %s val" % (t, t),
                      "return portshmem::wait_until_any(@C, ivars, nelems, status, portshmem::cmp(cmp), val)", cases,
                      "CASE_WAIT_ANY(%s, @N, @X)" % c,
                      "detail::host::wait_until_any(ivars, nelems, status, cmp, %s)" % one,
                      "HOST_WAIT_ANY(%s, @N, @X)" % c))
        o.append(both("size_t", tn + "_wait_until_some",
                      "%s* ivars, size_t nelems, size_t* indices, const int* status, int cmp, %s val" % (t, t),
                      "return portshmem::wait_until_some(@C, ivars, nelems, indices, status, portshmem::cmp(cmp), "
                      "val)", cases, "CASE_WAIT_SOME(%s, @N, @X)" % c,
                      "detail::host::wait_until_some(ivars, nelems, indices, status, cmp, %s)" % one,
                      "HOST_WAIT_SOME(%s, @N, @X)" % c))
        # rocSHMEM's host _vector forms take an array of compare values (the device ones a scalar): host-only
        # overloads, element i compared with vals[i].
        for ret, kind, params, call in (
                ("void", "all", "%s* ivars, size_t nelems, const int* status, int cmp, %s* vals",
                 "detail::host::wait_until_all(ivars, nelems, status, cmp, vals)"),
                ("size_t", "any", "%s* ivars, size_t nelems, const int* status, int cmp, %s* vals",
                 "return detail::host::wait_until_any(ivars, nelems, status, cmp, vals)"),
                ("size_t", "some", "%s* ivars, size_t nelems, size_t* indices, const int* status, int cmp, %s* vals",
                 "return detail::host::wait_until_some(ivars, nelems, indices, status, cmp, vals)")):
            o.append("inline %s rocshmem_%s_wait_until_%s_vector(%s) {\n  %s;\n}\n" % (
                ret, tn, kind, params % (t, t), call))
            HOST_CASES.append("HOST_WAIT_%s_V(%s, rocshmem_%s_wait_until_%s_vector)" % (kind.upper(), c, tn, kind))
        # rocSHMEM's device _vector forms take one compare value (not an array): each element is compared with it, as
        # in the plain form.
        o.append(both("void", tn + "_wait_until_all_vector",
                      "%s* ivars, size_t nelems, const int* status, int cmp, %s val" % (t, t),
                      "portshmem::wait_until_all(@C, ivars, nelems, status, portshmem::cmp(cmp), val)", cases,
                      "CASE_WAIT_ALL(%s, @N, @X)" % c))
        o.append(both("size_t", tn + "_wait_until_any_vector",
                      "%s* ivars, size_t nelems, const int* status, int cmp, %s val" % (t, t),
                      "return portshmem::wait_until_any(@C, ivars, nelems, status, portshmem::cmp(cmp), val)", cases,
                      "CASE_WAIT_ANY(%s, @N, @X)" % c))
        o.append(both("size_t", tn + "_wait_until_some_vector",
                      "%s* ivars, size_t nelems, size_t* indices, const int* status, int cmp, %s val" % (t, t),
                      "return portshmem::wait_until_some(@C, ivars, nelems, indices, status, portshmem::cmp(cmp), "
                      "val)", cases, "CASE_WAIT_SOME(%s, @N, @X)" % c))
        # test_all/any/some[_vector]: rocSHMEM declares none; OpenSHMEM 1.5's (and NVSHMEM's) signatures, the _vector
        # forms comparing element i with cmp_values[i].
        for vec, vt, vn in (("", t, "val"), ("_vector", "const %s*" % t, "cmp_values")):
            cv = "V" if vec else "S"
            o.append(both("int", tn + "_test_all" + vec,
                          "%s* ivars, size_t nelems, const int* status, int cmp, %s %s" % (t, vt, vn),
                          "return portshmem::test_all%s(@C, ivars, nelems, status, portshmem::cmp(cmp), %s) ? 1 : 0" %
                          (vec, vn), cases, "CASE_TEST_ALL_%s(%s, @N, @X)" % (cv, c)))
            o.append(both("size_t", tn + "_test_any" + vec,
                          "%s* ivars, size_t nelems, const int* status, int cmp, %s %s" % (t, vt, vn),
                          "return portshmem::test_any%s(@C, ivars, nelems, status, portshmem::cmp(cmp), %s)" %
                          (vec, vn), cases, "CASE_TEST_ANY_%s(%s, @N, @X)" % (cv, c)))
            o.append(both("size_t", tn + "_test_some" + vec,
                          "%s* ivars, size_t nelems, size_t* indices, const int* status, int cmp, %s %s" % (t, vt, vn),
                          "return portshmem::test_some%s(@C, ivars, nelems, indices, status, portshmem::cmp(cmp), %s)" %
                          (vec, vn), cases, "CASE_TEST_SOME_%s(%s, @N, @X)" % (cv, c)))
    return header("wait_until/test on one variable, wait_until_all/any/some[_vector] and test_all/any/some[_vector] on "
                  "arrays: integer types, float and double.", "\n".join(o))


# rocSHMEM's 16-bit floating types (HIP's __half and __hip_bfloat16): per platform, detail/float16.hpp.
F16 = [("half", "detail::half"), ("bfloat16", "detail::bfloat16")]
# The sized types newer rocSHMEM headers add to the device collectives.
COLL_SIZED = [("int8", "int8_t"), ("int16", "int16_t"), ("uint8", "uint8_t"), ("uint16", "uint16_t")]
# rocSHMEM's collective types (3.x): its 13 C types, the four sized ones, half and bfloat16.
COLL_ALL = RMA_STD + COLL_SIZED + F16
# Its reduction types: every integer type of that list (all seven operators), the floating ones (sum, min, max, prod).
REDUCE_INT_ALL = HOST_REDUCE_INT
REDUCE_FLOAT_ALL = HOST_REDUCE_FLOAT + F16
# rocSHMEM's alltoallv types: its collective types.
ALLTOALLV = COLL_ALL
ALLTOALLV_CASES = []  # tests/compat/alltoallv_cases.inc: (number, type, name), all called from one kernel
# tests/compat/coll_cases.inc: the collective names test_rocshmem_coll.cpp calls (the newer types, the wave forms, the
# untyped forms), one line per name: kind, number, element type, operator, group, name, context argument.
COLL_CASES = []


def case_type(t):
    """How a test case spells element type t: HIP's names for the 16-bit floats (the shim maps them per platform)."""
    return {"detail::half": "__half", "detail::bfloat16": "__hip_bfloat16"}.get(t, t.replace(" ", "_"))


def coll_case(kind, t, op, grp, name, ctx):
    COLL_CASES.append("CASE_%s(%d, %s, %s, %s, %s, %s)" % (kind, len(COLL_CASES), case_type(t), op, grp, name, ctx))


def coll_both(ret, stem, params, call, kind, t, op, grp):
    """A collective's plain name (default context) and its ctx_ form, each recorded in COLL_CASES."""
    out = fn(ret, "rocshmem_" + stem, params, call.replace("@C", CTX))
    out += fn(ret, "rocshmem_ctx_" + stem, "rocshmem_ctx_t ctx, " + params, call.replace("@C", "ctx"))
    coll_case(kind, t, op, grp, "rocshmem_" + stem, "")
    coll_case(kind, t, op, grp, "rocshmem_ctx_" + stem, "ctx, ")
    return out


def coll_ctx(ret, stem, params, call, kind, t, op, grp):
    """A collective rocSHMEM declares with a context only (rocshmem_ctx_<stem>), recorded in COLL_CASES."""
    coll_case(kind, t, op, grp, "rocshmem_ctx_" + stem, "ctx, ")
    return fn(ret, "rocshmem_ctx_" + stem, "rocshmem_ctx_t ctx, " + params, call.replace("@C", "ctx"))


def reduce_call(op, form, t, psfx):
    """The body of a reduction name: portshmem's <op>_<form><psfx>; the 16-bit floats by reinterpreting the pointers
    (detail/float16.hpp). The name returns 0."""
    if t.startswith("detail::"):
        return ("portshmem::%s_%s%s(@C, *team, detail::reinterpret(dest), detail::reinterpret(source), "
                "size_t(nreduce));\n  return detail::done()" % (op, form, psfx))
    return "return portshmem::%s_%s%s(@C, *team, dest, source, size_t(nreduce)), 0" % (op, form, psfx)


def coll(cases):
    o = []
    for tn, t in COLL:
        c = t.replace(" ", "_")
        # Both spellings: rocSHMEM's examples (early 2025) say _wg_broadcast, its later headers _broadcast_wg.
        for stem in ("%s_wg_broadcast" % tn, "%s_broadcast_wg" % tn):
            o.append(both("void", stem,
                          "rocshmem_team_t team, %s* dest, const %s* source, int nelems, int pe_root" % (t, t),
                          "portshmem::broadcast_block(@C, *team, dest, source, size_t(nelems), pe_root)", cases,
                          "CASE_BROADCAST(%s, @N, @X)" % c))
        for stem in ("%s_wg_alltoall" % tn, "%s_alltoall_wg" % tn):
            o.append(both("void", stem, "rocshmem_team_t team, %s* dest, const %s* source, int nelems" % (t, t),
                          "portshmem::alltoall_block(@C, *team, dest, source, size_t(nelems))", cases,
                          "CASE_ALLTOALL(%s, @N, @X)" % c))
        for stem in ("%s_wg_fcollect" % tn, "%s_fcollect_wg" % tn):
            o.append(both("void", stem, "rocshmem_team_t team, %s* dest, const %s* source, int nelems" % (t, t),
                          "portshmem::fcollect_block(@C, *team, dest, source, size_t(nelems))", cases,
                          "CASE_FCOLLECT(%s, @N, @X)" % c))
    for ops, types in ((("sum", "min", "max", "prod"), REDUCE_ARITH), (("and", "or", "xor"), REDUCE_BITWISE)):
        for tn, t in types:
            for op in ops:
                # Both spellings: rocSHMEM's examples (early 2025) say _wg_reduce, its later headers _reduce_wg.
                for stem in ("%s_%s_wg_reduce" % (tn, op), "%s_%s_reduce_wg" % (tn, op)):
                    o.append(both("int", stem,
                                  "rocshmem_team_t team, %s* dest, const %s* source, int nreduce" % (t, t),
                                  "return portshmem::%s_reduce_block(@C, *team, dest, source, size_t(nreduce)), 0" % op,
                                  cases, "CASE_REDUCE(%s, op_%s, @N, @X)" % (t.replace(" ", "_"), op)))
                # Reduce-scatter (rocSHMEM 3.x): member i's dest = the reduction of every member's
                # source[i * nreduce, (i + 1) * nreduce).
                o.append(both("int", "%s_%s_reduce_scatter_wg" % (tn, op),
                              "rocshmem_team_t team, %s* dest, const %s* source, int nreduce" % (t, t),
                              "return portshmem::%s_reduce_scatter_block(@C, *team, dest, source, size_t(nreduce)), 0" %
                              op, cases, "CASE_REDUCE_SCATTER(%s, op_%s, @N, @X)" % (t.replace(" ", "_"), op)))
    # The newer types' workgroup forms (rocSHMEM 3.x spells them _broadcast_wg, _alltoall_wg, _fcollect_wg, _reduce_wg
    # only), with and without a context as the older names above.
    for tn, t in COLL_SIZED + F16:
        o.append(coll_both("void", "%s_broadcast_wg" % tn,
                           "rocshmem_team_t team, %s* dest, const %s* source, int nelems, int pe_root" % (t, t),
                           "portshmem::broadcast_block(@C, *team, dest, source, size_t(nelems), pe_root)", "BCAST", t,
                           "none", "wg"))
        o.append(coll_both("void", "%s_alltoall_wg" % tn, "rocshmem_team_t team, %s* dest, const %s* source, int nelems" %
                           (t, t), "portshmem::alltoall_block(@C, *team, dest, source, size_t(nelems))", "ALLTOALL", t,
                           "none", "wg"))
        o.append(coll_both("void", "%s_fcollect_wg" % tn, "rocshmem_team_t team, %s* dest, const %s* source, int nelems" %
                           (t, t), "portshmem::fcollect_block(@C, *team, dest, source, size_t(nelems))", "FCOLLECT", t,
                           "none", "wg"))
    old_reduce = set(REDUCE_ARITH + REDUCE_BITWISE)
    for ops, types in ((("sum", "min", "max", "prod", "and", "or", "xor"), REDUCE_INT_ALL),
                       (("sum", "min", "max", "prod"), REDUCE_FLOAT_ALL)):
        for tn, t in types:
            if (tn, t) in old_reduce:
                continue
            for op in ops:
                params = "rocshmem_team_t team, %s* dest, const %s* source, int nreduce" % (t, t)
                o.append(coll_both("int", "%s_%s_reduce_wg" % (tn, op), params,
                                   reduce_call(op, "reduce", t, "_block"), "REDUCE", t, "op_" + op, "wg"))
                o.append(coll_both("int", "%s_%s_reduce_scatter_wg" % (tn, op), params,
                                   reduce_call(op, "reduce_scatter", t, "_block"), "REDUCE_SCATTER", t,
                                   "op_" + op, "wg"))
    # The wave forms (rocSHMEM declares them with a context only; they return 0).
    for tn, t in COLL_ALL:
        o.append(coll_ctx("int", "%s_broadcast_wave" % tn,
                          "rocshmem_team_t team, %s* dest, const %s* source, int nelems, int pe_root" % (t, t),
                          "return portshmem::broadcast_wave(@C, *team, dest, source, size_t(nelems), pe_root), 0",
                          "BCAST", t, "none", "wave"))
        o.append(coll_ctx("int", "%s_alltoall_wave" % tn, "rocshmem_team_t team, %s* dest, const %s* source, int nelems" %
                          (t, t), "return portshmem::alltoall_wave(@C, *team, dest, source, size_t(nelems)), 0",
                          "ALLTOALL", t, "none", "wave"))
        o.append(coll_ctx("int", "%s_fcollect_wave" % tn, "rocshmem_team_t team, %s* dest, const %s* source, int nelems" %
                          (t, t), "return portshmem::fcollect_wave(@C, *team, dest, source, size_t(nelems)), 0",
                          "FCOLLECT", t, "none", "wave"))
    for ops, types in ((("sum", "min", "max", "prod", "and", "or", "xor"), REDUCE_INT_ALL),
                       (("sum", "min", "max", "prod"), REDUCE_FLOAT_ALL)):
        for tn, t in types:
            for op in ops:
                params = "rocshmem_team_t team, %s* dest, const %s* source, int nreduce" % (t, t)
                o.append(coll_ctx("int", "%s_%s_reduce_wave" % (tn, op), params,
                                  reduce_call(op, "reduce", t, "_wave"), "REDUCE", t, "op_" + op, "wave"))
                o.append(coll_ctx("int", "%s_%s_reduce_scatter_wave" % (tn, op), params,
                                  reduce_call(op, "reduce_scatter", t, "_wave"), "REDUCE_SCATTER", t, "op_" + op,
                                  "wave"))
    # The untyped forms (nelems: bytes; context only; the _wave ones return 0).
    for sfx, psfx, ret in (("_wg", "_block", "void"), ("_wave", "_wave", "int")):
        r0, z = ("return ", ", 0") if ret == "int" else ("", "")
        o.append(coll_ctx(ret, "broadcastmem" + sfx,
                          "rocshmem_team_t team, void* dest, const void* source, int nelems, int pe_root",
                          "%sportshmem::broadcastmem%s(@C, *team, dest, source, size_t(nelems), pe_root)%s" % (r0, psfx, z),
                          "BCASTMEM", "unsigned char", "none", sfx[1:]))
        o.append(coll_ctx(ret, "alltoallmem" + sfx, "rocshmem_team_t team, void* dest, const void* source, int nelems",
                          "%sportshmem::alltoallmem%s(@C, *team, dest, source, size_t(nelems))%s" % (r0, psfx, z),
                          "ALLTOALLMEM", "unsigned char", "none", sfx[1:]))
        o.append(coll_ctx(ret, "fcollectmem" + sfx, "rocshmem_team_t team, void* dest, const void* source, int nelems",
                          "%sportshmem::fcollectmem%s(@C, *team, dest, source, size_t(nelems))%s" % (r0, psfx, z),
                          "FCOLLECTMEM", "unsigned char", "none", sfx[1:]))
    for tn, t in ALLTOALLV:
        # No ctx_ form (rocSHMEM declares none).
        o.append(fn("void", "rocshmem_%s_alltoallv_wg" % tn,
                    "rocshmem_team_t team, %s* dest, const size_t dest_nelems[], const size_t dest_displs[], %s* source, "
                    "const size_t source_nelems[], const size_t source_displs[]" % (t, t),
                    "(void)source_nelems; // the counts are the receivers' (dest_nelems), as the senders' must match\n"
                    "  detail::alltoallv_block(%s, team, dest, dest_nelems, dest_displs, source, source_displs)" % CTX))
        ALLTOALLV_CASES.append("CASE_ALLTOALLV(%d, %s, rocshmem_%s_alltoallv_wg)" % (len(ALLTOALLV_CASES),
                                                                                    case_type(t), tn))
    return header("Team collectives, workgroup and wave forms: broadcast, alltoall, alltoallv, fcollect, reductions "
                  "and reduce-scatter (the reductions and the wave forms return 0), typed and untyped (_mem).",
                  "\n".join(o), "#include \"rocshmem/detail/float16.hpp\"\n")


def host_coll():
    """rocSHMEM's host collectives (host-only names, rocshmem_ctx_ spelling only, as rocSHMEM declares them): broadcast
    on a team and on an active set, reduce and reduce-scatter, and the reductions on a stream. Each forwards to the
    library (detail/host_ops.hpp): the blocking forms run the on-stream call on the library's stream and wait for it."""
    o = []
    for tn, t in RMA:
        c = t.replace(" ", "_")
        o.append("inline void rocshmem_ctx_%s_broadcast(rocshmem_ctx_t, rocshmem_team_t team, %s* dest, const %s* source, "
                 "int nelems, int pe_root) {\n  detail::host::broadcast(team, dest, source, nelems, sizeof(%s), pe_root);"
                 "\n}\n" % (tn, t, t, t))
        HOST_CASES.append("HOST_BROADCAST(%s, rocshmem_ctx_%s_broadcast)" % (c, tn))
        o.append("inline void rocshmem_ctx_%s_broadcast(rocshmem_ctx_t, %s* dest, const %s* source, int nelems, "
                 "int pe_root, int pe_start, int log_pe_stride, int pe_size, long* p_sync) {\n"
                 "  detail::host::broadcast_active_set(dest, source, nelems, sizeof(%s), pe_root, pe_start, "
                 "log_pe_stride, pe_size, p_sync);\n}\n" % (tn, t, t, t))
        HOST_CASES.append("HOST_BROADCAST_ACTIVE_SET(%s, rocshmem_ctx_%s_broadcast)" % (c, tn))
    for ops, types in ((("sum", "min", "max", "prod", "and", "or", "xor"), HOST_REDUCE_INT),
                       (("sum", "min", "max", "prod"), HOST_REDUCE_FLOAT)):
        for tn, t in types:
            c = t.replace(" ", "_")
            for op in ops:
                args = "dest, source, nreduce, PORTSHMEM_DATATYPE_%s, PORTSHMEM_REDUCE_%s" % (DATATYPE[t], op.upper())
                params = "rocshmem_ctx_t, rocshmem_team_t team, %s* dest, const %s* source, int nreduce" % (t, t)
                o.append("inline int rocshmem_ctx_%s_%s_reduce(%s) {\n  return detail::host::reduce(team, %s, false);"
                         "\n}\n" % (tn, op, params, args))
                HOST_CASES.append("HOST_REDUCE(%s, op_%s, rocshmem_ctx_%s_%s_reduce)" % (c, op, tn, op))
                o.append("inline int rocshmem_ctx_%s_%s_reduce_scatter(%s) {\n  return detail::host::reduce(team, %s, "
                         "true);\n}\n" % (tn, op, params, args))
                HOST_CASES.append("HOST_REDUCE_SCATTER(%s, op_%s, rocshmem_ctx_%s_%s_reduce_scatter)" % (c, op, tn, op))
                o.append("inline int rocshmem_ctx_%s_%s_reduce_on_stream(%s, hipStream_t stream) {\n"
                         "  return detail::host::reduce_on_stream(team, %s, stream);\n}\n" % (tn, op, params, args))
                HOST_CASES.append("HOST_REDUCE_ON_STREAM(%s, op_%s, rocshmem_ctx_%s_%s_reduce_on_stream)" %
                                  (c, op, tn, op))
    # half and bfloat16 (where the types are: detail/float16.hpp): the same forwards, with portshmem's 16-bit datatypes;
    # their cases are test_rocshmem_coll.cpp's.
    f = []
    for tn, t in F16:
        f.append("inline void rocshmem_ctx_%s_broadcast(rocshmem_ctx_t, rocshmem_team_t team, %s* dest, const %s* source, "
                 "int nelems, int pe_root) {\n  detail::host::broadcast(team, dest, source, nelems, sizeof(%s), pe_root);"
                 "\n}\n" % (tn, t, t, t))
        coll_case("HOST_BCAST", t, "none", "host", "rocshmem_ctx_%s_broadcast" % tn, "ctx, ")
        f.append("inline void rocshmem_ctx_%s_broadcast(rocshmem_ctx_t, %s* dest, const %s* source, int nelems, "
                 "int pe_root, int pe_start, int log_pe_stride, int pe_size, long* p_sync) {\n"
                 "  detail::host::broadcast_active_set(dest, source, nelems, sizeof(%s), pe_root, pe_start, "
                 "log_pe_stride, pe_size, p_sync);\n}\n" % (tn, t, t, t))
        coll_case("HOST_BCAST_SET", t, "none", "host", "rocshmem_ctx_%s_broadcast" % tn, "ctx, ")
        for op in ("sum", "min", "max", "prod"):
            args = "dest, source, nreduce, PORTSHMEM_DATATYPE_%s, PORTSHMEM_REDUCE_%s" % (tn.upper(), op.upper())
            params = "rocshmem_ctx_t, rocshmem_team_t team, %s* dest, const %s* source, int nreduce" % (t, t)
            f.append("inline int rocshmem_ctx_%s_%s_reduce(%s) {\n  return detail::host::reduce(team, %s, false);"
                     "\n}\n" % (tn, op, params, args))
            coll_case("HOST_REDUCE", t, "op_" + op, "host", "rocshmem_ctx_%s_%s_reduce" % (tn, op), "ctx, ")
            f.append("inline int rocshmem_ctx_%s_%s_reduce_scatter(%s) {\n  return detail::host::reduce(team, %s, "
                     "true);\n}\n" % (tn, op, params, args))
            coll_case("HOST_REDUCE_SCATTER", t, "op_" + op, "host", "rocshmem_ctx_%s_%s_reduce_scatter" % (tn, op),
                      "ctx, ")
            f.append("inline int rocshmem_ctx_%s_%s_reduce_on_stream(%s, hipStream_t stream) {\n"
                     "  return detail::host::reduce_on_stream(team, %s, stream);\n}\n" % (tn, op, params, args))
            coll_case("HOST_REDUCE_ON_STREAM", t, "op_" + op, "host", "rocshmem_ctx_%s_%s_reduce_on_stream" % (tn, op),
                      "ctx, ")
    return ("// GENERATED by tests/compat/gen_rocshmem_names.py: do not edit. Host collectives: broadcast (team and "
            "active set), reduce, reduce-scatter, reductions on a stream.\n#pragma once\n\n"
            "#include \"rocshmem/detail/common.hpp\"\n#include \"rocshmem/detail/float16.hpp\"\n"
            "#include \"rocshmem/detail/host_ops.hpp\"\n\n"
            "namespace rocshmem {\n\n" + "\n".join(o) + "\n#if ROCSHMEM_DETAIL_HAS_FLOAT16\n" + "\n".join(f) +
            "#endif\n\n} // namespace rocshmem\n")


def main():
    check = "--check" in sys.argv
    cases = []
    files = {
        "include/rocshmem/detail/rma.hpp": rma(cases),
        "include/rocshmem/detail/amo.hpp": amo(cases),
        "include/rocshmem/detail/signal.hpp": signal(cases),
        "include/rocshmem/detail/wait.hpp": wait(cases),
        "include/rocshmem/detail/coll.hpp": coll(cases),
        "include/rocshmem/detail/host_coll.hpp": host_coll(),
    }
    files["tests/compat/host_cases.inc"] = ("// GENERATED by tests/compat/gen_rocshmem_names.py: do not edit. One case "
                                            "per name with a host form, called from host code.\n" +
                                            "\n".join(HOST_CASES) + "\n")
    files["tests/compat/alltoallv_cases.inc"] = ("// GENERATED by tests/compat/gen_rocshmem_names.py: do not edit. The "
                                                 "alltoallv names: number, element type, name.\n" +
                                                 "\n".join(ALLTOALLV_CASES) + "\n")
    files["tests/compat/coll_cases.inc"] = ("// GENERATED by tests/compat/gen_rocshmem_names.py: do not edit. The "
                                            "collective names test_rocshmem_coll.cpp calls: kind(number, element type, "
                                            "operator, group, name, context argument).\n" + "\n".join(COLL_CASES) +
                                            "\n")
    files["tests/compat/names_cases.inc"] = ("// GENERATED by tests/compat/gen_rocshmem_names.py: do not edit. One case "
                                             "per mapped typed name.\n" + "\n".join(cases) + "\n")
    fmt = shutil.which("clang-format")
    if fmt:  # the project's style (.clang-format), so the written files are what clang-format leaves alone
        for rel in files:
            files[rel] = subprocess.run([fmt, "--style=file:" + os.path.join(ROOT, ".clang-format"),
                                         "--assume-filename=" + rel], input=files[rel], capture_output=True,
                                        text=True, check=True).stdout
    stale = []
    for rel, text in files.items():
        path = os.path.join(ROOT, rel)
        if check:
            old = open(path).read() if os.path.exists(path) else None
            if old != text:
                stale.append(rel)
        else:
            with open(path, "w") as f:
                f.write(text)
    if stale:
        print("stale (rerun tests/compat/gen_rocshmem_names.py): " + " ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
