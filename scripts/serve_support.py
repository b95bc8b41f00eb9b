"""What the scripts that drive `snapdiff serve` share (scripts/review_page_check.py,
scripts/load_test.py): screenshot-like PNGs drawn with zlib and struct, and a `snapdiff serve`
process on a free loopback port. Python's standard library only."""

import os
import random
import signal
import struct
import subprocess
import zlib


class CannotRun(Exception):
    """A script cannot start: a missing tool, a server that does not come up, bad arguments."""


# MARK: Frames


def png(width, height, rows):
    """An 8-bit RGB PNG of `rows` (bytes of width*3 each), compressed as screenshots usually are."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


def phone_screen(accent, shifted=False, banner=False, width=390, height=844, photo_seed=None):
    """A phone-screen-like frame (390x844; shorter, an element-sized strip): a status bar, a title
    bar, rows of "text", a button in `accent`; `shifted` moves the text block, `banner` adds a
    coloured banner, so different arguments differ in a few areas, like a real UI change. With
    `photo_seed`, a noisy "photo" (the same seed, the same bytes) makes the file weigh what a
    screenshot weighs."""
    rects = [
        (0, 0, width, 44, (246, 248, 250)),  # status bar
        (16, 14, 40, 16, (31, 35, 40)),  # clock
        (16, 60, 180, 24, (31, 35, 40)),  # title
        (0, 100, width, 1, (209, 217, 224)),
    ]
    top = (360 if photo_seed is not None else 140 if height > 300 else 20) + (24 if shifted else 0)
    for line in range(7 if photo_seed is not None else 12):
        rects.append((24, top + line * 34, 300 - (line * 37) % 120, 12, (89, 99, 110)))
    rects.append((24, 620, width - 48, 52, accent))  # the button
    rects.append((150, 638, 90, 16, (255, 255, 255)))  # its label
    if banner:
        rects.append((0, 720, width, 60, (255, 223, 93)))
    generator = random.Random(photo_seed)
    photo_top, photo_height, photo_left, photo_width = 116, 220, 16, width - 32
    background = bytes((255, 255, 255)) * width
    rows = []
    for y in range(height):
        row = bytearray(background)
        if photo_seed is not None and photo_top <= y < photo_top + photo_height:
            # A gradient with a little grain: compresses like a photo, not like flat colour.
            base = bytes(
                min(255, (x * 255 // photo_width + y + c * 40) % 256) for x in range(photo_width) for c in range(3)
            )
            grain = generator.randbytes(photo_width * 3)
            row[photo_left * 3 : (photo_left + photo_width) * 3] = bytes(
                (b + (g & 15)) & 255 for b, g in zip(base, grain)
            )
        for x, top_y, w, h, color in rects:
            if top_y <= y < top_y + h and x < width:
                w = min(w, width - x)  # clipped to the screen, so that every row is width*3 bytes
                row[x * 3 : (x + w) * 3] = bytes(color) * w
        rows.append(bytes(row))
    return png(width, height, rows)


# MARK: The server


class Server:
    """`snapdiff serve` on 127.0.0.1 and a port the kernel picks, over `baselines/` and
    `.snapdiff/` in `workspace`, with `token` and further `arguments`; stopped with SIGTERM (SIGINT is ignored by
    processes started in the background of a non-interactive shell)."""

    def __init__(self, executable, workspace, token, arguments=()):
        environment = dict(os.environ, SNAPDIFF_TOKEN=token)
        environment.pop("CI", None)
        self.log_path = os.path.join(workspace, "serve.log")
        self.log_file = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            # A path is made absolute (the server runs in `workspace`); a bare name is looked up on PATH.
            [os.path.abspath(executable) if os.sep in executable else executable, "serve", "--host", "127.0.0.1", "--port", "0", "--baselines", "baselines", "--data", ".snapdiff", *arguments],
            cwd=workspace,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=self.log_file,
        )
        self.pid = self.process.pid
        # The first line says where it listens: "snapdiff serve: listening on http://127.0.0.1:PORT/ (API: /api/v1)".
        line = self.process.stdout.readline().decode(errors="replace")
        marker = "listening on "
        if marker not in line:
            self.stop()  # first, so that the log holds everything it wrote
            raise CannotRun(f"snapdiff serve did not start: {line.strip() or 'no output'}; {self.errors()}")
        self.url = line.split(marker, 1)[1].split()[0].rstrip("/")

    def errors(self):
        """The end of the server's standard error (also after `stop`, which closes the log)."""
        if not self.log_file.closed:
            self.log_file.flush()
        with open(self.log_path, "rb") as file:
            return file.read()[-2000:].decode(errors="replace")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log_file.close()
