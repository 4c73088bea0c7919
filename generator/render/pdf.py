"""PDF renderer (ReportLab): one Document → one PDF file.

Forms become PDF XObjects drawn once and placed many times (measured 10-65x
faster and far smaller for large decks). ``invariant=1`` keeps the output
byte-identical for the same input.
"""
from __future__ import annotations

import math
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFArray, PDFBase85Encode, PDFName, PDFStream, PDFZCompress
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from generator import fonts, limits
from generator.layout import images, primitives
from generator.layout.faces import LazyForms
from generator.layout.primitives import Circle, Document, Group, Image, Line, Polygon, Rect, Text, Use, pictures


def render_pdf(doc: Document, path: Path, stamp: Callable[[primitives.Page], list] | None = None) -> None:
    """Write ``doc`` to ``path``; ``stamp(page)``: items drawn after the page's own (the game's stamp, worked out
    page by page as the page is drawn: the faces it measures are the ones the page is about to draw)."""
    PdfWriter(doc, path, stamp).finish()


def render_pdfs_together(whole: tuple[Document, Path, Callable | None],
                         parts: list[tuple[Document, Path, Callable | None]]) -> None:
    """Write ``whole`` (the print-and-play file) and ``parts`` (files whose pages it prints: a deck's sheets) at
    once: a part's page is drawn into its own file just before ``whole`` prints it (the same ``items``, in the
    same order), so the faces on it are fetched (a large game's unpickled), measured for the stamp and drawn
    (``_Drawing``) once for both files. Each file's bytes are those ``render_pdf`` writes alone: every file has
    its own canvas, fonts and objects; what a page shares with another file's is worked out the same way.
    A part whose pages ``whole`` does not print in its order is written alone after it."""
    writer = PdfWriter(*whole)
    waiting = {}   # the items of a part's first page → the part, begun when ``whole`` reaches that page
    alone = []
    for doc, path, stamp in parts:
        if doc.pages and id(doc.pages[0].items) not in waiting:
            waiting[id(doc.pages[0].items)] = (doc, path, stamp)
        else:
            alone.append((doc, path, stamp))
    begun: list[PdfWriter] = []
    part: PdfWriter | None = None
    for page in whole[0].pages:
        if part is None or part.next_items() is not page.items:
            found = waiting.pop(id(page.items), None)
            if found is not None:
                part = PdfWriter(*found)
                begun.append(part)
        if part is not None and part.next_items() is page.items:
            drawn = part.page()
            same = (part.doc.pages[part.index - 1].width, part.doc.pages[part.index - 1].height) == \
                (page.width, page.height) and part.stamp is not None and writer.stamp is not None
            writer.page(drawn if same else None)   # the same items on the same paper: the same stamp
            if part.next_items() is None:   # its last page: saved, and its canvas let go
                part.finish()
                begun.remove(part)
                part = None
        else:
            writer.page()
    writer.finish()
    for part in begun:
        part.finish()   # nothing left to draw unless ``whole`` left the part before its end
    for doc, path, stamp in [*waiting.values(), *alone]:
        render_pdf(doc, path, stamp)


class PdfWriter:
    """One PDF file drawn a page at a time (``page``), saved by ``finish``."""

    def __init__(self, doc: Document, path: Path, stamp: Callable[[primitives.Page], list] | None = None):
        font = fonts.register()
        # initialFontName: otherwise ReportLab names an unembedded Helvetica on every page
        c = rl_canvas.Canvas(str(path), invariant=1, pageCompression=1,
                             initialFontName=font)  # type: ignore[arg-type]  # a font name; the stubs say float
        c.setTitle(doc.title)
        c.setCreator("pnpgen")
        c.setAuthor("pnpgen")
        defined: set[str] = set()
        uses: dict[str, int] = {}
        for page in doc.pages:
            for item in page.items:
                if isinstance(item, Use):
                    uses[item.name] = uses.get(item.name, 0) + 1
        painter = _Painter(c, font, doc, defined)
        # a face placed once is cheaper drawn in place (clipped) than as its own XObject
        painter.inline = {name for name, n in uses.items() if n == 1}
        painter.define_pictures(doc)
        self.marks: dict[int, list[str]] = {}
        for title, index in doc.outline:
            self.marks.setdefault(index, []).append(title)
        self.c, self.painter, self.doc, self.stamp = c, painter, doc, stamp
        self.index = 0   # the next page to draw
        self.saved = False

    def next_items(self) -> list | None:
        """The items of the next page to draw (None: all drawn)."""
        return self.doc.pages[self.index].items if self.index < len(self.doc.pages) else None

    def page(self, extra: list | None = None) -> list:
        """Draw the next page and its stamp (``extra``: the stamp, worked out already); returns the stamp."""
        c, painter, index = self.c, self.painter, self.index
        page = self.doc.pages[index]
        self.index += 1
        for n, title in enumerate(self.marks.get(index, [])):
            key = f"part-{index}-{n}"
            c.bookmarkPage(key)
            c.addOutlineEntry(title, key, level=0)
        c.setPageSize((page.width * mm, page.height * mm))
        c.setTrimBox(_box(page.trim_box, page.height) if page.trim_box else None)
        c.setBleedBox(_box(page.bleed_box, page.height) if page.bleed_box else None)
        painter.begin_page(page.height)
        if extra is None:
            extra = self.stamp(page) if self.stamp is not None else []
        painter.draw_items(page.items)
        for item in extra:
            painter.draw(item)
        c.showPage()
        _pack(c)
        return extra

    def finish(self) -> None:
        """Draw the pages left and save the file (once)."""
        while self.index < len(self.doc.pages):
            self.page()
        if not self.saved:
            self.saved = True
            _save(self.c)


class _FileOut(pdfdoc.PDFFile):
    """ReportLab's collector of the file's parts, writing each part to ``out`` as it is made: its own gathers
    the whole file in memory and joins it (a 22,000-page print-and-play file, 36 MB, held twice at once)."""

    def __init__(self, out, pdf_version):
        super().__init__(pdf_version)   # the file's header, collected
        for part in self.strings:
            out.write(part)
        self.strings = []
        self.write = out.write          # ``add`` keeps counting offsets for the cross-reference table


_SAVING = threading.Lock()   # the collector is swapped for the length of one save (pnpgen serve draws in threads)


def _save(c) -> None:
    """``c.save()``, the same bytes, streamed into the file: ReportLab's ``PDFDocument.format`` makes its collector
    by the module's name ``PDFFile``, which is ours while this file is written."""
    if len(c._code):
        c.showPage()
    with _SAVING, open(c._filename, "wb") as out:
        collector = pdfdoc.PDFFile
        pdfdoc.PDFFile = lambda version: _FileOut(out, version)   # type: ignore[misc,assignment]
        try:
            c._doc.SaveToFile(out, c)   # writes what the collector leaves: nothing
        finally:
            pdfdoc.PDFFile = collector   # type: ignore[misc]


def _pack(c) -> None:
    """Encode the page just shown now, as ``save`` would: ReportLab keeps every page's content as text until it writes
    the file (kilobytes a page, a 100,000-card deck has 22,000 pages); compressed, it keeps a fraction of that.
    The same filters in the same order on the same text: the file's bytes do not change (tests/test_memory.py)."""
    page = c._doc.Pages.pages[-1]
    if not (page.compression and page.stream) or page.Contents:
        return
    filters: list[Any] = [PDFBase85Encode, PDFZCompress] if rl_config.useA85 else [PDFZCompress]
    text = page.stream
    # a page the same as one packed before in this file (a deck's back sheets: the same backs, marks and stamp) is the
    # same bytes (zlib is deterministic): looked for among the file's pages of its length (the last of each), so a
    # page met once costs no hashing (two files drawn at once print the same text in their own subsets' codes)
    packed = c.__dict__.get("_pnpgen_packed")
    if packed is None:
        packed = c._pnpgen_packed = {}
    known = packed.get((len(text), len(filters))) if type(text) is str else None
    if known is not None and known[0] == text:
        content = known[1]
        _PACKED_COUNTS[1] += 1
    else:
        content = text
        for f in reversed(filters):
            content = f.encode(content)
        if isinstance(content, str) and content.isascii():   # ASCII85's text: as ``format`` encodes it, at once
            content = content.encode("ascii")
        if type(text) is str:
            if len(packed) >= PACKED_KEPT:
                packed.clear()
            packed[len(text), len(filters)] = (text, content)
        _PACKED_COUNTS[0] += 1
    stream = _PageStream(content=content)
    stream.dictionary["Filter"] = PDFArray([PDFName(f.pdfname) for f in filters])
    setattr(stream, "__Comment__", "page stream")   # noqa: B010  # as ReportLab names it (a comment in the file)
    page.Contents, page.stream = stream, None
    page.__class__ = _Page


#: packed page streams a file keeps (``_pack``), by (the text's length, the number of filters): (the text, its bytes)
PACKED_KEPT = 64
#: page streams (encoded, found packed already) since the process began: what tests count
_PACKED_COUNTS = [0, 0]

#: what ``_Page`` writes itself: the keys a pnpgen page has (any other set: ReportLab's own ``format``)
_PAGE_KEYS = frozenset({"Type", "Parent", "MediaBox", "Resources", "Contents", "Rotate", "Trans", "TrimBox",
                        "BleedBox"})


class _Page(pdfdoc.PDFPage):
    """A page dictionary whose bytes are those ``PDFCatalog.format`` writes (sorted keys, a line break every six
    entries), from parts kept per file: ReportLab formats each page's names, numbers, arrays and resources
    object by object (about forty ``format`` calls a page; a 10,000-card build writes 4,454 pages). The same
    references are made in the same order (the page's content stream is numbered when its page is written)."""

    def format(self, document):
        fast = _page_bytes(self, document)
        return fast if fast is not None else super().format(document)


class _PageStream(PDFStream):
    """A packed page stream (``_pack``: filtered, its ``Filter`` set) written as ``PDFStream.format`` writes it."""

    def format(self, document):
        content, entries = self.content, self.dictionary.dict
        if not (type(content) is bytes and type(document.encrypt) is pdfdoc.NoEncryption and len(entries) == 1
                and "Filter" in entries and not rl_config.pdfMultiLine):
            return super().format(document)
        kept = _kept(document)
        key = ("filter", *entries["Filter"].sequence)
        head = kept.get(key)
        if head is None:
            head = kept[key] = b"<<\n/Filter " + pdfdoc.format(entries["Filter"], document)
        return b"%s /Length %d\n>>\nstream\n%s" % (head, len(content), content) + b"endstream\n"


def _kept(document) -> dict:
    """Formatted parts of a file's page dictionaries, by what decides their bytes (kept with the file's document:
    they name its objects' numbers)."""
    kept = document.__dict__.get("_pnpgen_formatted")
    if kept is None:
        kept = document._pnpgen_formatted = {}
    return kept


def _page_bytes(page: Any, document) -> bytes | None:   # Any: the stubs lack most of a page's attributes
    """``page``'s dictionary as ReportLab writes it, or None for a page this does not know how to write (its
    own ``format`` then writes it)."""
    if (page.Override_default_compilation or rl_config.pdfMultiLine or page.Contents is None
            or page.Resources is not None or page.Annots or page.ExtGState or page._colorsUsed
            or page._shadingUsed or "Type" in page.__dict__):
        return None
    page.Annots = None   # none (check_format's ``if not self.Annots``: a canvas gives each page an empty list)
    if any(getattr(page, k, None) is not None and k not in _PAGE_KEYS for k in page.__NoDefault__) \
            or (page.Trans is not None and page.Trans.dict):
        return None
    kept = _kept(document)
    # check_format's media box and parent, then the references in PDFCatalog.format's order: Contents, Parent
    if page.MediaBox is None:
        box = (page.pageheight, page.pagewidth) if page.Rotate in (90, 270) else (page.pagewidth, page.pageheight)
        media = kept.get(("media", *box))
        if media is None:
            media = kept["media", *box] = pdfdoc.format(PDFArray([0, 0, *box]), document)
    else:
        media = pdfdoc.format(page.MediaBox, document)
    parent = document.Reference(document.Pages)
    contents = document.Reference(page.Contents)
    parent = document.Reference(parent)
    values = {"Contents": contents.format(document), "MediaBox": media, "Parent": parent.format(document),
              "Type": b"/Page"}
    key = ("resources", bool(page.hasImages), *(page.XObjects.dict if page.XObjects is not None else ()))
    resources = kept.get(key)
    if resources is None:
        made: Any = pdfdoc.PDFResourceDictionary()
        made.basicFonts()
        if page.hasImages:
            made.allProcs()
        if page.XObjects is not None:
            made.XObject = page.XObjects
        resources = kept[key] = pdfdoc.format(made, document)
    values["Resources"] = resources
    if page.Rotate is not None:
        values["Rotate"] = pdfdoc.format(page.Rotate, document)
    if page.Trans is not None:
        values["Trans"] = b"<<\n\n>>"   # an empty dictionary, as PDFDictionary formats it
    for name in ("TrimBox", "BleedBox"):
        found = getattr(page, name)
        if found is not None:
            key = ("box", *found.sequence)
            known = kept.get(key)
            if known is None:
                known = kept[key] = pdfdoc.format(found, document)
            values[name] = known
    lines = [b"/" + name.encode() + b" " + values[name] for name in sorted(values)]
    for i in reversed(range(6, len(lines), 6)):   # PDFDictionary.format, one line (pdfMultiLine off)
        lines.insert(i, b"\n ")
    return b"<<\n" + b" ".join(lines) + b"\n>>"


class _FormXObject(pdfdoc.PDFFormXObject):
    """A form whose content is encoded as ASCII where that is what ReportLab's PDFDocEncoding codec writes (text
    all ASCII, none of the eight control characters it writes as ``?``): the codec is a charmap, a table lookup a
    character (a deck's faces are tens of kilobytes of operators), ASCII a copy. The same bytes."""

    def setStreamList(self, data):  # noqa: N802  (ReportLab's name)
        text = "\n".join(data) if isinstance(data, (tuple, list)) else data
        if isinstance(text, str) and text.isascii():
            encoded = text.encode("ascii")
            # each looked for by a byte search (a regular expression's class costs ten times as much a character)
            if not any(map(encoded.__contains__, _NOT_PDFDOC_ASCII)):
                self.stream = encoded
                return
        self.stream = pdfdoc.pdfdocEnc(text)


#: the ASCII characters PDFDocEncoding (ReportLab's ``extpdfdoc``) does not write as themselves
_NOT_PDFDOC_ASCII = [bytes([c]) for c in range(0x18, 0x20)]


def _end_form(c) -> None:
    """``c.endForm()`` (ReportLab 5.1's, step by step) with the form a :class:`_FormXObject`."""
    name, lowerx, lowery, upperx, uppery = c._formData
    w, h = c._pagesize
    form = _FormXObject(lowerx=lowerx, lowery=lowery, upperx=w if upperx is None else upperx,
                        uppery=h if uppery is None else uppery)
    form.compression = c._pageCompression
    form.setStreamList([c._preamble, *c._code])
    c._setColorSpace(form)
    c._setExtGState(form)
    c._setXObjects(form)
    c._setAnnotations(form)
    c._doc.addForm(name, form)
    c._restartAccumulators()
    c.pop_state_stack()


def _box(box, page_height):
    x, y, w, h = box
    return (x * mm, (page_height - y - h) * mm, (x + w) * mm, (page_height - y) * mm)


class _Painter:
    """Draws primitives; ``height`` flips y (page height, or 0 inside a form)."""

    def __init__(self, c, font, doc, defined):
        self.c, self.font, self.doc, self.defined = c, font, doc, defined
        self.height = 0.0
        self.inline: set[str] = set()
        self.pictures: dict[str, tuple[str, images.Picture]] = {}   # digest → (form name, picture)
        self.printed: dict[str, tuple[float, float]] = {}   # digest → the largest mm a large picture is printed
        self._fill = self._stroke = self._width = None
        self.colours = 0          # colours set so far (a kept drawing that set one makes the file PDF 1.4 too)
        self.encoded: dict[tuple[str, str, str], str] = {}   # (font, size setting, text) → its Tf and Tj in this file
        self.versioned = False    # the file is marked PDF 1.4 (``_opaque``)
        #: shapes and texts also kept by their identity (``_SHAPE_BY_ID``): not for a large game's document, whose
        #: faces are unpickled anew for each file (an identity never met twice: only entries to make and drop)
        self.by_id = not isinstance(doc.forms, LazyForms)

    def begin_page(self, height: float) -> None:
        """Every page's content stream starts from PDF's default graphics state (black, 1 pt
        lines), not from where the previous page left off: forget what the cache says was set."""
        self.height = height
        self._reset()

    # graphics state is cached: setting the same colour 1000 times bloats the PDF. What the
    # cache says holds only within one content stream and one q/Q level: a page (begin_page)
    # and a form (_define) each start from a state they did not set, and a restoreState undoes
    # what was set since its saveState, so each of those forgets the cache (_reset). A form's
    # content runs in the state in force where it is placed (PDF 32000 8.10.1; ReportLab's
    # beginForm re-initialises its own state for the same reason), so it sets everything it uses.
    def _paint(self, fill, stroke, width):
        """What ``setFillColor(HexColor(fill))``, ``setStrokeColor`` and ``setLineWidth`` would write, from a
        table of each colour's operator (a deck sets the same few colours thousands of times)."""
        c = self.c
        if fill and fill != self._fill:
            color, op = _fill_op(fill)
            c._fillColorObj = color
            c._code.append(op)
            self._opaque(c, "ca")
            self._fill = fill
        if stroke:
            if stroke != self._stroke:
                color, op = _stroke_op(stroke)
                c._strokeColorObj = color
                c._code.append(op)
                self._opaque(c, "CA")
                self._stroke = stroke
            if width != self._width:
                c._lineWidth = width * mm
                c._code.append(f"{fp_str(width * mm)} w")
                self._width = width
        return (1 if fill else 0), (1 if stroke else 0)

    def _opaque(self, c, key: str) -> None:
        """What setting a colour also does in ReportLab (a colour's alpha is 1): the file is PDF 1.4, and an
        opacity set before is set back to 1."""
        self.colours += 1
        if not self.versioned:
            c._doc.ensureMinPdfVersion("transparency")
            self.versioned = True
        if c._extgstate.getValue(key) != 1:
            c._extgstate.set(c, key, 1)

    def _reset(self):
        self._fill = self._stroke = self._width = None

    def Y(self, y):
        return (self.height - y) * mm

    def draw(self, item):
        kind = type(item)
        if kind in _SHAPES:
            self._shape(item)
        else:
            getattr(self, "_" + kind.__name__)(item)

    def draw_items(self, items: list) -> None:
        """``draw`` each of a page's ``items``; a run of shapes among them (a sheet's crop marks: the same lines on
        every sheet of a deck, in its file and in the print-and-play file) is written as the same run wrote it
        before (``_run``), not shape by shape."""
        n, i, draw = len(items), 0, self.draw
        while i < n:
            item = items[i]
            if type(item) in _SHAPES:
                j = i + 1
                while j < n and type(items[j]) in _SHAPES:
                    j += 1
                if j - i > 1:
                    self._run(items[i:j])
                    i = j
                    continue
            draw(item)
            i += 1

    def _run(self, run: list) -> None:
        """Shapes drawn one after another: what they write depends on them, the page height and the colours and
        width in force before them (as ``_shape``'s), so it is kept by those, found by the first shape's identity
        and the run's length (the entry holds the run: its items are compared, by identity first)."""
        c = self.c
        if c._extgstate._d:   # an opacity was set (a picture's): shape by shape
            for item in run:
                self._shape(item)
            return
        mine = (id(run[0]), len(run), self.height, self._fill, self._stroke, self._width)
        found = _RUNS.get(mine)
        if found is None or found[0] != run:
            code, colours = c._code, self.colours
            start = len(code)
            for item in run:
                self._shape(item)
            # the page's code is joined by new lines: one entry writes the same bytes
            ops = "\n".join(code[start:]) if len(code) > start else None
            del code[start:]
            found = (run, (ops, (self._fill, self._stroke, self._width), self.colours - colours, c._fillColorObj,
                           c._strokeColorObj, c._lineWidth))
            if len(_RUNS) >= KEPT_BY_ID:
                _RUNS.clear()
            _RUNS[mine] = found
        ops, state, coloured, c._fillColorObj, c._strokeColorObj, c._lineWidth = found[1]
        if ops is not None:
            c._code.append(ops)
        self._fill, self._stroke, self._width = state
        if coloured:
            self.colours += coloured
            if not self.versioned:
                c._doc.ensureMinPdfVersion("transparency")
                self.versioned = True

    def _shape(self, item) -> None:
        """A rect, circle, line or polygon: what it writes depends on it, the page height and the colours and
        width in force before it, so it is kept by those (a deck's faces repeat the same frame and badge)."""
        c = self.c
        extgstate = c._extgstate._d
        if extgstate:   # an opacity was set (a picture's): drawn as ReportLab would, not kept
            getattr(self, "_" + type(item).__name__)(item)
            return
        # first by the item's identity (a face's constant shapes are the same objects on every face, and hashing
        # a primitive hashes each of its fields); the entry holds the item, so its identity is not reused meanwhile
        mine = (id(item), self.height, self._fill, self._stroke, self._width) if self.by_id else None
        found = _SHAPE_BY_ID.get(mine) if mine is not None else None
        if found is not None and found[0] is item:
            kept = found[1]
        else:
            key = (item, self.height, self._fill, self._stroke, self._width)
            kept = _SHAPE_CODE.get(key)
            if kept is None:
                code, start, colours = c._code, len(c._code), self.colours
                getattr(self, "_" + type(item).__name__)(item)
                kept = (tuple(code[start:]), (self._fill, self._stroke, self._width), self.colours > colours,
                        c._fillColorObj, c._strokeColorObj, c._lineWidth)
                if len(_SHAPE_CODE) >= 65536:
                    _SHAPE_CODE.clear()
                _SHAPE_CODE[key] = kept
                drawn = True
            else:
                drawn = False
            if mine is not None:
                if len(_SHAPE_BY_ID) >= KEPT_BY_ID:
                    _SHAPE_BY_ID.clear()
                _SHAPE_BY_ID[mine] = (item, kept)
            if drawn:
                return
        ops, state, coloured, c._fillColorObj, c._strokeColorObj, c._lineWidth = kept
        c._code.extend(ops)
        self._fill, self._stroke, self._width = state
        if coloured:
            self.colours += 1
            if not self.versioned:
                c._doc.ensureMinPdfVersion("transparency")
                self.versioned = True

    def _Rect(self, r: Rect):
        fill, stroke = self._paint(r.fill, r.stroke, r.stroke_width)
        if not (fill or stroke):
            return
        c = self.c
        if r.radius:   # canvas.roundRect's path, kept by its numbers: a deck's panels are all the same
            key = (r.x, r.y + r.h, r.w, r.h, r.radius, self.height)
            path = _PATHS.get(key)
            if path is None:
                code: list[str] = []
                PDFPathObject(code=code).roundRect(r.x * mm, self.Y(r.y + r.h), r.w * mm, r.h * mm, r.radius * mm)
                path = _keep_path(key, tuple(code))
            c._code.extend(path)
            c._code.append(_PATH_OPS[stroke, fill, c._fillMode])
        else:
            c._code.append(f"n {fp_str(r.x * mm, self.Y(r.y + r.h), r.w * mm, r.h * mm)} re "
                           + _PATH_OPS[stroke, fill, c._fillMode])

    def _Circle(self, ci: Circle):
        fill, stroke = self._paint(ci.fill, ci.stroke, ci.stroke_width)
        if fill or stroke:   # canvas.circle's path (an ellipse of four arcs), kept by its numbers
            c = self.c
            key = (ci.cx, ci.cy, ci.r, self.height, "circle")
            path = _PATHS.get(key)
            if path is None:
                code: list[str] = []
                x, y, r = ci.cx * mm, self.Y(ci.cy), ci.r * mm
                PDFPathObject(code=code).ellipse(x - r, y - r, 2 * r, 2 * r)
                path = _keep_path(key, tuple(code))
            c._code.extend(path)
            c._code.append(_PATH_OPS[stroke, fill, c._fillMode])

    def _Line(self, ln: Line):
        self._paint(None, ln.stroke, ln.stroke_width)
        c = self.c
        if ln.dash:
            c.setDash([d * mm for d in ln.dash])
        c._code.append(f"n {fp_str(ln.x1 * mm, self.Y(ln.y1))} m {fp_str(ln.x2 * mm, self.Y(ln.y2))} l S")
        if ln.dash:
            c.setDash()

    def _Polygon(self, pg: Polygon):
        fill, stroke = self._paint(pg.fill, pg.stroke, pg.stroke_width)
        if not (fill or stroke) or len(pg.points) < 2:
            return
        path = self.c.beginPath()
        (x0, y0), *rest = pg.points
        path.moveTo(x0 * mm, self.Y(y0))
        for x, y in rest:
            path.lineTo(x * mm, self.Y(y))
        if pg.closed:
            path.close()
        self.c.drawPath(path, stroke=stroke, fill=fill if pg.closed else 0)

    def _Text(self, t: Text, parts: tuple[str, str, str] | None = None):
        """What ReportLab's text object writes for one line (BT, Tm, the font subset's Tf and the text, ET), written
        directly: the text object also measures the line for a cursor pnpgen never reads. ``parts`` (from
        ``_text_parts``, kept with a form's drawing) are the same in every file; the text itself is encoded in
        the file's own font subsets."""
        c = self.c
        font = _font(t.font)
        if not font._dynamicFont:   # a font ReportLab does not subset (none pnpgen registers): its own way
            self._text_object(t)
            return
        if t.bold:
            # text render mode is graphics state that outlives the text object (and
            # ReportLab skips "0 Tr" in a new one): confine the bold mode with q/Q
            c.saveState()
        self._paint(t.fill, t.fill if t.bold else None, t.size * fonts.BOLD_STROKE)
        if parts is None:
            parts = _text_parts(self, t)
        head, setting, tail = parts
        said = (t.font, setting, t.text)
        encoded = self.encoded.get(said)
        if encoded is None:
            encoded = self._encode(font, said)
        c._code.append(f"{head} {encoded} {tail}" if encoded else f"{head} {tail}")
        if t.bold:
            c.restoreState()
            self._reset()

    def _encode(self, font, said: tuple[str, str, str]) -> str:
        """The text ``said`` = (font name, size setting, text) in the file's own subsets of ``font``: once all its
        characters have their codes (the first time the file writes it), the same text always encodes the same
        way, with no side effect."""
        c, (_name, setting, text) = self.c, said
        doc, escape, current = c._doc, c._escape, -1
        runs = []
        for subset, piece in font.splitString(text, doc):
            if subset != current:
                runs.append(f"{font.getSubsetInternalName(subset, doc)} {setting}")
                current = subset
            runs.append(f"({escape(piece)}) Tj")
        encoded = self.encoded[said] = " ".join(runs)
        return encoded

    def _text_parts(self, t: Text) -> tuple[str, str, str]:
        """A text's operators before its text, its font setting (after the subset's name), and after it."""
        parts = ["BT", "1 0 0 1 0 0 Tm"]
        if t.bold:
            parts.append("2 Tr")
        width = _width_mm(t.text, t.size, t.font) + t.spacing * len(t.text)
        x = t.x - (width / 2 if t.anchor == "middle" else width if t.anchor == "end" else 0)
        if t.italic:  # slanted about the baseline: x' = x + tan(slant)·y, as SVG's skewX
            parts.append(f"{fp_str(1, 0, math.tan(math.radians(fonts.ITALIC_SLANT)), 1, x * mm, self.Y(t.y))} Tm")
        else:
            parts.append(f"1 0 0 1 {fp_str(x * mm, self.Y(t.y))} Tm")
        if t.spacing:   # Tc is text state, which outlives the text object: set back to 0 inside it
            parts.append(f"{fp_str(t.spacing * mm)} Tc")
        return " ".join(parts), f"{fp_str(t.size)} Tf {fp_str(t.size * 1.2)} TL", "0 Tc ET" if t.spacing else "ET"

    def _text_object(self, t: Text):
        c = self.c
        if t.bold:
            c.saveState()
        self._paint(t.fill, t.fill if t.bold else None, t.size * fonts.BOLD_STROKE)
        obj = c.beginText()
        obj.setFont(t.font, t.size)
        if t.bold:
            obj.setTextRenderMode(2)
        width = fonts.text_width_mm(t.text, t.size, t.font) + t.spacing * len(t.text)
        x = t.x - (width / 2 if t.anchor == "middle" else width if t.anchor == "end" else 0)
        if t.italic:
            obj.setTextTransform(1, 0, math.tan(math.radians(fonts.ITALIC_SLANT)), 1, x * mm, self.Y(t.y))
        else:
            obj.setTextOrigin(x * mm, self.Y(t.y))
        if t.spacing:
            obj.setCharSpace(t.spacing * mm)
        obj.textOut(t.text)
        if t.spacing:
            obj.setCharSpace(0)
        c.drawText(obj)
        if t.bold:
            c.restoreState()
            self._reset()

    def _Group(self, g: Group):
        c = self.c
        c.saveState()
        c.translate(g.dx * mm, -g.dy * mm)
        if g.rotate:
            # rotate about the group's origin, which sits at (0, Y(0)) after the translate
            c.translate(0, self.Y(0))
            c.rotate(-g.rotate)
            c.translate(0, -self.Y(0))
        if g.scale != 1.0:
            c.translate(0, self.Y(0))
            c.scale(g.scale, g.scale)
            c.translate(0, -self.Y(0))
        for item in g.items:
            self.draw(item)
        c.restoreState()
        self._reset()

    def _Use(self, u: Use):
        c = self.c
        # the form itself only to draw it (a large game's is unpickled): not for a use of an XObject defined already
        form = self.doc.forms[u.name] if u.name in self.inline or u.name not in self.defined else None
        if u.clip is not None:
            x, y, w, h = u.clip
            c.saveState()
            clip = c.beginPath()
            clip.rect((u.x + x) * mm, self.Y(u.y + y + h), w * mm, h * mm)
            c.clipPath(clip, stroke=0, fill=0)
        if u.name in self.inline:
            self._inline(form, u)
        else:
            if u.name not in self.defined:
                self._define(form)
            # what saveState, translate, doForm and restoreState write, as one entry (the page's code is joined
            # by new lines): nothing between q and Q changes the canvas's state, so none is saved and restored
            c._code.append(f"q\n1 0 0 1 {fp_str(u.x * mm, self.Y(u.y))} cm\n/{c._doc.getXObjectName(u.name)} Do\nQ")
            c._formsinuse.append(u.name)
        if u.clip is not None:
            c.restoreState()

    def _inline(self, form, u: Use):
        c = self.c
        x, y, w, h = form.box
        # what beginPath().rect(…) and clipPath(path, stroke=0, fill=0) write, without the path object
        mode = c._fillMode
        clip = (f"n {fp_str((u.x + x) * mm, self.Y(u.y + y + h), w * mm, h * mm)} re"
                f"{' W* ' if mode == _EVEN_ODD else ' W '}{_PATH_OPS[0, 0, mode]}")
        kept = _DRAWINGS.get(form.name) or _RECENT.get(form.name)
        if kept is not None and not c._extgstate._d and (kept.items is form.items or kept.items == form.items):
            program = kept.program()
            if program is not None:   # drawn before (the deck's file): q, clip, shift, its program, Q as one entry
                self._placed(program, kept, f"q\n{clip}\n1 0 0 1 {fp_str(u.x * mm, self.Y(u.y))} cm")
                return
        c.saveState()
        c._code.append(clip)
        outer_height = self.height
        # c.translate(…): after the clip, never merged into an earlier cm
        dx, dy = u.x * mm, self.Y(u.y)
        c._code.append(f"1 0 0 1 {fp_str(dx, dy)} cm")
        a0, b0, c0, d0, e0, f0 = c._currentMatrix   # tracked as translate does (restored below)
        c._currentMatrix = (a0, b0, c0, d0, a0 * dx + c0 * dy + e0, b0 * dx + d0 * dy + f0)
        self.height = 0.0
        self._reset()
        self._form_items(form)
        self.height = outer_height
        c.restoreState()
        self._reset()

    def _placed(self, program: list, drawing: _Drawing, head: str) -> None:
        """A face drawn in place from its drawing's ``program`` (``_Drawing.program``) between ``head`` (q, its clip
        and shift) and Q: what ``_inline`` writes drawing it item by item, the same bytes. Nothing in the program
        changes the canvas's state, so none is saved and restored; its texts are encoded in this file's subsets,
        in order."""
        out, encoded = [head], self.encoded
        for piece in program:
            if type(piece) is str:
                out.append(piece)
                continue
            said, font, head_, tail = piece
            text = encoded.get(said)
            if text is None:
                text = self._encode(font, said)
            out.append(f"{head_} {text} {tail}" if text else f"{head_} {tail}")
        out.append("Q")
        self.c._code.append("\n".join(out))
        self.colours += drawing.coloured_texts   # as ``replay``: each text's colour set counts
        if drawing.coloured and not self.versioned:
            self.c._doc.ensureMinPdfVersion("transparency")
            self.versioned = True
        self._reset()

    def _define(self, form):
        c = self.c
        x, y, w, h = form.box
        outer_height, self.height = self.height, 0.0
        self._reset()
        c.beginForm(form.name, x * mm, -(y + h) * mm, (x + w) * mm, -y * mm)
        self._form_items(form)
        _end_form(c)
        self.height = outer_height
        self._reset()
        self.defined.add(form.name)

    def _form_items(self, form) -> None:
        """A form's items, drawn from a reset state at height 0 (in place, or as an XObject). A face printed in
        the deck's file, the print-and-play file and the print-shop file is drawn once: what its shapes write
        is kept (``_Drawing``) and written again as it was; its text, pictures and placed forms are drawn
        each time, as they name the file's own font subsets and objects."""
        kept = _DRAWINGS.get(form.name) or _RECENT.get(form.name)
        if kept is not None and (kept.items is form.items or kept.items == form.items):
            kept.replay(self)
            return
        drawing = _Drawing(form.items)
        code, colours, encoded_by = self.c._code, self.colours, self.encoded
        start = len(code)   # where the current run of shapes began
        for item in form.items:
            kind = type(item)
            if kind in _SHAPES:
                self._shape(item)
                continue
            if kind is Group and _only_shapes(item):
                self._Group(item)
                continue
            if len(code) > start:
                drawing.shapes(code[start:], self)
            if kind is Text and not item.bold:
                font = _font(item.font)
                if font._dynamicFont:   # kept (``_Drawing.plain_text``) and written as ``_Text`` writes it, at once
                    said, (head, _setting, tail) = drawing.plain_text(item, font, self)
                    fill = item.fill
                    if fill and fill != self._fill:
                        self._paint(fill, None, None)
                    encoded = encoded_by.get(said)
                    if encoded is None:
                        encoded = self._encode(font, said)
                    code.append(f"{head} {encoded} {tail}" if encoded else f"{head} {tail}")
                    start = len(code)
                    continue
            drawing.live(item, self)
            if type(item) is Text and drawing.steps[-1][0] is not None:
                self._Text(item, drawing.steps[-1][0])
            else:
                self.draw(item)
            start = len(code)
        if len(code) > start:
            drawing.shapes(code[start:], self)
        drawing.coloured = self.colours > colours
        if _DRAWINGS.room():
            _DRAWINGS.keep(form.name, drawing)
        else:   # kept a little while: the print-and-play file prints it next (``render_pdfs_together``)
            _RECENT[form.name] = drawing
            if len(_RECENT) > RECENT_DRAWINGS:   # the oldest (a pop: ``pnpgen serve`` draws in threads)
                _RECENT.pop(next(iter(_RECENT), ""), None)

    # ------------------------------------------------------------------ pictures
    def define_pictures(self, doc: Document) -> None:
        """One form per picture file (by content), defined before any page: an image XObject (or an
        SVG's vectors) stored once in the PDF however many faces place it. Defined up front because
        a face's own form may place it, and forms are not defined inside forms."""
        forms = doc.forms
        if isinstance(forms, LazyForms):   # a large game's: what each face draws was noted as it was stored
            store = forms.store
            seen = primitives.pictures_placed([item for page in doc.pages for item in page.items],
                                   lambda name: store.pictures(name, forms))
            for name in forms:
                for digest, image in store.pictures(name, forms):
                    seen.setdefault(digest, image)
        else:
            seen = pictures([item for page in doc.pages for item in page.items], forms)
            for form in forms.values():
                for digest, image in pictures(form.items, forms).items():
                    seen.setdefault(digest, image)
        large = {digest for digest, image in seen.items()
                 if (known := images.known(image.path, digest)).raster
                 and known.width * known.height > limits.MAX_UNREDUCED_PIXELS}
        if large:   # embedded at the size printed: the largest place this document prints each one
            self.printed = images.largest_prints([i for page in doc.pages for i in page.items], doc.forms, large)
        for digest in sorted(seen):
            self._define_picture(seen[digest])

    def _define_picture(self, im: Image) -> None:
        c = self.c
        picture = images.known(im.path, im.digest)
        name = f"img-{im.digest[:16]}"
        c.beginForm(name, 0, 0, picture.width, picture.height)
        if picture.raster:
            # mask='auto': a PNG's alpha channel becomes the image's soft mask (transparency kept)
            # binary, not ASCII85 (ReportLab's default for every stream): a quarter smaller and faster to write;
            # the setting is read when the image object is made, so it is changed for this call only
            a85, rl_config.useA85 = rl_config.useA85, 0
            try:
                size = images.embedded_pixels(picture, self.printed.get(im.digest) or images.printed_mm(picture, im))
                c.drawImage(_reader(im.path, im.digest, size), 0, 0, picture.width, picture.height, mask="auto")
            finally:
                rl_config.useA85 = a85
        else:
            from reportlab.graphics import renderPDF  # with reportlab.platypus, 0.07 s: only for SVG pictures

            renderPDF.draw(images.svg_drawing(im.path, im.digest), c, 0, 0)
        _end_form(c)
        self.pictures[im.digest] = (name, picture)

    def _Image(self, im: Image):
        c = self.c
        if im.digest not in self.pictures:   # a document whose pictures were not walked first
            self._define_picture(im)
        name, picture = self.pictures[im.digest]
        where = images.placement(im, picture.width, picture.height)
        c.saveState()
        if im.opacity < 1:
            c.setFillAlpha(im.opacity)
            c.setStrokeAlpha(im.opacity)
        if im.rotate:
            cx, cy = (im.x + im.w / 2) * mm, self.Y(im.y + im.h / 2)
            c.translate(cx, cy)
            c.rotate(-im.rotate)
            c.translate(-cx, -cy)
        if where.clip is not None:
            x, y, w, h = where.clip
            clip = c.beginPath()
            clip.rect(x * mm, self.Y(y + h), w * mm, h * mm)
            c.clipPath(clip, stroke=0, fill=0)
        c.translate(where.x * mm, self.Y(where.y + where.h))
        c.scale(where.w * mm / picture.width, where.h * mm / picture.height)
        c.doForm(name)
        c.restoreState()
        self._reset()


_READERS: dict[tuple[str, str, tuple[int, int] | None], ImageReader] = {}
_KEPT_PIXELS = 8_000_000


def _reader(path: str, digest: str, size: tuple[int, int] | None = None) -> ImageReader:
    """One ImageReader per picture (and size) for the whole build: it keeps the decoded pixels, so the deck's
    PDF, the print-shop PDF and the print-and-play file decode a large background once, not once each.
    ``size``: the picture decoded at that many pixels (``images.embedded_pixels``), not at its own."""
    key = (path, digest, size)
    if key in _READERS:
        return _READERS[key]
    reader = ImageReader(path if size is None else images.decoded_at(path, size))
    width, height = reader.getSize()
    if width * height <= _KEPT_PIXELS:   # a board-sized picture is not kept: its pixels are hundreds of MB
        if len(_READERS) >= 4:
            _READERS.pop(next(iter(_READERS)))
        _READERS[key] = reader
    return reader


# ---------------------------------------------------------------------- what is written once and kept

_PATH_OPS: dict[tuple, str] = rl_canvas.PATH_OPS  # type: ignore[attr-defined]  # not in the stubs
_COLORS: dict[str, tuple[Any, str, str]] = {}


def _color(hex_color: str) -> tuple[Any, str, str]:
    """A colour's object and its fill and stroke operators, as ``setFillColor(HexColor(…))`` writes them."""
    known = _COLORS.get(hex_color)
    if known is None:
        color = HexColor(hex_color)
        rgb = fp_str((color.red, color.green, color.blue))
        known = _COLORS[hex_color] = (color, f"{rgb} rg", f"{rgb} RG")
        if len(_COLORS) > 4096:   # a long-running process meeting ever new colours
            _COLORS.clear()
    return known


def _fill_op(hex_color: str) -> tuple[Any, str]:
    color, fill, _stroke = _color(hex_color)
    return color, fill


def _stroke_op(hex_color: str) -> tuple[Any, str]:
    color, _fill, stroke = _color(hex_color)
    return color, stroke


_PATHS: dict[tuple, tuple[str, ...]] = {}


def _keep_path(key: tuple, path: tuple[str, ...]) -> tuple[str, ...]:
    if len(_PATHS) > 16384:
        _PATHS.clear()
    _PATHS[key] = path
    return path


#: what a shape wrote, by (shape, page height, colours and width before it): ops, state after, colour set,
#: the canvas's colour objects and width after
_SHAPE_CODE: dict[tuple, tuple] = {}
#: the same by (the shape's identity, page height, colours and width before it): (the shape, what ``_SHAPE_CODE`` has)
_SHAPE_BY_ID: dict[tuple, tuple] = {}
#: entries kept by identity (each holds its primitive alive): a small game's shared shapes and labels are a few
#: hundred; a large game's faces are unpickled anew and never met again by identity, so they must not pile up
KEPT_BY_ID = 4096
_SHAPES = frozenset({Rect, Circle, Line, Polygon})
#: what a run of shapes on a page wrote (``_Painter._run``), by (its first shape's identity, its length, page height,
#: colours and width before it): (the run, (its operators as one text or None, state after, colours set, the
#: canvas's colour objects and width after))
_RUNS: dict[tuple, tuple] = {}
_EVEN_ODD = rl_canvas.FILL_EVEN_ODD  # type: ignore[attr-defined]  # not in the stubs
#: a text's operators around its text (``_Painter._text_parts``), by (text, page height)
_TEXT_PARTS: dict[tuple, tuple[str, str, str]] = {}
#: the same by (the text's identity, page height): (the text, its parts), as ``_SHAPE_BY_ID``
_TEXT_PARTS_BY_ID: dict[tuple, tuple] = {}


def _text_parts(painter: _Painter, t: Text) -> tuple[str, str, str]:
    """``painter._text_parts(t)``, kept by the text's identity and by its value (a face's constant labels are the
    same objects on every face; hashing a Text hashes each of its fields)."""
    mine = (id(t), painter.height) if painter.by_id else None
    if mine is not None:
        found = _TEXT_PARTS_BY_ID.get(mine)
        if found is not None and found[0] is t:
            return found[1]
    key = (t, painter.height)
    parts = _TEXT_PARTS.get(key)
    if parts is None:
        if len(_TEXT_PARTS) >= 65536:
            _TEXT_PARTS.clear()
        parts = _TEXT_PARTS[key] = painter._text_parts(t)
    if mine is not None:
        if len(_TEXT_PARTS_BY_ID) >= KEPT_BY_ID:
            _TEXT_PARTS_BY_ID.clear()
        _TEXT_PARTS_BY_ID[mine] = (t, parts)
    return parts

_FONTS: dict[str, Any] = {}


def _font(name: str):
    font = _FONTS.get(name)
    if font is None:
        font = _FONTS[name] = pdfmetrics.getFont(name)
    return font


_WIDTHS: dict[tuple[str, float, str], float] = {}


def _width_mm(text: str, size: float, font: str) -> float:
    """``fonts.text_width_mm``, kept by (text, size, font): a deck's names and numbers repeat."""
    key = (text, size, font)
    width = _WIDTHS.get(key)
    if width is None:
        if len(_WIDTHS) > 65536:
            _WIDTHS.clear()
        width = _WIDTHS[key] = fonts.text_width_mm(text, size, font)
    return width


def _only_shapes(item) -> bool:
    """Rects, circles, lines and polygons (in groups too) write only drawing operators, the same in every file."""
    if isinstance(item, (Rect, Circle, Line, Polygon)):
        return True
    return isinstance(item, Group) and all(_only_shapes(i) for i in item.items)


class _Drawing:
    """What drawing a form's items wrote: its shapes' operators as one text per run (the page's code is joined
    by new lines, so one joined entry writes the same bytes), and the items drawn again in each file (text:
    each file numbers its own font subsets), with the painter's colour state before each."""

    __slots__ = ("items", "steps", "size", "coloured", "coloured_texts", "_program")

    def __init__(self, items):
        self.items = items
        self.coloured = False   # it sets a colour: the file it is written into is PDF 1.4
        #: (shapes' text, None, state after) or (a text's parts or None, the item drawn again, state before)
        self.steps: list[tuple[Any, Any, tuple]] = []
        self.size = 0
        self.coloured_texts = 0   # colours its texts set when it is drawn again (``_Painter.colours``)
        #: ``program``'s pieces, made as the drawing is (None once it meets an item a program does not cover)
        self._program: list | None = []

    def program(self) -> list | None:
        """The drawing as it is written again in any file: its operators as texts (a run of shapes, a text's colour)
        and for each text (it is encoded in each file's own subsets) ``((font, size setting, text), the font,
        operators before, after)``, in order; None for a drawing with more than shapes and plain texts (a picture,
        a placed form, bold text: they change the canvas's state, and ``replay`` draws them)."""
        return self._program

    def shapes(self, code: list[str], painter: _Painter) -> None:
        text = "\n".join(code)
        self.steps.append((text, None, (painter._fill, painter._stroke, painter._width)))
        self.size += len(text)
        if text and self._program is not None:
            self._program.append(text)

    def plain_text(self, item: Text, font, painter: _Painter) -> tuple[tuple[str, str, str], tuple[str, str, str]]:
        """``live`` for a text that is not bold, in a font ReportLab subsets (``font``): ((font name, size setting,
        text), its parts)."""
        parts = _text_parts(painter, item)
        self.steps.append((parts, item, (painter._fill, painter._stroke, painter._width)))
        self.size += 64 + len(parts[0]) + len(parts[1])
        said = (item.font, parts[1], item.text)
        if self._program is not None:
            self._program_text(item, said, font, parts, painter)
        return said, parts

    def _program_text(self, item: Text, said: tuple[str, str, str], font, parts: tuple[str, str, str],
                      painter: _Painter) -> None:
        """A plain text's pieces of ``program``: its colour (what ``_Text``'s ``_paint`` writes, from the colour in
        force before it) and its slot."""
        program = self._program
        assert program is not None
        fill = item.fill
        if fill and fill != painter._fill:
            program.append(_fill_op(fill)[1])
            self.coloured_texts += 1
        program.append((said, font, parts[0], parts[2]))

    def live(self, item, painter: _Painter) -> None:
        parts = None
        if isinstance(item, Text) and _font(item.font)._dynamicFont:
            parts = _text_parts(painter, item)
        self.steps.append((parts, item, (painter._fill, painter._stroke, painter._width)))
        self.size += 64 + (len(parts[0]) + len(parts[1]) if parts else 0)
        program = self._program
        if program is None:
            return
        if parts is None or type(item) is not Text or item.bold:
            self._program = None
            return
        self._program_text(item, (item.font, parts[1], item.text), _font(item.font), parts, painter)

    def replay(self, painter: _Painter) -> None:
        code = painter.c._code
        if self.coloured and not painter.versioned:
            painter.c._doc.ensureMinPdfVersion("transparency")
            painter.versioned = True
        for text, item, state in self.steps:
            painter._fill, painter._stroke, painter._width = state
            if item is None:
                if text:
                    code.append(text)
            elif text is not None:
                painter._Text(item, text)
            else:
                painter.draw(item)


class _Drawings(dict):
    """Forms' drawings by name, for every PDF of the process: within a budget of characters (a 100,000-card deck
    keeps its first faces', and draws the rest in each file); a name is a digest of the drawing, and the items
    are compared before a drawing is reused."""

    BUDGET = 4_000_000   # characters: the bundled games need 1.7–2.6 million; each costs about 3.5 bytes held

    def __init__(self):
        super().__init__()
        self.size = 0

    def room(self) -> bool:
        return self.size < self.BUDGET

    def keep(self, name: str, drawing: _Drawing) -> None:
        old = self.get(name)
        self.size += drawing.size - (old.size if old is not None else 0)
        self[name] = drawing

    def clear(self) -> None:
        super().clear()
        self.size = 0


_DRAWINGS = _Drawings()
#: drawings beyond ``_DRAWINGS``'s budget, the last few made (a large deck's page drawn into its file and then into
#: the print-and-play file): a few pages' faces
RECENT_DRAWINGS = 64
_RECENT: dict[str, _Drawing] = {}
