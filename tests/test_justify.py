"""Rule-sheet body text is set justified, as Japanese is printed: every line but a paragraph's last fills
its column, by spacing added after each character (PDF Tc, SVG letter-spacing), and nothing else moves."""
from __future__ import annotations

import re
import zlib

import pytest
from pypdf import PdfReader

from generator import fonts
from generator.fonts import PT_TO_MM, text_width_mm
from generator.layout import richtext
from generator.layout.primitives import Document, Page, Text
from generator.layout.richtext import Typeface, draw_line, justify_spacing, paragraph_ends, wrap
from generator.layout.rulesheet import layout_blocks
from generator.load.rules import parse as parse_markdown
from generator.model.rules import Span
from generator.render.pdf import render_pdf
from generator.render.svg import render_svg
from tests.drawing_lib import text_items

SIZE = 9.5
FACE = fonts.resolve(None, False, False).name
JA = ("チケット・トゥ・ライドのどの地図でも使える拡張です。列車カードの代わりにダイスを振り、"
      "出た目でルートをつなぎます。人数と遊ぶ時間は元のゲームと同じです。")


def _right_edge(texts: list[Text]) -> float:
    last = max(texts, key=lambda t: t.x)
    return last.x + text_width_mm(last.text, last.size, last.font) + last.spacing * (len(last.text) - 1)


def test_a_japanese_line_is_spread_to_its_width_and_the_last_line_is_not():
    width = 60.0
    lines = wrap((Span(JA),), width, SIZE)
    ends = paragraph_ends((Span(JA),), lines)
    assert len(lines) >= 3 and ends == [False] * (len(lines) - 1) + [True]
    for runs, end in zip(lines, ends):
        texts = list(text_items(draw_line(runs, 10.0, 20.0, SIZE, "#000000", "left", width, justify=not end)))
        if end:
            assert all(t.spacing == 0 for t in texts)
            assert _right_edge(texts) < 10.0 + width
        else:
            assert texts[0].spacing > 0
            assert _right_edge(texts) == pytest.approx(10.0 + width, abs=0.01)   # flush with the column


def test_latin_lines_and_lines_far_short_stay_ragged():
    latin = (Span("Every line of this paragraph is set in Latin letters only"),)
    assert justify_spacing(latin, 200.0, SIZE) == 0.0
    short = (Span("あいう"),)
    em = SIZE * PT_TO_MM
    assert justify_spacing(short, 3 * em + richtext.JUSTIFY_MAX_EM * em + 1, SIZE) == 0.0   # would gape
    assert justify_spacing(short, 3 * em + 1.0, SIZE) == pytest.approx(0.5, abs=1e-3)


def test_a_hard_line_break_ends_a_paragraph_too():
    spans = (Span("あいうえおかきくけこ\nさしすせそたちつてと"),)
    lines = wrap(spans, 4.5 * SIZE * PT_TO_MM, SIZE)
    ends = paragraph_ends(spans, lines)
    texts = ["".join(r.text for r in line) for line in lines]
    assert len(texts) >= 4 and "".join(texts) == "あいうえおかきくけこさしすせそたちつてと"
    assert ends == [text.endswith("こ") or i == len(texts) - 1 for i, text in enumerate(texts)]


def test_bold_runs_and_icons_keep_their_order_and_the_line_still_ends_flush():
    spans = (Span("山札から"), Span("2枚", bold=True), Span("引きます。表向きのカードを取ったら、すぐに山札から1枚めくって補充します。"))
    width = 50.0
    typeface = Typeface()
    lines = wrap(spans, width, SIZE, typeface)
    first = list(text_items(draw_line(lines[0], 0.0, 10.0, SIZE, "#000000", "left", width, typeface, justify=True)))
    assert [t.x for t in first] == sorted(t.x for t in first) and len(first) >= 3
    assert _right_edge(first) == pytest.approx(width, abs=0.02)


def test_rule_sheet_paragraphs_are_justified_and_table_cells_are_not():
    blocks = parse_markdown(JA + "\n\n| 色 | 枚数 |\n|:--|--:|\n| " + JA[:30] + " | 6 |\n", "rules.md")
    pages, _ = layout_blocks(blocks, "a4", "", 2)
    texts = list(text_items(pages[0].items))
    spread = [t for t in texts if t.spacing]
    assert spread and all(t.text in JA for t in spread)
    assert all(not t.spacing for t in texts if t.size < 9)   # table text (smaller) is never spread


def test_pdf_sets_character_spacing_and_sets_it_back(tmp_path):
    doc = Document("t", [Page(100, 50, [Text(5, 10, "あいう", 10, spacing=0.5), Text(5, 20, "かきく", 10)])], {})
    path = tmp_path / "j.pdf"
    render_pdf(doc, path)
    stream = PdfReader(path).pages[0].get_contents().get_data().decode("latin-1")
    tc = re.findall(r"([\d.]+) Tc", stream)
    assert tc[0] != "0" and float(tc[0]) == pytest.approx(0.5 * 72 / 25.4, abs=1e-3)
    assert tc[-1] == "0"   # Tc is text state and outlives BT/ET: the next text must not inherit it
    assert stream.index(f"{tc[-1]} Tc") < stream.rindex("BT")


def test_svg_writes_letter_spacing(tmp_path):
    page = Page(100, 50, [Text(5, 10, "あいう", 10, spacing=0.5)])
    path = tmp_path / "j.svg"
    render_svg(Document("t", [page], {}), page, path)
    assert 'letter-spacing="0.5"' in path.read_text(encoding="utf-8")


def test_a_text_without_spacing_keeps_its_old_repr():
    """Card forms are named by a digest of their items' repr: the new field must not rename them."""
    assert "spacing" not in repr(Text(1, 2, "a", 3)) and "spacing=0.5" in repr(Text(1, 2, "a", 3, spacing=0.5))
    assert zlib.crc32(repr(Text(1, 2, "a", 3, font=FACE)).encode()) == zlib.crc32(
        f"Text(x=1, y=2, text='a', size=3, fill='#000000', anchor='start', bold=False, font='{FACE}', "
        "italic=False)".encode())


def test_a_lone_last_character_takes_the_piece_before_it_down():
    """"す。" alone on a paragraph's last line is avoided in running text: "です。" goes down together."""
    text = "ゲームが終わったとき、合計点がいちばん多い人の勝ちです。"
    width = text_width_mm(text[:-2], SIZE, FACE) + 0.1   # everything but "す。" fits on the first line
    assert _lines(wrap((Span(text),), width, SIZE)) == [text[:-2], "す。"]
    assert _lines(wrap((Span(text),), width, SIZE, no_orphan=True)) == [text[:-3], "です。"]
    # a last line of two characters is no orphan: it stays as the plain wrap left it
    two = text[:-1] + "ね。"
    assert _lines(wrap((Span(two),), width, SIZE, no_orphan=True)) == _lines(wrap((Span(two),), width, SIZE))


def _lines(lines):
    return ["".join(r.text for r in line) for line in lines]
