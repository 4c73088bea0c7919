"""Card layouts' ``vars:``: a value written once, read by many elements, evaluated once per face."""
from __future__ import annotations

import pytest

from generator.errors import ContentError
from generator.layout import cardface
from generator.layout.cardface import FaceRenderer
from generator.layout.primitives import Circle, Rect
from generator.load.game import load_game


def _layout(game_dir, name: str, text: str) -> None:
    (game_dir / "layouts").mkdir(exist_ok=True)
    (game_dir / "layouts" / f"{name}.yaml").write_text(text, encoding="utf-8")


def _draw(game, layout: str, deck_id: str = "tickets"):
    """The items of each card face of a deck drawn with ``layout``, in card order."""
    deck = game.decks[deck_id]
    renderer = FaceRenderer(game)
    context = {"game": game, "deck": deck, "geometry": deck.geometry, "back": deck.back}
    return [renderer.face(layout, dict(context, card=card), card.ref, card.source, "t").items for card in deck.cards]


def test_vars_are_evaluated_in_order_and_seen_by_elements(mini):
    # 44 × 68 mm cards: half = 22, margin = 22 / 4 = 5.5
    _layout(mini, "v", 'vars:\n  half: "{{ W / 2 }}"\n  margin: "{{ half / 4 }}"\n'
                       'elements:\n  - rect: {x: "{{ margin }}", y: "{{ margin }}", w: "{{ half }}", h: 3}\n')
    faces = _draw(load_game(mini), "v")
    assert faces[0] == (Rect(5.5, 5.5, 22.0, 3.0),)


def test_a_var_that_reads_the_card_makes_what_reads_it_differ_per_card(mini):
    """An element reading only a var is cached per deck, unless the var reads the card (points 7, 12, 8 …)."""
    _layout(mini, "v", 'vars:\n  r: "{{ card.points / 2 }}"\n  d: "{{ 2 * r }}"\n'
                       'elements:\n  - circle: {cx: 10, cy: 10, r: "{{ d }}"}\n')
    faces = _draw(load_game(mini), "v")
    assert [face[0].r for face in faces[:3]] == [7.0, 12.0, 8.0]


def test_the_same_expression_means_what_each_layouts_vars_say(mini):
    """Two layouts of one deck (a face and its back) may give one name two values: no shared cache."""
    _layout(mini, "a", 'vars:\n  k: 3\nelements:\n  - circle: {cx: 0, cy: 0, r: "{{ k * 2 }}"}\n')
    _layout(mini, "b", 'vars:\n  k: 5\nelements:\n  - circle: {cx: 0, cy: 0, r: "{{ k * 2 }}"}\n')
    game = load_game(mini)
    deck = game.decks["tickets"]
    renderer = FaceRenderer(game)
    context = {"game": game, "deck": deck, "geometry": deck.geometry, "back": deck.back, "card": deck.cards[0]}
    assert renderer.face("a", context, "a", deck.source, "a").items == (Circle(0.0, 0.0, 6.0),)
    assert renderer.face("b", context, "b", deck.source, "b").items == (Circle(0.0, 0.0, 10.0),)


@pytest.mark.parametrize("text,line,message", [
    ('vars:\n  a: "{{ b + 1 }}"\n  b: 2\n', 2, "layout var 'a' reads 'b', which is defined after it"),
    ('vars:\n  a: "{{ a + 1 }}"\n', 2, "layout var 'a' reads 'a'"),
    ('vars:\n  W: 3\n', 2, "layout var 'W' would hide the face's own 'W'"),
    ('vars:\n  x: "{{ W + }}"\n', 2, "layout var 'x' is not valid Jinja"),
    ('vars: [1, 2]\n', 1, "`vars:` of a layout is a mapping"),
])
def test_mistakes_in_vars_name_their_line(mini, run, tmp_path, text, line, message):
    _layout(mini, "ttr-ticket", text + "elements:\n  - rect: {x: 0, y: 0, w: 1, h: 1}\n")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert f"layouts/ttr-ticket.yaml:{line}" in result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_mistake_in_a_var_is_a_content_error_when_loading_the_layout(mini):
    _layout(mini, "v", 'vars:\n  n: 1\nelements: []\n')
    with pytest.raises(ContentError, match="would hide the face's own 'n'"):
        _draw(load_game(mini), "v")


@pytest.mark.parametrize("expression,message", [
    ("{{ 1 / 0 }}", "division by zero"),
    ("{{ W + 'a' }}", "unsupported operand"),
    ("{{ 1e999 }}", "name 'inf' is not defined"),
])
def test_an_expression_that_fails_in_python_is_an_error_at_its_line_not_a_traceback(mini, run, tmp_path,
                                                                                      expression, message):
    _layout(mini, "ttr-ticket", f'vars:\n  k: 1\nelements:\n  - rect: {{x: 0, y: 0, w: "{expression}", h: 1}}\n')
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 1, result.output
    assert "layouts/ttr-ticket.yaml:4" in result.stderr and message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("element,message", [
    ("polygon: {points: [[a, 1], [2, 3], [4, 5]]}", "'points' should be a number for tickets card 1, got 'a'"),
    ("polygon: {points: 5}", "'points' should be a list for tickets card 1, got 5"),
    ("polygon: {points: [1, 2]}", "'points' should be [x, y] pairs"),
    ("line: {x1: 0, y1: 0, x2: 1, y2: 1, dash: [a]}", "'dash' should be a number for tickets card 1, got 'a'"),
    ("rect: {x: 0, y: 0, w: 1, h: 1}\n    repeat: 2\n    step: 5", "'step' should be a list for tickets card 1, got 5"),
    ("rect: {x: 0, y: 0, w: 1, h: 1}\n    repeat: 2\n    step: [1, 2, 3]", "'step' should be [dx, dy]"),
    ("rect: {x: 0, y: 0, w: 1, h: 1}\n    repeat: \"{{ W * 1e308 }}\"", "'repeat' should be a number for tickets card 1, got inf"),
    ("rect: {x: \"{{ W * 1e308 }}\", y: 0, w: 1, h: 1}", "'x' should be a number for tickets card 1, got inf"),
    ("rect: {x: 0, y: 0, w: 1, h: 1}\n    repeat: 20000", "'repeat' gives 20000 for tickets card 1, more than 10000"),
])
def test_points_dash_or_step_that_are_not_numbers_are_an_error_at_their_line(mini, run, tmp_path, element, message):
    _layout(mini, "ttr-ticket", f"elements:\n  - {element}\n")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 1, result.output
    assert "layouts/ttr-ticket.yaml:2" in result.stderr and message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("text,line", [("elements:\n  - group: {elements: 5}\n", 2),
                                       ("elements:\n  - group:\n      elements: abc\n", 3)])
def test_a_group_whose_elements_are_not_a_list_is_a_content_error(mini, run, tmp_path, text, line):
    _layout(mini, "ttr-ticket", text)
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert f"layouts/ttr-ticket.yaml:{line}: a group's `elements:` is a list of elements" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_expression_is_compiled_once_per_process_not_once_per_renderer(mini, monkeypatch):
    """Renderers share one compile cache (decks and games repeat their expressions): a second renderer, of a
    second load of the game, compiles nothing the first did, and draws the same faces."""
    _layout(mini, "v", 'elements:\n  - circle: {cx: "{{ W / 4 }}", cy: 10, r: "{{ card.points / 2 }}"}\n'
                       '  - text: {x: 1, y: 1, w: 20, h: 5, size: 8, text: "{{ card.points }} pts"}\n')
    first = _draw(load_game(mini), "v")
    compiled = []
    real = cardface.compile_expression
    monkeypatch.setattr(cardface, "compile_expression", lambda env, text, *parsed: compiled.append((text,)) or real(env, text, *parsed))
    assert _draw(load_game(mini), "v") == first
    assert compiled == []
    cardface._COMPILED.clear()   # as when the cache is full: it compiles again, with the same result
    assert _draw(load_game(mini), "v") == first
    assert sorted(a[0] for a in compiled) == ["W / 4", "card.points / 2"]
