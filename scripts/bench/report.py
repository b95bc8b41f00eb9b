#!/usr/bin/env python3
"""Turn bench.sh's raw results into Markdown tables (printed on stdout).

Usage: report.py --raw DIR --corpus DIR [--machine FILE] [--odiff PATH] [--startup FILE] [--runs FILE] PAIR...

Reads, per pair, DIR/PAIR.json (interleave.py --json: every round's wall time per command),
DIR/PAIR.python.json if present (hyperfine --export-json, pixelmatch-py alone) and DIR/PAIR.tsv
(name, peak RSS in KiB, count). Ratios to a floor or to snapdiff are medians of each round's
ratio (the commands of a round ran within a second of each other). --runs appends the whole-run
benchmarks' output. Exit code 1 when snapdiff's count differs from pixelmatch-py's on some pair
(the table says MISMATCH).
"""
import argparse
import json
import os
import statistics
import struct
import sys

ORDER = ["snapdiff", "snapdiff --diff", "pngfloor", "inflate (libdeflate)", "inflate (zlib)", "imagemagick", "odiff",
         "pixelmatch-py"]
FLOOR, INFLATE, BASE, REF = "pngfloor", "inflate (libdeflate)", "snapdiff", "pixelmatch-py"


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)  # signature (8) + IHDR length/type (8) + width, height
    return struct.unpack(">II", head[16:24])


def load_pair(raw, pair):
    """{tool: {"median": ms, "spread": ms, "rounds": [ms] or None, "rss": KiB or None, "count": str}}"""
    tools = {}
    interleaved = json.load(open(os.path.join(raw, f"{pair}.json")))
    for name, times in interleaved["wall_ms"].items():
        ordered = sorted(times)
        spread = ordered[(3 * len(ordered)) // 4] - ordered[len(ordered) // 4]
        tools[name] = {"median": statistics.median(times), "spread": spread, "rounds": times}
    path = os.path.join(raw, f"{pair}.python.json")
    if os.path.exists(path):
        for r in json.load(open(path))["results"]:
            tools[r["command"]] = {"median": r["median"] * 1e3, "spread": (r.get("stddev") or 0) * 1e3, "rounds": None}
    for line in open(os.path.join(raw, f"{pair}.tsv")):
        name, rss, count = line.rstrip("\n").split("\t")
        tools.setdefault(name, {}).update(rss=int(rss) if rss.isdigit() else None, count=count)
    return tools


def ratio(tools, num, den):
    """The median of the per-round ratios num/den when both were interleaved, else of the medians."""
    a, b = tools.get(num, {}), tools.get(den, {})
    if a.get("median") is None or not b.get("median"):
        return "—"
    if a.get("rounds") and b.get("rounds"):
        return f"{statistics.median(x / y for x, y in zip(a['rounds'], b['rounds'])):.2f}"
    return f"{a['median'] / b['median']:.2f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--machine")
    ap.add_argument("--odiff", default="")
    ap.add_argument("--runs")
    ap.add_argument("--startup")
    ap.add_argument("pairs", nargs="+")
    args = ap.parse_args()

    out = ["# snapdiff benchmark", ""]
    if args.machine:
        out += [open(args.machine).read().rstrip(), ""]
    summary, mismatches = [], []

    for pair in args.pairs:
        tools = load_pair(args.raw, pair)
        w, h = png_size(os.path.join(args.corpus, f"{pair}-a.png"))
        floor = tools.get(FLOOR, {}).get("median")
        base = tools.get(BASE, {}).get("median")
        out += [f"## {pair} ({w}x{h}, {w * h / 1e6:.1f} MP)", ""]
        out += ["| tool | median ms | IQR ms | peak RSS MB | count | × pngfloor | × inflate floor | peer ÷ snapdiff |"]
        out += ["| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for name in sorted(tools, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER)):
            t = tools[name]
            med, rss = t.get("median"), t.get("rss")
            out.append(
                f"| {name} | {med:.1f} | {t['spread']:.1f} | " if med is not None else f"| {name} | — | — | "
            )
            out[-1] += f"{rss / 1024:.1f} | " if rss else "— | "
            out[-1] += (f"{t.get('count', '—')} | {ratio(tools, name, FLOOR)} | {ratio(tools, name, INFLATE)} | "
                        f"{ratio(tools, name, BASE)} |")

        # Parity: snapdiff (with or without --diff) must count what pixelmatch counts.
        counts = {n: tools[n].get("count") for n in (BASE, "snapdiff --diff", REF) if n in tools}
        if REF in counts:
            bad = [n for n in (BASE, "snapdiff --diff") if n in counts and counts[n] != counts[REF]]
            if bad:
                mismatches.append(pair)
                parity = "**MISMATCH** " + ", ".join(f"{n} {counts[n]}" for n in bad) + f" ≠ pixelmatch-py {counts[REF]}"
            else:
                parity = f"match ({counts[REF]})"
        else:
            parity = "not checked (pixelmatch-py skipped)"
        out += ["", f"Parity with pixelmatch-py: {parity}", ""]

        inflate = tools.get(INFLATE, {}).get("median")
        diff = tools.get("snapdiff --diff", {}).get("median")
        summary.append(
            f"| {pair} | {base:.1f} | {diff:.1f} | {inflate:.1f} | {floor:.1f} | {ratio(tools, BASE, INFLATE)} | "
            f"{ratio(tools, 'snapdiff --diff', INFLATE)} | {ratio(tools, BASE, FLOOR)} | "
            f"{ratio(tools, 'imagemagick', BASE)} | {ratio(tools, 'odiff', BASE)} | {ratio(tools, REF, BASE)} | {parity} |"
        )

    out += ["## Summary", ""]
    out += ["| pair | snapdiff ms | `--diff` ms | inflate floor ms | pngfloor ms | snapdiff × inflate floor | "
            "`--diff` × inflate floor | snapdiff × pngfloor | imagemagick ÷ snapdiff | odiff ÷ snapdiff | "
            "pixelmatch-py ÷ snapdiff | parity |"]
    out += ["| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    out += summary
    if not args.odiff:
        out += ["", "odiff: not timed, no odiff binary here (set ODIFF=path/to/odiff: npm's odiff-bin ships one;",
                "Debian has no package, and PyPI's `odiff` is an unrelated JSON/YAML diff)."]
    if args.startup and os.path.exists(args.startup) and os.path.getsize(args.startup) > 0:
        out += ["", "## Start-up", "", open(args.startup).read().rstrip()]
    if args.runs and os.path.getsize(args.runs) > 0:
        out += ["", "## Whole runs", "", open(args.runs).read().rstrip()]
    out += [
        "",
        "Notes: wall times are medians of the whole process (start, read, decode, compare, exit), the",
        "commands interleaved round by round in random order (interleave.py); ratios are medians of the",
        "per-round ratios.",
        "Counts: snapdiff and pixelmatch-py count pixelmatch differences (threshold 0.1, anti-aliasing",
        "excluded); pngfloor counts exactly mismatched pixels and imagemagick the AE metric with -fuzz 0",
        "(both exact, for information). × pngfloor = tool ÷ pngfloor; × inflate floor = tool ÷ inflatefloor",
        "with libdeflate (both files' image data inflated on two threads, nothing else: no decoder beats it);",
        "peer ÷ snapdiff = tool ÷ snapdiff (count only): above 1 means snapdiff is faster.",
    ]
    print("\n".join(out))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
