"""The board heatmap (``pnpgen simulate … --heatmap FILE``): the game's own board, its train spaces painted
by how often each track was claimed and its places ringed by how often a claimed route reached them.

The board is drawn by ``generator.layout.board`` exactly as it is printed (one Form, no second drawing
of the map), and the heat is laid over the spaces of the same plan (``plan_for_drawing``), so a heat
space covers a printed space exactly. A band under the board holds the colour scale and the run it shows.
PDF and SVG come from the build's renderers; PNG is the PDF rasterised by PDFium.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from generator.errors import BuildError, ContentError
from generator.layout.board import INK, board_form, plan_for_drawing
from generator.layout.primitives import Circle, Document, Page, Polygon, Rect, Use
from generator.layout.text import bold_text, set_text
from generator.model.game import Game as Model
from generator.render.pdf import render_pdf
from generator.render.svg import render_svg
from generator.simulate.engine import Result
from generator.simulate.rules import Rules

FORMATS = (".pdf", ".svg", ".png")
#: sequential scale, 0 % → 100 % (ColorBrewer YlOrRd, 5 classes): light = rarely claimed, dark = always
RAMP = ("#ffffb2", "#fecc5c", "#fd8d3c", "#f03b20", "#bd0026")
NEVER = "#d9d9d9"      # a track never claimed in any game
BAND = 34.0            # mm under the board for the scale and the caption
RING = 1.2             # mm: the stroke of a place's visit ring (just outside the marker, clear of its name)
PNG_DPI = 100


def heat(fraction: float) -> str:
    """The ramp's colour at ``fraction`` (0–1), interpolated between its stops."""
    f = min(max(fraction, 0.0), 1.0) * (len(RAMP) - 1)
    i = min(int(f), len(RAMP) - 2)
    t = f - i
    a, b = (tuple(int(c[k:k + 2], 16) for k in (1, 3, 5)) for c in (RAMP[i], RAMP[i + 1]))
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b))


def frequencies(rules: Rules, results: list[Result]) -> tuple[list[float], list[float]]:
    """(per track: share of games it was claimed in, per place: share of games a claimed route reached it)."""
    tracks = [0] * len(rules.tracks)
    places = [0] * len(rules.places)
    for r in results:
        reached: set[int] = set()
        for track, _player, _round in r.claims:
            tracks[track] += 1
            t = rules.tracks[track]
            reached.update((t.a, t.b))
        for p in reached:
            places[p] += 1
    n = len(results) or 1
    return [k / n for k in tracks], [k / n for k in places]


def _route_tracks(model: Model) -> dict[int, list[int]]:
    """id(model route) → its tracks' indices in ``Rules.tracks``, in the order ``compile_rules`` numbers them
    (every colour of every route, loops skipped)."""
    out: dict[int, list[int]] = {}
    at = 0
    for route in model.routes:
        if route.a.id == route.b.id:
            continue
        out[id(route)] = list(range(at, at + len(route.colors)))
        at += len(route.colors)
    return out


def heatmap_document(model: Model, rules: Rules, results: list[Result], caption: str) -> Document:
    """One page: the first map board with its heat, and the scale under it."""
    boards = [b for b in model.boards.values() if b.kind != "line"]
    if not boards:
        raise ContentError(model.source, "--heatmap draws the game's map board, and this game has none",
                           "add a board with places and routes, or leave out --heatmap")
    board = boards[0]
    form, _plan = board_form(model, board)
    plan = plan_for_drawing(board)
    track_share, place_share = frequencies(rules, results)
    index = _route_tracks(model)
    place_index = {name: i for i, name in enumerate(rules.places)}
    items: list = [Use(form.name, 0.0, 0.0)]
    for rp in plan.routes:
        ids = index.get(id(rp.route.route), [])
        for n, tp in enumerate(rp.tracks):
            share = track_share[ids[n]] if n < len(ids) else 0.0
            fill = heat(share) if share > 0 else NEVER
            for quad in tp.spaces:
                items.append(Polygon(quad, fill=fill, stroke=INK, stroke_width=0.35))
            if not tp.spaces:   # a road board draws a line, not spaces
                items.append(Polygon(tuple(tp.path), closed=False, stroke=fill, stroke_width=2.4))
    for pid, pp in plan.places.items():
        share = place_share[place_index[pid]] if pid in place_index else 0.0
        items.append(Circle(*pp.center, pp.radius + RING / 2 + 0.2, stroke=heat(share) if share > 0 else NEVER,
                            stroke_width=RING))
    items += _band(board, caption)
    doc = Document(f"{model.label} — heatmap")
    doc.add_form(form)
    page = Page(board.width, board.height + BAND, items, label="heatmap")
    doc.pages.append(page)
    return doc


def _band(board, caption: str) -> list:
    ts = board.typeset
    y0 = board.height
    items: list = [Rect(0, y0, board.width, BAND, fill="#ffffff"),
                   bold_text(ts, 8, y0 + 8, caption, 9, fill=INK)]
    x, y, w, h = 8.0, y0 + 13, min(120.0, board.width - 16), 6.0
    steps = 40
    for k in range(steps):
        items.append(Rect(x + w * k / steps, y, w / steps + 0.05, h, fill=heat(k / (steps - 1)), stroke=None))
    items.append(Rect(x, y, w, h, stroke=INK, stroke_width=0.3))
    for pct in (0, 25, 50, 75, 100):
        tx = x + w * pct / 100
        items.append(set_text(ts, tx, y + h + 4, f"{pct} %", 7, fill=INK, anchor="middle"))
    nx = x + w + 10
    items += [Rect(nx, y, 10, h, fill=NEVER, stroke=INK, stroke_width=0.3),
              set_text(ts, nx + 12, y + 4.3, "never", 7.5, fill=INK)]
    items.append(set_text(ts, 8, y0 + BAND - 4,
                          "train spaces: share of games the track was claimed in · ring around a place: share of games "
                          "a claimed route reached it", 7.5, fill=INK))
    return items


def write_heatmap(model: Model, rules: Rules, results: list[Result], caption: str, path: Path) -> Path:
    """Write the heatmap as PDF, SVG or PNG (by ``path``'s suffix), whole or not at all."""
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise BuildError(None, f"--heatmap {path}: the file must end in {', '.join(FORMATS)}",
                         "e.g. --heatmap heat.pdf")
    doc = heatmap_document(model, rules, results, caption)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise BuildError(None, f"--heatmap {path}: the folder {folder} does not exist", "make it first")
    temp = folder / f".{path.name}.{os.getpid()}.part"   # beside the file, so the rename is atomic
    try:
        if suffix == ".pdf":
            render_pdf(doc, temp)
        elif suffix == ".svg":
            render_svg(doc, doc.pages[0], temp)
        else:
            _png(doc, temp)
        os.replace(temp, path)
    except OSError as error:
        raise BuildError(None, f"cannot write {path}: {error.strerror or error}", "check the folder") from error
    finally:
        temp.unlink(missing_ok=True)
    return path


def _png(doc: Document, path: Path) -> None:
    import pypdfium2 as pdfium  # the PDF library only when a PNG is asked for

    with tempfile.TemporaryDirectory() as scratch:
        pdf = Path(scratch) / "heatmap.pdf"
        render_pdf(doc, pdf)
        document = pdfium.PdfDocument(str(pdf))
        try:
            image = document[0].render(scale=PNG_DPI / 72).to_pil()
        finally:
            document.close()
        image.save(path, format="PNG", optimize=False)
