"""The cost of one card face and of loading a large deck (issue 14, branch facelayout): what is the same for every
card worked out once per layout, a filter and an operator the sandbox has nothing to measure in run directly, YAML
scalars constructed once per text. Pinned by counts and by agreeing with what was there before, never by time;
the sandbox's bounds still hold for hostile expressions."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from jinja2 import TemplateError
from jinja2.exceptions import SecurityError, UndefinedError

from generator import jinja_sandbox, yamlsource
from generator.errors import ContentError
from generator.layout import cardface, expressions
from generator.layout.cardface import FaceRenderer, _env
from generator.layout.expressions import compile_expression
from generator.load.game import load_game
from generator.yamlsource import load_yaml
from tests.layout_lib import Thing as _Thing
from tests.layout_lib import faces_of as _faces
from tests.layout_lib import write_layout as _layout

ROOT = Path(__file__).resolve().parents[1]








def _jinja(expression: str, scope: dict):
    _env.start()
    return _env.compile_expression(expression, undefined_to_none=False)(**scope)


def _fast(expression: str, scope: dict):
    fast = compile_expression(_env, expression)
    assert fast is not None, "this expression should not be left to Jinja"
    _env.start()
    return fast(scope)


# ---------------------------------------------------------------------------------------------- per-layout steps

def test_an_elements_steps_are_worked_out_once_per_layout_not_per_card(mini, monkeypatch):
    """Whether an element reads the card, and which of its values do, is asked once per element of the layout
    (and of a group's list), however many cards the deck has; the faces are what they were."""
    _layout(mini, "v", 'elements:\n'
                       '  - rect: {x: 0, y: 0, w: "{{ W }}", h: "{{ H }}", fill: "#ffffff"}\n'
                       '  - text: {x: 1, y: 1, w: 30, h: 6, size: 8, text: "{{ card.from.name }}"}\n'
                       '  - group:\n'
                       '      x: 2\n'
                       '      elements:\n'
                       '        - circle: {cx: 5, cy: 5, r: "{{ card.points / 4 }}", fill: "#000000"}\n'
                       '        - line: {x1: 0, y1: 0, x2: 5, y2: 5}\n')
    asked: list[str] = []
    real_constant, real_inputs = FaceRenderer._is_constant, FaceRenderer._inputs
    monkeypatch.setattr(FaceRenderer, "_is_constant",
                        lambda self, layout, element: asked.append("constant") or real_constant(self, layout, element))
    monkeypatch.setattr(FaceRenderer, "_inputs",
                        lambda self, layout, element: asked.append("inputs") or real_inputs(self, layout, element))
    game = load_game(mini)
    renderer = FaceRenderer(game)
    faces = _faces(game, "v", renderer=renderer)
    assert len(faces) == len(game.decks["tickets"].cards) == 11
    # three elements, then the group's two when the group is first drawn: each asked once; inputs of those that
    # read the card (the text, the group, the circle)
    assert asked.count("constant") == 5 and asked.count("inputs") == 3
    _faces(game, "v", renderer=renderer)   # the same renderer again: nothing asked again
    assert asked.count("constant") == 5 and asked.count("inputs") == 3
    cards = game.decks["tickets"].cards
    for face, card in zip(faces, cards):
        group = face.items[-1]
        assert group.items[0].r == card["points"] / 4 and group.dx == 2.0


def test_a_when_that_reads_the_card_still_guards_the_values_after_it(mini):
    _layout(mini, "v", 'elements:\n  - when: "{{ card.points > 8 }}"\n'
                       '    circle: {cx: 5, cy: 5, r: "{{ 10 / (card.points - 8) }}"}\n'
                       '  - when: "{{ card.points <= 8 }}"\n'
                       '    rect: {x: 0, y: 0, w: "{{ card.points }}", h: 1}\n')
    game = load_game(mini)
    faces = _faces(game, "v")
    for face, card in zip(faces, game.decks["tickets"].cards):
        assert len(face.items) == 1
        kind = "Circle" if card["points"] > 8 else "Rect"
        assert type(face.items[0]).__name__ == kind


# ---------------------------------------------------------------------------------------------- map(attribute=)

class _Mapping(dict):
    pass


SCOPE = {
    "ends": [_Thing(name="Berlin", latin="B", at=(1.0, 2.0)), _Thing(name="東京", latin="T", at=(3.0, 4.0))],
    "rows": [{"name": "dict item", "x": {"y": 5}}, _Mapping(name="sub")],
    "words": ["ab", "cd"],
    "nested": [[1, 2], [3, 4]],
    "nothing": None,
    "empty": [],
}


@pytest.mark.parametrize("expression", [
    "ends | map(attribute='name') | join(' / ')", "ends | map(attribute='latin') | list",
    "ends | map(attribute='at.1') | list", "rows | map(attribute='name') | list", "[rows[0]] | map(attribute='x.y') | list",
    "nested | map(attribute='0') | list", "nothing | map(attribute='name') | list", "empty | map(attribute='x') | list",
    "words | map(attribute='upper') | list | length", "ends | map(attribute='name') | first",
])
def test_map_by_attribute_gives_what_jinja_gives(expression):
    expected, got = _jinja(expression, SCOPE), _fast(expression, SCOPE)
    assert type(got) is type(expected) and got == expected


def test_map_by_attribute_is_a_generator_as_jinjas_is():
    expected, got = _jinja("ends | map(attribute='name')", SCOPE), _fast("ends | map(attribute='name')", SCOPE)
    assert type(got).__name__ == type(expected).__name__ == "generator"
    assert list(got) == list(expected) == ["Berlin", "東京"]


@pytest.mark.parametrize("expression, error", [
    ("ends | map(attribute='missing') | join(',')", UndefinedError),
    ("ends | map(attribute='__class__') | join(',')", SecurityError),
    ("ends | map(attribute='_private') | list | first | string", UndefinedError),
    ("words | map(attribute='format') | first", None),   # str.format, wrapped by the sandbox either way
])
def test_map_by_attribute_refuses_what_jinja_refuses_in_its_words(expression, error):
    if error is None:
        assert callable(_fast(expression, SCOPE)) and callable(_jinja(expression, SCOPE))
        return
    with pytest.raises(error) as jinja_said:
        _jinja(expression, SCOPE)
    with pytest.raises(error) as fast_said:
        _fast(expression, SCOPE)
    assert str(fast_said.value) == str(jinja_said.value)


def test_map_and_join_make_no_jinja_context(monkeypatch):
    made: list = []
    real = expressions._context
    monkeypatch.setattr(expressions, "_context", lambda env, scope: made.append(scope) or real(env, scope))
    assert _fast("ends | map(attribute='name') | join(' / ')", SCOPE) == "Berlin / 東京"
    assert made == []
    with pytest.raises(TemplateError):   # tint asks for a context (the palette): still given one
        _fast("'ink' | tint(0.5)", {"palette": {}})
    assert len(made) == 1


# ---------------------------------------------------------------------------------------------- operators

@pytest.mark.parametrize("expression", [
    "W * 0.5", "0.5 * n", "W + 1", "W - 2 * safe", "W / 3", "W // 3", "W % 7", "W ** 2", "2 ** 0.5", "n * 2",
    "n + 1", "flag + 1.0", "'ab' * n", "words + words", "W * -1e300 * 1e10",
])
def test_an_operator_gives_what_jinja_gives(expression):
    scope = {"W": 44.0, "safe": 3, "n": 3, "flag": True, "words": ["a"]}
    expected, got = _jinja(expression, scope), _fast(expression, scope)
    assert type(got) is type(expected) and got == expected


def test_only_an_operator_with_a_float_skips_the_sandboxs_call(monkeypatch):
    called: list[str] = []
    real = _env.call_binop
    monkeypatch.setattr(_env, "call_binop", lambda context, op, a, b: called.append(op) or real(context, op, a, b))
    assert _fast("W * 2", {"W": 44.0}) == 88.0 and called == []
    assert _fast("n * 2", {"n": 4}) == 8 and called == ["*"]
    assert _fast("flag * 2.0", {"flag": True}) == 2.0 and called == ["*", "*"]   # a bool is not a float
    assert _fast("'ab' * n", {"n": 2}) == "abab" and called == ["*", "*", "*"]


@pytest.mark.parametrize("expression, scope", [
    ("'a' * n", {"n": 10**9}), ("[1] * n", {"n": 10**7}), ("9 ** (9 ** 9)", {}), ("n * n", {"n": 2**90000}),
    ("[big, big]", {"big": list(range(600_000))}), ("big + big", {"big": list(range(600_000))}),
    ("words | join(x)", {"words": ["a"] * 10, "x": "b" * 200_000}),
    ("[[big], [big]] | join(',')", {"big": list(range(600_000))}),
])
def test_hostile_expressions_are_still_refused_as_before(expression, scope):
    with pytest.raises(jinja_sandbox.JinjaLimitError) as jinja_said:
        _jinja(expression, scope)
    with pytest.raises(jinja_sandbox.JinjaLimitError) as fast_said:
        _fast(expression, scope)
    assert str(fast_said.value) == str(jinja_said.value)


def test_a_float_too_large_fails_as_jinjas_does():
    with pytest.raises(OverflowError) as jinja_said:
        _jinja("W ** 400.0", {"W": 10.0})
    with pytest.raises(OverflowError) as fast_said:
        _fast("W ** 400.0", {"W": 10.0})
    assert str(fast_said.value) == str(jinja_said.value)


# ---------------------------------------------------------------------------------------------- measuring values

@pytest.mark.parametrize("values, flat", [
    (((i for i in []), (" / ",), {}), True), (([object()],), True), ((["abc", 1, None, 2.5],), True),
    (("text", 3), True), ((("a", "b"), {}), True), (((), [], {}), True), (([_Thing(x=1), "東京"],), True),
    (([[1, 2], [3]],), False), (({"a": 1},), False), (([{"a": [1, 2]}],), False),
])
def test_the_one_pass_measure_agrees_with_the_walk(values, flat):
    """Values that nest nothing are measured in one pass, to what the walk counts; anything else is left to it."""
    walked = [v for v in values if not isinstance(v, str)]
    expected = jinja_sandbox._deep_size(walked, 10**9) - len(walked)
    assert jinja_sandbox._flat_size(values) == (expected if flat else float("inf"))


def test_a_flat_list_past_the_ceiling_is_refused_with_the_count_it_always_gave():
    with pytest.raises(jinja_sandbox.JinjaLimitError, match=r"holds more than 1,000,001 items"):
        jinja_sandbox._check_deep(([0] * 1_000_001,), "a list")
    with pytest.raises(jinja_sandbox.JinjaLimitError, match=r"holds more than 1,000,003 items"):
        jinja_sandbox._check_deep((["x" * 1_000_000, "y"],), "a list")


# ---------------------------------------------------------------------------------------------- YAML

def _plain(value):
    """Data as the plain safe loader gives it: types kept, LDict/LList as dict/list."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return (type(value).__name__, value)


def test_every_bundled_yaml_file_loads_as_the_safe_loader_reads_it():
    files = sorted([*(ROOT / "content").rglob("*.yaml"), *(ROOT / "templates").rglob("*.yaml")])
    assert len(files) > 30
    for path in files:
        expected = yaml.load(path.read_text(encoding="utf-8"), Loader=yamlsource._SAFE_LOADER)  # noqa: S506
        assert _plain(load_yaml(path)) == _plain(expected if expected is not None else {}), path


def test_scalars_of_every_kind_and_shared_aliases(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("a: [0x1f, 1_000, .inf, ~, yes, 'yes', 2024-01-02, 3.5, -7, +2, 0o17, '7', null, true]\n"
                    "b: &s [1, 2]\nc: *s\nd: !!str 5\ne: !!binary aGk=\nf: {x: 1, y: 1, 'z': 1}\n", encoding="utf-8")
    data = load_yaml(path)
    expected = yaml.load(path.read_text(encoding="utf-8"), Loader=yamlsource._SAFE_LOADER)  # noqa: S506
    assert _plain(data) == _plain(expected)
    assert data["b"] is data["c"] and data["a"].item_lines == [1] * 14 and data.key_lines["f"] == 6


@pytest.mark.parametrize("text, message", [
    ("a: !!int x\n", r"x.yaml:1: .*'x' cannot be read as an int"),
    ("a: 2024-13-45\n", r"x.yaml:1: .*cannot be read as a timestamp"),
    # an explicit tag on an empty or unreadable value: PyYAML's constructors raise IndexError, KeyError,
    # AttributeError (once a traceback)
    ("a: !!int \n", r"x.yaml:1: .*'' cannot be read as an int"),
    ("b: 1\na: !!bool\n", r"x.yaml:2: .*'' cannot be read as a bool"),
    ("a: !!timestamp \n", r"x.yaml:1: .*cannot be read as a timestamp"),
    ("a: !!float .\n", r"x.yaml:1: .*cannot be read as a float"),
    ("a: 1\na: 2\n", r"x.yaml:2: .*duplicate key 'a' \(first at line 1\)"),
    ("? [1]\n: 2\n", r"a key must be a plain name"),
])
def test_a_malformed_scalar_or_key_is_the_content_error_it_was(tmp_path, text, message):
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError, match=message):
        load_yaml(path)


def test_the_resolver_is_asked_once_per_distinct_short_text(tmp_path, monkeypatch):
    asked: list[str] = []
    real = yaml.resolver.BaseResolver.resolve

    def counting(self, kind, value, implicit):
        if kind is yaml.ScalarNode:
            asked.append(value)
        return real(self, kind, value, implicit)
    monkeypatch.setattr(yaml.resolver.BaseResolver, "resolve", counting)
    monkeypatch.setattr(yamlsource, "_RESOLVED", {})
    path = tmp_path / "x.yaml"
    path.write_text("cards:\n" + "".join(f"  - [Berlin, Köln, {n % 3}]\n" for n in range(100)) +
                    f"long: {'x' * 100}\nlong2: {'x' * 100}\n", encoding="utf-8")
    data = load_yaml(path)
    assert data["cards"][5] == ["Berlin", "Köln", 2]
    short = [a for a in asked if len(a) <= 64]
    assert sorted(short) == sorted({"cards", "Berlin", "Köln", "0", "1", "2", "long", "long2"})
    assert asked.count("x" * 100) == 2   # a long text is resolved each time, not kept


def test_a_yaml_bomb_and_deep_nesting_are_still_refused(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("a: " + "[" * 100 + "]" * 100 + "\n", encoding="utf-8")
    with pytest.raises(ContentError, match="MAX_YAML_DEPTH"):
        load_yaml(path)
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 8)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ContentError, match=r"x.yaml:6: .*MAX_YAML_NODES\): alias \*a4 repeats too much"):
        load_yaml(path)


def test_cardface_keeps_no_state_between_games(mini):
    """The steps are the renderer's own (one per game): another game's renderer asks again."""
    _layout(mini, "v", 'elements:\n  - text: {x: 1, y: 1, w: 30, h: 6, size: 8, text: "{{ card.from.name }}"}\n')
    first, second = FaceRenderer(load_game(mini)), FaceRenderer(load_game(mini))
    _faces(first.game, "v", renderer=first)
    assert first._element_steps and not second._element_steps
    assert cardface._COMPILED   # compiled expressions are shared by the process, as before


@pytest.mark.parametrize("expression", ["ends[0].missing is defined", "ends[0].at is defined", "ends[0].missing | default(3)",
                                        "rows[0].name", "rows[0].missing is defined"])
def test_an_attribute_an_object_lacks_is_undefined_as_jinja_says(expression):
    expected, got = _jinja(expression, SCOPE), _fast(expression, SCOPE)
    assert type(got) is type(expected) and got == expected


def test_printing_an_attribute_an_object_lacks_fails_in_jinjas_words():
    with pytest.raises(UndefinedError) as jinja_said:
        _jinja("ends[0].missing ~ ''", SCOPE)
    with pytest.raises(UndefinedError) as fast_said:
        _fast("ends[0].missing ~ ''", SCOPE)
    assert str(fast_said.value) == str(jinja_said.value)
    assert str(fast_said.value).endswith("layout_lib.Thing object' has no attribute 'missing'")
