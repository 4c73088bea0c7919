"""PNP508 — board furniture against the pieces played on it: a score marker must fit a score-track cell,
a round marker a round-track cell.

A marker wider than the track's band sits across two cells or over the map,
and the score is misread at the table. The markers are the token set the
board names (``score_markers:``); a board that names none is compared with
every set of pieces whose id says "score", so the mistake is found even when the
designer never linked the two.
"""
from __future__ import annotations

import importlib

from generator.check.registry import Issue, check

#: mm of play a marker needs in its cell (a hand-cut disc is never exact)
PLAY = 1.0


def _markers(game, board) -> list:
    if board.score_markers is not None:
        return [game.parts[board.score_markers]]
    return [part for part_id, part in sorted(game.parts.items())
            if "score" in part_id and part.geometry is not None]   # pieces (a score pad has no geometry)


def _round_markers(game, board) -> list:
    if board.round_marker is not None:
        return [game.parts[board.round_marker]]
    return [part for part_id, part in sorted(game.parts.items()) if "round" in part_id and part.geometry is not None]


@check("PNP508", "error", "score or round markers larger than the cells of the board's score or round track")
def markers_fit_track(game):
    if not game.boards:
        return
    # the boards' layouts, imported for a game with a board
    track_cells = importlib.import_module("generator.layout.board").track_cells
    round_cell = importlib.import_module("generator.layout.board_line").ROUND_CELL
    for board in game.boards.values():
        if board.kind == "line" and board.rounds:
            for part in _round_markers(game, board):
                size = max(part.geometry.width, part.geometry.height)
                if size + PLAY > round_cell:
                    yield Issue(part.source,
                                f"round marker '{part.id}' is {size:g} mm across, but the round track of board "
                                f"'{board.id}' has {round_cell:g} mm cells (a marker needs {PLAY:g} mm of play)",
                                f"make the marker at most {round_cell - PLAY:g} mm (size:)")
        if board.kind != "map" or not board.score_track:
            continue
        cells = track_cells(board.width, board.height, board.score_track, board.score_depth)
        room = min(min(w, h) for _x, _y, w, h in cells)
        for part in _markers(game, board):
            g = part.geometry
            if g is None:
                continue
            size = max(g.width, g.height)
            if size + PLAY > room:
                yield Issue(part.source,
                            f"score markers '{part.id}' are {size:g} mm across, but the cells of board '{board.id}'s "
                            f"score track are {room:.1f} mm (a marker needs {PLAY:g} mm of play)",
                            f"make the markers at most {room - PLAY:.0f} mm (size:), or deepen the track "
                            f"(score_track_depth: {size + PLAY:g} on the board)")
