"""PNP509 — marks a home printer would not print: crop marks and cut lines inside its unprintable margin.

Many duplex printers leave 4-6 mm blank at each edge; a crop mark there is
simply missing from the sheet, and the pieces are cut by guesswork. The
margin is the game's ``print: margin:`` (default 5 mm), and every sheet the
build lays out keeps its marks outside it. This check proves it on the pages
themselves: each page of the print-and-play file, as the build lays it out
(``dry.laid_out``), for lines and outlines drawn on the page (crop marks,
fold lines, die-net outlines, tile registration marks) — what sits in a
piece's own artwork is bleed, meant to be cut off.
"""
from __future__ import annotations

from generator.check.dry import laid_out
from generator.check.registry import Issue, check
from generator.layout.primitives import Circle, Line, Page, Polygon


def mark_edges(page: Page) -> list[float]:
    """For each line, outline or target drawn on the page itself, its nearest distance to a paper edge (mm)."""
    near = []
    for item in page.items:
        if isinstance(item, Line):
            points = [(item.x1, item.y1), (item.x2, item.y2)]
        elif isinstance(item, Polygon) and item.stroke is not None:
            points = list(item.points)
        elif isinstance(item, Circle) and item.stroke is not None:
            points = [(item.cx - item.r, item.cy - item.r), (item.cx + item.r, item.cy + item.r)]
        else:
            continue
        near.append(min(min(x, y, page.width - x, page.height - y) for x, y in points))
    return near


def marks_inside(pages: list[Page], margin: float) -> list[tuple[int, float]]:
    """(page number from 1, mm from the edge) of each page with a mark inside ``margin``: its nearest one."""
    found = []
    for n, page in enumerate(pages, start=1):
        near = [d for d in mark_edges(page) if d < margin - 1e-6]
        if near:
            found.append((n, min(near)))
    return found


@check("PNP509", "error", "crop marks or cut lines inside the printer's unprintable margin (print: margin:)")
def marks_in_margin(game):
    layout = laid_out(game)
    if layout.ctx is None:   # the layout stopped: PNP704 reports why
        return
    margin = game.printer_margin
    for part in layout.ctx.result.printable:
        inside = marks_inside(part.doc.pages, margin)
        if not inside:
            continue
        owner = game.parts.get(part.component) or game.boards.get(part.component) or game.decks.get(part.component)
        page, mm = inside[0]
        more = f" (and {len(inside) - 1} more pages)" if len(inside) > 1 else ""
        yield Issue(owner.source if owner is not None else game.source,
                    f"{part.title}: page {page} has a mark {mm:.1f} mm from the paper edge, inside the printer's "
                    f"{margin:g} mm margin{more}",
                    "a printer that cannot print there leaves the mark off: make the pieces smaller, or give your "
                    "printer's real margin under print: margin:")
