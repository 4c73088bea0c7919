"""The line family's rules (S鉄道で行こう), read off the game model into plain tuples the line engine plays.

A game is of the line family when it has train types with ``stops`` (a ``train_type`` collection:
the station line); ``family`` tells it apart from a route map. Only the model is read: the stations
in line order (a line board's ``stations``, else the ``station`` collection), each train type's
``stops`` and ``advance``, the train-card deck (a ``train_type`` field and a ``number``), the
destination deck (a ``station`` field, ``points``, optionally a ``line``), the bid numbers (the
distinct ``number`` values of the deck whose cards also name a ``player``), ``tables: line_bonus``,
``players``, and from the line board the open destination slots and the round track. Figures the
content does not state (private destination cards per player, 3 in the seed) are the seed's and the
report names them. A line game missing a piece is refused with a ``ContentError`` naming it.
"""
from __future__ import annotations

from dataclasses import dataclass

from generator.errors import ContentError
from generator.model.game import Game

#: figures of S鉄道で行こう (seed 003) the content may not state
PRIVATE = 3          # destination cards dealt face down to each player
OPEN = 5             # destination cards laid face up (the stamp rally)
ROUNDS = 3           # rounds of phase 1 + phase 2


@dataclass(frozen=True)
class TrainType:
    id: str
    advance: int                 # sections one card may move at most
    stops: tuple[int, ...]       # station indices, in line order


@dataclass(frozen=True)
class Destination:
    station: int
    points: int
    line: int                    # index into LineRules.lines, -1 when the card names none
    name: str                    # "Takadanobaba (1, jr)"


@dataclass(frozen=True)
class LineRules:
    """A line game as the engine plays it; every index is into these tuples."""

    game: str
    stations: tuple[str, ...]            # display names, line order; index 0 is the start
    types: tuple[TrainType, ...]
    cards: tuple[tuple[int, int], ...]   # train cards: (type index, number), one entry per printed card
    destinations: tuple[Destination, ...]
    lines: tuple[str, ...]
    bonus: dict                          # different lines → points
    bids: int                            # number cards 1 … bids, also the slots of the train-card row
    open: int                            # face-up destination cards
    private: int                         # destination cards per player
    rounds: int
    chips: int | None                    # chips in the supply (None: as many as needed)
    players: tuple[int, int]
    defaults: tuple[str, ...] = ()       # figures not in the content, for the report
    family: str = "line"

    def stops_at(self, kind: int, station: int) -> bool:
        return station in self.types[kind].stops

    def line_bonus(self, count: int) -> int:
        """Points for ``count`` different lines: the table's row, its top row beyond it, 0 below it."""
        if count in self.bonus:
            return self.bonus[count]
        below = [k for k in self.bonus if k <= count]
        return self.bonus[max(below)] if below else 0


def is_line_game(game: Game) -> bool:
    """The line family: train types that name their stops (a station line), not a route map."""
    return any("stops" in t.attrs for t in game.collections.get("train_type", {}).values())


def _refuse(source, what: str, hint: str = "") -> ContentError:
    return ContentError(source, f"pnpgen simulate cannot play this line game: {what}",
                        hint or "see the README's 'Playtest simulator' section for what a line game needs")


def _label(entity) -> str:
    return entity.latin or entity.name or entity.id


def compile_line_rules(game: Game) -> LineRules:
    """The game's rules as the line engine plays them, or a ContentError naming what is missing."""
    boards = [b for b in game.boards.values() if b.kind == "line"]
    board = boards[0] if boards else None
    stations = list(board.stations) if board is not None and board.stations else \
        list(game.collections.get("station", {}).values())
    if len(stations) < 2:
        raise _refuse(game.source, "it has fewer than two stations", "list the line's stations under stations:")
    index = {s.id: i for i, s in enumerate(stations)}
    types: list[TrainType] = []
    type_index: dict[str, int] = {}
    for t in game.collections.get("train_type", {}).values():
        stops = [index.get(s.id, -1) for s in t.attrs.get("stops", ())]
        if len(stops) < 2 or -1 in stops:
            raise _refuse(t.source, f"train type '{t.id}' stops at fewer than two stations of the line",
                          "give it stops: [station, station, …] from stations:")
        if stops != sorted(set(stops)):
            raise _refuse(t.source, f"train type '{t.id}' lists its stops out of line order",
                          "list stops in the order of stations:, from the start to the terminus")
        advance = t.attrs.get("advance")
        if not isinstance(advance, int) or isinstance(advance, bool) or advance < 1:
            raise _refuse(t.source, f"train type '{t.id}' has no advance (the sections one card moves)",
                          "write e.g. advance: 3")
        type_index[t.id] = len(types)
        types.append(TrainType(t.id, advance, tuple(stops)))
    train_decks = [d for d in game.decks.values() if "train_type" in d.fields.values()]
    if not train_decks:
        raise _refuse(game.source, "it has no train-card deck (a deck with a train_type field)")
    number_field = next((k for k, v in train_decks[0].fields.items() if k == "number" and v == "int"), None)
    if number_field is None:
        raise _refuse(train_decks[0].source, f"the train cards ('{train_decks[0].id}') have no number field",
                      "add fields: {number: int}: the number orders the row and the turns")
    type_field = next(k for k, v in train_decks[0].fields.items() if v == "train_type")
    cards = tuple((type_index[c.values[type_field].id], int(c.values[number_field]))
                  for c in train_decks[0].cards for _ in range(c.count) if c.values.get(type_field) is not None)
    dest_decks = [d for d in game.decks.values() if "station" in d.fields.values() and d.fields.get("points") == "int"]
    if not dest_decks:
        raise _refuse(game.source, "it has no destination deck (a deck with a station field and points)")
    dest = dest_decks[0]
    station_field = next(k for k, v in dest.fields.items() if v == "station")
    line_field = next((k for k, v in dest.fields.items() if v == "line"), None)
    lines = tuple(game.collections.get("line", {}))
    line_index = {ln: i for i, ln in enumerate(lines)}
    destinations = []
    for c in dest.cards:
        where = c.values.get(station_field)
        if where is None or where.id not in index:
            raise _refuse(c.source, f"{c.ref} names no station of the line")
        line = c.values.get(line_field) if line_field else None
        li = line_index[line.id] if line is not None else -1
        name = f"{_label(where)} ({int(c.values['points'])}{', ' + line.id if line is not None else ''})"
        destinations.extend([Destination(index[where.id], int(c.values["points"]), li, name)] * c.count)
    bonus = {int(k): int(v) for k, v in game.tables.get("line_bonus", {}).items()}
    if line_field and not bonus:
        raise _refuse(game.source, "its destination cards name lines and there is no tables: line_bonus",
                      "add tables: line_bonus: {1: 0, 2: 1, …} (different lines → points)")
    number_decks = [d for d in game.decks.values() if d.fields.get("number") == "int" and d is not train_decks[0]
                    and "player" in d.fields]
    if not number_decks:
        raise _refuse(game.source, "it has no number cards (a deck with number and player fields)",
                      "add the players' number cards: each bids for the train card in that slot")
    numbers = sorted({int(c.values["number"]) for c in number_decks[0].cards})
    if numbers != list(range(1, len(numbers) + 1)) or len(numbers) < 2:
        raise _refuse(number_decks[0].source, f"the number cards are {numbers}, not 1 … N",
                      "number them 1, 2, 3 …: a number is a slot of the train-card row")
    if game.players is None:
        raise _refuse(game.source, "game: players is not stated", "write e.g. players: [2, 5]")
    defaults = [f"private destinations {PRIVATE} per player"]
    open_slots = [s.count for s in board.slots if not s.numbered] if board is not None else []
    if open_slots:
        open_count = open_slots[0]
    else:
        open_count = OPEN
        defaults.append(f"open destinations {OPEN}")
    if board is not None and board.rounds:
        rounds = board.rounds
    else:
        rounds = ROUNDS
        defaults.append(f"rounds {ROUNDS}")
    chips_part = game.parts.get("chips")
    chips = chips_part.count if chips_part is not None else None
    if chips is None:
        defaults.append("chips unlimited")
    top = int(game.players[1])
    if open_count + PRIVATE * top > len(destinations):
        raise _refuse(dest.source, f"{len(destinations)} destination cards, and {open_count} open + {PRIVATE} for each "
                                   f"of {top} players are needed", "add destination cards, or lower players")
    return LineRules(game=game.id, stations=tuple(_label(s) for s in stations), types=tuple(types), cards=cards,
                     destinations=tuple(destinations), lines=lines, bonus=bonus, bids=len(numbers), open=open_count,
                     private=PRIVATE, rounds=rounds, chips=chips,
                     players=(int(game.players[0]), int(game.players[1])), defaults=tuple(defaults))
