"""Every check: one content edit that triggers it, and the clean fixtures that do not.

Two small games, tests/fixtures/check-routes (a route map with tickets) and
tests/fixtures/check-line (stations, train types, line types, tables), check
clean. Each case copies one, changes one line, and expects its check to fire
at the right file and line — and only the findings it names.
"""
from __future__ import annotations

import pytest

from generator.check import CATALOGUE, run_checks
from generator.load.game import load_game
from tests.conftest import FIXTURES, copy_fixture

ROUTES, LINE = "check-routes", "check-line"

# (code, fixture, file, old text, new text, line of the finding (or (file, line)), words in its message)
CASES = [
    ("PNP101", ROUTES, "decks.yaml", "    expected: 4\n", "    expected: 5\n", 19,
     "deck 'tickets' has 4 cards but declares expected: 5"),
    ("PNP102", ROUTES, "decks.yaml", "      - {color: blue, count: 2}", "      - {color: blue, count: 1}\n      - {color: green, count: 1}", 7,
     "has 1 card with color 'blue', expected_by says 2"),
    ("PNP103", ROUTES, "decks.yaml", "      color: {red: 2, blue: 2, locomotive: 1}", "      color: {red: 2, blue: 2, locomotive: 2}", 7,
     "expected_by adds up to 6, but expected: is 5"),
    ("PNP201", ROUTES, "game.yaml", "  route_scoring: {1: 1, 2: 2, 3: 4}", "  route_scoring: {1: 1, 2: 2}", 34,
     "no entry for length 3"),
    ("PNP202", ROUTES, "game.yaml", "  route_scoring: {1: 1, 2: 2, 3: 4}", "  route_scoring: {1: 1, 2: 2, 3: 2}", 34,
     "3 spaces scores 2, not more than 2"),
    ("PNP203", LINE, "game.yaml", "  line_bonus: {1: 0, 2: 2}", "  line_bonus: {1: 0, 3: 2}", 28,
     "line_bonus has no entry for 2"),
    ("PNP204", LINE, "game.yaml", "  line_bonus: {1: 0, 2: 2}", "  line_bonus: {1: 3, 2: 2}", 28,
     "2 line types scores 2, not more than 1 (3)"),
    ("PNP205", LINE, "game.yaml", "      - [4, 3]", "      - [4, 4]", 55,
     "points 4, but table carriage_points gives 3 for length 4"),
    ("PNP206", LINE, "game.yaml", "  carriage_points: {3: 2, 4: 3}", "  carriage_points: {3: 2, 4: 3, 5: 5}", 29,
     "no card of deck 'carriages' has length 5"),
    ("PNP301", ROUTES, "game.yaml", "Dheim: {name: デーハイム,", "Dheim: {name: アーブルク,", 25,
     "places 'Aburg' and 'Dheim' are both named 'アーブルク'"),
    ("PNP302", ROUTES, "game.yaml", "  - [Cstadt, Dheim, 1, gray]", "  - [Cstadt, Dheim, 1, gray]\n  - [Dheim, Dheim, 1, gray]", 31,
     "Dheim–Dheim joins a place to itself"),
    ("PNP303", ROUTES, "game.yaml", "  - [Cstadt, Dheim, 1, gray]", "  - [Cstadt, Dheim, 1, green]", 30,
     "route Cstadt–Dheim is green, but no card is green"),
    ("PNP304", ROUTES, "game.yaml", "[red, blue]]\n  - [Bdorf, Cstadt, 3, red]\n  - [Cstadt, Dheim, 1, gray]\n  - [Aburg, Xland, 1, blue]",
     "[red, gray]]\n  - [Bdorf, Cstadt, 3, red]\n  - [Cstadt, Dheim, 1, gray]\n  - [Aburg, Xland, 1, gray]", ("decks.yaml", 14),
     "deck 'trains' has blue cards, but no route is blue"),
    ("PNP305", ROUTES, "game.yaml", "  - [Bdorf, Cstadt, 3, red]", "  - [Bdorf, Cstadt, 3, red]\n  - [Cstadt, Bdorf, 2, blue]", 30,
     "tracks Cstadt–Bdorf are 2 long here but 3"),
    ("PNP306", ROUTES, "game.yaml", "  - [Aburg, Bdorf, 2, [red, blue]]", "  - [Aburg, Bdorf, 2, [red, red]]", 28,
     "two red tracks between Aburg and Bdorf"),
    ("PNP307", ROUTES, "game.yaml", "  trains_per_player: 3", "  trains_per_player: 4", 7,
     "with 3 players the map has 10 usable train spaces, fewer than 4 trains × 3 players = 12"),
    ("PNP308", ROUTES, "game.yaml", "  Xland: {name:", "  Ezell: {name: エツェル, latin: Ezell, kind: city}\n  Xland: {name:", 26,
     "no route reaches Ezell"),
    ("PNP710", ROUTES, "game.yaml", '  blue: {hex: "#2244cc"', '  blue: {hex: "#4f8a2a"', 17,
     "colours 'red' and 'blue' look alike with deuteranopia"),
    ("PNP401", ROUTES, "decks.yaml", "      - [Bdorf, Dheim, 4]", "      - [Bdorf, Bdorf, 4]", 28,
     "ticket Bdorf–Bdorf starts where it ends"),
    ("PNP402", ROUTES, "decks.yaml", "      - [Bdorf, Dheim, 4]", "      - [Dheim, Aburg, 6]", 28,
     "ticket Dheim–Aburg (6 points) duplicates tickets card 1"),
    ("PNP403", ROUTES, "game.yaml", "  - [Cstadt, Dheim, 1, gray]\n", "", ("decks.yaml", 27),
     "ticket Aburg–Dheim cannot be completed without passing through a country"),
    ("PNP404", ROUTES, "decks.yaml", "      - [Bdorf, Dheim, 4]", "      - [Bdorf, Dheim, 5]", 28,
     "ticket Bdorf–Dheim is worth 5, the shortest path is 4 spaces (+1)"),
    ("PNP405", ROUTES, "decks.yaml", "    point_range: [1, 6]", "    point_range: [2, 6]", 30,
     "ticket Aburg–Xland is worth 1, outside the deck's range 2–6"),
    ("PNP601", ROUTES, "game.yaml", "  setup: {passengers: 6}", "  setup: {passengers: 7}", 10,
     "places hold 6 passengers at setup, but setup declares 7"),
    ("PNP602", ROUTES, "game.yaml", "  route_scoring: {1: 1, 2: 2, 3: 4}\n",
     "  route_scoring: {1: 1, 2: 2, 3: 4}\ncomponents:\n  passengers: {kind: token, name: 乗客, latin: Passengers, "
     "expected: 4, shape: circle, size: 14, colors: [red, blue], count_each: 2, face: {icon: passenger}}\n", 10,
     "places hold 6 passengers at setup, but component 'passengers' makes 4"),
    ("PNP611", LINE, "game.yaml", "stops: [s1, s3, s5]", "stops: [s1, s5, s3]", 23,
     "train type 'rapid' stops at s3 after s5"),
    ("PNP612", LINE, "game.yaml", "stops: [s1, s3, s5]", "stops: [s1]", 23,
     "train type 'rapid' has 1 stop(s)"),
    ("PNP613", LINE, "game.yaml", "stops: [s1, s2, s3, s4, s5]", "stops: [s1, s2, s3, s5]", 42,
     "no train type stops at s4"),
    ("PNP614", LINE, "game.yaml", "  b: {name: B線, latin: B line, color: ln-b}", "  b: {name: B線, latin: B line, color: ln-b}\n  c: {name: C線, latin: C line, color: ln-b}", 27,
     "no card names line type 'c'"),
    ("PNP701", LINE, "game.yaml", "    name: 目的駅カード", "    name: とても長い目的駅カードの名前でございますので入りません", 36,
     "does not fit its box"),
    ("PNP702", LINE, "game.yaml", "    name: 目的駅カード", "    name: 目的駅カード♞", 36,
     "the font has no glyph for ♞"),
    ("PNP703", LINE, "layouts/plain.yaml", "{{ deck.name }}", "{{ deck.nmae }}", 4,
     "layout expression '{{ deck.nmae }}' failed"),
    ("PNP704", ROUTES, "rules.md", "このゲームの内容物：", "このゲームの内容物♞：", 3,
     "the font has no glyph for ♞"),
    ("PNP705", ROUTES, "rules.md", "{{ components_table() }}",
     "| " + " | ".join(["Unbreakablewordhere"] * 8) + " |\n|" + "---|" * 8 + "\n| " + " | ".join(["x"] * 8) + " |", 5,
     "a table of 8 columns needs"),
]


@pytest.mark.parametrize("fixture", [ROUTES, LINE])
def test_the_fixtures_check_clean(fixture):
    assert run_checks(load_game(FIXTURES / fixture)) == []


@pytest.mark.parametrize("code,fixture,file,old,new,line,message", CASES, ids=[c[0] for c in CASES])
def test_each_check_fires_on_its_trigger(tmp_path, code, fixture, file, old, new, line, message):
    folder = copy_fixture(tmp_path, fixture, file, old, new)
    findings = [f for f in run_checks(load_game(folder)) if f.code == code]
    assert findings, f"{code} did not fire"
    found = next((f for f in findings if message in f.message), None)
    assert found, [f.message for f in findings]
    assert found.severity == CATALOGUE[code].severity
    where = line if isinstance(line, tuple) else (file, line)
    assert (str(found.source.file.relative_to(folder)), found.line) == where, found
    assert found.hint, "every finding says what to change"


def test_every_check_has_a_trigger_case():
    """Each code of the catalogue has a content edit that fires it: here (CASES), board geometry (PNP5xx) in
    test_board_errors.GEOMETRY_CASES, components (PNP8xx) in test_components_check.CASES, or a test of its
    own named below — so a new check without a trigger case fails here; so does a case for a code that is gone."""
    import inspect

    from tests import test_board_errors, test_components_check
    cases = {
        "test_check_rules.CASES": {c[0] for c in CASES},
        "test_board_errors.GEOMETRY_CASES": {c[0] for c in test_board_errors.GEOMETRY_CASES},
        "test_components_check.CASES": {c[0] for c in test_components_check.CASES},
    }
    for code, test in _OWN_TESTS.items():
        assert code in inspect.getsource(test), f"{test.__name__} does not look for {code}"
        cases[test.__name__] = {code}
    covered = set().union(*cases.values())
    missing = sorted(set(CATALOGUE) - covered)
    assert not missing, f"checks without a trigger case: {missing}"
    unknown = {where: sorted(codes - set(CATALOGUE)) for where, codes in cases.items() if codes - set(CATALOGUE)}
    assert not unknown, f"trigger cases for codes the catalogue does not have: {unknown}"
    assert all(cases.values()), "a list of trigger cases came out empty"


def _own_tests():
    from tests import (
        test_check_variants,
        test_components_check,
        test_images,
        test_language,
        test_route_maps,
        test_table,
        test_terrain,
    )
    #: codes that no content edit can reach (the loader refuses first), each with the test that builds its case;
    #: PNP621 has a game of its own (two maps)
    return {"PNP621": test_check_variants.test_a_second_map_without_city_cards_is_pnp621,
            "PNP801": test_components_check.test_a_die_with_five_faces_is_pnp801,
            "PNP901": test_language.test_a_missing_catalogue_entry_is_pnp901_never_japanese,
            "PNP720": test_images.test_a_picture_below_300_dpi_is_a_warning_naming_dpi_and_size_pnp720,
            # a map of its own (points, alternative decks, map rules): tests/test_route_maps.py
            "PNP406": test_route_maps.test_reprints_in_an_alternative_deck_are_no_duplicates,
            "PNP309": test_route_maps.test_map_rules_that_disagree_with_the_routes_are_pnp309,
            "PNP508": test_table.test_markers_wider_than_the_band_are_pnp508,
            "PNP509": test_table.test_a_layout_that_forgets_the_margin_is_pnp509,
            # a map with terrain of its own: tests/test_terrain.py
            "PNP510": test_terrain.test_a_city_on_the_sea_is_pnp510}


_OWN_TESTS = _own_tests()
