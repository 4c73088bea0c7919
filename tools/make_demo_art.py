"""Draw the artwork of content/demo-artwork (run by hand; the files it writes are committed).

The demo game shows pnpgen's artwork features with pictures anyone may reuse: everything here
is drawn from code (no third-party art), so the pictures carry no licence of their own. Run
``python tools/make_demo_art.py`` to draw them again; the output is deterministic.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw

ART = Path(__file__).resolve().parents[1] / "content" / "demo-artwork" / "art"
DPI = 300
MM = DPI / 25.4


def paper(w_mm: float, h_mm: float, path: Path) -> None:
    """A warm paper texture with a soft vignette and faint ruled lines, full bleed at 300 dpi."""
    w, h = round(w_mm * MM), round(h_mm * MM)
    img = Image.new("RGB", (w, h))
    px = img.load()
    cx, cy = w / 2, h / 2
    reach = math.hypot(cx, cy)
    for y in range(h):
        for x in range(w):
            d = math.hypot(x - cx, y - cy) / reach
            shade = 1.0 - 0.16 * d * d
            grain = 0.012 * math.sin(x * 0.9 + y * 0.35) * math.sin(y * 0.21)
            k = shade + grain
            px[x, y] = (round(246 * k), round(236 * k), round(210 * k))
    draw = ImageDraw.Draw(img)
    for i in range(-h, w, round(4 * MM)):
        draw.line([(i, 0), (i + h, h)], fill=(236, 222, 190), width=2)
    img.save(path, optimize=True)


LANTERN = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
  <path d="M38 14 L62 14 L58 8 L42 8 Z" fill="#3b2a1a"/>
  <rect x="47" y="2" width="6" height="7" rx="2" fill="#3b2a1a"/>
  <path d="M30 20 L70 20 L66 80 L34 80 Z" fill="#f6c344" stroke="#3b2a1a" stroke-width="5" stroke-linejoin="round"/>
  <path d="M50 34 C58 46 58 56 50 64 C42 56 42 46 50 34 Z" fill="#e0572a"/>
  <line x1="50" y1="20" x2="50" y2="80" stroke="#3b2a1a" stroke-width="3"/>
  <rect x="28" y="80" width="44" height="10" rx="3" fill="#3b2a1a"/>
</svg>
"""


def back(path: Path) -> None:
    """The deck backs' picture: a lantern over three waves, in vectors."""
    waves = "".join(
        f'<path d="M0 {y} q12.5 -8 25 0 t25 0 t25 0 t25 0" fill="none" stroke="#9fd3e6" '
        f'stroke-width="3" opacity="{o}"/>' for y, o in ((118, 0.9), (128, 0.7), (138, 0.5)))
    lantern = LANTERN.split("\n", 1)[1].rsplit("</svg>", 1)[0]
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 150" width="100" height="150">\n'
        '  <circle cx="50" cy="62" r="44" fill="#f6c344" opacity="0.25"/>\n'
        f'  <g transform="translate(15 22) scale(0.7)">{lantern}</g>\n'
        f'  {waves}\n</svg>\n', encoding="utf-8")


def island(path: Path, w: float, h: float) -> None:
    """The board: sea, an island that holds every city, hills, in board millimetres."""
    coast = [(40, 50), (150, 30), (260, 45), (360, 40), (455, 95), (470, 180), (460, 300),
             (390, 345), (300, 360), (200, 355), (100, 330), (45, 260), (35, 150)]
    d = "M" + " ".join(f"{x},{y}" for x, y in coast) + " Z"
    hills = "".join(
        f'<path d="M{x} {y} l9 -12 l9 12 Z" fill="#b9c98f" stroke="#8da064" stroke-width="0.8"/>'
        for x, y in ((150, 120), (165, 125), (390, 215), (402, 210), (70, 230), (250, 215)))
    path.write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}mm" height="{h}mm">\n'
        f'  <rect width="{w}" height="{h}" fill="#cfe8f1"/>\n'
        f'  <path d="{d}" fill="#e9e2c2" stroke="#9fc7d6" stroke-width="8" stroke-linejoin="round"/>\n'
        f'  <path d="{d}" fill="#eee6c4" stroke="#7f6a4a" stroke-width="1.2" stroke-linejoin="round"/>\n'
        f'  {hills}\n</svg>\n', encoding="utf-8")


def river(path: Path, w: float, h: float) -> None:
    """An overlay: the river that crosses the island, drawn under the routes."""
    path.write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}mm" height="{h}mm">\n'
        '  <path d="M150 32 C170 110 140 160 175 215 S250 300 240 358" fill="none" stroke="#8cc6dc" '
        'stroke-width="5" stroke-linecap="round"/>\n</svg>\n', encoding="utf-8")


def main() -> int:
    ART.mkdir(parents=True, exist_ok=True)
    paper(50, 74, ART / "card-paper.png")
    (ART / "lantern.svg").write_text(LANTERN, encoding="utf-8")
    back(ART / "back.svg")
    island(ART / "island.svg", 500, 380)
    river(ART / "river.svg", 500, 380)
    print(f"wrote the artwork into {ART}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
