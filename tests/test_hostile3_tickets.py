"""Round three: the ticket suggester on a map from anyone values a bounded number of pairs of places (a 14 × 14
grid of equal routes has 19,110 pairs, each with up to 32 shortest paths: 47 s before)."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.check import ticketsuggest
from generator.errors import ContentError
from generator.load.game import load_game
from generator.model.network import Network
from tests.test_grid_map import grid_game

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    return load_game(grid_game(tmp_path_factory.mktemp("grid")))


def _counted(monkeypatch) -> list[int]:
    calls = [0]
    searched = Network.shortest_paths

    def counting(self, a, b):
        calls[0] += 1
        return searched(self, a, b)
    monkeypatch.setattr(Network, "shortest_paths", counting)
    return calls


def test_a_grid_map_is_valued_on_a_sample_of_its_pairs(grid, monkeypatch):
    monkeypatch.setattr(ticketsuggest, "MAX_TICKET_CANDIDATES", 300)
    calls = _counted(monkeypatch)
    chosen = ticketsuggest.suggest(grid, 20, seed=1)
    assert len(chosen) == 20 == len(set(chosen))
    assert calls[0] == 300          # of 19,110 pairs
    assert ticketsuggest.suggest(grid, 20, seed=1) == chosen   # the sample is the seed's: the same deck again


def test_the_work_of_the_greedy_is_bounded_by_the_tickets_asked_for(grid, monkeypatch):
    monkeypatch.setattr(ticketsuggest, "MAX_TICKET_WORK", 200_000)
    calls = _counted(monkeypatch)
    with pytest.raises(ContentError, match="among those valued: 1000 different tickets.*MAX_TICKET_WORK"):
        ticketsuggest.suggest(grid, 1000)
    assert calls[0] < 200       # 200 routes' worth of pairs for each of 1,000 tickets


def test_a_published_map_is_valued_whole():
    game = load_game(ROOT / "content" / "ttr-germany")
    candidates = ticketsuggest._candidates(ticketsuggest.network(game), game.collections["place"],
                                           sorted(game.collections["place"]), 0, 1,
                                           ticketsuggest.MAX_TICKET_WORK // 40)
    places = len(game.collections["place"])
    assert len(candidates) == places * (places - 1) // 2
