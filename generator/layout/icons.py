"""Vector icons, drawn from primitives so they print sharp at any size.

Each icon draws into a square of side ``size`` mm whose top-left is (x, y).
Adding an icon is adding one function to ``ICONS``.
"""
from __future__ import annotations

import math

from generator.fonts import Typeset
from generator.layout.primitives import Circle, Line, Polygon, Rect
from generator.layout.text import bold_text


def _pts(x, y, s, coords):
    return tuple((x + s * u, y + s * v) for u, v in coords)


def locomotive(x, y, s, color, accent=None, **_):
    """A steam locomotive seen from the side."""
    accent = accent or "#ffffff"
    w = max(s * 0.02, 0.15)
    return [
        Rect(x + s * 0.10, y + s * 0.42, s * 0.58, s * 0.28, fill=color, radius=s * 0.05),          # boiler
        Rect(x + s * 0.62, y + s * 0.22, s * 0.28, s * 0.48, fill=color, radius=s * 0.03),          # cab
        Rect(x + s * 0.67, y + s * 0.29, s * 0.18, s * 0.14, fill=accent),                          # cab window
        Rect(x + s * 0.18, y + s * 0.22, s * 0.12, s * 0.22, fill=color),                           # chimney
        Polygon(_pts(x, y, s, [(0.13, 0.20), (0.35, 0.20), (0.30, 0.26), (0.18, 0.26)]), fill=color),
        Polygon(_pts(x, y, s, [(0.02, 0.78), (0.10, 0.62), (0.10, 0.78)]), fill=color),              # cow-catcher
        Circle(x + s * 0.24, y + s * 0.78, s * 0.10, fill=color, stroke=accent, stroke_width=w),
        Circle(x + s * 0.48, y + s * 0.78, s * 0.10, fill=color, stroke=accent, stroke_width=w),
        Circle(x + s * 0.76, y + s * 0.76, s * 0.13, fill=color, stroke=accent, stroke_width=w),
        Line(x + s * 0.24, y + s * 0.78, x + s * 0.76, y + s * 0.76, stroke=accent, stroke_width=w),
    ]


def wagon(x, y, s, color, accent=None, **_):
    """A railway wagon: the symbol of an ordinary train card."""
    accent = accent or "#ffffff"
    w = max(s * 0.02, 0.15)
    return [
        Rect(x + s * 0.06, y + s * 0.28, s * 0.88, s * 0.40, fill=color, radius=s * 0.05),
        Rect(x + s * 0.14, y + s * 0.35, s * 0.2, s * 0.14, fill=accent),
        Rect(x + s * 0.40, y + s * 0.35, s * 0.2, s * 0.14, fill=accent),
        Rect(x + s * 0.66, y + s * 0.35, s * 0.2, s * 0.14, fill=accent),
        Circle(x + s * 0.26, y + s * 0.74, s * 0.09, fill=color, stroke=accent, stroke_width=w),
        Circle(x + s * 0.74, y + s * 0.74, s * 0.09, fill=color, stroke=accent, stroke_width=w),
    ]


def taxi(x, y, s, color, accent=None, **_):
    """A taxi cab from the side, with its roof sign."""
    accent = accent or "#ffffff"
    w = max(s * 0.02, 0.15)
    return [
        Polygon(_pts(x, y, s, [(0.04, 0.70), (0.06, 0.50), (0.22, 0.46), (0.34, 0.30), (0.68, 0.30),
                                (0.80, 0.46), (0.94, 0.50), (0.96, 0.70)]), fill=color),
        Rect(x + s * 0.42, y + s * 0.20, s * 0.16, s * 0.10, fill=color, radius=s * 0.02),
        Polygon(_pts(x, y, s, [(0.38, 0.34), (0.49, 0.34), (0.49, 0.46), (0.29, 0.46)]), fill=accent),
        Polygon(_pts(x, y, s, [(0.53, 0.34), (0.64, 0.34), (0.73, 0.46), (0.53, 0.46)]), fill=accent),
        Circle(x + s * 0.26, y + s * 0.72, s * 0.10, fill=color, stroke=accent, stroke_width=w * 2),
        Circle(x + s * 0.74, y + s * 0.72, s * 0.10, fill=color, stroke=accent, stroke_width=w * 2),
    ]


def horseshoe(x, y, s, color, **_):
    """A horseshoe (Thurn and Taxis horses option): an arc open at the bottom."""
    cx, cy = x + s / 2, y + s * 0.45
    outer, inner = s * 0.45, s * 0.28
    steps = 18
    arc = [(-200 + i * (220 / steps)) for i in range(steps + 1)]  # from -200° to 20°, open below
    pts = [(cx + outer * math.cos(math.radians(a)), cy + outer * math.sin(math.radians(a))) for a in arc]
    pts += [(cx + inner * math.cos(math.radians(a)), cy + inner * math.sin(math.radians(a))) for a in reversed(arc)]
    return [Polygon(tuple(pts), fill=color)]


def star(x, y, s, color, **_):
    """A five-pointed star (tourist attraction, bonus)."""
    cx, cy = x + s / 2, y + s / 2
    pts = []
    for i in range(10):
        r = s * (0.5 if i % 2 == 0 else 0.2)
        a = math.radians(-90 + 36 * i)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return [Polygon(tuple(pts), fill=color)]


def carriage(x, y, s, color, accent=None, **_):
    """A post carriage (Thurn and Taxis carriage cards)."""
    accent = accent or "#ffffff"
    w = max(s * 0.025, 0.15)
    return [
        Polygon(_pts(x, y, s, [(0.18, 0.30), (0.82, 0.30), (0.90, 0.62), (0.10, 0.62)]), fill=color),
        Rect(x + s * 0.28, y + s * 0.36, s * 0.18, s * 0.14, fill=accent),
        Rect(x + s * 0.54, y + s * 0.36, s * 0.18, s * 0.14, fill=accent),
        Rect(x + s * 0.14, y + s * 0.24, s * 0.72, s * 0.06, fill=color, radius=s * 0.02),
        Circle(x + s * 0.26, y + s * 0.72, s * 0.13, fill=None, stroke=color, stroke_width=w * 2),
        Circle(x + s * 0.74, y + s * 0.72, s * 0.13, fill=None, stroke=color, stroke_width=w * 2),
    ]


def station(x, y, s, color, accent=None, **_):
    """A station sign: a rounded plate on two posts."""
    accent = accent or "#ffffff"
    return [
        Rect(x + s * 0.05, y + s * 0.15, s * 0.9, s * 0.45, fill=color, radius=s * 0.08),
        Rect(x + s * 0.12, y + s * 0.22, s * 0.76, s * 0.31, fill=accent, radius=s * 0.05),
        Rect(x + s * 0.22, y + s * 0.60, s * 0.06, s * 0.32, fill=color),
        Rect(x + s * 0.72, y + s * 0.60, s * 0.06, s * 0.32, fill=color),
    ]


def badge(x, y, s, color, text="", ink="#ffffff", typeset: Typeset | None = None, **_):
    """A filled circle with a number in it: points and card numbers, in ``typeset``'s bold (the game's body family)."""
    size_pt = s * 0.55 / 0.3528 if len(str(text)) < 2 else s * 0.45 / 0.3528
    return [Circle(x + s / 2, y + s / 2, s / 2, fill=color, stroke=ink, stroke_width=max(s * 0.04, 0.2)),
            bold_text(typeset or Typeset(), x + s / 2, y + s / 2 + size_pt * 0.3528 * 0.36, str(text), size_pt,
                      fill=ink, anchor="middle")]


def passenger(x, y, s, color, **_):
    """A standing traveller: head and shoulders over a body (passenger tokens)."""
    return [
        Circle(x + s * 0.5, y + s * 0.22, s * 0.15, fill=color),
        Polygon(_pts(x, y, s, [(0.30, 0.42), (0.70, 0.42), (0.76, 0.70), (0.64, 0.70), (0.62, 0.94),
                                (0.38, 0.94), (0.36, 0.70), (0.24, 0.70)]), fill=color),
    ]


def _rails(x, y, s, color, top, bottom, ties=5):
    """One track running left to right between ``top`` and ``bottom`` (fractions of s)."""
    w = max(s * 0.035, 0.2)
    items = []
    for i in range(ties):
        u = 0.10 + i * 0.8 / (ties - 1)
        items.append(Rect(x + s * (u - 0.035), y + s * (top - 0.06), s * 0.07, s * (bottom - top + 0.12), fill=color))
    for v in (top, bottom):
        items.append(Line(x + s * 0.04, y + s * v, x + s * 0.96, y + s * v, stroke=color, stroke_width=w))
    return items


def track(x, y, s, color, **_):
    """A single track: two rails on sleepers (dice faces, single-track tokens)."""
    return _rails(x, y, s, color, 0.40, 0.60)


def double_track(x, y, s, color, **_):
    """Two parallel tracks (dice faces, double-track tokens)."""
    return _rails(x, y, s, color, 0.18, 0.36) + _rails(x, y, s, color, 0.64, 0.82)


def tunnel(x, y, s, color, accent=None, **_):
    """A tunnel portal: a mountain with a dark arch and a track leading in (black dice)."""
    accent = accent or "#ffffff"
    steps = 12
    arch = [(0.5 + 0.22 * math.cos(math.radians(180 + i * 180 / steps)),
             0.62 + 0.26 * math.sin(math.radians(180 + i * 180 / steps))) for i in range(steps + 1)]
    return [
        Polygon(_pts(x, y, s, [(0.02, 0.90), (0.30, 0.22), (0.46, 0.08), (0.62, 0.20), (0.98, 0.90)]), fill=color),
        Polygon(_pts(x, y, s, [(0.28, 0.90), *arch, (0.72, 0.90)]), fill=accent),
        Line(x + s * 0.40, y + s * 0.90, x + s * 0.46, y + s * 0.62, stroke=color, stroke_width=max(s * 0.03, 0.2)),
        Line(x + s * 0.60, y + s * 0.90, x + s * 0.54, y + s * 0.62, stroke=color, stroke_width=max(s * 0.03, 0.2)),
    ]


def house(x, y, s, color, accent=None, **_):
    """A post house: gable roof, walls and a door (Thurn and Taxis houses)."""
    accent = accent or "#ffffff"
    return [
        Polygon(_pts(x, y, s, [(0.10, 0.46), (0.50, 0.10), (0.90, 0.46), (0.80, 0.46), (0.80, 0.90),
                                (0.20, 0.90), (0.20, 0.46)]), fill=color),
        Rect(x + s * 0.42, y + s * 0.62, s * 0.16, s * 0.28, fill=accent),
    ]


def chip(x, y, s, color, accent=None, **_):
    """A round chip with a ring inside (S鉄道 chips)."""
    accent = accent or "#ffffff"
    return [
        Circle(x + s / 2, y + s / 2, s * 0.46, fill=color),
        Circle(x + s / 2, y + s / 2, s * 0.32, stroke=accent, stroke_width=max(s * 0.04, 0.2)),
        Circle(x + s / 2, y + s / 2, s * 0.12, fill=accent),
    ]


def pawn(x, y, s, color, **_):
    """A player piece: a pawn seen from the side."""
    return [
        Circle(x + s * 0.5, y + s * 0.22, s * 0.14, fill=color),
        Polygon(_pts(x, y, s, [(0.40, 0.34), (0.60, 0.34), (0.70, 0.78), (0.84, 0.84), (0.84, 0.94),
                                (0.16, 0.94), (0.16, 0.84), (0.30, 0.78)]), fill=color),
    ]


def flag(x, y, s, color, **_):
    """A pennant on a pole: markers that stake a claim (round and player markers)."""
    return [
        Rect(x + s * 0.26, y + s * 0.08, s * 0.06, s * 0.86, fill=color),
        Polygon(_pts(x, y, s, [(0.32, 0.10), (0.86, 0.28), (0.32, 0.46)]), fill=color),
    ]


def blank(x, y, s, color, **_):
    """Nothing: a blank die face."""
    return []


ICONS = {
    "locomotive": locomotive,
    "wagon": wagon,
    "taxi": taxi,
    "horseshoe": horseshoe,
    "star": star,
    "carriage": carriage,
    "station": station,
    "badge": badge,
    "passenger": passenger,
    "track": track,
    "double-track": double_track,
    "tunnel": tunnel,
    "house": house,
    "chip": chip,
    "pawn": pawn,
    "flag": flag,
    "blank": blank,
}
