"""Boards: full size (PDF + SVG), tiled at 100 % on A4 and on US Letter, and a one-page overview.

The tiled document for the build's paper goes into the print-and-play file;
the others are written beside it. Geometry problems (a route too short for
its spaces, crossings, names that cannot be placed…) are the checker's
PNP5xx findings (generator/check/board.py), shown before the build starts.
"""
from __future__ import annotations

from generator.layout.board import board_form
from generator.layout.board_line import line_board_form
from generator.layout.primitives import Document, Form, Group, Page, Use
from generator.layout.sheets import PRINTER_MARGIN, paper_size, printable_area
from generator.layout.stamp import STAMP_BAND
from generator.layout.text import set_text
from generator.layout.tiling import plan_tiles, tile_pages
from generator.model.board import Board
from generator.model.game import Game
from generator.writers.context import BuildContext, Written

TILE_PAPERS = ("a4", "letter")


def tile_papers(paper: str) -> tuple[str, ...]:
    """The papers a board is tiled for: A4 and Letter always, and the build's own paper (A3, Tabloid)."""
    return TILE_PAPERS if paper in TILE_PAPERS else (*TILE_PAPERS, paper)


def draw_board(game: Game, board: Board) -> Form:
    """A board's artwork, whatever its kind; a map board's geometry problems are checks PNP501–505."""
    if board.kind == "line":
        return line_board_form(game, board)
    return board_form(game, board)[0]


def produce_boards(game: Game, ctx: BuildContext) -> None:
    for board in game.boards.values():
        part = f"board:{board.id}"
        home, shop, svg = ctx.wants_home(part), ctx.wants("print-shop", part), ctx.wants("svg", part)
        if not (home or shop or svg):
            continue
        ctx.progress.step(f"board {board.id}")
        form = draw_board(game, board)
        title = f"{game.label} — {board.label}"
        full = Document(title)
        full.add_form(form)
        page = Page(board.width, board.height, [Use(form.name, 0.0, 0.0)], label=board.id)
        page.trim_box = (0.0, 0.0, board.width, board.height)
        full.pages.append(page)
        if shop:   # at full size: for a print shop or a large-format printer
            ctx.write_pdf(full, f"board-{board.id}.pdf", "board (full size)")
        if svg:
            ctx.write_svg(full, page, f"board-{board.id}.svg")
            ctx.result.files.append(Written(ctx.final / f"board-{board.id}.svg", 1, "board (full size, SVG)"))
        if not home:
            continue
        for paper in tile_papers(ctx.paper):
            if paper != ctx.paper and not ctx.wants("pdf", part):
                continue   # only the print-and-play file's tiles: those for the build's paper
            tiles = plan_tiles(board.width, board.height, paper, game.printer_margin)
            doc = Document(f"{title} ({paper.upper()}, {len(tiles.tiles)} sheets)")
            doc.add_form(form)
            forms, doc.pages = tile_pages(tiles, form.name, board.label, game.words, game.typeset)
            for tile_form in forms:
                doc.add_form(tile_form)
            ctx.write_home_pdf(doc, f"board-{board.id}-tiles-{paper}.pdf", "board tiles", part,
                               section=board.label if paper == ctx.paper else None, component=board.id)
        if ctx.wants("pdf", part):
            ctx.write_pdf(overview(form.name, board, ctx.paper, title, full.forms, game.printer_margin),
                          f"board-{board.id}-overview.pdf", "board overview")


def overview(form_name: str, board: Board, paper: str, title: str, forms: dict,
             margin: float = PRINTER_MARGIN) -> Document:
    """The whole board scaled onto one sheet, turned to the paper's orientation that fits it best."""
    landscape = board.width > board.height
    x, y, w, h = printable_area(paper, landscape, margin)
    pw, ph = paper_size(paper, landscape)
    header, footer = 8.0, STAMP_BAND  # the stamp goes under the board, not over it
    scale = min(w / board.width, (h - header - footer) / board.height)
    dx = x + (w - board.width * scale) / 2
    dy = y + header + (h - header - footer - board.height * scale) / 2
    doc = Document(f"{title} (overview)")
    doc.forms.update(forms)
    doc.pages.append(Page(pw, ph, [
        set_text(board.typeset, pw / 2, y + 5, board.words("board.overview", title=title, percent=f"{scale * 100:.0f}"),
                 8, anchor="middle"),
        Group((Use(form_name, 0.0, 0.0),), dx, dy, scale=scale)], label="overview"))
    return doc
