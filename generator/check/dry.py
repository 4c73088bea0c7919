"""PNP704–705 — the build itself, laid out: whatever the build would refuse, the check finds.

The other checks look at parts (each deck's faces, each piece, the map). Here
every producer of the build runs, as ``pnpgen build`` runs it, against a
context that lays everything out and writes nothing (``generator.writers.lay_out``):
faces with their shapes, card sheets, the rule sheet, board tiles, the
print-and-play file. Text that would not print is handed to a collector (and
drawn anyway, as ``--force`` draws it); a BuildError that stops the layout is
a finding; a ContentError (a mistake in rules.md, a missing layout) propagates,
so the check exits 2 as the build would. What another check reported already
at the same place is not reported twice.

What the checks need of the layout is kept per game and paper: the problems, the
error that stopped it, and for PNP509 the marks each print-and-play part puts inside
the printer's margin (``marks``). The layout itself is kept too for a game of up to
``faces.LARGE_GAME_FACES`` distinct faces, and ``build_game`` writes it rather than
laying the game out again; a larger game's is dropped once looked at (its print-shop
pages and SVG faces are hundreds of MB at 100,000 cards) and the build lays out what it
writes, with the faces the check drew (issue 14). ``pnpgen check`` alone (``check_only``) lays every game out
as a large game's: nothing of it is written.
"""
from __future__ import annotations

import gc
from dataclasses import dataclass

from generator.check import components, printing
from generator.check.registry import Issue, check
from generator.errors import BuildError
from generator.layout.faces import is_large, kept_with
from generator.layout.primitives import Circle, Group, Image, Line, Page, Polygon, Rect, Text, Use
from generator.writers import lay_out

#: the paper ``pnpgen check`` lays out (the build's default; card sizes are checked against Letter at load)
CHECK_PAPER = "a4"


@dataclass
class DryLayout:
    """A game laid out for one paper: the context to write, or the error that stopped it."""

    paper: str
    ctx: object | None            # the BuildContext, every file recorded (None: the layout stopped, or a large game)
    problems: list                # (kind, BuildError): text that would not print, once per kind, place and message
    error: BuildError | None = None
    #: each print-and-play part's marks: (title, component, ``nearest_marks`` of its pages), measured while the
    #: pages were there, for PNP509 to hold against the printer's margin (None if the layout stopped)
    marks: list | None = None

    def buildable(self, force: bool):
        """The context to write (None: a large game's, not kept); the error that stopped the layout, or
        (without ``force``) the first text that would not print, is raised as the build's own would be."""
        if self.error is not None:
            raise self.error
        if self.problems and not force:
            raise self.problems[0][1]
        return self.ctx


def check_only(game) -> None:
    """Say that ``game`` is checked and not built by this process (``pnpgen check``), or built with other outputs than
    the check lays out (``pipeline.build_game`` with a choice of outputs: it lays those out again): its layout is then made as
    a large game's is, without what only writing the files needs (``BuildContext.keep``: the pictures each SVG
    refers to, the print-shop pages), and not kept. Every check finds the same."""
    kept_with(game, "dry")["check only"] = True


def laid_out(game, paper: str = CHECK_PAPER) -> DryLayout:
    """The game laid out by the build's producers for ``paper``, once per game and paper."""
    by_paper = kept_with(game, "layouts")
    if paper not in by_paper:
        by_paper[paper] = _lay_out(game, paper)
    return by_paper[paper]


def _lay_out(game, paper: str) -> DryLayout:
    problems, seen = [], set()

    def note(kind: str, error: BuildError) -> None:
        key = (kind, str(error.source), error.message)
        if key not in seen:
            seen.add(key)
            problems.append((kind, error))

    large, written = is_large(game), not kept_with(game, "dry").get("check only", False)
    try:
        ctx = lay_out(game, paper, on_print_problem=note, keep=written and not large)
    except BuildError as error:
        return DryLayout(paper, None, problems, error)
    marks = [(part.title, part.component, nearest_marks(part.doc.pages)) for part in ctx.result.printable]
    if written and not large:
        return DryLayout(paper, ctx, problems, marks=marks)
    del ctx
    if large:
        gc.collect()   # its pending writers and pages are cycles (closures on the context): free them before the build
    return DryLayout(paper, None, problems, marks=marks)


def mark_edges(page: Page, known: dict | None = None) -> list[float]:
    """For each line, outline or target drawn on the page itself, its nearest distance to a paper edge (mm).
    ``known``: a crop mark's distance by (its identity, the paper), for pages that share their marks (a deck's
    sheets) and stay alive meanwhile."""
    near = []
    width, height = page.width, page.height
    for item in page.items:
        if item.__class__ in _NO_MARKS:   # most of a page: its cards (forms placed), pictures, texts
            continue
        if known is not None and item.__class__ is Line:
            key = (id(item), width, height)
            found = known.get(key)
            if found is None:
                x1, y1, x2, y2 = item.x1, item.y1, item.x2, item.y2
                found = known[key] = min(min(x1, y1, width - x1, height - y1), min(x2, y2, width - x2, height - y2))
            near.append(found)
            continue
        if isinstance(item, Line):   # a crop mark: both ends, as any other mark's points
            x1, y1, x2, y2 = item.x1, item.y1, item.x2, item.y2
            near.append(min(min(x1, y1, width - x1, height - y1), min(x2, y2, width - x2, height - y2)))
            continue
        if isinstance(item, Polygon) and item.stroke is not None:
            points = list(item.points)
        elif isinstance(item, Circle) and item.stroke is not None:
            points = [(item.cx - item.r, item.cy - item.r), (item.cx + item.r, item.cy + item.r)]
        else:
            continue
        near.append(min(min(x, y, width - x, height - y) for x, y in points))
    return near


#: the kinds of item that are never a mark (none is a line, polygon or circle)
_NO_MARKS = frozenset({Use, Group, Rect, Text, Image})


def nearest_marks(pages: list[Page]) -> list[tuple[int, float]]:
    """(page number from 1, mm from the edge) of each page with a mark: its nearest one to an edge."""
    known: dict = {}   # the pages hold their marks while this runs: no identity is reused
    return [(n, min(edges)) for n, page in enumerate(pages, start=1) if (edges := mark_edges(page, known))]


def marks_inside(pages: list[Page], margin: float) -> list[tuple[int, float]]:
    """(page number from 1, mm from the edge) of each page with a mark inside ``margin``: its nearest one."""
    return inside_margin(nearest_marks(pages), margin)


def inside_margin(nearest: list[tuple[int, float]], margin: float) -> list[tuple[int, float]]:
    """Of ``nearest_marks``, the pages whose nearest mark is inside ``margin``."""
    return [(n, mm) for n, mm in nearest if mm < margin - 1e-6]


def _reported_elsewhere(game) -> tuple[set, set]:
    """What the card and piece checks (PNP701–703, PNP807–809) found: print problems by (kind, place),
    layout failures by (place, message)."""
    problems, failures = set(), set()
    for found in (printing.print_problems(game), components.print_problems(game)):
        for kind, errors in found.by_kind.items():
            problems |= {(kind, str(e.source)) for e in errors}
            failures |= {(str(e.source), e.message) for e in errors}
    return problems, failures


@check("PNP704", "error", "text elsewhere in the build (the rule sheet, the print-and-play file) that would not "
                          "print: a glyph the font lacks, text that does not fit")
def build_print_problems(game):
    elsewhere, _ = _reported_elsewhere(game)
    for kind, error in laid_out(game).problems:
        if (kind, str(error.source)) not in elsewhere:
            yield Issue(error.source, error.message, error.hint)


@check("PNP705", "error", "the build would refuse this: laying out every file as the build does fails")
def build_refuses(game):
    error = laid_out(game).error
    if error is not None and (str(error.source), error.message) not in _reported_elsewhere(game)[1]:
        yield Issue(error.source if error.source.file is not None else None, error.message, error.hint)
