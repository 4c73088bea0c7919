"""PNP5xx — board geometry: what a printed map board would get wrong; PNP507 its words.

The analysis lives in ``generator.layout.board_geometry`` (pure functions on
the board's plan: the same paths, spaces and name boxes the board is drawn
from); these checks only report it, one code per kind of problem. Each map
board is planned once per game and its problems shared by the six checks.
``board_diagnostics(plan)`` gives one plan's problems as diagnostics, each
with the routes and places it concerns in ``subject`` (``pnpgen fit``, ``generator.fit``,
reads those, never the messages).
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from generator.check.registry import CATALOGUE, Issue, check, per_game
from generator.errors import Diagnostic
from generator.fonts import missing_glyphs

if TYPE_CHECKING:
    from generator.layout.board_geometry import BoardPlan

#: the check code of each kind of board problem
CODES = {"too-short": "PNP501", "crossing": "PNP502", "over-city": "PNP503", "names": "PNP504", "off-board": "PNP505",
         "covered": "PNP506"}


def board_diagnostics(plan: BoardPlan) -> list[Diagnostic]:
    """A planned board's problems as diagnostics: the code and severity of their check, ``subject``
    the route keys (``board_geometry.route_keys``: ``(a, b, n)``) and place ids they concern."""
    return [Diagnostic(CODES[p.kind], CATALOGUE[CODES[p.kind]].severity, p.source, p.message, p.hint, subject=p.subject)
            for p in importlib.import_module("generator.layout.board_geometry").board_problems(plan)]


@per_game
def _board_diagnostics(game) -> list[Diagnostic]:
    """Every map board's problems, in board order (the board's layout imported for a game with a map board)."""
    maps = [board for board in game.boards.values() if board.kind == "map"]
    if not maps:
        return []
    plan_for_drawing = importlib.import_module("generator.layout.board").plan_for_drawing
    return [diagnostic for board in maps for diagnostic in board_diagnostics(plan_for_drawing(board))]


def _issues(game, code: str):
    for diagnostic in _board_diagnostics(game):
        if diagnostic.code == code:
            yield Issue(diagnostic.source, diagnostic.message, diagnostic.hint, diagnostic.subject)


@check("PNP501", "error", "a route is drawn too short for its train spaces (by how many mm)")
def route_too_short(game):
    yield from _issues(game, "PNP501")


@check("PNP502", "error", "two routes cross or their spaces overlap on the board")
def routes_cross(game):
    yield from _issues(game, "PNP502")


@check("PNP503", "error", "a route passes over a city it does not connect")
def route_over_city(game):
    yield from _issues(game, "PNP503")


@check("PNP504", "warning", "a place's name cannot be placed without covering a route, a city or another name")
def names_collide(game):
    yield from _issues(game, "PNP504")


@check("PNP505", "error", "a city or a train space lies off the board's playing area")
def off_board(game):
    yield from _issues(game, "PNP505")


@check("PNP506", "error", "the board's title or legend box covers a city, its name or a train space")
def furniture_covers_map(game):
    yield from _issues(game, "PNP506")


@check("PNP507", "error", "a board's name or label has characters no face has a glyph for (they would print as boxes)")
def board_glyphs(game):
    """What a board prints from content, each in the face it is drawn with (``Board.typeset``: the game's body
    family, or pnpgen's own where that family lacks a character): what even the fallback lacks is a box."""
    for board in game.boards.values():
        named = [(board.source, board.name, True), (board.source, board.latin, False)]
        for entity in (*board.places, *board.areas, *board.stations, *board.train_types):
            named += [(entity.source, entity.name, True), (entity.source, entity.latin, False)]
        named += [(board.source, slot.label, True) for slot in board.slots]
        named += [(label.source, text, False) for shape in board.terrain for label in shape.labels
                  for text in (label.text, label.latin)]
        named += [(board.source, slot.latin, True) for slot in board.slots]
        seen = set()
        for src, text, bold in named:
            missing = missing_glyphs(text, board.typeset.face(text, bold).name) if text else []
            if missing and (src.file, src.line, text) not in seen:
                seen.add((src.file, src.line, text))
                yield Issue(src, f"board '{board.id}': no face has a glyph for {' '.join(missing)} in {text!r}",
                            "replace those characters (an emoji, a rare symbol); they would print as empty boxes")
