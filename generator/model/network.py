"""The map as a graph: shortest paths for tickets, the terminal rule, ticket decks.

Derived once per game (cached) because the loader (``points: auto``), the
checker and ``pnpgen stats`` all ask the same questions. Terminals (place
kinds named in ``game: terminals:``, e.g. the neighbouring countries of
Ticket to Ride: Germany) may be a ticket's end but never a way through, so a
path between two places only uses terminals that are its own ends.

The searches are rustworkx's (compiled Dijkstra; 0.01 s to import where networkx took 0.15 s): one
single-source search per start, in a directed copy of the map whose terminals have no way out. Every shortest
path between two places is listed from those distances here (``_walk``), in sorted order and never more than
MAX_SHORTEST_PATHS of them, so a grid of equal routes (millions of shortest paths) costs what 32 paths cost.
rustworkx is imported when a question is first asked that no earlier run answered for the same map
(``Network.keep``), so a game without a map never loads it, and a check of a game whose map did not change
neither.
"""
from __future__ import annotations

import weakref
from collections import Counter

from generator import cache
from generator.limits import MAX_KEPT_DISTANCES, MAX_SHORTEST_PATHS
from generator.model.game import Card, Deck, Entity, Game, Route

_CACHE: weakref.WeakKeyDictionary[Game, Network] = weakref.WeakKeyDictionary()
#: directed copies of the map kept at once (``Network._graph``: one per set of places hidden as a way through)
_KEPT_GRAPHS = 4


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
    """Places joined by routes; an edge's weight is the route's length in spaces.

    The answers (fewest spaces, shortest paths) are worked out on first ask. Those of a run are kept in the
    build cache under the map itself (places, edges and weights, terminals: ``keep``), so a check of a game
    whose map did not change reads them back and never imports rustworkx; a graph is built only when a
    question has no answer kept."""

    def __init__(self, game: Game):
        self.terminal_kinds = frozenset(game.meta.get("terminals", ()))
        nodes = dict.fromkeys(place.id for place in game.collections.get("place", {}).values())
        #: (a, b) sorted ids → the routes between them (rows), in content order
        self.pairs: dict[tuple[str, str], list[Route]] = {}
        #: (a, b) sorted ids → the edge's weight: the shortest route between them
        self.weights: dict[tuple[str, str], int] = {}
        for route in game.routes:
            if route.a.id == route.b.id:
                continue  # a self-loop joins nothing (the checker reports it)
            key = pair(route.a, route.b)
            self.pairs.setdefault(key, []).append(route)
            if key not in self.weights or route.length < self.weights[key]:
                self.weights[key] = route.length
            nodes.update(dict.fromkeys(key))   # a route's end that is no place is a node all the same
        self.nodes = list(nodes)
        self._terminals = frozenset(p.id for p in game.collections.get("place", {}).values()
                                    if p.attrs.get("kind", "city") in self.terminal_kinds)
        #: place id → (neighbour, the edge's weight), neighbours sorted: the steps a shortest path may take
        self._adjacent: dict[str, list[tuple[str, int]]] = {node: [] for node in self.nodes}
        for (a, b), weight in sorted(self.weights.items()):
            self._adjacent[a].append((b, weight))
            self._adjacent[b].append((a, weight))
        for steps in self._adjacent.values():
            steps.sort()
        #: the places hidden as a way through (a search's terminals) → the directed graph for searches with them
        self._directed: dict[frozenset[str], object] = {}
        self._lengths: dict[tuple[str, str], int | None] = {}
        self._paths: dict[tuple[str, str], list[list[str]]] = {}
        #: source → fewest spaces to each place it reaches (``_lengths_from``: one search answers every ticket from it)
        self._searched: dict[str, dict[str, int]] = {}
        self._kept = 0   # distances held in ``_searched``
        self._node_ids = frozenset(self.nodes)
        self._fresh = False   # answers worked out in this run and not kept yet
        self._recall()

    def _graph(self, hidden: frozenset[str]):
        """The map as a rustworkx directed graph (node i = ``self.nodes[i]``) in which a place of ``hidden`` has
        ways in but none out: an end, never a way through. Built (and rustworkx imported) on first use."""
        graph = self._directed.get(hidden)
        if graph is None:
            rx = _rustworkx()
            index = {node: i for i, node in enumerate(self.nodes)}
            graph = rx.PyDiGraph(attrs=index)   # attrs: a place's node index
            graph.add_nodes_from(self.nodes)
            graph.add_edges_from([(index[u], index[v], float(weight)) for (a, b), weight in self.weights.items()
                                  for u, v in ((a, b), (b, a)) if u not in hidden])
            if len(self._directed) >= _KEPT_GRAPHS:
                # each terminal a search starts from has a graph of its own: 3,000 tickets from as many terminals of
                # a 6,000-place map kept 3,000 copies of it (2.3 GB); building one costs what its search does
                del self._directed[next(iter(self._directed))]
            self._directed[hidden] = graph
        return graph

    def shortest(self, a: Entity, b: Entity) -> int | None:
        """Fewest spaces from ``a`` to ``b`` not passing through a terminal; None if there is no way."""
        key = pair(a, b)
        if key not in self._lengths:
            # from whichever end was a source already (the distance is the same both ways), else from ``a``:
            # tickets share their starts, so a deck asks one search per start rather than one per ticket
            source, target = (b.id, a.id) if b.id in self._searched and a.id not in self._searched else (a.id, b.id)
            self._lengths[key] = self._lengths_from(source).get(target)
            self._fresh = True
        return self._lengths[key]

    def _lengths_from(self, source: str) -> dict[str, int]:
        """Fewest spaces from ``source`` to every place it reaches under the terminal rule (``source`` itself: 0):
        one rustworkx search (single-source Dijkstra) in which a terminal other than ``source`` is an end but never
        a way through (its edges lead in, none out), so the length to a terminal is that of a path through no
        other terminal."""
        found = self._searched.get(source)
        if found is None:
            found = _search(self._graph(self._terminals - {source}), self.nodes, source) if source in self._node_ids else {}
            self._searched[source] = found
            self._kept += len(found)
            # the oldest searches let go past MAX_KEPT_DISTANCES (a map of 8,000 places with 4,000 tickets from as
            # many starts kept 32 million distances, 1.9 GB); one is asked again only for a ticket from its start
            while self._kept > MAX_KEPT_DISTANCES and len(self._searched) > 1:
                self._kept -= len(self._searched.pop(next(iter(self._searched))))
        return found

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
        the first MAX_SHORTEST_PATHS in sorted order (a grid of equal routes has millions of them: listing them
        all would never end)."""
        key = (a.id, b.id)
        if key not in self._paths:
            self._paths[key] = self._walk(a.id, b.id)
            self._fresh = True
        return [list(path) for path in self._paths[key]]

    def _walk(self, a: str, b: str) -> list[list[str]]:
        """Every shortest path from ``a`` to ``b``, at most MAX_SHORTEST_PATHS, in sorted order: a depth-first walk
        from ``a`` that steps, neighbours in sorted order, only to a place on a shortest path (its distance from
        ``a`` is the step's end, and from it to ``b`` is the rest), so no branch is a dead end and the walk stops
        after MAX_SHORTEST_PATHS paths whatever their number. The distances are the per-start searches'
        (``_lengths_from``: terminals are ends there, not ways through); a terminal other than ``a`` and ``b`` is
        never stepped to, as no path between two places passes through one."""
        if a not in self._node_ids or b not in self._node_ids:
            return []
        if a == b:
            return [[a]]
        from_a, from_b = self._lengths_from(a), self._lengths_from(b)
        total = from_a.get(b)
        if total is None:
            return []
        hidden = self._terminals - {a, b}
        adjacent = self._adjacent

        def steps(u: str) -> list[str]:
            reach = from_a[u]
            return [v for v, weight in adjacent[u] if v not in hidden and from_a.get(v) == reach + weight
                    and v in from_b and reach + weight + from_b[v] == total]

        found: list[list[str]] = []
        path = [a]
        todo = [iter(steps(a))]
        while todo and len(found) < MAX_SHORTEST_PATHS:
            step = next(todo[-1], None)
            if step is None:
                todo.pop()
                path.pop()
            elif step == b:
                found.append([*path, b])
            else:
                path.append(step)
                todo.append(iter(steps(step)))
        return found

    def degree(self) -> Counter:
        """Place id → number of routes (rows) that end there."""
        count = Counter({p: 0 for p in self.nodes})
        for (a, b), routes in self.pairs.items():
            count[a] += len(routes)
            count[b] += len(routes)
        return count

    # ------------------------------------------------------------ answers kept between runs

    def _map(self) -> list:
        """What every answer is a function of: the nodes, the weighted edges and the terminals."""
        return [self.nodes, sorted([a, b, w] for (a, b), w in self.weights.items()), sorted(self._terminals)]

    def _recall(self) -> None:
        kept = cache.recall_derived("network", self._map())
        if kept is None:
            return
        try:
            lengths = {(a, b): n for a, b, n in kept["lengths"]
                       if isinstance(a, str) and isinstance(b, str) and (n is None or type(n) is int)}
            paths = {(a, b): found for a, b, found in kept["paths"]
                     if isinstance(a, str) and isinstance(b, str) and isinstance(found, list)
                     and all(isinstance(path, list) and all(isinstance(p, str) for p in path) for path in found)}
        except (KeyError, TypeError, ValueError):
            return   # not a record this version wrote: worked out again
        self._lengths.update(lengths)
        self._paths.update(paths)

    def keep(self) -> None:
        """Keep this run's answers with the earlier ones (the build cache; nothing when it is off or nothing new)."""
        if not self._fresh:
            return
        cache.keep_derived("network", self._map(), {
            "lengths": sorted([a, b, n] for (a, b), n in self._lengths.items()),
            "paths": sorted([a, b, found] for (a, b), found in self._paths.items())})
        self._fresh = False


def keep_answers(game: Game) -> None:
    """Keep the answers the game's network (if one was built) worked out in this run (``Network.keep``)."""
    net = _CACHE.get(game)
    if net is not None:
        net.keep()


def pair(a: Entity, b: Entity) -> tuple[str, str]:
    return (a.id, b.id) if a.id <= b.id else (b.id, a.id)


def _search(graph, nodes: list[str], source: str) -> dict[str, int]:
    """Fewest spaces from ``source`` to every node it reaches in ``graph`` (``Network._graph``), itself included."""
    lengths = _rustworkx().digraph_dijkstra_shortest_path_lengths(graph, graph.attrs[source], float)
    return {source: 0, **{nodes[i]: int(n) for i, n in lengths.items()}}


def _rustworkx():
    """rustworkx, imported on first use (0.01 s that a game without a map need not pay)."""
    import rustworkx
    return rustworkx
