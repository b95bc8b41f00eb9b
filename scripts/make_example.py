#!/usr/bin/env python3
"""Draws the example pair in examples/: a phone login screen (baseline) and the same screen after
a change (current): the button's colour, a moved label and a new badge count.

Pure Python (zlib + struct), so it runs anywhere; the output is deterministic.
Usage: python3 scripts/make_example.py [outdir]   (default: examples/)
"""
import os
import struct
import sys
import zlib

W, H = 390, 844

# A 5x7 bitmap font: enough glyphs for the example's words.
FONT = {
    "A": "01110 10001 10001 11111 10001 10001 10001", "B": "11110 10001 11110 10001 10001 10001 11110",
    "C": "01111 10000 10000 10000 10000 10000 01111", "D": "11110 10001 10001 10001 10001 10001 11110",
    "E": "11111 10000 11110 10000 10000 10000 11111", "F": "11111 10000 11110 10000 10000 10000 10000",
    "G": "01111 10000 10000 10111 10001 10001 01111", "H": "10001 10001 11111 10001 10001 10001 10001",
    "I": "11111 00100 00100 00100 00100 00100 11111", "K": "10001 10010 11100 10010 10001 10001 10001",
    "L": "10000 10000 10000 10000 10000 10000 11111", "M": "10001 11011 10101 10001 10001 10001 10001",
    "N": "10001 11001 10101 10011 10001 10001 10001", "O": "01110 10001 10001 10001 10001 10001 01110",
    "P": "11110 10001 11110 10000 10000 10000 10000", "R": "11110 10001 11110 10100 10010 10001 10001",
    "S": "01111 10000 01110 00001 00001 00001 11110", "T": "11111 00100 00100 00100 00100 00100 00100",
    "U": "10001 10001 10001 10001 10001 10001 01110", "W": "10001 10001 10001 10101 10101 11011 10001",
    "Y": "10001 01010 00100 00100 00100 00100 00100", "0": "01110 10011 10101 11001 10001 10001 01110",
    "1": "00100 01100 00100 00100 00100 00100 01110", "2": "01110 10001 00010 00100 01000 10000 11111",
    "3": "11110 00001 01110 00001 00001 00001 11110", "4": "10010 10010 11111 00010 00010 00010 00010",
    "5": "11111 10000 11110 00001 00001 10001 01110", "9": "01110 10001 01111 00001 00001 00001 01110",
    "X": "10001 01010 00100 00100 00100 01010 10001",
    ":": "00000 00100 00000 00000 00100 00000 00000", "@": "01110 10001 10111 10101 10111 10000 01110",
    ".": "00000 00000 00000 00000 00000 00000 00100", " ": "00000 00000 00000 00000 00000 00000 00000",
}


class Canvas:
    def __init__(self, w, h, color):
        self.w, self.h = w, h
        self.px = bytearray(bytes(color) * (w * h))

    def blend(self, x, y, color, coverage):
        if not (0 <= x < self.w and 0 <= y < self.h) or coverage <= 0:
            return
        i = (y * self.w + x) * 3
        for c in range(3):
            self.px[i + c] = round(self.px[i + c] * (1 - coverage) + color[c] * coverage)

    def rect(self, x, y, w, h, color, radius=0):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                # Distance outside the rounded corner, for an anti-aliased edge.
                cx = min(max(xx + 0.5, x + radius), x + w - radius)
                cy = min(max(yy + 0.5, y + radius), y + h - radius)
                d = ((xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2) ** 0.5 - radius if radius else -1
                self.blend(xx, yy, color, min(1.0, max(0.0, 0.5 - d)))

    def text(self, x, y, s, color, scale=2):
        for ch in s.upper():
            rows = FONT.get(ch, FONT[" "]).split()
            for r, row in enumerate(rows):
                for c, bit in enumerate(row):
                    if bit == "1":
                        self.rect(x + c * scale, y + r * scale, scale, scale, color)
            x += 6 * scale

    def png(self, path):
        raw = b"".join(b"\0" + bytes(self.px[y * self.w * 3:(y + 1) * self.w * 3]) for y in range(self.h))

        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0))
                    + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def screen(changed):
    c = Canvas(W, H, (246, 247, 250))
    c.rect(0, 0, W, 44, (255, 255, 255))
    c.text(24, 16, "9:41", (20, 20, 20))
    c.rect(330, 18, 36, 12, (20, 20, 20), radius=3)
    c.rect(0, 44, W, 56, (255, 255, 255))
    c.text(150, 64, "SIGN IN", (20, 20, 20))
    c.rect(0, 100, W, 1, (220, 222, 228))
    c.rect(135, 150, 120, 120, (90, 110, 240), radius=60)
    c.text(168, 200, "SNAP", (255, 255, 255))
    c.text(24, 320 + (3 if changed else 0), "EMAIL", (110, 115, 125))
    c.rect(24, 345, W - 48, 48, (255, 255, 255), radius=10)
    c.text(40, 362, "ANNA@EXAMPLE.COM", (30, 30, 30))
    c.text(24, 415, "PASSWORD", (110, 115, 125))
    c.rect(24, 440, W - 48, 48, (255, 255, 255), radius=10)
    c.text(40, 457, "..........", (30, 30, 30))
    button = (236, 72, 88) if changed else (52, 120, 246)
    c.rect(24, 520, W - 48, 52, button, radius=26)
    c.text(159, 540, "LOG IN", (255, 255, 255))
    c.text(110, 600, "FORGOT PASSWORD", (52, 120, 246))
    c.rect(0, 760, W, 84, (255, 255, 255))
    c.rect(0, 760, W, 1, (220, 222, 228))
    for i, label in enumerate(["HOME", "SEARCH", "INBOX", "ME"]):
        c.rect(40 + i * 95, 775, 24, 24, (150, 155, 165), radius=6)
        c.text(30 + i * 95, 808, label, (150, 155, 165), scale=1)
    c.rect(238, 768, 18, 18, (236, 72, 88), radius=9)
    c.text(244, 773, "3" if changed else "2", (255, 255, 255), scale=1)
    return c


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "examples")
    os.makedirs(out, exist_ok=True)
    screen(False).png(os.path.join(out, "login-baseline.png"))
    screen(True).png(os.path.join(out, "login-current.png"))


if __name__ == "__main__":
    main()
