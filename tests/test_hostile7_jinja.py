"""Round seven, Jinja: the work a filter, a call, a comparison, a macro or a recursive loop does is counted against
MAX_JINJA_ITERATIONS before it is done (a loop of 10**6 turns over ``b | sort`` of a 10**5-item ``b`` sorted 10**11
items, one turn each counted); what a template may reach is an allow-list (pnpgen's objects and plain data); a
path is shown relative to the game, never as the designer's absolute folder."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from jinja2 import StrictUndefined
from jinja2.exceptions import SecurityError

from generator import limits
from generator.jinja_sandbox import BoundedImmutableSandbox, BoundedSandbox, JinjaLimitError
from generator.layout.cardface import _Compiled
from generator.load.game import load_game
from generator.load.rules import load_rules
from tests.layout_lib import Thing

MINI = Path(__file__).resolve().parent / "fixtures" / "mini"
SANDBOXES = [BoundedSandbox, BoundedImmutableSandbox]
#: a 9,999-item list made once, then worked on in a loop of 30 turns: 30 loop turns, 300,000 items read
B = "{% set b = range(9999) | list %}{% set s = 'a ' * 9999 %}{% for i in range(30) %}"
#: each does at least 300,000 turns of work in 30 loop turns (MAX_JINJA_ITERATIONS is 100,000 in these tests)
WORK = [B + "{{ b | sort | length }}{% endfor %}",
        B + "{{ b | map('string') | join | length }}{% endfor %}",
        B + "{{ b | unique | list | length }}{% endfor %}",
        B + "{{ b | select('even') | list | length }}{% endfor %}",
        B + "{{ b | select('gt', 10**9) | first is defined }}{% endfor %}",
        B + "{{ b | sum }}{% endfor %}",
        B + "{{ b | batch(2) | list | length }}{% endfor %}",
        B + "{{ b | slice(3) | list | length }}{% endfor %}",
        B + "{{ b | groupby('real') | length }}{% endfor %}",
        B + "{{ b | max }}{{ b | min }}{% endfor %}",
        B + "{{ b | reverse | list | length }}{% endfor %}",
        B + "{{ b | string | length }}{% endfor %}",
        B + "{{ -1 in b }}{% endfor %}",
        B + "{{ -1 is in b }}{% endfor %}",
        B + "{{ b == b | list }}{% endfor %}",
        B + "{{ b.count(-1) }}{{ b.index(0) }}{% endfor %}",
        B + "{{ loop.changed(b) }}{% endfor %}",
        B + "{{ b | selectattr('real', 'in', b) | first }}{% endfor %}",
        B + "{{ s | wordwrap(5) | length }}{% endfor %}",
        B + "{{ s | urlize | length }}{% endfor %}",
        B + "{{ s | title | length }}{% endfor %}",
        B + "{{ (s * 20) | upper | length }}{% endfor %}",
        B + "{{ (s * 20).split() | length }}{% endfor %}",
        B + "{{ (s * 20) | replace('a', 'b') | length }}{% endfor %}",
        "{% macro f(n) %}{% if n < 20 %}{{ f(n + 1) }}{{ f(n + 1) }}{% endif %}{% endmacro %}{{ f(1) }}",
        "{% for x in [1, 2] recursive %}{% if loop.depth < 20 %}{{ loop([1, 2]) }}{% endif %}{% endfor %}",
        "{{ lipsum(10**6) }}", "{{ lipsum(1, max=10**6) }}",
        "{% for i in range(1000) %}{{ [1] | batch(99999, 0) | list | length }}{% endfor %}",
        "{% for i in range(1000) %}{{ ('x' ~ i) | center(99999) | length }}{{ '%*d' | format(99999, i) | length }}{% endfor %}",
        "{% for i in range(1000) %}{{ 'x'.center(99999) | length }}{% endfor %}"]


@pytest.fixture
def small_budget(monkeypatch):
    monkeypatch.setattr(limits, "MAX_JINJA_ITERATIONS", 100_000)


@pytest.mark.parametrize("template", WORK)
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_work_inside_a_filter_call_or_comparison_is_counted(small_budget, sandbox, template):
    env = sandbox(undefined=StrictUndefined)
    with pytest.raises(JinjaLimitError, match="MAX_JINJA_ITERATIONS"):
        env.render(env.from_string(template), {})


@pytest.mark.parametrize("expression", ["b | sort | length", "b | map('string') | join | length", "-1 in b",
                                        "b | select('gt', 10**9) | list | length", "b.count(-1)"])
def test_a_layout_expressions_work_is_counted_too(monkeypatch, expression):
    """The layouts' closures (layout/expressions.py) count what Jinja's compiled code counts."""
    monkeypatch.setattr(limits, "MAX_JINJA_ITERATIONS", 50_000)
    with pytest.raises(JinjaLimitError, match="MAX_JINJA_ITERATIONS"):
        _Compiled("{{ " + expression + " }}", frozenset({"b"})).run({"b": list(range(60_000))})
    assert _Compiled("{{ " + expression + " }}", frozenset({"b"})).run({"b": list(range(10))}) is not None


def test_a_namespace_that_nests_itself_is_measured_before_it_is_printed():
    """``namespace(a=ns.x, b=ns.x)`` sixty times is 2**60 paths: printing it never ended."""
    env = BoundedImmutableSandbox(undefined=StrictUndefined)
    template = ("{% set ns = namespace(x=1) %}{% for i in range(60) %}{% set ns.x = namespace(a=ns.x, b=ns.x) %}"
                "{% endfor %}{{ ns }}")
    with pytest.raises(JinjaLimitError, match="MAX_JINJA"):
        env.render(env.from_string(template), {})


def test_a_rules_template_over_10000_cards_still_renders():
    """What a rule sheet does with a large deck (each card once, a few passes per colour) stays under the budget."""
    colors = ["red", "blue", "green", "black", "white", "pink", "orange", "yellow"]
    cards = [Thing(name=f"card {i}", color=colors[i % 8], points=i % 13) for i in range(10_000)]
    env = BoundedImmutableSandbox(undefined=StrictUndefined)
    template = env.from_string(
        "{{ cards | length }} {{ cards | map(attribute='points') | max }} {{ cards | map(attribute='points') | sum }}\n"
        "{% for c in colors %}{{ c }}: {{ cards | selectattr('color', 'eq', c) | list | length }}\n{% endfor %}"
        "{{ cards | map(attribute='name') | join(', ') | length }}\n"
        "{% for card in cards %}{% if card.points > 11 %}{{ card.name }};{% endif %}{% endfor %}")
    text = env.render(template, {"cards": cards, "colors": colors})
    assert text.startswith("10000 12 59985\nred: 1250\nblue: 1250\n")


# ------------------------------------------------------------------------------------------- what a template reaches
class Outside:
    """An object of no pnpgen module: what a template must not read or call."""

    secret = "outside"

    def method(self):
        return "called"


REFUSED = ["{{ thing.secret }}", "{{ thing.method() }}", "{{ thing['secret'] }}", "{{ self['body'] }}",
           "{{ cycler.__init__ }}", "{{ joiner.__init__.__globals__ }}", "{{ lipsum.__globals__ }}",
           "{% macro m() %}{% endmacro %}{{ m.arguments }}", "{{ fn() }}", "{{ cls() }}"]


@pytest.mark.parametrize("template", REFUSED)
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_template_reaches_only_the_game_and_plain_data(sandbox, template):
    env = sandbox(undefined=StrictUndefined)
    scope = {"thing": Outside(), "fn": shutil.which, "cls": Outside}
    with pytest.raises(SecurityError):
        env.render(env.from_string(template), scope)


@pytest.mark.parametrize("expression", ["thing.secret", "thing.method()", "thing['secret']", "fn('ls')"])
def test_a_layout_expression_reaches_only_the_game_and_plain_data(expression):
    """(What the layout does with the value, an undefined one the sandbox gave, raises as it is used.)"""
    with pytest.raises(SecurityError):
        str(_Compiled("{{ " + expression + " }}", frozenset({"thing", "fn"})).run({"thing": Outside(), "fn": shutil.which}))


def test_plain_data_and_jinjas_helpers_still_work():
    env = BoundedImmutableSandbox(undefined=StrictUndefined)
    template = env.from_string(
        "{% set ns = namespace(n=0) %}{% for i in range(3) %}{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }}|"
        "{% set c = cycler('a', 'b') %}{{ c.next() }}{{ c.next() }}|{% set j = joiner('+') %}"
        "{% for i in [1, 2] %}{{ j() }}{{ i }}{{ loop.index }}{% endfor %}|{{ dict(a=1).a }}|{{ 'x'.upper() }}|"
        "{{ {'k': [1]}.items() | list }}|{% macro m(x) %}<{{ x }}>{% endmacro %}{{ m(1) }}|{{ lipsum(1, false, 5, 6) }}")
    assert env.render(template, {}).split("|")[:7] == ["3", "ab", "11+22", "1", "X", "[('k', [1])]", "<1>"]


# ---------------------------------------------------------------------------------------------------------- paths
@pytest.mark.parametrize("text", ["{{ game.folder }}", "{{ game.source }}", "{{ game.source.file }}",
                                  "{{ [game.folder] }}", "{{ game }}", "{{ game | pprint }}",
                                  "{{ game.folder ~ '/x' }}", "{{ '%s' % game.source }}",
                                  "{{ game.decks.values() | first }}", "{{ '{}'.format(game.folder) }}",
                                  "{{ game.collections }}", "{{ game.palette if game.palette is defined }}"])
def test_rules_never_print_the_games_absolute_folder(tmp_path, text):
    shutil.copytree(MINI, tmp_path / "mini")
    (tmp_path / "mini" / "rules.md").write_text(f"# Rules\n\n{text}\n", encoding="utf-8")
    markdown = load_rules(load_game(tmp_path / "mini"))[0].markdown
    assert str(tmp_path) not in markdown
    assert str(tmp_path.resolve()) not in markdown
    assert str(Path(__file__).resolve().parents[1]) not in markdown   # where pnpgen is installed (its palette)


def test_rules_show_a_path_relative_to_the_game(tmp_path):
    shutil.copytree(MINI, tmp_path / "mini")
    (tmp_path / "mini" / "rules.md").write_text("# Rules\n\n[{{ game.folder }}] [{{ game.source }}]\n",
                                                encoding="utf-8")
    assert "[.] [game.yaml:2]" in load_rules(load_game(tmp_path / "mini"))[0].markdown


def test_a_layout_shows_a_path_relative_to_the_game(tmp_path):
    from generator.layout.cardface import FaceRenderer
    game = load_game(MINI)
    FaceRenderer(game)   # the layouts' sandbox now shows paths relative to this game
    scope = {"game": game}
    assert _Compiled("{{ game.folder }}", frozenset({"game"})).run(scope) == "."
    assert _Compiled("at {{ game.source.file }}", frozenset({"game"})).run(scope) == "at game.yaml"
    assert str(MINI) not in _Compiled("{{ game }} x", frozenset({"game"})).run(scope)


def test_a_rules_helper_that_walks_a_deck_counts_its_cards(tmp_path, small_budget):
    """``tally()`` walks every card of its deck: 10**5 tallies of a 20,000-card deck took hours, one turn each."""
    shutil.copytree(MINI, tmp_path / "mini")
    rules = tmp_path / "mini" / "rules.md"
    rules.write_text("# Rules\n\n{% for i in range(40000) %}{% set t = tally('trains', 'color') %}{% endfor %}\n",
                     encoding="utf-8")
    game = load_game(tmp_path / "mini")
    with pytest.raises(Exception, match="MAX_JINJA_ITERATIONS"):
        load_rules(game)
    rules.write_text("# Rules\n\n{% for i in range(200) %}{% set t = tally('trains', 'color') %}{% endfor %}ok\n",
                     encoding="utf-8")
    assert "ok" in load_rules(game)[0].markdown


def test_the_expressions_of_one_face_are_bounded_together(tmp_path):
    """Each evaluation is bounded alone; a text repeated 1,000 times, each copy sorting a 10,000-item list, is 40
    million turns on one face (10,000 copies of a 10**5-item sort: minutes a face) and stops at MAX_FACE_JINJA_WORK."""
    from tests.conftest import copy_fixture
    from tests.test_limits import _layout, assert_refused, pnpgen
    game = copy_fixture(tmp_path, "mini", "game.yaml", "game:", "game:")
    _layout(game, "elements:\n  - rect: {x: 0, y: 0, w: 1, h: 1}\n  - repeat: 1000\n"
                  "    text: {x: 0, y: 0, w: 40, h: 5, text: \"{{ (range(9999) | list | sort | length) + n }}\"}\n")
    assert_refused(pnpgen("build", game, "--out", tmp_path / "out"), 1, "ttr-train.yaml:3", "MAX_FACE_JINJA_WORK")


def test_a_layout_text_of_a_model_object_never_shows_the_games_absolute_folder(tmp_path):
    """``text: "{{ game }}"`` gives the Game itself (one expression keeps its value); the text drawn is its repr, the
    game's folder written relative."""
    from generator.layout.cardface import FaceRenderer
    from tests.conftest import copy_fixture
    from tests.test_limits import _layout
    game_dir = copy_fixture(tmp_path, "mini", "game.yaml", "game:", "game:")
    _layout(game_dir, "elements:\n  - text: {x: 0, y: 0, w: 40, h: 60, size: 4, min_size: 0.5, text: \"{{ game }}\"}\n")
    game = load_game(game_dir)
    deck = game.decks["trains"]
    renderer = FaceRenderer(game, on_print_problem=lambda kind, error: None)
    form = renderer.face("ttr-train", {"game": game, "deck": deck, "geometry": deck.geometry, "back": deck.back,
                                       "card": deck.cards[0]}, "t", deck.cards[0].source, "t")
    drawn = repr(form)
    assert "folder=PosixPath" in drawn or "Game(" in drawn
    assert str(tmp_path) not in drawn


@pytest.mark.parametrize("template", ["{{ 'x'.upper }}", "{{ 'x'.upper ~ 1 }}", "{{ range | string }}",
                                      "{{ ['x'.upper] }}", "{{ '%s' % 'x'.upper }}", "{{ f }}", "x{{ f }}"])
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_printing_a_function_never_prints_its_memory_address(sandbox, template):
    """A function's text names its address, another on every run: the same content must make the same files."""
    env = sandbox(undefined=StrictUndefined)
    text = env.render(env.from_string(template), {"f": shutil.which})
    assert " at 0x" not in text and text


def test_a_layout_text_of_a_function_never_shows_its_address():
    from generator.layout.cardface import _env
    value = _Compiled("{{ f }}", frozenset({"f"})).run({"f": shutil.which})
    assert " at 0x" not in _env.hide_folders(str(value))
