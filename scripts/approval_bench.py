#!/usr/bin/env python3
"""Times a group approval and its undo through `snapdiff serve`: makes a project of N phone
screenshots (default 200 at 1170x2532) where G of them (default 150) share one change, records a
run with `snapdiff check`, starts the service and times `POST /api/v1/runs/{run}/approve
{"sameAs": …}` (one request) and `POST /api/v1/approvals/{operation}/undo` (one request), ROUNDS
times each; with --cli, `snapdiff approve --same-as KEY` and `snapdiff approve --undo --operation
ID` as processes instead (the same code without HTTP). Prints each time and a JSON summary. Exit
0, or 2 when it cannot run.

With --other-run, a second run of the same branch is checked first, which each approval's
`SeenApprovals` then updates: `same`, the very frames (taken over by hash); `recheck`, the group's
frames two pixels off the approved ones, checked with `--max-diff-pixels 4` (each re-checked
against the new baseline: two PNGs decoded and compared per snapshot).

  scripts/approval_bench.py [--snapdiff PATH] [--snapshots 200] [--group 150] [--rounds 3] [--cli]
                            [--other-run none|same|recheck]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_support import CannotRun, Server  # noqa: E402
from review_page_check import find_snapdiff  # noqa: E402
from review_page_bench import screen  # noqa: E402


BASE = (9, 105, 218)
CHANGED_HEADER = (255, 223, 93)


def key_of(index):
    return f"Screen{index // 20:03d} - test_{index:04d}/Screen {index:04d}"


def write_frames(root, folder, count, group, changed):
    base = screen(BASE)
    for index in range(count):
        path = os.path.join(root, folder, key_of(index) + ".png")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as file:
            file.write(changed if index < group else base)


def make_project(root, count, group):
    write_frames(root, "baselines", count, 0, None)
    write_frames(root, "frames", count, group, screen(BASE, header=CHANGED_HEADER))
    return [key_of(index) for index in range(count)]


def check(executable, root, folder, *flags):
    result = subprocess.run(
        [os.path.abspath(executable), "check", folder, "--baselines", "baselines", "--record", "never", *flags],
        cwd=root, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        raise CannotRun(f"snapdiff check failed ({result.returncode}): {result.stderr[-800:]}")
    print(result.stdout.splitlines()[0], flush=True)
    return json.load(open(os.path.join(root, ".snapdiff", "runs", "last", "run.json")))["id"]


def taken_over(root, other):
    """How many snapshots of run `other` are approved in another run, and how many of those were
    re-checked (their frame not the approved one)."""
    if other is None:
        return ""
    record = json.load(open(os.path.join(root, ".snapdiff", "runs", other, "run.json")))
    seen = [s["approvedIn"] for s in record["snapshots"] if s.get("approvedIn")]
    return f"; the other run took over {len(seen)} ({sum(1 for s in seen if s.get('rechecked'))} re-checked)"


def post(server, token, path, body):
    request = urllib.request.Request(
        server.url + path, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": "Bearer " + token})
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=600) as response:
        answer = json.load(response)
    return answer, time.monotonic() - started


def cli_rounds(executable, root, run, other, keys, arguments):
    def timed(command):
        started = time.monotonic()
        result = subprocess.run([executable, *command], cwd=root, capture_output=True, text=True)
        if result.returncode != 0:
            raise CannotRun(f"snapdiff {' '.join(command)}: exit {result.returncode}: {result.stderr[-600:]}")
        return result.stdout, time.monotonic() - started
    approvals, undos = [], []
    for _ in range(arguments.rounds):
        output, seconds = timed(["approve", "--same-as", keys[0], "--run", run])
        approvals.append(seconds)
        seen = taken_over(root, other)
        operation = next(line.split()[1].rstrip(":") for line in output.splitlines() if line.startswith("operation "))
        _, seconds = timed(["approve", "--undo", "--operation", operation])
        undos.append(seconds)
        print(f"approve --same-as: {approvals[-1] * 1000:.0f} ms; approve --undo --operation: {undos[-1] * 1000:.0f} ms"
              + seen, flush=True)
    print(json.dumps({"snapshots": arguments.snapshots, "group": arguments.group, "cli": True,
                      "otherRun": arguments.other_run,
                      "approveMs": [round(s * 1000) for s in approvals], "undoMs": [round(s * 1000) for s in undos]}))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--snapdiff")
    parser.add_argument("--snapshots", type=int, default=200)
    parser.add_argument("--group", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the project folder")
    parser.add_argument("--cli", action="store_true", help="time the snapdiff processes instead of the service")
    parser.add_argument("--other-run", choices=["none", "same", "recheck"], default="none",
                        help="another run of the branch that sees each approval (default none)")
    arguments = parser.parse_args()
    root = tempfile.mkdtemp(prefix="snapdiff-bench-approval-")
    server = None
    try:
        executable = find_snapdiff(arguments.snapdiff)
        keys = make_project(root, arguments.snapshots, arguments.group)
        run = check(executable, root, "frames")
        other = None
        if arguments.other_run != "none":
            dot = (0, 0, 0) if arguments.other_run == "recheck" else None
            other = screen(BASE, header=CHANGED_HEADER, dot=dot)
            write_frames(root, "other-frames", arguments.snapshots, arguments.group, other)
            other = check(executable, root, "other-frames", "--max-diff-pixels", "4")
        if arguments.cli:
            return cli_rounds(os.path.abspath(executable), root, run, other, keys, arguments)
        token = "bench-" + os.urandom(6).hex()
        server = Server(executable, root, token)
        approvals, undos = [], []
        for _ in range(arguments.rounds):
            answer, seconds = post(server, token, f"/api/v1/runs/{run}/approve", {"sameAs": keys[0]})
            approved = len(answer["snapshots"])
            approvals.append(seconds)
            seen = taken_over(root, other)
            undone, seconds = post(server, token, f"/api/v1/approvals/{answer['operation']}/undo", {})
            undos.append(seconds)
            print(f"approved {approved} in {approvals[-1] * 1000:.0f} ms (one request), "
                  f"undid {len(undone['keys'])} in {undos[-1] * 1000:.0f} ms (one request)" + seen, flush=True)
        print(json.dumps({"snapshots": arguments.snapshots, "group": arguments.group,
                          "otherRun": arguments.other_run, "approveMs": [round(s * 1000) for s in approvals],
                          "undoMs": [round(s * 1000) for s in undos]}))
        return 0
    except CannotRun as error:
        print(f"approval_bench: cannot run: {error}", file=sys.stderr)
        return 2
    finally:
        if server:
            server.stop()
        if arguments.keep:
            print(f"kept: {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
