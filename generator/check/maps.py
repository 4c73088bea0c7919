"""PNP3xx — maps: places, routes, their colours and the trains to fill them.

Unknown place names in routes are already load errors (exit 2, with a "did
you mean"); these checks look at what loads but does not add up. Gray is the
colour any set of cards may claim, so it needs no card.
"""
from __future__ import annotations

from generator.check.registry import Issue, check
from generator.model.game import Deck
from generator.model.network import network, pair

ANY_COLOUR = "gray"


def card_colours(game) -> dict:
    """Colour id → the first deck whose cards have it (decks with a `color: color` field: train cards)."""
    found: dict[str, Deck] = {}
    for deck in game.decks.values():
        if deck.field_type("color") != "color":
            continue
        for card in deck.cards:
            colour = card.values.get("color")
            if colour is not None:
                found.setdefault(colour.id, deck)
    return found


def wild_colours(game) -> set:
    """Colours declared wild by a deck (``vars: {wild: locomotive}``): they match every route."""
    return {str(deck.vars["wild"]) for deck in game.decks.values() if "wild" in deck.vars}


@check("PNP301", "error", "two places have the same name (or the same Latin name)")
def duplicate_places(game):
    for attribute in ("name", "latin"):
        seen = {}
        for place in game.collections.get("place", {}).values():
            value = getattr(place, attribute)
            if not value:
                continue
            if value in seen:
                yield Issue(place.source, f"places '{seen[value].id}' and '{place.id}' are both {attribute}d "
                                          f"'{value}' (first at {seen[value].source})",
                            "merge them into one place, or rename one")
            else:
                seen[value] = place


def route_sets(game) -> list[list]:
    """The game's routes, then each board's own routes (a board with its own places, like
    Thurn and Taxis map 2): the row checks below hold for every map a game prints."""
    sets = [list(game.routes)] if game.routes else []
    shared = {id(route) for route in game.routes}
    for board in game.boards.values():
        own = [br.route for br in board.routes if id(br.route) not in shared]
        if own:
            sets.append(own)
    return sets


def _pairs(routes) -> list[list]:
    """Routes grouped by the two places they join (self-loops left out), in content order: the tracks of
    one double route. A row marked ``distinct`` is a route of its own (Nordic's tunnel of 2 beside a
    ferry of 3), a group by itself."""
    grouped: dict = {}
    for route in routes:
        if route.a.id != route.b.id:
            key = (pair(route.a, route.b), id(route) if route.distinct else None)
            grouped.setdefault(key, []).append(route)
    return list(grouped.values())


@check("PNP302", "error", "a route starts and ends at the same place")
def self_loops(game):
    for route in (route for routes in route_sets(game) for route in routes):
        if route.a.id == route.b.id:
            yield Issue(route.source, f"route {route.a.id}–{route.b.id} joins a place to itself",
                        "fix one of its ends")


@check("PNP303", "error", "a route has a colour that no card has")
def route_colours_have_cards(game):
    cards = card_colours(game)
    if not cards:
        return  # no colour cards: routes are not claimed by colour (e.g. Thurn and Taxis)
    for route in game.routes:
        for colour in dict.fromkeys(route.colors):
            if colour.id != ANY_COLOUR and colour.id not in cards:
                yield Issue(route.source, f"route {route.a.id}–{route.b.id} is {colour.id}, but no card is {colour.id}",
                            f"use a card colour ({', '.join(sorted(cards))}) or gray, or add {colour.id} cards")


@check("PNP304", "warning", "a card colour that no route uses (wild cards excepted)")
def card_colours_have_routes(game):
    if not game.routes:
        return
    used = {colour.id for route in game.routes for colour in route.colors}
    wild = wild_colours(game)
    for colour, deck in card_colours(game).items():
        if colour not in used and colour not in wild:
            card = next(c for c in deck.cards if c.values.get("color") and c.values["color"].id == colour)
            yield Issue(card.source, f"deck '{deck.id}' has {colour} cards, but no route is {colour}",
                        "colour some routes with it, or declare it wild (vars: {wild: …})")


@check("PNP305", "error", "parallel tracks between the same two places have different lengths")
def parallel_lengths(game):
    for routes in (group for tracks in route_sets(game) for group in _pairs(tracks)):
        first = routes[0]
        for other in routes[1:]:
            if other.length != first.length:
                yield Issue(other.source, f"tracks {other.a.id}–{other.b.id} are {other.length} long here but "
                                          f"{first.length} at {first.source}",
                            f"if they are one double route, give both rows {first.length} spaces (or write one row "
                            f"[{first.a.id}, {first.b.id}, {first.length}, [colour, colour]]); if they are two routes "
                            f"of their own (a tunnel beside a ferry), add {{distinct: true}} to each row's extras")


@check("PNP306", "error", "parallel tracks between the same two places share a colour (gray excepted)")
def parallel_colours(game):
    for routes in (group for tracks in route_sets(game) for group in _pairs(tracks)):
        seen = {}
        for route in routes:
            for colour in route.colors:
                if colour.id == ANY_COLOUR:
                    continue
                if colour.id in seen:
                    yield Issue(route.source, f"two {colour.id} tracks between {route.a.id} and {route.b.id}",
                                "give each parallel track its own colour (or gray)")
                seen.setdefault(colour.id, route)


@check("PNP307", "warning", "the map has fewer usable train spaces than the players' trains (trains_per_player × players)")
def enough_spaces(game):
    trains = game.meta.get("trains_per_player")
    if not trains or not game.routes or not game.players:
        return
    all_from = game.meta.get("all_tracks_from")
    for players in dict.fromkeys(game.players):
        one_track = bool(all_from and players < all_from)
        spaces = sum(route.length * (1 if one_track else len(route.colors)) for route in _rows_per_pair(game, one_track))
        if spaces < trains * players:
            usable = " (one track per double route)" if one_track else ""
            yield Issue(game.meta.src("trains_per_player"),
                        f"with {players} players the map has {spaces} usable train spaces{usable}, fewer than "
                        f"{trains} trains × {players} players = {trains * players}",
                        "check trains_per_player, players and the route lengths against the rulebook")


def _rows_per_pair(game, one_track: bool):
    """Every route row; with ``one_track``, one row per pair of places (parallel rows count once)."""
    if not one_track:
        return game.routes
    return [routes[0] for routes in _pairs(game.routes)]


@check("PNP308", "warning", "a place that no route reaches")
def places_without_routes(game):
    if not game.routes:
        return
    degree = network(game).degree()
    for place in game.collections.get("place", {}).values():
        if degree[place.id] == 0:
            yield Issue(place.source, f"no route reaches {place.id}", "add its routes, or remove the place")




@check("PNP309", "warning", "the map's rules (map_rules:) and its routes disagree: a tunnel or ferry without its rule, "
                            "a rule for what no route is, locomotive rules without locomotives")
def map_rules_match_routes(game):
    rules = game.map_rules
    if rules is None:
        return  # rules only in comments: nothing to compare
    routes = [route for tracks in route_sets(game) for route in tracks]
    kinds = {"tunnel": [r for r in routes if _any_track(r.extras.get("tunnel"))],
             "ferry": [r for r in routes if _any_track(r.extras.get("ferry"))]}
    declared = {"tunnel": rules.tunnels, "ferry": rules.ferries}
    examples = {"tunnel": "tunnels: {reveal: 3}", "ferry": "ferries: {locomotive_per_mark: 1}"}
    plural = {"tunnel": "tunnels", "ferry": "ferries"}
    for kind, found in kinds.items():
        if found and not declared[kind]:
            route = found[0]
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            yield Issue(route.source, f"route {route.a.id}–{route.b.id} is a {kind}{more}, but map_rules says nothing "
                                      f"about {plural[kind]}", f"add to map_rules: {examples[kind]}")
        if declared[kind] and not found:
            yield Issue(rules.source, f"map_rules has rules for {plural[kind]}, but no route is a {kind}",
                        f"mark the {kind} routes ({{{kind}: …}} in the row's extras), or remove the rule")
    for kind in rules.locomotives_only_on:
        if not kinds[kind]:
            yield Issue(rules.source, f"map_rules: locomotives only on {plural[kind]}, but no route is a {kind}",
                        f"mark the {kind} routes, or remove {kind} from locomotives: only_on")
    if (rules.locomotives_only_on or rules.exchange) and not wild_colours(game):
        yield Issue(rules.source, "map_rules has locomotive rules, but no deck declares a wild colour",
                    "declare the train deck's locomotives: vars: {wild: locomotive}")


def _any_track(value) -> bool:
    """A tunnel or ferry extra set on at least one track (one value for all, or one per track)."""
    return any(value) if isinstance(value, tuple) else bool(value)
