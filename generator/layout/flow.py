"""Flowing text onto pages: pieces of known height placed down columns.

A rule sheet (and the print-and-play cover) is a stream of *pieces* — a line
of text, a table row, a row of pictures — each with its height in mm and a
function that draws it at a given top-left corner. ``Flow`` stacks them down
a column, moves to the next column or page when one does not fit, keeps a
heading with what follows it, and numbers the pages at the end. Breaking
between pieces (never inside one) is what lets a paragraph or a table run
on into the next column.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from generator.errors import BuildError, Source
from generator.fonts import Typeset
from generator.layout.primitives import Line, Page
from generator.layout.sheets import PAPERS
from generator.layout.text import set_text
from generator.model import dataclass_eq, dataclass_repr

MARGIN = 14.0        # mm around the text area (a home printer needs 5)
COLUMN_GAP = 7.0     # mm between columns
FOOTER = 7.0         # mm from the paper's bottom edge to the footer baseline
FOOTER_PT = 7.0
FOOTER_INK = "#6b6b6b"


@dataclass(repr=False, eq=False)
class Piece:
    """Something of fixed height that is never split across columns."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    height: float
    draw: Callable[[float, float], list]  # (x, y) of the top-left corner → primitives
    space_before: float = 0.0             # dropped at the top of a column
    keep_with_next: bool = False          # a heading stays with the line after it
    full_width: bool = False              # spans every column (chapter titles); starts a page
    source: Source | None = None          # for "does not fit" errors
    header: Piece | None = None         # drawn again above this piece when it opens a column (table rows)


@dataclass(repr=False, eq=False)
class Flow:
    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    paper: str = "a4"
    columns: int = 2
    footer: str = ""
    pages: list[Page] = field(default_factory=list)
    #: the faces the footers are set in (the game's ``body`` family, else pnpgen's own)
    typeset: Typeset = field(default_factory=Typeset)

    def __post_init__(self):
        self.width, self.height = PAPERS[self.paper]
        self.text_width = self.width - 2 * MARGIN
        self.column_width = (self.text_width - (self.columns - 1) * COLUMN_GAP) / self.columns
        self.bottom = self.height - MARGIN
        self._column = 0
        self._y = self._top = MARGIN
        self._empty = True  # nothing placed in this column yet

    # ----------------------------------------------------------------- placing
    def add(self, pieces: list[Piece]) -> None:
        i = 0
        while i < len(pieces):
            j = i
            while pieces[j].keep_with_next and j + 1 < len(pieces):
                j += 1
            group = pieces[i:j + 1]
            if group[0].full_width:
                self._full_width(group[0])
                i += 1
                continue
            if not self._fits(group) and not self._empty:
                self._next_column()
            for piece in group:
                if not self._fits([piece]) and not self._empty:
                    self._next_column()
                self._put(piece)
            i = j + 1

    def _fits(self, group: list[Piece]) -> bool:
        needed = sum(p.height + p.space_before for p in group) - (group[0].space_before if self._empty else 0)
        if self._empty and group[0].header is not None:
            needed += group[0].header.height
        return self._y + needed <= self.bottom + 1e-6

    def _put(self, piece: Piece) -> None:
        if not self.pages:
            self._new_page()
        if self._empty and piece.header is not None:  # a table continued: its header row again
            self._put(Piece(piece.header.height, piece.header.draw, source=piece.source))
        elif not self._empty:
            self._y += piece.space_before
        if self._y + piece.height > self.bottom + 1e-6:
            raise BuildError(piece.source, f"a block {piece.height:.0f} mm tall does not fit a "
                                           f"{self.bottom - self._top:.0f} mm column",
                             "split it (a shorter table or picture), or show fewer faces: picture('id', faces=4)")
        x = MARGIN + self._column * (self.column_width + COLUMN_GAP)
        self.pages[-1].items.extend(piece.draw(x, self._y))
        self._y += piece.height
        self._empty = False

    def _full_width(self, piece: Piece) -> None:
        if not self.pages or not self._page_empty():
            self._new_page()
        self.pages[-1].items.extend(piece.draw(MARGIN, self._top))
        self._top += piece.height
        self._y = self._top
        self._empty = True

    def _page_empty(self) -> bool:
        return self._column == 0 and self._empty and self._top == MARGIN

    def _next_column(self) -> None:
        if self._column + 1 < self.columns:
            self._column += 1
            self._y = self._top
            self._empty = True
        else:
            self._new_page()

    def _new_page(self) -> None:
        self.pages.append(Page(self.width, self.height, [], label=f"{self.footer} p{len(self.pages) + 1}"))
        self._column = 0
        self._y = self._top = MARGIN
        self._empty = True

    # ----------------------------------------------------------------- finishing
    def finish(self) -> list[Page]:
        """Pages with footers: the document's name on the left, "n / N" on the right."""
        total = len(self.pages)
        y = self.height - FOOTER
        for n, page in enumerate(self.pages, start=1):
            page.items.append(Line(MARGIN, y - 3.2, self.width - MARGIN, y - 3.2, FOOTER_INK, 0.15))
            if self.footer:
                page.items.append(set_text(self.typeset, MARGIN, y, self.footer, FOOTER_PT, FOOTER_INK))
            page.items.append(set_text(self.typeset, self.width - MARGIN, y, f"{n} / {total}", FOOTER_PT, FOOTER_INK,
                                       "end"))
        return self.pages
