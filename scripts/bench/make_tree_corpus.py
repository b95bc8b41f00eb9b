#!/usr/bin/env python3
"""A corpus for timing `snapdiff check` on a run of tree-only frames (`<key>.tree.json` alone).

N distinct iPhone-size trees (390x844 points at 3x: 1170x2532 pixels), each the test suite's
results screen (Tests/SnapdiffCoreTests/Fixtures/trees/results.tree.json, 14 KB) with its own
title and first row, written as OUT/frames/Trees - test_NNNN/Screen.tree.json. The baselines are
then recorded by `snapdiff check --record missing` (bench_trees.sh does it), so they carry the
render stamp; `unstamped BASELINES OUT` copies a store with the stamps taken out (same pixels,
same trees), whose frames must be rendered and compared.

Usage: make_tree_corpus.py OUT [N=1000]
       make_tree_corpus.py unstamped BASELINES OUT
"""
import copy
import json
import os
import shutil
import struct
import sys
import zlib

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEMPLATE = os.path.join(REPO, "Tests/SnapdiffCoreTests/Fixtures/trees/results.tree.json")


def texts(element):
    """Every element with a non-empty label, depth first."""
    if element.get("label"):
        yield element
    for child in element.get("children", []):
        yield from texts(child)


def make(out, count):
    template = json.load(open(TEMPLATE))
    template["scale"] = 3
    for index in range(count):
        tree = copy.deepcopy(template)
        labelled = list(texts(tree["root"]))
        # Two labels per screen: no two trees (nor renderings) alike, as in a real suite.
        for element in labelled[1:3]:
            element["label"] = f"{element['label']} {index:04d}"
        path = os.path.join(out, "frames", f"Trees - test_{index:04d}", "Screen.tree.json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(tree, f, indent=1, sort_keys=True)


def unstamp(png):
    """The PNG without its snapdiff-render tEXt chunk (right after IHDR), CRCs intact."""
    length, kind = struct.unpack(">I4s", png[33:41])
    if kind == b"tEXt" and png[41:41 + 16] == b"snapdiff-render\0":
        return png[:33] + png[33 + 12 + length:]
    return png


def copy_unstamped(baselines, out):
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(baselines, out)
    for folder, _, files in os.walk(out):
        for name in files:
            if name.endswith(".png"):
                path = os.path.join(folder, name)
                data = open(path, "rb").read()
                stripped = unstamp(data)
                assert stripped != data, f"{path} has no render stamp"
                assert zlib.crc32(stripped[12:29]) == struct.unpack(">I", stripped[29:33])[0]
                open(path, "wb").write(stripped)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "unstamped":
        copy_unstamped(sys.argv[2], sys.argv[3])
        return
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    make(out, count)


if __name__ == "__main__":
    main()
