"""Bad input: one clear message (file:line, what, what to do), exit 2, no traceback, output untouched."""
from __future__ import annotations

import subprocess
import sys

import pytest


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture no longer contains {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


CASES = [
    # (file, old, new, expected line, words in the message, words in the hint)
    ("decks.yaml", "    cards:\n      - {color: red, count: 2}", "    cards:\n      - {color: red, count: 2\n",
     None, "malformed YAML", "indentation"),
    ("decks.yaml", "    latin: Tickets\n", "    latin: Tickets\n    latn: Tickets\n", 17, "unknown key 'latn'", "did you mean 'latin'"),
    ("decks.yaml", "    expected: 11\n", "    expected: 11\n    expected: 12\n", 18, "duplicate key 'expected'", "remove or rename"),
    ("decks.yaml", "    expected: 5\n", "    expected: five\n", 5, "should be of type integer", "type"),
    ("decks.yaml", "      - [Berlin, Koeln, 12]\n", "      - [Berlin, Kooln, 12]\n", 25, "unknown place 'Kooln'", "did you mean 'Koeln'"),
    ("decks.yaml", "      - {color: blue, count: 2}", "      - {color: bleu, count: 2}", 12, "unknown color 'bleu'", "did you mean 'blue'"),
    ("decks.yaml", "      - [Hamburg, Koeln, 8]\n", "      - [Hamburg, Koeln, eight]\n", 26, "should be a whole number", "number"),
    ("game.yaml", "include: [decks.yaml]", "include: [deks.yaml]", 6, "included file 'deks.yaml' does not exist", "did you mean 'decks.yaml'"),
    ("game.yaml", "include: [decks.yaml]", "include: [decks.yaml, ../../etc/x.yaml]", 6, "outside the game folder", "inside its own folder"),
    ("decks.yaml", "    layout: ttr-ticket\n", "    layout: ttr-tiket\n", 18, "no layout named 'ttr-tiket'", "did you mean 'ttr-ticket'"),
]


@pytest.mark.parametrize("file,old,new,line,message,hint", CASES, ids=[c[3] and f"{c[0]}:{c[3]}" or c[4] for c in CASES])
def test_bad_content_gives_one_clear_error(mini, run, tmp_path, file, old, new, line, message, hint):
    out = tmp_path / "out"
    assert run("build", mini, "--out", out).exit_code == 0
    before = {p: p.read_bytes() for p in (out / "mini").rglob("*") if p.is_file()}
    _edit(mini / file, old, new)
    result = run("build", mini, "--out", out)
    assert result.exit_code == 2, result.output
    err = result.stderr
    assert "Traceback" not in err
    assert message in err
    assert hint in err
    where = f"{file}:{line}" if line else f"{file}:"
    assert where in err
    after = {p: p.read_bytes() for p in (out / "mini").rglob("*") if p.is_file()}
    assert after == before, "a failed build must leave the previous output untouched"
    assert [p.name for p in out.iterdir()] == ["mini"], "no staging folder may be left behind"


def test_malformed_yaml_points_at_the_line(mini, run):
    _edit(mini / "decks.yaml", "    expected: 5\n", "    expected: [5\n")
    result = run("build", mini, "--out", mini / "out")
    assert result.exit_code == 2
    assert "decks.yaml:" in result.stderr and "malformed YAML" in result.stderr


def test_unsafe_yaml_tag_is_refused_not_executed(mini, run, tmp_path):
    marker = tmp_path / "pwned"
    _edit(mini / "decks.yaml", "    expected: 5\n",
          f"    expected: !!python/object/apply:os.system ['touch {marker}']\n")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert not marker.exists()
    assert "decks.yaml:5" in result.stderr


def test_missing_game_folder(run, tmp_path):
    result = run("build", tmp_path / "nope")
    assert result.exit_code == 2
    assert "no such game folder" in result.stderr


def test_count_mismatch_refuses_and_names_the_deck(mini, run, tmp_path):
    out = tmp_path / "out"
    _edit(mini / "decks.yaml", "    expected: 11\n", "    expected: 12\n")
    result = run("build", mini, "--out", out)
    assert result.exit_code == 1
    assert "deck 'tickets' has 11 cards but declares expected: 12" in result.stderr
    assert "decks.yaml:" in result.stderr
    assert not (out / "mini").exists()


def test_text_that_does_not_fit_names_card_and_field(mini, run, tmp_path):
    _edit(mini / "game.yaml", "Koeln: {name: ケルン,", "Koeln: {name: ケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルンケルン,")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "tickets card 2" in result.stderr and "does not fit its box" in result.stderr
    assert "ttr-ticket.yaml:" in result.stderr  # the layout line of the field


def test_missing_glyph_is_an_error(mini, run, tmp_path):
    _edit(mini / "game.yaml", "Koeln: {name: ケルン,", "Koeln: {name: ケルン♞,")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "no glyph" in result.stderr and "♞" in result.stderr


def test_real_command_prints_no_traceback(mini, tmp_path):
    """Through the installed entry point, as a user runs it."""
    (mini / "decks.yaml").write_text("decks: [\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "generator.cli", "build", str(mini), "--out", str(tmp_path)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "decks.yaml:" in proc.stderr


def test_unwritable_output_is_a_message_not_a_traceback(mini, run, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = run("build", mini, "--out", blocker / "sub")
    assert result.exit_code == 1  # the content is fine: an output folder problem (OutputError), not exit 2
    assert "cannot write the output" in result.stderr


@pytest.mark.parametrize("text_element,message", [
    ("{x: 3, y: 3, w: 30, h: 8, text: '{{ card.points }}', align: middel}", "align is left, center or right"),
    ("{x: 3, y: 3, w: 30, h: 8, text: '{{ card.pionts }}'}", "pionts"),
])
def test_mistake_in_a_game_layout_override_names_its_line(mini, run, tmp_path, text_element, message):
    """A game may override a layout; mistakes in it point at its own file and line."""
    (mini / "layouts").mkdir()
    (mini / "layouts" / "ttr-ticket.yaml").write_text(f"elements:\n  - text: {text_element}\n", encoding="utf-8")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "layouts/ttr-ticket.yaml:2" in result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("row,message,hint", [
    ("[Berlin, Hamburg, -2, red]", "route length should be at least 1 space, not -2", "number of train spaces"),
    ("[Berlin, Hamburg, 0, red]", "route length should be at least 1 space, not 0", "number of train spaces"),
    ("[Berlin, Hamburg, 2, []]", "a route needs a colour per track", "[gray]"),
    ("[Berlin, Hamburg, 2, red, tunnel]", "the 5th item of a route row is a mapping of extras, not 'tunnel'",
     "{tunnel: true}"),
])
def test_a_route_row_that_cannot_be_a_route_is_refused_at_its_line(mini, run, row, message, hint):
    """A negative length used to reach networkx (a traceback); a stray 5th item was silently dropped."""
    with (mini / "game.yaml").open("a", encoding="utf-8") as f:
        f.write(f"routes:\n  - {row}\n")
    result = run("check", mini)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "game.yaml:19" in result.output and message in result.output and hint in result.output


def test_a_character_yaml_refuses_is_reported_at_its_line(mini, run):
    """PyYAML reports it by position only (ReaderError): the message still names the line, and what to do."""
    _edit(mini / "decks.yaml", "    latin: Tickets\n", "    latin: Tick\x07ets\n")
    result = run("check", mini)
    assert result.exit_code == 2
    assert "decks.yaml:16:" in result.output and "character U+0007 (not printable)" in result.output
    assert "hint: delete it" in result.output


def test_a_place_whose_key_is_a_number_is_found_by_it(mini):
    """YAML reads `7:` as a number; names are looked up as text, so it used to be 'unknown place 7, did you mean 7?'."""
    from generator.load.game import load_game
    _edit(mini / "game.yaml", "  Koeln: {name: ケルン,", "  7: {name: ケルン,")
    (mini / "decks.yaml").write_text((mini / "decks.yaml").read_text(encoding="utf-8").replace("Koeln", "7"),
                                     encoding="utf-8")
    game = load_game(mini)
    assert list(game.collections["place"]) == ["Berlin", "Hamburg", "7"]
    assert game.decks["tickets"].cards[1]["to"] is game.collections["place"]["7"]


@pytest.mark.parametrize("old,new,line,message,hint", [
    ("include: [decks.yaml]", "include: [decks.yaml, decks.yaml]", 6, "include: lists 'decks.yaml' twice",
     "list each file once"),
    ("include: [decks.yaml]", "include: [decks.yaml, game.yaml]", 6, "include: lists game.yaml itself",
     "game.yaml is always read"),
    ("  players: [2, 4]", "  players: [4, 2]", 5, "players: [4, 2] has the fewest above the most", "[2, 4]"),
])
def test_game_yaml_mistakes_are_named_as_such(mini, run, old, new, line, message, hint):
    """Not as their consequences ('trains' defined twice at its own line; a 4-2 player game checked as such)."""
    _edit(mini / "game.yaml", old, new)
    result = run("check", mini)
    assert result.exit_code == 2, result.output
    assert f"game.yaml:{line}:" in result.output and message in result.output and hint in result.output


def test_a_route_extra_is_checked_even_when_no_board_draws_the_route(mini, run):
    """The mini game has no board: a misspelt extra used to be dropped without a word."""
    with (mini / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("routes:\n  - [Berlin, Hamburg, 2, red, {tunell: true}]\n")
    result = run("check", mini)
    assert result.exit_code == 2
    assert "game.yaml:19: cannot read the content: unknown route extra 'tunell' (Berlin – Hamburg)" in result.output
    assert "did you mean 'tunnel'" in result.output


def test_an_empty_table_is_refused_at_its_line(run, tmp_path):
    """Found by tests/test_fuzz.py: an empty table that a score sheet shows divided by its zero columns
    (ZeroDivisionError in sheet._table); a table needs at least one entry."""
    import shutil
    from pathlib import Path

    game = tmp_path / "thurn-and-taxis"
    shutil.copytree(Path(__file__).resolve().parents[1] / "content" / "thurn-and-taxis", game)
    _edit(game / "tables.yaml", "carriage_points: {3: 2, 4: 3, 5: 5, 6: 7, 7: 10}", "carriage_points: {}")
    for command in (["check", game], ["build", game, "--out", tmp_path / "out", "--force"]):
        result = run(*command)
        assert result.exit_code == 2, result.output
        assert "tables.yaml:3" in result.stderr and "tables.carriage_points is empty" in result.stderr
        assert "at least one entry" in result.stderr
