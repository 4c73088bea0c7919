"""Where the stamp goes on a page: in the outer margin, inside the printer's safe area, clear of everything.

Every home-printer page gets ``generator.model.stamp``'s text once, small and grey
(``STAMP_PT``, ``STAMP_INK``), on a line along the bottom edge of the printable area
(else along the top edge), at the leftmost place where it touches nothing the page
draws (cards, crop marks, footers) — the bounding boxes of the page's items, forms
placed by their box. A page drawn to its edges (a full-size board) has no such
place: the stamp goes in its bottom-left corner on a white patch.
"""
from __future__ import annotations

import math

from generator import fonts
from generator.layout.primitives import Circle, Document, Group, Line, Page, Polygon, Rect, Text, Use
from generator.layout.sheets import PRINTER_MARGIN

STAMP_PT = 5.5
STAMP_INK = "#8c8c8c"
CLEARANCE = 0.8   # mm kept free around the stamp
ASCENT, DESCENT = 0.9, 0.25  # of the type size: how far glyphs reach above and below the baseline

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm, y down


def stamped(doc: Document, text: str) -> Document:
    """A copy of ``doc`` whose every page carries ``text`` (the document itself is left as it was)."""
    if not text:
        return doc
    pages = [Page(p.width, p.height, [*p.items, *stamp_items(p, text, doc.forms)], p.trim_box, p.bleed_box, p.label)
             for p in doc.pages]
    return Document(doc.title, pages, doc.forms, doc.outline)


def stamp_items(page: Page, text: str, forms: dict) -> list:
    """The stamp for ``page``: a grey line of text where it overlaps nothing (see the module's notes)."""
    width = fonts.text_width_mm(text, STAMP_PT)
    up, down = STAMP_PT * ASCENT * fonts.PT_TO_MM, STAMP_PT * DESCENT * fonts.PT_TO_MM
    boxes = [box for item in page.items for box in item_boxes(item, forms)]
    bottom = page.height - PRINTER_MARGIN - down - 0.2
    top = PRINTER_MARGIN + up + 0.2
    for baseline in (bottom, top):
        x = free_x(boxes, baseline - up, baseline + down, width, PRINTER_MARGIN + 0.2,
                   page.width - PRINTER_MARGIN - 0.2)
        if x is not None:
            return [Text(x, baseline, text, STAMP_PT, STAMP_INK)]
    x = PRINTER_MARGIN + 0.2
    return [Rect(x - 0.5, bottom - up - 0.5, width + 1.0, up + down + 1.0, fill="#ffffff"),
            Text(x, bottom, text, STAMP_PT, STAMP_INK)]


def stamp_box(page: Page, forms: dict) -> Box | None:
    """Where the stamp on a stamped ``page`` is (its last Text of ``STAMP_PT`` in ``STAMP_INK``), for tests."""
    for item in reversed(page.items):
        if isinstance(item, Text) and item.size == STAMP_PT and item.fill == STAMP_INK:
            return item_boxes(item, forms)[0]
    return None


def free_x(boxes: list[Box], y0: float, y1: float, width: float, left: float, right: float) -> float | None:
    """The leftmost x in [left, right - width] where [x, x + width] × [y0, y1] keeps CLEARANCE from every box."""
    blocked = sorted((b[0] - CLEARANCE, b[2] + CLEARANCE) for b in boxes
                     if b[1] - CLEARANCE < y1 and b[3] + CLEARANCE > y0)
    x = left
    for start, end in blocked:
        if start >= x + width:
            break
        x = max(x, end)
    return x if x + width <= right else None


def item_boxes(item, forms: dict, transform=None) -> list[Box]:
    """Bounding boxes (page mm) of what ``item`` draws; ``transform`` maps an (x, y) of its coordinates to the page."""
    at = transform or (lambda x, y: (x, y))
    corners: list[tuple[float, float]]
    if isinstance(item, Group):
        angle = math.radians(item.rotate)
        cos, sin = math.cos(angle), math.sin(angle)

        def inner(x, y, g=item):
            x, y = x * g.scale, y * g.scale
            return at(g.dx + x * cos - y * sin, g.dy + x * sin + y * cos)
        return [box for child in item.items for box in item_boxes(child, forms, inner)]
    if isinstance(item, Use):
        form = forms.get(item.name)
        if form is None:
            return []
        x, y, w, h = form.box
        corners = [(item.x + x, item.y + y), (item.x + x + w, item.y + y + h),
                   (item.x + x + w, item.y + y), (item.x + x, item.y + y + h)]
    elif isinstance(item, Text):
        w = fonts.text_width_mm(item.text, item.size)
        x = item.x - (w / 2 if item.anchor == "middle" else w if item.anchor == "end" else 0)
        up, down = item.size * ASCENT * fonts.PT_TO_MM, item.size * DESCENT * fonts.PT_TO_MM
        corners = [(x, item.y - up), (x + w, item.y + down), (x + w, item.y - up), (x, item.y + down)]
    elif isinstance(item, Line):
        half = item.stroke_width / 2
        corners = [(min(item.x1, item.x2) - half, min(item.y1, item.y2) - half),
                   (max(item.x1, item.x2) + half, max(item.y1, item.y2) + half)]
    elif isinstance(item, Rect):
        corners = [(item.x, item.y), (item.x + item.w, item.y + item.h), (item.x + item.w, item.y),
                   (item.x, item.y + item.h)]
    elif isinstance(item, Circle):
        corners = [(item.cx - item.r, item.cy - item.r), (item.cx + item.r, item.cy + item.r)]
    elif isinstance(item, Polygon):
        corners = list(item.points)
    else:
        return []
    if not corners:
        return []
    placed = [at(x, y) for x, y in corners]
    return [(min(p[0] for p in placed), min(p[1] for p in placed), max(p[0] for p in placed), max(p[1] for p in placed))]
