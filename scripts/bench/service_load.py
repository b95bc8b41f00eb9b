#!/usr/bin/env python3
"""Interleaved load tests of `snapdiff serve` builds (an A/B of the service's cost per frame), on
SQLite and on PostgreSQL: round by round, each build in a random order, scripts/load_test.py against
a server started here for that one run; then the medians, ranges and each round's ratio to the
first build.

  scripts/bench/service_load.py --build before=/tmp/before/snapdiff --build after=.build/release/snapdiff
        [--backend sqlite] [--backend postgres --postgres postgres://postgres@127.0.0.1:PORT/snapdiff_test]
        [--rounds 5] [--frames 300] [--clients 8] [--kind mixed|equal|changed] [--size 390x844]

Each run gets a new workspace (baselines and data folder) and, on PostgreSQL, a new database on the
cluster of --postgres (scripts/postgres.sh start makes one), dropped afterwards. The server runs with
--no-request-log. Printed per build and backend: frames/s, latency p50 and p95, the last tenth's
p50 over the first's, the server's CPU per frame (user + system, from /proc: the steadier figure on
a shared machine), its peak RSS and, on PostgreSQL, the statements per frame that the database ran
(pg_stat_statements, when the cluster loads it: scripts/postgres.sh does). The machine is shared:
quote medians and ranges, and the ratios of one round's runs, never one timing.

Exit status 0, 1 when a load test reported errors, 2 when it cannot run. Python's standard library
only (and psql for PostgreSQL).
"""

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from serve_support import CannotRun, Server  # noqa: E402

LOAD_TEST = os.path.join(os.path.dirname(HERE), "load_test.py")


def log(message):
    print(f"service_load: {message}", file=sys.stderr, flush=True)


def psql(url, statement):
    """The output of one statement (`psql -tA`), or raises CannotRun."""
    result = subprocess.run(["psql", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", url, "-c", statement], capture_output=True, text=True)
    if result.returncode != 0:
        raise CannotRun(f"psql {url}: {statement}: {result.stderr.strip()}")
    return result.stdout.strip()


def statements(url):
    """The statements run so far in `url`'s database (pg_stat_statements), but keep-alives
    (`SELECT 1`) and these queries; None when the extension is not loaded."""
    try:
        return int(psql(url, "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE 'SELECT $1%' AND query NOT LIKE '%pg_stat_statements%'"))
    except (CannotRun, ValueError):
        return None


def one_run(executable, backend, postgres, arguments):
    """One load test against a new server of `executable` on `backend`: load_test.py's figures."""
    workspace = tempfile.mkdtemp(prefix="snapdiff-service-load-")
    database = None
    server = None
    try:
        extra = ["--no-request-log"]
        url = None
        if backend == "postgres":
            database = "load_" + os.urandom(4).hex()
            psql(postgres, f"CREATE DATABASE {database}")
            url = postgres.rsplit("/", 1)[0] + "/" + database
            try:
                psql(url, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            except CannotRun:
                pass
            extra += ["--database", url]
        token = "load-" + os.urandom(8).hex()
        os.makedirs(os.path.join(workspace, "baselines"))
        server = Server(executable, workspace, token, extra)
        before = statements(url) if url else None
        command = [sys.executable, LOAD_TEST, "--url", server.url, "--baselines", os.path.join(workspace, "baselines"), "--token", token, "--pid", str(server.pid), "--json", *arguments]
        result = subprocess.run(command, capture_output=True, text=True)
        lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
        if not lines:
            raise CannotRun(f"load_test.py gave no figures (exit {result.returncode}): {result.stderr[-1500:]}")
        figures = json.loads(lines[-1])
        if result.returncode != 0:
            log(f"load_test.py reported errors: {result.stderr[-800:]}")
        after = statements(url) if url else None
        if before is not None and after is not None and figures["completed"]:
            # The run's open and close are two statements' worth among thousands: left in.
            figures["statementsPerFrame"] = round((after - before) / figures["completed"], 2)
        return figures
    finally:
        if server:
            server.stop()
        if database:
            try:
                psql(postgres, f"DROP DATABASE IF EXISTS {database}")
            except CannotRun as error:
                log(f"could not drop {database}: {error}")
        shutil.rmtree(workspace, ignore_errors=True)


def spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return "—"
    median = statistics.median(values)
    return f"{median:g} ({min(values):g}–{max(values):g})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", action="append", required=True, help="LABEL=PATH of a snapdiff executable (snapdiff-serve beside it); the first is what the others are compared with")
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgres"], help="sqlite (default) and/or postgres")
    parser.add_argument("--postgres", help="a PostgreSQL URL whose cluster may create databases (postgres://postgres@127.0.0.1:PORT/snapdiff_test)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--kind", default="mixed", choices=["mixed", "equal", "changed"])
    parser.add_argument("--size", default="390x844")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--json", help="also write every run's figures to this file")
    arguments = parser.parse_args()
    builds = []
    for text in arguments.build:
        label, _, path = text.partition("=")
        if not path or not os.access(path, os.X_OK):
            parser.error(f"--build {text}: expected LABEL=PATH of an executable snapdiff")
        builds.append((label, path))
    backends = arguments.backend or ["sqlite"]
    if "postgres" in backends and not arguments.postgres:
        parser.error("--backend postgres needs --postgres URL (scripts/postgres.sh start prints one)")
    load_arguments = ["--frames", str(arguments.frames), "--clients", str(arguments.clients), "--kind", arguments.kind, "--size", arguments.size, "--timeout", str(arguments.timeout)]

    runs = {(label, backend): [] for label, _ in builds for backend in backends}
    failed = False
    try:
        for round_number in range(1, arguments.rounds + 1):
            for backend in backends:
                order = builds[:]
                random.shuffle(order)
                for label, path in order:
                    figures = one_run(path, backend, arguments.postgres, load_arguments)
                    figures["round"] = round_number
                    failed = failed or figures["errors"] > 0
                    runs[(label, backend)].append(figures)
                    cpu = figures.get("serverCPUSeconds")
                    per_frame = f"{1000 * cpu / max(1, figures['completed']):.2f} ms CPU/frame" if cpu is not None else ""
                    log(f"round {round_number} {backend} {label}: {figures['framesPerSecond']} frames/s, p50 {figures['latencyMs']['p50']} ms, {per_frame}, {figures.get('statementsPerFrame', '—')} statements/frame, {figures['errors']} errors")
    except CannotRun as error:
        log(f"cannot run: {error}")
        return 2

    if arguments.json:
        with open(arguments.json, "w") as file:
            json.dump({f"{label} {backend}": value for (label, backend), value in runs.items()}, file, indent=1)
    print(f"{arguments.frames} frames ({arguments.kind}, {arguments.size}), {arguments.clients} clients, {arguments.rounds} interleaved rounds: median (range)")
    print("| build | backend | frames/s | p50 ms | p95 ms | last/first tenth | server CPU ms/frame | statements/frame | peak RSS MiB | errors |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for backend in backends:
        for label, _ in builds:
            values = runs[(label, backend)]
            cpu = [1000 * v["serverCPUSeconds"] / max(1, v["completed"]) if v.get("serverCPUSeconds") is not None else None for v in values]
            print(
                f"| {label} | {backend} | {spread([v['framesPerSecond'] for v in values])} | {spread([v['latencyMs']['p50'] for v in values])} "
                f"| {spread([v['latencyMs']['p95'] for v in values])} | {spread([v['lastTenthOverFirst'] for v in values])} "
                f"| {spread([round(c, 2) if c is not None else None for c in cpu])} | {spread([v.get('statementsPerFrame') for v in values])} "
                f"| {spread([v['serverPeakRSSMiB'] for v in values])} | {sum(v['errors'] for v in values)} |"
            )
    # Each round's ratio to the first build: the others' load moves both runs of a round alike.
    first = builds[0][0]
    for backend in backends:
        for label, _ in builds[1:]:
            pairs = list(zip(runs[(first, backend)], runs[(label, backend)]))
            throughput = [b["framesPerSecond"] / a["framesPerSecond"] for a, b in pairs if a["framesPerSecond"]]
            cpu = [b["serverCPUSeconds"] / a["serverCPUSeconds"] for a, b in pairs if a.get("serverCPUSeconds") and b.get("serverCPUSeconds") is not None]
            print(f"{label} / {first} on {backend}, per round: frames/s ×{spread([round(r, 2) for r in throughput])}, server CPU per frame ×{spread([round(r, 2) for r in cpu])}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
