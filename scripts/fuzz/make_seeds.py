#!/usr/bin/env python3
"""Writes seeds for the fuzzers. `png`: small PNG files: every colour type and bit depth, interlaced or not,
every row filter, the image data split over several IDAT chunks, tRNS, gAMA, text chunks, and a
file without IEND. Fixture screenshots are large; these give libFuzzer short inputs that reach
every branch of the decoder (the fast path's unfilters, libpng's expansions) from the start.

`diff`: inputs for fuzz-diff (a control byte, sizes, options, then pixels): flat screens with an
edge and a changed block, under every match level and flag combination.

usage: make_seeds.py png|diff OUT_DIR
"""
import os
import struct
import sys
import zlib

DEPTHS = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
PASSES = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(samples, depth):
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc, bits = acc << depth | s, bits + depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def filter_row(row, prior, bpp, kind):
    out = bytearray()
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = prior[i] if prior else 0
        c = prior[i - bpp] if prior and i >= bpp else 0
        if kind == 0:
            p = 0
        elif kind == 1:
            p = a
        elif kind == 2:
            p = b
        elif kind == 3:
            p = (a + b) // 2
        else:
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
        out.append((x - p) & 0xFF)
    return bytes([kind]) + bytes(out)


def png(width, height, color, depth, interlaced=False, filters=(0,), trns=None, gama=False,
        idat_parts=1, end=True, text=False, level=6):
    channels = CHANNELS[color]
    bpp = max(1, channels * depth // 8)
    top = (1 << depth) - 1

    def sample(x, y, c):
        return ((x * 37 + y * 91 + c * 53) * 7919) % (top + 1) if color != 3 else (x + y * width) % min(top + 1, 16)

    raw = bytearray()
    passes = PASSES if interlaced else [(0, 0, 1, 1)]
    row_index = 0
    for x0, y0, dx, dy in passes:
        xs = list(range(x0, width, dx))
        if not xs:
            continue
        prior = None
        for y in range(y0, height, dy):
            row = pack_row([sample(x, y, c) for x in xs for c in range(channels)], depth)
            raw += filter_row(row, prior, bpp, filters[row_index % len(filters)])
            prior = row
            row_index += 1
    data = zlib.compress(bytes(raw), level)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, int(interlaced)))
    if gama:
        out += chunk(b"gAMA", struct.pack(">I", 45455))
    if text:
        out += chunk(b"tEXt", b"Comment\x00fuzz seed")
    if color == 3:
        out += chunk(b"PLTE", bytes(v for i in range(16) for v in (i * 16, 255 - i * 16, i * 7)))
    if trns is not None:
        out += chunk(b"tRNS", trns)
    step = max(1, -(-len(data) // idat_parts))
    for i in range(0, len(data), step):
        out += chunk(b"IDAT", data[i:i + step])
    if end:
        out += chunk(b"IEND", b"")
    return out


def diff_seeds():
    seeds = {}
    for control in range(0, 64, 3):
        size = 12
        head = bytes([control, size, size, size, size])  # sizes (the current's only when they differ)
        head += bytes([26, 25, 0, 0, control % 3])  # threshold, alpha, max pixels, max ratio, regions
        head += bytes([1, 2, 3, 4, 0, 5, 14, 6])[: 4 * (control % 3)]
        pixels = bytearray()
        for y in range(size):
            for x in range(size):
                v = 255 if x < 6 else 40 + 10 * y  # an edge, then a gradient
                pixels += bytes([v, v, 255 - v, 255])
        current = bytearray()
        for y in range(size):
            for x in range(size):
                if 3 <= x < 8 and 4 <= y < 7:
                    current += bytes([200]) + bytes([x * 20, y * 20, 90, 255 if control & 8 else 128])
                else:
                    current += bytes([0])  # copy the baseline's pixel
        seeds[f"diff-{control:02d}"] = head + bytes(pixels) + bytes(current)
    return seeds


def main():
    mode, folder = sys.argv[1], sys.argv[2]
    os.makedirs(folder, exist_ok=True)
    if mode == "diff":
        for name, data in diff_seeds().items():
            with open(os.path.join(folder, name + ".bin"), "wb") as f:
                f.write(data)
        return
    seeds = {}
    for color, depths in DEPTHS.items():
        for depth in depths:
            for interlaced in (False, True):
                seeds[f"c{color}-d{depth}{'-i' if interlaced else ''}"] = png(5, 4, color, depth, interlaced)
    for kind in range(5):
        for color in (2, 6):
            seeds[f"filter{kind}-c{color}"] = png(9, 5, color, 8, filters=(kind,))
    seeds["filters-mixed-rgb"] = png(17, 9, 2, 8, filters=(0, 1, 2, 3, 4))
    seeds["filters-mixed-rgba"] = png(17, 9, 6, 8, filters=(4, 3, 2, 1, 0))
    seeds["split-idat-rgb"] = png(16, 8, 2, 8, filters=(4, 1), idat_parts=5)
    seeds["split-idat-rgba-stored"] = png(8, 8, 6, 8, idat_parts=7, level=0)
    seeds["no-iend"] = png(6, 6, 6, 8, end=False)
    seeds["gama-text"] = png(4, 4, 2, 8, gama=True, text=True)
    seeds["palette-trns"] = png(6, 3, 3, 4, trns=bytes(range(0, 256, 32)))
    seeds["gray-trns"] = png(6, 3, 0, 8, trns=struct.pack(">H", 7))
    seeds["rgb-trns"] = png(6, 3, 2, 8, trns=struct.pack(">HHH", 1, 2, 3))
    seeds["wide-row"] = png(300, 2, 2, 8, filters=(4, 3))
    seeds["tall"] = png(1, 300, 6, 8, filters=(2,))
    for name, data in seeds.items():
        with open(os.path.join(folder, name + ".png"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
