"""Imposition: card faces onto printable sheets.

Home printing: as many cards as fit at real size, bleed boxes abutting (a
neighbour's bleed would paint over any mark between cards, so crop marks go
in the outer margin only), each front page followed by its back page with the
columns mirrored for long-edge duplex and shifted by the printer's back
offset. Print shop: one card per page, page = bleed box, TrimBox and BleedBox
set.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from generator.errors import BuildError, Source
from generator.layout.primitives import Circle, Line, Page, Use
from generator.model import dataclass_eq, dataclass_hash, dataclass_repr
from generator.model.game import CardGeometry
from generator.papers import PAPERS

PRINTER_MARGIN = 5.0   # mm a home printer cannot print, unless the game says otherwise (print: margin:)
MARK_LENGTH = 4.0      # mm of crop mark
MARK_GAP = 1.0         # mm between bleed edge and the mark's start
SHORT_MARK = (2.5, 0.5)  # (length, gap) when that lets one more row or column fit
MARK_WIDTH = 0.1       # mm (≈ 0.25 pt)


@dataclass(frozen=True, repr=False, eq=False)
class Grid:
    """Where cards sit on a sheet: trim-box origins of each slot, row by row."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    paper: tuple[float, float]
    cols: int
    rows: int
    left: float   # x of the first column's bleed edge
    top: float    # y of the first row's bleed edge
    geometry: CardGeometry
    mark_length: float = MARK_LENGTH
    mark_gap: float = MARK_GAP
    gutter: float = 0.0   # mm of paper between neighbouring cards' bleed edges (``print: home_gutter:``)

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def pitch(self) -> tuple[float, float]:
        """From one slot's bleed edge to the next one's: the bleed box and the gutter."""
        g = self.geometry
        return g.width + 2 * g.bleed + self.gutter, g.height + 2 * g.bleed + self.gutter

    def slot(self, col: int, row: int) -> tuple[float, float]:
        g = self.geometry
        px, py = self.pitch
        return self.left + col * px + g.bleed, self.top + row * py + g.bleed


def grid_for(geometry: CardGeometry, paper: str, source: Source | None = None,
             margin: float = PRINTER_MARGIN, gutter: float = 0.0) -> Grid:
    """The fullest grid: shorter crop marks are used only when they gain a row or column.

    Every crop mark stays outside the printer's unprintable ``margin`` (mm from each paper edge); ``gutter`` mm
    of paper separate neighbouring cards. A piece too large for the paper is a BuildError at ``source``.
    """
    width, height = PAPERS[paper]
    cell_w, cell_h = geometry.width + 2 * geometry.bleed, geometry.height + 2 * geometry.bleed
    best = None
    for length, gap in ((MARK_LENGTH, MARK_GAP), SHORT_MARK):
        reserve = margin + gap + length
        cols = int((width - 2 * reserve + gutter) // (cell_w + gutter))
        rows = int((height - 2 * reserve + gutter) // (cell_h + gutter))
        if best is None or cols * rows > best[0] * best[1]:
            best = (cols, rows, length, gap)
    assert best is not None  # the loop above ran
    cols, rows, length, gap = best
    if cols < 1 or rows < 1:
        raise BuildError(source, f"pieces of {geometry.width:g} × {geometry.height:g} mm (plus {geometry.bleed:g} mm bleed) "
                                 f"do not fit on {paper_name(paper)} within the printer's "
                                 f"{margin:g} mm margin and the crop marks",
                         "make them smaller (size:, or print: card: size: for every deck), use other paper (--paper), "
                         "or a smaller printer margin (print: margin:)")
    return _centred(Grid((width, height), cols, rows, 0.0, 0.0, geometry, length, gap, gutter))


def capped(grid: Grid, cols: int, rows: int) -> Grid:
    """``grid`` with at most ``cols`` × ``rows`` cards, centred on the paper (``print: home_grid:``)."""
    return _centred(replace(grid, cols=min(cols, grid.cols), rows=min(rows, grid.rows)))


def _centred(grid: Grid) -> Grid:
    g, (width, height) = grid.geometry, grid.paper
    cell_w, cell_h = g.width + 2 * g.bleed, g.height + 2 * g.bleed
    left = (width - grid.cols * cell_w - (grid.cols - 1) * grid.gutter) / 2
    top = (height - grid.rows * cell_h - (grid.rows - 1) * grid.gutter) / 2
    return replace(grid, left=left, top=top)


def crop_marks(grid: Grid, dx: float = 0.0, dy: float = 0.0, count: int | None = None,
               mirrored: bool = False) -> list[Line]:
    """Marks along every trim line of the occupied slots, in the outer margin of the block they form.

    ``count`` pieces fill the grid row by row; a last, partial sheet gets marks
    only for the rows (and, on a single row, the columns) it uses, so no mark
    promises a card that is not there. ``mirrored`` is the back of a duplex
    sheet, where the columns run the other way.
    """
    g = grid.geometry
    count = grid.per_sheet if count is None else min(count, grid.per_sheet)
    rows = -(-count // grid.cols)
    used = range(grid.cols) if rows > 1 else range(count)
    cols = sorted(grid.cols - 1 - c for c in used) if mirrored else list(used)
    cell_w, cell_h = g.width + 2 * g.bleed, g.height + 2 * g.bleed
    pitch_w, pitch_h = grid.pitch
    left = grid.left + cols[0] * pitch_w
    right = grid.left + cols[-1] * pitch_w + cell_w
    bottom = grid.top + (rows - 1) * pitch_h + cell_h
    top = grid.top
    gap, length = grid.mark_gap, grid.mark_length

    def mark(x0, y0, x1, y1):
        return Line(x0 + dx, y0 + dy, x1 + dx, y1 + dy, stroke="#000000", stroke_width=MARK_WIDTH)

    marks = []
    for col in cols:
        x0, _ = grid.slot(col, 0)
        for x in (x0, x0 + g.width):
            marks.append(mark(x, top - gap - length, x, top - gap))
            marks.append(mark(x, bottom + gap, x, bottom + gap + length))
    for row in range(rows):
        _, y0 = grid.slot(0, row)
        for y in (y0, y0 + g.height):
            marks.append(mark(left - gap - length, y, left - gap, y))
            marks.append(mark(right + gap, y, right + gap + length, y))
    return marks


def duplex_sheets(fronts: list[str], backs: list[str], geometry: CardGeometry, paper: str,
                  back_offset: tuple[float, float] = (0.0, 0.0), label: str = "",
                  source: Source | None = None, margin: float = PRINTER_MARGIN,
                  home_bleed: float | None = None, gutter: float = 0.0,
                  most: tuple[int, int] | None = None) -> list[Page]:
    """Front and back pages interleaved; ``fronts[i]``/``backs[i]`` are form names of card i.

    ``home_bleed`` (mm, less than the card's bleed): the sheet keeps only that much of each card's bleed, so
    cards sit closer (with 0 they share their cut lines: nine 63 × 88 mm cards on A4 instead of four).
    ``gutter`` (mm): blank paper between neighbouring cards, two cuts apart instead of one shared cut.
    ``most`` (columns, rows): no more cards across and down than that (a perforated stock's grid).
    """
    clip = None
    if home_bleed is not None and home_bleed < geometry.bleed:
        b = home_bleed
        clip = (-b, -b, geometry.width + 2 * b, geometry.height + 2 * b)
        geometry = replace(geometry, bleed=b)
    grid = grid_for(geometry, paper, source, margin, gutter)
    if most is not None:
        grid = capped(grid, *most)
    width, height = grid.paper
    dx, dy = back_offset
    pages = []
    marks: dict[int, tuple[list, list]] = {}   # every full sheet has the same marks: one set of lines, shared
    for sheet, slots in _fill(grid, len(fronts)):
        if len(slots) not in marks:
            marks[len(slots)] = (crop_marks(grid, count=len(slots)),
                                 crop_marks(grid, dx, dy, len(slots), mirrored=True))
        front_marks, back_marks = marks[len(slots)]
        front = Page(width, height, list(front_marks), label=f"{label} sheet {sheet} front")
        back = Page(width, height, list(back_marks), label=f"{label} sheet {sheet} back")
        for i, col, row in slots:
            x, y = grid.slot(col, row)
            front.items.append(Use(fronts[i], x, y, clip))
            bx, by = grid.slot(grid.cols - 1 - col, row)  # long-edge duplex mirrors the columns
            back.items.append(Use(backs[i], bx + dx, by + dy, clip))
        pages += [front, back]
    return pages


def simplex_sheets(pieces: list, geometry: CardGeometry, paper: str, label: str = "",
                   source: Source | None = None, margin: float = PRINTER_MARGIN) -> list[Page]:
    """One-sided sheets (stickers, fold-over strips), with the grid and crop marks of card sheets.

    A piece is a form name, placed at its slot's trim corner, or a tuple of
    ``(form name, dx, dy)`` placements relative to that corner (a fold-over
    strip is its front and its turned back, one above the other).
    """
    grid = grid_for(geometry, paper, source, margin)
    width, height = grid.paper
    pages = []
    for sheet, slots in _fill(grid, len(pieces)):
        page = Page(width, height, crop_marks(grid, count=len(slots)), label=f"{label} sheet {sheet}", one_sided=True)
        for i, col, row in slots:
            x, y = grid.slot(col, row)
            piece = pieces[i]
            for name, dx, dy in ([(piece, 0.0, 0.0)] if isinstance(piece, str) else piece):
                page.items.append(Use(name, x + dx, y + dy))
        pages.append(page)
    return pages


def _fill(grid: Grid, count: int):
    """(sheet number from 1, [(piece index, column, row)]) for each sheet ``count`` pieces fill, row by row."""
    for start in range(0, count, grid.per_sheet):
        yield (start // grid.per_sheet + 1,
               [(i, n % grid.cols, n // grid.cols) for n, i in enumerate(range(start, min(start + grid.per_sheet, count)))])


def print_shop_pages(faces: list[tuple[str, str]], geometry: CardGeometry) -> list[Page]:
    """One page per card face, the page being the bleed box; ``faces`` = (form, label)."""
    g = geometry
    pages = []
    for name, label in faces:
        page = Page(g.width + 2 * g.bleed, g.height + 2 * g.bleed, [Use(name, g.bleed, g.bleed)], label=label)
        page.trim_box = (g.bleed, g.bleed, g.width, g.height)
        page.bleed_box = (0.0, 0.0, page.width, page.height)
        pages.append(page)
    return pages


def registration_mark(x: float, y: float, r: float = 2.0) -> list:
    """A target (circle and cross) centred on (x, y): two sheets showing it line up when the targets do."""
    return [Circle(x, y, r, stroke="#000000", stroke_width=MARK_WIDTH),
            Line(x - r * 1.6, y, x + r * 1.6, y, stroke="#000000", stroke_width=MARK_WIDTH),
            Line(x, y - r * 1.6, x, y + r * 1.6, stroke="#000000", stroke_width=MARK_WIDTH)]


def paper_name(paper: str) -> str:
    """How messages name the paper: A4, A3, Letter, Tabloid."""
    return paper.upper() if paper.startswith("a") else paper.title()


def paper_size(paper: str, landscape: bool = False) -> tuple[float, float]:
    """(width, height) of ``paper`` in mm, turned a quarter when ``landscape``."""
    width, height = PAPERS[paper]
    return (height, width) if landscape else (width, height)


def printable_area(paper: str, landscape: bool = False,
                   margin: float = PRINTER_MARGIN) -> tuple[float, float, float, float]:
    """(x, y, w, h) of what a home printer prints on ``paper``: the sheet less its unprintable margin."""
    width, height = paper_size(paper, landscape)
    return (margin, margin, width - 2 * margin, height - 2 * margin)
