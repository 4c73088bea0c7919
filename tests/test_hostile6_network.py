"""Round six, maps: what the network keeps and what ``tickets suggest`` lists are bounded however many places a map
has. A chain of 8,000 places with 4,000 tickets from as many starts kept every search's distances (32 million, a check
of 1.9 GB); ``tickets suggest`` listed and shuffled every pair of places (32 million, 3 GB)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.check import ticketsuggest
from generator.load.game import load_game
from generator.model import network as network_module
from generator.model.network import network


def chain_game(folder: Path, places: int, tickets: int) -> Path:
    """A map of ``places`` in a row, joined by routes of 1, and tickets from each of the first places to its mirror."""
    folder.mkdir()
    rows = "\n".join(f"  - [P{i}, P{i + 1}, 1, red]" for i in range(places - 1))
    cards = "\n".join(f"      - [P{i}, P{places - 1 - i}, 5]" for i in range(tickets))
    (folder / "game.yaml").write_text(
        "game:\n  title: Chain\n  players: [2, 4]\nprint:\n  card: {size: [44, 68], bleed: 3, safe: 3}\n"
        "palette:\n  red: {hex: '#cc2222', name: red}\nplaces:\n"
        + "".join(f"  P{i}: {{name: p{i}}}\n" for i in range(places)) + "routes:\n" + rows + "\n"
        "decks:\n  tickets:\n    name: T\n    expected: " + str(tickets) + "\n    layout: ttr-ticket\n"
        "    vars: {color: red}\n    back: {layout: ttr-back, color: red, title: T, icon: station}\n"
        "    fields: {from: place, to: place, points: int}\n    columns: [from, to, points]\n    cards:\n" + cards + "\n",
        encoding="utf-8")
    return folder


def test_the_distances_kept_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(network_module, "MAX_KEPT_DISTANCES", 1_000)
    game = load_game(chain_game(tmp_path / "chain", 300, 100))
    net = network(game)
    places = game.collections["place"]
    for i in range(100):
        assert net.shortest(places[f"P{i}"], places[f"P{299 - i}"]) == 299 - 2 * i
        assert sum(len(found) for found in net._searched.values()) <= 1_000 + 300
    assert net.shortest_paths(places["P3"], places["P7"]) == [["P3", "P4", "P5", "P6", "P7"]]


@pytest.mark.parametrize("places", [2, 9, 40])
def test_tickets_suggest_draws_pairs_without_listing_them(monkeypatch, places):
    ids = [f"p{i:02}" for i in range(places)]
    every = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]]
    monkeypatch.setattr(ticketsuggest, "MAX_TICKET_PAIRS", 0 if places == 2 else 10)
    drawn = list(ticketsuggest._pairs_in_order(ids, seed=7))
    assert len(drawn) == (0 if places == 2 else 10)
    assert len({index for index, _ in drawn}) == len(drawn)
    assert all(every[index] == pair for index, pair in drawn)


def test_tickets_suggest_lists_every_pair_of_a_small_map():
    ids = [f"p{i}" for i in range(30)]
    drawn = list(ticketsuggest._pairs_in_order(ids, seed=7))
    assert sorted(pair for _, pair in drawn) == sorted((a, b) for i, a in enumerate(ids) for b in ids[i + 1:])


def test_the_graphs_kept_for_terminal_starts_are_bounded(tmp_path):
    """Each terminal a search starts from has a directed copy of the map of its own (its way out open): a map of
    6,000 terminals with 3,000 tickets from as many of them kept 3,000 copies (2.3 GB)."""
    folder = chain_game(tmp_path / "chain", 40, 12)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("  players: [2, 4]\n", "  players: [2, 4]\n  terminals: [country]\n")
    text = re.sub(r"(  P\d+: \{name: p\d+)\}", r"\1, kind: country}", text).replace("p5, kind: country", "p5")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    game = load_game(folder)
    net = network(game)
    places = game.collections["place"]
    for i in range(12):
        net.shortest(places[f"P{i}"], places[f"P{39 - i}"])
        assert len(net._directed) <= network_module._KEPT_GRAPHS
    # a terminal is an end, never a way through (P5 alone is a city): P4 reaches P6 by P5, P3 nothing past P4
    assert net.shortest(places["P4"], places["P6"]) == 2
    assert net.shortest(places["P3"], places["P4"]) == 1
    assert net.shortest(places["P3"], places["P5"]) is None
