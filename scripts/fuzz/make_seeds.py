#!/usr/bin/env python3
"""Writes seeds for the fuzzers. `png`: small PNG files: every colour type and bit depth, interlaced or not,
every row filter, the image data split over several IDAT chunks, tRNS, gAMA, text chunks, and a
file without IEND. Fixture screenshots are large; these give libFuzzer short inputs that reach
every branch of the decoder (the fast path's unfilters, libpng's expansions) from the start.

`diff`: inputs for fuzz-diff (a control byte, sizes, options, then pixels): flat screens with an
edge and a changed block, under every match level and flag combination.

`request`: inputs for fuzz-request (a digit picking the decoder, then its input): multipart bodies
as the server tests post them (frame, tree and settings parts; quoted boundaries, a preamble and
an epilogue, escaped file names, and the malformed ones ErrorTests sends), settings, open-run and
approve JSON bodies, snapshot key paths, upload bodies.

`levels`: inputs for fuzz-levels: a small frame with a word in a static text's box, under each tree
mode, the word moved or relabelled.

usage: make_seeds.py png|diff|levels|request OUT_DIR
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


def levels_seeds():
    """Inputs for fuzz-levels (scripts/fuzz/harness/fuzz-levels.swift reads them): a 24×24 frame at
    scale 2, white with a dark word inside a static text's frame and a button, under each tree
    mode (none, the baseline's only, both, the current's changed), the current image the same,
    its word's pixels moved or recoloured."""
    seeds = {}
    for mode in range(4):
        for variant in range(3):
            control = mode << 2  # the same size; anti-aliasing not counted
            head = bytes([control, 24, 24, 1, 32])  # width, height, scale 2, ΔE00 2.0
            # Two elements: a staticText "Total" (1, 1) 7.75×4 points; a button "A" (0, 7.75)
            # 12×4 points. Each: type, label, value flag, x, y, width, height, nested.
            head += bytes([2, 0, 3, 0, 3, 3, 9, 7, 0, 1, 1, 0, 0, 9, 11, 7, 0])
            # The current tree: the text relabelled ("AB") in the last variant, else the same.
            head += bytes([170, 2, 0]) if variant == 2 else bytes([0, 0])
            pixels = bytearray()
            for y in range(24):
                for x in range(24):
                    ink = 3 <= x < 15 and 3 <= y < 9 and (x + y) % 3 != 0
                    pixels += bytes([30, 30, 32, 255]) if ink else bytes([255, 255, 255, 255])
            current = bytearray()
            for y in range(24):
                for x in range(24):
                    ink = 4 <= x < 16 and 3 <= y < 9 and (x + y + 1) % 3 != 0
                    if variant == 1 and 3 <= x < 16 and 3 <= y < 9:
                        current += bytes([200]) + (bytes([30, 30, 32, 255]) if ink else bytes([255, 255, 255, 255]))
                    else:
                        current += bytes([0])  # copy the baseline's pixel
            seeds[f"levels-{mode}-{variant}"] = head + bytes(pixels) + bytes(current)
    return seeds


TREE = (b'{"scale": 1, "screen": {"width": 40, "height": 20},'
        b' "root": {"identifier": "app", "elementType": "application", "frame": {"x": 0, "y": 0, "width": 40, "height": 20},'
        b' "children": ['
        b'{"identifier": "clock", "elementType": "staticText", "label": "9:41", "frame": {"x": 0, "y": 0, "width": 10, "height": 6}},'
        b' {"identifier": "loginButton", "elementType": "button", "label": "Log in", "frame": {"x": 20, "y": 8, "width": 12, "height": 8}}'
        b']}}')

SETTINGS = [
    b'{"threshold": 0.05, "maxDiffPixels": 10, "ignoreRegions": [{"x": 0, "y": 0, "width": 390, "height": 44}]}',
    b'{"ignoreElements": ["clock"]}',
    b'{"ignoreElements": ["clock", "~banner", "@image", "@staticText:clock", "alert/okButton", "@alert/@button"]}',
    b'{"matchLevel": "layout", "layoutTolerance": 2}',
    b'{"matchLevel": "ignore-colors", "includeAA": true, "maxDiffRatio": 0.5}',
    b'{"matchLevel": "exact", "ignoreRegions": [{"x": -9223372036854775808, "y": 0, "width": 9223372036854775807, "height": 1}]}',
    b'{"threshold": 7}',
    b'{"ignoreElements": ["@nosuchtype"]}',
    b'{"maxDiffPixels": -1, "layoutTolerance": -3}',
    b'{"threshold": 1e999}',
    b'{}',
]


def multipart(parts, boundary=b"snapdiff-test-boundary-1234", preamble=b"", epilogue=b""):
    """A body as Tests/SnapdiffServerTests/Support/ServerFixture.swift's `Multipart` writes it."""
    body = preamble
    for name, data, filename, content_type in parts:
        head = b"--" + boundary + b'\r\nContent-Disposition: form-data; name="' + name + b'"'
        if filename is not None:
            head += b'; filename="' + filename + b'"'
        head += b"\r\nContent-Type: " + content_type + b"\r\n\r\n"
        body += head + data + b"\r\n"
    return body + b"--" + boundary + b"--\r\n" + epilogue


def request_seeds():
    frame = png(4, 3, 6, 8)
    seeds = {}

    def form(name, content_type, body):
        seeds["multipart-" + name] = b"0" + content_type + b"\n" + body

    ct = b"multipart/form-data; boundary=snapdiff-test-boundary-1234"
    full = [(b"frame", frame, b"Home.png", b"image/png"), (b"tree", TREE, None, b"application/json"),
            (b"settings", SETTINGS[1], None, b"application/json")]
    form("frame-tree-settings", ct, multipart(full))
    form("frame", ct, multipart(full[:1]))
    form("tree-layout", ct, multipart(full[1:2] + [(b"settings", SETTINGS[3], None, b"application/json")]))
    form("quoted-preamble-epilogue", b'multipart/form-data; boundary="snapdiff-test-boundary-1234"',
         multipart([(b"frame", frame, b'a \\"quoted\\" name.png', b"image/png")],
                   preamble=b"a preamble\r\n", epilogue=b"an epilogue"))
    form("unknown-part", ct, multipart(full[:1] + [(b"image", frame, None, b"image/png")]))
    form("twice", ct, multipart(full[:1] * 2))
    form("settings-only", ct, multipart([(b"settings", b"{}", None, b"application/json")]))
    form("bad-settings", ct, multipart(full[:1] + [(b"settings", SETTINGS[6], None, b"application/json")]))
    form("bad-selector", ct, multipart(full[:1] + [(b"settings", SETTINGS[7], None, b"application/json")]))
    form("no-boundary", b"multipart/form-data", frame)
    form("wrong-boundary", b"multipart/form-data; boundary=b", b"--other\r\n\r\nx\r\n--other--")
    form("unclosed", b"multipart/form-data; boundary=b",
         b'--b\r\nContent-Disposition: form-data; name="frame"\r\n\r\n' + frame)
    form("no-name", b"multipart/form-data; boundary=b", b"--b\r\nContent-Type: image/png\r\n\r\nx\r\n--b--\r\n")
    form("padding-case-unquoted", b"Multipart/Form-Data ; charset=utf-8; BOUNDARY = b",
         b"--b \t\r\ncontent-disposition: FORM-DATA ; name=frame; filename=a.png\r\nX-Other: y\r\n\r\n"
         + frame + b"\r\n--b\t\r\nContent-Disposition: form-data; name=\"tree\"\r\n\r\n" + TREE + b"\r\n--b--")
    form("empty-parts", b"multipart/form-data; boundary=b", b"--b--")
    form("long-boundary", b"multipart/form-data; boundary=" + b"-" * 70,
         multipart(full[:1], boundary=b"-" * 70))
    form("short-boundary", b"multipart/form-data; boundary=b", multipart(full[:2], boundary=b"b"))
    for index, settings in enumerate(SETTINGS):
        seeds[f"settings-{index:02d}"] = b"1" + settings
    for index, body in enumerate([
        b'{"name": "nightly", "branch": "main", "environment": "iPhone15"}',
        b'{"name": "pr-42", "recordMode": "missing"}',
        b'{"name": "x", "recordMode": "all", "environment": "iPhone15-iOS17@3x"}',
        b'{"name": "x", "recordMode": "failed", "branch": null}',
        b'{"name": "x", "recordMode": "never", "environment": ".."}',
        b'{"name": "", "branch": "a\\u0000b"}',
        b'{"name": "x", "environment": "a/b"}',
        b'{"name": 7}',
        b'{"branch": "main"}',
        b'[]',
    ]):
        seeds[f"open-run-{index:02d}"] = b"2" + body
    for index, body in enumerate([
        b'{"all": true}', b'{"failed": true}', b'{"new": true}', b'{"all": true, "dryRun": true}',
        b'{"sameAs": "Home - test_search/Home"}', b'{"sameAs": "Login - test_login/Login"}',
        b'{"keys": ["Home*", "Login - test_login/Login"]}', b'{"keys": ["*"]}',
        b'{"keys": ["Caf\\u00e9/Menu"]}', b'{"keys": ["Profile - test_profile/Profile"]}',
        b'{"keys": ["?/b/*", "nothing"]}', b'{}', b'{"keys": "Home"}',
    ]):
        seeds[f"review-{index:02d}"] = b"3" + body
    for index, path in enumerate([
        b"Home%20-%20test_search%2FHome", b"Home%20-%20test_search/Home", b"Home - test_search/Home/diff.png",
        b"a%2Fb/baseline.png", b"a/b/approve", b"a/b/reject", b"..%2Fx", b"%2E%2E/x", b"a/./b", b"a//b",
        b"a%00b", b"a%5Cb", b"%ZZ", b"%C3", b"Caf%C3%A9/Menu", b"Cafe%CC%81/Menu", b"Caf\xc3\xa9/Menu",
        b"/abs", b"trailing/", b"x" * 251 + b"/y",
    ]):
        seeds[f"key-{index:02d}"] = b"4" + path
    for index, body in enumerate([b"\x03\x02hello world", b"\x00\x01", b"\x01\x01x", b"\x02\x05" + frame,
                                  b"\x04\xff" + frame * 8]):
        seeds[f"upload-{index:02d}"] = b"5" + body
    return seeds


def main():
    mode, folder = sys.argv[1], sys.argv[2]
    os.makedirs(folder, exist_ok=True)
    if mode in ("diff", "levels", "request"):
        made = {"diff": diff_seeds, "levels": levels_seeds, "request": request_seeds}[mode]()
        for name, data in made.items():
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
