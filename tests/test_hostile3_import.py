"""Round three, ``pnpgen import`` of a map from anyone: what it writes must be a game pnpgen can read. A name with
U+0085 (NEL, a line break to YAML) wrote a game.yaml or map.yaml that did not parse; a stops file named with a
line break did the same through the map's name; a 5 MB rules text wrote a rules.md over MAX_FILE_BYTES."""
from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner

from generator.cli import main
from tests.test_mapio import MAP


def _import(tmp_path, *files):
    return CliRunner().invoke(main, ["import", *map(str, files), "--to", str(tmp_path / "game")])


@pytest.mark.parametrize("where, value", [
    (("name",), "Harbour\x85players: [1, 99]"),
    (("stops", 0, "name"), "West\x85port"),
    (("ticketSets", 0, "label"), "B\x9base"),
])
def test_a_name_with_a_c1_control_is_refused_before_anything_is_written(tmp_path, where, value):
    data = copy.deepcopy(MAP)
    target = data["payload"]
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    path = tmp_path / "map.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    result = _import(tmp_path, path)
    assert result.exit_code == 2 and "holds a control character" in result.output, result.output
    assert not (tmp_path / "game").exists()


def test_a_stops_file_named_with_a_line_break_is_refused(tmp_path):
    stops = tmp_path / "Harbour\nplayers: [1, 99].csv"
    stops.write_text("Name,X,Y\nA,10,10\nB,100,100\n", encoding="utf-8")
    (tmp_path / "r.csv").write_text("From,To,Length,Colour\nA,B,3,red\n", encoding="utf-8")
    result = _import(tmp_path, stops, tmp_path / "r.csv")
    assert result.exit_code == 2 and "the map's name (the stops file's name)" in result.output, result.output
    assert not (tmp_path / "game").exists()


def test_rules_text_longer_than_a_rule_sheet_may_be_is_refused(tmp_path):
    data = copy.deepcopy(MAP)
    data["payload"]["rules"] = "x" * 200_000
    path = tmp_path / "map.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = _import(tmp_path, path)
    assert result.exit_code == 2 and "MAX_RULES_MARKDOWN" in result.output, result.output
    assert not (tmp_path / "game").exists()
