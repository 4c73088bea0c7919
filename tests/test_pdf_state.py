"""The PDF renderer paints every primitive with the width and colours it asked for, on every page.

The renderer caches the graphics state (line width, fill and stroke colour) so it does not
repeat ``w``/``rg``/``RG`` a thousand times; a cache that outlives its content stream paints
with the previous page's (or the default 1 pt) width. These tests read the content streams of
the built PDFs back with pypdf, run the graphics-state operators (q/Q, w, rg/RG, Tr, and form
XObjects through Do, which run in the state in force where they are placed), and compare the
state in force at every painting operator with the primitive that asked for it.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from generator import fonts
from generator.cli import main
from generator.layout import sheets
from generator.layout.primitives import Circle, Document, Group, Line, Polygon, Rect, Text, Use
from generator.layout.stamp import with_stamp
from generator.render.pdf import render_pdf
from generator.writers import context as build_context

ROOT = Path(__file__).resolve().parents[1]
MM = 72 / 25.4

# -- what the document asks for ---------------------------------------------------------


def _rgb(color):
    return None if color is None else tuple(int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))


def expected_paints(doc: Document, items) -> list[tuple]:
    """(what, stroke width in pt or None, stroke rgb or None, fill rgb or None) per painting operator,
    in drawing order, forms expanded where they are placed (as a PDF viewer runs them)."""
    out: list[tuple] = []
    for item in items:
        if isinstance(item, Group):
            out += expected_paints(doc, item.items)
        elif isinstance(item, Use):
            out += expected_paints(doc, doc.forms[item.name].items)
        elif isinstance(item, (Rect, Circle, Polygon)):
            closed = getattr(item, "closed", True)
            if isinstance(item, Polygon) and len(item.points) < 2:
                continue
            fill = item.fill if closed else None
            if fill or item.stroke:
                out.append((type(item).__name__, item.stroke_width * MM if item.stroke else None,
                            _rgb(item.stroke), _rgb(fill)))
        elif isinstance(item, Line):
            out.append(("Line", item.stroke_width * MM, _rgb(item.stroke), None))
        elif isinstance(item, Text):
            out.append(("Text", item.size * fonts.BOLD_STROKE * MM if item.bold else None,
                        _rgb(item.fill) if item.bold else None, _rgb(item.fill)))
    return out


# -- what the PDF paints ------------------------------------------------------------------

_STROKE = {"S", "s"}
_FILL = {"f", "F", "f*"}
_BOTH = {"B", "B*", "b", "b*"}
_TEXT = {"Tj", "TJ", "'", '"'}


# strings (ReportLab escapes parentheses in them), hex strings, names, numbers, arrays, operators
_TOKEN = re.compile(rb"\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>|/[^\s/\[\]()<>]+|[-+]?(?:\d+\.?\d*|\.\d+)"
                    rb"|[\[\]]|[A-Za-z][A-Za-z0-9*]*|['\"]")


def operations(stream) -> list[tuple[list[bytes], str]]:
    """(operands, operator) of a content stream (pypdf's ContentStream is 10 times slower)."""
    ops, operands = [], []
    for token in _TOKEN.findall(stream.get_data()):
        first = token[:1]
        if first.isalpha() or first in (b"'", b'"'):
            ops.append((operands, token.decode()))
            operands = []
        else:
            operands.append(token)
    return ops


def painted(stream, resources, state: dict | None = None, forms: bool = True, cache=None) -> list[tuple]:
    """(stroke width, stroke rgb, fill rgb, strokes?, fills?) at each painting operator of a content
    stream, and of the forms it places (``forms=False``: only the stream's own, outside any q/Q)."""
    state = dict(state or {"w": 1.0, "RG": (0.0, 0.0, 0.0), "rg": (0.0, 0.0, 0.0), "Tr": 0})
    cache = {} if cache is None else cache
    stack: list[dict] = []
    out: list[tuple] = []
    shown: list[tuple] = []
    xobjects = resources.get("/XObject", {}) if resources else {}
    ref = getattr(stream, "indirect_reference", None)
    if ref is None or ref.idnum not in cache:
        ops = operations(stream)
        if ref is not None:
            cache[ref.idnum] = ops
    else:
        ops = cache[ref.idnum]
    for operands, op in ops:
        if not forms and stack and op not in ("q", "Q"):
            continue
        if op == "q":
            stack.append(dict(state))
        elif op == "Q":
            state = stack.pop()
        elif op == "w":
            state["w"] = float(operands[0])
        elif op in ("RG", "rg"):
            state[op] = tuple(float(v) for v in operands)
        elif op in ("G", "g"):
            state["RG" if op == "G" else "rg"] = (float(operands[0]),) * 3
        elif op == "Tr":
            state["Tr"] = int(operands[0])
        elif op in _STROKE:
            out.append((state["w"], state["RG"], None, True, False))
        elif op in _FILL:
            out.append((None, None, state["rg"], False, True))
        elif op in _BOTH:
            out.append((state["w"], state["RG"], state["rg"], True, True))
        elif op == "BT":
            shown = []
        elif op in _TEXT:
            mode = state["Tr"]
            strokes, fills = mode in (1, 2, 5, 6), mode in (0, 2, 4, 6)
            shown.append((state["w"] if strokes else None, state["RG"] if strokes else None,
                          state["rg"] if fills else None, strokes, fills))
        elif op == "ET" and shown:
            # one Text is one BT … ET, shown in as many pieces as the font has subsets
            out += list(dict.fromkeys(shown))
        elif op == "Do" and forms:
            form = xobjects[operands[0].decode()].get_object()
            if form.get("/Subtype") == "/Form":
                out += painted(form, form.get("/Resources"), state, cache=cache)
    return out


def mismatches(doc: Document, path: Path) -> list[str]:
    """Every painting operator of ``path`` whose width or colour differs from its primitive's."""
    reader = PdfReader(str(path))
    assert len(reader.pages) == len(doc.pages)
    problems: list[str] = []
    cache: dict = {}   # a form placed 400 times is read once
    for number, (page, pdf_page) in enumerate(zip(doc.pages, reader.pages), 1):
        want = expected_paints(doc, page.items)
        got = painted(pdf_page.get_contents(), pdf_page.get("/Resources"), cache=cache)
        where = f"{path.name} page {number}"
        if len(want) != len(got):
            problems.append(f"{where}: {len(want)} primitives painted, {len(got)} painting operators")
            continue
        for i, ((what, width, stroke, fill), (w, rg_s, rg_f, strokes, fills)) in enumerate(zip(want, got)):
            if strokes and width is not None and abs(w - width) > 1e-3:
                problems.append(f"{where}: {what} #{i} stroked {w:g} pt wide, asked for {width:g} pt")
            if strokes and stroke is not None and max(abs(a - b) for a, b in zip(rg_s, stroke)) > 1 / 255:
                problems.append(f"{where}: {what} #{i} stroked in {rg_s}, asked for {stroke}")
            if fills and fill is not None and max(abs(a - b) for a, b in zip(rg_f, fill)) > 1 / 255:
                problems.append(f"{where}: {what} #{i} filled with {rg_f}, asked for {fill}")
    return problems


@pytest.fixture(scope="module")
def germany(tmp_path_factory):
    """Ticket to Ride Germany built once, each PDF compared with its Document right after it is
    rendered: (output folder, {file name: mismatches})."""
    out = tmp_path_factory.mktemp("pdf-state")
    seen: dict[str, list[str]] = {}

    def render_and_compare(doc, path, stamp=None):
        doc = with_stamp(doc, stamp)
        render_pdf(doc, path)
        seen[Path(path).name] = mismatches(doc, Path(path))

    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(ROOT)
        mp.setattr(build_context, "render_pdf", render_and_compare)
        mp.setattr(build_context, "render_pdfs_together", lambda whole, parts: [render_and_compare(*f)
                                                                                 for f in (whole, *parts)])
        result = CliRunner().invoke(main, ["build", "content/ttr-germany", "--all", "--out", str(out)],
                                    catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out / "ttr-germany", seen


def test_every_page_of_a_built_game_paints_with_the_asked_widths_and_colours(germany):
    """Ticket to Ride Germany: page 5 of train-cards.pdf had its crop marks 1 pt wide (issue 9),
    because the width cached on page 4 was taken to hold on a page that starts from the default."""
    _, checked = germany
    assert {"train-cards.pdf", "ttr-germany-print-shop.pdf", "ttr-germany-print-and-play.pdf"} <= set(checked)
    problems = [p for found in checked.values() for p in found]
    assert not problems, "\n".join(problems[:20])


def test_crop_marks_are_a_tenth_of_a_millimetre_on_every_page(germany):
    """The marks drawn on the page itself (not in a card's form) are every one 0.1 mm wide."""
    folder, _ = germany
    reader = PdfReader(str(folder / "train-cards.pdf"))
    assert len(reader.pages) > 5
    for number, page in enumerate(reader.pages, 1):
        # the page's own strokes, outside q/Q: the crop marks (cards are placed, or drawn in place, inside q/Q)
        strokes = painted(page.get_contents(), None, forms=False)
        assert strokes, f"page {number} has no crop marks"
        # what only fills (the stamp's text) has no width: the strokes are the marks
        widths = {round(w, 4) for w, _, _, stroke, _ in strokes if stroke}
        assert widths == {round(sheets.MARK_WIDTH * MM, 4)}, f"page {number}: crop marks {widths} pt wide"


def test_a_form_placed_on_a_later_page_sets_its_own_state(tmp_path):
    """Pages that reuse a form defined earlier, and pages that only draw lines: each page sets its width."""
    from generator.layout.primitives import Form, Page

    face = Form("face", (Rect(0, 0, 10, 10, fill="#ff0000", stroke="#0000ff", stroke_width=0.5),), (0, 0, 10, 10))
    mark = Line(0, 0, 5, 0, stroke="#000000", stroke_width=0.1)
    doc = Document("t", forms={"face": face})
    for _ in range(3):
        doc.pages.append(Page(50, 50, [mark, Use("face", 10, 10), Use("face", 30, 30), mark]))
    doc.pages.append(Page(50, 50, [mark]))
    path = tmp_path / "t.pdf"
    render_pdf(doc, path)
    assert mismatches(doc, path) == []
