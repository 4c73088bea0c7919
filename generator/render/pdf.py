"""PDF renderer (ReportLab): one Document → one PDF file.

Forms become PDF XObjects drawn once and placed many times (measured 10-65x
faster and far smaller for large decks). ``invariant=1`` keeps the output
byte-identical for the same input.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import PDFArray, PDFBase85Encode, PDFName, PDFStream, PDFZCompress
from reportlab.pdfgen import canvas as rl_canvas

from generator import fonts
from generator.layout import images
from generator.layout.primitives import Circle, Document, Group, Image, Line, Polygon, Rect, Text, Use, pictures


def render_pdf(doc: Document, path: Path) -> None:
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
    marks: dict[int, list[str]] = {}
    for title, index in doc.outline:
        marks.setdefault(index, []).append(title)
    for index, page in enumerate(doc.pages):
        for n, title in enumerate(marks.get(index, [])):
            key = f"part-{index}-{n}"
            c.bookmarkPage(key)
            c.addOutlineEntry(title, key, level=0)
        c.setPageSize((page.width * mm, page.height * mm))
        c.setTrimBox(_box(page.trim_box, page.height) if page.trim_box else None)
        c.setBleedBox(_box(page.bleed_box, page.height) if page.bleed_box else None)
        painter.begin_page(page.height)
        for item in page.items:
            painter.draw(item)
        c.showPage()
        _pack(c)
    c.save()


def _pack(c) -> None:
    """Encode the page just shown now, as ``save`` would: ReportLab keeps every page's content as text until it writes
    the file (kilobytes a page, a 100,000-card deck has 22,000 pages); compressed, it keeps a fraction of that.
    The same filters in the same order on the same text: the file's bytes do not change (tests/test_memory.py)."""
    page = c._doc.Pages.pages[-1]
    if not (page.compression and page.stream) or page.Contents:
        return
    filters: list[Any] = [PDFBase85Encode, PDFZCompress] if rl_config.useA85 else [PDFZCompress]
    content = page.stream
    for f in reversed(filters):
        content = f.encode(content)
    stream = PDFStream(content=content)
    stream.dictionary["Filter"] = PDFArray([PDFName(f.pdfname) for f in filters])
    setattr(stream, "__Comment__", "page stream")   # noqa: B010  # as ReportLab names it (a comment in the file)
    page.Contents, page.stream = stream, None


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
        self._fill = self._stroke = self._width = None

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
        c = self.c
        if fill and fill != self._fill:
            c.setFillColor(HexColor(fill))
            self._fill = fill
        if stroke:
            if stroke != self._stroke:
                c.setStrokeColor(HexColor(stroke))
                self._stroke = stroke
            if width != self._width:
                c.setLineWidth(width * mm)
                self._width = width
        return (1 if fill else 0), (1 if stroke else 0)

    def _reset(self):
        self._fill = self._stroke = self._width = None

    def Y(self, y):
        return (self.height - y) * mm

    def draw(self, item):
        getattr(self, "_" + type(item).__name__)(item)

    def _Rect(self, r: Rect):
        fill, stroke = self._paint(r.fill, r.stroke, r.stroke_width)
        if not (fill or stroke):
            return
        if r.radius:
            self.c.roundRect(r.x * mm, self.Y(r.y + r.h), r.w * mm, r.h * mm, r.radius * mm, stroke, fill)
        else:
            self.c.rect(r.x * mm, self.Y(r.y + r.h), r.w * mm, r.h * mm, stroke, fill)

    def _Circle(self, ci: Circle):
        fill, stroke = self._paint(ci.fill, ci.stroke, ci.stroke_width)
        if fill or stroke:
            self.c.circle(ci.cx * mm, self.Y(ci.cy), ci.r * mm, stroke, fill)

    def _Line(self, ln: Line):
        self._paint(None, ln.stroke, ln.stroke_width)
        if ln.dash:
            self.c.setDash([d * mm for d in ln.dash])
        self.c.line(ln.x1 * mm, self.Y(ln.y1), ln.x2 * mm, self.Y(ln.y2))
        if ln.dash:
            self.c.setDash()

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

    def _Text(self, t: Text):
        c = self.c
        if t.bold:
            # text render mode is graphics state that outlives the text object (and
            # ReportLab skips "0 Tr" in a new one): confine the bold mode with q/Q
            c.saveState()
        self._paint(t.fill, t.fill if t.bold else None, t.size * fonts.BOLD_STROKE)
        obj = c.beginText()
        obj.setFont(t.font, t.size)
        if t.bold:
            obj.setTextRenderMode(2)
        width = fonts.text_width_mm(t.text, t.size, t.font) + t.spacing * len(t.text)
        x = t.x - (width / 2 if t.anchor == "middle" else width if t.anchor == "end" else 0)
        if t.italic:  # slanted about the baseline: x' = x + tan(slant)·y, as SVG's skewX
            obj.setTextTransform(1, 0, math.tan(math.radians(fonts.ITALIC_SLANT)), 1, x * mm, self.Y(t.y))
        else:
            obj.setTextOrigin(x * mm, self.Y(t.y))
        if t.spacing:   # Tc is text state, which outlives the text object: set back to 0 inside it
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
        form = self.doc.forms[u.name]
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
            c.saveState()
            c.translate(u.x * mm, self.Y(u.y))
            c.doForm(u.name)
            c.restoreState()
        if u.clip is not None:
            c.restoreState()

    def _inline(self, form, u: Use):
        c = self.c
        x, y, w, h = form.box
        c.saveState()
        clip = c.beginPath()
        clip.rect((u.x + x) * mm, self.Y(u.y + y + h), w * mm, h * mm)
        c.clipPath(clip, stroke=0, fill=0)
        outer_height = self.height
        c.translate(u.x * mm, self.Y(u.y))
        self.height = 0.0
        self._reset()
        for item in form.items:
            self.draw(item)
        self.height = outer_height
        c.restoreState()
        self._reset()

    def _define(self, form):
        c = self.c
        x, y, w, h = form.box
        outer_height, self.height = self.height, 0.0
        self._reset()
        c.beginForm(form.name, x * mm, -(y + h) * mm, (x + w) * mm, -y * mm)
        for item in form.items:
            self.draw(item)
        c.endForm()
        self.height = outer_height
        self._reset()
        self.defined.add(form.name)

    # ------------------------------------------------------------------ pictures
    def define_pictures(self, doc: Document) -> None:
        """One form per picture file (by content), defined before any page: an image XObject (or an
        SVG's vectors) stored once in the PDF however many faces place it. Defined up front because
        a face's own form may place it, and forms are not defined inside forms."""
        seen = pictures([item for page in doc.pages for item in page.items], doc.forms)
        for form in doc.forms.values():   # one at a time: a large game's forms are unpickled as asked for
            for digest, image in pictures(form.items, doc.forms).items():
                seen.setdefault(digest, image)
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
                c.drawImage(_reader(im.path, im.digest), 0, 0, picture.width, picture.height, mask="auto")
            finally:
                rl_config.useA85 = a85
        else:
            from reportlab.graphics import renderPDF  # with reportlab.platypus, 0.07 s: only for SVG pictures

            renderPDF.draw(images.svg_drawing(im.path, im.digest), c, 0, 0)
        c.endForm()
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


_READERS: dict[tuple[str, str], ImageReader] = {}
_KEPT_PIXELS = 8_000_000


def _reader(path: str, digest: str) -> ImageReader:
    """One ImageReader per picture for the whole build: it keeps the decoded pixels, so the deck's PDF, the
    print-shop PDF and the print-and-play file decode a large background once, not once each."""
    key = (path, digest)
    if key in _READERS:
        return _READERS[key]
    reader = ImageReader(path)
    width, height = reader.getSize()
    if width * height <= _KEPT_PIXELS:   # a board-sized picture is not kept: its pixels are hundreds of MB
        if len(_READERS) >= 4:
            _READERS.pop(next(iter(_READERS)))
        _READERS[key] = reader
    return reader
