"""Line boards (S鉄道で行こう): the stations of one line as squares, in order.

Stations run in a snake of rows from the first station (the start), joined
by the track. Each square carries one marker slot per train type, filled in
the type's colour where that type stops, so a player reads a card's stopping
pattern straight off the board. Below the line, the card slots the rules
need (e.g. the 1–4 row of train cards, the open destination cards), at the
game's card size; in the top band, between the title and the key, the round
track (``round_track:``, cells sized for the round marker); under the card
places, the common supply's places (``pools:``, e.g. the chips).
"""
from __future__ import annotations

from generator.errors import BuildError
from generator.layout import text as textfit
from generator.layout.board import FRAME, INK, LAND
from generator.layout.primitives import Circle, Form, Line, Rect
from generator.model.board import Board
from generator.model.game import Game

SQUARE = 44.0     # station square, mm
MARGIN = 16.0
ROW_GAP = 30.0
SLOT_GAP = 5.0
ROUND_CELL = 26.0   # mm: a round-track cell, room for a 20 mm round marker and a finger (PNP508 checks the marker)
KEY_PT = 8.0        # the key's small print: the least a player reads across the table


def station_layout(board: Board) -> list[tuple[float, float]]:
    """Top-left corner of each station's square, in line order (a snake of rows)."""
    n = len(board.stations)
    per_row = max(1, int((board.width - 2 * MARGIN + 20) // (SQUARE + 20)))
    rows = -(-n // per_row)
    per_row = -(-n // rows)   # balance the rows
    gap = (board.width - 2 * MARGIN - per_row * SQUARE) / max(per_row - 1, 1)
    top = 62.0
    spots = []
    for i in range(n):
        row, col = divmod(i, per_row)
        if row % 2:
            col = per_row - 1 - col
        spots.append((MARGIN + col * (SQUARE + gap), top + row * (SQUARE + ROW_GAP)))
    return spots


def line_board_form(game: Game, board: Board) -> Form:
    items: list = [Rect(0, 0, board.width, board.height, fill=LAND),
                   Rect(4, 4, board.width - 8, board.height - 8, stroke=FRAME, stroke_width=0.8, radius=4)]
    items += _title(board)
    spots = station_layout(board)
    items += _track(spots)
    for n, (station, (x, y)) in enumerate(zip(board.stations, spots), start=1):
        items += _station(board, station, n, x, y)
    # the players' pieces start on the first station, the line ends at the last
    (x0, y0), (x1, y1) = spots[0], spots[-1]
    items += [Rect(x0, y0 - 7.5, SQUARE, 6, fill=FRAME, radius=1.5),
              textfit.bold_text(board.typeset, x0 + SQUARE / 2, y0 - 3.2, board.words["line.start"], 7, fill="#ffffff",
                                anchor="middle"),
              Rect(x1, y1 + SQUARE + 1.5, SQUARE, 6, fill=FRAME, radius=1.5),
              textfit.bold_text(board.typeset, x1 + SQUARE / 2, y1 + SQUARE + 5.8, board.words["line.terminus"], 7,
                                fill="#ffffff", anchor="middle")]
    items += _key(board)
    items += _rounds(board)
    bottom = max(y for _, y in spots) + SQUARE
    items += _slots(board, bottom + 16)
    items += _pools(board, bottom + 16 + 7 + board.card_size[1] + 5)
    return Form(f"board-{board.id}", tuple(items), (0.0, 0.0, board.width, board.height))


def _title(board: Board) -> list:
    items = [textfit.bold_text(board.typeset, MARGIN, 26, board.name, 28, fill=FRAME)]
    if board.latin and board.latin != board.name:
        items.append(textfit.set_text(board.typeset, MARGIN, 36, board.latin, 12, fill=FRAME))
    return items


def _track(spots) -> list:
    """The line between consecutive squares: a black rail with white sleepers."""
    items = []
    half = SQUARE / 2
    for (x1, y1), (x2, y2) in zip(spots, spots[1:]):
        a, b = (x1 + half, y1 + half), (x2 + half, y2 + half)
        items += [Line(*a, *b, stroke=INK, stroke_width=3.0), Line(*a, *b, stroke="#ffffff", stroke_width=1.6, dash=(3, 3))]
    return items


def _station(board: Board, station, n: int, x: float, y: float) -> list:
    where = f"station '{station.id}'"
    items = [Rect(x, y, SQUARE, SQUARE, fill="#ffffff", stroke=INK, stroke_width=0.8, radius=2.5),
             textfit.bold_text(board.typeset, x + 2.0, y + 4.2, str(n), 6.5, fill=FRAME)]
    name = textfit.fit(station.name, SQUARE - 5, 6.0, 13.0, 7.0, max_lines=1,
                       font=board.typeset.face(station.name, bold=True).name)
    if name is None:
        raise BuildError(station.source, f"the name of {where} does not fit its {SQUARE:g} mm square on the board",
                         "shorten the station name")
    items.append(textfit.bold_text(board.typeset, x + SQUARE / 2, y + 6.5 + textfit.cap_height(name.size),
                                   station.name, name.size, fill=INK, anchor="middle"))
    if station.latin:
        latin = textfit.fit(station.latin, SQUARE - 4, 3.0, 7.0, 4.5, max_lines=1,
                            font=board.typeset.face(station.latin).name)
        if latin is None:
            raise BuildError(station.source, f"the Latin name of {where} does not fit its {SQUARE:g} mm square on "
                                             f"the board, even at 4.5 pt", "shorten the station's latin:")
        items.append(textfit.set_text(board.typeset, x + SQUARE / 2, y + 20.0, station.latin, latin.size, fill=INK,
                                      anchor="middle"))
    # one marker slot per train type, filled where the type stops
    types = board.train_types
    slot = (SQUARE - 4) / max(len(types), 1)
    r = min(slot * 0.36, 3.2)
    for i, ttype in enumerate(types):
        cx, cy = x + 2 + slot * (i + 0.5), y + SQUARE - 9.0
        stops = [s.id for s in ttype.attrs.get("stops", [])]
        if station.id in stops:
            items.append(Circle(cx, cy, r, fill=ttype.attrs["color"].hex, stroke=INK, stroke_width=0.3))
        else:
            items.append(Circle(cx, cy, r * 0.35, fill="#d8d2c4"))
    return items


def key_left(board: Board) -> float:
    """Where the key starts: each train type takes the room its own words need."""
    return board.width - MARGIN - sum(_key_width(board, ttype) for ttype in board.train_types)


def _key_width(board: Board, ttype) -> float:
    return max(textfit.bold_width(board.typeset, ttype.name, 9),
               board.typeset.width(_advance(board, ttype), KEY_PT)) + 16.0


def _key(board: Board) -> list:
    """Which marker is which train type, and how far its cards go."""
    x = key_left(board)
    items = []
    for ttype in board.train_types:
        items += [Circle(x + 4, 22, 3.0, fill=ttype.attrs["color"].hex, stroke=INK, stroke_width=0.3),
                  textfit.bold_text(board.typeset, x + 9, 21, ttype.name, 9, fill=INK),
                  textfit.set_text(board.typeset, x + 9, 28, _advance(board, ttype), KEY_PT, fill=INK)]
        x += _key_width(board, ttype)
    items.append(textfit.set_text(board.typeset, key_left(board), 40, board.words["line.key"], KEY_PT, fill=FRAME))
    return items


def round_cells(board: Board) -> list[tuple[float, float, float, float]]:
    """(x, y, w, h) of each round-track cell: a row in the top band, right of the title."""
    title_w = max(textfit.bold_width(board.typeset, board.name, 28),
                  board.typeset.width(board.latin, 12) if board.latin and board.latin != board.name else 0.0)
    x0 = MARGIN + title_w + 16.0
    return [(x0 + i * (ROUND_CELL + 3.0), 16.0, ROUND_CELL, ROUND_CELL) for i in range(board.rounds)]


def _rounds(board: Board) -> list:
    """The round track: numbered cells the round marker moves along, with its name above."""
    if not board.rounds:
        return []
    cells = round_cells(board)
    right = cells[-1][0] + ROUND_CELL
    if right > key_left(board) - 8.0:
        raise BuildError(board.source, f"the round track ({board.rounds} cells of {ROUND_CELL:g} mm) does not fit "
                                       f"between the title and the key of board '{board.id}'",
                         "make the board wider (size:) or use fewer rounds (round_track:)")
    items: list = [textfit.bold_text(board.typeset, cells[0][0], 12.5, board.words["line.rounds"], 11, fill=FRAME)]
    for n, (x, y, w, h) in enumerate(cells, start=1):
        items += [Rect(x, y, w, h, fill="#fbf7ec", stroke=FRAME, stroke_width=0.6, radius=3),
                  textfit.bold_text(board.typeset, x + w / 2, y + h / 2 + 6.0, str(n), 24, fill="#cbbd9c",
                                    anchor="middle")]
    return items


def _pools(board: Board, top: float) -> list:
    """Places for the common supply under the card places: a dashed tray each, named in its corner."""
    if not board.pools:
        return []
    height = board.height - 10.0 - top
    width = 150.0
    total = len(board.pools) * width + (len(board.pools) - 1) * 20.0
    if height < 20.0 or total > board.width - 2 * MARGIN:
        raise BuildError(board.source, f"the supply places ({total:.0f} mm wide) do not fit under the card places of "
                                       f"board '{board.id}'", "make the board larger (size:) or name fewer pools:")
    x = (board.width - total) / 2
    items: list = []
    for pool in board.pools:
        label = f"{pool.label} / {pool.latin}" if pool.latin else pool.label
        items += [Rect(x, top, width, height, fill="#fbf7ec", stroke=FRAME, stroke_width=0.6, radius=4),
                  textfit.bold_text(board.typeset, x + width / 2, top + height / 2 + 3.0, label, 12, fill="#a8987a",
                                    anchor="middle")]
        x += width + 20.0
    return items


def _advance(board: Board, ttype) -> str:
    """How far a train type's cards go, after its Latin name when it has one."""
    advance = board.words("line.advance", count=ttype.attrs.get("advance", "?"))
    return f"{ttype.latin} · {advance}" if ttype.latin else advance


def _slots(board: Board, top: float) -> list:
    """Card places along the bottom: each row named, each place the size of a card."""
    cw, ch = board.card_size
    rows = board.slots
    total = sum(s.count * cw + (s.count - 1) * SLOT_GAP for s in rows) + 20.0 * (len(rows) - 1)
    if total > board.width - 2 * MARGIN or top + 7 + ch > board.height - 6:
        raise BuildError(board.source, f"the card slots ({total:.0f} × {ch + 7:.0f} mm) do not fit on board '{board.id}'",
                         "make the board larger (size:) or use fewer slots")
    x = (board.width - total) / 2
    items: list = []
    for slot in rows:
        label = f"{slot.label} / {slot.latin}" if slot.latin else slot.label
        items.append(textfit.bold_text(board.typeset, x, top + 4, label, 9, fill=FRAME))
        for i in range(slot.count):
            sx = x + i * (cw + SLOT_GAP)
            items.append(Rect(sx, top + 7, cw, ch, fill="#fbf7ec", stroke=FRAME, stroke_width=0.5, radius=3))
            if slot.numbered:
                items.append(textfit.bold_text(board.typeset, sx + cw / 2, top + 7 + ch / 2 + 8, str(i + 1), 48, fill="#d9cdb0",
                                               anchor="middle"))
        x += slot.count * cw + (slot.count - 1) * SLOT_GAP + 20.0
    return items
