"""`pnpgen stats`: the balance figures of the small route game, worked out by hand."""
from __future__ import annotations

import json

from tests.conftest import FIXTURES


def test_stats_of_the_route_fixture(run):
    result = run("stats", FIXTURES / "check-routes", "--format", "json")
    assert result.exit_code == 0, result.output
    (data,) = json.loads(result.stdout)
    assert data["colours"] == [
        {"colour": "blue", "tracks": 2, "spaces": 3, "cards": 2},
        {"colour": "red", "tracks": 3, "spaces": 6, "cards": 2},
        {"colour": "locomotive", "tracks": 0, "spaces": 0, "cards": 1},
        {"colour": "gray", "tracks": 1, "spaces": 1, "cards": 0},
    ]
    assert data["points"] == [{"deck": "tickets", "histogram": {"1": 1, "4": 1, "5": 1, "6": 1}, "cards": 4}]
    assert data["routes_per_place"] == {"2": ["Aburg", "Bdorf", "Cstadt", "Dheim", "Xland"]}
    assert data["places_without_tickets"] == []
    # Aburg–Dheim may not pass through Xland (a country): it runs Aburg–Bdorf–Cstadt–Dheim
    two, three = data["crowding"]
    assert two["players"] == 2 and [(r["route"], r["per_track"]) for r in two["routes"]] == [
        ("Bdorf–Cstadt", 3), ("Aburg–Bdorf", 2), ("Cstadt–Dheim", 2), ("Aburg–Xland", 1)]
    assert three["players"] == 3 and [(r["route"], r["tracks"], r["per_track"]) for r in three["routes"]] == [
        ("Bdorf–Cstadt", 1, 3), ("Cstadt–Dheim", 1, 2), ("Aburg–Bdorf", 2, 1), ("Aburg–Xland", 1, 1)]


def test_stats_text_for_every_bundled_game(run):
    result = run("stats")
    assert result.exit_code == 0, result.output
    assert "crowding with 2 players" in result.stdout and "crowding with 5 players" in result.stdout
    assert "stations by number of train types" in result.stdout
    assert "nothing to count yet" in result.stdout  # the dice expansion has no map of its own


def test_stats_of_unreadable_content_exits_2(run, tmp_path):
    assert run("stats", tmp_path / "nope").exit_code == 2


def test_crowding_skips_a_ticket_with_an_empty_end(mini):
    """An optional end (from: place?) left empty has no path; `pnpgen stats` used to crash on it."""
    from generator.check.stats import crowding
    from generator.load.game import load_game
    decks = mini / "decks.yaml"
    text = decks.read_text(encoding="utf-8")
    text = text.replace("fields: {from: place, to: place, points: int}", "fields: {from: place?, to: place, points: int}")
    decks.write_text(text.replace("      - [Berlin, Hamburg, 7]", "      - {to: Hamburg, points: 7}"), encoding="utf-8")
    with (mini / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("routes:\n  - [Berlin, Hamburg, 2, red]\n  - [Koeln, Hamburg, 2, blue]\n")
    (low, high) = crowding(load_game(mini))
    assert [r["route"] for r in low["routes"]] == ["Berlin–Hamburg", "Hamburg–Koeln"]
    assert low["routes"][0]["tickets"] == 7  # the other Berlin–Hamburg ticket and the six that run Berlin–Koeln


def test_colour_cards_of_every_deck_count(tmp_path):
    """Two decks with colour cards (a base deck and, say, an expansion's): stats add both."""
    import shutil

    from generator.check.stats import colours
    from generator.load.game import load_game

    folder = tmp_path / "game"
    shutil.copytree(FIXTURES / "check-routes", folder)
    path = folder / "decks.yaml"
    text = path.read_text(encoding="utf-8")
    deck = text[text.index("  trains:"):text.index("\n  tickets:")]  # the trains deck, up to the next deck
    path.write_text(text.replace("  tickets:", deck.replace("  trains:", "  more-trains:", 1) + "\n  tickets:", 1),
                    encoding="utf-8")
    by_colour = {row["colour"]: row["cards"] for row in colours(load_game(folder))}
    assert by_colour["red"] == 4 and by_colour["blue"] == 4 and by_colour["locomotive"] == 2
