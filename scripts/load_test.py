#!/usr/bin/env python3
"""A load test of `snapdiff serve`: one run, N frames posted from C concurrent clients, bounded in
count and time, then the figures a capacity plan needs.

  scripts/load_test.py [--snapdiff PATH] [--frames 300] [--clients 8] [--timeout 300]
                       [--kind mixed|equal|changed] [--size 390x844]
      Starts `snapdiff serve` (PATH: a release build, ideally) on 127.0.0.1 and a free port, with
      a token, over a baseline store it prepares in a temporary folder, and stops it afterwards.

  scripts/load_test.py --url http://127.0.0.1:PORT --baselines DIR [--token T] [--pid PID] ...
      Against a server already running (on loopback only); its store DIR gets this test's baselines
      under `load-test/`, and --pid lets it read the server's peak memory.

The frames are 390x844 (--size) phone-screen-like PNGs drawn with zlib and struct (a few variants,
with a noisy "photo" so that they weigh what screenshots weigh): half equal to their baseline,
about a third changed, the rest new (no baseline); --kind equal makes every frame equal to its
baseline byte for byte, --kind changed every frame changed. Baselines of the same picture are hard
links to one file, so that 10,000 frames need no more disk for baselines than eight. Each client keeps one HTTP/1.1 connection and PUTs
frames as image/png until all are sent or the time is up; each verdict must be 200 with the
expected status (passed, failed or new). Then the run is closed and its counts checked.

Prints the errors (there must be none), latency p50/p95/p99/max, the median latency of each tenth
of the run (in completion order: a per-frame cost that grows with the run shows as a last tenth
slower than the first), frames per second, and the server's peak resident memory (VmHWM in
/proc/PID/status). Exit status 0 with no error, 1 with
any (a failed request, a wrong verdict, a frame not sent in time, wrong counts), 2 when it cannot
run. Python's standard library only (threading, http.client).
"""

import argparse
import http.client
import json
import math
import os
import queue
import shutil
import sys
import tempfile
import threading
import time
import urllib.parse

from serve_support import CannotRun, Server, phone_screen

WIDTH, HEIGHT = 390, 844


def log(message):
    print(f"load_test: {message}", file=sys.stderr, flush=True)


# MARK: Frames


def make_frames(count, mix="mixed", width=WIDTH, height=HEIGHT):
    """`count` frames as (key, baseline bytes or None, frame bytes, expected status): half equal,
    about a third changed, the rest new (`mix` "mixed"), or all equal or all changed; from four
    screens and their changed versions."""
    log("drawing frames...")
    size = dict(width=width, height=height)
    screens = [
        phone_screen(accent, photo_seed=seed, **size)
        for seed, accent in enumerate([(9, 105, 218), (26, 127, 55), (130, 80, 223), (191, 135, 0)])
    ]
    changed = [
        phone_screen((207, 34, 46), photo_seed=0, **size),  # the button's colour
        phone_screen((26, 127, 55), shifted=True, photo_seed=1, **size),  # the text moved
        phone_screen((130, 80, 223), banner=True, photo_seed=2, **size),  # a banner appeared
        phone_screen((191, 135, 0), shifted=True, banner=True, photo_seed=3, **size),
    ]
    frames = []
    for index in range(count):
        screen = index % len(screens)
        key = f"load-test/Screen {index:05d} - test_load/Screen {index:05d}"
        kind = {"mixed": index % 6, "equal": 0, "changed": 3}[mix]  # 0–2 equal, 3–4 changed, 5 new
        if kind < 3:
            frames.append((key, screens[screen], screens[screen], "passed"))
        elif kind < 5:
            frames.append((key, screens[screen], changed[screen], "failed"))
        else:
            frames.append((key, None, changed[screen], "new"))
    sizes = sorted(len(f[2]) for f in frames)
    log(f"{count} frames of {width}x{height}, {sizes[0] // 1024}–{sizes[-1] // 1024} KiB each")
    return frames


def write_baselines(store, frames):
    """Each frame's baseline, the same picture hard-linked to one file where the file system allows."""
    originals = {}
    for key, baseline, _, _ in frames:
        if baseline is None:
            continue
        path = os.path.join(store, key + ".png")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        original = originals.get(id(baseline))
        if original is not None:
            try:
                os.link(original, path)
                continue
            except OSError:
                pass
        with open(path, "wb") as file:
            file.write(baseline)
        originals[id(baseline)] = path


# MARK: The server (started by serve_support.Server)


def memory_kib(pid, field):
    """A `/proc/PID/status` figure in KiB (VmHWM: peak resident; VmRSS: resident now), or None."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


# MARK: The clients


class Client:
    """One keep-alive HTTP/1.1 connection, reopened if the server closes it."""

    def __init__(self, url, token):
        parsed = urllib.parse.urlsplit(url)
        if parsed.hostname not in ("127.0.0.1", "localhost", "::1"):
            raise CannotRun(f"{url}: this load test only targets loopback servers")
        self.host, self.port = parsed.hostname, parsed.port or 80
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.connection = None

    def request(self, method, path, body=None, content_type=None, timeout=60):
        headers = dict(self.headers)
        if content_type:
            headers["Content-Type"] = content_type
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
            elif self.connection.sock is not None:
                self.connection.sock.settimeout(timeout)  # what is left of the test's time
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                return response.status, data
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # A keep-alive connection the server closed in between: once more on a new one.
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def snapshot_path(run, key):
    return f"/api/v1/runs/{urllib.parse.quote(run, safe='')}/snapshots/{urllib.parse.quote(key, safe='')}"


def post_frames(urls, token, run, frames, clients, deadline):
    """Posts every frame from `clients` threads, client n to `urls[n % len(urls)]` (several
    instances of one service, as a load balancer spreads them); returns (latencies in s, errors,
    wall seconds)."""
    work = queue.Queue()
    for frame in frames:
        work.put(frame)
    latencies, errors = [], []
    finished = [0]  # frames taken from the queue that got an answer or an error
    lock = threading.Lock()

    def worker(number):
        client = Client(urls[number % len(urls)], token)
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                try:
                    key, _, data, expected = work.get_nowait()
                except queue.Empty:
                    return
                started = time.monotonic()
                try:
                    status, body = client.request("PUT", snapshot_path(run, key), data, "image/png", timeout=remaining)
                except Exception as error:  # a timeout, a refused or dropped connection
                    client.close()
                    with lock:
                        errors.append(f"{key}: {type(error).__name__}: {error}")
                        finished[0] += 1
                    continue
                elapsed = time.monotonic() - started
                problem = None
                if status != 200:
                    problem = f"HTTP {status}: {body[:200]!r}"
                else:
                    try:
                        verdict = json.loads(body).get("status")
                    except ValueError:
                        verdict = f"not JSON: {body[:100]!r}"
                    if verdict != expected:
                        problem = f"status {verdict!r}, expected {expected!r}"
                with lock:
                    latencies.append(elapsed)
                    finished[0] += 1
                    if problem:
                        errors.append(f"{key}: {problem}")
        finally:
            client.close()

    started = time.monotonic()
    threads = [threading.Thread(target=worker, args=(n,), name=f"client-{n}", daemon=True) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()) + 5)
    wall = time.monotonic() - started
    with lock:
        taken = len(frames) - work.qsize()
        if taken > finished[0]:
            errors.append(f"{taken - finished[0]} requests still unanswered when the --timeout passed")
    while not work.empty():
        errors.append(f"{work.get_nowait()[0]}: not sent before the --timeout")
    return latencies, errors, wall


def percentile(sorted_values, fraction):
    """The nearest-rank percentile of already sorted values."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), math.ceil(fraction * len(sorted_values))))
    return sorted_values[rank - 1]


def cpu_seconds(pid):
    """The process's user + system CPU time so far (/proc/PID/stat), or None."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--snapdiff", help="the snapdiff executable to start (default: snapdiff on PATH, else .build/release/snapdiff)")
    parser.add_argument("--url", help="a running server on loopback, instead of starting one; several, comma-separated, are instances of one service on one database (snapdiff serve --database postgres://…): clients are spread over them, the run is opened and closed on the first")
    parser.add_argument("--baselines", help="with --url: the server's baseline store")
    parser.add_argument("--token", help="with --url: the server's token, if it has one")
    parser.add_argument("--pid", type=int, help="with --url: the server's process id, to read its peak memory")
    parser.add_argument("--frames", type=int, default=300, help="frames to post (default 300)")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds for the whole test (default 300)")
    parser.add_argument("--kind", choices=["mixed", "equal", "changed"], default="mixed", help="mixed (default: half equal, a third changed, a sixth new), equal (every frame equal to its baseline byte for byte) or changed (every frame changed)")
    parser.add_argument("--size", default=f"{WIDTH}x{HEIGHT}", help=f"frame size WIDTHxHEIGHT (default {WIDTH}x{HEIGHT}; 1170x2532 is an iPhone's)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    arguments = parser.parse_args()
    if arguments.frames < 1 or arguments.clients < 1 or arguments.timeout <= 0:
        parser.error("--frames and --clients must be at least 1, --timeout positive")
    try:
        width, height = (int(part) for part in arguments.size.lower().split("x"))
        if not (100 <= width <= 4000 and 300 <= height <= 4000):
            raise ValueError
    except ValueError:
        parser.error("--size must be WIDTHxHEIGHT, 100 to 4000 wide and 300 to 4000 high")

    deadline = time.monotonic() + arguments.timeout
    scratch = tempfile.mkdtemp(prefix="snapdiff-load-")
    server = None
    try:
        frames = make_frames(arguments.frames, arguments.kind, width, height)
        if arguments.url:
            if not arguments.baselines:
                raise CannotRun("--url needs --baselines (the server's store, where the baselines go)")
            urls = [part.strip().rstrip("/") for part in arguments.url.split(",") if part.strip()]
            url, token, pid = urls[0], arguments.token, arguments.pid
            write_baselines(arguments.baselines, frames)
        else:
            executable = arguments.snapdiff or shutil.which("snapdiff")
            if not executable:
                root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
                executable = os.path.join(root, ".build", "release", "snapdiff")
            if not os.access(executable, os.X_OK):
                raise CannotRun(f"no snapdiff at {executable}: pass --snapdiff (a release build: swift build -c release --product snapdiff)")
            token = "load-test-" + os.urandom(8).hex()
            write_baselines(os.path.join(scratch, "baselines"), frames)
            server = Server(executable, scratch, token)
            url, pid = server.url, server.pid
            urls = [url]
            log(f"snapdiff serve (pid {pid}) at {url}")
        resident_at_start = memory_kib(pid, "VmRSS") if pid else None
        cpu_at_start = cpu_seconds(pid) if pid else None

        control = Client(url, token)
        try:
            status, body = control.request("POST", "/api/v1/runs", json.dumps({"name": "load-test", "branch": "load"}), "application/json")
        except (OSError, http.client.HTTPException) as error:
            raise CannotRun(f"opening a run at {url}: {error}") from None
        if status != 201:
            raise CannotRun(f"opening a run: HTTP {status}: {body[:300]!r}")
        run = json.loads(body)["id"]
        log(f"run {run}: {len(frames)} frames from {arguments.clients} clients to {len(urls)} instance(s)")

        latencies, errors, wall = post_frames(urls, token, run, frames, arguments.clients, deadline)

        try:
            status, body = control.request("POST", f"/api/v1/runs/{urllib.parse.quote(run, safe='')}/close")
        except (OSError, http.client.HTTPException) as error:
            status, body = None, str(error).encode()
        control.close()
        if status != 200:
            errors.append(f"closing the run: HTTP {status}: {body[:300]!r}")
        else:
            counts = json.loads(body).get("counts", {})
            expected = {}
            for _, _, _, kind in frames:
                expected[kind] = expected.get(kind, 0) + 1
            if not errors and counts != expected:
                errors.append(f"the closed run counts {counts}, expected {expected}")
        peak = memory_kib(pid, "VmHWM") if pid else None
        cpu_at_end = cpu_seconds(pid) if pid else None
    except CannotRun as error:
        log(f"cannot run: {error}")
        return 2
    finally:
        if server:
            server.stop()
        shutil.rmtree(scratch, ignore_errors=True)

    # Latency as the run grows, in completion order: a per-frame cost that grows with the number
    # of snapshots already in the run shows here.
    def p50_by(parts):
        medians = []
        for part in range(parts):
            values = sorted(latencies[part * len(latencies) // parts : (part + 1) * len(latencies) // parts])
            medians.append(round(percentile(values, 0.5) * 1000, 1) if values else None)
        return medians

    quarter_p50, tenth_p50 = p50_by(4), p50_by(10)
    latencies.sort()
    figures = {
        "frames": len(frames),
        "clients": arguments.clients,
        "completed": len(latencies),
        "errors": len(errors),
        "seconds": round(wall, 2),
        "framesPerSecond": round(len(latencies) / wall, 1) if wall > 0 else None,
        "latencyMs": {
            "p50": round(percentile(latencies, 0.50) * 1000, 1),
            "p95": round(percentile(latencies, 0.95) * 1000, 1),
            "p99": round(percentile(latencies, 0.99) * 1000, 1),
            "max": round(latencies[-1] * 1000, 1) if latencies else None,
            "p50ByQuarter": quarter_p50,
            "p50ByTenth": tenth_p50,
        },
        "lastTenthOverFirst": round(tenth_p50[-1] / tenth_p50[0], 2) if tenth_p50[0] and tenth_p50[-1] else None,
        "kind": arguments.kind,
        "size": f"{width}x{height}",
        "serverPeakRSSMiB": round(peak / 1024, 1) if peak else None,
        "serverRSSAtStartMiB": round(resident_at_start / 1024, 1) if resident_at_start else None,
        "serverCPUSeconds": round(cpu_at_end - cpu_at_start, 2) if cpu_at_start is not None and cpu_at_end is not None else None,
    }
    if arguments.json:
        print(json.dumps(figures))
    else:
        ms = figures["latencyMs"]
        print(f"{figures['completed']} of {figures['frames']} frames from {figures['clients']} clients in {figures['seconds']} s: {figures['framesPerSecond']} frames/s")
        print(f"latency p50 {ms['p50']} ms, p95 {ms['p95']} ms, p99 {ms['p99']} ms, max {ms['max']} ms")
        print(f"latency p50 by quarter of the run (completion order): {' / '.join(f'{v} ms' for v in ms['p50ByQuarter'])}")
        print(f"latency p50 by tenth: {' / '.join(f'{v}' for v in ms['p50ByTenth'])} ms; last tenth / first: {figures['lastTenthOverFirst']}")
        if peak:
            print(f"server peak RSS (VmHWM) {figures['serverPeakRSSMiB']} MiB (at start {figures['serverRSSAtStartMiB']} MiB)")
        if figures["serverCPUSeconds"] is not None:
            print(f"server CPU {figures['serverCPUSeconds']} s ({1000 * figures['serverCPUSeconds'] / max(1, len(latencies)):.1f} ms per frame)")
        print(f"errors: {len(errors)}")
    for error in errors[:20]:
        log(f"error: {error}")
    if len(errors) > 20:
        log(f"... and {len(errors) - 20} more")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
