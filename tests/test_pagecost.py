"""Writing the pages of a PDF (issue 14): what is done once per file, per run of shapes or per item, not per page.

Counts, not times: every page dictionary and page stream is written from parts kept per file (the bytes ReportLab's
own ``format`` writes); a sheet's crop marks are drawn once, then written again as one run; the stamp looks each
shared mark up once; a form placed as an XObject already defined is not fetched again."""
from __future__ import annotations

from pathlib import Path

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen import canvas as rl_canvas

from generator import fonts
from generator.layout import stamp
from generator.layout.primitives import Document, Form, Line, Page, Rect, Text, Use
from generator.layout.sheets import crop_marks, grid_for
from generator.model.game import CardGeometry
from generator.render import pdf

A4 = (210.0, 297.0)


def _marks() -> list:
    """A 3 × 3 sheet's crop marks (24 lines), one list shared by every sheet, as ``layout.sheets`` shares it."""
    return crop_marks(grid_for(CardGeometry(44, 67, 3, 3), "a4"))


def _doc(pages: int, marks: list | None = None) -> Document:
    """``pages`` sheets: the shared marks, a card back placed on each (an XObject), a face of its own drawn in place,
    a trim and bleed box on the odd pages and a landscape page in the middle."""
    marks = _marks() if marks is None else marks
    forms = {"back": Form("back", (Rect(0, 0, 44, 67, "#2c5d9c"),), (0, 0, 44, 67))}
    items_of = []
    for n in range(pages):
        face = Form(f"face-{n}", (Rect(0, 0, 44, 67, "#fbf7ee"), Text(22, 30, f"card {n} (é)", 8, "#222222",
                                                                      "middle")), (0, 0, 44, 67))
        forms[face.name] = face
        items_of.append([*marks, Use("back", 20, 20), Use("back", 80, 20), Use(face.name, 140, 20)])
    result = []
    for n, items in enumerate(items_of):
        width, height = (A4[1], A4[0]) if n == pages // 2 else A4
        boxed = n % 2 == 1
        result.append(Page(width, height, items, (5, 5, width - 10, height - 10) if boxed else None,
                           (2, 2, width - 4, height - 4) if boxed else None))
    return Document("pages", result, forms, [("part one", 0), ("part two", pages - 1)])


def _written(doc: Document, path: Path, stamped: bool = False) -> bytes:
    typeset = fonts.Typeset(None)
    pdf.render_pdf(doc, path, stamp.stamper(doc, "pnpgen test", typeset) if stamped else None)
    return path.read_bytes()


def test_every_page_dictionary_and_stream_is_written_from_kept_parts_with_reportlabs_bytes(tmp_path, monkeypatch):
    doc = _doc(7)
    made: list = []
    page_bytes = pdf._page_bytes
    monkeypatch.setattr(pdf, "_page_bytes", lambda page, document: made.append(page_bytes(page, document)) or made[-1])
    fast = _written(doc, tmp_path / "fast.pdf", stamped=True)
    assert len(made) == 7 and all(made)   # none left to ReportLab's own format
    # ReportLab's own page dictionaries and streams: the same file
    monkeypatch.setattr(pdf, "_page_bytes", lambda page, document: None)
    monkeypatch.setattr(pdf._PageStream, "format", pdfdoc.PDFStream.format)
    assert _written(doc, tmp_path / "slow.pdf", stamped=True) == fast


def _canvas_page(path: Path) -> rl_canvas.Canvas:
    c = rl_canvas.Canvas(str(path), invariant=1, pageCompression=1)
    c.setPageDuration(3)          # a key pnpgen's pages never have
    c.setFillAlpha(0.5)           # an ExtGState in the page's resources
    c.rect(10, 10, 100, 100, fill=1)
    c.showPage()
    return c


def test_a_page_the_kept_parts_do_not_cover_is_written_by_reportlab_itself(tmp_path, monkeypatch):
    plain = _canvas_page(tmp_path / "plain.pdf")
    plain.save()
    packed = _canvas_page(tmp_path / "packed.pdf")
    pdf._pack(packed)
    assert type(packed._doc.Pages.pages[-1]) is pdf._Page
    asked: list = []
    page_bytes = pdf._page_bytes
    monkeypatch.setattr(pdf, "_page_bytes", lambda page, document: asked.append(page_bytes(page, document)) or None)
    pdf._save(packed)
    assert asked == [None]
    assert (tmp_path / "packed.pdf").read_bytes() == (tmp_path / "plain.pdf").read_bytes()


def test_a_sheets_crop_marks_are_drawn_once_then_written_again_as_one_run(tmp_path, monkeypatch):
    pdf._RUNS.clear()
    pdf._SHAPE_BY_ID.clear()
    marks = _marks()
    assert len(marks) == 24
    doc = _doc(6, marks)
    drawn: list = []
    shape = pdf._Painter._shape
    monkeypatch.setattr(pdf._Painter, "_shape", lambda self, item: drawn.append(item) or shape(self, item))
    runs = _written(doc, tmp_path / "runs.pdf")
    marks_drawn = [item for item in drawn if type(item) is Line]
    # 6 pages (one landscape: another page height, so its marks are drawn for it too), one face each
    assert len(marks_drawn) == 2 * 24
    drawn.clear()
    _written(doc, tmp_path / "again.pdf")   # another file printing the same sheets: no mark drawn again
    assert [item for item in drawn if type(item) is Line] == []
    # shape by shape: the same bytes
    monkeypatch.setattr(pdf._Painter, "_run", lambda self, run: [self._shape(item) for item in run] and None)
    pdf._RUNS.clear()
    assert _written(doc, tmp_path / "shapes.pdf") == runs


def test_the_stamp_looks_each_shared_mark_up_once_and_finds_the_same_place(monkeypatch):
    typeset = fonts.Typeset(None)
    doc = _doc(8)
    looked: list = []
    page_boxes = stamp._page_boxes
    monkeypatch.setattr(stamp, "_page_boxes", lambda item, forms, cache: looked.append(item) or page_boxes(
        item, forms, cache))
    cache: dict = {}
    kept = [stamp.stamp_items(page, "pnpgen test", doc.forms, typeset, cache) for page in doc.pages]
    # portrait and landscape sheets: each mark looked up once per paper (the stamp's lines differ), not per page
    assert sum(1 for item in looked if type(item) is Line) == 2 * 24
    monkeypatch.setattr(stamp, "_page_boxes", page_boxes)
    assert kept == [stamp.stamp_items(page, "pnpgen test", doc.forms, typeset, None) for page in doc.pages]


class _Counted(dict):
    asked: list

    def __getitem__(self, name):
        self.asked.append(name)
        return super().__getitem__(name)


def test_a_form_placed_again_as_an_xobject_is_not_fetched_again(tmp_path):
    doc = _doc(5)
    forms = _Counted(doc.forms)
    forms.asked = []
    writer = pdf.PdfWriter(Document(doc.title, doc.pages, forms, doc.outline), tmp_path / "x.pdf")
    forms.asked.clear()
    writer.finish()
    # the back (placed ten times) once, to define it; each face (placed once, drawn in place) once
    assert sorted(forms.asked) == sorted(["back", *(f"face-{n}" for n in range(5))])
