"""Round five, huge and tiny numbers that are finite: a layout's ``x: 1.0e+308`` or ``rotate: 1.0e+308`` (or
``{{ 10**300 }}``) passed ``check`` and the PDF writer met infinity once it scaled the number to points (a
traceback from ReportLab, or ``math domain error`` for the angle); a token of ``size: 1.0e-300`` or a die of
``die_size: 1.0e-300`` passed the schema (greater than 0) and divided by zero laying out the sheets, in check and
build alike. A layout number beyond ``limits.MAX_LAYOUT_NUMBER`` is PNP703 at its line; a piece or a die under
``limits.MIN_PIECE_MM`` is a ContentError at its line; check and build agree."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main

ROOT = Path(__file__).resolve().parents[1]
ARTWORK = ROOT / "content" / "demo-artwork"
GERMANY = ROOT / "content" / "ttr-germany"
DICE = ROOT / "content" / "ttr-dice"
TRAIN = "layouts/lantern-train.yaml"


def _edited(tmp_path: Path, base: Path, file: str, old: str, new: str) -> Path:
    game = tmp_path / "g"
    shutil.copytree(base, game)
    text = (game / file).read_text(encoding="utf-8")
    assert old in text
    (game / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return game


def _run(command: str, game: Path, tmp_path: Path):
    more = ["--out", str(tmp_path / "out")] if command == "build" else []
    result = CliRunner().invoke(main, [command, str(game), "--no-cache", *more])
    assert "Traceback" not in result.output and not isinstance(result.exception, (ArithmeticError, ValueError)), \
        result.output
    return result


@pytest.mark.parametrize("old, new, key, line", [
    ('w: "{{ W + 2*bleed }}"', "w: 1.0e+308", "w", 8),
    ("x: 7.5, y: 7.5", "x: 1.0e+308, y: 7.5", "x", 16),
    ("rotate: 180", "rotate: 1.0e+308", "rotate", 17),
    ("size: 22", 'size: "{{ 10**300 }}"', "size", 9)])
@pytest.mark.parametrize("command", ["check", "build"])
def test_a_layout_number_beyond_the_bound_is_an_error_at_its_line(tmp_path, command, old, new, key, line):
    result = _run(command, _edited(tmp_path, ARTWORK, TRAIN, old, new), tmp_path)
    assert result.exit_code == 1 and "PNP703" in result.output, result.output
    assert f"lantern-train.yaml:{line}:" in result.output and f"'{key}' is 1e+" in result.output
    assert "limits.MAX_LAYOUT_NUMBER" in result.output and not (tmp_path / "out" / "g").exists()


def test_a_layout_number_within_the_bound_still_builds(tmp_path):
    result = _run("build", _edited(tmp_path, ARTWORK, TRAIN, "rotate: 180", "rotate: 1.0e+6"), tmp_path)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("base, old, new, message", [
    (GERMANY, "size: 14", "size: 1.0e-300", "component 'passengers' is 1e-300 mm: a side under 5 mm"),
    (DICE, "dice: 5", "dice: 5\n    die_size: 1.0e-300", "die 'white-dice' die_size: 1e-300 mm is under 5 mm"),
    (DICE, "dice: 5", "dice: 5\n    net_size: 1.0e-300", "die 'white-dice' net_size: 1e-300 mm is under 5 mm")])
@pytest.mark.parametrize("command", ["check", "build"])
def test_a_piece_too_small_to_cut_out_is_an_error(tmp_path, command, base, old, new, message):
    result = _run(command, _edited(tmp_path, base, "components.yaml", old, new), tmp_path)
    assert result.exit_code == 2 and message in result.output and "components.yaml:" in result.output, result.output
