"""How good a deck of tickets is for its map: the scores ``pnpgen stats`` shows for each ticket deck and
``pnpgen tickets suggest`` optimises, in one place so both say the same.

- ``lengths``: the spread of ticket values (population standard deviation; distinct values, min, max);
- ``routes_reached``: routes (pairs of places joined by a route) on some ticket's shortest path, of ``routes``;
  ``routes_unneeded`` names the others, the routes no ticket needs;
- ``places_without_tickets``: places no ticket names (``stats.unnamed_places``);
- ``near_duplicates``: pairs of tickets whose ends are the same or adjacent (joined by a route), both ends;
- ``crowding_max`` / ``crowding_spread``: tickets per usable track (``stats.ticket_load`` /
  ``stats.usable_tracks``, at the most players) on the busiest route, and the coefficient of variation of
  that figure over every route (0: perfectly even; routes no ticket needs count as 0).
"""
from __future__ import annotations

from math import sqrt

from generator.check.stats import Ticket, as_tickets, ticket_load, unnamed_places, usable_tracks
from generator.model.network import network, ticket_decks


def deck_scores(game) -> list[dict]:
    """The scores of each ticket deck of a map game (empty without routes or tickets)."""
    if not game.routes:
        return []
    return [{"deck": deck.id, **score_tickets(game, as_tickets(deck.cards))} for deck in ticket_decks(game)]


def score_tickets(game, tickets: list[Ticket]) -> dict:
    """The scores of one deck (see the module docstring); plain data, rounded to 2 decimals."""
    net = network(game)
    values = []
    for start, ends, count in tickets:
        value = net.shortest_any(start, ends) if start is not None and ends else None
        if value is not None:
            values += [value] * count
    load = ticket_load(game, tickets)
    tracks = usable_tracks(game, max(game.players) if game.players else None)
    per_track = [load.get(pair, 0.0) / max(n, 1) for pair, n in sorted(tracks.items())]
    mean = sum(per_track) / len(per_track) if per_track else 0.0
    return {
        "tickets": sum(count for _, _, count in tickets),
        "lengths": {"min": min(values, default=0), "max": max(values, default=0), "distinct": len(set(values)),
                    "spread": round(_stdev(values), 2)},
        "routes": len(net.pairs),
        "routes_reached": sum(1 for pair in net.pairs if load.get(pair, 0) > 0),
        "routes_unneeded": [f"{a}–{b}" for a, b in sorted(net.pairs) if load.get((a, b), 0) <= 0],
        "places_without_tickets": unnamed_places(game, tickets),
        "near_duplicates": near_duplicates(game, tickets),
        "crowding_max": round(max(per_track, default=0.0), 2),
        "crowding_spread": round(_stdev(per_track) / mean, 2) if mean else 0.0,
    }


def near_duplicates(game, tickets: list[Ticket]) -> int:
    """Pairs of tickets (copies of one card count as pairs too) whose starts are the same or adjacent and
    whose ends are too, either way round; for a ticket with several ends, any of its ends."""
    adjacent = network(game).pairs
    ends = [({start.id} if start is not None else set(), {end.id for end in to}, count) for start, to, count in tickets]

    def close(xs: set[str], ys: set[str]) -> bool:
        return any(x == y or ((x, y) if x <= y else (y, x)) in adjacent for x in xs for y in ys)

    total = 0
    for i, (a1, b1, n1) in enumerate(ends):
        total += n1 * (n1 - 1) // 2
        for a2, b2, n2 in ends[i + 1:]:
            if (close(a1, a2) and close(b1, b2)) or (close(a1, b2) and close(b1, a2)):
                total += n1 * n2
    return total


def _stdev(values) -> float:
    values = list(values)
    if not values:
        return 0.0
    mean = sum(values) / len(values)
    return sqrt(sum((v - mean) ** 2 for v in values) / len(values))
