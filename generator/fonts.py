"""The typefaces pnpgen prints with, and text measurement.

pnpgen's own faces: IPAexGothic (regular; Japanese, Latin and German) and BIZ UDPGothic
Bold (a real bold of the same proportional design, SIL OFL), both TrueType, so every face
is embedded and subset (ReportLab cannot embed CFF/OTF, and its built-in CID fonts are not
embedded). A game may declare families of its own TrueType files (``fonts:``); each file is
registered under a name made from a digest of its bytes, so two games that both call a
family "body" never share a face, and the same file always gets the same name (byte-identical
output). Layout measures text with the same metrics the PDF uses, so wrapping is identical
in PDF and SVG; what a family has no file for (a bold, an italic) is synthesised by the
renderers (``Face.fake_bold``, ``Face.fake_italic``).
"""
from __future__ import annotations

import bisect
import hashlib
import importlib
import io
import mmap
import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from generator import FONT_DIR, fontsubset
from generator.errors import ContentError, Source
from generator.limits import MAX_FONT_BYTES

if TYPE_CHECKING:
    from fontTools import subset as ftsubset

FONT_NAME = "IPAexGothic"
FONT_FILE = FONT_DIR / "ipaexg.ttf"
BOLD_NAME = "BIZUDPGothic-Bold"
BOLD_FILE = FONT_DIR / "BIZUDPGothic-Bold.ttf"
PT_TO_MM = 25.4 / 72.0
#: fake bold is the face filled and outlined; outline width in mm per pt of size (0.16 mm at 13 pt)
BOLD_STROKE = 0.012
#: fake italic slants the glyphs by this many degrees (PDF text matrix and SVG skewX alike)
ITALIC_SLANT = 12.0
#: how a file that cannot be used is put right, in every message that refuses one
KINDS_HINT = ("pnpgen embeds TrueType fonts only (.ttf files with glyf outlines): take the TTF release of the "
              "font, or convert an OpenType/CFF file to TrueType (fontTools' otf2ttf.py snippet, or FontForge)")


@dataclass(frozen=True, slots=True)
class Face:
    """A registered face to draw with, and what the renderer must synthesise because no file has it."""

    name: str
    fake_bold: bool = False
    fake_italic: bool = False


@dataclass(frozen=True, slots=True)
class FontFamily:
    """A family a game declares (``fonts:``): TrueType files, absolute and kept inside the game."""

    regular: Path
    bold: Path | None = None
    italic: Path | None = None
    bold_italic: Path | None = None


#: pnpgen's own family: IPAexGothic with a real bold; italic is synthesised
DEFAULT = FontFamily(FONT_FILE, bold=BOLD_FILE)
_BUNDLED = {FONT_FILE: FONT_NAME, BOLD_FILE: BOLD_NAME}
_OWN_FILES = {name: path for path, name in _BUNDLED.items()}


@dataclass(frozen=True, slots=True)
class _Info:
    """What SVG needs to name a registered face: its family as CSS knows it, and its style."""

    family: str
    bold: bool
    italic: bool


_names: dict[Path, str] = {}      # file (resolved) → registered face name
_info: dict[str, _Info] = {}      # registered face name → CSS family and style


def register() -> str:
    """Register pnpgen's own faces with ReportLab once (what the PDF writer draws with and SVG names);
    returns the default face's name. Measuring them needs no registering (``_Metrics``)."""
    if FONT_NAME not in _info:
        _register(FONT_FILE)
        _register(BOLD_FILE)
    return FONT_NAME


def register_file(path: Path, src: Source | None = None) -> str:
    """Register the TrueType file ``path`` once; returns its face name. A file that cannot be
    embedded is a ContentError at ``src`` (the game's ``fonts:`` line) saying which files work.
    pnpgen's own files are only named here (ReportLab and their parse wait for ``register``)."""
    if not isinstance(path, Path):
        path = Path(path)
    own = _BUNDLED.get(path)
    if own is not None:
        _names[path] = own
        return own
    return _register(path, src)


def _register(path: Path, src: Source | None = None) -> str:
    if _names.get(path) in _info:
        return _names[path]
    data = _own_file(path) if path in _BUNDLED else _read(path, src)
    shown = path.name
    tables = _tables(data, shown, src)
    name = _BUNDLED.get(path) or "F" + hashlib.sha256(data).hexdigest()[:16]
    if name not in _info:
        # ReportLab (0.05 s to import) when a face is first needed: not by a command that only reads content
        from reportlab.pdfbase import pdfmetrics

        # fontparse subclasses ReportLab's classes, so it is imported as late as ReportLab is
        fontparse: ModuleType = importlib.import_module("generator.fontparse")
        try:
            # pnpgen's own faces are read back from their snapshots (tools/font_faces.py), not parsed
            face = fontparse.restored(str(path), data, kept) if (kept := _snapshot(path)) is not None else None
            font = fontparse.Font(name, str(path), data, face)
            if path not in _BUNDLED:
                # a game's file: every glyph its characters need read as the PDF writer's subsets will read them,
                # so a broken glyph is refused by check and build alike, not as the PDF is saved (a traceback)
                fontparse.check_glyphs(font.face)
        except Exception as e:  # TTFError, struct.error, IndexError …: a malformed file, said as such
            raise ContentError(src, f"font '{shown}' cannot be read as a TrueType font: {e}", KINDS_HINT) from None
        pdfmetrics.registerFont(font)
        family = _text(font.face.familyName) or name
        mac_style = _ushort(data, tables["head"], 44) if "head" in tables else 0
        weight = _ushort(data, tables["OS/2"], 4) if "OS/2" in tables else 400
        _info[name] = _Info(family, weight >= 600 or bool(mac_style & 1), bool(mac_style & 2))
    _names[path] = name
    return name


def snapshot_file(path: Path) -> Path:
    """Where tools/font_faces.py keeps the parsed face of the bundled font ``path``."""
    return path.with_name(path.name + ".face")


def _snapshot(path: Path) -> bytes | None:
    """The kept parse of one of pnpgen's own files (None for a game's file, or where there is none)."""
    if path not in _BUNDLED:
        return None
    try:
        return snapshot_file(path).read_bytes()
    except OSError:
        return None


def _own_file(path: Path) -> bytes:
    """One of pnpgen's own files, mapped; read as a game's file is where it cannot be (missing: a ContentError)."""
    try:
        return _mapped(path)
    except (OSError, ValueError):   # ValueError: an empty file, which cannot be mapped
        return _read(path, None)


@cache
def _mapped(path: Path) -> bytes:
    """One of pnpgen's own files, mapped rather than read (once a process: measuring and the PDF writer share it): a
    build reads only the parts it uses (the cmap and widths it measures with, the glyphs it embeds; the rest of
    the face from its snapshot), so the 10 MB of the two files are not copied into memory in every process."""
    with path.open("rb") as f:
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)  # type: ignore[return-value]  # bytes-like


def _read(path: Path, src: Source | None) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_FONT_BYTES:
            raise ContentError(src, f"font '{path.name}' is {size / 2**20:.0f} MiB, more than pnpgen reads "
                                    f"({MAX_FONT_BYTES // 2**20} MiB, limits.MAX_FONT_BYTES)",
                               "subset the font to the characters the game prints (fontTools' pyftsubset)")
        return path.read_bytes()
    except OSError as e:
        raise ContentError(src, f"font '{path.name}' cannot be read ({e.strerror or e})",
                           "check the file name: paths are relative to the game folder") from None


def _ushort(data: bytes, offset: int, at: int) -> int:
    return int(struct.unpack_from(">H", data, offset + at)[0]) if offset + at + 2 <= len(data) else 0


def _tables(data: bytes, shown: str, src: Source | None) -> dict[str, int]:
    """The file's table offsets by tag, once its kind is known to be TrueType that may be embedded."""
    magic = data[:4]
    kind = {b"OTTO": "an OpenType font with CFF (PostScript) outlines", b"ttcf": "a TrueType collection (.ttc)",
            b"wOFF": "a WOFF web font", b"wOF2": "a WOFF2 web font"}.get(magic)
    if kind is None and magic not in (b"\x00\x01\x00\x00", b"true"):
        kind = "not a font file"
    if kind is not None:
        raise ContentError(src, f"font '{shown}' is {kind}", KINDS_HINT)
    tables: dict[str, int] = {}
    try:
        (count,) = struct.unpack_from(">H", data, 4)
        for i in range(count):
            tag, _checksum, offset, _length = struct.unpack_from(">4sLLL", data, 12 + 16 * i)
            tables[tag.decode("latin-1")] = offset
    except struct.error:
        raise ContentError(src, f"font '{shown}' is cut short (its table directory is incomplete)",
                           KINDS_HINT) from None
    if "glyf" not in tables:
        raise ContentError(src, f"font '{shown}' has no glyf (TrueType) outlines", KINDS_HINT)
    fs_type = _ushort(data, tables["OS/2"], 8) if "OS/2" in tables else 0
    if fs_type == 0x0002 or fs_type & 0x0300:
        what = ("restricted licence embedding" if fs_type == 0x0002 else
                "no subsetting" if fs_type & 0x0100 else "bitmap embedding only")
        raise ContentError(src, f"font '{shown}' forbids being embedded in a PDF (OS/2 fsType {fs_type:#06x}: {what})",
                           "choose a font whose licence allows embedding (e.g. one under the SIL Open Font License)")
    return tables


def _text(value) -> str:
    if isinstance(value, bytes):
        return str(getattr(value, "ustr", None) or value.decode("latin-1"))
    return str(value or "")


def resolve(family: str | None = None, bold: bool = False, italic: bool = False,
            families: Mapping[str, FontFamily] | None = None) -> Face:
    """The face that prints ``family`` in the given style; ``families`` are the game's declared
    ones (``Game.fonts``). ``family`` None: the game's ``body`` family if it declares one, else
    pnpgen's own; a name the game does not declare also falls back to those (layouts check names).

    Layout measures with ``Face.name`` and puts it on the ``Text`` it makes, with
    ``bold=face.fake_bold, italic=face.fake_italic``, so every renderer draws what was measured.
    """
    families = families or {}
    chosen = families.get(family) if family is not None else None
    if chosen is None:
        chosen = families.get("body", DEFAULT)
    if bold and italic and chosen.bold_italic is not None:
        return Face(register_file(chosen.bold_italic))
    if bold and chosen.bold is not None:
        return Face(register_file(chosen.bold), fake_italic=italic)
    if italic and chosen.italic is not None:
        return Face(register_file(chosen.italic), fake_bold=bold)
    return Face(register_file(chosen.regular), fake_bold=bold, fake_italic=italic)


@dataclass(frozen=True, slots=True)
class Typeset:
    """The faces a game's own text is set in where no layout names a family: boards, sheets,
    tiling labels, captions, the print-and-play cover. One per game (``Game.typeset``, equal by value),
    handed to layout, so a text is measured in the face it is drawn with.

    ``body`` is the game's ``body`` family (None: pnpgen's own). A text the body family cannot
    print whole (a Japanese name in a Latin font) is set in pnpgen's own face instead, all of it,
    so no character prints as a box and a label keeps one face; what no face has is still a finding
    (PNP507 on a board, PNP702 on a sheet).
    """

    body: FontFamily | None = None

    @staticmethod
    def of(families: Mapping[str, FontFamily] | None) -> Typeset:
        return Typeset((families or {}).get("body"))

    def face(self, text: str, bold: bool = False, italic: bool = False) -> Face:
        """The face ``text`` is drawn with: the body family's in that style, or pnpgen's own as the fallback."""
        return _typeset_face(self.body, text, bold, italic)

    def width(self, text: str, size_pt: float, bold: bool = False) -> float:
        """Width of ``text`` in mm at ``size_pt``, in the face ``face`` gives it."""
        return text_width_mm(text, size_pt, self.face(text, bold).name)


@lru_cache(maxsize=65536)
def _typeset_face(body: FontFamily | None, text: str, bold: bool, italic: bool) -> Face:
    if body is not None:
        face = resolve(None, bold, italic, {"body": body})
        if not missing_glyphs(text, face.name):
            return face
    return resolve(None, bold, italic)


def css(font: str) -> tuple[str, bool, bool]:
    """How SVG names the registered face ``font``: (CSS family, bold, italic) of its file."""
    register()
    info = _info.get(font)
    return (info.family, info.bold, info.italic) if info else (font, False, False)


@lru_cache(maxsize=65536)
def text_width_mm(text: str, size_pt: float, font: str = FONT_NAME) -> float:
    """Width of ``text`` at ``size_pt`` in millimetres, in the registered face ``font``."""
    own = _own_metrics(font)
    if own is not None:
        return own.string_width(text, size_pt) * PT_TO_MM
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register()
    return stringWidth(text, font, size_pt) * PT_TO_MM


@cache
def _charset(font: str) -> frozenset[int]:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    register()
    face = pdfmetrics.getFont(font)
    assert isinstance(face, TTFont), "faces are registered TrueType fonts"
    return frozenset(face.face.charToGlyph.keys())


def missing_glyphs(text: str, font: str = FONT_NAME) -> list[str]:
    """Characters of ``text`` the face ``font`` cannot print (they would show as boxes)."""
    own = _own_metrics(font)
    if own is not None:
        return own.missing(text)
    chars = _charset(font)
    return sorted({c for c in text if not c.isspace() and ord(c) not in chars})


class _Metrics:
    """What measuring text reads of one of pnpgen's own faces, looked up a character at a time in the file's
    ``cmap`` (format 4 or 12, the subtable ReportLab picks) and ``hmtx``, with neither ReportLab (0.26 billion
    instructions to import, with PIL under it) nor a parse of the whole face (12,000 characters; 0.25 billion
    for both faces): a ``pnpgen check`` measures a few hundred characters. Each answer is ReportLab's (its
    ``charWidths.get(code, defaultWidth)`` and ``code in charToGlyph`` as ``fontparse.Face`` makes them, and
    ``stringWidth``'s sum), which tests/test_coldcheck2.py compares for every code point of both faces."""

    def __init__(self, data: bytes) -> None:
        tables = {tag.decode("latin-1"): offset for tag, _sum, offset, _length in
                  struct.iter_unpack(">4sLLL", data[12:12 + 16 * struct.unpack_from(">H", data, 4)[0]])}
        (units_per_em,) = struct.unpack_from(">H", data, tables["head"] + 18)
        (hmetrics,) = struct.unpack_from(">H", data, tables["hhea"] + 34)
        (glyphs,) = struct.unpack_from(">H", data, tables["maxp"] + 4)
        # only what is looked up is kept (a copy of each): the file's bytes (6 MB) are let go, not held beside the
        # copy ReportLab reads when a build registers the face
        self._metrics, self._hmetrics = data[tables["hmtx"]:tables["hmtx"] + 4 * hmetrics], hmetrics
        self._known = max(glyphs, hmetrics)          # glyphs with a width (ReportLab's two hmtx loops)
        self._mult = None if units_per_em == 1000 else 1000 / units_per_em
        self.default = self._scaled(0)
        cmap = tables["cmap"]
        _version, count = struct.unpack_from(">HH", data, cmap)
        offset = None
        for platform, encoding, at in struct.iter_unpack(">HHL", data[cmap + 4:cmap + 4 + 8 * count]):
            if platform == 3 or (platform == 1 and encoding == 1) or (platform == 0 and encoding != 5):
                offset = cmap + at   # the last suitable record, as ReportLab picks (no Mac Roman one here)
        assert offset is not None
        (self._format,) = struct.unpack_from(">H", data, offset)
        if self._format == 12:
            (groups,) = struct.unpack_from(">L", data, offset + 12)
            values = struct.unpack_from(f">{3 * groups}L", data, offset + 16)
            self._starts, self._ends, self._firsts = values[0::3], values[1::3], values[2::3]
        else:
            assert self._format == 4, "pnpgen's own faces map characters with a format 4 or 12 cmap"
            length, _lang, seg_x2 = struct.unpack_from(">HHH", data, offset + 2)
            data, offset = data[offset:offset + length + 2], 0   # the subtable, read from here on
            n = seg_x2 // 2
            at = offset + 14
            self._ends = struct.unpack_from(f">{n}H", data, at)
            self._starts = struct.unpack_from(f">{n}H", data, at + 2 + 2 * n)
            self._deltas = struct.unpack_from(f">{n}h", data, at + 2 + 4 * n)
            self._ranges = struct.unpack_from(f">{n}H", data, at + 2 + 6 * n)
            self._range_start, self._limit, self._data = at + 2 + 6 * n, offset + length, data
        # a character is found by a binary search: the groups run in order, none overlapping (tested, not checked
        # here: these are pnpgen's own files)
        self._widths: dict[str, float] = {}
        self._present: set[str] = set()
        space = self._glyph(0x20)
        self._alias = ({0xA0: 0x20} if space is not None else {0x20: 0xA0} if self._glyph(0xA0) is not None else {})

    def _scaled(self, glyph: int) -> float:
        (advance,) = struct.unpack_from(">H", self._metrics, 4 * min(glyph, self._hmetrics - 1))
        return advance if self._mult is None else advance * self._mult

    def _glyph(self, code: int) -> int | None:
        """The glyph ``code`` maps to (None: not in the cmap)."""
        n = bisect.bisect_left(self._ends, code)
        if n == len(self._ends) or self._starts[n] > code:
            return None
        if self._format == 12:
            return self._firsts[n] + code - self._starts[n]
        delta, range_offset = self._deltas[n], self._ranges[n]
        if range_offset == 0:
            return (code + delta) & 0xFFFF
        first = self._range_start + 2 * n + range_offset
        if first >= self._limit or code - self._starts[n] >= (self._limit - first + 1) // 2:
            return 0   # past the subtable's stated length: ReportLab's 0
        (glyph,) = struct.unpack_from(">H", self._data, first + 2 * (code - self._starts[n]))
        return (glyph + delta) & 0xFFFF if glyph else 0

    def has(self, char: str) -> bool:
        """``ord(char) in charToGlyph``."""
        if char in self._present:
            return True
        code = ord(char)
        if self._glyph(self._alias.get(code, code)) is None:
            return False
        self._present.add(char)
        return True

    def missing(self, text: str) -> list[str]:
        """``missing_glyphs``: the characters of ``text`` but spaces the face has no glyph for, sorted."""
        return sorted(c for c in set(text) - self._present if not c.isspace() and not self.has(c))

    def width(self, char: str) -> float:
        """``charWidths.get(code, defaultWidth)``: 1/1000 of the size."""
        width = self._widths.get(char)
        if width is None:
            code = ord(char)
            glyph = self._glyph(self._alias.get(code, code))
            width = self._widths[char] = (self.default if glyph is None or glyph >= self._known
                                          else self._scaled(glyph))
        return width

    def string_width(self, text: str, size: float) -> float:
        """ReportLab's ``stringWidth`` (its C accelerator adds the widths in order, then divides and scales)."""
        return sum(map(self.width, text)) / 1000 * size


_own: dict[str, _Metrics] = {}


def _own_metrics(font: str) -> _Metrics | None:
    """The metrics of pnpgen's own face ``font`` (None: another face)."""
    own = _own.get(font)
    if own is None:
        path = _OWN_FILES.get(font)
        if path is None:
            return None
        own = _own[font] = _Metrics(_mapped(path))
    return own


# --------------------------------------------------------------------------- subsets for SVG and HTML

#: tables a subset for a web page or an SVG leaves out: no shaping (GSUB/GPOS: the PDF applies no
#: kerning or ligatures, so text draws as wide as layout measured it), no vertical metrics, no hinting
_DROPPED = ["GSUB", "GPOS", "GDEF", "BASE", "JSTF", "MATH", "kern", "vhea", "vmtx", "VORG", "gasp", "DSIG", "meta"]
#: subsets kept (face and characters → bytes) while the process runs: a deck's backs and repeated faces reuse
#: them; a subset is cut in well under a millisecond, so a few are enough (4096 held 20 MB at 10,000 cards)
_SUBSET_CACHE = 256

_masters: dict[str, tuple[frozenset[int], bytes]] = {}   # face → (its characters, a TrueType subset with them)
_parsed: dict[str, tuple[bytes, fontsubset.Master | None]] = {}   # face → (its master, taken apart)


def face_file(font: str) -> Path | None:
    """The TrueType file registered under the face name ``font`` (None: no such face)."""
    register()
    return next((path for path, name in _names.items() if name == font), None)


def _options(flavor: str | None, glyph_names: bool) -> ftsubset.Options:
    import logging

    from fontTools import subset as ftsubset  # 0.1 s to import: only when a font is cut (write time)

    # fontTools warns on stderr about what a subset leaves out and about old dates in a file's head table:
    # neither concerns the designer (the PDF never showed them either). logging is imported with fontTools,
    # not by every process that measures text
    logging.getLogger("fontTools").setLevel(logging.ERROR)

    options = ftsubset.Options()
    options.flavor = flavor
    options.glyph_names = glyph_names
    options.hinting = False
    options.layout_features = []
    options.drop_tables = [*options.drop_tables, *_DROPPED]
    options.notdef_outline = True   # a character the file lacks shows as the font's box, not as nothing
    options.legacy_cmap = False
    options.symbol_cmap = False
    # a master keeps the file's unicode and code page bits: they must not depend on which characters it holds
    options.prune_unicode_ranges = False
    options.prune_codepage_ranges = False
    return options


def _subset(data: bytes, codepoints: Iterable[int], flavor: str | None, glyph_names: bool) -> bytes:
    """``data`` (a TrueType file) cut down to ``codepoints``; no timestamp changes (``head.modified`` is the
    file's own), so the same characters always give the same bytes.

    Bounding boxes are not recomputed (``recalcBBoxes=False``): each glyph keeps the box the file stores, so
    glyphs are copied as bytes instead of decoded and re-encoded point by point (half of a subset's time);
    ``head`` keeps the whole file's box, which only has to enclose the glyphs. Tables the subset drops are
    deleted before subsetting, so fontTools never decodes them (a CJK file's GSUB is a third of a master's cut)."""
    from fontTools import subset as ftsubset
    from fontTools.ttLib import TTFont as FontToolsFont

    font = FontToolsFont(io.BytesIO(data), lazy=True, recalcTimestamp=False, recalcBBoxes=False)
    options = _options(flavor, glyph_names)
    for tag in options.drop_tables:
        if tag in font:
            del font[tag]
    subsetter = ftsubset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)
    out = io.BytesIO()
    ftsubset.save_font(font, out, options)
    return out.getvalue()


def _master(font: str, path: Path, wanted: frozenset[int]) -> bytes:
    """A TrueType subset of the face holding at least ``wanted``. Parsing a 6 MB CJK file is most of a
    subset's cost (0.1 s); a small master makes each page's subset 10 ms. It grows as pages need more
    characters; a subset of it is byte for byte the subset of the whole file (glyph names, order and
    metrics are the file's), which tests/test_standalone_svg.py holds, so what was built before never
    changes what a file gets."""
    have, data = _masters.get(font, (frozenset(), b""))
    if not wanted <= have:
        have = have | wanted
        data = _subset(path.read_bytes(), have, None, glyph_names=True)
        _masters[font] = (have, data)
    return data


@lru_cache(maxsize=_SUBSET_CACHE)
def _web_subset(font: str, codepoints: frozenset[int]) -> bytes:
    path = face_file(font)
    assert path is not None, "only registered faces are subset"
    data = _master(font, path, codepoints)
    known = _parsed.get(font)
    if known is None or known[0] is not data:
        known = _parsed[font] = (data, fontsubset.parse(data))
    if known[1] is None:   # a master fontsubset leaves to fontTools (no format 4/12 cmap, colour or variations)
        return _subset(data, codepoints, None, glyph_names=False)
    return fontsubset.subset(known[1], codepoints)


def web_subset(font: str, text: Iterable[str], more: Iterable[str] = ()) -> bytes | None:
    """The registered face ``font`` as a TrueType file holding only the glyphs of ``text`` (None: no such face,
    or it has none of them), for an ``@font-face`` in an SVG or a web page. TrueType, not WOFF2: WOFF2 is 40%
    smaller (a card's 4 KB subset becomes 2.6 KB) but takes three times as long to write (its glyf transform
    is pure Python, then Brotli), and a build writes hundreds of these. ``more``: characters other pages will
    soon want (the rest of a deck), fetched into the master at once so that it grows once per document, not
    once per page; they never change the result."""
    path = face_file(font)
    if path is None:
        return None
    chars = charset(font)
    codepoints = frozenset(ord(c) for c in text) & chars
    if not codepoints:
        return None
    _master(font, path, codepoints | (frozenset(ord(c) for c in more) & chars))
    return _web_subset(font, codepoints)


def prepare_web_subsets(text_by_face: Mapping[str, Iterable[str]]) -> None:
    """Grow each face's master once to every character a build's SVGs will draw with it (face name →
    characters), so the master is cut from the whole file once per face instead of once per document
    that brings new characters. It changes no result: a subset of the master is the subset of the file."""
    for font, text in sorted(text_by_face.items()):
        path = face_file(font)
        if path is not None:
            wanted = frozenset(ord(c) for c in text) & charset(font)
            if wanted:
                _master(font, path, wanted)


def charset(font: str) -> frozenset[int]:
    """The code points the registered face ``font`` has glyphs for."""
    return _charset(font)
