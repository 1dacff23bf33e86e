#!/usr/bin/env python3
"""Plots, or checks, the machine-readable output of the perftest-compatible suite (tests/perf/perftest).

  perf-plot.py [--out DIR] [--split] [--linear] FILE...
      PNG plots of every row of the files: bandwidth vs size, latency vs size, rate vs size (one figure per metric,
      or per metric and program with --split), one line per program, backend, qualifier set and group (and AMO and
      type where they vary), log2 size axis. Needs matplotlib (python3-matplotlib); exits 2 without it.
  perf-plot.py --check [--program NAME] [--rows N] FILE...
      Validates the files without matplotlib: each parses, has every field with a sane value, every row's data check
      passed, and (with --program / --rows) holds that program's rows, N of them; a JSON and a CSV of the same name
      must hold the same rows. Exit 1 on any finding.

FILE: what a program wrote with --json FILE (.json) or --csv FILE (.csv). Rows of the host platform are CPU numbers;
the plots say so in their titles.
"""
import argparse
import csv
import json
import math
import os
import sys

FIELDS = ["program", "backend", "platform", "mm", "group", "blocks", "threads", "type", "op", "size", "iters",
          "metric", "value", "unit", "pes", "check"]
INTS = ["blocks", "threads", "size", "iters", "pes"]
UNITS = {"latency": "us", "bandwidth": "GB/s", "rate": "Mops/s"}
CHOICES = {"backend": {"portshmem", "nvshmem", "raw"}, "platform": {"host", "nvidia", "amd"},
           "mm": {"strict", "relaxed", "scope-device", "scope-node", "coverage-comm", "data-keep", "signal-strong",
                  "wait-comm", "wait-relaxed", "none"}, "group": {"thread", "warp", "block"}, "check": {"ok", "FAIL"}}
KEY = ["program", "backend", "mm", "group", "blocks", "threads", "type", "op", "size"]


class BadFile(Exception):
    pass


def load(path):
    """The rows of one file as dicts (ints as int, value as float or None); BadFile when it does not parse."""
    try:
        with open(path, newline="") as f:
            if path.endswith(".csv"):
                reader = csv.DictReader(f)
                if reader.fieldnames != FIELDS:
                    raise BadFile(f"CSV header is {reader.fieldnames}, expected {FIELDS}")
                rows = list(reader)
            else:
                data = json.load(f)
                if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
                    raise BadFile('no "rows" list at the top level')
                rows = data["rows"]
    except (OSError, ValueError, csv.Error) as e:
        raise BadFile(str(e)) from e
    out = []
    for i, r in enumerate(rows):
        if not isinstance(r, dict) or set(r) != set(FIELDS):
            raise BadFile(f"row {i}: fields {sorted(r) if isinstance(r, dict) else r}, expected {sorted(FIELDS)}")
        if path.endswith(".csv") and None in r.values():
            raise BadFile(f"row {i}: fewer fields than the header")
        r = dict(r)
        try:
            for k in INTS:
                r[k] = int(r[k])
            r["value"] = None if r["value"] in (None, "", "nan", "null") else float(r["value"])
        except (TypeError, ValueError) as e:
            raise BadFile(f"row {i}: {e}") from e
        out.append(r)
    return out


def problems(rows, program=None, expected=None):
    """What is wrong with a file's rows: a list of sentences (empty when it passes)."""
    found = []
    for i, r in enumerate(rows):
        where = f"row {i} ({r['program']} {r['backend']}/{r['mm']} {r['group']} size {r['size']})"
        for k, allowed in CHOICES.items():
            if r[k] not in allowed:
                found.append(f"{where}: {k} is {r[k]!r}")
        if r["metric"] not in UNITS or UNITS[r["metric"]] != r["unit"]:
            found.append(f"{where}: metric {r['metric']!r} with unit {r['unit']!r}")
        if r["value"] is None or not math.isfinite(r["value"]) or r["value"] <= 0:
            found.append(f"{where}: value {r['value']!r} is not a positive number")
        if r["check"] != "ok":
            found.append(f"{where}: its data check failed")
        if r["size"] <= 0 or r["iters"] <= 0 or r["blocks"] <= 0 or r["threads"] <= 0 or r["pes"] <= 0:
            found.append(f"{where}: a count is not positive")
        if program and r["program"] != program:
            found.append(f"{where}: program {r['program']!r}, expected {program!r}")
    keys = [tuple(r[k] for k in KEY) for r in rows]
    if len(set(keys)) != len(keys):
        found.append("two rows have the same program, backend, mm, group, grid, type, op and size")
    if expected is not None and len(rows) != expected:
        found.append(f"{len(rows)} rows, expected {expected}")
    return found


def disagreement(a, b):
    """Why two files' rows differ (a JSON and a CSV of one run), or None."""
    index = {tuple(r[k] for k in KEY): r for r in b}
    if len(a) != len(b):
        return f"{len(a)} rows against {len(b)}"
    for r in a:
        other = index.get(tuple(r[k] for k in KEY))
        if other is None:
            return f"row {r['program']} {r['backend']}/{r['mm']} size {r['size']} is missing from the other file"
        if any(r[k] != other[k] for k in FIELDS if k != "value") or not math.isclose(
                r["value"] or 0.0, other["value"] or 0.0, rel_tol=1e-6):
            return f"row {r['program']} {r['backend']}/{r['mm']} size {r['size']} differs"
    return None


def check(files, program, expected):
    failed = False
    loaded = {}
    for path in files:
        try:
            rows = load(path)
        except BadFile as e:
            print(f"perf-plot: {path}: {e}", file=sys.stderr)
            failed = True
            continue
        for p in problems(rows, program, expected):
            print(f"perf-plot: {path}: {p}", file=sys.stderr)
            failed = True
        loaded[path] = rows
    stems = {}
    for path, rows in loaded.items():
        stems.setdefault(os.path.splitext(path)[0], []).append((path, rows))
    for pairs in stems.values():
        for (pa, ra), (pb, rb) in zip(pairs, pairs[1:]):
            why = disagreement(ra, rb)
            if why:
                print(f"perf-plot: {pa} and {pb} disagree: {why}", file=sys.stderr)
                failed = True
    if not failed:
        print(f"perf-plot: {len(files)} file(s) pass ({sum(len(r) for r in loaded.values())} rows)")
    return 1 if failed else 0


def label(r, varying):
    parts = [r["program"], f"{r['backend']}/{r['mm']}", r["group"]]
    parts += [r[k] for k in ("op", "type") if k in varying and r[k] != "-"]
    if "grid" in varying:
        parts.append(f"{r['blocks']}x{r['threads']}")
    return " ".join(parts)


def plot(files, out, split, linear):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("perf-plot: plotting needs matplotlib (apt-get install python3-matplotlib, or pip install matplotlib); "
              "--check works without it", file=sys.stderr)
        return 2
    rows = []
    for path in files:
        try:
            rows += load(path)
        except BadFile as e:
            print(f"perf-plot: {path}: {e}", file=sys.stderr)
            return 1
    rows = [r for r in rows if r["value"] is not None]
    os.makedirs(out, exist_ok=True)
    figures = {}
    for r in rows:
        figures.setdefault((r["metric"], r["program"] if split else None), []).append(r)
    for (metric, program), group in sorted(figures.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        varying = {k for k in ("op", "type") if len({r[k] for r in group}) > 1}
        if len({(r["blocks"], r["threads"]) for r in group}) > 1:
            varying.add("grid")
        lines = {}
        for r in group:
            lines.setdefault(label(r, varying), []).append(r)
        fig, ax = plt.subplots(figsize=(10, max(5.0, 0.16 * len(lines))))
        for name, pts in sorted(lines.items()):
            pts.sort(key=lambda r: r["size"])
            style = "--" if pts[0]["backend"] == "raw" else ":" if pts[0]["backend"] == "nvshmem" else "-"
            ax.plot([r["size"] for r in pts], [r["value"] for r in pts], style, marker="o", markersize=3, label=name)
        ax.set_xscale("log", base=2)
        if not linear:
            ax.set_yscale("log")
        ax.set_xlabel("size (bytes)")
        ax.set_ylabel(f"{metric} ({UNITS[metric]})")
        platforms = sorted({r["platform"] for r in group})
        cpu = " - host: CPU numbers, not GPU ones" if "host" in platforms else ""
        ax.set_title(f"{program or 'perftest'}: {metric} vs size, platform {', '.join(platforms)}{cpu}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
        path = os.path.join(out, f"{program or 'perftest'}_{metric}.png")
        fig.savefig(path, dpi=110, bbox_inches="tight")
        plt.close(fig)
        print(f"perf-plot: wrote {path} ({len(lines)} lines)")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", metavar="FILE")
    ap.add_argument("--check", action="store_true", help="validate the files; no plots, no matplotlib")
    ap.add_argument("--program", help="--check: every row must be of this program")
    ap.add_argument("--rows", type=int, help="--check: each file must hold this many rows")
    ap.add_argument("--out", default="perf-plots", help="directory of the PNG files (default perf-plots)")
    ap.add_argument("--split", action="store_true", help="one figure per metric and program")
    ap.add_argument("--linear", action="store_true", help="linear value axis (default log)")
    args = ap.parse_args()
    if args.check:
        return check(args.files, args.program, args.rows)
    return plot(args.files, args.out, args.split, args.linear)


if __name__ == "__main__":
    sys.exit(main())
