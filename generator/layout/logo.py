"""A game's logo block: its title in the bundled bold face, its latin name under it, in a badge of its colours.

One drawing for every place the game names itself — a card back (layout element ``logo:``), a card aid,
the print-and-play cover — so the game looks the same on each. The badge is ``w`` × ``h`` mm; the title
is set as large as it fits on one line (two when it is long), the latin name smaller under a thin rule,
left out when it repeats the title (a game named in Latin letters).
"""
from __future__ import annotations

from generator.fonts import PT_TO_MM, Typeset
from generator.layout.primitives import Line, Rect
from generator.layout.text import bold_text, bold_width, set_text

#: the badge's default colours when a game's palette gives none: a dark field, gold rules, white title
FILL, ACCENT, INK = "#2b2b2b", "#c9a227", "#ffffff"
#: the height of a badge ``w`` mm wide when the caller leaves it to the logo
ASPECT = 0.36
MIN_PT = 4.0


def logo_height(w: float) -> float:
    """The badge's height for a width of ``w`` mm (what ``logo`` draws without ``h``)."""
    return w * ASPECT


def logo(typeset: Typeset, title: str, latin: str, x: float, y: float, w: float, h: float | None = None,
         fill: str | None = None, accent: str | None = None, ink: str | None = None) -> list:
    """The badge's primitives, top-left at (``x``, ``y``): a rounded field, an inner rule, title and latin name."""
    fill, accent, ink = fill or FILL, accent or ACCENT, ink or INK
    h = logo_height(w) if h is None else h
    radius = min(h * 0.2, 3.0)
    inset = min(h * 0.08, 1.2)
    items: list = [Rect(x, y, w, h, fill=fill, radius=radius),
                   Rect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, stroke=accent,
                        stroke_width=max(0.15, min(h * 0.015, 0.4)), radius=max(radius - inset, 0.3))]
    pad = inset + h * 0.1
    inner_w, inner_h = w - 2 * pad, h - 2 * pad
    show_latin = bool(latin) and latin.strip() != title.strip()
    title_h = inner_h * (0.62 if show_latin else 1.0)
    lines = _title_lines(typeset, title, inner_w, title_h)
    size = min(title_h / len(lines) / PT_TO_MM / 1.15, max(_fit_pt(typeset, line, inner_w) for line in lines))
    size = max(size, MIN_PT)
    line_h = size * PT_TO_MM * 1.15
    top = y + pad + (title_h - line_h * len(lines)) / 2
    for i, line in enumerate(lines):
        items.append(bold_text(typeset, x + w / 2, top + line_h * (i + 0.8), line, min(size, _fit_pt(typeset, line, inner_w)),
                               ink, "middle"))
    if show_latin:
        rule_y = y + pad + title_h + inner_h * 0.06
        items.append(Line(x + w * 0.3, rule_y, x + w * 0.7, rule_y, accent, max(0.15, h * 0.012)))
        latin_h = inner_h * 0.32 - inner_h * 0.06
        latin_pt = min(latin_h / PT_TO_MM * 0.8, _fit_pt(typeset, latin, inner_w, bold=False))
        latin_pt = max(latin_pt, MIN_PT)
        items.append(set_text(typeset, x + w / 2, rule_y + latin_h * 0.85, latin, latin_pt, accent, "middle"))
    return items


def _fit_pt(typeset: Typeset, text: str, width: float, bold: bool = True) -> float:
    """The largest size (pt) at which ``text`` is no wider than ``width`` mm."""
    at_10 = bold_width(typeset, text, 10.0) if bold else typeset.width(text, 10.0)
    return 10.0 * width / at_10 if at_10 > 0 else 99.0


def _title_lines(typeset: Typeset, title: str, width: float, height: float) -> list[str]:
    """The title on one line, or on two at its space when that sets it larger (a long Japanese title)."""
    one = min(_fit_pt(typeset, title, width), height / PT_TO_MM / 1.15)
    if " " in title.strip() or "　" in title.strip():
        cut = max(title.strip().rfind(" "), title.strip().rfind("　"))
        parts = [title.strip()[:cut].strip(), title.strip()[cut + 1:].strip()]
        two = min(min(_fit_pt(typeset, p, width) for p in parts), height / 2 / PT_TO_MM / 1.15)
        if two > one * 1.15:
            return parts
    return [title.strip()]
