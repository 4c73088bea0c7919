"""Rule examples worked out from the game's own data (``{{ example('claim') }}`` in rules.md).

A rulebook explains a move with a picture: this route, these cards, so many points. pnpgen computes
the example from the content — the route, the cards it takes, the points the scoring table gives,
the shortest way a ticket is completed — so it stays right when the map or the table changes.
This module chooses and computes; ``generator.layout.examples`` draws; the caption is the game's
language (``example.*`` in the word catalogues).

Examples of the route family (a map board with places and routes, a train deck, ``route_scoring``):
``claim`` (a route paid with cards of its colour and a wild card), ``double`` (a double route and the
player-count rule), ``ticket`` (a ticket completed along its shortest way). Of the line family (a line
board of stations and train types): ``move`` (a train card played from a station, stop by stop). Of the
network family (a road board of cities in areas, scoring tiles with ``route_length`` and ``areas``):
``settle`` (a route of cities settled: houses built, tiles taken).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from generator.errors import ContentError, Source
from generator.model import dataclass_eq, dataclass_hash, dataclass_repr
from generator.model.board import Board
from generator.model.game import Card, Deck, Entity, Game, Route
from generator.model.network import Network, is_ticket_deck, network, ticket_ends

KINDS = ("claim", "double", "ticket", "move", "settle")
#: most simple paths the settle example looks through for a telling route (a small map has a few thousand)
MAX_PATHS = 20000
MAX_STEPS = 200_000   # and most partial routes it extends
#: mm of map kept around the places an example shows
MARGIN = 22.0


@dataclass(frozen=True, repr=False, eq=False)
class Example:
    """What one example shows: the board, the tracks a player has placed, the cards spent or the ticket."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    kind: str
    board: Board                        # a map board
    placed: tuple[tuple[Route, int], ...]  # (route, track index) covered with the player's trains
    places: tuple[str, ...]             # the places framed and ringed (ids)
    cards: tuple[Card, ...]             # train cards spent, in the order shown
    ticket: Card | None
    points: int
    caption: str
    player: str                         # the hex colour of the example player's trains
    train_type: Entity | None = None    # a move: the train type the card played is
    houses: tuple[str, ...] = ()        # a settled route: the cities that get a house
    tiles: tuple[Card, ...] = ()        # and the scoring tiles taken (the top tile of each stack)
    die: object = None                  # a claim with dice: the die (a Component of kind die) and the sides used
    die_sides: tuple[str, ...] = ()
    chapter: str = ""                   # "addon": worked out for an add-on's chapter (plays by the add-on)


def plan_example(game: Game, kind: str, query: dict[str, str], source: Source, addon: bool = False) -> Example:
    """The example ``kind`` with ``query``'s choices (``a``, ``b``: a route's or ticket's places), or the game's
    most telling one; a ContentError at ``source`` when the game cannot show it. ``addon``: for an add-on's
    chapter, which plays by the add-on (a claim with the dice that replace the train cards); the game's own
    chapter keeps the game's own pieces (its train cards), as its text does."""
    return replace(_plan(game, kind, query, source, addon), chapter="addon" if addon else "")


def _plan(game: Game, kind: str, query: dict[str, str], source: Source, addon: bool) -> Example:
    if kind not in KINDS:
        raise ContentError(source, f"no rule example '{kind}'", f"examples are {', '.join(KINDS)}")
    if kind == "move":
        return _move(game, _line_board(game, source), query, source)
    board = _map_board(game, source)
    if kind == "settle":
        return _settle(game, board, query, source)
    scoring = {int(k): int(v) for k, v in game.tables.get("route_scoring", {}).items()}
    if not scoring:
        raise ContentError(source, f"the example '{kind}' needs tables: route_scoring", "add the route scoring table")
    routes = [broute.route for broute in board.routes]
    if kind == "ticket":
        return _ticket(game, board, routes, scoring, query, source)
    if query.get("tracks", "1") not in ("1", "2"):
        raise ContentError(source, f"tracks='{query['tracks']}': a claim is on a route of 1 track or a double route (2)",
                           "write tracks=2 for a double route")
    pick = _route(routes, query, source, double=(kind == "double" or query.get("tracks") == "2"))
    if kind == "double":
        return _double(game, board, routes, pick, source)
    return _claim(game, board, pick, scoring, source, addon)


# --------------------------------------------------------------------------- the three examples

def _claim(game: Game, board: Board, route: Route, scoring: dict[int, int], source: Source,
           addon: bool = False) -> Example:
    dice = _track_die(game)
    if dice is not None and (addon or not _train_decks(game)):   # dice alone, or the add-on's own chapter
        return _claim_with_dice(game, board, route, scoring, dice, source)
    deck, wild = _train_deck(game, source)
    colour = route.colors[0]
    gray = colour is None or colour.id not in _deck_colours(deck)
    if gray:   # any one colour: show the most common one
        counts = {cid: sum(c.count for c in deck.cards if _colour_id(c) == cid) for cid in _deck_colours(deck)}
        colour_id = max(sorted(counts), key=lambda cid: counts[cid])
    else:
        colour_id = colour.id
    plain = next(c for c in deck.cards if _colour_id(c) == colour_id)
    joker = next((c for c in deck.cards if wild and _colour_id(c) == wild), None)
    n_wild = 1 if joker is not None and route.length >= 2 else 0
    cards = (plain,) * (route.length - n_wild) + ((joker,) if joker is not None and n_wild else ())
    points = _points(scoring, route.length, source)
    words = game.words
    parts = [words("example.card-count", color=_colour_name(game, colour_id), count=route.length - n_wild)]
    if n_wild and joker is not None:
        parts.append(words("example.card-count", color=_card_name(joker), count=n_wild))
    caption = words("example.claim", a=route.a.name, b=route.b.name, length=route.length,
                    color=_colour_name(game, colour.id if colour is not None else "gray"),
                    cards=words["example.and"].join(parts), points=points)
    if gray:
        caption += words["example.gray"]
    return Example("claim", board, ((route, 0),), (route.a.id, route.b.id), cards, None, points, caption,
                   _player(game))


def _double(game: Game, board: Board, routes: list[Route], route: Route, source: Source) -> Example:
    tracks = len(route.colors)
    few = game.meta.get("all_tracks_from")
    low = game.players[0] if game.players else 2
    words = game.words
    caption = words("example.double", a=route.a.name, b=route.b.name, tracks=tracks)
    if few is not None and int(few) > low:
        high = int(few) - 1
        players = str(low) if high == low else words("example.players", low=low, high=high)
        caption += words("example.double-few", players=players)
    return Example("double", board, ((route, 0),), (route.a.id, route.b.id), (), None, 0, caption, _player(game))


def _ticket(game: Game, board: Board, routes: list[Route], scoring: dict[int, int], query: dict[str, str],
            source: Source) -> Example:
    decks = [d for d in game.decks.values() if is_ticket_deck(d)]
    cards = [card for deck in decks for card in deck.cards if len(ticket_ends(card)) == 1]
    if not cards:
        raise ContentError(source, "the example 'ticket' needs a ticket deck (cards with from:, to:, points:)",
                           "add a ticket deck, or leave the example out")
    net = network(game)   # the game's own: its answers are kept for the next check (Network.keep)
    chosen = _chosen_ticket(cards, net, query, source)
    start, end = chosen.values["from"], ticket_ends(chosen)[0]
    path = net.shortest_paths(start, end)[0]
    placed = []
    for a, b in zip(path, path[1:]):
        ends = (a, b) if a < b else (b, a)
        options = [r for r in net.pairs[ends] if r in routes]
        placed.append((min(options, key=lambda r: r.length), 0))
    spaces = sum(r.length for r, _ in placed)
    points = int(chosen.values["points"])
    caption = game.words("example.ticket", a=start.name, b=end.name, points=points, spaces=spaces,
                         routes=len(placed),
                         route_points=sum(_points(scoring, r.length, source) for r, _ in placed))
    return Example("ticket", board, tuple(placed), tuple(path), (), chosen, points, caption, _player(game))


def _move(game: Game, board: Board, query: dict[str, str], source: Source) -> Example:
    """A train card played from a station: the piece moves from stop to stop of its type, up to its advance."""
    types = {t.id: t for t in board.train_types}
    stations = [s.id for s in board.stations]
    start = query.get("at", stations[1] if len(stations) > 1 else stations[0])
    if start not in stations:
        raise ContentError(source, f"no station '{start}' on the line", f"stations are {', '.join(stations[:6])} …")
    stopping = [t for t in board.train_types if start in _stops(t)]
    if "type" in query:
        if query["type"] not in types:
            raise ContentError(source, f"no train type '{query['type']}'", f"train types are {', '.join(types)}")
        ttype = types[query["type"]]
        if ttype not in stopping:
            raise ContentError(source, f"{ttype.name} does not stop at '{start}'", "name a station the type stops at")
    else:   # a type of middling speed: it passes some stations, as the seed's own example does
        if not stopping:
            raise ContentError(source, f"no train type stops at '{start}'", "name another station: at='…'")
        stopping.sort(key=lambda t: (-len(_stops(t)), t.id))
        ttype = stopping[len(stopping) // 2]
    advance = int(ttype.attrs.get("advance", 1))
    # by default one section, as the rulebook's own example: the stations passed are what the picture shows
    sections = int(query["sections"]) if query.get("sections", "").isdigit() else 1
    if not 1 <= sections <= advance:
        raise ContentError(source, f"{ttype.name} moves 1 to {advance} sections, not {query.get('sections')}",
                           f"write sections=1 … {advance}")
    stops = _stops(ttype)
    at = stops.index(start)
    path = tuple(stops[at:at + sections + 1])
    card = next((c for d in game.decks.values() for c in d.cards
                 if isinstance(c.values.get("type"), Entity) and c.values["type"].id == ttype.id), None)
    names = {s.id: s.name for s in board.stations}
    skipped = stations.index(path[-1]) - stations.index(path[0]) - (len(path) - 1)
    key = "example.move" if len(path) > 2 else "example.move-one"
    key += "-all" if skipped == 0 else ""   # a type that stops everywhere passes no station
    caption = game.words(key, type=ttype.name, start=names[path[0]], end=names[path[-1]],
                         sections=len(path) - 1, stops=game.words["punct.list"].join(names[p] for p in path[1:]),
                         skipped=skipped)
    return Example("move", board, (), path, (card,) if card is not None else (), None, 0, caption, _player(game),
                   ttype)


def _settle(game: Game, board: Board, query: dict[str, str], source: Source) -> Example:
    """A route of cities settled: houses in every city of one area on it, the route-length tile and, when the
    houses complete an area tile, that tile too — each the top tile of its stack."""
    # scoring tiles are the faces that say what they score for (a route length, or areas), whatever their kind
    faces = [face for part in game.parts.values() for face in part.faces
             if face.values.get("route_length") or face.values.get("areas")]
    lengths = sorted({int(f.values["route_length"]) for f in faces if f.values.get("route_length")})
    if not lengths:
        raise ContentError(source, "the example 'settle' needs scoring tiles with route_length:",
                           "give the route-length tiles route_length: N (or_longer: true for N or more)")
    cities = {p.id: p for p in board.places if isinstance(p.attrs.get("area"), Entity)}
    roads: dict[str, set[str]] = {pid: set() for pid in cities}
    for broute in board.routes:
        a, b = broute.route.a.id, broute.route.b.id
        if a in roads and b in roads and a != b:
            roads[a].add(b)
            roads[b].add(a)
    area_tiles = [f for f in faces if f.values.get("areas") and f.values.get("city_count")]
    if query.get("houses", "area") not in ("area", "each"):
        raise ContentError(source, f"houses='{query['houses']}': houses go in every city of one area ('area') or "
                                   "one in each area ('each')", "write houses='area' or houses='each'")
    each = query.get("houses") == "each"
    if "route" in query:
        path = tuple(query["route"].split(","))
        if len(path) < 2 or any(p not in cities for p in path) or len(set(path)) != len(path):
            raise ContentError(source, f"'{query['route']}' is not a route of different cities of the map",
                               "write route='A,B,C,D,E' with city ids")
        if any(b not in roads[a] for a, b in zip(path, path[1:])):
            raise ContentError(source, f"the cities of '{query['route']}' are not joined by roads one to the next",
                               "name cities in road order")
    else:
        # one house in each area: a longer route through as many areas as can be; else the shortest tile's length
        length = lengths[min(1, len(lengths) - 1)] if each else lengths[0]
        if "length" in query:
            if not query["length"].isdigit() or not 2 <= int(query["length"]) <= len(cities):
                raise ContentError(source, f"length='{query['length']}': a route of 2 to {len(cities)} cities",
                                   "write length=7, or name the route: route='A,B,C'")
            length = int(query["length"])
        path = _telling_route(roads, cities, length, [] if each else area_tiles, spread=each)
        if not path:
            raise ContentError(source, f"the map has no route of {length} cities", "leave the example out")
    by_area: dict[str, list[str]] = {}
    for pid in path:
        by_area.setdefault(cities[pid].attrs["area"].id, []).append(pid)
    completed = [] if each else [t for t in area_tiles if _completes(t, path, cities)]
    area = (sorted(completed[0].values["areas"], key=lambda a: -len(by_area.get(a.id, [])))[0].id if completed
            else max(sorted(by_area), key=lambda a: len(by_area[a])))
    if each:   # the first city of each area the route passes
        houses = tuple(pid for pid in path if by_area[cities[pid].attrs["area"].id][0] == pid)
    else:
        houses = tuple(pid for pid in path if pid in by_area.get(area, []) or
                       (completed and cities[pid].attrs["area"] in completed[0].values["areas"]))
    length_tile = max((f for f in faces if f.values.get("route_length") and
                       (len(path) == int(f.values["route_length"]) or
                        (f.values.get("or_longer") and len(path) >= int(f.values["route_length"])))),
                      key=lambda f: (int(f.values["route_length"]), f.values.get("value") or 0), default=None)
    tiles = tuple(t for t in (length_tile, *(_top(faces, c) for c in completed[:1])) if t is not None)
    words = game.words
    names = [cities[p].name for p in path]
    areas = {cities[p].attrs["area"].id: cities[p].attrs["area"].name for p in houses}
    caption = words("example.settle", cities=words["punct.list"].join(names), count=len(path),
                    area=words["punct.list"].join(areas.values()),
                    houses=words["punct.list"].join(cities[p].name for p in houses),
                    tiles=words["example.and"].join(words("example.tile", title=_one_line(t.values.get("title")),
                                                          value=t.values.get("value") or 0) for t in tiles),
                    points=sum(int(t.values.get("value") or 0) for t in tiles))
    if each:
        caption = words("example.settle-each", cities=words["punct.list"].join(names), count=len(path),
                        areas=len(by_area), houses=words["punct.list"].join(cities[p].name for p in houses),
                        tiles=words["example.and"].join(words("example.tile", title=_one_line(t.values.get("title")),
                                                              value=t.values.get("value") or 0) for t in tiles))
    elif not tiles:
        caption = words("example.settle-none", cities=words["punct.list"].join(names), count=len(path),
                        houses=words["punct.list"].join(cities[p].name for p in houses))
    placed = []
    for a, b in zip(path, path[1:]):
        placed.append((next(br.route for br in board.routes if {br.route.a.id, br.route.b.id} == {a, b}), 0))
    return Example("settle", board, tuple(placed), path, (), None, sum(int(t.values.get("value") or 0) for t in tiles),
                   caption, _player(game), houses=houses, tiles=tiles)


def _telling_route(roads: dict[str, set[str]], cities: dict, length: int, area_tiles: list[Card],
                   spread: bool = False) -> tuple[str, ...]:
    """A route of ``length`` cities that completes an area tile if any does (fewest areas, then by name), else
    one through the fewest areas: what shows houses and tiles together. ``spread``: through the most areas
    with one of them passed twice.

    Routes are tried in the order of their cities' names (a depth-first search that takes neighbours in name
    order), at most MAX_PATHS of them and MAX_STEPS partial ones, so one that ties the best so far comes after it:
    a route is scored in full (the tiles it completes) only if, completing one, it would beat the best on its
    areas alone, which most of a map's routes would not."""
    best: tuple | None = None
    seen = 0
    area_of = {pid: cities[pid].attrs["area"].id for pid in roads}
    # each tile as (its areas, the cities they hold): a route completes it when it passes them all
    wanted = [({a.id for a in t.values["areas"]}, int(t.values["city_count"])) for t in area_tiles]

    def score(path: tuple[str, ...], areas: int) -> None:
        nonlocal best
        order = (areas >= length, -areas) if spread else (False, areas)
        # spread: most areas, yet one area with two cities on the route, so the choice shows
        if best is not None and (not wanted, order) >= best[:2]:
            return   # even completing a tile it comes after the best: not better
        held: dict[str, int] = {}
        for p in path:
            held[area_of[p]] = held.get(area_of[p], 0) + 1
        complete = any(sum(held.get(a, 0) for a in tile) == count for tile, count in wanted)
        key = (not complete, order, path)
        if best is None or key < best:
            best = key

    after = {pid: sorted(roads[pid], reverse=True) for pid in roads}
    stack: list[tuple[str, ...]] = [(pid,) for pid in sorted(roads, reverse=True)]
    steps = 0
    while stack and seen < MAX_PATHS and steps < MAX_STEPS:   # bounded: a hostile map must not hang the rules
        steps += 1
        path = stack.pop()
        if len(path) == length:   # a route of one city
            seen += 1
            score(path, 1)
            continue
        if len(path) == length - 1:
            # its routes, each counted as the stack would pop it (the next ones, in name order), without the stack
            held_areas = {area_of[p] for p in path}
            for n in reversed(after[path[-1]]):
                if n in path:
                    continue
                if not (seen < MAX_PATHS and steps < MAX_STEPS):
                    return best[2] if best else ()
                steps += 1
                seen += 1
                if path[0] > n:
                    continue   # each route once, read from its smaller end
                score(path + (n,), len(held_areas) + (area_of[n] not in held_areas))
            continue
        stack.extend(path + (n,) for n in after[path[-1]] if n not in path)
    return best[2] if best else ()


def _completes(tile: Card, path: tuple[str, ...], cities: dict) -> bool:
    """Does ``path`` hold every city of the tile's areas (houses there would take the tile)?"""
    wanted = {a.id for a in tile.values["areas"]}
    on_route = [p for p in path if cities[p].attrs["area"].id in wanted]
    return len(on_route) == int(tile.values["city_count"])


def _top(faces: list[Card], tile: Card) -> Card:
    """The top tile of ``tile``'s stack: the face with the same title and the highest value."""
    same = [f for f in faces if f.values.get("title") == tile.values.get("title")]
    return max(same, key=lambda f: f.values.get("value") or 0)


def _one_line(text) -> str:
    return " ".join(str(text or "").split())


def _stops(ttype: Entity) -> list[str]:
    return [s.id for s in ttype.attrs.get("stops", [])]


# --------------------------------------------------------------------------- choices

def _line_board(game: Game, source: Source) -> Board:
    boards = [b for b in game.boards.values() if b.kind == "line" and b.stations and b.train_types]
    if not boards:
        raise ContentError(source, "the example 'move' draws the game's line board, and this game has none",
                           "add a line board with stations and train types, or leave the example out")
    return boards[0]


def _map_board(game: Game, source: Source) -> Board:
    boards = [b for b in game.boards.values() if b.kind == "map" and b.routes]
    if not boards:
        raise ContentError(source, "rule examples draw the game's map board, and this game has none",
                           "add a board with places and routes, or leave the example out")
    return boards[0]


def _route(routes: list[Route], query: dict[str, str], source: Source, double: bool) -> Route:
    """The route the query names (``a``, ``b``), else a telling one: a double route for ``double``, else a
    coloured route of 3–4 spaces (long enough to show a wild card, short enough to frame)."""
    if "a" in query or "b" in query:
        if not ("a" in query and "b" in query):
            raise ContentError(source, "name both ends of the example's route", "e.g. example('claim', a='Berlin', b='Leipzig')")
        found = [r for r in routes if {r.a.id, r.b.id} == {query["a"], query["b"]}]
        if not found:
            raise ContentError(source, f"no route between '{query['a']}' and '{query['b']}' on the map",
                               "name two places a route joins (their ids)")
        route = found[0]
        if double and len(route.colors) < 2:
            raise ContentError(source, f"the route {query['a']}–{query['b']} has one track, not two or more",
                               "name a double route, or let the example choose one")
        return route
    if double:
        doubles = [r for r in routes if len(r.colors) >= 2]
        if not doubles:
            raise ContentError(source, "the example 'double' needs a double route, and the map has none",
                               "leave the example out")
        return min(doubles, key=lambda r: (abs(r.length - 3), r.a.id, r.b.id))
    coloured = [r for r in routes if len(r.colors) == 1 and r.colors[0] is not None and r.a.id != r.b.id]
    pool = coloured or [r for r in routes if r.a.id != r.b.id]
    return min(pool, key=lambda r: (abs(r.length - 3.5), r.a.id, r.b.id))


def _chosen_ticket(cards: list[Card], network: Network, query: dict[str, str], source: Source) -> Card:
    reachable = [c for c in cards if network.shortest(c.values["from"], ticket_ends(c)[0]) is not None]
    if "a" in query or "b" in query:
        named = [c for c in reachable if {c.values["from"].id, ticket_ends(c)[0].id} == {query.get("a"), query.get("b")}]
        if not named:
            raise ContentError(source, f"no ticket between '{query.get('a')}' and '{query.get('b')}'",
                               "name the two places of a ticket (their ids)")
        return named[0]
    if not reachable:
        raise ContentError(source, "no ticket of the game can be completed on the map", "pnpgen check says why")
    # a ticket whose way takes three routes, worth a middling score: enough to show joining, small enough to frame
    def rest(card: Card) -> tuple:
        return abs(int(card.values["points"]) - 8), card.values["from"].id, ticket_ends(card)[0].id

    # the smallest (routes off 3, rest): tried in the order of the rest, the first ticket of exactly three routes is
    # it, so its paths are asked for only until one is found (every ticket's only if none has three)
    best: tuple | None = None
    for card in sorted(reachable, key=rest):
        routes = len(network.shortest_paths(card.values["from"], ticket_ends(card)[0])[0]) - 1
        if best is None or (abs(routes - 3), rest(card)) < best[0]:
            best = ((abs(routes - 3), rest(card)), card)
        if routes == 3:
            break
    assert best is not None
    return best[1]


def _claim_with_dice(game: Game, board: Board, route: Route, scoring: dict[int, int], dice, source: Source) -> Example:
    """The dice add-on's claim: as many track results as spaces (double-track ones on a double route), one of
    them a locomotive, the wild side."""
    side = "double-track" if len(route.colors) >= 2 and "double-track" in dice.options.symbols else "track"
    wild = "locomotive" if "locomotive" in dice.options.symbols and route.length >= 2 else None
    sides = (side,) * (route.length - (1 if wild else 0)) + ((wild,) if wild else ())
    labels = dice.options.labels
    words = game.words
    parts = [words("example.die-count", side=labels.get(side, side), count=sides.count(side))]
    if wild:
        parts.append(words("example.die-count", side=labels.get(wild, wild), count=1))
    points = _points(scoring, route.length, source)
    caption = words("example.claim-dice", a=route.a.name, b=route.b.name, length=route.length,
                    dice=words["example.and"].join(parts), points=points)
    return Example("claim", board, ((route, 0),), (route.a.id, route.b.id), (), None, points, caption, _player(game),
                   die=dice, die_sides=sides)


def _track_die(game: Game):
    """The die whose sides claim routes (a ``track`` side), if the game plays with dice."""
    return next((p for p in game.parts.values() if "track" in getattr(p.options, "symbols", ())), None)


def _train_decks(game: Game) -> list[Deck]:
    """The game's train decks (role train), in play first: one an add-on replaces (the dice) is still the
    game's own, which its own chapter shows."""
    decks = [d for d in game.decks.values() if d.role == "train"]
    return sorted(decks, key=lambda d: d.replaced_by is not None)


def _train_deck(game: Game, source: Source) -> tuple[Deck, str | None]:
    decks = _train_decks(game)
    if not decks:
        raise ContentError(source, "the example 'claim' shows the train cards spent, and no deck has role: train",
                           "give the train deck role: train")
    deck = decks[0]
    return deck, deck.vars.get("wild")


def _deck_colours(deck: Deck) -> list[str]:
    wild = deck.vars.get("wild")
    return [cid for cid in dict.fromkeys(_colour_id(c) for c in deck.cards) if cid and cid != wild]


def _colour_id(card: Card) -> str:
    colour = card.values.get("color")
    return colour.id if isinstance(colour, Entity) else str(colour or "")


def _colour_name(game: Game, colour_id: str) -> str:
    colour = game.palette.get(colour_id)
    return colour.name if colour is not None else game.words[f"color.{colour_id}"]


def _card_name(card: Card) -> str:
    colour = card.values.get("color")
    return colour.name if isinstance(colour, Entity) else str(colour)


def _points(scoring: dict[int, int], length: int, source: Source) -> int:
    if length not in scoring:
        raise ContentError(source, f"route_scoring has no points for a route of {length} spaces",
                           "add the length to tables: route_scoring")
    return scoring[length]


def _player(game: Game) -> str:
    """The example player's colour: of the per-player piece set's colours (the trains), the one furthest from
    every route (and train type) colour of the boards, so the player's pieces never read as a route; else a red."""
    routes = {c.attrs.get("hex") for b in game.boards.values() for br in b.routes for c in br.route.colors
              if isinstance(c, Entity)}
    routes |= {t.attrs["color"].attrs.get("hex") for b in game.boards.values() for t in b.train_types
               if isinstance(t.attrs.get("color"), Entity)}   # a line board's train types too
    route_rgb = [_rgb(str(h)) for h in sorted(h for h in routes if h)]
    for part in game.parts.values():
        if getattr(part.options, "per_player", False) and part.faces:
            colours = [str(c.attrs["hex"]) for f in part.faces for c in [f.values.get("color")]
                       if isinstance(c, Entity) and c.attrs.get("hex")]
            if colours:
                return max(colours, key=lambda h: min((_distance(_rgb(h), r) for r in route_rgb), default=0.0))
    return "#b03a2e"


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """A rough perceptual distance (redmean), enough to tell a player's colour from a route's."""
    mean = (a[0] + b[0]) / 2
    dr, dg, db = a[0] - b[0], a[1] - b[1], a[2] - b[2]
    return ((2 + mean / 256) * dr * dr + 4 * dg * dg + (2 + (255 - mean) / 256) * db * db) ** 0.5
