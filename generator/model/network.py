"""The map as a graph: shortest paths for tickets, the terminal rule, ticket decks.

Derived once per game (cached) because the loader (``points: auto``), the
checker and ``pnpgen stats`` all ask the same questions. Terminals (place
kinds named in ``game: terminals:``, e.g. the neighbouring countries of
Ticket to Ride: Germany) may be a ticket's end but never a way through, so a
path between two places only uses terminals that are its own ends.

The graph is a plain adjacency map searched with Dijkstra's algorithm (``heapq``): a map has a few
hundred routes, and networkx, which gives the same lengths and paths (tests/test_network.py holds it),
took longer to import (0.15 s, every ``pnpgen check``) than the searches take.
"""
from __future__ import annotations

import heapq
import weakref
from collections import Counter

from generator.model.game import Card, Deck, Entity, Game, Route

_CACHE: weakref.WeakKeyDictionary[Game, Network] = weakref.WeakKeyDictionary()


def network(game: Game) -> Network:
    """The game's network, built on first use."""
    net = _CACHE.get(game)
    if net is None:
        net = _CACHE[game] = Network(game)
    return net


def is_ticket_deck(deck: Deck) -> bool:
    """A deck of tickets: cards naming two places (``from``, ``to``) and their ``points``."""
    return deck.field_type("from") == "place" and deck.field_type("to") == "place" and deck.field_type("points") == "int"


def ticket_decks(game: Game) -> list[Deck]:
    return [deck for deck in game.decks.values() if is_ticket_deck(deck)]


def tickets(game: Game) -> list[Card]:
    """Every ticket card with both ends (an optional ``from: place?`` may be left empty): what paths are asked for."""
    return [card for deck in ticket_decks(game) for card in deck.cards
            if card.values.get("from") is not None and card.values.get("to") is not None]


class Network:
    """Places joined by routes; an edge's weight is the route's length in spaces."""

    def __init__(self, game: Game):
        self.terminal_kinds = frozenset(game.meta.get("terminals", ()))
        #: place id → {neighbour id → fewest spaces of a route between them}
        self.graph: dict[str, dict[str, int]] = {place.id: {} for place in game.collections.get("place", {}).values()}
        #: (a, b) sorted ids → the routes between them (rows), in content order
        self.pairs: dict[tuple[str, str], list[Route]] = {}
        for route in game.routes:
            if route.a.id == route.b.id:
                continue  # a self-loop joins nothing (the checker reports it)
            key = pair(route.a, route.b)
            self.pairs.setdefault(key, []).append(route)
            a, b = key
            current = self.graph.setdefault(a, {}).get(b)
            if current is None or route.length < current:
                self.graph[a][b] = route.length
                self.graph.setdefault(b, {})[a] = route.length
        self._terminals = frozenset(p.id for p in game.collections.get("place", {}).values()
                                    if p.attrs.get("kind", "city") in self.terminal_kinds)
        self._lengths: dict[tuple[str, str], int | None] = {}

    def _distances(self, a: str, b: str) -> dict[str, int]:
        """Fewest spaces from ``a`` to every place it reaches without passing through a terminal other than
        ``a`` and ``b`` (Dijkstra; route lengths are at least 1)."""
        blocked = self._terminals - {a, b}
        dist = {a: 0}
        heap = [(0, a)]
        while heap:
            d, node = heapq.heappop(heap)
            if d > dist[node] or (node in blocked):
                continue
            for other, length in self.graph[node].items():
                if other in blocked:
                    continue
                if d + length < dist.get(other, d + length + 1):
                    dist[other] = d + length
                    heapq.heappush(heap, (d + length, other))
        return dist

    def shortest(self, a: Entity, b: Entity) -> int | None:
        """Fewest spaces from ``a`` to ``b`` not passing through a terminal; None if there is no way."""
        key = pair(a, b)
        if key not in self._lengths:
            if key[0] not in self.graph or key[1] not in self.graph:
                self._lengths[key] = None
            else:
                self._lengths[key] = self._distances(*key).get(key[1])
        return self._lengths[key]

    def shortest_paths(self, a: Entity, b: Entity) -> list[list[str]]:
        """Every shortest path (as place ids) from ``a`` to ``b`` under the terminal rule, sorted."""
        if a.id not in self.graph or b.id not in self.graph:
            return []
        dist = self._distances(a.id, b.id)
        if b.id not in dist:
            return []
        paths: list[list[str]] = []

        def back(node: str, tail: list[str]) -> None:   # from b towards a over edges on a shortest path
            if node == a.id:
                paths.append([node, *tail])
                return
            for other, length in self.graph[node].items():
                if other in dist and dist[other] + length == dist[node] and (other == a.id or other not in tail):
                    back(other, [node, *tail])
        back(b.id, [])
        return sorted(paths)

    def degree(self) -> Counter:
        """Place id → number of routes (rows) that end there."""
        count = Counter({p: 0 for p in self.graph})
        for (a, b), routes in self.pairs.items():
            count[a] += len(routes)
            count[b] += len(routes)
        return count


def pair(a: Entity, b: Entity) -> tuple[str, str]:
    return (a.id, b.id) if a.id <= b.id else (b.id, a.id)
