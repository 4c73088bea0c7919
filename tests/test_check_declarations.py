"""What the checker reads from content: declarations, `points: auto`, waivers, the bundled games."""
from __future__ import annotations

import shutil

import pytest

from generator.check import errors_in, run_checks
from generator.errors import ContentError
from generator.load.game import load_game
from tests.conftest import FIXTURES, ROOT, copy_fixture

GAMES = ["ttr-germany", "ttr-new-york", "ttr-dice", "s-railway", "thurn-and-taxis"]



@pytest.mark.parametrize("game", GAMES)
def test_every_bundled_game_checks_clean(game):
    findings = run_checks(load_game(ROOT / "content" / game))
    assert [f for f in findings if not f.waived] == []


def test_germany_reports_its_two_known_exceptions_as_waived():
    findings = run_checks(load_game(ROOT / "content" / "ttr-germany"))
    assert [(f.code, f.line, f.message.split(": ", 1)[1].split(" (point_range")[0]) for f in findings] == [
        ("PNP405", 85, "ticket Mannheim–Stuttgart is worth 2, outside the deck's range 3–11"),
        ("PNP404", 130, "ticket Kiel–Stuttgart is worth 17, the shortest path is 16 spaces (+1)"),
    ]
    assert all(f.waived for f in findings)


def test_without_the_terminal_rule_paths_run_through_countries(tmp_path):
    folder = tmp_path / "germany"
    shutil.copytree(ROOT / "content" / "ttr-germany", folder)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("  terminals: [country]", ""), encoding="utf-8")
    shorter = {f.message.split("ticket ")[1].split(" is")[0] for f in run_checks(load_game(folder), codes={"PNP404"})}
    assert "Köln–Schweiz" in shorter  # 9 through Frankreich; the card (and the rule) say 10


def test_points_auto_is_the_shortest_path():
    game = load_game(FIXTURES / "check-routes")
    card = game.decks["tickets"].cards[2]
    assert (card["from"].id, card["to"].id, card["points"], card.auto) == ("Aburg", "Cstadt", 5, frozenset({"points"}))


def test_points_auto_without_a_way_is_a_load_error(tmp_path):
    folder = copy_fixture(tmp_path, "check-routes", "game.yaml", "  - [Bdorf, Cstadt, 3, red]\n", "")
    with pytest.raises(ContentError, match="points: auto, but Aburg and Cstadt are not connected") as error:
        load_game(folder)
    assert (error.value.source.file.name, error.value.source.line) == ("decks.yaml", 29)


def test_a_waiver_comment_keeps_the_finding_but_not_the_error(tmp_path):
    folder = copy_fixture(tmp_path, "check-routes", "decks.yaml", "    point_range: [1, 6]", "    point_range: [2, 6]")
    assert errors_in(run_checks(load_game(folder)))
    path = folder / "decks.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "      - [Aburg, Xland, 1]", "      # a ticket into the country\n      # waive PNP405: printed so, kept\n      - [Aburg, Xland, 1]"),
        encoding="utf-8")
    findings = run_checks(load_game(folder))
    assert [(f.code, f.waived) for f in findings] == [("PNP405", "printed so, kept")]
    assert errors_in(findings) == []


def test_a_waiver_names_its_code(tmp_path):
    folder = copy_fixture(tmp_path, "check-routes", "decks.yaml", "      - [Aburg, Xland, 1]",
                   "      - [Aburg, Xland, 1]  # waive PNP404: wrong code")
    path = folder / "decks.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("point_range: [1, 6]", "point_range: [2, 6]"), encoding="utf-8")
    assert [f.waived for f in run_checks(load_game(folder))] == [None]


DECLARATION_ERRORS = [
    ("decks.yaml", "      color: {red: 2,", "      colour: {red: 2,", 7, "expected_by: 'colour' is not a field", "did you mean 'color'"),
    ("decks.yaml", "      color: {red: 2,", "      color: {rde: 2,", 7, "unknown color 'rde'", "did you mean 'red'"),
    ("decks.yaml", "      color: {red: 2,", "      color: {each: 2,", 7, "'each' needs a field naming places", "list every value"),
    ("decks.yaml", "    point_range: [1, 6]", "    point_range: [6, 1]", 20, "the minimum is above the maximum", "[min, max]"),
    ("decks.yaml", "    expected: 5\n", "    expected: 5\n    point_range: [1, 2]\n", 6, "deck 'trains' has no points field", "remove point_range"),
    ("decks.yaml", "    expected: 5\n", "    expected: 5\n    follows: {table: route_scorin, key: color, value: color}\n", 6,
     "no table named 'route_scorin'", "did you mean 'route_scoring'"),
    ("game.yaml", "  terminals: [country]", "  terminals: [contry]", 8, "terminals: unknown place kind 'contry'", "did you mean 'country'"),
    ("game.yaml", "  setup: {passengers: 6}", "  setup: {pasengers: 6}", 10, "'pasengers' is not a number attribute", "did you mean 'passengers'"),
    ("game.yaml", "  trains_per_player: 3", "  trains_per_player: three", 7, "trains_per_player should be of type integer", ""),
]


@pytest.mark.parametrize("file,old,new,line,message,hint", DECLARATION_ERRORS, ids=[c[4][:30] for c in DECLARATION_ERRORS])
def test_wrong_declarations_are_load_errors(tmp_path, file, old, new, line, message, hint):
    folder = copy_fixture(tmp_path, "check-routes", file, old, new)
    with pytest.raises(ContentError) as error:
        load_game(folder)
    assert message in error.value.message
    assert hint in (error.value.hint or "")
    assert (error.value.source.file.name, error.value.source.line) == (file, line)


def test_points_auto_outside_a_ticket_deck(tmp_path):
    folder = copy_fixture(tmp_path, "check-line", "game.yaml", "      - [s2, 1, a]", "      - [s2, auto, a]")
    with pytest.raises(ContentError, match="points: auto needs a ticket deck"):
        load_game(folder)


def test_train_spaces_count_one_track_per_double_route_below_all_tracks_from(tmp_path):
    # 2 players, one track per pair: 2 + 3 + 1 + 1 + 1 = 8 spaces; 3 players, every track: 10
    folder = copy_fixture(tmp_path, "check-routes", "game.yaml", "  trains_per_player: 3", "  trains_per_player: 4.5")
    with pytest.raises(ContentError):
        load_game(folder)  # a whole number
    folder = copy_fixture(tmp_path / "b", "check-routes", "game.yaml", "  trains_per_player: 3", "  trains_per_player: 4")
    messages = [f.message for f in run_checks(load_game(folder), codes={"PNP307"})]
    assert messages == ["with 3 players the map has 10 usable train spaces, fewer than 4 trains × 3 players = 12"]
    folder = copy_fixture(tmp_path / "c", "check-routes", "game.yaml", "  trains_per_player: 3", "  trains_per_player: 5")
    messages = [f.message for f in run_checks(load_game(folder), codes={"PNP307"})]
    assert messages[0] == ("with 2 players the map has 8 usable train spaces (one track per double route), "
                           "fewer than 5 trains × 2 players = 10")


def test_one_waiver_may_name_several_codes(tmp_path):
    folder = copy_fixture(tmp_path, "check-routes", "decks.yaml", "      - [Aburg, Xland, 1]",
                   "      # waive PNP404, PNP405: both known\n      - [Aburg, Xland, 2]")
    path = folder / "decks.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("point_range: [1, 6]", "point_range: [3, 6]"), encoding="utf-8")
    findings = run_checks(load_game(folder))
    assert sorted((f.code, f.waived) for f in findings) == [("PNP404", "both known"), ("PNP405", "both known")]


@pytest.mark.parametrize("new,code,message", [
    ("      - [Kiel, Kiel, 1]", "PNP302", "route Kiel–Kiel joins a place to itself"),
    ("      - [Hamburg, Kiel, 2]", "PNP305", "tracks Hamburg–Kiel are 2 long here but 1"),
])
def test_a_boards_own_routes_are_checked_like_the_games(tmp_path, new, code, message):
    """Thurn and Taxis map 2 declares its own places and roads: the row checks cover them too."""
    folder = tmp_path / "tt"
    shutil.copytree(ROOT / "content/thurn-and-taxis", folder)
    path = folder / "map-north.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("      - [Kiel, Hamburg, 1]\n", f"      - [Kiel, Hamburg, 1]\n{new}\n", 1), encoding="utf-8")
    findings = [f for f in run_checks(load_game(folder)) if f.code == code]
    added = text.splitlines().index("      - [Kiel, Hamburg, 1]") + 2   # the row added after it
    assert [(f.source.file.name, f.line) for f in findings] == [("map-north.yaml", added)]
    assert message in findings[0].message
