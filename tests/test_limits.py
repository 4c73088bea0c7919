"""Issue 9: a hostile game folder never hangs or crashes pnpgen — each limit of generator/limits.py
stops it with a clear error at the line that asked for too much (exit 2 unreadable, 1 inconsistent).

Cases that could crash the interpreter (deep nesting) or hang it run in a subprocess with a
generous timeout, so a regression fails instead of blocking the suite; the rest run in-process.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from generator import limits
from tests.conftest import ROOT, copy_fixture

TIMEOUT = 30  # a guard against hangs, not a benchmark: each case takes well under a second


def pnpgen(*args) -> subprocess.CompletedProcess:
    """``pnpgen ARGS`` as a fresh process from the project root (a crash or hang cannot take pytest with it)."""
    return subprocess.run([sys.executable, "-m", "generator.cli", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=TIMEOUT)


def assert_refused(result, code: int, where: str, *words: str) -> str:
    """Exit ``code``, the error at ``where`` (file:line), each of ``words`` in the message, no traceback."""
    if isinstance(result, subprocess.CompletedProcess):
        output, exit_code = result.stdout + result.stderr, result.returncode
    else:
        output, exit_code = result.output, result.exit_code
    assert exit_code == code, output
    assert "Traceback" not in output, output
    flat = " ".join(output.split())   # rich wraps long paths
    assert where in flat, output
    for word in words:
        assert word in flat, output
    return output


# --------------------------------------------------------------------------- YAML

BOMB = "".join(f"{name}: &{name} [" + ", ".join([f"*{prev}" if prev else "x"] * 9) + "]\n"
               for prev, name in zip(["", *"abcdefgh"], "abcdefghi"))


def test_a_billion_laughs_bomb_as_a_deck_name_stops_at_the_alias_that_overflows(tmp_path, run):
    game = copy_fixture(tmp_path, "mini", "decks.yaml", "    name: 列車カード", "    name: *i")
    (game / "decks.yaml").write_text(BOMB + (game / "decks.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    # 9**6 = 531,441 values at f's aliases (line 6), the first level over MAX_YAML_NODES
    assert 9 ** 5 < limits.MAX_YAML_NODES < 9 ** 6
    assert_refused(run("check", game), 2, "decks.yaml:6", "MAX_YAML_NODES", "alias *e")


NESTINGS = {"flow": (lambda n: "[" * n + "]" * n, 3), "flow mapping": (lambda n: "{a: " * n + "}" * n, 3),
            "block": (lambda n: "\n      " + "- " * n + "x", 4)}


@pytest.mark.parametrize("style", NESTINGS)
@pytest.mark.parametrize("levels", [1_000, 100_000])
def test_nesting_deeper_than_the_limit_is_refused_before_it_is_built(tmp_path, run, levels, style):
    """1,000 levels gave a RecursionError traceback, 100,000 a crash (run apart, in case it comes back)."""
    value, line = NESTINGS[style]
    game = copy_fixture(tmp_path, "mini", "decks.yaml", "    name: 列車カード", "    name: " + value(levels))
    result = pnpgen("check", game) if levels > 10_000 else run("check", game)
    assert_refused(result, 2, f"decks.yaml:{line}", "nested more than 64 levels", "MAX_YAML_DEPTH")


def test_block_mappings_nested_line_by_line_stop_at_the_line_of_the_level_too_many(tmp_path, run):
    nested = "".join("  " * (3 + i) + "a:\n" for i in range(1_000)) + "  " * 1_003 + "x\n"
    game = copy_fixture(tmp_path, "mini", "decks.yaml", "    name: 列車カード\n", "    name: 列車カード\n    vars2:\n" + nested)
    # the file (line 1), decks (2), trains (3), vars2 (line 5: level 4), so level 65 opens on line 5 + 61
    assert_refused(run("check", game), 2, "decks.yaml:66", "MAX_YAML_DEPTH")


def test_a_file_larger_than_the_limit_is_refused_before_it_is_read(tmp_path, run):
    game = copy_fixture(tmp_path, "mini", "decks.yaml", "decks:\n", "# " + "x" * limits.MAX_FILE_BYTES + "\ndecks:\n")
    assert_refused(run("check", game), 2, "decks.yaml", "MAX_FILE_BYTES", "bytes")


def test_a_byte_that_is_not_utf8_is_named_by_line_and_column(tmp_path, run):
    game = copy_fixture(tmp_path, "mini", "decks.yaml", "decks:", "decks:")
    path = game / "decks.yaml"
    lines = path.read_bytes().split(b"\n")
    lines[2] = b"    \xff" + lines[2][4:]
    path.write_bytes(b"\n".join(lines))
    assert_refused(run("check", game), 2, "decks.yaml:3", "not UTF-8", "0xFF at column 5")


def test_rules_and_templates_follow_the_same_file_rules(tmp_path, run):
    game = copy_fixture(tmp_path, "mini", "game.yaml", "game:", "game:")
    (game / "rules.md").write_bytes(b"# R\n\nab\xe9x\n")   # Latin-1, not UTF-8
    assert_refused(run("check", game), 2, "rules.md:3", "not UTF-8", "column 3")
    (game / "rules.md").write_text("# R\n\n{% include 'big.md' %}\n", encoding="utf-8")
    (game / "big.md").write_text("x" * (limits.MAX_FILE_BYTES + 1), encoding="utf-8")
    assert_refused(run("check", game), 2, "rules.md:3", "big.md", "MAX_FILE_BYTES")  # at the line that includes it


# --------------------------------------------------------------------------- counts and sizes

def test_a_million_card_deck_stops_at_the_count_that_tips_it(tmp_path, run):
    game = copy_fixture(tmp_path, "mini", "decks.yaml", "{color: red, count: 2}", "{color: red, count: 1000000}")
    assert_refused(run("check", game), 2, "decks.yaml:11", "1,000,000 cards", "MAX_CARDS_PER_DECK")


@pytest.mark.parametrize("component, line", [
    ("{kind: token, name: T, expected: 1, shape: circle, size: 14, colors: [red, blue], count_each: 15000}", 15),
    ("{kind: sheet, name: S, expected: 1, copies: 1000000, blocks: [{list: {items: [{title: a, text: b}]}}]}", 15),
])
def test_a_component_of_too_many_pieces_is_refused(tmp_path, run, component, line):
    game = copy_fixture(tmp_path, "mini", "game.yaml", "places:", f"components:\n  big: {component}\nplaces:")
    assert_refused(run("check", game), 2, f"game.yaml:{line}", "MAX_PIECES_PER_COMPONENT")


def test_a_die_face_count_of_a_billion_is_refused_before_it_is_listed(tmp_path, run):
    die = "{kind: die, name: D, expected: 1, dice: 1, color: red, faces: {track: 1000000000}}"
    game = copy_fixture(tmp_path, "mini", "game.yaml", "places:", f"components:\n  dice: {die}\nplaces:")
    assert_refused(run("check", game), 2, "game.yaml:15", "1,000,000,000 faces, a die has 6")


def test_a_route_of_a_million_spaces_is_refused_at_its_row(tmp_path, run):
    game = copy_fixture(tmp_path, "mini", "game.yaml", "places:", "routes:\n  - [Berlin, Hamburg, 1000000, red]\nplaces:")
    assert_refused(run("check", game), 2, "game.yaml:15", "route length 1,000,000", "MAX_ROUTE_LENGTH")


BOARD = """boards:
  b:
    name: B
    size: {size}
{extra}places:"""


@pytest.mark.parametrize("size, extra, line, words", [
    ("[1000000, 500]", "", 17, ("[1000000, 500] has a side over 2000 mm", "MAX_BOARD_MM")),
    ("[.nan, 500]", "", 17, ("boards.b.size.0 is nan, not a number", "give a finite number")),
    ("[.inf, 500]", "", 17, ("boards.b.size.0 is inf, not a number", "give a finite number")),
    ("[500, 500]", "    routes: [[Berlin, Hamburg, 1000000, red]]\n", 18, ("route length 1,000,000", "MAX_ROUTE_LENGTH")),
])
def test_a_board_too_large_or_not_a_number_or_with_an_endless_route_is_refused(tmp_path, run, size, extra, line, words):
    game = copy_fixture(tmp_path, "mini", "game.yaml", "places:", BOARD.format(size=size, extra=extra))
    assert_refused(run("check", game), 2, f"game.yaml:{line}", *words)


# --------------------------------------------------------------------------- layouts and Jinja

def _layout(game, text: str) -> None:
    (game / "layouts").mkdir(exist_ok=True)
    (game / "layouts" / "ttr-train.yaml").write_text(text, encoding="utf-8")


def test_nested_repeats_stop_once_a_face_would_draw_too_much(tmp_path, run):
    game = copy_fixture(tmp_path, "mini", "game.yaml", "game:", "game:")
    _layout(game, "elements:\n"
                  "  - repeat: 10000\n"
                  "    group:\n"
                  "      elements:\n"
                  "        - repeat: 10000\n"
                  "          text: {x: 0, y: 0, w: 40, h: 5, text: x}\n")
    assert_refused(run("build", game, "--out", tmp_path / "out"), 1, "ttr-train.yaml:5", "MAX_FACE_PRIMITIVES")


JINJA = [  # (expression, what the message says)
    ("{{ 9**(9**9) }}", "MAX_JINJA_INT_BITS"),
    ("{{ 2**4000 * 2**4000 }}", "MAX_JINJA_INT_BITS"),
    ("{{ 'a' * 10**9 }}", "MAX_JINJA_SEQUENCE"),
    ("{{ [1, 2] * 10**9 }}", "MAX_JINJA_SEQUENCE"),
    ("{{ 'a'.center(10**9) }}", "MAX_JINJA_SEQUENCE"),
    ("{{ 'a'.zfill(10**9) }}", "MAX_JINJA_SEQUENCE"),
    ("{{ '{:>1000000000}'.format(1) }}", "MAX_JINJA_SEQUENCE"),
    ("{{ '%1000000000d' % 1 }}", "MAX_JINJA_SEQUENCE"),
    ("{{ 'a' | center(10**9) }}", "MAX_JINJA_SEQUENCE"),
    ("{{ ('a' * 999999) | indent(10**6) }}", "MAX_JINJA_SEQUENCE"),
    ("{{ (['a' * 999999] * 999999) | join }}", "MAX_JINJA_SEQUENCE"),
    ("{{ (['ab'] * 999999) | join('x' * 999999) }}", "MAX_JINJA_SEQUENCE"),
    ("{{ range(10**9) | list }}", "range() of 1,000,000,000 numbers"),
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% for k in range(100000) %}"
     "{% endfor %}{% endfor %}{% endfor %}", "MAX_JINJA_ITERATIONS"),
    ("{% for i in 'a' * 999999 %}{% for j in 'bc' %}{% endfor %}{% endfor %}", "MAX_JINJA_ITERATIONS"),
    ("{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
     "MAX_JINJA_SEQUENCE"),
]


@pytest.mark.parametrize("expression, words", JINJA)
def test_runaway_jinja_in_a_layout_stops_at_the_layout_line(tmp_path, run, expression, words):
    game = copy_fixture(tmp_path, "mini", "game.yaml", "game:", "game:")
    expression += "" if "{{" in expression else "{{ 0 }}"   # a layout value without {{ }} is plain text
    _layout(game, "elements:\n  - rect: {x: 0, y: 0, w: 1, h: 1}\n"
                  f"  - text: {{x: 0, y: 0, w: 40, h: 5, text: \"{expression}\"}}\n")
    assert_refused(run("build", game, "--out", tmp_path / "out"), 1, "ttr-train.yaml:3", words)


@pytest.mark.parametrize("expression, words", [*JINJA, (
    "{% for i in range(100000) %}{{ 'x' * 100 }}{% endfor %}", "MAX_JINJA_OUTPUT")])
def test_runaway_jinja_in_the_rules_stops_at_the_rules_line(tmp_path, run, expression, words):
    game = copy_fixture(tmp_path, "mini", "game.yaml", "game:", "game:")
    (game / "rules.md").write_text(f"# ルール\n\n{expression}\n\n終わり\n", encoding="utf-8")
    assert_refused(run("check", game), 2, "rules.md:3", words)


def test_the_bounded_sandbox_still_computes_what_games_ask():
    from generator.jinja_sandbox import BoundedSandbox

    env = BoundedSandbox()
    template = env.from_string("{{ 2**10 }} {{ 'ab' * 3 }} {{ '%5d' % 7 }} {{ 'x'.center(5) }}|"
                               "{% for i in range(3) %}{{ i }}{% endfor %} {{ ['a', 'b'] | join('-') }} {{ 'a' ~ 1 }}")
    assert env.render(template, {}) == "1024 ababab     7   x  |012 a-b a1"


RECURSION = "{% macro again() %}{{ again() }}{% endmacro %}{{ again() }}"


def test_a_macro_that_calls_itself_is_an_error_at_its_line_not_a_traceback(tmp_path, run):
    game = copy_fixture(tmp_path, "mini", "game.yaml", "game:", "game:")
    (game / "rules.md").write_text(f"# ルール\n\n{RECURSION}\n", encoding="utf-8")
    assert_refused(run("check", game), 2, "rules.md:3", "a macro calls itself without end")
    (game / "rules.md").unlink()
    _layout(game, f"elements:\n  - text: {{x: 0, y: 0, w: 40, h: 5, text: \"{RECURSION}\"}}\n")
    assert_refused(run("build", game, "--out", tmp_path / "out"), 1, "ttr-train.yaml:2", "recurses without end")


def test_counted_ranges_still_behave_like_ranges_and_numbers_may_be_large():
    """What the bounds must not refuse: a range's length, index and slice; big (but not huge) numbers formatted."""
    from generator.jinja_sandbox import BoundedSandbox

    env = BoundedSandbox()
    template = env.from_string("{{ range(5)|length }} {{ range(5)[2] }} {{ range(5)[1:3]|list }} {{ range(5)|last }} "
                               "{{ 3 in range(5) }} {{ '%d' % 10**7 }} {{ '{}'.format(10**7) }} {{ [1]|sum(start=10**7) }}")
    assert env.render(template, {}) == "5 2 [1, 2] 4 True 10000000 10000000 10000001"
