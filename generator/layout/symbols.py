"""Colour symbols: a small, distinct shape per train colour, so colour is never the only cue.

About one in twelve men cannot tell red from green, or pink from gray (Machado, Oliveira & Fernandes
2009 model what they see: ``generator.check.colours``). Each train colour of a game may name a shape
(``symbol:`` in its palette entry); the train cards print it in two corners and every train space of
a route of that colour prints it too. The shapes are plain filled outlines that stay apart at 3–4 mm:
no two are a turn of each other (a square turned 45° would be a diamond: shapes are drawn upright).

Each is drawn centred on (0, 0) in a square of side ``size`` mm, filled in ``fill`` and ringed by a
``halo`` (by default black or white, whichever contrasts with the fill) so it reads on any colour.
Adding a symbol is adding one entry to ``SHAPES``.
"""
from __future__ import annotations

import math

from generator.layout.primitives import Circle, Group, Line, Polygon

#: a shape in unit coordinates, centred on (0, 0), within a circle of radius ~0.46: ("circle", r) or points
Shape = tuple

HALO = 0.16          # halo stroke width, as a fraction of the size (half of it lies outside the shape)
_LIGHT_LUMA = 150    # above this (0–255, Rec. 601 luma) a fill is light and takes a black halo


def _regular(n: int, r: float, start_deg: float = -90.0, dy: float = 0.0) -> tuple:
    return tuple((r * math.cos(math.radians(start_deg + i * 360 / n)),
                  dy + r * math.sin(math.radians(start_deg + i * 360 / n))) for i in range(n))


def _star(points: int = 5, outer: float = 0.48, inner: float = 0.2) -> tuple:
    return tuple(((outer if i % 2 == 0 else inner) * math.cos(math.radians(-90 + 180 * i / points)),
                  0.04 + (outer if i % 2 == 0 else inner) * math.sin(math.radians(-90 + 180 * i / points)))
                 for i in range(2 * points))


def _heart(steps: int = 28) -> tuple:
    """The classic heart curve (x = 16 sin³t, y = 13 cos t − 5 cos 2t − 2 cos 3t − cos 4t: x within ±16,
    y from −17 to 11.9), scaled to ±0.44 across and centred."""
    pts = []
    k = 0.0275
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((round(x * k, 4), round(-(y + 2.54) * k, 4)))
    return tuple(pts)


def _drop(steps: int = 20) -> tuple:
    """A teardrop, point up: a circle's lower arc closed by a tip."""
    cx, cy, r = 0.0, 0.14, 0.30
    tip = (0.0, -0.46)
    start = math.degrees(math.asin(r / (cy - tip[1])))  # tangent points from the tip
    arc = [(-start + i * (180 + 2 * start) / steps) for i in range(steps + 1)]
    pts = [(round(cx + r * math.cos(math.radians(a)), 4), round(cy + r * math.sin(math.radians(a)), 4)) for a in arc]
    return (tip, *pts)


def _cross(arm: float = 0.15, reach: float = 0.44) -> tuple:
    a, r = arm, reach
    return ((-a, -r), (a, -r), (a, -a), (r, -a), (r, a), (a, a), (a, r), (-a, r), (-a, a), (-r, a), (-r, -a), (-a, -a))


def _turned(points: tuple, deg: float) -> tuple:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return tuple((round(x * c - y * s, 4), round(x * s + y * c, 4)) for x, y in points)


SHAPES: dict[str, Shape] = {
    "circle": ("circle", 0.40),
    "square": ((-0.35, -0.35), (0.35, -0.35), (0.35, 0.35), (-0.35, 0.35)),
    "triangle": _regular(3, 0.5, dy=0.1),
    "diamond": ((0.0, -0.48), (0.36, 0.0), (0.0, 0.48), (-0.36, 0.0)),
    "star": _star(),
    "cross": _cross(),
    "x": _turned(_cross(0.13, 0.48), 45),
    "heart": _heart(),
    "hexagon": _regular(6, 0.44, start_deg=0.0),
    "drop": _drop(),
}
SYMBOLS = tuple(SHAPES)


def luma(hex_color: str) -> float:
    """Rec. 601 luma, 0–255, of '#rrggbb'."""
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def halo_for(fill: str) -> str:
    """Black around a light fill, white around a dark one."""
    return "#000000" if luma(fill) > _LIGHT_LUMA else "#ffffff"


def symbol(name: str, size: float, fill: str, halo: str | None = None) -> tuple:
    """The primitives of symbol ``name``, centred on (0, 0): the halo first, the filled shape over it."""
    shape = SHAPES[name]
    halo = halo or halo_for(fill)
    width = size * HALO
    if shape[0] == "circle":
        r = size * float(shape[1])
        return (Circle(0.0, 0.0, r, fill=halo, stroke=halo, stroke_width=width), Circle(0.0, 0.0, r, fill=fill))
    pts = tuple((round(size * x, 4), round(size * y, 4)) for x, y in shape)
    return (Polygon(pts, fill=halo, stroke=halo, stroke_width=width), Polygon(pts, fill=fill))


def placed(name: str, cx: float, cy: float, size: float, fill: str, halo: str | None = None,
           rotate: float = 0.0) -> Group:
    """Symbol ``name`` centred on (cx, cy), turned by ``rotate`` degrees: one Group, so tests find it whole."""
    return Group(symbol(name, size, fill, halo), cx, cy, rotate)


def hatching(length: float, width: float, stroke: str, spacing: float = 2.2, stroke_width: float = 0.35) -> tuple:
    """Diagonal lines filling a ``length`` × ``width`` rectangle centred on (0, 0): the mark of a gray
    ("any colour") space, so gray is a pattern, not one more colour to tell apart."""
    hl, hw = length / 2, width / 2
    lines = []
    # lines y = x - c (45° down to the right), clipped to the rectangle
    c = -hl - hw + spacing / 2
    while c < hl + hw:
        x0, x1 = max(-hl, c - hw), min(hl, c + hw)
        if x1 - x0 > 1e-6:
            lines.append(Line(round(x0, 4), round(x0 - c, 4), round(x1, 4), round(x1 - c, 4),
                              stroke=stroke, stroke_width=stroke_width))
        c += spacing
    return tuple(lines)
