"""The print-and-play cover's picture of the components: what the build draws, small, each part named and counted.

Every part is shown by forms the build already drew — a card's face and its back, a token, a die net, a
player aid's two sides, the board in miniature — each clipped to its trim (no bleed) in a hairline frame,
side by side with its name and count under it, in print order, in rows. When the parts do not fit the
page at their chosen sizes, all are shrunk by the same factor, so their sizes stay comparable.
"""
from __future__ import annotations

from dataclasses import dataclass

from generator.fonts import PT_TO_MM, Typeset
from generator.layout.logo import logo, logo_height
from generator.layout.primitives import Form, Group, Page, Rect, Use
from generator.layout.text import bold_text, set_text
from generator.model import dataclass_eq, dataclass_hash, dataclass_repr

MARGIN = 12.0        # mm round the page's content
GAP = 2.0            # mm between the forms of one part (a face and its back)
CELL_GAP = (7.0, 6.0)  # mm between parts across, and between rows
LABEL_PT = 7.0
FRAME = "#9a9a9a"
INK = "#222222"
LOGO_W = 100.0       # mm: the logo block's width at the head of the page
FOOT = 10.0          # mm kept clear at the foot of the page for the stamp
MIN_SHRINK = 0.25
MAX_GROW = 1.4       # parts may be drawn up to this much larger than their chosen sizes when the page has room


@dataclass(frozen=True, repr=False, eq=False)
class Shown:
    """One part on the page: its forms side by side, the tallest drawn ``height`` mm high, and its label."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    forms: tuple[Form, ...]
    height: float
    label: str


def trim(form: Form) -> tuple[float, float]:
    """A form's trim size: its box less the bleed (a face's box starts at -bleed)."""
    x, y, w, h = form.box
    return w + 2 * x, h + 2 * y


def overview_page(shown: list[Shown], width: float, height: float, typeset: Typeset, heading: str,
                  title: str, latin: str, colors: tuple[str | None, str | None, str | None] = (None, None, None),
                  label: str = "overview") -> Page:
    """The page: the game's logo block, a heading, then every part of ``shown`` in rows."""
    items: list = []
    lw = min(LOGO_W, width - 2 * MARGIN)
    fill, accent, ink = colors
    items += logo(typeset, title, latin, (width - lw) / 2, MARGIN, lw, None, fill, accent, ink)
    y = MARGIN + logo_height(lw) + 8.0
    items.append(bold_text(typeset, width / 2, y, heading, 12.0, INK, "middle"))
    top, bottom = y + 6.0, height - MARGIN - FOOT
    shrink = MAX_GROW   # as large as the page holds, every part by the same factor
    while True:
        rows = _rows(shown, shrink, width - 2 * MARGIN, typeset)
        needed = sum(h for _, h in rows) + CELL_GAP[1] * (len(rows) - 1)
        if needed <= bottom - top or shrink <= MIN_SHRINK:
            break
        shrink = max(MIN_SHRINK, shrink * min(0.95, ((bottom - top) / needed) ** 0.5))
    y = top + max(0.0, (bottom - top - needed) / 2)
    for cells, row_h in rows:
        row_w = sum(cell[1] for cell in cells) + CELL_GAP[0] * (len(cells) - 1)
        x = (width - row_w) / 2
        for part, cell_w, scale, cell_h in cells:   # each part in the middle of its row's height
            items += _cell(part, x, y + (row_h - cell_h) / 2, cell_w, scale, typeset)
            x += cell_w + CELL_GAP[0]
        y += row_h + CELL_GAP[1]
    return Page(width, height, items, label=label)


def _scale(part: Shown, shrink: float) -> float:
    return part.height * shrink / max(trim(f)[1] for f in part.forms)


def _forms_width(part: Shown, scale: float) -> float:
    return sum(trim(f)[0] * scale for f in part.forms) + GAP * (len(part.forms) - 1)


def _rows(shown: list[Shown], shrink: float, available: float, typeset: Typeset):
    """[(cells, row height)], a cell being (part, its width, its scale, its height), filled left to right."""
    rows: list = []
    cells: list = []
    used = row_h = 0.0
    label_h = LABEL_PT * PT_TO_MM * 1.6
    for part in shown:
        scale = _scale(part, shrink)
        forms_w = _forms_width(part, scale)
        if forms_w > available:   # a board wider than the page: drawn as wide as the page
            scale *= available / forms_w
            forms_w = available
        cell_w = min(available, max(forms_w, typeset.width(part.label, LABEL_PT) + 1.0))
        cell_h = max(trim(f)[1] for f in part.forms) * scale + label_h
        if cells and used + CELL_GAP[0] + cell_w > available:
            rows.append((cells, row_h))
            cells, used, row_h = [], 0.0, 0.0
        used += (CELL_GAP[0] if cells else 0.0) + cell_w
        cells.append((part, cell_w, scale, cell_h))
        row_h = max(row_h, cell_h)
    if cells:
        rows.append((cells, row_h))
    return rows


def _cell(part: Shown, x: float, y: float, cell_w: float, scale: float, typeset: Typeset) -> list:
    items: list = []
    forms_w = _forms_width(part, scale)
    fx = x + (cell_w - forms_w) / 2
    tallest = max(trim(f)[1] for f in part.forms) * scale
    for form in part.forms:
        w, h = trim(form)
        fy = y + (tallest - h * scale) / 2
        items.append(Group((Use(form.name, 0.0, 0.0, (0.0, 0.0, w, h)),), fx, fy, scale=scale))
        items.append(Rect(fx, fy, w * scale, h * scale, stroke=FRAME, stroke_width=0.15))
        fx += w * scale + GAP
    items.append(set_text(typeset, x + cell_w / 2, y + tallest + LABEL_PT * PT_TO_MM * 1.25, part.label, LABEL_PT,
                          INK, "middle"))
    return items
