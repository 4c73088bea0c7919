"""PNP8xx: each component check fires on one content edit, at the right line; the clean game has no findings."""
from __future__ import annotations

import dataclasses

import pytest

from generator.check import CATALOGUE, run_checks
from generator.load.game import load_game

PIECES = """\
areas:
  North: {name: 北}
  South: {name: 南}
  Empty: {name: 空}
places:
  Kiel: {name: キール, latin: Kiel, area: North}
  Lubeck: {name: リューベック, latin: Lübeck, area: North}
  Munchen: {name: ミュンヘン, latin: München, area: South}
  Bremen: {name: ブレーメン, latin: Bremen, kind: free-city}
components:
  tiles:
    kind: tile
    name: タイル
    expected: 6
    size: 24
    faces:
      - {title: 北, text: 北の全都市, areas: [North], cities: [Kiel, Lübeck], values: [3, 2, 1]}
      - {title: 南, text: 南の全都市, areas: [South], values: [2, 1]}
      - {title: 自由都市, text: ブレーメン, cities: [Bremen], value: 1}
  pawns:
    kind: token
    name: コマ
    expected: 8
    size: 12
    colors: [red, blue, locomotive, ticket-back]
    count_each: 2
    per_player: true
  die:
    kind: die
    name: ダイス
    expected: 1
    dice: 1
    color: red
    faces: {star: 6}
  aid:
    kind: sheet
    name: 早見表
    expected: 1
    format: half
    blocks:
      - text: 短い説明。
"""


@pytest.fixture
def game_dir(mini):
    text = (mini / "game.yaml").read_text(encoding="utf-8")
    (mini / "game.yaml").write_text(text.replace("include: [decks.yaml]", "include: [decks.yaml, pieces.yaml]"),
                                    encoding="utf-8")
    (mini / "pieces.yaml").write_text(PIECES, encoding="utf-8")
    return mini


def _findings(folder):
    """Findings about components: the PNP8xx checks and the count check (the mini game's own map and
    tickets have findings of their own, which these tests leave alone)."""
    return [f for f in run_checks(load_game(folder)) if f.code.startswith("PNP8") or f.code == "PNP101"]


def test_the_pieces_check_clean(game_dir):
    assert _findings(game_dir) == []


LONG = "とても長い説明の文です。" * 300

def _line(text: str, needle: str) -> int:
    """The line of ``needle`` in ``text`` (1-based): where a finding should point."""
    return text[:text.index(needle)].count("\n") + 1


CASES = [
    # (code, old, new, where the finding points (a line of the edited file, or ("layout", line)), words in the message)
    ("PNP802", "values: [3, 2, 1]", "values: [3, 1, 1]", "values: [3, 1, 1]",
     "has values [3, 1, 1]; each later copy is worth 1 less ([3, 2, 1])"),
    ("PNP803", "areas: [South]", "areas: [Empty]", "areas: [Empty]", "a tile of 'tiles' needs area 'Empty', which has no city"),
    ("PNP804", "cities: [Kiel, Lübeck]", "cities: [Kiel, München]", "cities: [Kiel, München]",
     "lists the cities of North wrongly (missing Lubeck; not in those areas: Munchen)"),
    ("PNP804", "areas: [South], values", "areas: [South], city_count: 2, values", "city_count: 2",
     "promises 2 cities, but South has 1 on the map (Munchen)"),
    ("PNP805", "    expected: 8\n    size: 12\n    colors: [red, blue, locomotive, ticket-back]",
     "    expected: 6\n    size: 12\n    colors: [red, blue, locomotive]", "  pawns:", "has 3 colours for up to 4 players"),
    ("PNP806", "    expected: 8\n    size: 12\n    colors: [red, blue, locomotive, ticket-back]\n    count_each: 2\n",
     "    expected: 7\n    size: 12\n    faces: [{color: red, count: 2}, {color: blue, count: 2}, "
     "{color: locomotive, count: 2}, {color: ticket-back}]\n", "  pawns:",
     "players would get different numbers of pieces (red 2, blue 2, locomotive 2, ticket-back 1)"),
    ("PNP807", "      - text: 短い説明。", f"      - text: {LONG}", "      - text:",
     "140 mm tall on Letter; this block runs off the bottom"),
    ("PNP807", "{title: 南, text: 南の全都市,", "{title: 南, text: " + "南" * 80 + ",", "{title: 南", "does not fit its box"),
    ("PNP808", "      - text: 短い説明。", "      - text: 説明😀", "      - text:", "the font has no glyph for 😀"),
    ("PNP809", "    size: 24\n", "    size: 24\n    layout: broken\n", ("layout", 2), "failed for tiles face 1"),
    ("PNP810", "cities: [Bremen]", "cities: [Bremn]", "cities: [Bremn]", "names 'Bremn', which is on no map"),
    ("PNP811", "  Bremen: {name: ブレーメン, latin: Bremen, kind: free-city}\n",
     "  Bremen: {name: ブレーメン, latin: Bremen, kind: free-city}\n  Emden: {name: エムデン, latin: Emden, kind: free-city}\n",
     "cities: [Bremen]", "free cities without a bonus tile: Emden"),
]


@pytest.mark.parametrize("code,old,new,line,message", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_component_check_fires_on_its_trigger(game_dir, code, old, new, line, message):
    text = (game_dir / "pieces.yaml").read_text(encoding="utf-8")
    assert old in text
    (game_dir / "pieces.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    if code == "PNP809":
        (game_dir / "layouts").mkdir()
        (game_dir / "layouts" / "broken.yaml").write_text(
            'elements:\n  - text: {x: 0, y: 0, w: 10, h: 10, text: "{{ card.nothing.here }}"}\n', encoding="utf-8")
    found = _findings(game_dir)
    assert [f.code for f in found] == [code], [(f.code, f.message) for f in found]
    (finding,) = found
    assert finding.severity == CATALOGUE[code].severity
    assert message in finding.message, finding.message
    if isinstance(line, tuple):   # a layout error points into the layout
        assert finding.file.endswith("layouts/broken.yaml") and finding.line == line[1]
    else:
        assert finding.file.endswith("pieces.yaml")
        assert finding.line == _line((game_dir / "pieces.yaml").read_text(encoding="utf-8"), line)


def test_a_die_with_five_faces_is_pnp801(game_dir):
    """The loader already refuses it in content; the check guards the model every kind builds on."""
    game = load_game(game_dir)
    die = game.parts["die"]
    die.options = dataclasses.replace(die.options, symbols=die.options.symbols[:-1])
    found = [f for f in run_checks(game) if f.code == "PNP801"]
    assert len(found) == 1 and "has 5 faces, a die has 6" in found[0].message


def test_the_bundled_games_have_no_component_findings():
    from tests.conftest import ROOT
    for name in ("ttr-germany", "ttr-new-york", "ttr-dice", "s-railway", "thurn-and-taxis"):
        found = [f for f in run_checks(load_game(ROOT / "content" / name)) if f.code.startswith("PNP8")]
        assert found == [], name


def test_sheet_overflow_refuses_the_build_and_force_builds_it(game_dir, run, tmp_path):
    text = (game_dir / "pieces.yaml").read_text(encoding="utf-8")
    (game_dir / "pieces.yaml").write_text(text.replace("      - text: 短い説明。", f"      - text: {LONG}"), encoding="utf-8")
    refused = run("build", game_dir, "--out", tmp_path / "out")
    assert refused.exit_code == 1
    where = _line((game_dir / "pieces.yaml").read_text(encoding="utf-8"), "      - text:")
    assert "PNP807" in refused.stderr and f"pieces.yaml:{where}" in refused.stderr
    forced = run("build", game_dir, "--out", tmp_path / "out", "--force")
    assert forced.exit_code == 0, forced.output
    assert (tmp_path / "out" / "mini" / "aid.pdf").is_file()


def test_a_piece_pictured_in_a_sheet_legend_is_reported_once_and_force_builds(game_dir, tmp_path):
    """The legend draws with the sheet's renderer: a tile's overflowing text is the tile's PNP807 alone
    (not also a PNP809 from the sheet), and ``build --force`` draws the sheet."""
    text = (game_dir / "pieces.yaml").read_text(encoding="utf-8")
    text = text.replace("{title: 南, text: 南の全都市,", "{title: 南, text: " + "南" * 80 + ",", 1)
    text = text.replace("      - text: 短い説明。", "      - legend: {component: tiles}", 1)
    (game_dir / "pieces.yaml").write_text(text, encoding="utf-8")
    found = _findings(game_dir)
    assert [f.code for f in found] == ["PNP807"], [(f.code, f.message) for f in found]
    from generator.pipeline import build_game
    result = build_game(load_game(game_dir), tmp_path / "out", force=True, findings=[])
    assert any(w.path.name == "aid.pdf" for w in result.files)
