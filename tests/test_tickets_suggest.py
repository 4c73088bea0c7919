"""`pnpgen tickets suggest` and the ticket-deck scores (generator/check/deckscore.py) that `pnpgen stats` shows too."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ROOT

GAME = """\
game:
  title: 小鉄道
  latin: Small railway
  players: [2, 3]
include:
  - decks.yaml
palette:
  red: {hex: "#cc2222", name: 赤, latin: red}
  blue: {hex: "#2244cc", name: 青, latin: blue}
  ticket-back: "#2c5d9c"
places:
  A: {name: A, kind: city}
  B: {name: B, kind: city}
  C: {name: C, kind: city}
  D: {name: D, kind: city}
  E: {name: E, kind: city}
  F: {name: F, kind: city}
routes:
  - [A, B, 1, red]
  - [B, C, 2, red]
  - [C, D, 3, blue]
  - [B, E, 1, blue]
  - [C, F, 2, gray]
"""

DECKS = """\
decks:
  tickets:
    name: 行き先チケット
    latin: Tickets
    expected: 5
    layout: ttr-ticket
    back: {layout: ttr-back, color: ticket-back, title: チケット, latin: Tickets, icon: station}
    vars: {color: ticket-back}
    fields: {from: place, to: place, points: int}
    cards:
      - [A, D, 6]
      - [A, C, 3]
      - [B, D, 5]
      - {from: E, to: B, points: 1, count: 2}
"""


@pytest.fixture
def small(tmp_path) -> Path:
    """A map of six places (a tree: every shortest path is the only one) and a hand-made ticket deck."""
    folder = tmp_path / "small"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "decks.yaml").write_text(DECKS, encoding="utf-8")
    return folder


def _suggest(run, *args):
    result = run("tickets", "suggest", *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_scores_of_a_hand_made_deck(small):
    """Values 6 3 5 1 1; A–B–C–D, A–B–C, B–C–D, E–B twice; C–F and F unused."""
    from generator.check.deckscore import deck_scores
    from generator.load.game import load_game
    (scores,) = deck_scores(load_game(small))
    assert scores == {
        "deck": "tickets", "tickets": 5,
        "lengths": {"min": 1, "max": 6, "distinct": 4, "spread": 2.04},  # sd of 6 3 5 1 1: √4.16
        "routes": 5, "routes_reached": 4, "routes_unneeded": ["C–F"],
        "places_without_tickets": ["F"],
        # A–D/A–C (A same, D next to C), A–D/B–D, A–C/B–D (A next to B, C next to D), the two E–B copies
        "near_duplicates": 4,
        # per track A–B 2, B–C 3, B–E 2, C–D 2, C–F 0: mean 1.8, sd √0.96
        "crowding_max": 3, "crowding_spread": 0.54,
    }


def test_suggest_on_the_small_map(run, small):
    data = _suggest(run, small, "--count", "6", "--seed", "3")
    assert len(data["tickets"]) == 6
    shortest = {("A", "B"): 1, ("A", "C"): 3, ("A", "D"): 6, ("A", "E"): 2, ("A", "F"): 5, ("B", "C"): 2,
                ("B", "D"): 5, ("B", "E"): 1, ("B", "F"): 4, ("C", "D"): 3, ("C", "E"): 3, ("C", "F"): 2,
                ("D", "E"): 6, ("D", "F"): 5, ("E", "F"): 5}
    for a, b, value in data["tickets"]:
        assert shortest[(a, b)] == value
    assert len({(a, b) for a, b, _ in data["tickets"]}) == 6  # no ticket twice
    assert data["scores"]["places_without_tickets"] == []
    assert data["scores"]["routes_reached"] == 5
    assert [deck["deck"] for deck in data["decks"]] == ["tickets"]  # the game's own deck beside it


def test_suggest_on_germany(run):
    from generator.load.game import load_game
    from generator.model.network import network
    game = load_game(ROOT / "content" / "ttr-germany")
    net, places = network(game), game.collections["place"]
    data = _suggest(run, "content/ttr-germany", "--count", "40", "--seed", "7")
    assert len(data["tickets"]) == 40
    for a, b, value in data["tickets"]:
        assert net.shortest(places[a], places[b]) == value
    assert data["tickets"] == _suggest(run, "content/ttr-germany", "--count", "40", "--seed", "7")["tickets"]
    assert data["tickets"] != _suggest(run, "content/ttr-germany", "--count", "40", "--seed", "8")["tickets"]
    # better than the bundled decks on what it optimises
    short, long = data["decks"]
    assert data["scores"]["routes_reached"] > max(short["routes_reached"], long["routes_reached"])
    assert data["scores"]["near_duplicates"] < min(short["near_duplicates"], long["near_duplicates"])


def test_mix_of_short_and_long(run, small):
    """Six of the fifteen pairs are long (above the median, 3): --mix 1:2 of 6 asks for 2 short and 4 long."""
    data = _suggest(run, small, "--count", "6", "--mix", "1:2")
    assert sorted(value > 3 for _, _, value in data["tickets"]) == [False, False, True, True, True, True]


def test_min_value_keeps_short_tickets_out(run, small):
    data = _suggest(run, small, "--count", "6", "--min-value", "5")
    assert sorted((a, b) for a, b, _ in data["tickets"]) == [("A", "D"), ("A", "F"), ("B", "D"), ("D", "E"),
                                                              ("D", "F"), ("E", "F")]  # every pair worth 5 or more


def test_text_output_is_rows_to_paste(run, small):
    result = run("tickets", "suggest", small, "--count", "3")
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if line.startswith("- [")]
    assert len(rows) == 3 and "routes reached" in result.stdout and "suggested" in result.stdout


def test_stats_shows_the_deck_scores(run, small):
    result = run("stats", small, "--format", "json")
    assert result.exit_code == 0, result.output
    (data,) = json.loads(result.stdout)
    assert data["deck_scores"][0]["near_duplicates"] == 4
    assert "ticket decks scored" in run("stats", small).stdout


@pytest.mark.parametrize("args, message", [
    (("content/ttr-dice",), "has no map"),
    (("SMALL", "--count", "16"), "15 pairs of connected places"),
    (("SMALL", "--count", "10", "--mix", "0:1"), "too few for --mix 0:1"),
    (("SMALL", "--mix", "3-1"), "is not SHORT:LONG"),
    (("SMALL", "--count", "7", "--min-value", "5"), "6 pairs of connected places worth 5 or more"),
])
def test_what_cannot_be_suggested_exits_2(run, small, args, message):
    result = run("tickets", "suggest", *(small if a == "SMALL" else a for a in args))
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output
