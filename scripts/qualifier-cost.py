#!/usr/bin/env python3
"""The cost of each memory-model qualifier, measured and static, from the perftest suite's output (tests/perf/perftest).

  qualifier-cost.py [--sizes LIST|all] [--cost FILE | --no-cost] [--targets LIST] FILE...
      Prints Markdown: one table of the measured rows of FILE (what a program wrote with --json or --csv, run with
      --mm all or any list of variants), one row per program, AMO, group and size, one column per qualifier variant
      (strict first), each cell the value and its ratio to strict's, e.g. `2.16 (0.97x)`; then, per compiler target,
      the static cost of the calls each variant changes, from the table tests/isa/check_api.sh generates into
      docs/performance.md ("Static cost of the memory-model qualifiers"): AMD L2 write-backs / invalidates / waits,
      sm_90 fences / release-acquire accesses, strict's -> the variant's.
  qualifier-cost.py --check [--all-variants] FILE...
      Validates the files and that both tables can be made (exit 1 on any finding): every row parses and passed its
      data check, its variant is known and changes one of its program's calls (a variant that changes none must have
      been skipped by the suite), every variant's row has strict's beside it, and the cost table parses and holds
      strict's form of every call involved. --all-variants: every variant that applies to a program is there.

LIST: sizes in bytes, comma-separated, with K, M, G suffixes (powers of 1024); default 8,64,4K,1M (a program with
none of them, such as shmem_atomic_latency, shows all its sizes). The ratio is the variant's value over strict's:
for a latency below 1 is faster, for a bandwidth or a rate above 1 is. Host-platform rows are CPU numbers.
"""
import argparse
import csv
import json
import math
import os
import re
import sys

# The suite's variants (tests/perf/perftest/programs.hpp: kMmNames, in that order) and what each changes: a category
# of docs/memory_model.md and the qualifier it puts there. strict and relaxed change nothing / several (below).
VARIANTS = ["strict", "relaxed", "scope-device", "scope-node", "coverage-comm", "data-keep", "signal-strong",
            "wait-comm", "wait-relaxed"]
CHANGE = {"scope-device": ("scope", "device"), "scope-node": ("scope", "node"), "coverage-comm": ("coverage", "comm"),
          "data-keep": ("data", "keep"), "signal-strong": ("signal", "strong"), "wait-comm": ("acquire", "comm"),
          "wait-relaxed": ("acquire", "relaxed")}
OTHERS = ["raw", "nvshmem"]  # other backends' rows, shown after the variants when the files hold them

# The qualified calls each program's kernel makes, named as the cost table names them (their thread forms), and the
# qualifier categories each call takes (docs/api.md). Must agree with programs.hpp: quals_of and calls_of.
CALL_QUALS = {"put": ["data"], "get": ["data"], "quiet": ["coverage", "scope"], "fence": ["coverage", "scope"],
              "signal_op": ["coverage", "scope", "op"], "wait_until": ["acquire", "scope"],
              "signal_wait_until": ["acquire", "scope"],
              "put_signal": ["signal", "coverage", "scope", "data", "op"]}
DEFAULTS = {"coverage": "all", "scope": "system", "data": "bypass", "acquire": "acquire", "signal": "weak", "op": "set"}
PROGRAM_CALLS = {
    "shmem_put_bw": ["put", "quiet"], "shmem_put_bibw": ["put", "quiet"], "shmem_put_msg_rate": ["put", "quiet"],
    "shmem_get_bw": ["get", "quiet"], "shmem_get_bibw": ["get", "quiet"], "shmem_p_bw": ["quiet"],
    "shmem_atomic_bw": ["quiet"], "shmem_put_latency": ["put", "quiet"], "shmem_get_latency": ["get"],
    "shmem_p_latency": ["quiet"], "shmem_g_latency": [], "shmem_atomic_latency": ["quiet"],
    "shmem_put_ping_pong_latency": ["put", "fence", "signal_op", "wait_until", "quiet"],
    "shmem_put_signal_ping_pong_latency": ["put_signal", "signal_wait_until", "quiet"],
}
WORDS = {"all": "coverage", "comm": "coverage", "device": "scope", "node": "scope", "system": "scope",
         "bypass": "data", "keep": "data", "acquire": "acquire", "relaxed": "acquire", "weak": "signal",
         "strong": "signal", "set": "op", "add": "op"}
TARGETS = {"gfx942": "AMD gfx942 (MI300): L2 write-backs / invalidates / waits",
           "gfx90a": "AMD gfx90a (MI200): L2 write-backs / invalidates / waits",
           "sm_90": "NVIDIA sm_90 (PTX): fences / release-acquire accesses"}
FIELDS = ["program", "backend", "platform", "mm", "group", "blocks", "threads", "type", "op", "size", "iters",
          "metric", "value", "unit", "pes", "check"]
DEFAULT_SIZES = [8, 64, 4 << 10, 1 << 20]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class BadInput(Exception):
    pass


def load(path):
    """The rows of one JSON or CSV file of the suite; BadInput when it does not parse."""
    try:
        with open(path, newline="") as f:
            if path.endswith(".csv"):
                rows = list(csv.DictReader(f))
            else:
                data = json.load(f)
                if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
                    raise BadInput(f'{path}: no "rows" list at the top level')
                rows = data["rows"]
    except (OSError, ValueError, csv.Error) as e:
        raise BadInput(f"{path}: {e}") from e
    out = []
    for i, r in enumerate(rows):
        if not isinstance(r, dict) or any(k not in r for k in FIELDS):
            raise BadInput(f"{path}: row {i} lacks a field of {FIELDS}")
        r = dict(r)
        try:
            r["size"] = int(r["size"])
            r["value"] = None if r["value"] in (None, "", "nan", "null") else float(r["value"])
        except (TypeError, ValueError) as e:
            raise BadInput(f"{path}: row {i}: {e}") from e
        out.append(r)
    return out


def parse_sizes(text):
    if text == "all":
        return None
    sizes = []
    for part in text.split(","):
        m = re.fullmatch(r"(\d+)([KMG]?)B?", part.strip(), re.IGNORECASE)
        if not m:
            raise argparse.ArgumentTypeError(f"bad size {part!r}")
        sizes.append(int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2).upper()])
    return sizes


# ---- which calls a variant changes -----------------------------------------------------------------------------------

def quals(call, variant):
    """The qualifiers (category -> word) of `call` in `variant`: strict's defaults with the variant's change."""
    q = {cat: DEFAULTS[cat] for cat in CALL_QUALS[call]}
    if variant == "relaxed":  # backend_portshmem.hpp: quals<relaxed>
        if "coverage" in q:
            q["coverage"] = "comm"
        if "acquire" in q:
            q["acquire"] = "comm"
        if call == "get":
            q["data"] = "keep"
    elif variant in CHANGE:
        cat, word = CHANGE[variant]
        if cat in q:
            q[cat] = word
    return q


def changed_calls(program, variant):
    """The calls of the program whose qualifiers the variant changes (strict: none)."""
    return [c for c in PROGRAM_CALLS.get(program, []) if quals(c, variant) != quals(c, "strict")]


def applies(program, variant):
    """Whether the suite runs the variant for the program (strict and relaxed: always)."""
    return variant in ("strict", "relaxed") or bool(changed_calls(program, variant))


# ---- the static cost table -------------------------------------------------------------------------------------------

def load_cost(path):
    """{(call, frozenset of (category, word))): {target: (counts...)}} from the generated section of path."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise BadInput(f"{path}: {e}") from e
    start = text.find("## Static cost of the memory-model qualifiers")
    if start < 0:
        raise BadInput(f"{path}: no section 'Static cost of the memory-model qualifiers'")
    end = text.find("\n## ", start + 1)
    table = {}
    for line in text[start:end if end > 0 else len(text)].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or not cells[0].startswith("`"):
            continue
        call, words = cells[0].strip("`"), cells[1]
        if call not in CALL_QUALS or any(s in words for s in ("—", ";", "(none,")):
            continue  # a call the suite does not make, or a row about a special case (a local buffer, ctx.strict)
        q = {cat: DEFAULTS[cat] for cat in CALL_QUALS[call]}
        for w in ([] if words == "(none)" else [w.strip() for w in words.split(",")]):
            cat = WORDS.get(w)
            if cat == "coverage" and w == "comm" and "acquire" in q:
                cat = "acquire"  # on a wait, comm is an acquire strength
            if cat not in q:
                break
            q[cat] = w
        else:
            amd = [tuple(int(x) for x in cells[i].split("/")) for i in (2, 3)]
            nv = tuple(int(re.match(r"\d+", c.replace("`", "")).group()) if c != "0" else 0
                       for c in (cells[4], cells[5]))
            table[(call, frozenset(q.items()))] = {"gfx90a": amd[0], "gfx942": amd[1], "sm_90": nv}
    if not table:
        raise BadInput(f"{path}: the cost table has no row this script reads")
    return table


def describe(call, q):
    return f"{call} ({', '.join(q[c] for c in CALL_QUALS[call])})"


def static_cell(cost, program, variant, target):
    """Strict's counts -> the variant's, summed over the calls the variant changes that the table has (those it does
    not have are named), or "—" when the variant changes no call of the program."""
    calls = changed_calls(program, variant)
    if not calls:
        return "—"
    found, missing = [], []
    for c in calls:
        pair = [cost.get((c, frozenset(quals(c, v).items())), {}).get(target) for v in ("strict", variant)]
        (found if None not in pair else missing).append((c, pair))
    if not found:
        return "n/a: " + ", ".join(describe(c, quals(c, variant)) for c, _ in missing) + " not in the table"
    sums = ["/".join(str(sum(p[i][k] for _, p in found)) for k in range(len(found[0][1][0]))) for i in (0, 1)]
    cell = f"{sums[0]} → {sums[1]}" + (" (same)" if sums[0] == sums[1] else "")
    if missing:
        cell += " without " + ", ".join(describe(c, quals(c, variant)) for c, _ in missing) + ": not in the table"
    return cell


# ---- the measured table ----------------------------------------------------------------------------------------------

def fmt(v):
    return f"{v:.0f}" if abs(v) >= 1000 else f"{v:.3g}"


def measured_table(rows, sizes):
    """Markdown lines of the measured table, and the columns it has."""
    columns = [v for v in VARIANTS if any(r["backend"] == "portshmem" and r["mm"] == v for r in rows)]
    columns += [b for b in OTHERS if any(r["backend"] == b for r in rows)]
    types = {}
    for r in rows:
        types.setdefault(r["program"], set()).add(r["type"])
    cells, order = {}, []
    for r in rows:
        key = (r["program"], r["op"], r["type"], r["group"], r["blocks"], r["threads"], r["size"])
        col = r["mm"] if r["backend"] == "portshmem" else r["backend"]
        if key not in cells:
            cells[key] = {}
            order.append(key)
        cells[key][col] = r
    chosen = []
    for key in order:
        program_sizes = {k[6] for k in order if k[0] == key[0]}
        wanted = program_sizes if sizes is None or not program_sizes & set(sizes) else set(sizes)
        if key[6] in wanted:
            chosen.append(key)
    lines = ["| program | group | size (B) | unit | " + " | ".join(columns) + " |",
             "|---|---|---|---|" + "---|" * len(columns)]
    for key in chosen:
        program, op, typ, group, blocks, threads, size = key
        label = program + (f" `-a {op}`" if op != "-" else "") + (f" `-d {typ}`" if len(types[program]) > 1 else "")
        row = cells[key]
        any_row = next(iter(row.values()))
        strict = row.get("strict")
        out = []
        for col in columns:
            r = row.get(col)
            if r is None:
                out.append("—")
            elif r["check"] != "ok" or r["value"] is None:
                out.append("FAIL")
            elif col == "strict" or strict is None or strict["check"] != "ok" or not strict["value"]:
                out.append(fmt(r["value"]))
            else:
                out.append(f"{fmt(r['value'])} ({r['value'] / strict['value']:.2f}x)")
        grid = f"{group} {blocks}x{threads}"
        lines.append(f"| {label} | {grid} | {size} | {any_row['unit']} | " + " | ".join(out) + " |")
    return lines, columns, chosen


def static_tables(cost, programs, targets):
    variants = [v for v in VARIANTS if v != "strict"]
    lines = []
    for t in targets:
        lines += ["", f"Static cost, {TARGETS[t]} of the calls each variant changes, strict's → the variant's "
                  "(docs/performance.md, generated by tests/isa/check_api.sh; one of each call, thread forms):", "",
                  "| program | calls | " + " | ".join(variants) + " |", "|---|---|" + "---|" * len(variants)]
        for p in programs:
            calls = ", ".join(PROGRAM_CALLS.get(p, [])) or "none with a qualifier"
            lines.append(f"| {p} | {calls} | " + " | ".join(static_cell(cost, p, v, t) for v in variants) + " |")
    return lines + ["", "Counts only: the data path changes the cache bits of the data accesses, and on gfx942 a device "
                    "scope narrows a write-back or invalidate (sc1 for sc0 sc1) without changing its count; "
                    "docs/lowering.md has the instructions."]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", metavar="FILE")
    ap.add_argument("--sizes", type=parse_sizes, default=DEFAULT_SIZES, help="sizes to show, or all (8,64,4K,1M)")
    ap.add_argument("--cost", default=os.path.join(ROOT, "docs", "performance.md"),
                    help="the file with the generated static cost table (docs/performance.md)")
    ap.add_argument("--no-cost", action="store_true", help="the measured table only")
    ap.add_argument("--targets", default="gfx942,gfx90a,sm_90", help="static tables to print (gfx942,gfx90a,sm_90)")
    ap.add_argument("--check", action="store_true", help="validate instead of printing only (see above)")
    ap.add_argument("--all-variants", action="store_true", help="--check: every applicable variant must be there")
    a = ap.parse_args()
    targets = [t for t in a.targets.split(",") if t]
    if any(t not in TARGETS for t in targets):
        ap.error(f"--targets: one of {', '.join(TARGETS)}")

    problems, rows = [], []
    for path in a.files:
        try:
            rows += [dict(r, file=path) for r in load(path)]
        except BadInput as e:
            problems.append(str(e))
    rows = [r for r in rows if r["backend"] == "portshmem" or r["backend"] in OTHERS]
    if not rows and not problems:
        problems.append("no rows")
    cost = None
    if not a.no_cost:
        try:
            cost = load_cost(a.cost)
        except BadInput as e:
            problems.append(str(e))
    programs = list(dict.fromkeys(r["program"] for r in rows))

    if a.check:
        for r in rows:
            where = f"{r['file']}: {r['program']} {r['backend']}/{r['mm']} {r['group']} size {r['size']}"
            if r["check"] != "ok":
                problems.append(f"{where}: its data check failed")
            if r["value"] is None or not math.isfinite(r["value"]) or r["value"] <= 0:
                problems.append(f"{where}: value {r['value']!r} is not a positive number")
            if r["backend"] != "portshmem":
                continue
            if r["program"] not in PROGRAM_CALLS:
                problems.append(f"{where}: program unknown to this script (PROGRAM_CALLS)")
            elif r["mm"] not in VARIANTS:
                problems.append(f"{where}: unknown variant")
            elif not applies(r["program"], r["mm"]):
                problems.append(f"{where}: the variant changes none of its calls (the suite should skip it)")
        keys = {}
        for r in rows:
            if r["backend"] == "portshmem":
                keys.setdefault((r["program"], r["op"], r["type"], r["group"], r["blocks"], r["threads"], r["size"]),
                                set()).add(r["mm"])
        for key, got in keys.items():
            if got - {"strict"} and "strict" not in got:
                problems.append(f"{key[0]} {key[3]} size {key[6]}: variants {sorted(got)} without strict's row")
            if a.all_variants:
                missing = [v for v in VARIANTS if applies(key[0], v) and v not in got]
                if missing:
                    problems.append(f"{key[0]} {key[3]} size {key[6]}: no row of {', '.join(missing)}")
        if cost is not None:
            for p in programs:
                for c in PROGRAM_CALLS.get(p, []):
                    if (c, frozenset(quals(c, "strict").items())) not in cost:
                        problems.append(f"{describe(c, quals(c, 'strict'))}, strict's form, is not in {a.cost}")

    if rows:
        lines, columns, chosen = measured_table(rows, a.sizes)
        platforms = sorted({r["platform"] for r in rows})
        print(f"Measured ({', '.join(platforms)}{'; host: CPU numbers' if 'host' in platforms else ''}): value "
              "(ratio to strict's; latency below 1x is faster, bandwidth above 1x is); — = not run or skipped")
        print()
        print("\n".join(lines))
        if cost is not None:
            print("\n".join(static_tables(cost, programs, targets)))
        if a.check and (not chosen or len(columns) < 2):
            problems.append("the measured table has no row, or no column beside strict's")
    for p in problems:
        print(f"qualifier-cost: {p}", file=sys.stderr)
    if a.check and not problems:
        print(f"\nqualifier-cost: {len(rows)} rows of {len(programs)} programs check out", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
