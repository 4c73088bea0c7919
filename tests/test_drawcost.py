"""Drawing a card face into a PDF and stamping its page (issue 14): what is measured and written per card.

Counts, not times: the stamp measures only the faces that could reach the lines it may take; a face placed as a
form XObject writes its q/cm/Do/Q without saving and restoring the canvas's state in Python."""
from __future__ import annotations

import zlib
from pathlib import Path

from pypdf import PdfReader
from reportlab.pdfgen import canvas as rl_canvas

from generator import fonts
from generator.layout import stamp
from generator.layout.primitives import Document, Form, Line, Page, Rect, Text, Use

A4 = (210.0, 297.0)


def _face(name: str, colour: str) -> Form:
    """A card with no background rect (its boxes are its items', not one box for the whole card)."""
    items = (Rect(2, 2, 40, 20, fill=colour), Text(5, 30, name, 8, "#000000"),
             Line(0, 66, 44, 66, "#333333", 0.3))
    return Form(name, items, (0, 0, 44, 67))


def _sheet(near_bottom: bool) -> Document:
    """Three cards in the middle of an A4 page; with ``near_bottom`` a fourth whose box reaches the stamp's line."""
    forms = {f"f{i}": _face(f"f{i}", c) for i, c in enumerate(("#ff0000", "#00ff00", "#0000ff", "#888888"))}
    items: list = [Use("f0", 20, 100), Use("f1", 80, 100), Use("f2", 140, 100)]
    if near_bottom:
        items.append(Use("f3", 5, A4[1] - 67 - 5))   # its line at y = 66 of 67: 6 mm above the paper's edge
    items.append(Line(0, 5, 210, 5, "#000000", 0.1))   # a mark: always measured
    return Document("t", [Page(*A4, items)], forms)


def _all_boxes_stamp(page: Page, forms: dict, text: str, typeset) -> list:
    """The stamp as it was worked out before: every item's boxes measured."""
    face = typeset.face(text)
    width = fonts.text_width_mm(text, stamp.STAMP_PT, face.name)
    up, down = stamp.STAMP_PT * stamp.ASCENT * fonts.PT_TO_MM, stamp.STAMP_PT * stamp.DESCENT * fonts.PT_TO_MM
    margin = stamp.PRINTER_MARGIN
    everything = [b for item in page.items for b in stamp.item_boxes(item, forms)]
    for baseline in (page.height - margin - down - 0.2, margin + up + 0.2):
        x = stamp.free_x(everything, baseline - up, baseline + down, width, margin + 0.2, page.width - margin - 0.2)
        if x is not None:
            return [Text(x, baseline, text, stamp.STAMP_PT, stamp.STAMP_INK, font=face.name)]
    raise AssertionError("no place")


def test_the_stamp_measures_only_faces_that_reach_its_lines(monkeypatch):
    typeset = fonts.Typeset(None)
    asked: list[str] = []
    form_boxes = stamp.form_boxes

    def counted(name, forms, cache=None):
        asked.append(name)
        return form_boxes(name, forms, cache)
    monkeypatch.setattr(stamp, "form_boxes", counted)
    for near in (False, True):
        doc = _sheet(near)
        asked.clear()
        got = stamp.stamper(doc, "stamp 1.0", typeset)(doc.pages[0])
        # the three cards in the middle are not measured; the one by the bottom edge is
        assert asked == (["f3"] if near else [])
        asked.clear()
        assert got == _all_boxes_stamp(doc.pages[0], doc.forms, "stamp 1.0", typeset)
    # the card by the edge moved the stamp: it is right of the card's line, not at the left margin
    assert got[0].x > 5 + 44


def test_a_face_reaching_the_stamp_line_by_a_hair_is_still_measured():
    typeset = fonts.Typeset(None)
    doc = _sheet(True)
    page = doc.pages[0]
    up = stamp.STAMP_PT * stamp.ASCENT * fonts.PT_TO_MM
    down = stamp.STAMP_PT * stamp.DESCENT * fonts.PT_TO_MM
    bottom = page.height - stamp.PRINTER_MARGIN - down - 0.2
    # the form's box ends just inside the clearance above the stamp's line: measured (a Rect reaching its edge)
    edge = bottom - up - stamp.CLEARANCE + 0.01
    form = Form("f3", (Rect(0, 0, 44, 67, fill="#123456"),), (0, 0, 44, 67))
    doc.forms["f3"] = form
    page.items[3] = Use("f3", 5, edge - 67)
    got = stamp.stamper(doc, "stamp 1.0", typeset)(page)
    assert got == _all_boxes_stamp(page, doc.forms, "stamp 1.0", typeset)
    assert got[0].x > 5 + 44


def _count_saves(monkeypatch) -> list[int]:
    saves = [0]
    save = rl_canvas.Canvas.saveState

    def counted(self):
        saves[0] += 1
        save(self)
    monkeypatch.setattr(rl_canvas.Canvas, "saveState", counted)
    return saves


def _content(path: Path) -> str:
    page = PdfReader(str(path)).pages[0]
    return page.get_contents().get_data().decode("latin-1")


def test_a_form_placed_many_times_writes_q_cm_do_q_without_saving_state(tmp_path, monkeypatch):
    from generator.render.pdf import render_pdf

    saves = _count_saves(monkeypatch)
    face = Form("card", (Rect(0, 0, 44, 67, fill="#aa0000"),), (0, 0, 44, 67))
    doc = Document("t", [Page(*A4, [Use("card", 10, 10), Use("card", 60, 10), Use("card", 110, 10)])],
                   {"card": face})
    render_pdf(doc, tmp_path / "a.pdf")
    assert saves[0] == 0   # three uses, no saveState (the form's own drawing sets no bold text)
    text = _content(tmp_path / "a.pdf")
    assert text.count(" Do\nQ") == 3 and text.count("q\n1 0 0 1 ") == 3
    assert "q\n1 0 0 1 28.34646 " in text   # 10 mm


def test_a_face_placed_once_is_drawn_in_place_with_one_saved_state(tmp_path, monkeypatch):
    from generator.render.pdf import render_pdf

    saves = _count_saves(monkeypatch)
    faces = {f"f{i}": Form(f"f{i}", (Rect(0, 0, 44, 67, fill=f"#0000{i}0"),), (0, 0, 44, 67)) for i in range(3)}
    doc = Document("t", [Page(*A4, [Use(f"f{i}", 10 + 50 * i, 10) for i in range(3)])], faces)
    render_pdf(doc, tmp_path / "b.pdf")
    assert saves[0] == 3   # one q/Q per face drawn in place, around its clip and its shift
    text = _content(tmp_path / "b.pdf")
    assert text.count(" re W* n\n1 0 0 1 ") == 3 and "Do" not in text
    raw = (tmp_path / "b.pdf").read_bytes()
    assert zlib is not None and raw.startswith(b"%PDF-1.4")


def test_a_shape_shared_by_every_face_is_found_by_identity_not_hashed_per_face(tmp_path, monkeypatch):
    from generator.render import pdf

    frame = Rect(0, 0, 44, 67, fill="#204060")   # one object in every face, as a layout's constant element is
    hashed, inside = [0], [False]
    real, shape = Rect.__hash__, pdf._Painter._shape

    def counted(self):
        hashed[0] += inside[0]   # by the shape's drawing only (finding a face's pictures hashes the face too)
        return real(self)

    def drawn(self, item):
        inside[0] = True
        try:
            shape(self, item)
        finally:
            inside[0] = False
    monkeypatch.setattr(Rect, "__hash__", counted)
    monkeypatch.setattr(pdf._Painter, "_shape", drawn)

    def render(n: int) -> int:
        pdf._SHAPE_CODE.clear()
        pdf._SHAPE_BY_ID.clear()
        pdf._DRAWINGS.clear()
        hashed[0] = 0
        faces = {f"n{n}-{i}": Form(f"n{n}-{i}", (frame, Text(5, 30, str(i), 8)), (0, 0, 44, 67)) for i in range(n)}
        doc = Document("t", [Page(*A4, [Use(name, 10, 10) for name in faces])], faces)
        pdf.render_pdf(doc, tmp_path / f"{n}.pdf")
        return hashed[0]
    # hashed when first met (and kept) only: 2 faces or 20, the same count
    assert render(2) == render(20) == 2


def test_a_label_shared_by_every_face_is_found_by_identity_not_hashed_per_face(tmp_path, monkeypatch):
    from generator.render import pdf

    label = Text(22, 10, "Route", 8, "#222222", "middle")   # one object in every face
    hashed, inside = [0], [False]
    real, parts = Text.__hash__, pdf._text_parts

    def counted(self):
        hashed[0] += inside[0]
        return real(self)

    def measured(painter, t):
        inside[0] = True
        try:
            return parts(painter, t)
        finally:
            inside[0] = False
    monkeypatch.setattr(Text, "__hash__", counted)
    monkeypatch.setattr(pdf, "_text_parts", measured)

    def render(n: int) -> int:
        pdf._TEXT_PARTS.clear()
        pdf._TEXT_PARTS_BY_ID.clear()
        pdf._DRAWINGS.clear()
        hashed[0] = 0
        faces = {f"t{n}-{i}": Form(f"t{n}-{i}", (label, Rect(0, 0, 4, 4, fill="#000000")), (0, 0, 44, 67))
                 for i in range(n)}
        doc = Document("t", [Page(*A4, [Use(name, 10, 10) for name in faces])], faces)
        pdf.render_pdf(doc, tmp_path / f"{n}.pdf")
        return hashed[0]
    assert render(2) == render(20) == 2
