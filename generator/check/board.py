"""PNP5xx — board geometry: what a printed map board would get wrong.

The analysis lives in ``generator.layout.board_geometry`` (pure functions on
the board's plan: the same paths, spaces and name boxes the board is drawn
from); these checks only report it, one code per kind of problem. Each map
board is planned once per game and its problems shared by the five checks.
"""
from __future__ import annotations

from generator.check.registry import Issue, check, per_game
from generator.layout.board import plan_for_drawing
from generator.layout.board_geometry import board_problems


@per_game
def _board_problems(game) -> list:
    """Every map board's problems, in board order."""
    return [problem for board in game.boards.values() if board.kind == "map"
            for problem in board_problems(plan_for_drawing(board))]


def _problems(game, kind: str):
    for problem in _board_problems(game):
        if problem.kind == kind:
            yield Issue(problem.source, problem.message, problem.hint)


@check("PNP501", "error", "a route is drawn too short for its train spaces (by how many mm)")
def route_too_short(game):
    yield from _problems(game, "too-short")


@check("PNP502", "error", "two routes cross or their spaces overlap on the board")
def routes_cross(game):
    yield from _problems(game, "crossing")


@check("PNP503", "error", "a route passes over a city it does not connect")
def route_over_city(game):
    yield from _problems(game, "over-city")


@check("PNP504", "warning", "a place's name cannot be placed without covering a route, a city or another name")
def names_collide(game):
    yield from _problems(game, "names")


@check("PNP505", "error", "a city or a train space lies off the board's playing area")
def off_board(game):
    yield from _problems(game, "off-board")
