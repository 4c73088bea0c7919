"""Rich text (``layout.richtext``): markup → spans → lines → primitives, on cards and in the rule sheet."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from generator import fonts
from generator.errors import ContentError
from generator.fonts import PT_TO_MM, text_width_mm
from generator.layout import richtext
from generator.layout import text as textfit
from generator.layout.cardface import FaceRenderer
from generator.layout.primitives import Group, Image, Rect, Text
from generator.layout.richtext import Markup, Typeface, draw_line, parse, wrap
from generator.layout.rulesheet import layout_blocks
from generator.load.game import load_game
from generator.load.rules import parse as parse_markdown
from generator.model.rules import Paragraph, Span
from tests.drawing_lib import flat

BOLD = fonts.resolve(None, True, False)     # pnpgen's bold face (a real bold file: fake_bold False)
REGULAR = fonts.resolve(None, False, False)
COLORS = Markup({"red": "#cc2222", "blue": "#2244cc"})
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>'


# --------------------------------------------------------------------------- parsing

@pytest.mark.parametrize("text,spans", [
    ("plain text", (Span("plain text"),)),
    ("**Bonus**: take *one*", (Span("Bonus", bold=True), Span(": take "), Span("one", italic=True))),
    ("***both***", (Span("both", bold=True, italic=True),)),
    ("[red]red **bold**[/] black", (Span("red ", color="#cc2222"), Span("bold", True, color="#cc2222"),
                                    Span(" black"))),
    ("[#1A2b3C]hex[/]", (Span("hex", color="#1a2b3c"),)),
    ("[red]a[blue]b[/]c[/]", (Span("a", color="#cc2222"), Span("b", color="#2244cc"), Span("c", color="#cc2222"))),
    ("take :locomotive: now", (Span("take "), Span(":locomotive:", icon="locomotive"), Span(" now"))),
    # what is not markup prints as written
    ("at 10:30 or :nothing:", (Span("at 10:30 or :nothing:"),)),
    ("a **unclosed", (Span("a **unclosed"),)),
    ("2 * 3 * 4", (Span("2 * 3 * 4"),)),
    ("[green]no such colour[/]", (Span("[green]no such colour[/]"),)),
    ("[red]never closed", (Span("[red]never closed"),)),
    ("a[/]b", (Span("a[/]b"),)),
    (r"\*not italic\* \:locomotive\: \[red]", (Span("*not italic* :locomotive: [red]"),)),
    ("line one\n**line** two", (Span("line one\n"), Span("line", bold=True), Span(" two"))),
])
def test_markup_parses_into_styled_spans(text, spans):
    assert parse(text, COLORS) == spans


def test_a_games_own_icon_carries_its_file_and_wins_over_a_builtin_one():
    markup = Markup({}, {"ferry": ("/g/art/ferry.svg", "ab" * 32), "star": ("/g/art/star.svg", "cd" * 32)})
    assert parse(":ferry: :star: :wagon:", markup) == (
        Span(":ferry:", icon="ferry", picture=("/g/art/ferry.svg", "ab" * 32)), Span(" "),
        Span(":star:", icon="star", picture=("/g/art/star.svg", "cd" * 32)), Span(" "),
        Span(":wagon:", icon="wagon"))


def test_the_glyph_check_sees_the_text_without_markup_or_icons():
    spans = parse("**Bonus** :locomotive: [red]x[/]", COLORS)
    assert richtext.glyph_text(spans) == "Bonus  x"
    assert richtext.is_plain(parse("no markup here")) and not richtext.is_plain(spans)


# --------------------------------------------------------------------------- widths and wrapping

@pytest.fixture
def wide_bold(monkeypatch):
    """A bold face twice as wide as the regular one (1 mm a character, 2 mm in bold), as a real bold file may be."""
    def resolve(family=None, bold=False, italic=False, families=None):
        return fonts.Face("Bold" if bold else "Regular", False, italic)

    monkeypatch.setattr(fonts, "resolve", resolve)
    monkeypatch.setattr(richtext, "text_width_mm", lambda text, size, font: len(text) * (2.0 if font == "Bold" else 1.0))
    richtext._face.cache_clear()
    richtext.fit.cache_clear()
    yield
    richtext._face.cache_clear()
    richtext.fit.cache_clear()


def test_each_span_is_measured_in_its_own_face(wide_bold):
    spans = parse("aaaa **bbbb** cc")
    assert [richtext.span_width(s, 9, Typeface()) for s in spans] == [5.0, 8.0, 3.0]
    # 5 + 8 = 13 mm: "aaaa bbbb" fits 13 mm but not 12 (it would if bold were as wide as regular)
    assert [richtext.glyph_text(line) for line in wrap(spans, 13, 9)] == ["aaaa bbbb", "cc"]
    assert [richtext.glyph_text(line) for line in wrap(spans, 12, 9)] == ["aaaa", "bbbb cc"]
    # the runs are drawn where their faces put them: the bold run after 5 mm, "cc" after 5 + 8 + 1 (a run's
    # spaces are stepped over, not drawn: SVG would drop a leading one)
    items = draw_line(wrap(spans, 40, 9)[0], 10.0, 20.0, 9, "#000000")
    assert [(t.x, t.text, t.font) for t in items] == [(10.0, "aaaa", "Regular"), (15.0, "bbbb", "Bold"),
                                                       (24.0, "cc", "Regular")]


def test_a_bold_element_measures_all_its_text_bold(wide_bold):
    assert richtext.line_width(parse("abc"), 9, Typeface(bold=True)) == 6.0
    assert richtext.line_width(parse("abc"), 9, Typeface()) == 3.0


def test_kinsoku_holds_across_span_boundaries():
    """A 、 after a bold word never starts a line: it stays with the bold 時 before it."""
    spans = parse("**ゲーム終了時**、達成した行き先チケットの枚数が一番多い")
    glued = 0
    for width in range(10, 40):
        lines = wrap(spans, width, 9)
        assert lines is not None
        texts = [richtext.glyph_text(line) for line in lines]
        assert "".join(texts) == "ゲーム終了時、達成した行き先チケットの枚数が一番多い"
        for line in texts[1:]:
            assert line[0] not in textfit.NO_LINE_START, (width, texts)
        for line in lines:
            if line[0].text.startswith("時"):
                glued += 1
                assert line[0].bold and line[1].text.startswith("、") and not line[1].bold
    assert glued  # some width breaks right before 時、


def test_plain_text_wraps_and_fits_exactly_as_before():
    sample = "ゲーム終了時、達成した行き先チケットの枚数が一番多いプレイヤーが「ボーナス」（15点）を受け取る。 Bremerhaven to Regensburg"
    for width in (12, 18, 25, 34):
        rich = richtext.fit((Span(sample),), width, 40, 9, 5)
        plain = textfit.fit(sample, width, 40, 9, 5)
        assert rich is not None and plain is not None
        assert ([richtext.glyph_text(line) for line in rich.lines], rich.size) == (list(plain.lines), plain.size)


def test_an_icon_is_one_unbreakable_piece_of_its_advance():
    em = 9 * PT_TO_MM
    spans = parse("ab :locomotive: cd")
    assert richtext.span_width(spans[1], 9, Typeface()) == pytest.approx(richtext.ICON_ADVANCE * em)
    lines = wrap(spans, text_width_mm("ab ", 9) + richtext.ICON_ADVANCE * em + 0.01, 9)
    assert [[s.text for s in line] for line in lines] == [["ab ", ":locomotive:"], ["cd"]]


def test_fit_shrinks_rich_text_down_to_min_size():
    spans = parse("**Bonus**: take one :locomotive: card and two red cards at the end of the game.")
    fitted = richtext.fit(spans, 36, 10, 9, 6)
    assert fitted is not None and 6 <= fitted.size < 9
    assert richtext.fit(spans, 36, 3, 9, 6) is None


# --------------------------------------------------------------------------- drawing

def test_alignment_places_runs_in_mm():
    runs = tuple(parse("ab **cd**"))
    total = text_width_mm("ab ", 9, REGULAR.name) + text_width_mm("cd", 9, BOLD.name)
    for align, left in (("left", 5.0), ("center", 5.0 + (40 - total) / 2), ("right", 45.0 - total)):
        a, b = draw_line(runs, 5.0, 12.0, 9, "#000000", align, 40.0)
        assert (a.x, a.anchor, a.font) == (pytest.approx(left), "start", REGULAR.name)
        assert (b.x, b.text, b.font, b.y) == (pytest.approx(left + text_width_mm("ab ", 9, REGULAR.name)), "cd",
                                              BOLD.name, 12.0)


def test_a_whole_plain_line_keeps_its_anchor_as_card_text_always_had():
    (item,) = draw_line((Span("Berlin"),), 5.0, 12.0, 9, "#112233", "center", 40.0, whole=True)
    assert item == Text(25.0, 12.0, "Berlin", 9, "#112233", "middle", False)


def test_a_builtin_icon_stands_on_the_baseline_at_its_place_in_the_line():
    em = 9 * PT_TO_MM
    (text, icon) = draw_line(tuple(parse("ab :wagon:")), 5.0, 12.0, 9, "#112233")
    assert isinstance(icon, Group)
    side = richtext.ICON_SIZE * em
    left = 5.0 + text_width_mm("ab ", 9) + (richtext.ICON_ADVANCE - richtext.ICON_SIZE) * em / 2
    top = 12.0 - textfit.CAP * side
    body = icon.items[0]  # wagon(): its body is Rect(x + 0.06 s, y + 0.28 s, 0.88 s, 0.40 s)
    assert isinstance(body, Rect) and body.fill == "#112233"
    assert (body.x, body.y, body.w) == (pytest.approx(left + 0.06 * side), pytest.approx(top + 0.28 * side),
                                        pytest.approx(0.88 * side))
    wheel = icon.items[-1]  # its wheels' bottom (0.74 + 0.09 of the side) is on the baseline, within a tenth of an em
    assert abs(wheel.cy + wheel.r - 12.0) < 0.1 * em


def test_a_games_icon_is_an_image_a_capital_high_on_the_baseline():
    em = 9 * PT_TO_MM
    spans = parse("x :ferry:", Markup({}, {"ferry": ("/g/ferry.svg", "ab" * 32)}))
    (_text, image) = draw_line(tuple(spans), 5.0, 12.0, 9, None)
    side = richtext.PICTURE_SIZE * em
    assert isinstance(image, Image)
    assert (image.path, image.digest, image.fit) == ("/g/ferry.svg", "ab" * 32, "fit")
    assert (image.w, image.h) == (pytest.approx(side), pytest.approx(side))
    assert image.y + image.h == pytest.approx(12.0)
    assert image.x == pytest.approx(5.0 + text_width_mm("x ", 9) + (richtext.ICON_ADVANCE * em - side) / 2)


# --------------------------------------------------------------------------- on cards

def _layout(game_dir: Path, text: str, **extra) -> None:
    (game_dir / "layouts").mkdir(exist_ok=True)
    attrs = ", ".join(f"{k}: {v}" for k, v in extra.items())
    (game_dir / "layouts" / "rich.yaml").write_text(
        f'elements:\n  - text: {{x: 4, y: 4, w: 36, h: 40, size: 9, text: "{text}"{", " + attrs if attrs else ""}}}\n',
        encoding="utf-8")


def _face(game) -> tuple:
    deck = game.decks["tickets"]
    context = {"game": game, "deck": deck, "geometry": deck.geometry, "back": deck.back, "card": deck.cards[0]}
    return FaceRenderer(game).face("rich", context, "card", deck.source, "t").items


def test_a_card_text_is_bold_coloured_and_iconed_where_marked(mini):
    _layout(mini, "**{{ card.from.name }}** and [red]{{ card.points }}[/] :locomotive:")
    items = _face(load_game(mini))
    texts = [i for i in items if isinstance(i, Text)]
    assert [(t.text, t.font, t.fill) for t in texts] == [("ベルリン", BOLD.name, "#000000"),
                                                         ("and", REGULAR.name, "#000000"), ("7", REGULAR.name, "#cc2222")]
    assert texts[1].x == pytest.approx(4.0 + text_width_mm("ベルリン", 9, BOLD.name) + text_width_mm(" ", 9))
    assert isinstance(items[-1], Group)


def test_a_card_text_without_markup_is_laid_out_as_before(mini):
    _layout(mini, "{{ card.from.name }} → {{ card.to.name }}", align="center")
    (item,) = _face(load_game(mini))
    assert item == Text(22.0, 4.0 + textfit.cap_height(9), "ベルリン → ハンブルク", 9, "#000000", "middle", False)


def test_an_italic_element_sets_all_its_text_in_the_italic_face(mini):
    _layout(mini, "slanted *and* more", italic="true")
    items = _face(load_game(mini))
    assert [t.italic for t in items] == [fonts.resolve(None, False, True).fake_italic] * 3


def _with_ferry(mini: Path, target: str = "art/ferry.svg") -> None:
    (mini / "art").mkdir()
    (mini / "art" / "ferry.svg").write_bytes(SVG)
    with (mini / "game.yaml").open("a", encoding="utf-8") as f:
        f.write(f"icons:\n  ferry: {target}\n")


def test_a_games_svg_icon_is_an_image_of_its_file_inline_and_as_an_icon_element(mini):
    _with_ferry(mini)
    _layout(mini, "by :ferry: to {{ card.to.name }}")
    game = load_game(mini)
    path = str((mini / "art" / "ferry.svg").resolve())
    assert game.icons == {"ferry": (path, hashlib.sha256(SVG).hexdigest())}
    images = [i for i in _face(game) if isinstance(i, Image)]
    assert [(i.path, i.digest) for i in images] == [(path, hashlib.sha256(SVG).hexdigest())]
    (mini / "layouts" / "rich.yaml").write_text("elements:\n  - icon: {name: ferry, x: 2, y: 3, size: 8}\n",
                                                encoding="utf-8")
    assert _face(load_game(mini)) == (Image(2.0, 3.0, 8.0, 8.0, path, hashlib.sha256(SVG).hexdigest()),)


@pytest.mark.parametrize("target,message", [
    ("../outside.svg", "'../outside.svg' is outside the game folder"),
    ("art/none.svg", "no icon file 'art/none.svg' in the game folder"),
    ("game.yaml", "icon file 'game.yaml' is not an SVG, PNG or JPEG file"),
])
def test_an_icon_file_must_be_a_picture_inside_the_game(mini, run, target, message):
    (mini.parent / "outside.svg").write_bytes(SVG)
    _with_ferry(mini, target)
    with pytest.raises(ContentError) as error:
        load_game(mini)
    assert message in error.value.message
    assert error.value.source.file.name == "game.yaml"
    result = run("check", mini)
    assert result.exit_code == 2 and message in result.output


# --------------------------------------------------------------------------- in the rule sheet

def test_the_rule_sheet_prints_italic_colour_and_icons_from_markdown():
    markdown = "各自 *斜体* と **太字** と [red]赤[/] :locomotive: 10:30 \\:star\\: `:wagon:`\n"
    (paragraph,) = parse_markdown(markdown, Path("rules.md"), markup=COLORS)
    assert isinstance(paragraph, Paragraph)
    assert paragraph.spans == (Span("各自 "), Span("斜体", italic=True), Span(" と "), Span("太字", bold=True),
                               Span(" と "), Span("赤", color="#cc2222"), Span(" "),
                               Span(":locomotive:", icon="locomotive"), Span(" 10:30 :star: :wagon:"))
    pages, _forms = layout_blocks([paragraph], "a4", "", 2)
    items = [i for i in flat(pages[0].items)]
    texts = {t.text: t for t in items if isinstance(t, Text)}
    assert texts["斜体"].italic == fonts.resolve(None, False, True).fake_italic and not texts["各自"].italic
    assert texts["太字"].font == BOLD.name and texts["各自"].font == REGULAR.name and texts["赤"].fill == "#cc2222"
    assert any(isinstance(i, Group) and i.items and isinstance(i.items[0], Rect) for i in items)


