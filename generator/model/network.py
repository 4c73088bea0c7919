"""The map as a graph: shortest paths for tickets, the terminal rule, ticket decks.

Derived once per game (cached) because the loader (``points: auto``), the
checker and ``pnpgen stats`` all ask the same questions. Terminals (place
kinds named in ``game: terminals:``, e.g. the neighbouring countries of
Ticket to Ride: Germany) may be a ticket's end but never a way through, so a
path between two places only uses terminals that are its own ends.

The graph is a networkx graph (Dijkstra, every shortest path, terminals hidden with a subgraph view);
networkx is imported when a game's network is first built, so a game without a map never loads it.
"""
from __future__ import annotations

import itertools
import weakref
from collections import Counter

from generator.limits import MAX_SHORTEST_PATHS
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


def has_tickets(deck: Deck) -> bool:
    """A deck of tickets, including tickets with several possible ends (``to: list of place``: "from X to
    any of these", Switzerland's country tickets). The simulator plays only ``is_ticket_deck`` decks."""
    return is_ticket_deck(deck) or (deck.field_type("from") == "place" and deck.field_type("to") == "list of place"
                                    and deck.field_type("points") == "int")


def ticket_decks(game: Game) -> list[Deck]:
    return [deck for deck in game.decks.values() if has_tickets(deck)]


def tickets(game: Game) -> list[Card]:
    """Every ticket card with both ends (an optional ``from: place?`` may be left empty): what paths are asked for."""
    return [card for deck in ticket_decks(game) for card in deck.cards
            if card.values.get("from") is not None and card.values.get("to")]


def ticket_ends(card: Card) -> list[Entity]:
    """The places a ticket may end at: its ``to``, or each of them (``to: list of place``), in content order."""
    to = card.values.get("to")
    if to is None:
        return []
    return list(dict.fromkeys(to)) if isinstance(to, list) else [to]


def alternative_set(game: Game, deck: Deck) -> str:
    """The set of alternative decks a deck belongs to ("" = none): its ``alternative_of``, or its own id
    when another deck names it as the deck it is an alternative to. A game plays one deck of a set."""
    if deck.alternative_of:
        return deck.alternative_of
    return deck.id if any(other.alternative_of == deck.id for other in game.decks.values()) else ""


def chosen_sets(game: Game) -> list[tuple[str, list[Deck]]]:
    """The ticket decks a game may play together: every deck outside an alternative set plus one deck of
    each set. One choice per alternative (the other sets at their first deck), labelled by the alternative
    chosen ("" when the game has no alternatives: one choice, every ticket deck)."""
    decks = ticket_decks(game)
    sets: dict[str, list[Deck]] = {}
    for deck in decks:
        name = alternative_set(game, deck)
        if name:
            sets.setdefault(name, []).append(deck)
    if not sets:
        return [("", decks)]
    choices = []
    for name, members in sets.items():
        for member in members:
            chosen = {n: (member if n == name else m[0]) for n, m in sets.items()}
            choices.append((member.id, [d for d in decks
                                        if alternative_set(game, d) == "" or chosen[alternative_set(game, d)] is d]))
    return choices


class Network:
    """Places joined by routes; an edge's weight is the route's length in spaces."""

    def __init__(self, game: Game):
        nx = _networkx()
        self.terminal_kinds = frozenset(game.meta.get("terminals", ()))
        self.graph = nx.Graph()
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
        return _networkx().subgraph_view(self.graph, filter_node=lambda n: n not in keep)

    def shortest(self, a: Entity, b: Entity) -> int | None:
        """Fewest spaces from ``a`` to ``b`` not passing through a terminal; None if there is no way."""
        key = pair(a, b)
        if key not in self._lengths:
            nx = _networkx()
            try:
                self._lengths[key] = int(nx.dijkstra_path_length(self._view(*key), *key, weight="weight"))  # int weights
            except (nx.NetworkXNoPath, nx.NodeNotFound):
                self._lengths[key] = None
        return self._lengths[key]

    def shortest_any(self, a: Entity, ends: list[Entity]) -> int | None:
        """Fewest spaces from ``a`` to the nearest of ``ends`` (a ticket with several possible ends); an end
        that is ``a`` itself is no way (PNP401 reports it)."""
        lengths = [n for n in (self.shortest(a, end) for end in ends if end.id != a.id) if n is not None]
        return min(lengths) if lengths else None

    def nearest_paths(self, a: Entity, ends: list[Entity]) -> list[list[str]]:
        """Every shortest path from ``a`` to the nearest of ``ends`` (ties between ends included)."""
        best = self.shortest_any(a, ends)
        if best is None:
            return []
        return [path for end in ends if end.id != a.id and self.shortest(a, end) == best
                for path in self.shortest_paths(a, end)]

    def shortest_paths(self, a: Entity, b: Entity) -> list[list[str]]:
        """The shortest paths (as place ids) from ``a`` to ``b`` under the terminal rule, sorted: every one, or
        the first MAX_SHORTEST_PATHS networkx finds (a grid of equal routes has millions of them: listing
        them all would never end)."""
        nx = _networkx()
        try:
            found = nx.all_shortest_paths(self._view(a.id, b.id), a.id, b.id, weight="weight")
            return sorted(itertools.islice(found, MAX_SHORTEST_PATHS))
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


def _networkx():
    """networkx, imported on first use (0.15 s that a game without a map need not pay)."""
    import networkx
    return networkx
