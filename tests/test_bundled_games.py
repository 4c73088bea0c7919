"""The five bundled games: every deck has the count the rulebooks (seeds) promise."""
from __future__ import annotations

import shutil
from collections import Counter

import pytest
import yaml

from generator.check import run_checks
from generator.load.game import load_game
from tests.conftest import FIXTURES, ROOT

GAMES = ["ttr-germany", "ttr-new-york", "ttr-dice", "s-railway", "thurn-and-taxis", "demo-artwork"]


@pytest.fixture(scope="module")
def games():
    return {name: load_game(ROOT / "content" / name) for name in GAMES}


def _per_colour(deck) -> Counter:
    counts = Counter()
    for card in deck.cards:
        counts[card.color.id] += card.count
    return counts


def _sizes(game):
    return {deck.id: deck.size for deck in game.decks.values()}


def test_every_bundled_game_loads_and_declares_its_counts(games):
    for game in games.values():
        assert run_checks(game, codes={"PNP101"}) == []  # no deck differs from its declared count


def test_germany(games):
    game = games["ttr-germany"]
    assert _sizes(game) == {"train-cards": 110, "short-tickets": 55, "long-tickets": 34, "bonus-cards": 1}
    per_colour = _per_colour(game.decks["train-cards"])
    assert per_colour.pop("locomotive") == 14
    assert sorted(per_colour) == sorted(["purple", "blue", "orange", "white", "green", "yellow", "black", "red"])
    assert set(per_colour.values()) == {12}
    short = [c.points for c in game.decks["short-tickets"].cards]
    long_ = [c.points for c in game.decks["long-tickets"].cards]
    # rulebook: short 3-11; the one transcribed exception is annotated in decks.yaml
    outside = [(c['from'].id, c.to.id, c.points) for c in game.decks["short-tickets"].cards if not 3 <= c.points <= 11]
    assert outside == [("Mannheim", "Stuttgart", 2)]
    assert max(short) <= 11
    assert min(long_) >= 12 and max(long_) <= 22
    assert game.decks["bonus-cards"].cards[0].points == 15
    places = game.collections["place"].values()
    assert sum(1 for p in places if p.attrs.get("kind") == "city") == 35
    assert sum(1 for p in places if p.attrs.get("kind") == "country") == 5
    assert sum(p.attrs.get("passengers", 0) for p in places) == 60
    assert sum(len(r.colors) for r in game.routes) == 110
    assert len(game.routes) == 85


def test_new_york(games):
    game = games["ttr-new-york"]
    assert _sizes(game) == {"transport-cards": 44, "tickets": 18}
    per_colour = _per_colour(game.decks["transport-cards"])
    assert per_colour.pop("taxi") == 8
    assert sorted(per_colour) == sorted(["blue", "green", "black", "pink", "red", "orange"])
    assert set(per_colour.values()) == {6}
    assert len(game.collections["place"]) == 15
    assert sum(len(r.colors) for r in game.routes) == 41


def test_thurn_and_taxis(games):
    game = games["thurn-and-taxis"]
    assert _sizes(game) == {"city-cards": 66, "city-cards-north": 78, "carriage-cards": 20, "horse-cards": 4}
    per_city = Counter()
    for card in game.decks["city-cards"].cards:
        per_city[card.city.id] += card.count
    assert len(per_city) == 22 and set(per_city.values()) == {3}
    north = Counter()   # map 2: its own 26 cities (the four free cities included), 3 cards each
    for card in game.decks["city-cards-north"].cards:
        north[card.city.id] += card.count
    assert set(north) == {p.id for p in game.boards["north"].places} and set(north.values()) == {3}
    totals = Counter()   # cards per (length, points), summed over every row of the deck
    for card in game.decks["carriage-cards"].cards:
        totals[(card.length, card.points)] += card.count
    assert totals == {(3, 2): 4, (4, 3): 4, (5, 5): 4, (6, 7): 4, (7, 10): 4}
    assert len(game.routes) == 45


def test_s_railway(games):
    game = games["s-railway"]
    sizes = _sizes(game)
    assert set(sizes) == {"train-cards", "destination-cards", "number-cards"}
    # the seed: five players, each with the numbers 1-4 once
    numbers = Counter((c.player.id, c.number) for c in game.decks["number-cards"].cards for _ in range(c.count))
    players = ["pl-red", "pl-blue", "pl-yellow", "pl-green", "pl-black"]
    assert numbers == {(p, n): 1 for p in players for n in (1, 2, 3, 4)}
    assert sizes["number-cards"] == 20
    # the stations keep the order of line.yaml (read here on its own), which is the order of the line
    stations = list(game.collections["station"])
    written = yaml.safe_load((ROOT / "content/s-railway/line.yaml").read_text(encoding="utf-8"))["stations"]
    assert stations == list(written) and len(stations) > 10
    assert game.collections["station"][stations[0]].name == "西武新宿"
    assert game.tables["line_bonus"] == {1: 0, 2: 1, 3: 3, 4: 6, 5: 10, 6: 15}
    # the seed's rule example: from 高田馬場 one section by 急行 reaches 鷺ノ宮, by 各停 下落合
    by_name = {s.name: s for s in game.collections["station"].values()}

    def next_stop(train, station):
        stops = [s.id for s in train.stops]
        return game.collections["station"][stops[stops.index(by_name[station].id) + 1]].name

    types = {t.name: t for t in game.collections["train_type"].values()}
    assert next_stop(types["急行"], "高田馬場") == "鷺ノ宮"
    assert next_stop(types["各駅停車"], "高田馬場") == "下落合"
    # every train type stops in line order
    for train in types.values():
        order = [stations.index(s.id) for s in train.stops]
        assert order == sorted(order)


def test_dice_expansion_has_no_cards_yet_and_still_builds(built_game):
    out = built_game("ttr-dice")   # the shared build asserts exit status 0
    assert not list(out.glob("*-cards.pdf")) and (out / "ttr-dice-print-and-play.pdf").is_file()


def test_every_bundled_game_builds(built_game):
    for game in GAMES:
        assert (built_game(game) / f"{game}-print-and-play.pdf").is_file(), game


def test_build_without_a_game_builds_every_folder_under_content(run, monkeypatch, tmp_path):
    """`pnpgen build` alone finds every game folder under content/ (here: the six bundled ones), and
    builds each (here, to keep it quick, in a project whose content/ holds two small games)."""
    from generator.cli import find_games
    assert sorted(p.name for p in find_games(())) == sorted(GAMES)   # run() works from the project root
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "mini", project / "content" / "mini")
    shutil.copytree(FIXTURES / "mini-addon", project / "content" / "mini-addon")
    (project / "content" / "notes").mkdir()   # a folder without game.yaml is no game
    monkeypatch.chdir(project)
    result = run("build", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["mini", "mini-addon"]
