"""Where the stamp goes on a page: in the outer margin, inside the printer's safe area, clear of everything.

Every home-printer page gets ``generator.model.stamp``'s text once, small and grey
(``STAMP_PT``, ``STAMP_INK``), on a line along the bottom edge of the printable area
(else along the top edge), at the leftmost place where it touches nothing the page
draws (cards, crop marks, footers) — the bounding boxes of the page's items, forms
placed by their box. A page of artwork to the edges of the printable area (board
tiles, whose outer strip is cut off; a full-size board) has no such place: the
stamp goes over the artwork on a white patch, still clear of marks and words.
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
#: mm a layout that fills the printable area leaves free at its bottom for the stamp (the board overview)
STAMP_BAND = 0.2 + STAMP_PT * (ASCENT + DESCENT) * fonts.PT_TO_MM + CLEARANCE + 0.2

#: what the stamp never covers, even on a page of artwork to its edges: crop marks, registration targets, words
MARKS = (Line, Circle, Text)

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm, y down


def stamped(doc: Document, text: str, typeset: fonts.Typeset, margin: float = PRINTER_MARGIN) -> Document:
    """A copy of ``doc`` whose every page carries ``text`` in ``typeset``'s face (the game's body family, so a
    page of a game that declares one embeds no second face for the stamp); the document is left as it was."""
    return with_stamp(doc, stamper(doc, text, typeset, margin))


#: boxes a stamper keeps (forms' by name, page items' by identity) before it starts again: a 100,000-card deck's
#: file is stamped as it is drawn, and its single-use faces' boxes are not needed twice
STAMPER_KEPT = 4096


def stamper(doc: Document, text: str, typeset: fonts.Typeset, margin: float = PRINTER_MARGIN):
    """``stamped``'s items for one page at a time (None without ``text``): ``stamper(...)(page)`` is the stamp
    ``stamped`` puts on ``page``, worked out as the renderer draws the page (``render.pdf.render_pdf``'s ``stamp``),
    when the faces it measures are at hand: a large game's faces are unpickled once for the page, not once
    for its stamp and again for its drawing."""
    if not text:
        return None
    cache: dict = {}

    def stamp(page: Page) -> list:
        if len(cache) > STAMPER_KEPT:
            cache.clear()
        return stamp_items(page, text, doc.forms, typeset, cache, margin)
    return stamp


def with_stamp(doc: Document, stamp) -> Document:
    """``doc`` with ``stamp(page)`` (a ``stamper``, or None) drawn on each page, as a renderer given both draws it."""
    if stamp is None:
        return doc
    pages = [Page(p.width, p.height, [*p.items, *stamp(p)], p.trim_box, p.bleed_box, p.label, p.one_sided)
             for p in doc.pages]
    return Document(doc.title, pages, doc.forms, doc.outline)


def stamp_items(page: Page, text: str, forms: dict, typeset: fonts.Typeset, cache: dict | None = None,
                margin: float = PRINTER_MARGIN) -> list:
    """The stamp for ``page``: a grey line of text where it overlaps nothing (see the module's notes)."""
    face = typeset.face(text)
    width = fonts.text_width_mm(text, STAMP_PT, face.name)
    up, down = STAMP_PT * ASCENT * fonts.PT_TO_MM, STAMP_PT * DESCENT * fonts.PT_TO_MM
    bottom = page.height - margin - down - 0.2
    top = margin + up + 0.2
    left, right = margin + 0.2, page.width - margin - 0.2
    bands = ((bottom - up, bottom + down), (top - up, top + down))
    everything = _near(page.items, bands, forms, cache)
    for baseline in (bottom, top):
        x = free_x(everything, baseline - up, baseline + down, width, left, right)
        if x is not None:
            return [Text(x, baseline, text, STAMP_PT, STAMP_INK, font=face.name)]
    # artwork to the edges of the printable area (board tiles, whose outer strip is cut off): over the artwork,
    # on a white patch, but still clear of marks and words
    marks = [box for item in page.items if isinstance(item, MARKS) for box in _page_boxes(item, forms, cache)]
    x = None
    for baseline in (bottom, top):
        x = free_x(marks, baseline - up, baseline + down, width, left, right)
        if x is not None:
            break
    if x is None:
        x, baseline = left, bottom
    return [Rect(x - 0.5, baseline - up - 0.5, width + 1.0, up + down + 1.0, fill="#ffffff"),
            Text(x, baseline, text, STAMP_PT, STAMP_INK, font=face.name)]


def _page_boxes(item, forms: dict, cache: dict | None) -> list[Box]:
    """``item_boxes`` of an item on the page, kept in ``cache`` by the item's identity: the sheets of a deck share
    their crop marks (``layout.sheets``: one list per number of cards on a sheet), looked at once, not per page.
    The document holds every item while it is stamped, so no identity is reused meanwhile."""
    if cache is None:
        return item_boxes(item, forms)
    key = id(item)   # an int: never a form's name
    boxes = cache.get(key)
    if boxes is None:
        boxes = cache[key] = item_boxes(item, forms, cache=cache)
    return boxes


def _near(items: list, bands, forms: dict, cache: dict | None) -> list[Box]:
    """The boxes of ``items`` that ``free_x`` may meet on either of the ``bands`` (a box clear of both by more than
    CLEARANCE is never looked at), kept per item by its identity (as ``_page_boxes``) with the bands: a deck's
    sheets share their crop marks, so a page's stamp looks each of them up once, not each of their boxes."""
    if cache is None:
        return [box for item in items if _may_touch(item, bands, forms, cache)
                for box in _page_boxes(item, forms, cache)]
    near = cache.get(bands)   # a tuple of tuples of floats: never a form's name, an identity or a ("box", …) key
    if near is None or len(near) > STAMPER_KEPT:
        near = cache[bands] = {}
    (a0, a1), (b0, b1) = bands
    found: list[Box] = []
    placed = cache.get(_USE_BOXES)   # a placed form's box by its name (as ``_may_touch`` keeps it)
    if placed is None:
        placed = cache[_USE_BOXES] = {}
    for item in items:
        if type(item) is Use:   # a card on a sheet: a new object on every page, so kept by its form's name
            box = placed.get(item.name)
            if box is None and (form := forms.get(item.name)) is not None:
                box = placed[item.name] = form.box
            if box is not None:
                top, bottom = box[1] + item.y, box[1] + box[3] + item.y
                if not (top - CLEARANCE < a1 and bottom + CLEARANCE > a0) \
                        and not (top - CLEARANCE < b1 and bottom + CLEARANCE > b0):
                    continue   # clear of both lines: what ``_may_touch`` says, none of its boxes looked at
        kept = near.get(id(item))
        if kept is None or kept[0] is not item:   # the entry holds its item: its identity is not reused meanwhile
            kept = near[id(item)] = (item, [
                box for box in (_page_boxes(item, forms, cache) if _may_touch(item, bands, forms, cache) else ())
                if (box[1] - CLEARANCE < a1 and box[3] + CLEARANCE > a0)
                or (box[1] - CLEARANCE < b1 and box[3] + CLEARANCE > b0)])
        found += kept[1]
    return found


#: ``cache``'s key of the boxes of forms placed on pages, by name (a tuple: never a name, an identity or a band)
_USE_BOXES = ("use boxes",)


def _may_touch(item, bands, forms: dict, cache: dict | None) -> bool:
    """False for a form placed on the page (a card on a sheet) whose box, placed, is further than CLEARANCE from
    both lines the stamp may take: ``form_boxes`` clips what a form draws to its box, so none of its boxes would
    be kept by ``free_x`` and the form's items need not be measured (a deck's faces are all different; the
    cards on a sheet stay clear of the printer's margin)."""
    if type(item) is not Use:
        return True
    key = ("box", item.name)   # a tuple: never a form's name or an item's identity
    box = cache.get(key) if cache is not None else None
    if box is None:
        form = forms.get(item.name)
        if form is None:
            return True
        box = form.box
        if cache is not None:
            cache[key] = box
    x0, y0, w, h = box
    top, bottom = y0 + item.y, y0 + h + item.y   # as form_boxes' clipped boxes end up placed: (y0 + h) + dy
    return any(top - CLEARANCE < y1 and bottom + CLEARANCE > y0_ for y0_, y1 in bands)


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


def form_boxes(name: str, forms: dict, cache: dict | None = None) -> list[Box]:
    """What form ``name`` draws, in its own coordinates, clipped to its box (a form as large as the page, like a
    score sheet's, covers only where it draws); kept per form, as a deck places one form many times."""
    if cache is not None and name in cache:   # known: the form is not asked for (a large game's is unpickled)
        return cache[name]
    form = forms.get(name)
    if form is None:
        return []
    cache = {} if cache is None else cache
    if name not in cache:
        x0, y0, w, h = form.box
        whole = (x0, y0, x0 + w, y0 + h)
        for child in form.items:   # a field painted edge to edge (a card's background): no need to look further
            if isinstance(child, Rect):
                b = item_boxes(child, forms)[0]
                if (max(b[0], x0), max(b[1], y0), min(b[2], x0 + w), min(b[3], y0 + h)) == whole:
                    cache[name] = [whole]
                    return cache[name]
        clipped = [(max(b[0], x0), max(b[1], y0), min(b[2], x0 + w), min(b[3], y0 + h))
                   for child in form.items for b in item_boxes(child, forms, cache=cache)]
        kept = [b for b in clipped if b[0] <= b[2] and b[1] <= b[3]]
        # a form painted to its edges (a card back's field) covers all it draws: one box, not hundreds (a motif)
        cache[name] = [whole] if whole in kept else kept
    return cache[name]


def _mapped(box: Box, at) -> Box:
    placed = [at(box[0], box[1]), at(box[2], box[3]), at(box[2], box[1]), at(box[0], box[3])]
    return (min(p[0] for p in placed), min(p[1] for p in placed), max(p[0] for p in placed), max(p[1] for p in placed))


def item_boxes(item, forms: dict, transform=None, cache: dict | None = None) -> list[Box]:
    """Bounding boxes (page mm) of what ``item`` draws; ``transform`` maps an (x, y) of its coordinates to the page."""
    at = transform or (lambda x, y: (x, y))
    corners: list[tuple[float, float]]
    if isinstance(item, Group):
        angle = math.radians(item.rotate)
        cos, sin = math.cos(angle), math.sin(angle)

        def inner(x, y, g=item):
            x, y = x * g.scale, y * g.scale
            return at(g.dx + x * cos - y * sin, g.dy + x * sin + y * cos)
        return [box for child in item.items for box in item_boxes(child, forms, inner, cache)]
    if isinstance(item, Use):
        if transform is None:   # placed on the page itself (a card on a sheet): a shift, no corners to map
            dx, dy = item.x, item.y
            return [(b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy) for b in form_boxes(item.name, forms, cache)]
        return [_mapped(box, lambda x, y, u=item: at(u.x + x, u.y + y)) for box in form_boxes(item.name, forms, cache)]
    if isinstance(item, Text):
        w = fonts.text_width_mm(item.text, item.size, item.font) + item.spacing * len(item.text)   # as drawn
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
    placed = corners if transform is None else [at(x, y) for x, y in corners]   # on the page itself: as they are
    xs, ys = [p[0] for p in placed], [p[1] for p in placed]
    return [(min(xs), min(ys), max(xs), max(ys))]
