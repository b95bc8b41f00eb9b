#!/usr/bin/env python3
"""Generate a deterministic corpus of screenshot-like PNG pairs for benchmarking.

(The team's benchmark corpus generator, kept here so that scripts/bench.sh runs from a clone alone.)

Each pair <name>-a.png / <name>-b.png looks like an app or web screenshot
(status/nav bars, gradient header, cards with anti-aliased text, icons,
buttons, a photo-like thumbnail area) and differs slightly:

  * a few text (glyph) changes: a price, a counter and a timestamp,
  * one block (a card's thumbnail + caption) shifted right by 1 px,
  * a colour tweak on a button and a badge.

Pairs (name, size, PNG colour type):
  iphone   1170x2532  RGBA   (iPhone-style portrait screenshot)
  fhd      1920x1080  RGB    (desktop browser screenshot)
  4k       3840x2160  RGBA   (4K desktop screenshot)
  fhd-same 1920x1080  RGB    (b is pixel-identical to a: the "test passes" path)

Needs numpy and pillow (pip install numpy pillow). Output is deterministic for a
given Pillow/FreeType version (text uses Pillow's bundled default font).

Usage: python3 make_corpus.py [outdir]   (default: corpus/ beside this script)
"""
import hashlib
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

WORDS = (
    "account balance transfer settings profile notifications privacy search "
    "results order shipped delivered today yesterday update version release "
    "dashboard metrics revenue users active sessions growth weekly monthly "
    "report export share download upload photos library albums recent "
    "favorites messages inbox archive draft sent compose reply forward "
    "schedule meeting calendar reminder tasks complete pending review "
    "payment method card billing address subscription plan premium free"
).split()


def font(px):
    try:
        return ImageFont.load_default(size=px)  # Pillow >= 10.1 with FreeType
    except TypeError:  # very old Pillow: bitmap font, still deterministic
        return ImageFont.load_default()


def sentence(rng, n):
    return " ".join(WORDS[i] for i in rng.integers(0, len(WORDS), n)).capitalize()


def fit(text, f, maxw):
    """Drop trailing words until the text fits in maxw pixels."""
    words = text.split()
    while len(words) > 1 and f.getlength(" ".join(words)) > maxw:
        words.pop()
    return " ".join(words)


def photo(rng, w, h):
    """Smooth low-frequency colour field plus fine noise: compresses like a photo."""
    gw, gh = max(2, w // 40), max(2, h // 40)
    coarse = rng.random((gh, gw, 3)) * 255
    img = Image.fromarray(coarse.astype(np.uint8), "RGB").resize((w, h), Image.BICUBIC)
    arr = np.asarray(img).astype(np.int16)
    arr += rng.integers(-6, 7, (h, w, 3), dtype=np.int16)
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGB")


def render(w, h, variant, seed):
    """Render one screenshot. variant 'a' is the baseline, 'b' the changed one."""
    rng = np.random.default_rng(seed)  # same draws for a and b: only planned edits differ
    s = w / 1170 if h > w else h / 1080  # UI scale factor
    S = lambda v: max(1, int(round(v * s)))  # noqa: E731
    img = Image.new("RGB", (w, h), (242, 242, 247))
    d = ImageDraw.Draw(img)
    f_small, f_body, f_title, f_big = font(S(26)), font(S(32)), font(S(44)), font(S(72))
    b = variant == "b"

    # status bar + gradient header
    d.rectangle([0, 0, w, S(90)], fill=(255, 255, 255))
    d.text((S(40), S(25)), "9:41" if not b else "9:42", font=f_body, fill=(0, 0, 0))  # glyph change
    d.text((w - S(200), S(25)), "5G  87%", font=f_body, fill=(0, 0, 0))
    header_h = S(300) if h > w else S(240)
    grad = np.linspace(0, 1, header_h)[:, None]
    top, bot = np.array([88, 86, 214]), np.array([0, 122, 255])
    band = (top * (1 - grad) + bot * grad).astype(np.uint8)
    img.paste(Image.fromarray(np.repeat(band[:, None, :], w, axis=1).reshape(header_h, w, 3)), (0, S(90)))
    d.text((S(40), S(90) + header_h - S(200)), "Dashboard", font=f_big, fill=(255, 255, 255))
    total = "Total: $12,480.00" if not b else "Total: $12,486.00"  # glyph change
    d.text((S(40), S(90) + header_h - S(90)), total, font=f_title, fill=(255, 255, 255))

    # grid of cards: thumbnail + caption on the left, icon, title, body text on the right
    y = S(90) + header_h + S(40)
    cols = 1 if h > w else 2
    margin = S(40)
    card_w = (w - margin * (cols + 1)) // cols
    card_h = S(360)
    pad = S(28)
    card_idx = 0
    shift_idx, tweak_idx = (2, 3) if cols == 1 else (1, 0)  # cards that exist in both layouts
    rows_of_cards = 0
    while y + card_h < h - S(200) and rows_of_cards < 4:
        rows_of_cards += 1
        for c in range(cols):
            x = margin + c * (card_w + margin)
            # soft shadow, then rounded card
            d.rounded_rectangle([x + S(4), y + S(6), x + card_w + S(4), y + card_h + S(6)], radius=S(28), fill=(225, 225, 232))
            d.rounded_rectangle([x, y, x + card_w, y + card_h], radius=S(28), fill=(255, 255, 255))
            # thumbnail + caption; one card's block is shifted 1px right in variant b
            shift = 1 if (b and card_idx == shift_idx) else 0
            tw = th = card_h - 2 * pad - S(50)
            img.paste(photo(rng, tw, th), (x + pad + shift, y + pad))
            d.text((x + pad + shift, y + pad + th + S(12)), f"IMG_{1000 + card_idx}.HEIC", font=f_small, fill=(110, 110, 115))
            # icon circle + title + body text (anti-aliased), truncated to the card
            cx = x + pad + tw + S(30)
            maxw = x + card_w - pad - cx
            d.ellipse([cx, y + pad, cx + S(56), y + pad + S(56)], fill=(52, 199, 89))
            d.text((cx + S(72), y + pad + S(4)), fit(sentence(rng, 3), f_title, maxw - S(72)), font=f_title, fill=(0, 0, 0))
            for line in range(3):
                d.text((cx, y + pad + S(80) + line * S(44)), fit(sentence(rng, 5), f_body, maxw), font=f_body, fill=(60, 60, 67))
            count = f"{int(rng.integers(1, 99))} new"
            if b and card_idx == 1:
                count = count.replace("new", "now")  # glyph change
            d.text((cx, y + card_h - pad - S(44)), count, font=f_small, fill=(142, 142, 147))
            # button; colour tweak on one card in variant b
            btn = (0, 122, 255) if not (b and card_idx == tweak_idx) else (10, 132, 255)
            bx = x + card_w - pad - S(170)
            d.rounded_rectangle([bx, y + card_h - pad - S(60), bx + S(170), y + card_h - pad], radius=S(30), fill=btn)
            d.text((bx + S(40), y + card_h - pad - S(50)), "Open", font=f_body, fill=(255, 255, 255))
            card_idx += 1
        y += card_h + margin

    # dense list section (settings / table rows) filling the rest of the page
    row_h = S(64)
    row = 0
    while y + row_h < h - S(190):
        d.rectangle([margin, y, w - margin, y + row_h], fill=(255, 255, 255))
        label = fit(sentence(rng, 6), f_body, (w - 2 * margin) * 0.6)
        value = f"{int(rng.integers(0, 10000)):,}"
        if b and row == 2:
            value = value + "1"  # glyph change in a table cell
        d.text((margin + pad, y + S(14)), label, font=f_body, fill=(0, 0, 0))
        d.text((w - margin - pad - int(f_body.getlength(value)), y + S(14)), value, font=f_body, fill=(142, 142, 147))
        d.line([margin + pad, y + row_h - 1, w - margin, y + row_h - 1], fill=(220, 220, 224), width=1)
        y += row_h
        row += 1

    # tab bar with a badge (colour tweak in b)
    d.rectangle([0, h - S(170), w, h], fill=(249, 249, 249))
    d.line([0, h - S(170), w, h - S(170)], fill=(200, 200, 204), width=max(1, S(2)))
    tabs = 4 if h > w else 6
    for i in range(tabs):
        tx = int((i + 0.5) * w / tabs)
        d.ellipse([tx - S(26), h - S(140), tx + S(26), h - S(88)], outline=(142, 142, 147), width=S(4))
        d.text((tx - S(40), h - S(70)), WORDS[i].capitalize()[:7], font=f_small, fill=(142, 142, 147))
    badge = (255, 59, 48) if not b else (255, 69, 58)
    d.ellipse([int(1.5 * w / tabs) + S(10), h - S(150), int(1.5 * w / tabs) + S(44), h - S(116)], fill=badge)
    return img


PAIRS = [
    ("iphone", 1170, 2532, "RGBA", True),
    ("fhd", 1920, 1080, "RGB", True),
    ("4k", 3840, 2160, "RGBA", True),
    ("fhd-same", 1920, 1080, "RGB", False),
]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    os.makedirs(out, exist_ok=True)
    for name, w, h, mode, differs in PAIRS:
        seed = 20240 + w + h
        a = render(w, h, "a", seed).convert(mode)
        b = render(w, h, "b" if differs else "a", seed).convert(mode)
        for tag, im in (("a", a), ("b", b)):
            p = os.path.join(out, f"{name}-{tag}.png")
            im.save(p, format="PNG")  # Pillow defaults: zlib level 6, no optimize
            digest = hashlib.sha256(open(p, "rb").read()).hexdigest()[:12]
            print(f"{p}\t{w}x{h}\t{mode}\t{os.path.getsize(p)} bytes\tsha256:{digest}")
        na, nb = np.asarray(a), np.asarray(b)
        exact = int((na != nb).any(axis=-1).sum())
        print(f"  {name}: exact mismatched pixels = {exact}")


if __name__ == "__main__":
    main()
