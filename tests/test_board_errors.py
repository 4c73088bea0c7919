"""Board content mistakes: file:line, what is wrong, what to do, exit 2; geometry problems as build warnings."""
from __future__ import annotations

import shutil

import pytest

from generator.layout.board_geometry import board_problems, plan_board
from generator.load.game import load_game
from tests.conftest import ROOT

BOARD = """\
boards:
  test:
    size: [300, 200]
    legend: route_scoring
    places:
      Aa: {name: アー, latin: Aa, at: [60, 100]}
      Bonn: {name: ボン, latin: Bonn, at: [150, 100]}
      Celle: {name: ツェレ, latin: Celle, at: [240, 100]}
      Dessau: {name: デッサウ, latin: Dessau, at: [150, 40]}
    routes:
      - [Aa, Bonn, 2, red]
      - [Bonn, Celle, 2, [red, blue]]
      - [Aa, Dessau, 2, blue, {curve: 10}]
tables:
  route_scoring: {1: 1, 2: 2, 3: 4}
"""


@pytest.fixture
def boarded(mini):
    """The mini game with a board file of its own places and routes."""
    text = (mini / "game.yaml").read_text(encoding="utf-8")
    (mini / "game.yaml").write_text(text.replace("include: [decks.yaml]", "include: [decks.yaml, board.yaml]"),
                                    encoding="utf-8")
    (mini / "board.yaml").write_text(BOARD, encoding="utf-8")
    return mini


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


CASES = [
    # (old, new, line, words in the message, words in the hint)
    ("      - [Aa, Bonn, 2, red]", "      - [Aa, Bonnn, 2, red]", 11, "unknown place 'Bonnn'", "did you mean 'Bonn'"),
    ("at: [240, 100]", "at: [340, 100]", 8, "place 'Celle' at [340, 100] is off board 'test' (300 × 200 mm)",
     "move it inside"),
    ("      Dessau: {name: デッサウ, latin: Dessau, at: [150, 40]}", "      Dessau: {name: デッサウ, latin: Dessau}", 9,
     "place 'Dessau' has no position on board 'test'", "add at: [x, y]"),
    ("{curve: 10}", "{curv: 10}", 13, "unknown route extra 'curv'", "did you mean 'curve'"),
    ("{curve: 10}", "{curve: 10, bends: [[100, 60]]}", 13, "both bends and a curve", "not both"),
    ("{curve: 10}", "{ferry: 3}", 13, "ferry should be the number of locomotives (0–2)", "ferry: 1"),
    ("    size: [300, 200]", "    size: [300]", 3, "boards.test.size", "schema"),
    ("    size: [300, 200]", "    size: [300, 200]\n    kind: mapp", 4, "boards.test.kind", "schema"),
]


@pytest.mark.parametrize("old,new,line,message,hint", CASES)
def test_board_content_errors_point_at_the_line(boarded, run, tmp_path, old, new, line, message, hint):
    _edit(boarded / "board.yaml", old, new)
    result = run("build", "--all", boarded, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert f"board.yaml:{line}:" in result.stderr
    assert message in result.stderr and hint in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out" / "mini").exists()


def test_clean_board_builds_without_geometry_findings(boarded, run, tmp_path):
    result = run("build", "--all", boarded, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    assert "PNP5" not in result.stderr + result.stdout
    assert board_problems(plan_board(load_game(boarded).boards["test"])) == []


def test_geometry_problems_are_check_errors_that_stop_the_build(boarded, run, tmp_path):
    # Celle moved next to Bonn: the double route has 30 mm for two 20 mm spaces
    _edit(boarded / "board.yaml", "at: [240, 100]", "at: [180, 100]")
    result = run("check", boarded)
    assert result.exit_code == 1
    assert "board.yaml:12: error PNP501 route Bonn – Celle is" in result.stdout
    assert "too short for its 2 spaces on board 'test'" in result.stdout
    result = run("build", "--all", boarded, "--out", tmp_path / "out")
    assert result.exit_code == 1 and not (tmp_path / "out" / "mini").exists()
    result = run("build", "--all", boarded, "--out", tmp_path / "out", "--force")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "out" / "mini" / "board-test.pdf").is_file()
    assert (tmp_path / "out" / "mini" / "board-test-tiles-a4.pdf").is_file()


def test_tunnel_and_ferry_marks_are_drawn(boarded):
    from generator.layout.board import board_form
    from generator.layout.primitives import Group
    _edit(boarded / "board.yaml", "      - [Aa, Bonn, 2, red]", "      - [Aa, Bonn, 2, red, {tunnel: true}]")
    _edit(boarded / "board.yaml", "{curve: 10}", "{curve: 10, ferry: 1}")
    game = load_game(boarded)
    board = game.boards["test"]
    form, plan = board_form(game, board)
    tunnel = next(rp for rp in plan.routes if rp.route.name == "Aa – Bonn")
    outlined = [i for i in form.items if getattr(i, "points", None) in tunnel.tracks[0].spaces and i.fill is None]
    assert len(outlined) == 2                       # a thick dark outline on each tunnel space
    ferry = [i for i in form.items if isinstance(i, Group) and i.rotate]
    assert len(ferry) == 1                          # one locomotive, turned with its space


def test_shortfall_is_measured_in_mm(boarded):
    _edit(boarded / "board.yaml", "at: [60, 100]", "at: [120, 100]")
    board = load_game(boarded).boards["test"]
    plan = plan_board(board)
    ab = next(rp for rp in plan.routes if rp.route.name == "Aa – Bonn")
    # 30 mm between centres, less two markers (5.5 mm) and their clearance, for 2 × 20 mm + a 1 mm gap
    assert ab.shortfall == pytest.approx(41 - (30 - 2 * (5.5 + 1.2 + 1.35)), abs=0.1)
    kinds = [p.kind for p in board_problems(plan)]
    assert kinds.count("too-short") == 1


def test_route_over_a_city_and_crossing_routes_are_found(boarded):
    # Dessau moved onto the line Aa–Bonn
    _edit(boarded / "board.yaml", "at: [150, 40]", "at: [105, 102]")
    board = load_game(boarded).boards["test"]
    problems = board_problems(plan_board(board))
    over = [p for p in problems if p.kind == "over-city"]
    assert over and "route Aa – Bonn passes over Dessau" in over[0].message and over[0].source.line == 11
    # back in place, plus a route Dessau–Celle that bends down across Aa–Bonn
    _edit(boarded / "board.yaml", "at: [105, 102]", "at: [150, 40]")
    _edit(boarded / "board.yaml", "      - [Aa, Dessau, 2, blue, {curve: 10}]",
          "      - [Aa, Dessau, 2, blue, {curve: 10}]\n      - [Dessau, Celle, 5, red, {bends: [[120, 160]]}]")
    board = load_game(boarded).boards["test"]
    problems = board_problems(plan_board(board))
    assert any(p.kind == "crossing" and p.source.line == 11
               and "route Aa – Bonn overlaps route Dessau – Celle (line 14)" in p.message for p in problems)


def test_legend_names_an_existing_table(boarded, run):
    _edit(boarded / "board.yaml", "legend: route_scoring", "legend: route_scoreing")
    result = run("check", boarded)
    assert result.exit_code == 2
    assert "board.yaml:4" in result.output and "'route_scoreing'" in result.output
    assert "did you mean 'route_scoring'" in result.output


_CELLE = "      Celle: {name: ツェレ, latin: Celle, at: [240, 100]}"
_CLUSTER = "".join(f"\n      E{i}: {{name: エムデンエムデン{i}, latin: Emden{i}, at: {p}}}"
                   for i, p in enumerate(["[48, 90]", "[72, 90]", "[48, 110]", "[72, 110]", "[60, 85]", "[60, 115]"]))
GEOMETRY_CASES = [
    # (code, edits [(old, new)], line of the finding, words in its message)
    ("PNP501", [("at: [240, 100]", "at: [180, 100]")], 12, "too short for its 2 spaces"),
    ("PNP502", [("      - [Aa, Dessau, 2, blue, {curve: 10}]",
                 "      - [Aa, Dessau, 2, blue, {curve: 10}]\n      - [Dessau, Celle, 5, red, {bends: [[120, 160]]}]")],
     11, "route Aa – Bonn overlaps route Dessau – Celle (line 14)"),
    ("PNP503", [(_CELLE, _CELLE + "\n      Emden: {name: エムデン, latin: Emden, at: [155, 95]}")], 13,
     "route Bonn – Celle passes over Emden, which it does not connect"),
    ("PNP504", [(_CELLE, _CELLE + _CLUSTER)], 10, "the name of E1 cannot be placed"),
    ("PNP505", [("at: [150, 40]", "at: [150, 6]")], 9, "Dessau at [150, 6] is off the playing area of board 'test'"),
    # the legend moved onto Bonn (its marker), then onto the spaces between Aa and Bonn
    ("PNP506", [("legend: route_scoring", "legend: route_scoring\n    legend_at: [130, 85]")], 2,
     "the legend box of board 'test' at [130, 85] (43 × 24 mm) covers Bonn"),
    ("PNP506", [("legend: route_scoring", "legend: route_scoring\n    legend_at: [82, 92]")], 2,
     "the legend box of board 'test' at [82, 92] (43 × 24 mm) covers spaces of Aa – Bonn"),
    ("PNP507", [("name: ボン,", "name: ボン🚂,")], 7, "board 'test': no face has a glyph for 🚂 in 'ボン🚂'"),
]


@pytest.mark.parametrize("code,edits,line,message", GEOMETRY_CASES, ids=[c[0] for c in GEOMETRY_CASES])
def test_each_geometry_check_fires_on_its_trigger(boarded, code, edits, line, message):
    from generator.check import CATALOGUE, run_checks
    assert not [f for f in run_checks(load_game(boarded)) if f.code.startswith("PNP5")]  # clean before the edit
    for old, new in edits:
        _edit(boarded / "board.yaml", old, new)
    findings = [f for f in run_checks(load_game(boarded)) if f.code == code]
    assert any(message in f.message and f.line == line and f.source.file.name == "board.yaml" for f in findings), \
        [(f.line, f.message) for f in findings]
    assert all(f.severity == CATALOGUE[code].severity and f.hint for f in findings)


def test_an_area_disc_cut_off_by_the_board_edge_is_pnp505(tmp_path):
    from generator.check import run_checks
    folder = tmp_path / "tt"
    shutil.copytree(ROOT / "content/thurn-and-taxis", folder)
    _edit(folder / "map.yaml", "latin: Zürich, kind: city, area: Schweiz, at: [206, 379]",
          "latin: Zürich, kind: city, area: Schweiz, at: [20, 379]")   # the left edge: the board's foot is trays now
    # drawn as regions (terrain `kind: areas`), the areas have no disc to cut off; as discs, they have
    assert not [f for f in run_checks(load_game(folder)) if f.code == "PNP505"]
    _edit(folder / "map.yaml", "      - {kind: areas, points: [[4, 4], [596, 4], [596, 418], [4, 418]]}\n", "")
    _edit(folder / "map.yaml", "    terrain:", "    terrain: []")
    findings = [f for f in run_checks(load_game(folder)) if f.code == "PNP505"]
    assert [(f.source.file.name, f.line) for f in findings] == [("map.yaml", 38)]
    assert "Zurich's Schweiz disc (radius 34 mm) at [20, 379] is off the playing area" in findings[0].message
