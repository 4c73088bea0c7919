"""The map as a graph: shortest paths for tickets, the terminal rule, ticket decks.

Derived once per game (cached) because the loader (``points: auto``), the
checker and ``pnpgen stats`` all ask the same questions. Terminals (place
kinds named in ``game: terminals:``, e.g. the neighbouring countries of
Ticket to Ride: Germany) may be a ticket's end but never a way through, so a
path between two places only uses terminals that are its own ends.
"""
from __future__ import annotations

import weakref
from collections import Counter

import networkx as nx

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
        self.graph: nx.Graph = nx.Graph()
        for place in game.collections.get("place", {}).values():
            self.graph.add_node(place.id)
        #: (a, b) sorted ids → the routes between them (rows), in content order
        self.pairs: dict[tuple[str, str], list[Route]] = {}
        for route in game.routes:
            if route.a.id == route.b.id:
                continue  # a self-loop joins nothing (the checker reports it)
            key = pair(route.a, route.b)
            self.pairs.setdefault(key, []).append(route)
            current = self.graph.get_edge_data(*key)
            if current is None or route.length < current["weight"]:
                self.graph.add_edge(*key, weight=route.length)
        self._terminals = frozenset(p.id for p in game.collections.get("place", {}).values()
                                    if p.attrs.get("kind", "city") in self.terminal_kinds)
        self._lengths: dict[tuple[str, str], int | None] = {}

    def _view(self, a: str, b: str):
        if not self._terminals:
            return self.graph
        keep = self._terminals - {a, b}
        return nx.subgraph_view(self.graph, filter_node=lambda n: n not in keep)

    def shortest(self, a: Entity, b: Entity) -> int | None:
        """Fewest spaces from ``a`` to ``b`` not passing through a terminal; None if there is no way."""
        key = pair(a, b)
        if key not in self._lengths:
            try:
                self._lengths[key] = int(nx.dijkstra_path_length(self._view(*key), *key, weight="weight"))  # int weights
            except (nx.NetworkXNoPath, nx.NodeNotFound):
                self._lengths[key] = None
        return self._lengths[key]

    def shortest_paths(self, a: Entity, b: Entity) -> list[list[str]]:
        """Every shortest path (as place ids) from ``a`` to ``b`` under the terminal rule."""
        try:
            return sorted(nx.all_shortest_paths(self._view(a.id, b.id), a.id, b.id, weight="weight"))
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            return []

    def degree(self) -> Counter:
        """Place id → number of routes (rows) that end there."""
        count = Counter({p: 0 for p in self.graph.nodes})
        for (a, b), routes in self.pairs.items():
            count[a] += len(routes)
            count[b] += len(routes)
        return count


def pair(a: Entity, b: Entity) -> tuple[str, str]:
    return (a.id, b.id) if a.id <= b.id else (b.id, a.id)
