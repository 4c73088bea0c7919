"""What a build does per card beyond the deck PDFs (issue 14, branch pnpcost): counts, not times.

A face the deck's file drew is placed in the print-and-play file from its drawing's program (its operators, and its
texts encoded in that file's own subsets), the same bytes as drawing it item by item; a page the same as one packed
before in its file is compressed once; a layout never written (a check's, or a build's of other outputs) makes no
print-shop pages; the stamp does not measure a sheet's cards one by one; the sandbox's join of plain values skips
Jinja's wrappers; a finding's path is not parsed again."""
from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import StrictUndefined
from markupsafe import Markup
from pypdf import PdfReader

from generator import errors, fonts
from generator.jinja_sandbox import BoundedSandbox
from generator.layout import stamp
from generator.layout.primitives import Document, Form, Group, Line, Page, Rect, Text, Use
from generator.render import pdf

A4 = (210.0, 297.0)


def _faces() -> dict[str, Form]:
    """Single-use faces: shapes, texts in changing colours (one new to the file, one empty), and two a program
    does not cover (a bold text, a group of a text), drawn item by item in both files."""
    frame = Rect(0, 0, 44, 67, fill="#f3f1ea", stroke="#222222", stroke_width=0.3)
    faces = {}
    for i in range(7):
        items: tuple = (frame, Text(5, 10, f"Card {i}", 8, "#222222"), Text(5, 20, "Köln → Zürich", 6, "#aa0000"),
                        Line(2, 30, 40, 30, "#333333", 0.4), Text(5, 40, "", 6, "#aa0000"),
                        Text(22, 50, f"{i * 7}", 9, "#222222", "middle"))
        if i == 5:
            items += (Text(5, 60, "bold", 7, "#000000", bold=True),)
        if i == 6:
            items += (Group((Text(5, 60, "grouped", 7, "#000000"),), dx=1.0, dy=1.0),)
        faces[f"pc-{i}"] = Form(f"pc-{i}", items, (0, 0, 44, 67))
    return faces


def _docs(marks: bool = True) -> tuple[Document, Document]:
    faces = _faces()
    items: list = [Line(5, 5, 9, 5, "#000000", 0.1), Line(5, 292, 9, 292, "#000000", 0.1)] if marks else []
    items += [Use(name, 10 + 50 * (n % 3), 10 + 70 * (n // 3)) for n, name in enumerate(faces)]
    deck = Document("deck", [Page(*A4, items)], dict(faces))
    # the print-and-play file prints the deck's page (the same items) after a cover with a text of its own
    cover = Page(*A4, [Text(20, 20, "Cover: Zürich", 12, "#000000")])
    whole = Document("print and play", [cover, Page(*A4, items)], dict(faces))
    return deck, whole


def test_a_face_drawn_in_the_decks_file_is_placed_in_the_print_and_play_file_from_its_program(tmp_path, monkeypatch):
    placed = []
    real = pdf._Painter._placed

    def counted(self, program, drawing, head):
        placed.append(len(program))
        return real(self, program, drawing, head)
    monkeypatch.setattr(pdf._Painter, "_placed", counted)
    deck, whole = _docs()
    pdf._DRAWINGS.clear()
    pdf._RECENT.clear()
    pdf.render_pdfs_together((whole, tmp_path / "pnp.pdf", None), [(deck, tmp_path / "deck.pdf", None)])
    # five faces from their programs (the bold text and the group's: drawn item by item), in the second file only
    assert len(placed) == 5
    together = (tmp_path / "pnp.pdf").read_bytes(), (tmp_path / "deck.pdf").read_bytes()
    # each file alone, every face drawn item by item (nothing kept): the same bytes
    placed.clear()
    for doc, name in ((whole, "pnp-alone.pdf"), (deck, "deck-alone.pdf")):
        pdf._DRAWINGS.clear()
        pdf._RECENT.clear()
        pdf.render_pdf(doc, tmp_path / name)
    assert placed == []
    assert together == ((tmp_path / "pnp-alone.pdf").read_bytes(), (tmp_path / "deck-alone.pdf").read_bytes())
    # the two files encode the same text in their own subsets: the cover's text came first in the second file
    pages = [PdfReader(tmp_path / n).pages[-1].get_contents().get_data() for n in ("deck.pdf", "pnp.pdf")]
    assert pages[0] != pages[1] and pages[0].count(b" Tj") == pages[1].count(b" Tj")


def test_a_program_is_not_used_while_an_opacity_is_in_force(tmp_path, monkeypatch):
    """An opacity set before the face (a picture's) makes its colours write more: drawn item by item then."""
    deck, _whole = _docs(marks=False)
    pdf._DRAWINGS.clear()
    pdf._RECENT.clear()
    pdf.render_pdf(deck, tmp_path / "first.pdf")   # every drawing kept
    placed = []
    monkeypatch.setattr(pdf._Painter, "_placed", lambda self, *a: placed.append(a))
    painter = pdf.PdfWriter(deck, tmp_path / "second.pdf").painter
    painter.begin_page(A4[1])
    painter.c._extgstate.set(painter.c, "ca", 0.5)
    painter.draw(deck.pages[0].items[0])
    assert placed == []
    painter.c._extgstate.set(painter.c, "ca", 1)
    painter.c._extgstate._d.clear()
    painter.draw(deck.pages[0].items[1])
    assert len(placed) == 1


def test_a_page_the_same_as_one_packed_before_in_its_file_is_compressed_once(tmp_path):
    faces = {"back": Form("back", (Rect(0, 0, 44, 67, fill="#123456"), Text(5, 5, "Back", 8)), (0, 0, 44, 67))}
    fronts = [Page(*A4, [Use("back", 10, 10), Text(100, 100, f"front {n}", 8)]) for n in range(4)]
    backs = [Page(*A4, [Use("back", 10, 10), Use("back", 60, 10)]) for _ in range(4)]
    doc = Document("d", [p for pair in zip(fronts, backs) for p in pair], faces)
    before = list(pdf._PACKED_COUNTS)
    pdf.render_pdf(doc, tmp_path / "d.pdf")
    encoded, reused = pdf._PACKED_COUNTS[0] - before[0], pdf._PACKED_COUNTS[1] - before[1]
    assert (encoded, reused) == (5, 3)   # four fronts and the first back; three backs as it
    streams = [page.get_contents().get_data() for page in PdfReader(tmp_path / "d.pdf").pages]
    assert len(set(streams[1::2])) == 1 and len(set(streams[0::2])) == 4
    # two files drawn at once keep their own: the same page's text is the other file's codes there
    deck, whole = _docs()
    before = list(pdf._PACKED_COUNTS)
    pdf.render_pdfs_together((whole, tmp_path / "pnp.pdf", None), [(deck, tmp_path / "deck.pdf", None)])
    assert pdf._PACKED_COUNTS[1] == before[1]


def test_a_layout_never_written_makes_no_print_shop_pages(mini, tmp_path, monkeypatch, run):
    from generator.load.game import load_game
    from generator.writers import cards, lay_out

    made = []
    real = cards.shop_pages
    monkeypatch.setattr(cards, "shop_pages", lambda *a: (made.append(a[2].deck.id), real(*a))[1])
    kept = lay_out(load_game(mini), "a4")
    decks = len(made)
    assert decks >= 1
    made.clear()
    dropped = lay_out(load_game(mini), "a4", keep=False)
    assert made == []
    # the same files named, with the same counts (a layout that is not kept never counted the print-shop pages)
    shop = [w for w in kept.result.files if w.kind == "print shop"]
    assert [(w.path, w.kind) for w in dropped.result.files] == [(w.path, w.kind) for w in kept.result.files]
    assert shop and [w.pages for w in dropped.result.files if w.kind == "print shop"] == [0]
    # a build of the default outputs checks with a layout it does not keep; a build of everything writes the check's
    made.clear()
    assert run("build", mini, "--no-cache", "--out", tmp_path / "out").exit_code == 0
    assert made == []
    assert run("build", mini, "--all", "--no-cache", "--out", tmp_path / "all").exit_code == 0
    assert len(made) == decks
    assert (tmp_path / "all" / "mini" / "mini-print-shop.pdf").exists()


def test_the_stamp_finds_a_sheets_cards_clear_of_its_lines_by_their_forms_box(monkeypatch):
    forms = {f"f{i}": Form(f"f{i}", (Rect(0, 0, 44, 67, fill="#ff0000"),), (0, 0, 44, 67)) for i in range(9)}
    marks = [Line(10, 3, 10, 7, "#000000", 0.1), Line(10, 290, 10, 294, "#000000", 0.1)]
    pages = [Page(*A4, [*marks, *[Use(f"f{i}", 20 + 60 * (i % 3), 20 + 80 * (i // 3)) for i in range(9)]])
             for _ in range(5)]
    pages.append(Page(*A4, [*marks, Use("f0", 20, A4[1] - 67 - 4)]))   # a card by the bottom edge: measured
    doc = Document("d", pages, forms)
    asked = []
    may_touch = stamp._may_touch
    monkeypatch.setattr(stamp, "_may_touch", lambda item, *a: (asked.append(type(item).__name__),
                                                               may_touch(item, *a))[1])
    typeset = fonts.Typeset(None)
    stamper = stamp.stamper(doc, "stamp 1.0", typeset)
    assert stamper is not None
    stamps = [stamper(page) for page in pages]
    # the two marks once (kept by identity), the card by the edge once; none of the 45 cards in the middle
    assert sorted(asked) == ["Line", "Line", "Use"]
    asked.clear()
    assert stamps == [stamp.stamp_items(page, "stamp 1.0", forms, typeset) for page in pages]   # no cache: all measured
    assert asked.count("Use") == 46


@pytest.mark.parametrize("text, values, expected", [
    ("xs | join(' / ')", {"xs": ["Berlin", "Köln"]}, "Berlin / Köln"),
    ("xs | join", {"xs": ["a", "b"]}, "ab"),
    ("xs | join(', ')", {"xs": [1, 2.5, None]}, "1, 2.5, None"),
    ("xs | join(0)", {"xs": ["a", "b"]}, "a0b"),
    ("xs | join(', ', attribute='n')", {"xs": [{"n": "a"}, {"n": "b"}]}, "a, b"),
    ("xs | join(d='-')", {"xs": ["a", "b"]}, "a-b"),
    ("xs | join('+')", {"xs": ("a", Markup("<b>"))}, "a+<b>"),
])
def test_the_sandboxs_join_is_jinjas(text, values, expected):
    env = BoundedSandbox(undefined=StrictUndefined)
    assert env.compile_expression(text)(**values) == expected
    escaping = BoundedSandbox(undefined=StrictUndefined, autoescape=True)   # Jinja's own join: escapes
    got = escaping.from_string("{{ " + text + " }}").render(**values)
    assert got == escaping.from_string("{{ " + text.replace("join", "list | join") + " }}").render(**values)


def test_the_sandboxs_join_still_refuses_a_join_too_long():
    env = BoundedSandbox(undefined=StrictUndefined)
    with pytest.raises(Exception, match="join"):
        env.compile_expression("xs | join(', ')")(xs=["x" * 1000] * 1100)   # 1.1 million characters
    with pytest.raises(Exception, match="join"):
        env.compile_expression("xs | join(s)")(xs=["x"] * 3, s="y" * 600_000)


def test_a_findings_path_is_not_parsed_again(monkeypatch):
    seen = []
    shown = errors._shown_path
    monkeypatch.setattr(errors, "_shown_path", lambda path, working: (seen.append(path), shown(path, working))[1])
    path = Path("content/ttr-germany/decks.yaml")
    assert str(errors.Source(path, 3)) == str(errors.Source("content/ttr-germany/decks.yaml", 3))
    assert seen[0] is path and seen[1] == path and seen[1] is not path


def test_a_decks_sheets_share_their_crop_marks_distances():
    from generator.check import dry
    from generator.layout.sheets import duplex_sheets
    from generator.model.game import CardGeometry

    geometry = CardGeometry(44, 67, 3, 3)
    pages = duplex_sheets([f"f{i}" for i in range(40)], ["back"] * 40, geometry, "a4", (1.0, 0.5))
    known: dict = {}
    assert [dry.mark_edges(page, known) for page in pages] == [dry.mark_edges(page) for page in pages]
    # the same lines on every full sheet: each line's distance worked out once per paper
    lines = {id(item) for page in pages for item in page.items if isinstance(item, Line)}
    assert len(known) == len(lines) < sum(isinstance(item, Line) for page in pages for item in page.items)
    assert dry.nearest_marks(pages) == [(n, min(dry.mark_edges(page))) for n, page in enumerate(pages, start=1)]
