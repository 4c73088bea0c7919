"""SVG renderer (svgwrite): the same primitives, one viewBox unit = 1 mm.

Forms become ``<symbol>`` definitions placed with ``<use>``. Numbers are
rounded to 0.001 mm so output is stable and diffable. Each file carries its
fonts: a ``<style>`` in ``<defs>`` holds one ``@font-face`` per face it draws
with, a TrueType subset of just the characters it prints (``fonts.web_subset``),
so Japanese shows on a machine that has no Japanese font.
"""
from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping
from pathlib import Path
from xml.etree.ElementTree import _escape_attrib, _escape_cdata  # type: ignore[attr-defined]  # as svgwrite's

from generator import fonts
from generator.layout import images, primitives
from generator.layout.primitives import Circle, Document, Group, Image, Line, Page, Polygon, Rect, Text, Use

#: picture kind → the media type of its data: URL
MEDIA_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "svg": "image/svg+xml"}

#: the root's family: every text in pnpgen's default face inherits it
DEFAULT_FAMILY = f"{fonts.FONT_NAME}, 'IPAGothic', sans-serif"


def _quoted(name: str) -> str:
    return "'" + name.replace("'", "").replace("\\", "").replace("<", "").replace(">", "") + "'"


def _family(font: str) -> tuple[str | None, bool, bool]:
    """``font-family`` for a registered face (None: the root's), and whether its file is bold, italic.
    The face's own name comes first: it is the family its embedded ``@font-face`` declares (unique per
    file, where two files may share a family name); the family the file calls itself follows."""
    family, bold, italic = fonts.css(font)
    if font == fonts.FONT_NAME:
        return None, bold, italic
    return f"{_quoted(font)}, {_quoted(family)}, {DEFAULT_FAMILY}", bold, italic


def font_face(family: str, face: str, bold: bool, italic: bool, text: Iterable[str],
              more: Iterable[str] = ()) -> str | None:
    """One CSS ``@font-face`` naming ``family`` (weight and style ``bold``, ``italic``) whose source is the
    registered face ``face`` cut down to the characters of ``text``, as a data: URL (None: the face has none
    of them). ``more``: characters other files will want soon (``fonts.web_subset``)."""
    data = fonts.web_subset(face, sorted(set(text)), more)
    if data is None:
        return None
    encoded = base64.b64encode(data).decode("ascii")
    return (f"@font-face {{ font-family: {_quoted(family)}; font-weight: {'bold' if bold else 'normal'}; "
            f"font-style: {'italic' if italic else 'normal'}; "
            f"src: url(data:font/ttf;base64,{encoded}) format('truetype'); }}")


def font_faces(chars: Mapping[str, Iterable[str]], more: Mapping[str, Iterable[str]] | None = None) -> str:
    """The ``@font-face`` rules of an SVG: each face of ``chars`` (face name → the characters it draws) under
    its own name as family, with the weight and style of its file, so nothing is synthesised twice."""
    rules = []
    for face in sorted(chars):
        _, bold, italic = fonts.css(face)
        rule = font_face(face, face, bold, italic, chars[face], (more or {}).get(face, ()))
        if rule is not None:
            rules.append(rule)
    return "\n".join(rules)


def svg_text(items, box: tuple[float, float, float, float], size: tuple[str, str] | None = None) -> str:
    """``items`` (primitives without forms) as the text of an ``<svg>`` element, viewBox ``box``, to be put
    inside a web page (no XML declaration; its text takes the page's fonts)."""
    import svgwrite  # 0.06 s to import: only when an SVG is made, not by a check

    x, y, w, h = box
    dwg = svgwrite.Drawing(size=size or (_n(w), _n(h)), profile="full", debug=False)
    dwg.viewbox(x, y, w, h)
    builder = _Builder(dwg, Document(""))
    for item in items:
        dwg.add(builder.build(item))
    text = str(dwg.tostring())
    # in HTML the svg element needs no namespace declarations, and HTML knows none of these prefixes
    for attribute in (' xmlns:ev="http://www.w3.org/2001/xml-events"', ' xmlns:xlink="http://www.w3.org/1999/xlink"',
                      ' baseProfile="full"', ' version="1.1"', "<defs />"):
        text = text.replace(attribute, "", 1)
    return text


def text_by_face(items, forms: Mapping) -> dict[str, set[str]]:
    """Face name → the characters the texts of ``items`` and of ``forms`` draw with it."""
    found: dict[str, set[str]] = {}

    def walk(its):
        for item in its:
            if isinstance(item, Text):
                found.setdefault(item.font, set()).update(item.text)
            elif isinstance(item, Group):
                walk(item.items)
    walk(items)
    for form in forms.values():
        walk(form.items)
    return found


_last_document: list = [None, {}]   # the last document rendered and text_by_face of all of it


def _document_text(doc: Document) -> dict[str, set[str]]:
    """Every character of ``doc`` per face: a deck's faces are written one after another, so the font master
    grows once per deck (``fonts.web_subset``'s ``more``); only the last document is kept."""
    if _last_document[0] is not doc:
        _last_document[:] = [doc, text_by_face([i for p in doc.pages for i in p.items], doc.forms)]
    return _last_document[1]


def _n(v: float) -> str:
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def render_svg(doc: Document, page: Page, path: Path, pictures: dict[str, str] | None = None) -> None:
    """Write one page of ``doc`` as an SVG file, sized in mm; ``pictures`` (digest → relative path)
    says where the file's pictures were copied (a picture not named there is embedded in the file).

    A page without pictures is written by ``_Drawing``, which writes what svgwrite writes (the same
    elements, attributes in the same order, escaped the same way) without building svgwrite's objects
    and an XML tree for each file: a deck of 1,000 faces is 1,000 SVGs. A page with pictures goes
    through svgwrite itself (nested ``<svg>`` clips and symbols of images)."""
    view = page.bleed_box or (0, 0, page.width, page.height)
    x, y, w, h = view
    if primitives.pictures(page.items, doc.forms):
        import svgwrite

        dwg = svgwrite.Drawing(str(path), size=(f"{_n(w)}mm", f"{_n(h)}mm"), profile="full", debug=False)
    else:
        dwg = _Drawing(size=(f"{_n(w)}mm", f"{_n(h)}mm"))
    dwg.viewbox(x, y, w, h)
    dwg["font-family"] = DEFAULT_FAMILY
    builder = _Builder(dwg, doc)
    builder.pictures = pictures or {}
    for item in page.items:
        dwg.add(builder.build(item))
    css = font_faces(builder.chars, _document_text(doc))
    if css:
        dwg.defs.elements.insert(0, dwg.style(css))
    if isinstance(dwg, _Drawing):
        with open(path, "w", encoding="utf-8") as f:   # as svgwrite's save opens it
            f.write(dwg.text())
    else:
        dwg.save(pretty=False)  # pretty=True re-parses the whole file: 40% of a large build


class _Element:
    """An element as svgwrite keeps one: attributes set in any order (written sorted by name; None or empty
    left out), child elements, text."""

    __slots__ = ("name", "attribs", "elements", "content")

    def __init__(self, name: str, **extra):
        self.name = name
        self.attribs: dict[str, object] = {}
        self.elements: list = []
        self.content: str | None = None   # text (escaped) or, for <style>, CSS (in CDATA)
        for key, value in extra.items():
            self.attribs[key.rstrip("_").replace("_", "-")] = value

    def __setitem__(self, key: str, value) -> None:
        self.attribs[key] = value

    def __getitem__(self, key: str):
        return self.attribs[key]

    def add(self, element):
        self.elements.append(element)
        return element

    def viewbox(self, minx=0, miny=0, width=0, height=0) -> None:
        self.attribs["viewBox"] = ",".join(str(v) for v in (minx, miny, width, height) if v is not None)

    def get_id(self) -> str:
        return str(self.attribs["id"])

    def write(self, out: list[str]) -> None:
        """As xml.etree.ElementTree serialises svgwrite's tree of it (``tostring``)."""
        out.append("<" + self.name)
        for key, value in sorted(self.attribs.items()):
            if value is not None:
                text = str(value)
                if text:
                    out.append(f' {key}="{_escape_attrib(text)}"')
        if self.name == "style" and self.content:
            out.append(f"><![CDATA[{self.content}]]></style>")
        elif self.content or self.elements:
            out.append(">")
            if self.content:
                out.append(_escape_cdata(self.content))
            for element in self.elements:
                element.write(out)
            out.append(f"</{self.name}>")
        else:
            out.append(" />")


class _Drawing(_Element):
    """The part of ``svgwrite.Drawing`` (profile full) that ``_Builder`` uses."""

    __slots__ = ("defs",)

    def __init__(self, size: tuple[str, str]):
        super().__init__("svg")
        self.attribs["width"], self.attribs["height"] = size
        self.defs = self.add(_Element("defs"))

    def text(self) -> str:
        self.attribs.update({"xmlns": "http://www.w3.org/2000/svg", "xmlns:xlink": "http://www.w3.org/1999/xlink",
                             "xmlns:ev": "http://www.w3.org/2001/xml-events", "baseProfile": "full",
                             "version": "1.1"})
        out = ['<?xml version="1.0" encoding="utf-8" ?>\n']
        self.write(out)
        return "".join(out)

    @staticmethod
    def rect(insert, size) -> _Element:
        return _Element("rect", x=insert[0], y=insert[1], width=size[0], height=size[1])

    @staticmethod
    def circle(center, r) -> _Element:
        return _Element("circle", cx=center[0], cy=center[1], r=r)

    @staticmethod
    def line(start, end) -> _Element:
        return _Element("line", x1=start[0], y1=start[1], x2=end[0], y2=end[1])

    @staticmethod
    def polygon(points) -> _Element:
        return _Element("polygon", points=" ".join(f"{x},{y}" for x, y in points))

    @staticmethod
    def polyline(points) -> _Element:
        return _Element("polyline", points=" ".join(f"{x},{y}" for x, y in points))

    @staticmethod
    def text_element(text: str, insert) -> _Element:
        element = _Element("text", x=insert[0], y=insert[1])
        element.content = str(text)
        return element

    @staticmethod
    def g(**extra) -> _Element:
        return _Element("g", **extra)

    @staticmethod
    def symbol(**extra) -> _Element:
        return _Element("symbol", **extra)

    @staticmethod
    def use(href: str, insert, size) -> _Element:
        element = _Element("use", x=insert[0], y=insert[1], width=size[0], height=size[1])
        element.attribs["xlink:href"] = href
        return element

    @staticmethod
    def clipPath(**extra) -> _Element:  # noqa: N802 - svgwrite's name
        return _Element("clipPath", **extra)

    @staticmethod
    def style(css: str) -> _Element:
        element = _Element("style", type="text/css")
        element.content = css
        return element


class _Builder:
    def __init__(self, dwg, doc):
        self.dwg, self.doc, self.defined = dwg, doc, set()
        self.pictures: dict[str, str] = {}   # digest → where the file refers to it (else embedded)
        self.chars: dict[str, set[str]] = {}  # face → the characters the file draws with it
        self.clips: list = []                 # the clip paths of clipped uses, numbered in drawing order

    def build(self, item):
        return getattr(self, "_" + type(item).__name__)(item)

    @staticmethod
    def _paint(el, fill, stroke, width):
        el["fill"] = fill or "none"
        if stroke:
            el["stroke"] = stroke
            el["stroke-width"] = _n(width)
        return el

    def _Rect(self, r: Rect):
        el = self.dwg.rect((_n(r.x), _n(r.y)), (_n(r.w), _n(r.h)))
        if r.radius:
            el["rx"] = el["ry"] = _n(r.radius)
        return self._paint(el, r.fill, r.stroke, r.stroke_width)

    def _Circle(self, c: Circle):
        return self._paint(self.dwg.circle((_n(c.cx), _n(c.cy)), _n(c.r)), c.fill, c.stroke, c.stroke_width)

    def _Line(self, ln: Line):
        el = self.dwg.line((_n(ln.x1), _n(ln.y1)), (_n(ln.x2), _n(ln.y2)))
        self._paint(el, None, ln.stroke, ln.stroke_width)
        if ln.dash:
            el["stroke-dasharray"] = " ".join(_n(d) for d in ln.dash)
        return el

    def _Polygon(self, pg: Polygon):
        pts = [(_n(x), _n(y)) for x, y in pg.points]
        el = self.dwg.polygon(pts) if pg.closed else self.dwg.polyline(pts)
        return self._paint(el, pg.fill if pg.closed else None, pg.stroke, pg.stroke_width)

    def _Text(self, t: Text):
        self.chars.setdefault(t.font, set()).update(t.text)
        el = (self.dwg.text_element(t.text, (_n(t.x), _n(t.y))) if isinstance(self.dwg, _Drawing)
              else self.dwg.text(t.text, insert=(_n(t.x), _n(t.y))))
        family, bold, italic = _family(t.font)
        if family is not None:
            el["font-family"] = family
        if bold:
            el["font-weight"] = "bold"
        if italic:
            el["font-style"] = "italic"
        el["font-size"] = _n(t.size * fonts.PT_TO_MM)
        el["fill"] = t.fill or "none"
        if t.anchor != "start":
            el["text-anchor"] = t.anchor   # start | middle | end: SVG's own words
        if t.spacing:
            el["letter-spacing"] = _n(t.spacing)
        if t.bold:
            el["stroke"] = t.fill
            el["stroke-width"] = _n(t.size * fonts.BOLD_STROKE)
        if t.italic:  # slanted about its baseline point, as the PDF's text matrix does
            el["transform"] = (f"translate({_n(t.x)},{_n(t.y)}) skewX({_n(-fonts.ITALIC_SLANT)}) "
                               f"translate({_n(-t.x)},{_n(-t.y)})")
        return el

    def _Group(self, g: Group):
        el = self.dwg.g()
        transform = []
        if g.dx or g.dy:
            transform.append(f"translate({_n(g.dx)},{_n(g.dy)})")
        if g.rotate:
            transform.append(f"rotate({_n(g.rotate)})")
        if g.scale != 1.0:
            transform.append(f"scale({g.scale:.6g})")
        if transform:
            el["transform"] = " ".join(transform)
        for item in g.items:
            el.add(self.build(item))
        return el

    def _Use(self, u: Use):
        form = self.doc.forms[u.name]
        if u.name not in self.defined:
            x, y, w, h = form.box
            symbol = self.dwg.symbol(id=u.name)
            symbol.viewbox(x, y, w, h)
            for item in form.items:
                symbol.add(self.build(item))
            self.dwg.defs.add(symbol)
            self.defined.add(u.name)
        x, y, w, h = form.box
        use = self.dwg.use(f"#{u.name}", insert=(_n(u.x + x), _n(u.y + y)), size=(_n(w), _n(h)))
        if u.clip is None:
            return use
        cx, cy, cw, ch = u.clip
        clip = self.dwg.clipPath(id=f"clip-{len(self.clips)}")
        self.clips.append(clip)
        clip.add(self.dwg.rect((_n(u.x + cx), _n(u.y + cy)), (_n(cw), _n(ch))))
        self.dwg.defs.add(clip)
        group = self.dwg.g(clip_path=f"url(#{clip.get_id()})")
        group.add(use)
        return group

    def _Image(self, im: Image):
        """Each picture is one ``<symbol>`` in defs holding an ``<image>``, placed with ``<use>``. The
        ``<image>`` refers to the copy the build made in pictures/ (``pictures``: a thousand faces with one
        background share one file, not a thousand copies of it), or else carries the bytes as a data: URL."""
        picture = images.known(im.path, im.digest)
        name = f"img-{im.digest[:16]}"
        if name not in self.defined:
            href = self.pictures.get(im.digest)
            if href is None:
                raw = images.standalone_svg(im.path) if picture.kind == "svg" else Path(im.path).read_bytes()
                data = base64.b64encode(raw).decode("ascii")
                href = f"data:{MEDIA_TYPES[picture.kind]};base64,{data}"
            symbol = self.dwg.symbol(id=name)
            symbol.viewbox(0, 0, _n(picture.width), _n(picture.height))
            symbol["preserveAspectRatio"] = "none"
            symbol.add(self.dwg.image(href, insert=(0, 0),
                                      size=(_n(picture.width), _n(picture.height))))
            self.dwg.defs.add(symbol)
            self.defined.add(name)
        where = images.placement(im, picture.width, picture.height)
        el = self.dwg.use(f"#{name}", insert=(_n(where.x), _n(where.y)), size=(_n(where.w), _n(where.h)))
        if where.clip is not None:
            # a nested <svg> clips what it holds to its own box, with no clipPath id to keep unique
            x, y, w, h = where.clip
            box = self.dwg.svg(insert=(_n(x), _n(y)), size=(_n(w), _n(h)))
            box.viewbox(_n(x), _n(y), _n(w), _n(h))
            box["overflow"] = "hidden"
            box.add(el)
            el = box
        if im.rotate or im.opacity < 1:
            group = self.dwg.g()
            if im.rotate:
                group["transform"] = f"rotate({_n(im.rotate)},{_n(im.x + im.w / 2)},{_n(im.y + im.h / 2)})"
            if im.opacity < 1:
                group["opacity"] = _n(im.opacity)
            group.add(el)
            el = group
        return el
