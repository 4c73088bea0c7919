"""Picture files a game names (PNG, JPEG, SVG): read once, measured, and placed in a box.

A picture is read lazily, the first time a face names it, and kept per path and
content (``read``): its bytes are hashed (the ``Image`` primitive's digest, so
equal pictures share one embedded object in a PDF and a face's hash changes when
its picture does), its header gives its size; an SVG is parsed once by svglib
(vectors in the PDF), which also proves it readable. A file that is not a
picture, a truncated or malformed one, one too large (``limits``) is a
ContentError at the line that named it: exit 2 from ``check`` and ``build``
alike, as the check lays faces out with the build's own code.

``placement`` is the box maths both renderers share (fit, fill, stretch, crop),
so PDF and SVG put a picture at the same millimetres. ``record_use`` keeps where
each picture is printed and at what size, for the resolution check (PNP710).
"""
from __future__ import annotations

import hashlib
import math
import os
import re
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from generator import TEMPLATES_DIR, fonts, limits
from generator.errors import ContentError, Source
from generator.layout.primitives import Form, Group, Image, Use
from generator.model import dataclass_eq, dataclass_hash, dataclass_repr
from generator.paths import game_roots, inside, long_names, not_a_file

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing

#: file suffix → kind of picture
KINDS = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".svg": "svg"}
FITS = ("fit", "fill", "stretch")
#: the resolution below which a raster picture prints visibly soft (a warning, PNP710)
MIN_DPI = 300
MM_PER_INCH = 25.4


@dataclass(frozen=True, repr=False, eq=False)
class Picture:
    """A readable picture: ``width``/``height`` in pixels (raster) or points (SVG)."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    path: str
    digest: str
    kind: str          # png | jpeg | svg
    width: float
    height: float

    @property
    def raster(self) -> bool:
        return self.kind != "svg"


@dataclass(frozen=True, repr=False, eq=False)
class Placement:
    """Where the whole picture is drawn (x, y, w, h mm) and the rectangle that clips it (None: no clip)."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    x: float
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float] | None


# (resolved path, size, mtime) → Picture; a build names the same file on every card, so it is read once
_PICTURES: OrderedDict[tuple, Picture] = OrderedDict()
# (path, digest) → Picture: what the renderers look up, without reading the file again
_BY_DIGEST: OrderedDict[tuple, Picture] = OrderedDict()
# (path, digest) → svglib drawing, shared by the check and every PDF of a build
_DRAWINGS: OrderedDict[tuple, Drawing] = OrderedDict()
_CACHED = 256
_CACHED_DRAWINGS = 32
#: (SVG path, its bytes' digest) → the PNG and JPEG files it draws (``_svg_references``), resolved: kept while its
#: drawing is in ``_DRAWINGS`` (at most ``_CACHED_DRAWINGS``)
_SVG_DRAWS: dict[tuple, tuple[str, ...]] = {}


def _remember(cache: OrderedDict, key, value):
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > _CACHED:
        cache.popitem(last=False)
    return value


def picture_path(game, name: str, src: Source | None) -> Path:
    """The file a content path names (``art/x.png``): relative to the game folder, or, when the game
    has no such file, to pnpgen's templates/ (bundled art); it must stay inside them (``paths.inside``:
    no ``..`` out, no symbolic link out)."""
    if Path(name).is_absolute() or name.startswith("~"):
        raise ContentError(src, f"picture '{name}' is an absolute path",
                           "name the file relative to the game folder, e.g. art/forest.png")
    candidate = Path(game.folder) / name
    long_names(candidate, src, name)
    if not candidate.exists() and not candidate.is_symlink() and (TEMPLATES_DIR / name).is_file():
        candidate = TEMPLATES_DIR / name
    return inside(candidate, game_roots(game), src, name)


def named(game, name: str, src: Source | None) -> Picture:
    """The picture a content value names (``art/x.png``), found (``picture_path``) and read (``read``) once
    per game and name: a layout names the same picture on every card of a deck."""
    found = game.__dict__.setdefault("_kept_pictures_named", {})
    if name not in found:
        found[name] = read(picture_path(game, name, src), src, name)
    return found[name]


def known(path: str, digest: str) -> Picture:
    """The picture read already for the ``Image`` primitive with this path and digest (renderers ask)."""
    picture = _BY_DIGEST.get((path, digest))
    return picture if picture is not None else read(Path(path), None)


def read(path: Path, src: Source | None, shown: str | None = None) -> Picture:
    """The picture at ``path`` (already resolved and kept inside the game); a ContentError at ``src``
    when it is missing, not a picture pnpgen reads, malformed or too large."""
    shown = shown or str(path)
    kind = KINDS.get(path.suffix.lower())
    if kind is None:
        raise ContentError(src, f"picture '{shown}' is not a PNG, JPEG or SVG file (by its name)",
                           "use a .png, .jpg/.jpeg or .svg file")
    try:
        stat = path.stat()
    except OSError:
        raise ContentError(src, f"picture '{shown}' not found", "check the file name (relative to the game "
                                                                "folder), or add the file") from None
    not_a_file(path, src, shown, folder_too=True, what="picture")
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key in _PICTURES:
        _PICTURES.move_to_end(key)
        return _PICTURES[key]
    if stat.st_size > limits.MAX_IMAGE_BYTES:
        raise ContentError(src, f"picture '{shown}' has {stat.st_size:,} bytes, more than "
                                f"{limits.MAX_IMAGE_BYTES:,} (limits.MAX_IMAGE_BYTES)",
                           "make the file smaller: a card needs about 1,000 × 1,000 pixels at 300 dpi")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ContentError(src, f"picture '{shown}' cannot be read: {exc.strerror}", "check the file") from None
    digest = hashlib.sha256(data).hexdigest()
    drawn: tuple[str, ...] = ()
    if kind == "svg":
        drawing = svg_drawing(str(path), digest, src, shown)
        width, height = float(drawing.width), float(drawing.height)
        drawn = _SVG_DRAWS.get((str(path), digest), ())
        if drawn:   # the files it draws are part of what it looks like: in its digest, which caches are keyed by
            parts = [digest, *(read(Path(other), src, f"{shown} → {Path(other).name}").digest for other in drawn)]
            digest = hashlib.sha256(" ".join(parts).encode()).hexdigest()
    else:
        width, height = _raster_size(path, kind, src, shown)
    picture = Picture(str(path), digest, kind, width, height)
    if not drawn:   # one that draws other files is read again each time: they may change while it does not
        _remember(_PICTURES, key, picture)
    _remember(_BY_DIGEST, (picture.path, digest), picture)
    return picture


def _raster_size(path: Path, kind: str, src, shown: str) -> tuple[float, float]:
    """Pixels of a PNG or JPEG, from its header; the whole file is decoded once too (a truncated file
    is found here, not by the PDF writer), unless it has more pixels than allowed (a decompression bomb)."""
    from PIL import Image as PILImage  # imported when a game has a picture, not by every command

    hint = "open the file in an image editor and save it again as PNG or JPEG"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", PILImage.DecompressionBombWarning)
            with PILImage.open(path) as im:
                fmt = (im.format or "").lower()
                width, height = im.size
                if width * height > limits.MAX_IMAGE_PIXELS:
                    raise ContentError(src, f"picture '{shown}' has {width} × {height} pixels, more than "
                                            f"{limits.MAX_IMAGE_PIXELS:,} (limits.MAX_IMAGE_PIXELS)",
                                       "scale it down: a whole 790 × 525 mm board at 300 dpi is 58 million pixels")
                if fmt != kind:
                    raise ContentError(src, f"picture '{shown}' is named .{path.suffix.lower()[1:]} but holds "
                                            f"{fmt.upper() or 'something else'}", hint)
                if fmt == "jpeg":   # every coded block is still read (a truncated file is found) at 1/8 the pixels
                    im.draft("RGB", (max(1, width // 8), max(1, height // 8)))
                im.load()
    except ContentError:
        raise
    except (PILImage.DecompressionBombError, PILImage.DecompressionBombWarning):
        raise ContentError(src, f"picture '{shown}' has more pixels than allowed (a decompression bomb?)",
                           "scale it down") from None
    except (OSError, ValueError, SyntaxError, EOFError) as exc:   # PIL.UnidentifiedImageError is an OSError
        raise ContentError(src, f"picture '{shown}' is not a readable {kind.upper()} image ({exc})", hint) from None
    if not (width and height):
        raise ContentError(src, f"picture '{shown}' has no pixels", hint)
    return float(width), float(height)


def svg_drawing(path: str, digest: str, src: Source | None = None, shown: str | None = None) -> Drawing:
    """The SVG at ``path`` as a ReportLab drawing (svglib), parsed once per content.

    Untrusted: lxml resolves no entities, loads no DTD and reaches no network; svglib follows an
    ``<image>``/``<use>`` reference only to a file in the SVG's own folder (``external_reference_root``)."""
    key = (path, digest)
    if key in _DRAWINGS:
        _DRAWINGS.move_to_end(key)
        return _DRAWINGS[key]
    from lxml import etree  # svglib and lxml: only for a game with SVG pictures
    from svglib.svglib import SvgRenderer

    shown = shown or path
    hint = "open the file in a vector editor and save it again as plain SVG"
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True)
    try:
        root = etree.parse(path, parser=parser).getroot()
    except (etree.XMLSyntaxError, OSError) as exc:
        raise ContentError(src, f"picture '{shown}' is not a readable SVG file ({exc})", hint) from None
    if root is None or not isinstance(root.tag, str) or etree.QName(root).localname != "svg":
        raise ContentError(src, f"picture '{shown}' is not an SVG file (its root element is not <svg>)", hint)
    drawn = _svg_references(root, Path(path), src, shown)
    elements = _svg_elements(root, limits.MAX_SVG_ELEMENTS)
    if elements > limits.MAX_SVG_ELEMENTS:
        raise ContentError(src, f"picture '{shown}' has more than {limits.MAX_SVG_ELEMENTS:,} elements, each <use> "
                                f"counted as the elements it copies (limits.MAX_SVG_ELEMENTS)",
                           "simplify the drawing (fewer shapes, fewer <use> copies), or export it as a PNG")
    try:
        drawing = SvgRenderer(path, external_reference_root=os.path.dirname(path)).render(root)
    except Exception as exc:  # noqa: BLE001 - svglib raises many kinds for content it cannot draw
        raise ContentError(src, f"picture '{shown}' cannot be drawn: {type(exc).__name__}: {exc}", hint) from None
    if drawing is None or not (float(drawing.width) > 0 and float(drawing.height) > 0):
        raise ContentError(src, f"picture '{shown}' has no size (width, height or viewBox)",
                           'give the <svg> element a viewBox, e.g. viewBox="0 0 100 100"')
    _drawable_numbers(drawing, src, shown)
    _embedded_fonts_only(drawing)
    _remember(_DRAWINGS, key, drawing)
    _SVG_DRAWS[key] = drawn
    while len(_DRAWINGS) > _CACHED_DRAWINGS:   # drawings are larger than headers: keep fewer
        _SVG_DRAWS.pop(_DRAWINGS.popitem(last=False)[0], None)   # what it draws, known as long as it is
    return drawing


#: a reference with a scheme (http:, https:, file:, ftp: …): svglib would read it as a path, pnpgen reads no URL
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _svg_references(root, path: Path, src: Source | None, shown: str) -> tuple[str, ...]:
    """Refuse what an SVG picture's ``href``/``xlink:href`` names beyond itself, before svglib follows it.

    svglib draws an ``<image>`` or ``<use>`` naming a file relative to the SVG (kept to the SVG's folder,
    ``external_reference_root``), silently skipping what it cannot read, and opens it unchecked: a named pipe
    waits forever, a hidden file is outside the build cache's key. Allowed: ``#id`` within the SVG, ``data:``
    images, and a PNG or JPEG file in the SVG's folder or below that ``paths.inside`` accepts (not hidden, a
    regular file), read as every picture is (``read``); every such file is content, so the cache's key hashes
    it. Refused: a URL, an absolute path, another SVG (its shapes would escape ``MAX_SVG_ELEMENTS``).
    CSS ``url(...)`` is not followed by svglib except to ``#id`` (gradients, clip paths). Returns the files
    drawn (resolved), each once, in the order first named."""
    folder = path.parent
    drawn: list[str] = []
    for element in root.iter():
        if not isinstance(element.tag, str) or etree_local(element.tag) not in ("image", "use"):
            continue   # the only elements svglib follows an href of (an <a href> is a link, not drawn)
        value = (element.get("{http://www.w3.org/1999/xlink}href") or element.get("href") or "").strip()
        if not value or value.startswith("#") or value.startswith("data:"):
            continue
        name = value.split("#", 1)[0]
        where = f"picture '{shown}' names '{value[:80]}' in <{etree_local(element.tag)} href>"
        if _URL.match(name) or name.startswith(("/", "\\")) or os.path.isabs(name):
            raise ContentError(src, f"{where}: a URL or a path from the top of the disk",
                               "pnpgen reads no URL: save the picture in the game folder beside the SVG and name "
                               "it relative to the SVG (e.g. href=\"paper.png\"), or embed it as a data: URI")
        if Path(name).suffix.lower() not in (".png", ".jpg", ".jpeg"):
            raise ContentError(src, f"{where}: an SVG picture may draw another file only if it is a PNG or JPEG",
                               "copy the shapes into this SVG (a <use> of another SVG file is not followed)")
        real = inside(folder / name, (folder,), src, f"{shown} → {name}")
        if not real.exists():
            raise ContentError(src, f"{where}, which does not exist",
                               "add the file beside the SVG, or correct the name (relative to the SVG's folder)")
        read(real, src, f"{shown} → {name}")   # a regular file, bounded and readable like any picture
        if str(real) not in drawn:
            drawn.append(str(real))
    return tuple(drawn)


#: the media type a data: URL gives each kind of file an SVG picture may draw (``_svg_references``)
_DRAWN_MEDIA_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}


def standalone_svg(path: str) -> bytes:
    """The SVG picture at ``path`` as an SVG output carries it: each PNG or JPEG it draws with ``<image href>``
    inlined as a data: URL. A browser shows an SVG picture (a data: URL, or the copy in an SVG output's
    pictures/ folder) without loading anything it names, so a file beside the game's SVG would be missing
    there; the PDFs draw it through svglib. An SVG that draws no file keeps its bytes. What is inlined is at
    most MAX_IMAGE_BYTES in all (a reference past it keeps its name: that picture alone is left out)."""
    data = Path(path).read_bytes()
    if b"<image" not in data and b":image" not in data:
        return data
    import base64

    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True)
    root = etree.fromstring(data, parser=parser)
    folder = Path(path).parent
    _svg_references(root, Path(path), None, Path(path).name)   # refuses what the drawing refused
    budget = limits.MAX_IMAGE_BYTES
    encoded: dict[Path, str] = {}
    for element in root.iter():
        if not isinstance(element.tag, str) or etree_local(element.tag) != "image":
            continue
        for attribute in ("{http://www.w3.org/1999/xlink}href", "href"):
            value = (element.get(attribute) or "").strip()
            if not value or value.startswith(("#", "data:")):
                continue
            real = inside(folder / value.split("#", 1)[0], (folder,), None, value)
            if real not in encoded:
                encoded[real] = (f"data:{_DRAWN_MEDIA_TYPES[real.suffix.lower()]};base64,"
                                 + base64.b64encode(real.read_bytes()).decode("ascii"))
            if len(encoded[real]) <= budget:
                budget -= len(encoded[real])
                element.set(attribute, encoded[real])
    return etree.tostring(root, xml_declaration=True, encoding="utf-8")


def etree_local(tag: str) -> str:
    """An element's name without its namespace ('{http://www.w3.org/2000/svg}image' → 'image')."""
    return tag.rsplit("}", 1)[-1]


def _svg_elements(root, limit: int) -> int:
    """The elements svglib would draw from ``root``: each element once, and each ``<use>`` once more for every
    element it copies (a use of a group of 1,000 shapes, written 100 times, is 100,000 shapes to draw). The
    count stops once it passes ``limit``; a ``<use>`` that leads back to itself counts nothing (svglib skips it)."""
    total = sum(1 for _ in root.iter())
    if total > limit:
        return total
    by_id = {element.get("id"): element for element in root.iter() if element.get("id")}
    copied: dict[str, int] = {}

    def href(element) -> str | None:
        if not isinstance(element.tag, str) or not element.tag.endswith("use"):
            return None
        value = element.get("{http://www.w3.org/1999/xlink}href") or element.get("href") or ""
        return value[1:] if value.startswith("#") else None

    def size(name: str, chain: tuple) -> int:
        if name in chain or name not in by_id:
            return 0
        if name not in copied:
            count = 0
            for element in by_id[name].iter():
                target = href(element)
                count += 1 + (size(target, (*chain, name)) if target and len(chain) < 64 else 0)
                if count > limit:
                    break
            copied[name] = count
        return copied[name]

    for element in root.iter():
        target = href(element)
        if target:
            total += size(target, ())
            if total > limit:
                break
    return total


def _drawable_numbers(drawing: Drawing, src: Source | None, shown: str) -> None:
    """Every number of an SVG's drawing can be written into a PDF and its size can be scaled to a box: svglib
    passes ``width="1e308"`` or ``scale(1e30)`` through, and ReportLab then fails as the PDF is written —
    after ``check`` had passed. Refused here, where the check and the build both read the picture."""
    hint = "give the <svg> a plain size and viewBox (e.g. width=\"100\" height=\"100\" viewBox=\"0 0 100 100\")"
    for side in (float(drawing.width), float(drawing.height)):
        if not limits.MIN_SVG_SIZE_PT <= side <= limits.MAX_SVG_NUMBER:
            raise ContentError(src, f"picture '{shown}' has a size of {side:g} pt, which cannot be printed", hint)
    stack: list = [drawing]
    while stack:
        node = stack.pop()
        for value in vars(node).values():
            numbers = value if isinstance(value, (list, tuple)) else (value,)
            for number in numbers:
                if isinstance(number, float) and not (math.isfinite(number) and abs(number) <= limits.MAX_SVG_NUMBER):
                    raise ContentError(src, f"picture '{shown}' holds the number {number:g}, which cannot be "
                                            f"written into a PDF (beyond {limits.MAX_SVG_NUMBER:g}, "
                                            f"limits.MAX_SVG_NUMBER)", hint)
        stack.extend(getattr(node, "contents", ()))


def _embedded_fonts_only(drawing: Drawing) -> None:
    """Every font a drawing names is pnpgen's default face: ReportLab's renderer starts each drawing
    in Helvetica and svglib maps an SVG's font-family to the PDF standard fonts, which are never
    embedded (a print shop refuses them, a printer substitutes them). Text in a picture is set in
    the face every page already embeds; to keep a picture's own lettering, convert it to paths."""
    from reportlab.graphics.shapes import String

    # ReportLab's renderer reads initialFontName from a Drawing; recent type stubs leave the attribute out
    cast(Any, drawing).initialFontName = fonts.FONT_NAME
    stack: list = [drawing]
    while stack:
        node = stack.pop()
        if isinstance(node, String):
            node.fontName = fonts.FONT_NAME
        stack.extend(getattr(node, "contents", ()))


def printed_mm(picture: Picture, image: Image) -> tuple[float, float]:
    """The millimetres the whole of ``picture`` spans where ``image`` prints it (a crop or ``fill`` spans
    more than the box: the part shown is the box)."""
    where = placement(image, picture.width, picture.height)
    return abs(where.w), abs(where.h)


def largest_prints(items, forms: dict[str, Form], digests: set[str]) -> dict[str, tuple[float, float]]:
    """The widest and tallest millimetres each picture of ``digests`` spans anywhere in ``items`` and the forms
    they place (a group's ``scale`` above 1 enlarges it; one below 1 is left out: it only shrinks). Each form
    is walked once per enlargement."""
    largest: dict[str, tuple[float, float]] = {}
    walked: set[tuple[str, float]] = set()
    stack: list[tuple[tuple, float]] = [(tuple(items), 1.0)]
    while stack:
        group, factor = stack.pop()
        for item in group:
            if isinstance(item, Image) and item.digest in digests:
                w, h = printed_mm(known(item.path, item.digest), item)
                was = largest.get(item.digest, (0.0, 0.0))
                largest[item.digest] = (max(was[0], w * factor), max(was[1], h * factor))
            elif isinstance(item, Group):
                stack.append((item.items, factor * max(1.0, abs(item.scale))))
            elif isinstance(item, Use) and item.name in forms and (item.name, factor) not in walked:
                walked.add((item.name, factor))
                stack.append((forms[item.name].items, factor))
    return largest


def embedded_pixels(picture: Picture, largest_mm: tuple[float, float]) -> tuple[int, int] | None:
    """The pixels to embed of a raster ``picture`` printed at most ``largest_mm`` wide and tall: enough for
    ``limits.MAX_PICTURE_DPI`` there, or None when the picture has no more than that (embedded as it is)."""
    need = max(largest_mm[0] / MM_PER_INCH * limits.MAX_PICTURE_DPI / picture.width,
               largest_mm[1] / MM_PER_INCH * limits.MAX_PICTURE_DPI / picture.height)
    if not picture.raster or picture.width * picture.height <= limits.MAX_UNREDUCED_PIXELS or need >= 1:
        return None
    return max(1, math.ceil(picture.width * need)), max(1, math.ceil(picture.height * need))


def decoded_at(path: str, size: tuple[int, int]):
    """The picture at ``path`` decoded and scaled down to ``size`` pixels, as a Pillow image a PDF embeds: a
    JPEG is decoded at 1/2, 1/4 or 1/8 of its size already (``draft``), a PNG once at its own size and kept
    only until it is scaled (its memory, at most 4 bytes a pixel of ``limits.MAX_IMAGE_PIXELS``, is given
    back before the PDF is written)."""
    from PIL import Image as PILImage

    with PILImage.open(path) as opened:
        opened.draft("RGB", size)   # JPEG only; never below ``size``
        im: PILImage.Image = opened
        if im.mode not in ("L", "LA", "RGB", "RGBA"):
            im = im.convert("RGBA" if im.mode in ("P", "PA") and "transparency" in im.info or im.mode == "PA"
                            else "RGB")
        factor = min(im.width // size[0], im.height // size[1])
        if factor >= 2:   # box-averaged by a whole factor first: no intermediate copy of the full size
            im = reduced(im, factor)
        result = im if im.size == size else im.resize(size, PILImage.Resampling.LANCZOS)
        result.load()   # a JPEG drafted to exactly ``size`` is still the file's: read before it is closed
        return result


def reduced(im, factor: int):
    """``im.reduce(factor)``, the same pixels, made a band of rows at a time: Pillow reduces an RGBA or LA image
    through a premultiplied copy of all of it (``convert("RGBa")``), another 4 bytes a pixel beside the decoded
    picture (a 79-megapixel PNG: peak 651 MB, now 350 MB). Each band is a whole number of ``factor`` rows, so
    every box averaged is the one the whole image's reduce averages."""
    from PIL import Image as PILImage

    im.load()
    width, height = im.size
    band = factor * max(1, limits.REDUCE_BAND_PIXELS // (width * factor))
    if band >= height:
        return im.reduce(factor)
    out = PILImage.new(im.mode, (-(-width // factor), -(-height // factor)))
    for top in range(0, height, band):
        out.paste(im.crop((0, top, width, min(height, top + band))).reduce(factor), (0, top // factor))
    return out


def placement(image: Image, width: float, height: float) -> Placement:
    """Where a picture of ``width`` × ``height`` (any unit) is drawn for ``image``'s box, in mm.

    The crop (fractions of the picture) is the part shown; ``fit`` shows it whole in proportion,
    centred in the box; ``fill`` covers the box in proportion, centred, the overflow clipped;
    ``stretch`` fills the box exactly, out of proportion."""
    cx, cy, cw, ch = image.crop or (0.0, 0.0, 1.0, 1.0)
    part_w, part_h = width * cw, height * ch
    sx, sy = image.w / part_w, image.h / part_h
    if image.fit == "fit":
        sx = sy = min(sx, sy)
    elif image.fit == "fill":
        sx = sy = max(sx, sy)
    shown_w, shown_h = part_w * sx, part_h * sy
    left = image.x + (image.w - shown_w) / 2
    top = image.y + (image.h - shown_h) / 2
    x, y = left - cx * width * sx, top - cy * height * sy
    clip = None
    if image.crop is not None or image.fit == "fill":
        x0, y0 = max(left, image.x), max(top, image.y)
        x1, y1 = min(left + shown_w, image.x + image.w), min(top + shown_h, image.y + image.h)
        clip = (x0, y0, x1 - x0, y1 - y0)
    return Placement(x, y, width * sx, height * sy, clip)


def dpi(picture: Picture, image: Image) -> float:
    """The resolution a raster picture prints at in ``image``'s box (the lower of across and down)."""
    where = placement(image, picture.width, picture.height)
    return min(picture.width / (where.w / MM_PER_INCH), picture.height / (where.h / MM_PER_INCH))


@dataclass(frozen=True, repr=False, eq=False)
class PictureUse:
    """A picture printed somewhere: where the content named it, for what, and the primitive drawn."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    source: Source
    what: str
    shown: str
    picture: Picture
    image: Image


def record_use(game, use: PictureUse) -> None:
    """Keep ``use`` with the game (for the resolution check); the same place and size once."""
    uses = game.__dict__.setdefault("_kept_picture_uses", {})
    where = use.source
    uses.setdefault((where.file, where.line, use.picture.path, use.image.w, use.image.h, use.image.crop, use.image.fit),
                    use)


def recorded_uses(game) -> list[PictureUse]:
    """Every picture use laid out so far for ``game``, in the order first drawn."""
    return list(game.__dict__.get("_kept_picture_uses", {}).values())
