"""PNP509 — marks a home printer would not print: crop marks and cut lines inside its unprintable margin.

Many duplex printers leave 4-6 mm blank at each edge; a crop mark there is
simply missing from the sheet, and the pieces are cut by guesswork. The
margin is the game's ``print: margin:`` (default 5 mm), and every sheet the
build lays out keeps its marks outside it. This check proves it on the pages
themselves: each page of the print-and-play file, as the build lays it out
(``dry.laid_out``, which measures the pages while it has them: ``marks_inside``),
for lines and outlines drawn on the page (crop marks, fold lines, die-net outlines, tile registration marks) — what sits in a
piece's own artwork is bleed, meant to be cut off.
"""
from __future__ import annotations

from generator.check.dry import inside_margin, laid_out, mark_edges, marks_inside
from generator.check.registry import Issue, check

__all__ = ["mark_edges", "marks_in_margin", "marks_inside"]   # the page measures live with the layout they read


@check("PNP509", "error", "crop marks or cut lines inside the printer's unprintable margin (print: margin:)")
def marks_in_margin(game):
    layout = laid_out(game)
    if layout.marks is None:   # the layout stopped: PNP704 reports why
        return
    margin = game.printer_margin
    for title, component, nearest in layout.marks:
        inside = inside_margin(nearest, margin)
        if not inside:
            continue
        owner = game.parts.get(component) or game.boards.get(component) or game.decks.get(component)
        page, mm = inside[0]
        more = f" (and {len(inside) - 1} more pages)" if len(inside) > 1 else ""
        yield Issue(owner.source if owner is not None else game.source,
                    f"{title}: page {page} has a mark {mm:.1f} mm from the paper edge, inside the printer's "
                    f"{margin:g} mm margin{more}",
                    "a printer that cannot print there leaves the mark off: make the pieces smaller, or give your "
                    "printer's real margin under print: margin:")
