"""The route family's rules, read off the game model into plain tuples the engine plays fast.

Only the model is read (no second description of the map): the train deck (``role: train``, its
wild colour from ``vars: {wild: …}``), routes with their tracks, ticket decks, ``route_scoring``,
``game_end``, ``players``, ``trains_per_player``, ``all_tracks_from``; the optional ``play`` table
holds turn figures the rulebook states in prose (cards dealt, tickets drawn and kept). A figure the
content does not state is the published Ticket to Ride default below. Rule modules are switched on
by content: passengers (``setup: {passengers: N}`` + ``passenger_majority``), the Globetrotter and
longest-path bonus cards, attractions (places of kind ``attraction``), and dice instead of train cards
(an add-on that replaces them with the dice add-on's dice and tokens), tunnels and ferries (route extras
``tunnel`` / ``ferry``, figures from ``map_rules: {tunnels: {reveal}, ferries: {locomotive_per_mark}}``). A game
using anything else the engine does not implement (other dice, an unknown bonus card, a line game) is
refused with a ``ContentError``: simulating a different game would mislead.

Everything here is picklable plain data: worker processes get it instead of the ``Game``.
"""
from __future__ import annotations

from dataclasses import dataclass

from generator.errors import ContentError
from generator.model.game import Game
from generator.model.network import is_ticket_deck

#: the published defaults (Ticket to Ride rulebook) for figures a game's content does not state
HAND = 4                 # train cards dealt to each player
FACE_UP = 5              # cards in the face-up row
WILD_RESHUFFLE = 3       # this many face-up wilds: the row is discarded and dealt again
TICKETS_DEALT = 3        # tickets dealt at setup …
TICKETS_KEPT = 2         # … of which at least this many are kept
TICKETS_DRAWN = 3        # tickets drawn on a turn …
TICKETS_KEEP = 1         # … of which at least this many are kept
END_TRAINS = 2           # the last round starts when a player has this many trains or fewer
ALL_TRACKS_FROM = 4      # with fewer players only one track of a double route may be claimed
LONGEST_POINTS = 10      # the longest-path bonus card (European Express) when the card gives no points
ATTRACTION_POINTS = 1    # Ticket to Ride: New York, per attraction a player's routes reach
TUNNEL_REVEAL = 3        # cards turned over when claiming a tunnel (Ticket to Ride: Europe)
FERRY_LOCOMOTIVES = 1    # locomotives per ferry mark

#: the dice add-on (rule module ``dice``): its white dice's faces, as the engine numbers them
TRACK, DOUBLE, STATION, LOCO = 0, 1, 2, 3
SINGLE_OR_DOUBLE = (TRACK, DOUBLE)   # the token kinds, indices into a player's tokens
DICE_FACES = ("track", "double-track", "station", "locomotive")
TOKEN_CAP = 3            # tokens a player may hold (the dice rulebook)
DICE_STALL_ROUNDS = 10   # with dice a player may always just take tokens: this many rounds without a claim
                         # or a ticket drawn by anyone and the game is "stalled"

GRAY = -1  # a track of any one colour
ANY_COLOUR = "gray"

#: the keys of the optional ``play`` table and the defaults they replace
PLAY_KEYS = {"hand": HAND, "face_up": FACE_UP, "wild_reshuffle": WILD_RESHUFFLE, "tickets_dealt": TICKETS_DEALT,
             "tickets_kept": TICKETS_KEPT, "tickets_drawn": TICKETS_DRAWN, "tickets_keep": TICKETS_KEEP}
#: bonus cards the engine scores, by the card's latin title
GLOBETROTTER = "Globetrotter"
LONGEST = ("Longest Path", "European Express", "Longest Route")


@dataclass(frozen=True)
class Track:
    """One track of a route: a claimable unit."""

    a: int
    b: int
    length: int
    colour: int        # index into Rules.colours, or GRAY
    group: int         # the parallel tracks between the same two places share a group
    tunnel: bool = False   # claiming it turns over Rules.tunnel_reveal cards that may cost more
    ferry: int = 0         # locomotives the payment must hold (ferry marks × locomotives per mark)


@dataclass(frozen=True)
class Ticket:
    a: int
    b: int
    points: int
    deck: int          # index into Rules.ticket_decks
    name: str          # "Berlin – Köln"


@dataclass(frozen=True)
class Rules:
    """A route game as the engine plays it; every index is into these tuples."""

    game: str
    colours: tuple[str, ...]            # train-card colours; the wild is index len(colours)
    wild: str                           # the wild colour's id ("" when the deck has none)
    deck: tuple[int, ...]               # cards per colour index, wild last
    places: tuple[str, ...]
    terminal: tuple[bool, ...]          # a ticket may end there, never pass through
    tracks: tuple[Track, ...]
    groups: tuple[tuple[int, ...], ...]  # track indices per group
    tickets: tuple[Ticket, ...]
    ticket_decks: tuple[str, ...]
    scoring: dict                       # route length → points
    players: tuple[int, int]
    trains: int
    end_trains: int
    all_tracks_from: int
    hand: int = HAND
    face_up: int = FACE_UP
    wild_reshuffle: int = WILD_RESHUFFLE
    tickets_dealt: int = TICKETS_DEALT
    tickets_kept: int = TICKETS_KEPT
    tickets_drawn: int = TICKETS_DRAWN
    tickets_keep: int = TICKETS_KEEP
    # rule modules (0 / empty: off)
    passengers: tuple[int, ...] = ()            # pieces placed per place at setup
    passenger_colours: tuple[str, ...] = ()
    passenger_pieces: tuple[int, ...] = ()      # pieces per passenger colour
    majority: tuple[int, ...] = ()              # points for the most, second most … of a colour
    globetrotter: int = 0                       # points for the most completed tickets
    longest: int = 0                            # points for the longest continuous path
    attractions: tuple[bool, ...] = ()          # places that score ATTRACTION_POINTS when reached
    dice: tuple[int, ...] = ()                  # dice instead of train cards: the white die's sides (TRACK …)
    dice_count: int = 0                         # white dice rolled each turn
    token_supply: tuple[int, int] = (0, 0)      # single-track and double-track tokens in the supply
    tunnel_reveal: int = 0                      # cards turned over when claiming a tunnel (0: no tunnels)
    defaults: tuple[str, ...] = ()              # figures taken from the published defaults, for the report

    @property
    def wild_index(self) -> int:
        return len(self.colours)

    def track_name(self, index: int) -> str:
        t = self.tracks[index]
        name = f"{self.places[t.a]} – {self.places[t.b]}"
        if len(self.groups[t.group]) > 1:
            name += f" ({self.colour_name(t.colour)})"
        return name

    def group_name(self, group: int) -> str:
        t = self.tracks[self.groups[group][0]]
        return f"{self.places[t.a]} – {self.places[t.b]}"

    def colour_name(self, colour: int) -> str:
        if colour == GRAY:
            return ANY_COLOUR
        return self.wild if colour == self.wild_index else self.colours[colour]


def _refuse(source, what: str, hint: str = "") -> ContentError:
    return ContentError(source, f"pnpgen simulate cannot play this game: {what}",
                        hint or "the simulator plays the Ticket to Ride route family and the S鉄道で行こう line "
                                "family; see the README's 'Playtest simulator' section for the rules it implements")


def compile_rules(game: Game) -> Rules:
    """The game's rules as the engine plays them, or a ContentError naming what the engine does not implement."""
    trains = [d for d in game.decks.values() if d.role == "train"]
    if not trains:
        raise _refuse(game.source, "it has no train-card deck (a deck with `role: train`)")
    deck = trains[0]
    dice = _dice(game, deck.replaced_by) if deck.replaced_by is not None else {}
    wild = str(deck.vars.get("wild", ""))
    counts: dict[str, int] = {}
    for card in deck.cards:
        colour = card.values.get("color")
        if colour is None:
            raise _refuse(card.source, f"{card.ref} has no colour")
        counts[colour.id] = counts.get(colour.id, 0) + card.count
    colours = tuple(c for c in counts if c != wild)
    index = {c: i for i, c in enumerate(colours)}
    if not game.routes:
        raise _refuse(game.source, "it has no routes (a line or network game is not a route game)")
    places = tuple(game.collections.get("place", {}))
    place_index = {p: i for i, p in enumerate(places)}
    terminal_kinds = set(game.meta.get("terminals", ()))
    place_entities = list(game.collections.get("place", {}).values())
    terminal = tuple(p.attrs.get("kind", "city") in terminal_kinds for p in place_entities)
    map_rules = game.map_rules
    if map_rules is not None:
        for what, used in (("stations", map_rules.stations is not None),
                           ("locomotives: only_on", bool(map_rules.locomotives_only_on)),
                           ("locomotives: exchange", map_rules.exchange is not None)):
            if used:
                raise _refuse(map_rules.source, f"map_rules: {what} is a rule the simulator does not implement")
    ferry_locomotives = FERRY_LOCOMOTIVES if map_rules is None or map_rules.ferry_locomotives is None \
        else map_rules.ferry_locomotives
    tracks: list[Track] = []
    groups: dict[tuple[int, int, int], list[int]] = {}
    group_number: dict[tuple[int, int, int], int] = {}   # a group's index: its order in ``groups``
    for n, route in enumerate(game.routes):
        a, b = sorted((place_index[route.a.id], place_index[route.b.id]))
        if a == b:
            continue
        # the tracks of one double route are a group; a distinct route beside them is a group of its own
        key = (a, b, n if route.distinct else -1)
        group = groups.setdefault(key, [])
        number = group_number.setdefault(key, len(group_number))   # (a dict: list(groups).index was quadratic)
        for k, colour in enumerate(route.colors):
            if colour.id == ANY_COLOUR:
                ci = GRAY
            elif colour.id in index:
                ci = index[colour.id]
            else:
                raise _refuse(route.source, f"route {route.a.id} – {route.b.id} is {colour.id} and no train card is",
                              "give the route a card colour or gray (pnpgen check reports this too)")
            group.append(len(tracks))
            tunnel, ferry = _per_track(route.extras.get("tunnel", False), k), _per_track(route.extras.get("ferry", 0), k)
            if int(ferry) * ferry_locomotives > route.length:
                raise _refuse(route.source, f"the ferry {route.a.id} – {route.b.id} needs {int(ferry) * ferry_locomotives} "
                                            f"locomotives for {route.length} spaces",
                              "mark fewer ferry spaces, or lower map_rules: ferries: locomotive_per_mark")
            tracks.append(Track(a, b, route.length, ci, number,
                                bool(tunnel), int(ferry) * ferry_locomotives))
    ticket_decks = [d for d in game.decks.values() if is_ticket_deck(d)]
    tickets = tuple(Ticket(place_index[c.values["from"].id], place_index[c.values["to"].id], int(c.values["points"]), di,
                           f"{c.values['from'].id} – {c.values['to'].id}")
                    for di, d in enumerate(ticket_decks) for c in d.cards for _ in range(c.count)
                    if c.values.get("from") is not None and c.values.get("to") is not None)
    if not tickets:
        raise _refuse(game.source, "it has no destination tickets (a deck with from, to and points)")
    scoring = {int(k): int(v) for k, v in game.tables.get("route_scoring", {}).items()}
    missing = sorted({t.length for t in tracks} - set(scoring))
    if missing:
        raise _refuse(game.source, f"route_scoring has no points for routes of length {missing[0]}",
                      "add the length to tables: route_scoring (pnpgen check reports this too)")
    if game.players is None:
        raise _refuse(game.source, "game: players is not stated", "write e.g. players: [2, 5]")
    if "trains_per_player" not in game.meta:
        raise _refuse(game.source, "game: trains_per_player is not stated", "write e.g. trains_per_player: 45")
    defaults = []
    end = game.tables.get("game_end", {})
    if len(end) == 1:
        end_trains = _whole(game, "tables: game_end", next(iter(end.values())))
    else:
        end_trains = END_TRAINS
        defaults.append(f"last round at ≤ {END_TRAINS} trains")
    if "all_tracks_from" in game.meta:
        all_tracks_from = int(game.meta["all_tracks_from"])
    else:
        all_tracks_from = ALL_TRACKS_FROM
        if any(len(g) > 1 for g in groups.values()):
            defaults.append(f"all tracks of a double route from {ALL_TRACKS_FROM} players")
    play = game.tables.get("play", {})
    for key in play:
        if key not in PLAY_KEYS:
            raise _refuse(game.source, f"tables: play has '{key}', which the simulator does not know",
                          "play: may hold " + ", ".join(PLAY_KEYS))
    figures: dict = {key: _whole(game, f"tables: play: {key}", play.get(key, default)) for key, default in PLAY_KEYS.items()}
    _check_figures(game, figures, sum(counts.values()), len(tickets))
    defaults += [f"{key} {default}" for key, default in PLAY_KEYS.items() if key not in play]
    modules = _modules(game, place_entities)
    modules.update(dice)
    if any(t.tunnel for t in tracks):
        modules["tunnel_reveal"] = TUNNEL_REVEAL if map_rules is None or map_rules.tunnel_reveal is None \
            else map_rules.tunnel_reveal
    if dice and any(t.tunnel or t.ferry for t in tracks):
        raise _refuse(game.source, "tunnels and ferries with dice instead of train cards are not implemented")
    if dice:   # no train cards: the card figures do not apply
        defaults = [d for d in defaults if d.split()[0] not in ("hand", "face_up", "wild_reshuffle")]
    return Rules(game=game.id, colours=colours, wild=wild, deck=tuple(counts[c] for c in colours) + (counts.get(wild, 0),),
                 places=places, terminal=terminal, tracks=tuple(tracks), groups=tuple(tuple(g) for g in groups.values()),
                 tickets=tickets, ticket_decks=tuple(d.id for d in ticket_decks), scoring=scoring,
                 players=(int(game.players[0]), int(game.players[1])), trains=int(game.meta["trains_per_player"]),
                 end_trains=end_trains, all_tracks_from=all_tracks_from, defaults=tuple(defaults), **figures, **modules)


def _whole(game: Game, what: str, value) -> int:
    """``value`` as the whole number a figure of the rules is, or a ContentError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise _refuse(game.source, f"{what} is {value!r}, not a whole number", "write the rulebook's figure, e.g. 3")
    return int(value)


def _check_figures(game: Game, figures: dict, cards: int, tickets: int) -> None:
    """The ``play`` table's figures within what a game can be played with: a hand of a billion cards dealt one by one
    never ends, a turn drawing no ticket is no move. Cards dealt or turned face up: 0 up to the train cards; tickets
    dealt and drawn: 1 up to the tickets (or the published default, for a deck smaller than it); the rest 0 or more."""
    bounds = {"hand": (0, max(cards, HAND)), "face_up": (0, max(cards, FACE_UP)),
              "tickets_dealt": (1, max(tickets, TICKETS_DEALT)), "tickets_drawn": (1, max(tickets, TICKETS_DRAWN))}
    for key, value in figures.items():
        low, high = bounds.get(key, (0, None))
        if value < low or (high is not None and value > high):
            within = f"{low} to {high}" if high is not None else f"{low} or more"
            raise _refuse(game.source, f"tables: play: {key} is {value:,}; a game can be played with {within}",
                          f"write the rulebook's figure for {key} (or leave it out: the published default is "
                          f"{PLAY_KEYS[key]})")


def _per_track(value, track: int):
    """A route extra given once for every track or as a list, one per track."""
    return value[track] if isinstance(value, tuple) else value


def _modules(game: Game, places: list) -> dict:
    """The rule modules the content switches on; a setup or bonus the engine does not know is refused."""
    modules: dict = {}
    setup = game.meta.get("setup", {}) or {}
    for key in setup:
        if key != "passengers":
            raise _refuse(game.source, f"game: setup: {key} is a rule module the simulator does not implement")
    if "passengers" in setup:
        parts = [p for p in game.parts.values() if p.id == "passengers"]
        if not parts or "passenger_majority" not in game.tables:
            raise _refuse(game.source, "passengers need a `passengers` component (its colours) and a "
                                       "passenger_majority table")
        modules["passengers"] = tuple(int(p.attrs.get("passengers", 0) or 0) for p in places)
        modules["passenger_colours"] = tuple(face.values["color"].id for face in parts[0].faces)
        modules["passenger_pieces"] = tuple(face.count for face in parts[0].faces)
        table = game.tables["passenger_majority"]
        modules["majority"] = tuple(int(table[k]) for k in sorted(table, key=int))
        if sum(modules["passengers"]) != sum(modules["passenger_pieces"]):
            raise _refuse(game.source, f"the places hold {sum(modules['passengers'])} passengers and the "
                                       f"component has {sum(modules['passenger_pieces'])}")
    for deck in game.decks.values():
        if deck.role or is_ticket_deck(deck):
            continue
        for card in deck.cards:
            latin = str(card.values.get("latin") or card.values.get("title") or "")
            points = card.values.get("points")
            if latin == GLOBETROTTER and points is not None:
                modules["globetrotter"] = int(points)
            elif latin in LONGEST:
                modules["longest"] = int(points) if points is not None else LONGEST_POINTS
            else:
                raise _refuse(card.source, f"{card.ref} ('{latin}') is a card whose rule the simulator does not know",
                              f"bonus cards it scores: {GLOBETROTTER}, {', '.join(LONGEST)}")
    if any(p.attrs.get("kind") == "attraction" for p in places):
        modules["attractions"] = tuple(p.attrs.get("kind") == "attraction" for p in places)
    return modules


def _dice(game: Game, addon) -> dict:
    """The dice add-on's rule module: white dice with track, double-track, station and locomotive sides and
    single/double-track tokens (components of the add-on). Anything else replacing the cards is refused."""
    dice = [p for p in game.parts.values() if set(_sides(p)) <= set(DICE_FACES)
            and {"track", "double-track"} <= set(_sides(p))]
    if not dice:
        raise _refuse(addon.source, f"the add-on '{addon.id}' replaces the train cards, and has no dice with "
                                    f"{', '.join(DICE_FACES)} sides, the only replacement the simulator knows")
    tokens = {"track": 0, "double-track": 0}
    for part in game.parts.values():
        if not _sides(part):   # pieces, not dice (a die's faces carry no icon)
            for face in part.faces:
                if face.values.get("icon") in tokens:
                    tokens[face.values["icon"]] += face.count
    if not all(tokens.values()):
        raise _refuse(addon.source, f"the add-on '{addon.id}' has dice but no single-track and double-track tokens "
                                    "(token faces with icon: track and icon: double-track)")
    return dict(dice=tuple(DICE_FACES.index(s) for s in dice[0].options.symbols), dice_count=dice[0].count,
                token_supply=(tokens["track"], tokens["double-track"]))


def _sides(part) -> tuple[str, ...]:
    """A component's die sides (``symbols``), or () for a component that is not a die: asked of its options,
    never of its kind's name (tests/test_kinds.py)."""
    return tuple(getattr(part.options, "symbols", ()) or ())
