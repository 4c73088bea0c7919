"""Issue 10: every error the loader raises reaches the designer as one message — exit 2, the file:line
that caused it, what is wrong and what to do, no traceback. One row per raise that no other test
triggered (``tools/uncovered_raises.py`` lists them), each a small mutation of tests/fixtures/mini
run through ``pnpgen check``."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.test_limits import assert_refused

G, D = "game.yaml", "decks.yaml"
OPTIONAL_W = (D, "    fields: {color: color}", "    fields: {color: color, w: TYPE?}")


def game_with(tmp_path, *edits, fixture: str = "mini"):
    """A copy of tests/fixtures/<fixture> (beside it, a copy of mini-addon) with each (file, old, new)
    applied: ``old`` None writes ``new`` as the whole file."""
    folder = tmp_path / fixture
    shutil.copytree(FIXTURES / fixture, folder)
    if fixture != "mini-addon":
        shutil.copytree(FIXTURES / "mini-addon", tmp_path / "mini-addon")
    for file, old, new in edits:
        path = folder / file
        if old is None:
            path.write_text(new, encoding="utf-8")
            continue
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{fixture}/{file} no longer contains {old!r}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def w_field(type_name: str, value: str):
    """The trains deck with an optional field ``w: <type>?``, its first card giving ``w: <value>``."""
    return [(D, "    fields: {color: color}", f"    fields: {{color: color, w: {type_name}?}}"),
            (D, "{color: red, count: 2}", f"{{color: red, count: 2, w: {value}}}")]


def route(extras: str):
    return [(G, "places:", f"routes:\n  - [Berlin, Hamburg, 2, red, {extras}]\nplaces:")]


CASES = {
    # files.py: the shape of a game folder and its files
    "not a mapping": ([(G, None, "- a\n- b\n")], "game.yaml:1", "a content file must be a mapping of sections",
                      "start each section at the left margin"),
    "no game section": ([(G, "game:\n  title: ミニゲーム\n  latin: Mini game\n  players: [2, 4]\n", "")], "game.yaml:2",
                        "game.yaml has no `game:` section", "add `game:` with at least `title:`"),
    "print in an include": ([(D, "decks:\n", "print:\n  card: {size: [44, 68]}\ndecks:\n")], "decks.yaml:1",
                            "`print:` belongs in game.yaml only", "move it to game.yaml"),
    "defined twice": ([(D, "decks:\n", "palette:\n  red: '#ff0000'\ndecks:\n")], "decks.yaml:2",
                      "'red' is defined twice in palette (first at", "rename or remove one of them"),
    # files.py: what include: may list (the schema's pattern, said in words rather than as the regular expression)
    "include a CSV": ([(G, "include: [decks.yaml]", "include: [decks.yaml, cards.csv]")], "game.yaml:6",
                      "include: lists 'cards.csv', but only YAML files (ending .yaml or .yml) can be included",
                      "a spreadsheet is read where its rows go, not included: cards: {from: cards.csv}"),
    "include from the disk's top": ([(G, "include: [decks.yaml]", "include:\n  - decks.yaml\n  - /etc/cards.yaml")],
                                    "game.yaml:8", "include: lists '/etc/cards.yaml', a path from the top of the disk",
                                    "name the file from the game folder"),
    "include .YAML": ([(G, "include: [decks.yaml]", "include: [decks.yaml, Cards.YAML]")], "game.yaml:6",
                      "include: lists 'Cards.YAML': the ending must be written .yaml or .yml (lower case)",
                      "rename the file, and the entry, with a lower-case ending"),
    # schema.py: what the JSON schema refuses
    "required key": ([(D, "    name: 列車カード\n", "")], "decks.yaml:2",
                     "decks.trains: 'name' is a required property", "add the missing key"),
    "palette colour": ([(G, '  ticket-back: "#2c5d9c"', "  ticket-back: '#2c5d9'")], "game.yaml:13",
                       "palette.ticket-back: a colour is '#rrggbb'", "six hex digits after #"),
    # yamlsource.py: keys YAML allows but content cannot name
    "list as a key": ([(D, "    name: 列車カード\n", "    name: 列車カード\n    ? [a, b]\n    : x\n")], "decks.yaml:4",
                      "a key must be a plain name, not ['a', 'b']", "write the key as a word or number"),
    "null as a key": ([(D, "    name: 列車カード\n", "    name: 列車カード\n    ~: x\n")], "decks.yaml:4",
                      "a key must be a plain name, not None", "quote it"),
    # values.py: attributes of places
    "place attribute": ([(G, "  Koeln: {name: ケルン,", "  Koeln: {name: ケルン, colour: red,")], "game.yaml:17",
                        "unknown attribute 'colour' for place 'Koeln'", "allowed: at, kind, area, passengers, note"),
    "place kind": ([(G, "  Koeln: {name: ケルン,", "  Koeln: {name: ケルン, kind: town,")], "game.yaml:17",
                   "unknown place kind 'town'", "use one of: city, country, attraction, free-city"),
    "place at": ([(G, "  Koeln: {name: ケルン,", "  Koeln: {name: ケルン, at: [1, true],")], "game.yaml:17",
                 "place 'Koeln' at should be two numbers [x, y] in mm, not [1, True]", "write [x, y]"),
    "place note": ([(G, "  Koeln: {name: ケルン,", "  Koeln: {name: ケルン, note: [a],")], "game.yaml:17",
                   "place 'Koeln' note should be text, not ['a']", "write plain text"),
    # values.py: field types and card values
    "field type": ([(D, "    fields: {color: color}", "    fields: {color: colour}")], "decks.yaml:9",
                   "unknown field type 'colour' for field 'color' of deck 'trains'", "did you mean 'color'?"),
    "list field": ([(D, "    fields: {color: color}", "    fields: {color: list of color}")], "decks.yaml:11",
                   "deck 'trains' card 1 field 'color' should be a list, not 'red'", "write it as [a, b, c]"),
    "number field": (w_field("number", "wide"), "decks.yaml:11",
                     "deck 'trains' card 1 field 'w' should be a number, not 'wide'", "write a number such as 7.5"),
    "bool field": (w_field("bool", "3"), "decks.yaml:11",
                   "deck 'trains' card 1 field 'w' should be true or false, not 3", "write true or false"),
    "text field": (w_field("text", "{a: 1}"), "decks.yaml:11",
                   "deck 'trains' card 1 field 'w' should be text, not {'a': 1}", "write plain text"),
    "pair field": (w_field("pair", "3"), "decks.yaml:11",
                   "deck 'trains' card 1 field 'w' should be two numbers [x, y] in mm, not 3", "write [x, y]"),
    # values.py: route extras
    "bends": (route("{bends: [1, 2]}"), "game.yaml:15",
              "bends of Berlin – Hamburg should be a list of [x, y] points in mm", "{bends: [[120, 340]]}"),
    "curve": (route("{curve: big}"), "game.yaml:15",
              "curve of Berlin – Hamburg should be a number of mm, not 'big'", "{curve: 25}"),
    "tunnel": (route("{tunnel: 1}"), "game.yaml:15", "tunnel should be true or false, not 1", "{tunnel: true}"),
    # game.py: decks and their cards
    "column": ([(D, "    columns: [from, to, points]", "    columns: [from, too, points]")], "decks.yaml:22",
               "column 'too' is not a field of deck 'tickets'", "did you mean 'to'?"),
    "count 0": ([(D, "{color: red, count: 2}", "{color: red, count: 0}")], "decks.yaml:11",
                "count should be a whole number ≥ 1, not 0", "write e.g. count: 12"),
    "card field": ([(D, "{color: red, count: 2}", "{color: red, count: 2, colour: red}")], "decks.yaml:11",
                   "unknown field 'colour' on a card of deck 'trains'", "did you mean 'color'?"),
    "missing field": ([(D, "{color: red, count: 2}", "{count: 2}")], "decks.yaml:11",
                      "card 1 of deck 'trains' has no 'color'", "declare the field optional as 'color?'"),
    "follows value": ([(D, "    layout: ttr-train\n", "    layout: ttr-train\n    follows: {table: t, key: color, value: colr}\n"),
                       (G, "places:", "tables:\n  t: {1: 1}\nplaces:")], "decks.yaml:7",
                      "follows: 'colr' is not a field of deck 'trains'", "did you mean 'color'?"),
    # board.py
    "legend table": ([(G, "places:", "boards:\n  b: {name: B, size: [100, 100], legend: t}\ntables:\n  t: {a: 1}\nplaces:")],
                     "game.yaml:15", "table 't' is not a route scoring table (whole numbers length: points)",
                     "write it as {1: 1, 2: 2, 3: 4, …}"),
    "line board": ([(G, "places:", "boards:\n  b: {name: B, size: [100, 100], kind: line}\nplaces:")], "game.yaml:15",
                   "line board 'b' has no stations to draw", "declare the line's stations under `stations:`"),
    # compose.py
    "add-on with add-ons": ([(G, "  players: [2, 4]\n", "  players: [2, 4]\n  with: [../mini-addon]\n"),
                             ("../mini-addon/game.yaml", "  latin: Mini add-on\n", "  latin: Mini add-on\n  with: [../mini]\n")],
                            "mini-addon/game.yaml:5", "an add-on cannot itself compose add-ons",
                            "name every add-on in the base game's with:"),
}


@pytest.mark.parametrize("edits,where,message,hint", CASES.values(), ids=CASES.keys())
def test_a_load_error_names_its_line_what_and_what_to_do(tmp_path, run, edits, where, message, hint):
    game = game_with(tmp_path, *edits)
    assert_refused(run("check", game), 2, where, "cannot read the content: " + message, "hint:", hint)


@pytest.mark.parametrize("value,message", [
    ("2024-13-45", "'2024-13-45' cannot be read as a timestamp (month must be in 1..12)"),
    ("2024-02-30 10:00:00", "'2024-02-30 10:00:00' cannot be read as a timestamp (day is out of range for month)"),
    ("!!int x", "'x' cannot be read as an int (invalid literal for int() with base 10: 'x')"),
    ("!!float x", "'x' cannot be read as a float (could not convert string to float: 'x')"),
])
def test_a_value_yaml_cannot_construct_is_refused_at_its_line(tmp_path, run, value, message):
    """Regression: YAML reads 2024-13-45 as a date, and PyYAML's constructor raised a ValueError (a
    traceback, exit 1) rather than a YAMLError."""
    game = game_with(tmp_path, (D, "    name: 列車カード\n", f"    name: {value}\n"))
    assert_refused(run("check", game), 2, "decks.yaml:3", "cannot read the content: malformed YAML: " + message,
                   "hint: quote it to keep it as text")


def test_a_rules_file_that_cannot_be_read_is_named(tmp_path, run, monkeypatch):
    """rules.md unreadable (chmod 000; simulated, as root reads anything): an OSError that is not
    'cannot write the output', which the CLI would otherwise say."""
    real_read_bytes = Path.read_bytes

    def read_bytes(path):
        if path.name == "rules.md":
            raise PermissionError(13, "Permission denied", str(path))
        return real_read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    game = game_with(tmp_path, fixture="mini-addon")
    assert_refused(run("check", game), 2, "mini-addon/rules.md", "cannot read the rules file: Permission denied",
                   "hint: check that the file is readable")


def test_a_content_file_gone_before_it_is_read_is_named(tmp_path):
    """Every caller checks the file exists first: 'file not found' is for a file removed in between (API)."""
    from generator.errors import ContentError
    from generator.yamlsource import load_yaml
    with pytest.raises(ContentError) as caught:
        load_yaml(tmp_path / "gone.yaml")
    assert str(caught.value).startswith(f"{tmp_path / 'gone.yaml'}: error: file not found")
    assert "game folders hold game.yaml" in caught.value.hint


def test_an_empty_rules_file_prints_no_rule_sheet(tmp_path, run):
    """Regression: an empty rules.md laid out no page, and the print-and-play file took the last page of
    that empty PDF (IndexError traceback in check and build)."""
    game = game_with(tmp_path, ("rules.md", None, ""))
    checked = run("check", game)
    assert checked.exit_code == 0 and "Traceback" not in checked.output, checked.output
    built = run("build", game, "--out", tmp_path / "out")
    assert built.exit_code == 0, built.output
    out = tmp_path / "out" / "mini"
    assert not (out / "mini-rules.pdf").exists()
    assert (out / "mini-print-and-play.pdf").is_file()


@pytest.mark.parametrize("content,message,hint", [
    (None, "no game folder named, and no content/ folder here to take the games from",
     "name a game folder (the folder that holds game.yaml), e.g. pnpgen build path/to/my-game;"),
    ([], "content/ holds no game folder (a folder with game.yaml)", "add a game folder"),
])
def test_no_game_named_and_none_under_content(tmp_path, monkeypatch, content, message, hint):
    from click.testing import CliRunner

    from generator.cli import main
    if content is not None:
        (tmp_path / "content" / "notes").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    for command in ("check", "build", "stats", "list"):
        result = CliRunner().invoke(main, [command], catch_exceptions=False)
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output
        assert f"error: {message}" in result.output and f"hint: {hint}" in result.output


def test_a_folder_without_game_yaml_is_named(tmp_path, run):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "decks.yaml").write_text("decks: {}\n", encoding="utf-8")
    for command in ("check", "build"):
        assert_refused(run(command, tmp_path / "notes", "--out", tmp_path / "out") if command == "build"
                       else run(command, tmp_path / "notes"), 2, "notes", "no game.yaml in this folder",
                       "hint: every game folder needs game.yaml with a `game:` section")
    assert not (tmp_path / "out").exists()
