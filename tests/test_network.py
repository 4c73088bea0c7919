"""The map graph (generator.model.network): fewest spaces and every shortest path, terminals kept out of
the way between."""
from __future__ import annotations

from types import SimpleNamespace

from generator.model.network import Network


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
