#!/usr/bin/env python3
"""Turn bench.sh's raw results into Markdown tables (printed on stdout).

Usage: report.py --raw DIR --corpus DIR [--machine FILE] PAIR...

Reads, per pair, DIR/PAIR.json (and DIR/PAIR.python.json if present: hyperfine
--export-json files) and DIR/PAIR.tsv (name, peak RSS in KiB, count). Exit code 1 when
snapdiff's count differs from pixelmatch-py's on some pair (the table says MISMATCH).
"""
import argparse
import json
import os
import struct
import sys

ORDER = ["snapdiff", "snapdiff --diff", "pngfloor", "inflate (libdeflate)", "inflate (zlib)", "imagemagick", "pixelmatch-py"]
FLOOR, INFLATE, BASE, REF = "pngfloor", "inflate (libdeflate)", "snapdiff", "pixelmatch-py"


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)  # signature (8) + IHDR length/type (8) + width, height
    return struct.unpack(">II", head[16:24])


def load_pair(raw, pair):
    """{tool: {"median": ms, "stddev": ms, "rss": KiB or None, "count": str}}"""
    tools = {}
    for name in (f"{pair}.json", f"{pair}.python.json"):
        path = os.path.join(raw, name)
        if os.path.exists(path):
            for r in json.load(open(path))["results"]:
                tools[r["command"]] = {"median": r["median"] * 1e3, "stddev": (r.get("stddev") or 0) * 1e3}
    for line in open(os.path.join(raw, f"{pair}.tsv")):
        name, rss, count = line.rstrip("\n").split("\t")
        tools.setdefault(name, {}).update(rss=int(rss) if rss.isdigit() else None, count=count)
    return tools


def ratio(num, den):
    return f"{num / den:.2f}" if num is not None and den else "—"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--machine")
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
        inflate = tools.get(INFLATE, {}).get("median")
        base = tools.get(BASE, {}).get("median")
        out += [f"## {pair} ({w}x{h}, {w * h / 1e6:.1f} MP)", ""]
        out += ["| tool | median ms | ± σ ms | peak RSS MB | count | × pngfloor | × inflate floor | peer ÷ snapdiff |"]
        out += ["| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for name in sorted(tools, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER)):
            t = tools[name]
            med, rss = t.get("median"), t.get("rss")
            out.append(
                f"| {name} | {med:.1f} | {t['stddev']:.1f} | " if med is not None else f"| {name} | — | — | "
            )
            out[-1] += f"{rss / 1024:.1f} | " if rss else "— | "
            out[-1] += f"{t.get('count', '—')} | {ratio(med, floor)} | {ratio(med, inflate)} | {ratio(med, base)} |"

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

        peer = lambda n: tools.get(n, {}).get("median")  # noqa: E731
        summary.append(
            f"| {pair} | {base:.1f} | {floor:.1f} | {ratio(base, floor)} | {ratio(base, inflate)} | "
            f"{ratio(peer('snapdiff --diff'), inflate)} | "
            f"{ratio(peer('imagemagick'), base)} | {ratio(peer(REF), base)} | {parity} |"
        )

    out += ["## Summary", ""]
    out += ["| pair | snapdiff ms | pngfloor ms | snapdiff × pngfloor | snapdiff × inflate floor | --diff × inflate floor | imagemagick ÷ snapdiff | pixelmatch-py ÷ snapdiff | parity |"]
    out += ["| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    out += summary
    out += [
        "",
        "Notes: wall times are hyperfine medians of the whole process (start, read, decode, compare, exit).",
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
