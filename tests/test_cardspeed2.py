"""Fixed costs of a build (issue 14): the names a layout expression reads found by walking its tree (the answer
``jinja2.meta`` gives, without Jinja's code generator), and no game kept alive by the expressions' context memo.
Behaviour is pinned (names, errors, what is held), never time."""
from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import TemplateError, meta

from generator import TEMPLATES_DIR
from generator.layout import cardface, expressions
from generator.layout.cardface import FaceRenderer, _env, reads_of
from generator.layout.expressions import names_read
from generator.load.game import load_game
from generator.yamlsource import load_yaml

ROOT = Path(__file__).resolve().parent.parent


def _meta(text: str):
    """What Jinja's own introspection says of ``text``: its names, or its error."""
    try:
        return frozenset(meta.find_undeclared_variables(_env.parse(text)))
    except TemplateError as exc:
        return type(exc), str(exc)


def _ours(text: str):
    try:
        return reads_of(_env.parse(text))
    except TemplateError as exc:
        return type(exc), str(exc)


def _bundled_expressions() -> list[str]:
    """Every value with ``{{`` or ``{%`` in the bundled games' YAML and pnpgen's templates (their layouts)."""
    found: set[str] = set()

    def walk(value) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and ("{{" in value or "{%" in value):
            found.add(value)

    for path in sorted([*(ROOT / "content").rglob("*.yaml"), *TEMPLATES_DIR.rglob("*.yaml")]):
        walk(load_yaml(path))
    return sorted(found)


def test_every_bundled_expression_reads_the_names_jinja_meta_finds():
    texts = _bundled_expressions()
    assert len(texts) > 200   # the layouts' expressions (294 when written)
    walked = 0
    for text in texts:
        assert _ours(text) == _meta(text), text
        try:
            walked += names_read(_env, _env.parse(text)) is not None
        except TemplateError:   # a rules text that shows Jinja's syntax in words
            walked += 1
    assert walked >= len(texts) - 10   # statements (a few `{% %}`) are left to meta; the rest are walked


@pytest.mark.parametrize("text", [
    "{{ card.from.name }}", "{{ W / 2 - bleed }}", "x {{ a }} y {{ b ~ c }}", "{{ a if b else c }}",
    "{{ range(n) | list }}", "{{ dict(k=v) }}", "{{ namespace }}", "{{ loop }}", "{{ self }}", "{{ caller }}",
    "{{ items | map(attribute='name') | join(sep) }}", "{{ x | default(y) }}", "{{ x is divisibleby(z) }}",
    "{{ x is defined }}", "{{ {'k': v, w: 1}[key] }}", "{{ xs[1:stop:step] }}", "{{ [a, (b, c)] }}",
    "{{ a.b(c, d=e) }}", "{{ not a and (b or c) }}", "{{ a < b <= c != d }}", "{{ -a + +b ** c // d % e }}",
    "{{ 'lit' }}", "no expression at all", "{{ card | tint(0.5) }}",
    # unknown filters and tests: refused outside a conditional (in Jinja's words), allowed inside one
    "{{ x | nosuch }}", "{{ x is nosuch }}", "{{ a if b else (c | nosuch) }}", "{{ (c | nosuch) if b else a }}",
    "{{ a if (b is nosuch) }}", "{{ [x | nosuch] }}", "{{ true or (x | nosuch) }}",
    # statements: scopes only Jinja follows (left to meta)
    "{% for x in xs %}{{ x }}{{ loop.index }}{% endfor %}{{ x }}", "{% set a = b %}{{ a }}{{ c }}",
    "{% set a = a + 1 %}{{ a }}", "{% macro m(p, q=r) %}{{ p }}{{ q }}{{ s }}{{ caller() }}{% endmacro %}{{ m(t) }}",
    "{% if c %}{% set y = 1 %}{% endif %}{{ y }}", "{% with z = w %}{{ z }}{% endwith %}{{ z }}",
    "{% filter upper %}{{ u }}{% endfilter %}", "{% for k, v in d.items() if v %}{{ k }}{% else %}{{ e }}{% endfor %}",
    "{% set ns = namespace(t=0) %}{% set ns.t = ns.t + u %}{{ ns.t }}", "{% raw %}{{ not_a_name }}{% endraw %}{{ real }}",
])
def test_the_names_read_are_what_jinja_meta_finds(text):
    assert _ours(text) == _meta(text)


@pytest.mark.parametrize("text, names", [
    ("{{ card.from.name ~ deck.id }}", {"card", "deck"}),
    ("{{ range(n) | map('string') | join(sep) }}", {"n", "sep"}),   # range is a global; map and join are filters
    ("{{ a if b else c }}", {"a", "b", "c"}),
    ("{% for x in xs %}{{ x }}{% endfor %}", {"xs"}),
])
def test_an_expression_reads_these_names(text, names):
    assert reads_of(_env.parse(text)) == frozenset(names)


def test_a_plain_expression_is_walked_without_jinja_codegen_and_a_statement_is_not(monkeypatch):
    asked = []
    monkeypatch.setattr(cardface.meta, "find_undeclared_variables",
                        lambda template: asked.append(template) or {"from-meta"})
    assert reads_of(_env.parse("{{ card.a + W }}")) == {"card", "W"}
    assert asked == []
    assert reads_of(_env.parse("{% set a = 1 %}{{ a }}")) == {"from-meta"}
    assert len(asked) == 1


def test_an_unknown_filter_in_a_layout_is_refused_in_jinjas_words(mini):
    game = load_game(mini)
    with pytest.raises(Exception) as caught:
        FaceRenderer(game)._compile("{{ card.id | nosuchfilter }}", game.source)
    assert "layout expression '{{ card.id | nosuchfilter }}' is not valid Jinja: No filter named 'nosuchfilter'." \
        in str(caught.value)


def test_no_context_is_held_once_a_face_is_drawn(mini):
    """A method call in an expression makes a Jinja context over the face's scope; kept past the face, it kept the
    game (and its cards) alive after the build."""
    (mini / "layouts").mkdir(exist_ok=True)
    (mini / "layouts" / "calls.yaml").write_text(
        'elements:\n  - text: {x: 2, y: 2, w: 30, h: 8, text: "{{ card.ref.upper() }}"}\n', encoding="utf-8")
    game = load_game(mini)
    deck = next(iter(game.decks.values()))
    card = deck.cards[0]
    context = {"game": game, "deck": deck, "geometry": deck.geometry, "back": deck.back, "card": card}
    expressions.forget_context()
    seen = []
    real = expressions._context

    def spy(env, scope):
        made = real(env, scope)
        seen.append(made)
        return made
    expressions._context = spy   # the closures look it up by name at each call
    try:
        FaceRenderer(game).face("calls", context, card.ref, card.source, "t")
    finally:
        expressions._context = real
    assert seen, "the expression should have needed a context (a method call)"
    assert expressions._LAST_CONTEXT[0] == (None, None)


def test_a_build_collects_garbage_less_often_and_puts_things_back_after(mini, tmp_path, monkeypatch):
    """A build freezes what existed before it (modules, the loaded game) and raises the young generation's
    threshold; after it (even one that fails) the process collects as it did, and what was frozen can be freed."""
    import gc

    from generator import pipeline, writers

    seen = []
    real = pipeline._write

    def spy(*args, **kwargs):
        seen.append((gc.get_threshold()[0], gc.get_freeze_count() > 0))
        return real(*args, **kwargs)
    monkeypatch.setattr(pipeline, "_write", spy)
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    pipeline.build_game(load_game(mini), tmp_path / "out")
    assert seen == [(writers.BUILD_GC_THRESHOLD, True)]
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0

    def fails(*args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(pipeline, "_write", fails)
    with pytest.raises(Exception, match="cannot write the output"):
        pipeline.build_game(load_game(mini), tmp_path / "out2")
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def _parsed_alone(inner: str):
    """The expression parser's tree of ``inner``, or None where it does not read all of it."""
    from jinja2.parser import Parser

    try:
        parser = Parser(_env, inner, state="variable")
        tree = parser.parse_expression()
    except TemplateError:
        return None
    return tree if parser.stream.eos else None


@pytest.mark.parametrize("text", [
    "{{ a }}", "{{ a, b }}", "{{ (a, b) }}", "{{ (a, b) | first }}", "{{- a }}", "{{ a -}}", "{{ -a }}",
    "{{ a - 1 }}", "{{ '}}' ~ a }}", " {{ a }} ", "{{ a }}\n", "{{ a if b }}", "{{ a }} }}", "{{x}}",
])
def test_an_expression_is_parsed_once_and_to_the_tree_the_expression_parser_gives(text):
    stripped = text.strip()
    taken = expressions.expression_of(text, _env.parse(text))
    if taken is not None:
        assert taken == _parsed_alone(stripped[2:-2].strip())


def test_every_bundled_expression_is_taken_from_its_template_as_the_expression_parser_reads_it():
    taken = 0
    for text in _bundled_expressions():
        stripped = text.strip()
        if not (stripped.startswith("{{") and stripped.endswith("}}") and stripped.count("{{") == 1):
            continue
        try:
            template = _env.parse(text)
        except TemplateError:
            continue
        tree = expressions.expression_of(text, template)
        if tree is not None:
            taken += 1
            assert tree == _parsed_alone(stripped[2:-2].strip()), text
    assert taken > 150


def test_the_checkers_layout_collects_garbage_less_often_too(mini, monkeypatch):
    import gc

    from generator import writers

    seen = []
    monkeypatch.setattr(writers, "PRODUCERS", [lambda game, ctx: seen.append((gc.get_threshold()[0],
                                                                               gc.get_freeze_count() > 0))])
    before = gc.get_threshold()
    writers.lay_out(load_game(mini), "a4")
    assert seen == [(writers.BUILD_GC_THRESHOLD, True)]
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_the_pictures_of_a_form_asked_again_are_known_without_hashing_its_items_again():
    """A face is looked at for pictures by every file that prints it (its deck's PDF, the print-and-play file, the
    print-shop file, its SVG): the same Form object is recognised, its items are not hashed again; an equal form
    made anew (a large game's, unpickled) is still recognised by its items' hash."""
    from generator.layout import primitives
    from generator.layout.primitives import Form, Rect, Use, pictures

    hashed = []

    class Counted(Rect):
        __slots__ = ()

        def __hash__(self):
            hashed.append(1)
            return Rect.__hash__(self)

    form = Form("f-cardspeed2-test", (Counted(0, 0, 1, 1, "#000000", None, 0.25, 0.0),), (0, 0, 1, 1))
    for _ in range(3):
        assert pictures([Use(form.name, 0, 0)], {form.name: form}) == {}
    assert len(hashed) == 1
    again = Form(form.name, form.items, form.box)
    assert pictures([Use(again.name, 0, 0)], {again.name: again}) == {}
    assert len(hashed) == 2
    primitives._FORM_PICTURES.pop(form.name)
