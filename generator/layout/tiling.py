"""A large board at 100 % across home-printer sheets, to cut and tape together.

The board is cut into equal cells, one per sheet. Each sheet prints its cell
centred in the printable area, and whatever of the neighbouring cells still
fits around it (a strip of at least ``STRIP_MIN`` mm on every side), so two
neighbours share an overlap of twice the strip — more than the printer's
unprintable margin. Crop marks at the cell corners show where to cut,
registration targets on the shared edges show how to lay the sheets, and
each sheet carries its row/column label and a small index map of the whole.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from generator.fonts import PT_TO_MM, Typeset
from generator.layout.primitives import Form, Line, Page, Rect, Use
from generator.layout.sheets import MARK_GAP, MARK_WIDTH, PRINTER_MARGIN, paper_size, printable_area, registration_mark
from generator.layout.text import bold_text, set_text
from generator.model.words import Words

STRIP_MIN = 8.0   # mm each sheet shows beyond its own cell: neighbours overlap by ≥ 16 mm


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    cell: tuple[float, float, float, float]     # the part of the board this sheet keeps, board mm
    window: tuple[float, float, float, float]   # all of the board this sheet prints, board mm

    @property
    def label(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.col + 1}"


@dataclass(frozen=True)
class TilePlan:
    paper: str
    landscape: bool
    page: tuple[float, float]
    board: tuple[float, float]
    rows: int
    cols: int
    tiles: tuple[Tile, ...]

    @property
    def overlap(self) -> tuple[float, float]:
        """Board mm printed on both of two neighbours, across columns and across rows."""
        cw, ch = self.tiles[0].cell[2:]
        ww, wh = self.tiles[0].window[2:]
        return (ww - cw, wh - ch)


def plan_tiles(width: float, height: float, paper: str, margin: float = PRINTER_MARGIN) -> TilePlan:
    """The fewest sheets (portrait or landscape) that hold the board with the minimum overlap."""
    best = None
    for landscape in (False, True):
        mx, my, pw, ph = printable_area(paper, landscape, margin)
        cols = _count(width, pw)
        rows = _count(height, ph)
        if best is None or cols * rows < best[0]:
            best = (cols * rows, landscape, cols, rows, (mx, my, pw, ph))
    assert best is not None  # the loop above ran
    _, landscape, cols, rows, (mx, my, pw, ph) = best
    cw, ch = width / cols, height / rows
    tiles = []
    for row in range(rows):
        for col in range(cols):
            cx, cy = col * cw, row * ch
            tiles.append(Tile(row, col, (cx, cy, cw, ch), (cx - (pw - cw) / 2, cy - (ph - ch) / 2, pw, ph)))
    return TilePlan(paper, landscape, paper_size(paper, landscape), (width, height), rows, cols, tuple(tiles))


def _count(length: float, printable: float) -> int:
    """Cells needed along one side so each leaves a strip of ``STRIP_MIN`` on both sides."""
    if printable <= 2 * STRIP_MIN:
        raise ValueError("paper too small to tile on")
    return max(1, math.ceil(length / (printable - 2 * STRIP_MIN)))


def tile_pages(plan: TilePlan, board_form: str, title: str, words: Words,
               typeset: Typeset) -> tuple[list[Form], list[Page]]:
    """One page per tile, the board form clipped to the tile's window; forms to add to the document.
    Labels are set in ``typeset`` (the game's body family)."""
    forms, pages = [], []
    pw, ph = plan.page
    for n, tile in enumerate(plan.tiles, start=1):
        wx, wy, ww, wh = tile.window
        ox, oy = (pw - ww) / 2 - wx, (ph - wh) / 2 - wy   # page = board + (ox, oy)
        form = Form(f"tile-{board_form}-{tile.label}", (Use(board_form, 0.0, 0.0),), tile.window)
        forms.append(form)
        page = Page(pw, ph, [Use(form.name, ox, oy)], label=f"{title} {tile.label}")
        page.items += _marks(plan, tile, ox, oy)
        page.items += _tag(plan, tile, n, ox, oy, title, words, typeset)
        pages.append(page)
    return forms, pages


def _marks(plan: TilePlan, tile: Tile, ox: float, oy: float) -> list:
    """Crop marks out from each cell corner to the window's edge; targets on edges shared with a neighbour."""
    x, y, w, h = tile.cell
    wx, wy, ww, wh = tile.window
    marks = []
    for cx in (x, x + w):
        for cy in (y, y + h):
            px, py = cx + ox, cy + oy
            sx = -1 if cx == x else 1
            sy = -1 if cy == y else 1
            reach_x = (x - wx) if sx < 0 else (wx + ww - x - w)
            reach_y = (y - wy) if sy < 0 else (wy + wh - y - h)
            marks += _cut_mark(px + sx * MARK_GAP, py, px + sx * reach_x, py)
            marks += _cut_mark(px, py + sy * MARK_GAP, px, py + sy * reach_y)
    if tile.col > 0:
        marks += registration_mark(x + ox, y + h / 2 + oy)
    if tile.col < plan.cols - 1:
        marks += registration_mark(x + w + ox, y + h / 2 + oy)
    if tile.row > 0:
        marks += registration_mark(x + w / 2 + ox, y + oy)
    if tile.row < plan.rows - 1:
        marks += registration_mark(x + w / 2 + ox, y + h + oy)
    return marks


def _cut_mark(x1, y1, x2, y2) -> list[Line]:
    """A crop mark over a white halo, so it reads on a dark part of the board."""
    return [Line(x1, y1, x2, y2, stroke="#ffffff", stroke_width=0.6),
            Line(x1, y1, x2, y2, stroke="#000000", stroke_width=MARK_WIDTH)]


def _tag(plan: TilePlan, tile: Tile, n: int, ox: float, oy: float, title: str, words: Words,
         typeset: Typeset) -> list:
    """Row/column label and index map in the corners outside the cell (cut away, or hidden under a neighbour)."""
    x, y, w, h = tile.cell
    wx, wy, _, _ = tile.window
    strip_x, strip_y = x - wx, y - wy
    items: list = []
    # index map: top-left corner square
    size = min(strip_x, strip_y) - 2.0
    cell = size / max(plan.cols, plan.rows)
    left, top = wx + ox + 1.0, wy + oy + 1.0
    # the frame fits the grid (4 × 2 sheets: a wide frame), so the map does not float in an empty square
    items.append(Rect(wx + ox + 0.5, wy + oy + 0.5, cell * plan.cols + 1.0, cell * plan.rows + 1.0, fill="#ffffff",
                      stroke="#000000", stroke_width=MARK_WIDTH))
    for t in plan.tiles:
        items.append(Rect(left + t.col * cell, top + t.row * cell, cell, cell,
                          fill="#333333" if t is tile else "#ffffff", stroke="#000000", stroke_width=MARK_WIDTH))
    # label: top-right corner square
    # a square in the corner, whatever the two strips' widths (a tall 21 × 42 mm box on 8-sheet boards before)
    side = min(strip_x, strip_y) - 1.0
    rx = x + w + ox + 0.5
    label_w = side
    items.append(Rect(rx, wy + oy + 0.5, side, side, fill="#ffffff", stroke="#000000", stroke_width=MARK_WIDTH))
    size_pt = min(16.0, (side - 3.0) / PT_TO_MM * 0.5)
    items.append(bold_text(typeset, rx + label_w / 2, wy + oy + 0.5 + side / 2 + size_pt * PT_TO_MM * 0.35, tile.label, size_pt,
                           fill="#000000", anchor="middle"))
    items.append(set_text(typeset, rx + label_w / 2, wy + oy + side - 1.0, f"{n}/{len(plan.tiles)}", 4.5,
                          fill="#000000", anchor="middle"))
    # what this is, along the bottom strip of the sheet (outside the cell)
    caption = words("board.tile", title=title, tile=tile.label, row=tile.row + 1, column=tile.col + 1)
    cw = typeset.width(caption, 5.0) + 3.0
    base = y + h + oy + min(5.0, (wy + tile.window[3] - y - h) - 1.0)
    items.append(Rect(x + w / 2 + ox - cw / 2, base - 2.8, cw, 3.8, fill="#ffffff", stroke="#000000",
                      stroke_width=MARK_WIDTH))
    items.append(set_text(typeset, x + w / 2 + ox, base, caption, 5.0, fill="#000000", anchor="middle"))
    return items
