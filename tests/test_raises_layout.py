"""Issue 10: mistakes in a game's layouts, its rules.md and what they lay out, that no other test made —
each through ``pnpgen check`` (or ``build``) on a copy of tests/fixtures/mini: the exit code (2 cannot
be read, 1 read but cannot be laid out), the file:line, what is wrong and what to do, no traceback."""
from __future__ import annotations

import os

import pytest

from generator.check import ChecksFailed
from generator.errors import OutputError
from generator.load.game import load_game
from generator.output_folder import output_lock
from generator.pipeline import build_game
from tests.conftest import copy_fixture
from tests.test_components import COMPONENTS
from tests.test_limits import assert_refused

RECT = "  - rect: {x: 0, y: 0, w: 10, h: 10}\n"


def _rect_x(expression: str) -> str:
    return f"elements:\n  - rect: {{x: \"{expression}\", y: 0, w: 10, h: 10}}\n"


# A game's own layouts/ttr-train.yaml (the trains deck's layout): read when the deck is laid out.
LAYOUT_FILE = {
    "not a mapping": ("- a\n", 1, "a layout needs `elements:`, a list of elements", "see templates/layouts/"),
    "vars a list": ("vars: [a]\nelements:\n" + RECT, 1, "`vars:` of a layout is a mapping of name: expression",
                    "vars: {scale:"),
    "var not a name": ("vars: {my-var: 2}\nelements:\n" + RECT, 1, "layout var 'my-var' is not a name",
                       "use letters, digits and _"),
    "no element kind": ("elements:\n  - {rectangle: {x: 0}}\n", 2, "each element is one of: rect, circle, line",
                        "- rect: {x: 0, y: 0, w: 10, h: 10}"),
    "attributes not a mapping": ("elements:\n  - rect: 3\n", 2, "rect needs a mapping of attributes",
                                 "write e.g. {x: 0, y: 0}"),
    "unknown attribute": ("elements:\n  - rect: {x: 0, y: 0, w: 10, h: 10, colr: red}\n", 2,
                          "unknown attribute 'colr' of rect", "allowed: x, y, w, h, fill"),
    "name not a word": ("elements:\n  - {name: 3, rect: {x: 0, y: 0, w: 10, h: 10}}\n", 2,
                        "element name 3 is not a word", "write e.g. `name: title`"),
    "before and after": ("extends: ttr-back\nelements:\n  - {before: disc, after: disc, rect: {x: 0, y: 0, w: 10, h: 10}}\n",
                         3, "an element is placed before: one element or after: another, not both", "keep one of them"),
}


@pytest.mark.parametrize("text,line,message,hint", LAYOUT_FILE.values(), ids=LAYOUT_FILE.keys())
def test_a_layout_file_mistake_names_its_line(mini, run, text, line, message, hint):
    (mini / "layouts").mkdir()
    (mini / "layouts" / "ttr-train.yaml").write_text(text, encoding="utf-8")
    assert_refused(run("check", mini), 2, f"layouts/ttr-train.yaml:{line}", "cannot read the content: " + message,
                   "hint:", hint)


# Expressions: evaluated per card when the face is drawn, so a finding (PNP703) of the layout's line.
EXPRESSIONS = {
    "not Jinja": ("{{ 1 + }}", "is not valid Jinja: unexpected 'end of print statement'",
                  "fix the expression in the layout"),
    "range of a fraction": ("{{ range(1.5) | list }}", "failed for trains card 1: range() takes whole numbers, not 1.5",
                            "give the card the value it reads"),
    "a sum too large": ("{{ 2 ** 4095 + 2 ** 4095 }}",
                        "failed for trains card 1: '+' gives a number of 4,097 bits, more than 4,096 (MAX_JINJA_INT_BITS)",
                        "give the card the value it reads"),
}


@pytest.mark.parametrize("expression,message,hint", EXPRESSIONS.values(), ids=EXPRESSIONS.keys())
def test_a_layout_expression_that_fails_is_a_finding_at_its_line(mini, run, expression, message, hint):
    (mini / "layouts").mkdir()
    (mini / "layouts" / "ttr-train.yaml").write_text(_rect_x(expression), encoding="utf-8")
    assert_refused(run("check", mini), 1, "layouts/ttr-train.yaml:2: error PNP703", message, "hint:", hint)


# rules.md: read (exit 2) or laid out on the rule sheet (PNP705, exit 1).
LONG_CELL = "長い説明の文です。" * 300
RULES = {
    "division by zero": ("# ルール\n\n{{ 1 / 0 }}\n", 2, "rules.md:3",
                         "rules template: ZeroDivisionError: division by zero", "fix the expression on this line"),
    "die_faces of a token": ("# ルール\n\n{{ die_faces('chips') }}\n", 2, "rules.md:3",
                             "component 'chips' is a token, not a die", "dice: dice"),
    "stacks of a token": ("# ルール\n\n{{ stacks('chips') }}\n", 2, "rules.md:3",
                          "component 'chips' is a token, not a tile", "tiles: none"),
    "picture among words": ("# ルール\n\nsee ![x](component:trains) here\n", 2, "rules.md:3",
                            "a picture stands alone in its paragraph", "on its own line with blank lines around it"),
    "picture in a heading": ("# ルール ![x](component:trains)\n", 2, "rules.md:1",
                             "a picture stands alone in its paragraph", "on its own line with blank lines around it"),
    "picture of a sheet": ("# ルール\n\n{{ picture('aid') }}\n", 1, "rules.md:3: error PNP705",
                           "no picture for component 'aid'", "picture() draws a deck, tokens, tiles or dice: trains"),
    "table row taller than a column": (f"# ルール\n\n| a | b |\n|---|---|\n| {LONG_CELL} | x |\n", 1,
                                       "rules.md:3: error PNP705", "a block 427 mm tall does not fit a 254 mm column",
                                       "split it (a shorter table or picture)"),
}


@pytest.mark.parametrize("text,code,where,message,hint", RULES.values(), ids=RULES.keys())
def test_a_rules_mistake_names_its_line(mini, run, text, code, where, message, hint):
    game_yaml = mini / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(
        "include: [decks.yaml]", "include: [decks.yaml, components.yaml]"), encoding="utf-8")
    (mini / "components.yaml").write_text(COMPONENTS, encoding="utf-8")
    (mini / "rules.md").write_text(text, encoding="utf-8")
    words = ("cannot read the content: " + message,) if code == 2 else (message,)
    assert_refused(run("check", mini), code, where, *words, "hint:", hint)


def test_card_slots_wider_than_a_line_board_are_a_finding_at_the_board(tmp_path, run):
    game = copy_fixture(tmp_path, "check-line", "game.yaml", "decks:\n",
                        "boards:\n  line:\n    name: 線\n    kind: line\n    size: [200, 150]\n"
                        "    slots: [{name: 置き場, count: 9}]\ndecks:\n")
    assert_refused(run("check", game), 1, "game.yaml:31: error PNP705",
                   "the card slots (544 × 94 mm) do not fit on board 'line'", "hint:",
                   "make the board larger (size:) or use fewer slots")


# The output folder: refused by the build (exit 1), or only reachable through the Python API.

def test_a_lock_file_that_is_a_symbolic_link_is_refused(mini, run, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / ".mini.lock").symlink_to(tmp_path / "elsewhere")
    result = assert_refused(run("build", mini, "--out", out), 1, ".mini.lock",
                            "(pnpgen's lock for", "is a symbolic link", "hint: remove it; pnpgen makes its lock file itself")
    assert not (tmp_path / "elsewhere").exists() and not (out / "mini").exists(), result


def test_a_lock_file_replaced_on_every_attempt_is_given_up(tmp_path, monkeypatch):
    """Each attempt finds the file it locked replaced (another build's lock, gone and made again): a race
    that cannot be set up from the command line, so the API is used."""
    monkeypatch.setattr(os.path, "samestat", lambda a, b: False)
    with pytest.raises(OutputError) as caught, output_lock(tmp_path, "mini", tmp_path / "mini"):
        pass
    assert caught.value.message.startswith("could not lock") and ".mini.lock" in caught.value.message
    assert caught.value.hint == "try again"


def test_build_game_refuses_a_game_whose_checks_fail(tmp_path):
    """The CLI runs the checks itself first; build_game (the Python API) refuses on its own."""
    game = load_game(copy_fixture(tmp_path, "mini", "decks.yaml", "    expected: 11\n", "    expected: 12\n"))
    with pytest.raises(ChecksFailed) as caught:
        build_game(game, tmp_path / "out")
    assert str(caught.value.source).endswith("decks.yaml:17")  # expected:
    assert caught.value.message == ("mini: 1 check error (first: PNP101 deck 'tickets' has 11 cards but declares "
                                    "expected: 12)")
    assert "--force" in caught.value.hint
    assert not (tmp_path / "out").exists()
