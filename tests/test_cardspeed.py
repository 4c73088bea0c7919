"""Per-card work (issue 14): expressions compiled once into closures that agree with Jinja, what does not
differ per card drawn once per deck, a face's PDF drawing written again into every file that prints it,
SVG written directly as svgwrite writes it. Behaviour is pinned (counts, bytes, messages), never time."""
from __future__ import annotations

import pytest

from generator.errors import BuildError
from generator.layout import cardface
from generator.layout.cardface import FaceRenderer, _env
from generator.layout.expressions import compile_expression, compile_template
from generator.layout.primitives import Circle, Document, Form, Group, Line, Page, Polygon, Rect, Text, Use
from generator.load.game import load_game
from generator.render import pdf, svg
from tests.conftest import drawn_element_kinds
from tests.layout_lib import Thing as _Thing
from tests.layout_lib import faces_of as _faces
from tests.layout_lib import write_layout as _layout

# ---------------------------------------------------------------------------------------------- expressions



SCOPE = {"W": 44.0, "H": 68, "n": 2, "name": "Köln & <Bonn>", "items": [3, 1, 2],
         "ends": [_Thing(name="Berlin", latin="B"), _Thing(name="東京", latin="T")],
         "card": {"points": 7, "to": ["a", "b"], "tags": ("x",)}, "palette": {"ink": _Thing(hex="#222222")},
         "nothing": None}


@pytest.mark.parametrize("expression", [
    "W / 2 - 1.5", "W // 3", "H % 5", "2 ** 3", "-W", "+H", "not W", "W < 50 < H", "1 < W > 100",
    "7.5 if W < 50 else 9", "W and H", "nothing or 'x'", "name ~ '!' ~ n", "[W, H, n][n]", "(W, H)",
    "card.points * 2", "card['points']", "card.to | length", "card.to is sequence", "card.missing is defined",
    "items | sort | first", "items | max", "[W, H] | min", "ends | map(attribute='name') | join(' / ')",
    "ends[0].name", "'ink' | tint(0.5)", "'#7c1f1f' | tint(-0.35)", "(W / 7) | round(0, 'floor') | int + 1",
    "'%02d' | format(n)", "items.index(2)", "name.upper()", "card.to + card.tags | list", "range(3) | list",
    "'a' in name", "'K' not in name", "nothing is none", "3 == 3.0", "W != H",
])
def test_a_closure_gives_what_jinja_gives_value_and_type(expression):
    fast = compile_expression(_env, expression)
    assert fast is not None, "this expression should not be left to Jinja"
    _env.start()
    expected = _env.compile_expression(expression, undefined_to_none=False)(**SCOPE)
    _env.start()
    got = fast(SCOPE)
    assert type(got) is type(expected) and got == expected


@pytest.mark.parametrize("template", ["art/{{ card.points }}.png", "{{ name }} ({{ W / 4 }})", "plain",
                                      "{{ card.to | join(', ') }} & more", ""])
def test_a_template_closure_renders_what_jinja_renders(template):
    fast = compile_template(_env, template)
    assert fast is not None
    assert fast(SCOPE) == _env.render(_env.from_string(template), SCOPE)


@pytest.mark.parametrize("text", ["{{ x[1:2] }}", "{{ {'a': 1} }}", "{% set a = 1 %}{{ a }}", "{{ a if b }}",
                                  "{{ 1e999 }}", "{{ f(*args) }}"])
def test_what_closures_do_not_cover_is_left_to_jinja(text):
    expression = text[2:-2].strip() if text.count("{{") == 1 and text.startswith("{{") else None
    compiled = compile_expression(_env, expression) if expression is not None else compile_template(_env, text)
    assert compiled is None


@pytest.mark.parametrize("expression,message", [
    ("{{ card.nothing.x }}", "'dict object' has no attribute 'nothing'"),
    ("{{ 'a' * 10**9 }}", "MAX_JINJA_SEQUENCE"),
    ("{{ 9 ** (9 ** 9) }}", "MAX_JINJA_INT_BITS"),
    ("{{ name.__class__ }}", "access to attribute '__class__' of 'str' object is unsafe"),
    ("{{ 1 / 0 }}", "division by zero"),
])
def test_a_failing_expression_says_what_jinja_says_and_stays_bounded(mini, expression, message):
    game = load_game(mini)
    renderer = FaceRenderer(game)
    renderer._plan = cardface._Plan(cardface.Layout("x", mini, None))  # type: ignore[arg-type]
    compiled = renderer._compile(expression, game.decks["tickets"].source)
    with pytest.raises(BuildError, match=message.replace("(", r"\(").replace("*", r"\*")):
        renderer._run(compiled, dict(SCOPE), game.decks["tickets"].source, "card 1")


@pytest.mark.parametrize("expression", ["[big, big]", "(big, big, 1)", "[[big], [big]]"])
def test_a_closure_measures_a_list_it_writes_as_the_sandbox_does(expression):
    """``[a, a]`` of a long ``a`` nests its items twice: Jinja's compiled code measures the literal
    (``bounded_literal``), and so must the closure, or a layout's vars nest a list into billions of items."""
    fast = compile_expression(_env, expression)
    assert fast is not None
    big = list(range(600_000))
    for run in (fast, lambda scope: _env.compile_expression(expression, undefined_to_none=False)(**scope)):
        _env.start()
        with pytest.raises(Exception, match="MAX_JINJA_SEQUENCE"):
            run({"big": big})


def test_a_closure_template_measures_what_it_prints_as_the_sandbox_does():
    fast = compile_template(_env, "x {{ big }} y")
    assert fast is not None
    _env.start()
    with pytest.raises(Exception, match="MAX_JINJA_SEQUENCE"):
        fast({"big": [list(range(600_000))] * 2})
    assert fast({"big": [1, 2]}) == "x [1, 2] y"


def test_each_distinct_expression_is_compiled_once_for_every_deck_and_renderer(mini, monkeypatch):
    _layout(mini, "v", 'elements:\n  - circle: {cx: "{{ W / 4 }}", cy: 10, r: "{{ card.points / 2 }}"}\n'
                       '  - text: {x: 1, y: 1, w: 20, h: 5, size: 8, text: "{{ card.points }} pts"}\n')
    compiled: list[str] = []
    real_expression, real_template = cardface.compile_expression, cardface.compile_template
    monkeypatch.setattr(cardface, "compile_expression", lambda env, t, *parsed: compiled.append(t) or real_expression(env, t, *parsed))
    monkeypatch.setattr(cardface, "compile_template",
                        lambda env, t, *parsed: compiled.append(t) or real_template(env, t, *parsed))
    cardface._COMPILED.clear()
    game = load_game(mini)
    _faces(game, "v")
    _faces(game, "v")   # another renderer
    _faces(load_game(mini), "v")   # another load of the game
    assert sorted(compiled) == ["W / 4", "card.points / 2", "{{ card.points }} pts"]


# ---------------------------------------------------------------------------------------------- drawn once per deck

def test_what_reads_nothing_per_card_is_drawn_once_per_deck_and_text_once_per_value(mini, monkeypatch):
    """11 tickets, 3 places: the frame is drawn once, the name of the first place once per place."""
    _layout(mini, "v", 'elements:\n'
                       '  - rect: {x: 0, y: 0, w: "{{ W }}", h: "{{ H }}", fill: "#ffffff"}\n'
                       '  - text: {x: 1, y: 1, w: 30, h: 6, size: 8, text: "{{ card.from.name }}"}\n'
                       '  - circle: {cx: 5, cy: 5, r: "{{ card.points / 4 }}", fill: "#000000"}\n')
    drawn = drawn_element_kinds(monkeypatch)
    game = load_game(mini)
    faces = _faces(game, "v")
    deck = game.decks["tickets"]
    assert drawn.count("rect") == 1
    assert drawn.count("text") == len({card["from"].name for card in deck.cards}) == 3
    assert drawn.count("circle") == len({card["points"] for card in deck.cards}) == 8
    # and every face is what it always was: its own name and points
    for face, card in zip(faces, deck.cards):
        assert face.items[0] == Rect(0.0, 0.0, deck.geometry.width, deck.geometry.height, "#ffffff")
        assert any(isinstance(i, Text) and i.text == card["from"].name for i in face.items)
        assert face.items[-1] == Circle(5.0, 5.0, card["points"] / 4, "#000000")


def test_text_that_does_not_fit_is_reported_for_every_card_even_when_the_same_on_each(mini):
    _layout(mini, "v", 'elements:\n  - text: {x: 1, y: 1, w: 3, h: 2, size: 8, text: "{{ deck.name }} and more"}\n')
    game = load_game(mini)
    seen: list[str] = []
    renderer = FaceRenderer(game, on_print_problem=lambda kind, error: seen.append(kind))
    _faces(game, "v", renderer=renderer)
    assert seen == ["overflow"] * len(game.decks["tickets"].cards)


def test_a_value_that_fails_for_one_card_only_is_reported_for_that_card(mini):
    """Per-card values are worked out before drawing; one that fails is drawn as usual and says what failed."""
    _layout(mini, "v", 'elements:\n  - circle: {cx: 5, cy: 5, r: "{{ 10 / (card.points - 8) }}"}\n')
    with pytest.raises(BuildError, match=r"failed for tickets card 3: division by zero"):
        _faces(load_game(mini), "v")


def test_when_is_evaluated_before_the_values_it_guards(mini):
    _layout(mini, "v", 'elements:\n  - when: "{{ card.points != 8 }}"\n'
                       '    circle: {cx: 5, cy: 5, r: "{{ 10 / (card.points - 8) }}"}\n')
    faces = _faces(load_game(mini), "v")
    assert [len(f.items) for f in faces][:3] == [1, 1, 0]


# ---------------------------------------------------------------------------------------------- PDF

def _doc(forms: list[Form], title: str = "t") -> Document:
    doc = Document(title)
    for form in forms:
        doc.add_form(form)
    doc.pages = [Page(210, 297, [Use(f.name, 10 + 60 * i, 10) for i, f in enumerate(forms)] +
                      [Use(f.name, 10 + 60 * i, 100) for i, f in enumerate(forms)])]
    return doc


FACE = Form("face-1", (Rect(-3, -3, 50, 73, "#2c5d9c"), Rect(3, 3, 38, 61, "#fbf7ee", radius=2),
                       Text(22, 10, "東京 & (x)", 8.5, "#222222", "middle", bold=True),
                       Group((Line(0, 0, 5, 5, "#aa0000", 0.5, (2, 1)), Circle(3, 3, 1, None, "#000000")), 4, 40, 15),
                       Polygon(((1, 1), (5, 1), (3, 4)), True, "#00ff00"),
                       Text(22, 20, "Tokyo", 5.5, "#222222", "middle", italic=True, spacing=0.1)), (-3, -3, 50, 73))


def _forget_drawings() -> None:
    """Every drawing the PDF renderer keeps between files: a face's, and its shapes' and texts' by value and by
    identity, and a page's runs of shapes (a test that wants a fresh draw must clear all of them)."""
    for kept in (pdf._DRAWINGS, pdf._SHAPE_CODE, pdf._SHAPE_BY_ID, pdf._TEXT_PARTS, pdf._TEXT_PARTS_BY_ID,
                 pdf._RUNS):
        kept.clear()


def test_a_face_is_drawn_once_and_written_again_into_every_pdf_that_prints_it(tmp_path, monkeypatch):
    _forget_drawings()
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    pdf.render_pdf(_doc([FACE]), first)
    rects: list = []
    real = pdf._Painter._Rect
    monkeypatch.setattr(pdf._Painter, "_Rect", lambda self, r: rects.append(r) or real(self, r))
    pdf.render_pdf(_doc([FACE]), second)
    assert rects == [] and "face-1" in pdf._DRAWINGS
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes().startswith(b"%PDF-1.4")


def test_a_form_of_the_same_name_drawn_another_way_is_not_taken_for_the_kept_one(tmp_path):
    other = Form("face-1", (Rect(0, 0, 10, 10, "#ff0000"), Text(1, 5, "other", 5)), (-3, -3, 50, 73))
    _forget_drawings()
    pdf.render_pdf(_doc([other]), tmp_path / "alone.pdf")
    _forget_drawings()
    pdf.render_pdf(_doc([FACE]), tmp_path / "first.pdf")
    pdf.render_pdf(_doc([other]), tmp_path / "after.pdf")
    assert (tmp_path / "after.pdf").read_bytes() == (tmp_path / "alone.pdf").read_bytes()


def test_a_file_of_kept_shapes_only_is_still_pdf_1_4(tmp_path):
    shapes = Form("shapes-1", (Rect(0, 0, 10, 10, "#ff0000"), Circle(5, 5, 2, "#00ff00")), (0, 0, 10, 10))
    pdf._DRAWINGS.clear()
    for name in ("a", "b"):
        pdf.render_pdf(_doc([shapes]), tmp_path / f"{name}.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    assert (tmp_path / "b.pdf").read_bytes().startswith(b"%PDF-1.4")


# ---------------------------------------------------------------------------------------------- SVG

def test_an_svg_written_directly_is_byte_for_byte_what_svgwrite_writes(tmp_path, monkeypatch):
    clipped = Form("face-2", (Rect(0, 0, 20, 20, "#123456", "#abcdef", 0.3, 1.5), Polygon(((0, 0), (3, 4)), False,
                                                                                           None, "#000000")),
                   (0, 0, 20, 20))
    doc = _doc([FACE, clipped])
    page = Page(120, 90, [Use("face-1", 0, 0), Use("face-2", 60, 0, clip=(1, 1, 10, 10)),
                          Text(5, 80, 'quote " and <tag> & \'apostrophe\'', 4, "#000000"),
                          Group((Rect(0, 0, 1, 1, None, "#000000"),), 1, 2, 30, 0.5)])
    svg.render_svg(doc, page, tmp_path / "direct.svg")
    monkeypatch.setattr(svg.primitives, "pictures", lambda items, forms: {"forced": True})   # svgwrite's way
    svg.render_svg(doc, page, tmp_path / "svgwrite.svg")
    direct = (tmp_path / "direct.svg").read_bytes()
    assert direct == (tmp_path / "svgwrite.svg").read_bytes()
    assert b"&lt;tag&gt; &amp;" in direct and b"<![CDATA[@font-face" in direct


@pytest.mark.parametrize("deck_id", ["tickets", "trains"])
def test_a_face_is_named_by_the_digest_of_its_items_repr_as_before(mini, deck_id):
    """The name is put together from each element's kept repr: it must be the digest of repr(items) itself."""
    import hashlib

    game = load_game(mini)
    deck = game.decks[deck_id]
    renderer = FaceRenderer(game)
    faces = _faces(game, deck.layout, deck_id, renderer) + _faces(game, deck.back.layout, deck_id, renderer)
    for face in faces:
        assert face.name == "t-" + hashlib.sha1(repr(face.items).encode("utf-8")).hexdigest()[:12]
