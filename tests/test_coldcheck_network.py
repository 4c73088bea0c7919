"""The route network on rustworkx (issue 14, a cold check): the same answers networkx gave, and a bounded walk.

networkx (a test dependency only) is the oracle: on random maps with terminals and many equal routes every pair
has the fewest spaces networkx finds with the terminals other than its ends hidden, and the same shortest paths
(sorted) whenever there are at most MAX_SHORTEST_PATHS of them; with more, the first MAX_SHORTEST_PATHS in sorted
order. A grid with millions of shortest paths takes a number of steps bounded by MAX_SHORTEST_PATHS."""
from __future__ import annotations

import itertools
import random
from types import SimpleNamespace

import networkx as nx
import pytest

from generator.limits import MAX_SHORTEST_PATHS
from generator.model.network import Network


def _game(edges: list[tuple[str, str, int]], terminals: set[str] = frozenset(), lonely: tuple[str, ...] = ()):
    names = sorted({p for a, b, _ in edges for p in (a, b)} | set(lonely))
    places = {name: SimpleNamespace(id=name, attrs={"kind": "country" if name in terminals else "city"})
              for name in names}
    routes = [SimpleNamespace(a=places[a], b=places[b], length=n) for a, b, n in edges]
    return SimpleNamespace(meta={"terminals": ["country"]}, collections={"place": places}, routes=routes), places


def _oracle(net: Network, a: str, b: str) -> tuple[int | None, list[list[str]]]:
    """networkx on the pair's own view (terminals other than its ends hidden): fewest spaces and every path."""
    graph = nx.Graph()
    graph.add_nodes_from(net.nodes)
    graph.add_weighted_edges_from((u, v, w) for (u, v), w in net.weights.items())
    hidden = net._terminals - {a, b}
    view = nx.subgraph_view(graph, filter_node=lambda n: n not in hidden)
    try:
        length = int(nx.dijkstra_path_length(view, a, b, weight="weight"))
        paths = sorted(itertools.islice(nx.all_shortest_paths(view, a, b, weight="weight"), 10_000))
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None, []
    return length, paths


def _random_map(rng: random.Random):
    count = rng.randint(4, 16)
    names = [f"p{i:02}" for i in range(count)]
    edges = []
    for a, b in itertools.combinations(names, 2):
        if rng.random() < 0.3:
            edges.append((a, b, rng.choice([1, 1, 2, 2, 3, 4])))   # few lengths: many ties
            if rng.random() < 0.1:
                edges.append((a, b, rng.randint(1, 6)))           # a double route: the shorter counts
    terminals = set(rng.sample(names, rng.randint(0, 3)))
    return _game(edges, terminals, lonely=("zz-lonely",))


@pytest.mark.parametrize("seed", range(40))
def test_every_pair_has_networkx_answer(seed):
    game, places = _random_map(random.Random(seed))
    net = Network(game)
    for a, b in itertools.product(places.values(), repeat=2):
        length, paths = _oracle(net, a.id, b.id)
        assert net.shortest(a, b) == length, (a.id, b.id)
        expected = paths if len(paths) <= MAX_SHORTEST_PATHS else paths[:MAX_SHORTEST_PATHS]
        assert net.shortest_paths(a, b) == expected, (a.id, b.id)


def _grid(size: int):
    edges = [(f"r{r:02}c{c:02}", f"r{r:02}c{c + 1:02}", 1) for r in range(size) for c in range(size - 1)]
    edges += [(f"r{r:02}c{c:02}", f"r{r + 1:02}c{c:02}", 1) for r in range(size - 1) for c in range(size)]
    return _game(edges)


def test_more_paths_than_the_bound_are_the_first_in_sorted_order():
    """A 6 × 6 grid: 252 shortest paths corner to corner; the 32 listed are the first 32 of networkx's, sorted."""
    game, places = _grid(6)
    net = Network(game)
    length, every = _oracle(net, "r00c00", "r05c05")
    assert (length, len(every)) == (10, 252)
    assert net.shortest_paths(places["r00c00"], places["r05c05"]) == every[:MAX_SHORTEST_PATHS]


def test_a_grid_with_millions_of_paths_is_walked_in_bounded_steps(monkeypatch):
    """A 30 × 30 grid has about 3 × 10^16 shortest paths corner to corner: the walk looks at the neighbours of at
    most MAX_SHORTEST_PATHS paths' places (no dead ends: every step is on a shortest path)."""
    size = 30
    game, places = _grid(size)
    net = Network(game)
    looked = []
    adjacent = net._adjacent

    class Counting(dict):
        def __getitem__(self, key):
            looked.append(key)
            return dict.__getitem__(self, key)

    net._adjacent = Counting(adjacent)
    paths = net.shortest_paths(places["r00c00"], places[f"r{size - 1:02}c{size - 1:02}"])
    assert len(paths) == MAX_SHORTEST_PATHS and paths == sorted(paths) and len(set(map(tuple, paths))) == len(paths)
    assert all(len(p) == 2 * size - 1 for p in paths)
    assert paths[0] == [f"r00c{c:02}" for c in range(size)] + [f"r{r:02}c{size - 1:02}" for r in range(1, size)]
    assert len(looked) <= MAX_SHORTEST_PATHS * 2 * size


def test_terminals_are_ends_never_a_way_through():
    """A country between two cities is no way (a longer way round is the shortest); two countries joined only
    through a third have no way; a country's own ticket may start there."""
    game, places = _game([("A", "T", 1), ("T", "B", 1), ("A", "C", 2), ("C", "B", 2), ("T", "U", 1), ("U", "V", 1)],
                         terminals={"T", "U", "V"})
    net = Network(game)
    assert net.shortest(places["A"], places["B"]) == 4
    assert net.shortest_paths(places["A"], places["B"]) == [["A", "C", "B"]]
    assert net.shortest_paths(places["T"], places["B"]) == [["T", "B"]]
    assert net.shortest(places["T"], places["V"]) is None and net.shortest_paths(places["T"], places["V"]) == []
    assert net.shortest_paths(places["A"], places["A"]) == [["A"]]
