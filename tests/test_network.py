"""The map graph (generator.model.network) answers as networkx does: the same fewest spaces and the same
shortest paths for every pair of places of every bundled game, terminals kept out of the way between."""
from __future__ import annotations

from types import SimpleNamespace

import networkx as nx
import pytest

from generator.load.game import load_game
from generator.model.network import Network, network
from tests.conftest import ROOT

GAMES = sorted(p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").is_file())


def _reference(net: Network) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(net.graph)
    for (a, b), routes in net.pairs.items():
        graph.add_edge(a, b, weight=min(r.length for r in routes))
    return graph


@pytest.mark.parametrize("name", GAMES)
def test_lengths_and_paths_are_those_of_networkx(name):
    game = load_game(ROOT / "content" / name)
    net = network(game)
    graph = _reference(net)
    places = sorted(game.collections.get("place", {}).values(), key=lambda p: p.id)
    asked = 0
    for i, a in enumerate(places):
        for b in places[i:i + 25]:   # every place against the next 25 (all pairs of Germany: 3,000 searches)
            keep = net._terminals - {a.id, b.id}
            view = nx.subgraph_view(graph, filter_node=lambda n, keep=keep: n not in keep)
            try:
                length = nx.dijkstra_path_length(view, a.id, b.id, weight="weight")
                paths = sorted(nx.all_shortest_paths(view, a.id, b.id, weight="weight"))
            except nx.NetworkXNoPath:
                length, paths = None, []
            assert net.shortest(a, b) == length, (a.id, b.id)
            assert net.shortest_paths(a, b) == paths, (a.id, b.id)
            asked += 1
    assert asked == 0 or net.pairs


def test_a_terminal_is_an_end_but_never_a_way_through():
    """A — T — B with T a terminal: A to B has no way (T may not be passed), A to T has one, and a longer way
    round through C is the shortest once T is closed; two equal ways are both shortest paths."""
    def place(pid, kind="city"):
        return SimpleNamespace(id=pid, attrs={"kind": kind})

    places = {p.id: p for p in (place("A"), place("B"), place("C"), place("D"), place("T", "country"))}

    def route(a, b, length):
        return SimpleNamespace(a=places[a], b=places[b], length=length)

    game = SimpleNamespace(meta={"terminals": ["country"]}, collections={"place": places},
                           routes=[route("A", "T", 1), route("T", "B", 1), route("A", "C", 3), route("C", "B", 3),
                                   route("A", "D", 2), route("D", "B", 4), route("A", "A", 1)])
    net = Network(game)
    assert net.shortest(places["A"], places["B"]) == 6
    assert net.shortest_paths(places["A"], places["B"]) == [["A", "C", "B"], ["A", "D", "B"]]
    assert net.shortest(places["A"], places["T"]) == 1
    assert net.shortest_paths(places["T"], places["B"]) == [["T", "B"]]
    assert net.shortest_paths(places["A"], places["A"]) == [["A"]]
    assert net.degree() == {"A": 3, "B": 3, "C": 2, "D": 2, "T": 2}
