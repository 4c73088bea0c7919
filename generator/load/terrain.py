"""Read a map board's ``terrain:`` list into ``Terrain`` shapes (generator.model.board).

Each shape is checked here, at its own line: its kind (the schema's enum), enough points for its
kind, every point on the board, its colours a palette name or ``#rrggbb``, and the limits on shapes
and points (``generator.limits``). What it covers is not checked: a shape lies behind the routes,
so land over a city is fine; a city afloat on sea or water is PNP510 (generator.check.terrain).
"""
from __future__ import annotations

import math
import re

from generator import limits
from generator.errors import ContentError, Source, did_you_mean
from generator.model.board import Board, Terrain, TerrainLabel
from generator.model.game import Game

LABEL_PT = 14.0   # a terrain label's default size: a sea's name reads from across the table
HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def read_terrain(game: Game, board: Board, spec) -> list[Terrain]:
    """The board's terrain shapes in the order written (the first is drawn first, under the rest)."""
    rows = spec.get("terrain", [])
    if len(rows) > limits.MAX_TERRAIN_SHAPES:
        raise ContentError(spec.src("terrain"), f"board '{board.id}' has {len(rows)} terrain shapes, over "
                                                f"{limits.MAX_TERRAIN_SHAPES} (MAX_TERRAIN_SHAPES)",
                           "merge neighbouring shapes of one kind and colour into one")
    return [_shape(game, board, row, rows.src(i)) for i, row in enumerate(rows)]


def _shape(game: Game, board: Board, row, src: Source) -> Terrain:
    kind = str(row["kind"])
    raw = row.get("points", [])
    if len(raw) > limits.MAX_TERRAIN_POINTS:
        raise ContentError(src, f"a {kind} shape has {len(raw)} points, over {limits.MAX_TERRAIN_POINTS} "
                                f"(MAX_TERRAIN_POINTS)", "simplify the outline (0.5 mm on the board is plenty)")
    points = tuple((float(x), float(y)) for x, y in raw)
    least = 2 if kind == "river" else 3
    if (kind != "areas" or points) and len(points) < least:   # areas without points: the whole map
        raise ContentError(src, f"a {kind} shape needs at least {least} points, not {len(points)}",
                           "write points: [[x, y], …] in board mm" + (" (a line)" if kind == "river" else
                                                                      " (the corners of the outline)"))
    for x, y in points:
        if not (math.isfinite(x) and math.isfinite(y) and 0 <= x <= board.width and 0 <= y <= board.height):
            raise ContentError(src, f"a {kind} shape's point [{x:g}, {y:g}] is off board '{board.id}' "
                                    f"({board.width:g} × {board.height:g} mm)",
                               f"clip the outline to 0–{board.width:g} × 0–{board.height:g}")
    width = float(row.get("width" if kind == "river" else "stroke_width", 3.0 if kind == "river" else 0.5))
    return Terrain(kind, points, _colour(game, row, "colour", src), _colour(game, row, "stroke", src),
                   width, src, str(row.get("name", "")), tuple(_label(board, label, src) for label in row.get("labels", [])))


def _label(board: Board, spec, src: Source) -> TerrainLabel:
    x, y = (float(v) for v in spec["at"])
    if not (0 <= x <= board.width and 0 <= y <= board.height):
        raise ContentError(src, f"the label '{spec['text']}' at [{x:g}, {y:g}] is off board '{board.id}' "
                                f"({board.width:g} × {board.height:g} mm)", "move it onto the shape it names")
    return TerrainLabel(str(spec["text"]), str(spec.get("latin", "")), (x, y), float(spec.get("angle", 0.0)),
                        float(spec.get("size", LABEL_PT)), src)


def _colour(game: Game, row, key: str, src: Source) -> str | None:
    """A colour as hex: a palette name (its ``hex``) or ``#rrggbb`` as written; None when not given."""
    if key not in row:
        return None
    value = str(row[key])
    if HEX.match(value):
        return value.lower()
    if value in game.palette:
        return game.palette[value].hex
    raise ContentError(src, f"terrain {key} '{value}' is neither a palette colour nor #rrggbb",
                       did_you_mean(value, game.palette) or "name a colour under palette:, or write #rrggbb")
