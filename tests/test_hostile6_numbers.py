"""Round six, numbers: a whole number is bounded where it is read (limits.MAX_WHOLE_NUMBER), in YAML and in a
spreadsheet's cell. A card size of 10**400 passed the schema (a number, > 0) and met ``float()`` in the loader:
"OverflowError: int too large to convert to float", a traceback for check and build alike."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator import limits
from generator.errors import ContentError
from generator.load.game import load_game

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "fixtures" / "mini"
ARTWORK = ROOT / "content" / "demo-artwork"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("number", ["1" + "0" * 400, "-" + "9" * 30, "0x" + "f" * 5000, "!!int '1" + "0" * 20 + "'"])
def test_a_huge_whole_number_in_yaml_is_a_content_error(tmp_path, number):
    shutil.copytree(MINI, tmp_path / "mini")
    _edit(tmp_path / "mini" / "game.yaml", "size: [44, 68]", f"size: [{number}, 68]")
    with pytest.raises(ContentError, match="MAX_WHOLE_NUMBER") as error:
        load_game(tmp_path / "mini")
    assert error.value.source.line == 8


def test_the_largest_whole_number_is_read(tmp_path):
    shutil.copytree(MINI, tmp_path / "mini")
    _edit(tmp_path / "mini" / "decks.yaml", "expected: 5", f"expected: {limits.MAX_WHOLE_NUMBER}")
    assert load_game(tmp_path / "mini").decks["trains"].expected == limits.MAX_WHOLE_NUMBER


@pytest.mark.parametrize("cell", ["1" + "0" * 400, "-1" + "0" * 40])
def test_a_huge_whole_number_in_a_spreadsheet_is_a_content_error(tmp_path, cell):
    game = tmp_path / "art"
    shutil.copytree(ARTWORK, game, ignore=shutil.ignore_patterns("fonts", "art"))
    (game / "tickets.csv").write_text(f"from,to,points\nNorthport,Eastwick,{cell}\n", encoding="utf-8")
    with pytest.raises(ContentError, match="MAX_WHOLE_NUMBER") as error:
        load_game(game)
    assert str(error.value.source).endswith("tickets.csv:2:C")


@pytest.mark.parametrize("where", ["stop", "board", "bend"])
def test_a_huge_whole_number_in_a_map_file_is_a_content_error(tmp_path, where):
    """pnpgen import: the coordinate 10**400 passed ``math.isfinite`` by way of ``float()`` (OverflowError)."""
    import copy
    import json

    from test_mapio import MAP

    from generator.mapio.ttrme import read_json
    data = copy.deepcopy(MAP)
    huge = 10 ** 400
    {"stop": lambda: data["payload"]["stops"][2].update(x=huge),
     "board": lambda: data["board"].update(width=huge),
     "bend": lambda: data["payload"]["routes"][0].update(points=[{"x": huge, "y": 1}])}[where]()
    path = tmp_path / "map.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    with pytest.raises(ContentError, match="401 digits.*MAX_WHOLE_NUMBER") as error:
        read_json(path)
    line = path.read_text().splitlines()[error.value.source.line - 1]
    assert str(huge) in line


@pytest.mark.parametrize("game, file, old, new", [
    ("s-railway", "components.yaml", "count_each: 5", "count_each: 5.0"),   # range(5.0): a traceback in check and build
    ("s-railway", "components.yaml", "count: 30}", "count: 30.0}"),
    ("ttr-new-york", "game.yaml", "players: [2, 4]", "players: [2.0, 4]"),
])
def test_a_float_where_a_whole_number_goes_is_a_content_error(tmp_path, game, file, old, new):
    """Draft 2020-12 (and fastjsonschema) count 5.0 as an integer; pnpgen's schema does not, on both paths."""
    from generator.load.schema import fast_valid, game_validator
    folder = tmp_path / game
    shutil.copytree(ROOT / "content" / game, folder)
    _edit(folder / file, old, new)
    with pytest.raises(ContentError, match="should be of type integer, not"):
        load_game(folder)
    assert not fast_valid({"game": {"title": "t", "players": [2.0, 4]}})
    assert [e.message for e in game_validator().iter_errors({"game": {"title": "t", "players": [2.0, 4]}})] \
        == ["2.0 is not of type 'integer'"]
