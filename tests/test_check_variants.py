"""PNP621 (a map variant whose cities no city card names) and the decks of a board (`board:`) it relies on.

A small game of its own, written here: map 1 is the game's places with a city card deck; map 2 (board
`north`) has places of its own — a city, a free city and a country (countries are not played as cards).
"""
from __future__ import annotations

import pytest

from generator.check import run_checks
from generator.errors import ContentError
from generator.load.game import load_game
from tests.conftest import ROOT

GAME = """\
game:
  title: 二枚の地図
  latin: Two maps
  players: [2, 4]
palette:
  red: {hex: "#cc2222", name: 赤, latin: red}
  back: {hex: "#222222", name: 裏, latin: back}
areas:
  East: {name: 東, color: red}
places:
  Aburg: {name: アーブルク, kind: city, area: East, at: [20, 20]}
  Bdorf: {name: ベードルフ, kind: city, area: East, at: [60, 20]}
routes:
  - [Aburg, Bdorf, 1]
boards:
  south: {name: 南, latin: South, size: [100, 60], style: road}
  north:
    name: 北
    latin: North
    size: [100, 60]
    style: road
    areas:
      West: {name: 西, color: red}
    places:
      Cstadt: {name: ツェーシュタット, kind: city, area: West, at: [20, 20]}
      Dheim: {name: デーハイム, kind: free-city, at: [60, 20]}
      Xland: {name: エックス国, kind: country, at: [80, 40]}
    routes:
      - [Cstadt, Dheim, 1]
      - [Dheim, Xland, 1]
decks:
  cities:
    name: 都市カード
    latin: City cards
    expected: 4
    expected_by: {city: {each: 2}}
    layout: plain
    back: {layout: plain}
    fields: {city: place}
    cards:
      - {city: Aburg, count: 2}
      - {city: Bdorf, count: 2}
"""

NORTH_DECK = """\
  north-cities:
    name: 都市カード（北）
    latin: City cards (north)
    expected: {expected}
    expected_by: {{city: {{each: 2}}}}
    board: north
    layout: plain
    back: {{layout: plain}}
    fields: {{city: place}}
    cards:
{cards}
"""


def _game(tmp_path, north_cards=None, expected=4):
    text = GAME
    if north_cards is not None:
        cards = "\n".join(f"      - {{city: {city}, count: 2}}" for city in north_cards)
        text += NORTH_DECK.format(expected=expected, cards=cards)
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    return load_game(tmp_path)


def _pnp621(game):
    return run_checks(game, codes={"PNP621"})


def test_a_second_map_without_city_cards_is_pnp621(tmp_path):
    findings = run_checks(_game(tmp_path), codes={"PNP621"})
    assert len(findings) == 1
    found = findings[0]
    assert found.severity == "error" and found.line == GAME.splitlines().index("  north:") + 1
    assert found.message == "board 'north': none of its 2 cities is on a card of 'cities' (Cstadt, Dheim)"
    assert "board: north" in found.hint
    assert found.subject == ("north", "Cstadt", "Dheim")


def test_a_deck_for_the_second_map_silences_it(tmp_path):
    game = _game(tmp_path, ["Cstadt", "Dheim"])
    assert _pnp621(game) == []
    assert run_checks(game, codes={"PNP101"}) == []
    deck = game.decks["north-cities"]
    assert deck.board == "north"
    # the cards name the board's own places (its entities, with its own areas), not the game's
    assert [card.values["city"] for card in deck.cards] == game.boards["north"].places[:2]
    assert deck.cards[0].values["city"].attrs["area"].name == "西"


def test_a_city_missing_from_the_second_maps_deck_is_named(tmp_path):
    findings = _pnp621(_game(tmp_path, ["Cstadt"], expected=2))
    assert [f.message for f in findings] == ["board 'north': 1 of its 2 cities is on no card of 'cities', "
                                             "'north-cities' (Dheim)"]
    # and the deck's own expected_by (each: every place of ITS board) says the same
    by_value = [f.message for f in run_checks(_game(tmp_path, ["Cstadt"], expected=2), codes={"PNP102"})]
    assert by_value == ["deck 'north-cities' has 0 cards with city 'Dheim', expected_by says 2",
                        "deck 'north-cities' has 0 cards with city 'Xland', expected_by says 2"]


def test_a_game_whose_cards_name_no_cities_is_not_checked(tmp_path):
    text = GAME.replace("    fields: {city: place}\n    cards:\n      - {city: Aburg, count: 2}\n      - {city: Bdorf, count: 2}\n",
                        "    fields: {from: place, to: place, points: int}\n    cards:\n      - [Aburg, Bdorf, 1]\n")
    text = text.replace("expected: 4\n    expected_by: {city: {each: 2}}\n", "expected: 1\n")
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    assert _pnp621(load_game(tmp_path)) == []  # tickets are not city cards


def test_a_deck_names_a_board_that_is_not_there(tmp_path):
    text = GAME.replace("    layout: plain\n    back:", "    board: nort\n    layout: plain\n    back:", 1)
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as raised:
        load_game(tmp_path)
    assert raised.value.source.line == text.splitlines().index("    board: nort") + 1
    assert "deck 'cities' names board 'nort', which is not a map board of this game" in raised.value.message
    assert "north" in raised.value.hint


def test_a_deck_of_the_second_map_cannot_name_a_city_of_the_first(tmp_path):
    with pytest.raises(ContentError) as raised:
        _game(tmp_path, ["Cstadt", "Aburg"])
    assert "unknown place 'Aburg'" in raised.value.message


def test_thurn_and_taxis_has_city_cards_for_both_maps_and_each_all_areas_tile_counts_its_map():
    game = load_game(ROOT / "content" / "thurn-and-taxis")
    assert _pnp621(game) == []
    north = game.boards["north"]
    cards = game.decks["city-cards-north"]
    assert cards.board == "north" and cards.size == 3 * len(north.places) == 78
    assert sorted({card.values["horseshoes"] for card in cards.cards}) == [1, 2, 3]
    assert game.decks["horse-cards"].size == 4
    # the all-areas tile of each map names that map's number of areas (map 1: all but the white one)
    tiles = {face.values.get("title"): face.values.get("text") for part in game.parts.values() for face in part.faces}
    south_areas = len(game.collections["area"])
    assert tiles["全エリア（南）"] == f"白以外の{south_areas - 1}エリアに家"
    assert tiles["全エリア（北）"] == f"{len(north.areas)}エリアすべてに家"


def test_a_deck_of_a_board_cannot_ask_for_points_auto(tmp_path):
    """points: auto is a shortest path on the game's own map; a board's deck writes its points."""
    tickets = (NORTH_DECK.format(expected=1, cards="      - [Cstadt, Dheim, auto]")
               .replace("    expected_by: {city: {each: 2}}\n", "")
               .replace("fields: {city: place}", "fields: {from: place, to: place, points: int}"))
    (tmp_path / "game.yaml").write_text(GAME + tickets, encoding="utf-8")
    with pytest.raises(ContentError) as raised:
        load_game(tmp_path)
    assert "deck 'north-cities' of board 'north' has points: auto" in raised.value.message
