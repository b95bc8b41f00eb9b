#!/usr/bin/env python3
"""Time commands interleaved, round by round, so that a slow minute hurts every command alike.

Usage: interleave.py [--runs N] [--warmup N] [--ref NAME] [--json OUT] NAME=COMMAND ...

Each round runs every command once, in a fresh random order, through posix_spawn (no shell;
stdout and stderr to /dev/null) and times its wall clock. On a shared, noisy machine (a 2-core
VM whose neighbours compile) hyperfine's back-to-back runs can drift by 2x between the first
command and the last; interleaving keeps the ratios honest. Printed per command: the median and
the spread of wall times, the median CPU time (user + system), and `x ref`, the median of the
per-round ratios to the reference command (default: the last one).

Exit status: 0, or 2 on a usage error or a command that could not be started.
"""

import argparse
import json
import os
import random
import shlex
import statistics
import sys
import time


def run_once(argv):
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        start = time.perf_counter_ns()
        pid = os.posix_spawnp(
            argv[0], argv, os.environ,
            file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
        _, status, usage = os.wait4(pid, 0)
        wall = (time.perf_counter_ns() - start) / 1e6
    finally:
        os.close(devnull)
    return wall, (usage.ru_utime + usage.ru_stime) * 1e3, os.waitstatus_to_exitcode(status)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--ref", help="the reference command's name (default: the last)")
    parser.add_argument("--json", help="write the raw times here")
    parser.add_argument("commands", nargs="+", metavar="NAME=COMMAND")
    args = parser.parse_args()

    commands = {}
    for item in args.commands:
        name, sep, command = item.partition("=")
        if not sep or not command:
            parser.error(f"expected NAME=COMMAND, got {item!r}")
        commands[name] = shlex.split(command)
    ref = args.ref or list(commands)[-1]
    if ref not in commands:
        parser.error(f"--ref {ref!r} is not one of the commands")

    names = list(commands)
    wall = {n: [] for n in names}
    cpu = {n: [] for n in names}
    codes = {n: set() for n in names}
    for round_index in range(args.warmup + args.runs):
        order = names[:]
        random.shuffle(order)
        for name in order:
            try:
                w, c, code = run_once(commands[name])
            except OSError as error:
                print(f"interleave.py: cannot run {name}: {error}", file=sys.stderr)
                return 2
            if round_index >= args.warmup:
                wall[name].append(w)
                cpu[name].append(c)
                codes[name].add(code)

    width = max(len(n) for n in names)
    print(f"{'command':<{width}}  {'median ms':>9}  {'min':>7}  {'p75':>7}  {'cpu ms':>7}  {'x ' + ref:>10}  exit")
    for name in names:
        times = sorted(wall[name])
        p75 = times[min(len(times) - 1, (3 * len(times)) // 4)]
        ratio = statistics.median(w / r for w, r in zip(wall[name], wall[ref]))
        print(f"{name:<{width}}  {statistics.median(times):9.1f}  {times[0]:7.1f}  {p75:7.1f}  "
              f"{statistics.median(cpu[name]):7.1f}  {ratio:10.3f}  {','.join(map(str, sorted(codes[name])))}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"ref": ref, "wall_ms": wall, "cpu_ms": cpu}, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
