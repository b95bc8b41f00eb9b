#!/usr/bin/env python3
"""Make the colour-management fixtures in Tests/SnapdiffCoreTests/Fixtures/color/.

  display-p3.icc     a Display P3 ICC profile (P3 primaries, D65, the sRGB curve) built with
                     LittleCMS's cmsCreateRGBProfile, described "Display P3"
  screen-srgb.png    a 48x32 screen of flat colours (iOS blue, red, green, gray ramp): untagged
  screen-p3.png      the same colours converted to Display P3 by LittleCMS (relative
                     colorimetric) and tagged with the profile in an iCCP chunk, as Apple
                     platforms write screenshots: other bytes, the same colours

Needs only Python and liblcms2 (Debian: liblcms2-2, called through ctypes). Deterministic.
Usage: python3 scripts/make_color_fixtures.py [outdir]
"""
import ctypes
import os
import struct
import sys
import zlib

lcms = ctypes.CDLL("liblcms2.so.2")
lcms.cmsCreate_sRGBProfile.restype = ctypes.c_void_p
lcms.cmsBuildParametricToneCurve.restype = ctypes.c_void_p
lcms.cmsBuildParametricToneCurve.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
lcms.cmsCreateRGBProfile.restype = ctypes.c_void_p
lcms.cmsMLUalloc.restype = ctypes.c_void_p
lcms.cmsMLUsetASCII.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
lcms.cmsWriteTag.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p]
lcms.cmsSaveProfileToMem.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]
lcms.cmsCreateTransform.restype = ctypes.c_void_p
lcms.cmsCreateTransform.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32,
                                    ctypes.c_uint32, ctypes.c_uint32]
lcms.cmsDoTransform.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32]
lcms.cmsSetProfileVersion.argtypes = [ctypes.c_void_p, ctypes.c_double]
lcms.cmsSetHeaderFlags.argtypes = [ctypes.c_void_p, ctypes.c_uint32]


class xyY(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]


TYPE_RGB_8 = (4 << 16) | (3 << 3) | 1  # COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | BYTES_SH(1)
INTENT_RELATIVE_COLORIMETRIC = 1
SIG_DESCRIPTION = 0x64657363  # 'desc'


def display_p3():
    params = (ctypes.c_double * 5)(2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)
    curve = lcms.cmsBuildParametricToneCurve(None, 4, params)  # the sRGB curve
    white = xyY(0.3127, 0.3290, 1.0)
    primaries = (xyY * 3)(xyY(0.680, 0.320, 1.0), xyY(0.265, 0.690, 1.0), xyY(0.150, 0.060, 1.0))
    curves = (ctypes.c_void_p * 3)(curve, curve, curve)
    profile = lcms.cmsCreateRGBProfile(ctypes.byref(white), primaries, curves)
    lcms.cmsSetProfileVersion(ctypes.c_void_p(profile), 4.3)
    mlu = lcms.cmsMLUalloc(None, 1)
    lcms.cmsMLUsetASCII(mlu, b"en", b"US", b"Display P3")
    lcms.cmsWriteTag(profile, SIG_DESCRIPTION, mlu)
    size = ctypes.c_uint32(0)
    lcms.cmsSaveProfileToMem(profile, None, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    lcms.cmsSaveProfileToMem(profile, buffer, ctypes.byref(size))
    return profile, buffer.raw[: size.value]


def screen():
    """48x32 RGB rows: flat patches of 8x16 and a gray ramp."""
    colours = [(0x00, 0x7A, 0xFF), (0xFF, 0x3B, 0x30), (0x34, 0xC7, 0x59), (0xFF, 0xCC, 0x00),
               (0x8E, 0x8E, 0x93), (0xFF, 0xFF, 0xFF)]
    rows = []
    for y in range(32):
        row = bytearray()
        for x in range(48):
            if y < 16:
                row += bytes(colours[x // 8])
            else:
                v = (x * 255) // 47
                row += bytes((v, v, v))
        rows.append(bytes(row))
    return rows


def png(rows, width, extra_chunks):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, len(rows), 8, 2, 0, 0, 0)
    raw = b"".join(b"\x00" + r for r in rows)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
    for kind, data in extra_chunks:
        out += chunk(kind, data)
    return out + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "Tests", "SnapdiffCoreTests", "Fixtures", "color")
    os.makedirs(out, exist_ok=True)
    p3, icc = display_p3()
    srgb = lcms.cmsCreate_sRGBProfile()
    transform = lcms.cmsCreateTransform(srgb, TYPE_RGB_8, p3, TYPE_RGB_8, INTENT_RELATIVE_COLORIMETRIC, 0)
    rows = screen()
    p3_rows = []
    for row in rows:
        converted = ctypes.create_string_buffer(len(row))
        lcms.cmsDoTransform(transform, row, converted, len(row) // 3)
        p3_rows.append(converted.raw)
    with open(os.path.join(out, "display-p3.icc"), "wb") as f:
        f.write(icc)
    with open(os.path.join(out, "screen-srgb.png"), "wb") as f:
        f.write(png(rows, 48, []))
    iccp = b"Display P3\x00\x00" + zlib.compress(icc, 9)
    with open(os.path.join(out, "screen-p3.png"), "wb") as f:
        f.write(png(p3_rows, 48, [(b"iCCP", iccp)]))
    changed = sum(a != b for r1, r2 in zip(rows, p3_rows) for a, b in zip(r1, r2))
    print(f"{out}: display-p3.icc {len(icc)} bytes; {changed} of {48 * 32 * 3} samples differ between the twins")


if __name__ == "__main__":
    main()
