"""Balance figures for ``pnpgen stats``: what a designer looks at after the checks pass.

Plain data (dicts and lists, sorted) so the CLI can print tables or JSON.
Crowding spreads each ticket over all of its shortest paths (a ticket with
two equally short ways counts half on each) and divides by the tracks the
players may use: below ``game: all_tracks_from`` players, one track per pair.
"""
from __future__ import annotations

from collections import Counter, defaultdict

from generator.check.maps import ANY_COLOUR, card_colours
from generator.model.game import Entity
from generator.model.network import chosen_sets, network, ticket_decks, ticket_ends

TOP = 10

#: a ticket: its start (None: an optional start left empty), its possible ends, how many cards
Ticket = tuple[Entity | None, list[Entity], int]


def game_stats(game) -> dict:
    return {"game": game.id, "colours": colours(game), "points": point_histograms(game),
            "routes_per_place": routes_per_place(game), "places_without_tickets": places_without_tickets(game),
            "crowding": crowding(game), "stops_per_station": stops_per_station(game),
            **({"map_rules": map_rules(game)} if game.map_rules is not None else {})}


def colours(game) -> list[dict]:
    """Per colour: tracks and train spaces on the map, cards in the decks (gray: any colour).

    Empty for games whose routes are not claimed with colour cards."""
    if not card_colours(game):
        return []
    tracks: Counter[str] = Counter()
    spaces: Counter[str] = Counter()
    for route in game.routes:
        for colour in route.colors:
            tracks[colour.id] += 1
            spaces[colour.id] += route.length
    cards: Counter[str] = Counter()  # every deck with colour cards counts (not only the first that has the colour)
    for deck in game.decks.values():
        if deck.field_type("color") == "color":
            for card in deck.cards:
                if card.values.get("color") is not None:
                    cards[card["color"].id] += card.count
    names = sorted(set(tracks) | set(cards), key=lambda c: (c == ANY_COLOUR, c not in tracks, c))
    return [{"colour": c, "tracks": tracks[c], "spaces": spaces[c], "cards": cards[c]} for c in names]


def point_histograms(game) -> list[dict]:
    """Per deck with points (tickets, destinations, carriages): how many cards are worth each number."""
    result = []
    for deck in game.decks.values():
        if deck.field_type("points") != "int":
            continue
        points: Counter[int] = Counter()
        for card in deck.cards:
            if card.values.get("points") is not None:
                points[card["points"]] += card.count
        result.append({"deck": deck.id, "histogram": dict(sorted(points.items())), "cards": deck.size})
    return result


def routes_per_place(game) -> dict[int, list[str]]:
    """Number of routes (rows) → the places with that many."""
    by_count = defaultdict(list)
    if not game.routes:
        return {}
    for place, count in sorted(network(game).degree().items()):
        by_count[count].append(place)
    return dict(sorted(by_count.items()))


def places_without_tickets(game) -> list[str]:
    """Places no ticket names, as a start or as one of its possible ends."""
    decks = ticket_decks(game)
    if not decks:
        return []
    return unnamed_places(game, as_tickets(card for deck in decks for card in deck.cards))


def as_tickets(cards) -> list[Ticket]:
    """Ticket cards as (start or None, possible ends, count): the shape proposed decks are scored in too."""
    return [(card.values.get("from"), ticket_ends(card), card.count) for card in cards]


def unnamed_places(game, tickets: list[Ticket]) -> list[str]:
    """The game's places no ticket names (as a start or one of its ends), sorted."""
    named = {place.id for start, ends, _ in tickets for place in ([start] if start is not None else []) + ends}
    return sorted(p for p in game.collections.get("place", {}) if p not in named)


def crowding(game) -> list[dict]:
    """For the smallest and largest player count: the routes most tickets' shortest paths run through.

    A ticket with several possible ends counts on the paths to its nearest ends. Decks that are
    alternatives of each other (``alternative_of``) are never played together: each choice of decks is
    counted on its own, its entries naming the alternative chosen (``decks``)."""
    if not game.routes or not ticket_decks(game) or not game.players:
        return []
    result = []
    for chosen, decks in chosen_sets(game):
        load = ticket_load(game, as_tickets(card for deck in decks for card in deck.cards))
        for players in dict.fromkeys(game.players):
            usable = usable_tracks(game, players)
            ranked = sorted(((load[pair] / usable[pair], pair) for pair in load), key=lambda x: (-x[0], x[1]))[:TOP]
            entry = {"players": players, "routes": [
                {"route": f"{a}–{b}", "tickets": round(load[(a, b)], 2), "tracks": usable[(a, b)],
                 "per_track": round(value, 2)} for value, (a, b) in ranked]}
            if chosen:
                entry = {"decks": chosen, **entry}
            result.append(entry)
    return result


def ticket_load(game, tickets: list[Ticket]) -> defaultdict[tuple[str, str], float]:
    """Route (sorted place ids) → tickets whose shortest paths use it (a share each, times the ticket's
    count); a ticket with several possible ends counts on the paths to its nearest ends."""
    net = network(game)
    load: defaultdict[tuple[str, str], float] = defaultdict(float)
    for start, ends, count in tickets:
        if start is None or not ends:
            continue  # a ticket with an empty end has no path
        paths = net.nearest_paths(start, ends)
        for path in paths:
            for a, b in zip(path, path[1:]):
                load[(a, b) if a <= b else (b, a)] += count / len(paths)
    return load


def usable_tracks(game, players: int | None) -> dict[tuple[str, str], int]:
    """Route (sorted place ids) → tracks ``players`` may use: every track from ``game: all_tracks_from``
    players on (or ``players`` None: the most); below, one track of a double route (a distinct route
    beside it is one more)."""
    net = network(game)
    all_from = game.meta.get("all_tracks_from")
    if all_from and players is not None and players < all_from:
        return {pair: 1 + sum(1 for r in routes[1:] if r.distinct or routes[0].distinct)
                for pair, routes in net.pairs.items()}
    return {pair: sum(len(r.colors) for r in routes) for pair, routes in net.pairs.items()}


def stops_per_station(game) -> dict[int, list[str]]:
    """Number of train types that stop there → the stations (a line game's reachability)."""
    trains = game.collections.get("train_type", {}).values()
    if not trains:
        return {}
    count = Counter({station: 0 for station in game.collections.get("station", {})})
    for train in trains:
        for stop in train.attrs.get("stops") or []:
            count[stop.id] += 1
    by_count = defaultdict(list)
    for station in game.collections.get("station", {}):  # line order
        by_count[count[station]].append(station)
    return dict(sorted(by_count.items()))


def map_rules(game) -> dict:
    """What the map's rules (``map_rules:``) add to a player's score and hand: points for unused stations,
    the bonuses, cards that stand in for a locomotive."""
    rules = game.map_rules
    out: dict = {}
    if rules.stations is not None:
        out["stations"] = {"count": rules.stations.count, "cards_to_build_all": sum(rules.stations.cost),
                           "points_if_none_built": rules.stations.count * rules.stations.points_per_unused}
    if rules.bonuses:
        out["bonuses"] = dict(rules.bonuses)
        out["bonus_points"] = sum(rules.bonuses.values())
    if rules.exchange:
        out["cards_per_locomotive"] = rules.exchange
    if rules.locomotives_only_on:
        out["locomotives_only_on"] = list(rules.locomotives_only_on)
    return out
