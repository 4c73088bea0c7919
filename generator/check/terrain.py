"""PNP510 — a map's terrain under its places: a city drawn afloat.

Terrain lies behind everything, so a shape that covers a city or a route is fine; but a place whose
point lies on sea or water (the topmost filled shape there, as drawn: land written after the sea
covers it) reads as a city in the sea — an outline projected or drawn a little off.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from generator.check.registry import Issue, check

if TYPE_CHECKING:
    from generator.model.board import Terrain


def inside(point: tuple[float, float], outline: tuple[tuple[float, float], ...]) -> bool:
    """Whether ``point`` lies inside the closed ``outline`` (even-odd rule; on an edge counts either way)."""
    x, y = point
    found = False
    j = len(outline) - 1
    for i, (xi, yi) in enumerate(outline):
        xj, yj = outline[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            found = not found
        j = i
    return found


def ground_at(terrain: list[Terrain], point: tuple[float, float]) -> Terrain | None:
    """The filled shape drawn on top at ``point`` (rivers are lines, areas are computed: neither counts)."""
    return next((shape for shape in reversed(terrain)
                 if shape.kind not in ("river", "areas") and inside(point, shape.points)), None)


@check("PNP510", "warning", "a place lies on sea or water terrain (the outline under it is off)")
def place_afloat(game):
    for board in game.boards.values():
        if not board.terrain:
            continue
        model = importlib.import_module("generator.model.board")   # a game with terrain has it imported already
        wet_kinds, place_points = model.WET_KINDS, model.place_points
        for place in board.places:
            for name, at in place_points(place).items():
                shape = ground_at(board.terrain, at)
                if shape is not None and shape.kind in wet_kinds:
                    what = f"{place.id}" + (f" (point {name})" if name else "")
                    called = f" '{shape.name}'" if shape.name else ""
                    yield Issue(place.source, f"board '{board.id}': {what} at [{at[0]:g}, {at[1]:g}] lies on "
                                              f"{shape.kind}{called} (terrain at line {shape.source.line})",
                                "move the place onto land, or draw the land under it (a land shape after the "
                                "sea covers it)")
