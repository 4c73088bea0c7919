"""A TrueType face read cheaply and with bounded work: ReportLab's face, with its ``extractInfo`` rewritten.

ReportLab's ``TTFontFile.extractInfo`` reads every value with its own ``struct.unpack`` call (90,000 for a CJK
face's ``loca``), 0.05-0.09 s CPU per face in every process that measures text; and it loops on counts the file
claims (a cmap group covering 0-0xFFFFFFFF never ends). ``Face`` keeps ReportLab's class (its ``makeSubset``,
widths and PDF objects are used as they are) and replaces only ``extractInfo``: each table is read whole
(``struct.unpack_from`` of a whole array), and every attribute is computed exactly as ReportLab computes it
(the same expressions, the same dictionary orders, the same quirks: trailing ``hmetrics`` carry the *scaled*
advance, a format 4 glyph index past the subtable's stated length is 0) so every PDF byte stays the same
(tests/test_fontparse.py compares ``vars()`` and subsets with plain ReportLab's for every font at hand).
What only a subset (``hmetrics``, ``glyphPos``) or shaping (``glyphToChar``) reads is made when first read:
measuring text, all that ``pnpgen check`` does with a face, needs none of it. A bundled CJK face now takes
about 17 ms instead of 35 (benchmarks/results.md, section "fonts").

Subclassing rather than parsing only what pnpgen needs: ``makeSubset`` and ``addSubsetObjects`` read a dozen
of these attributes, and writing them ourselves would mean owning the PDF's font embedding too.

Bounded work on a hostile file, where ReportLab's reading is not: every table used lies inside the file, the
per-glyph arrays (``hmtx``, ``loca``) and the cmap subtable's arrays inside their tables, the characters a
cmap maps (counted with repeats) at most :data:`MAX_CMAP_CHARS`, ``loca`` ascending within ``glyf``. A file
ReportLab refuses is refused here too (``TTFError``, or ``struct.error`` as ReportLab's own readers raise);
some malformed files ReportLab reads regardless are refused as well. :func:`check_glyphs` stands for making a
subset of every character (what ``makeSubset`` raises on) at a fraction of its cost.
"""
from __future__ import annotations

import functools
import itertools
import marshal
import operator
import os
import sys
from array import array
from bisect import bisect_left
from collections.abc import Iterable
from fnmatch import fnmatch
from struct import error as StructError  # noqa: N812  (ReportLab's readers raise it on a file cut short)
from struct import iter_unpack, pack, unpack, unpack_from
from typing import Any
from weakref import WeakKeyDictionary

from reportlab import rl_config
from reportlab.lib.utils import char2int
from reportlab.pdfbase.pdfdoc import PDFError
from reportlab.pdfbase.ttfonts import (
    FF_FIXED,
    FF_FORCEBOLD,
    FF_ITALIC,
    FF_SYMBOLIC,
    GF_ARG_1_AND_2_ARE_WORDS,
    GF_MORE_COMPONENTS,
    GF_WE_HAVE_A_SCALE,
    GF_WE_HAVE_A_TWO_BY_TWO,
    GF_WE_HAVE_AN_X_AND_Y_SCALE,
    CMapFmt2SubHeader,
    TTEncoding,
    TTFError,
    TTFNameBytes,
    TTFont,
    TTFontFace,
    TTFontMaker,
)
from reportlab.rl_config import unShapedFontGlob

#: characters a cmap may map, repeats counted: Unicode's code space (a real font maps each at most once)
MAX_CMAP_CHARS = 0x110000
_NAME_IDS = (1, 2, 3, 4, 6)
#: attributes only ``makeSubset`` (and shaping) reads: each made when first read
DEFERRED = ("glyphToChar", "hmetrics", "glyphPos")


class Face(TTFontFace):
    """ReportLab's TrueType face read from ``data`` (the file's bytes, already read) by a bounded ``extractInfo``."""

    def __init__(self, filename: str, data: bytes) -> None:
        if data[:4] == b"ttcf":   # ReportLab would loop on the collection's claimed count of fonts
            raise TTFError("a TrueType collection (.ttc)")
        self._ttf_data = data   # ReportLab's readFile keeps bytes already there
        self.filename = filename
        TTFontFace.__init__(self, filename)

    def _span(self, tag: str) -> tuple[int, int]:
        """(offset, end) of the table ``tag``, which must lie inside the file."""
        try:
            record = self.table[tag]
        except KeyError:
            raise TTFError(f"{tag} table not found") from None
        offset, length = record["offset"], record["length"]
        if offset + length > len(self._ttf_data):
            raise TTFError(f"{tag} table (offset {offset}, length {length}) lies outside the file "
                           f"({len(self._ttf_data)} bytes)")
        return offset, offset + length

    def extractInfo(self, charInfo=1):  # noqa: C901, N802, N803  (ReportLab's name; one pass over the tables as ReportLab's)
        data = self._ttf_data
        size = len(data)

        # name
        name_offset, _ = self._span("name")
        fmt, count, strings = unpack_from(">HHH", data, name_offset)
        if fmt != 0:
            raise TTFError(f"Unknown name table format ({fmt})")
        string_data_offset = name_offset + strings
        names: dict[int, bytes | None] = dict.fromkeys(_NAME_IDS)
        missing = len(names)
        first = name_offset + 6
        whole = min(count, max(0, (size - first) // 12))
        for platform_id, encoding_id, language_id, name_id, length, offset in iter_unpack(
                ">6H", data[first:first + 12 * whole]):
            if name_id not in names:
                continue
            found = None
            at = string_data_offset + offset
            if platform_id == 3 and encoding_id == 1 and language_id == 0x409:
                if length % 2 != 0:
                    raise TTFError("PostScript name is UTF-16BE string of odd length")
                found = TTFNameBytes(bytes(data[at:at + length]), "utf_16_be")
            elif platform_id == 1 and encoding_id == 0 and language_id == 0:
                found = TTFNameBytes(bytes(data[at:at + length]), "mac_roman")
            if found and names[name_id] is None:
                names[name_id] = found
                missing -= 1
                if missing == 0:
                    break
        else:
            if whole < count:
                raise TTFError("name table cut short")
        ps_name = names[6] or names[4] or names[1]
        if not ps_name:   # ReportLab 5.1 would make one up only if a setting it no longer has were on
            raise TTFError("Could not find PostScript font name")
        ps_name = ps_name.__class__(ps_name.replace(b" ", b"-"))
        for c in ps_name:
            if char2int(c) > 126 or c in b" [](){}<>/%":
                raise TTFError(f"psName={ps_name!r} contains invalid character {ascii(c)}")
        self.name = ps_name
        self.familyName = names[1] or ps_name
        self.styleName = names[2] or "Regular"
        self.fullName = names[4] or ps_name
        self.uniqueFontID = names[3] or ps_name

        # head
        if "head" not in self.table:
            raise TTFError(f"head table not found ttf name={self.name!s}")
        head, _ = self._span("head")
        ver_maj, ver_min = unpack_from(">HH", data, head)
        if ver_maj != 1:
            raise TTFError(f"Unknown head table version {ver_maj}.{ver_min:04x}")
        self.fontRevision = unpack_from(">HH", data, head + 4)
        (magic,) = unpack_from(">L", data, head + 12)
        if magic != 0x5F0F3CF5:
            raise TTFError(f"Invalid head table magic {magic:04x}")
        (units_per_em,) = unpack_from(">H", data, head + 18)
        self.unitsPerEm = units_per_em
        if units_per_em == 0:   # ReportLab divides by it (ZeroDivisionError)
            raise TTFError("head table's unitsPerEm is 0")
        self._pdfScale = scale = _scale(units_per_em)
        x_min, y_min, x_max, y_max = unpack_from(">4h", data, head + 36)
        self.bbox = list(map(scale, [x_min, y_min, x_max, y_max]))
        index_to_loc_format, glyph_data_format = unpack_from(">HH", data, head + 50)

        # OS/2
        subsetting_allowed = True
        if "OS/2" in self.table:
            os2, _ = self._span("OS/2")
            version, weight, fs_type = unpack_from(">H2xH2xH", data, os2)
            if fs_type == 0x0002 or (fs_type & 0x0300):
                subsetting_allowed = os.path.basename(self.filename) not in rl_config.allowTTFSubsetting
            typo_ascender, typo_descender = unpack_from(">hh", data, os2 + 68)
            self.ascent = scale(typo_ascender)
            self.descent = scale(typo_descender)
            if version > 1:
                self.capHeight = scale(unpack_from(">h", data, os2 + 88)[0])
            else:
                self.capHeight = self.ascent
        else:
            weight = 500
            self.ascent = scale(y_max)
            self.descent = scale(y_min)
            self.capHeight = self.ascent
        self.stemV = 50 + int((weight / 65.0) ** 2)

        # post
        post, _ = self._span("post")
        ver_maj, ver_min = unpack_from(">HH", data, post)
        if ver_maj not in (1, 2, 3, 4):
            raise TTFError(f"Unknown post table version {ver_maj}.{ver_min:04x}")
        angle, angle_fraction, self.underlinePosition, self.underlineThickness, fixed_pitch = unpack_from(
            ">hHhhL", data, post + 4)
        self.italicAngle = angle + angle_fraction / 65536.0
        self.flags = FF_SYMBOLIC
        if self.italicAngle != 0:
            self.flags = self.flags | FF_ITALIC
        if weight >= 600:
            self.flags = self.flags | FF_FORCEBOLD
        if fixed_pitch:
            self.flags = self.flags | FF_FIXED

        # hhea
        hhea, _ = self._span("hhea")
        ver_maj, ver_min = unpack_from(">HH", data, hhea)
        if ver_maj != 1:
            raise TTFError(f"Unknown hhea table version {ver_maj}.{ver_min:04x}")
        metric_data_format, number_of_hmetrics = unpack_from(">HH", data, hhea + 32)
        if metric_data_format != 0:
            raise TTFError(f"Unknown horizontal metric data format ({metric_data_format})")
        if number_of_hmetrics == 0:
            raise TTFError("Number of horizontal metrics is 0")

        # maxp
        maxp, _ = self._span("maxp")
        ver_maj, ver_min = unpack_from(">HH", data, maxp)
        if ver_maj != 1:
            raise TTFError(f"Unknown maxp table version {ver_maj}.{ver_min:04x}")
        (num_glyphs,) = unpack_from(">H", data, maxp + 4)
        self.numGlyphs = num_glyphs
        if not subsetting_allowed:
            if num_glyphs > 0xFF:
                raise TTFError(f"Font does not allow subsetting/embedding ({fs_type:04X})")
            self._full_font = True
        else:
            self._full_font = False

        if not charInfo:
            self.charToGlyph = None
            self.defaultWidth = None
            self.charWidths = None
            self._pos = maxp + 6
            return

        if glyph_data_format != 0:
            raise TTFError(f"Unknown glyph data format ({glyph_data_format})")

        char_to_glyph, chars, glyphs = self._cmap(num_glyphs)

        # hmtx
        hmtx, hmtx_end = self._span("hmtx")
        trailing = max(0, num_glyphs - number_of_hmetrics)
        if 4 * number_of_hmetrics + 2 * trailing > hmtx_end - hmtx:
            raise TTFError(f"hmtx table holds fewer than the {number_of_hmetrics} metrics and {trailing} "
                           "side bearings hhea and maxp claim")
        metrics = unpack_from(f">{2 * number_of_hmetrics}H", data, hmtx)
        side_bearings = unpack_from(f">{trailing}H", data, hmtx + 4 * number_of_hmetrics)
        advances = metrics[0::2]
        last = scale(advances[-1])
        self.defaultWidth = scale(advances[0])
        widths = [*map(scale, advances), *[last] * trailing]   # per glyph id, as ReportLab's two loops give them
        known = len(widths)
        # in glyph order, then cmap order, as ReportLab fills it from glyphToChar
        if len(chars) == len(char_to_glyph):   # each character mapped once (a sound cmap): a stable sort says it
            glyph_to_char = None
            # (indices, not pairs: a sort of 12,000 tuples woke the garbage collector over the whole heap)
            order = sorted(range(len(glyphs)), key=glyphs.__getitem__)
            self.charWidths = char_widths = {chars[i]: widths[glyphs[i]] for i in order if glyphs[i] < known}
        else:   # a character two glyphs claim keeps its first place and takes the last width
            glyph_to_char = _glyph_to_char(chars, glyphs)
            self.charWidths = char_widths = {char: widths[glyph] for glyph in sorted(glyph_to_char) if glyph < known
                                             for char in glyph_to_char[glyph]}

        # loca
        if "loca" not in self.table:
            raise TTFError("missing location table")
        loca, loca_end = self._span("loca")
        if index_to_loc_format not in (0, 1):
            raise TTFError(f"Unknown location table format ({index_to_loc_format})")
        step = 2 if index_to_loc_format == 0 else 4
        if step * (num_glyphs + 1) > loca_end - loca:
            raise TTFError(f"loca table holds fewer than the {num_glyphs + 1} offsets maxp claims")
        offsets = unpack_from(f">{num_glyphs + 1}{'H' if step == 2 else 'L'}", data, loca)
        self._pos = loca + step * (num_glyphs + 1)
        if "glyf" in self.table:
            glyf, glyf_end = self._span("glyf")
            if offsets[-1] * (2 if step == 2 else 1) > glyf_end - glyf or any(map(operator.gt, offsets, offsets[1:])):
                raise TTFError("loca table points outside the glyf table or backwards")

        # what only a subset (hmetrics, glyphPos) or shaping (glyphToChar) reads: made when first read
        self._deferred = {
            "glyphToChar": lambda: glyph_to_char if glyph_to_char is not None else _glyph_to_char(chars, glyphs),
            "hmetrics": lambda: [*zip(advances, metrics[1::2]), *((last, lsb) for lsb in side_bearings)],
            "glyphPos": lambda: [v << 1 for v in offsets] if step == 2 else list(offsets),
        }

        if 0x20 in char_to_glyph:
            char_to_glyph[0xA0] = char_to_glyph[0x20]
            char_widths[0xA0] = char_widths[0x20]
        elif 0xA0 in char_to_glyph:
            char_to_glyph[0x20] = char_to_glyph[0xA0]
            char_widths[0x20] = char_widths[0xA0]

    def __getattr__(self, name: str):
        """``glyphToChar``, ``hmetrics`` and ``glyphPos``, each made on first use (measuring text needs none)."""
        deferred = self.__dict__.get("_deferred")
        make = deferred.pop(name, None) if deferred is not None else None
        if make is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        if not deferred:
            del self.__dict__["_deferred"]
        value = self.__dict__[name] = make()
        return value

    def getCharWidth(self, code):  # noqa: N802  (ReportLab's name)
        """``charWidths.get(code, defaultWidth)``, without making ``charWidths`` (12,000 entries) for a restored face:
        a PDF's font objects ask the width of each character they print, a few hundred."""
        if "charWidths" not in self.__dict__:
            pending = _pending(self)
            if pending is not None:
                return _restored_width(self, pending, code)
        return self.charWidths.get(code, self.defaultWidth)

    def maps(self, code: int) -> bool:
        """``code in charToGlyph``, without making ``charToGlyph`` for a restored face (``Font.splitString``)."""
        return _lookup(self, code) is not _MISSING

    def makeSubset(self, subset):  # noqa: N802  (ReportLab's name)
        """ReportLab's ``TTFontFile.makeSubset``, the same bytes (tests/test_fontparse.py), reading only what the
        subset's glyphs need: each glyph's data, position and metrics straight from the file, where ReportLab
        copies the whole ``glyf`` table (4-6 MB) for every subset and reads ``charToGlyph``, ``glyphPos`` and
        ``hmetrics`` (12,000 entries each, 0.08 billion instructions for both faces of a build to make).
        A subset asked for again (the same characters in the same order) is the bytes made before."""
        kept = _SUBSETS.get(self)
        if kept is None:
            kept = _SUBSETS[self] = {}
        key = tuple(subset)
        made = kept.get(key)
        if made is None:
            made = _make_subset(self, key)
            if len(kept) >= SUBSETS_KEPT:
                kept.clear()
            kept[key] = made
        return made

    def _cmap(self, num_glyphs: int) -> tuple[dict[int, int], list[int], list[int]]:  # noqa: C901 (a branch a format)
        """``charToGlyph`` from the subtable ReportLab picks (the last suitable record), and every (character, glyph)
        it maps in the order it maps them (as two lists), repeats and all: what ``glyphToChar`` is made of."""
        data = self._ttf_data
        cmap_offset, cmap_end = self._span("cmap")
        version, table_count = unpack_from(">HH", data, cmap_offset)
        if table_count == 0 and version != 0:
            table_count = version
        if cmap_offset + 4 + 8 * table_count > cmap_end:
            raise TTFError("cmap table cut short")
        encoffs = None
        enc = 0
        for platform, encoding, offset in iter_unpack(">HHL", data[cmap_offset + 4:cmap_offset + 4 + 8 * table_count]):
            if platform == 3:
                enc, encoffs = 1, offset
            elif platform == 1 and encoding == 0 and enc != 1:
                enc, encoffs = 2, offset
            elif (platform == 1 and encoding == 1) or (platform == 0 and encoding != 5):
                enc, encoffs = 1, offset
        if encoffs is None:
            raise TTFError("could not find a suitable cmap encoding")
        encoffs += cmap_offset
        (fmt,) = unpack_from(">H", data, encoffs)
        char_to_glyph: dict[int, int] = {}
        self.charToGlyph = char_to_glyph
        all_chars: list[int] = []
        all_glyphs: list[int] = []
        if fmt in (13, 12, 10, 8):
            length, _lang = unpack_from(">LL", data, encoffs + 4)
            at = encoffs + 12
        else:
            length, _lang = unpack_from(">HH", data, encoffs + 2)
            at = encoffs + 6

        def inside(end: int) -> None:
            if end > cmap_end:
                raise TTFError(f"cmap format {fmt} subtable runs past the cmap table")

        def add(chars, glyphs) -> None:
            char_to_glyph.update(zip(chars, glyphs))
            all_chars.extend(chars)
            all_glyphs.extend(glyphs)

        mapped = 0

        def count(n: int) -> None:
            nonlocal mapped
            mapped += n
            if mapped > MAX_CMAP_CHARS:
                raise TTFError(f"cmap maps more than {MAX_CMAP_CHARS} characters (Unicode's size)")

        if fmt == 0:
            n = max(0, length - 6)
            inside(at + n)
            table = data[at:at + n]
            chars = range(min(256, num_glyphs, n))
            add(chars, [table[c] for c in chars])
        elif fmt == 4:
            limit = encoffs + length
            seg_count = int(unpack_from(">H", data, at)[0] / 2.0)
            at += 8
            inside(at + 2 + 8 * seg_count)
            ends = unpack_from(f">{seg_count}H", data, at)
            starts = unpack_from(f">{seg_count}H", data, at + 2 + 2 * seg_count)
            deltas = unpack_from(f">{seg_count}h", data, at + 2 + 4 * seg_count)
            range_start = at + 2 + 6 * seg_count
            ranges = unpack_from(f">{seg_count}H", data, range_start)
            count(sum(map(len, map(range, starts, [end + 1 for end in ends]))))   # before any is mapped
            for n in range(seg_count):
                start, end, delta, range_offset = starts[n], ends[n], deltas[n], ranges[n]
                if end < start:
                    continue
                chars = range(start, end + 1)
                if range_offset == 0:
                    add(chars, [(c + delta) & 0xFFFF for c in chars])
                    continue
                first = range_start + 2 * n + range_offset
                readable = 0 if first >= limit else min(len(chars), (limit - first + 1) // 2)
                if first + 2 * readable > len(data):   # ReportLab's get_ushort fails there too
                    raise StructError("cmap format 4 glyph index past the end of the file")
                glyphs = [((g + delta) & 0xFFFF) if g else 0 for g in unpack_from(f">{readable}H", data, first)]
                add(chars, glyphs + [0] * (len(chars) - readable))
        elif fmt == 6:
            first, n = unpack_from(">HH", data, at)
            inside(at + 4 + 2 * n)
            add(unpack_from(f">{n}H", data, at + 4), range(first, first + n))
        elif fmt == 10:
            first, n = unpack_from(">LL", data, at)
            inside(at + 8 + 2 * n)
            add(unpack_from(f">{n}H", data, at + 8), range(first, first + n))
        elif fmt in (12, 13):
            (groups,) = unpack_from(">L", data, at)
            inside(at + 4 + 12 * groups)
            values = unpack_from(f">{3 * groups}L", data, at + 4)
            firsts = values[2::3]
            spans = list(map(range, values[0::3], [end + 1 for end in values[1::3]]))
            lengths = list(map(len, spans))   # a range's length is known before it is walked
            count(sum(lengths))
            runs: Iterable[Iterable[int]] = (map(range, firsts, map(operator.add, firsts, lengths)) if fmt == 12
                                             else map(itertools.repeat, firsts, lengths))
            add(list(itertools.chain.from_iterable(spans)), list(itertools.chain.from_iterable(runs)))
        elif fmt == 2:
            self._cmap2(at, length, encoffs + cmap_offset, num_glyphs, add, count, inside)
        else:
            raise ValueError(f"Unsupported cmap encoding format {fmt}")
        return char_to_glyph, all_chars, all_glyphs

    def _cmap2(self, at, length, base, num_glyphs, add, count, inside) -> None:
        """Format 2 (high-byte mapping), as ReportLab reads it (``base`` counts the cmap's offset twice, as it does)."""
        data = self._ttf_data
        inside(at + 512)
        keys = unpack_from(">256H", data, at)
        at += 512
        most = max(keys)
        inside(at + 8 * (most + 1))
        headers = []
        for i, (first_code, entry_count, id_delta, id_range) in enumerate(
                iter_unpack(">4H", data[at:at + 8 * (most + 1)])):
            headers.append(CMapFmt2SubHeader(first_code, entry_count, id_delta, (id_range - (most - i) * 8 - 2) >> 1))
        at += 8 * (most + 1)
        entries = (length - (at - base)) >> 1
        if entries > 0:
            inside(at + 2 * entries)
        glyphs = unpack_from(f">{max(0, entries)}h", data, at)
        entries = max(0, entries)
        last = -1
        for char in range(256):
            if keys[char] == 0:
                head = headers[0]
                if (last != -1 or char < head.firstCode or char >= head.firstCode + head.entryCount
                      or head.idRangeOffset + (char - head.firstCode) >= entries):
                    glyph = 0
                else:
                    glyph = glyphs[head.idRangeOffset + (char - head.firstCode)]
                    if glyph != 0:
                        glyph += head.idDelta
                if glyph != 0 and glyph < num_glyphs:
                    add([char], [glyph])
            else:
                head = headers[keys[char]]
                count(head.entryCount)
                for j in range(head.entryCount):
                    if head.idRangeOffset + j >= entries:
                        glyph = 0
                    else:
                        glyph = glyphs[head.idRangeOffset + j]
                        if glyph != 0:
                            glyph += head.idDelta
                    if glyph != 0 and glyph < num_glyphs:
                        add([(char << 8) | (j + head.firstCode)], [glyph])
                if last == -1:
                    last = char


def _glyph_to_char(chars: list[int], glyphs: list[int]) -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for char, glyph in zip(chars, glyphs):
        found.setdefault(glyph, []).append(char)
    return found


#: subsets made (``Face.makeSubset``) kept per face, by their characters in order: a build's deck files and its
#: print-and-play file may ask for the same one
SUBSETS_KEPT = 32
_SUBSETS: WeakKeyDictionary = WeakKeyDictionary()
#: each face's glyphs read so far (``_Glyphs``)
_GLYPHS: WeakKeyDictionary = WeakKeyDictionary()
_MISSING = object()


class _Table:
    """A restored face's ``charToGlyph`` until it is read whole: made from its snapshot's columns when it is
    (called, as the face's other deferred attributes are), and meanwhile looked up in them (``get``, a binary
    search: a cmap maps its characters in ascending order, but for the no-break space that may follow them,
    looked at first); what was looked up is kept, with its width (``width``)."""

    __slots__ = ("columns", "keys", "values", "ascending", "found", "widths")

    def __init__(self, keys: tuple, values: tuple) -> None:
        self.columns = (keys, values)
        self.keys: Any = None
        self.values: Any = None
        self.ascending: bool | None = None   # the keys but the last ascend (None: not yet known)
        self.found: dict[int, Any] = {}
        self.widths: dict[int, Any] = {}

    def __call__(self) -> dict:
        return _table(*self.columns)

    def __bool__(self) -> bool:   # ``if charToGlyph:`` (``TTFont.State``): does the face map any character
        return bool(self.columns[0][1])

    def get(self, code: int):
        """The glyph ``code`` maps to, ``_MISSING`` for none, None where the columns cannot say."""
        found = self.found.get(code)
        if found is not None:
            return found
        keys = self.keys
        if keys is None:
            keys = self.keys = _values(self.columns[0], whole=False)
            self.values = _values(self.columns[1], whole=False)
        last = len(keys) - 1
        if last >= 0 and keys[last] == code:
            found = self.values[last]
        else:
            at = bisect_left(keys, code, 0, max(last, 0))
            if at < last and keys[at] == code:
                found = self.values[at]
            else:
                if self.ascending is None:
                    self.ascending = all(map(operator.lt, keys, itertools.islice(keys, 1, max(last, 0))))
                if not self.ascending:
                    return None
                found = _MISSING
        if len(self.found) < 65536:
            self.found[code] = found
        return found


def _pending(face: Face) -> _Table | None:
    """The restored face's ``charToGlyph`` not yet read whole (None: read, or a parsed face's)."""
    deferred = face.__dict__.get("_deferred")
    table = deferred.get("charToGlyph") if deferred is not None else None
    return table if type(table) is _Table else None


def _lookup(face: Face, code: int):
    """``face.charToGlyph.get(code)`` (``_MISSING`` for none), without making a restored face's whole table."""
    table = face.__dict__.get("charToGlyph")
    if table is None:
        pending = _pending(face)
        if pending is not None:
            found = pending.get(code)
            if found is not None:
                return found
        table = face.charToGlyph
    return table.get(code, _MISSING)


def _restored_width(face: Face, pending: _Table, code: int):
    """``charWidths.get(code, defaultWidth)`` of a restored face (pnpgen's own: tests/test_fontparse.py checks
    every character of both) from its glyph's advance, as ``extractInfo`` makes ``charWidths`` of a cmap that
    maps each character once: the advance of the glyph (the last full metric's past them), the default width
    for a character not mapped or a glyph past the metrics."""
    width = pending.widths.get(code)
    if width is None:
        glyph = _lookup(face, code)
        data, table = face._ttf_data, face.table
        (full,) = unpack_from(">H", data, table["hhea"]["offset"] + 34)
        if glyph is _MISSING or glyph >= max(full, face.numGlyphs):
            width = face.defaultWidth
        else:
            width = face._pdfScale(unpack_from(">H", data, table["hmtx"]["offset"] + 4 * min(glyph, full - 1))[0])
        pending.widths[code] = width
    return width


class _StateFace:
    """The face as ``TTFont.State`` sees it: a face that subsets (not ``_full_font``), its ``charToGlyph`` a
    ``_Maps``."""

    _full_font = False

    def __init__(self, face: Face, pending: _Table) -> None:
        self.face = self
        self.charToGlyph = _Maps(face, pending)


class _Maps:
    """What ``TTFont.State`` reads of a face's ``charToGlyph`` (is it empty, does it map a character), answered by
    ``Face.maps``: a new file's state, made without the whole table."""

    def __init__(self, face: Face, pending: _Table) -> None:
        self.face, self.pending = face, pending

    def __bool__(self) -> bool:
        return bool(self.pending)

    def __contains__(self, code: int) -> bool:
        return self.face.maps(code)


def _past_arguments(at: int, flags: int) -> int:
    """Where a composite glyph's component record ends: past its offsets and its scale, as its flags say."""
    at += 4 if flags & GF_ARG_1_AND_2_ARE_WORDS else 2
    if flags & GF_WE_HAVE_A_SCALE:
        at += 2
    elif flags & GF_WE_HAVE_AN_X_AND_Y_SCALE:
        at += 4
    elif flags & GF_WE_HAVE_A_TWO_BY_TWO:
        at += 8
    return at


def _set_ushort(stream: bytes, offset: int, value: int) -> bytes:
    """ReportLab's ``_set_ushort``: ``stream`` with the short at ``offset`` set to ``value``."""
    return stream[:offset] + pack(">H", value) + stream[offset + 2:]


class _Glyphs(dict):
    """What subsets of one face read of each glyph, read once (a build's files each print the digits and the Latin
    letters, in each face): glyph id → (its length in ``loca``, the glyphs it is made of, its bytes as ReportLab
    cuts them from the ``glyf`` table, whether they are a composite's, its (advance, left side bearing))."""

    def __init__(self, face: Face) -> None:
        super().__init__()
        data, table = face._ttf_data, face.table
        self.data = data
        positions = face.__dict__.get("glyphPos")
        metrics = face.__dict__.get("hmetrics")
        if positions is None:
            (loc_format,) = unpack_from(">H", data, table["head"]["offset"] + 50)
            loca, count = table["loca"]["offset"], face.numGlyphs + 1

            def position(glyph: int) -> int:
                if not 0 <= glyph < count:
                    raise IndexError("list index out of range")
                if loc_format == 0:
                    return unpack_from(">H", data, loca + 2 * glyph)[0] << 1
                return unpack_from(">L", data, loca + 4 * glyph)[0]
        else:
            position = positions.__getitem__
        if metrics is None:
            hmtx = table["hmtx"]["offset"]
            (full,) = unpack_from(">H", data, table["hhea"]["offset"] + 34)
            known = full + max(0, face.numGlyphs - full)
            scale = face._pdfScale

            def metric(glyph: int) -> tuple:
                if not 0 <= glyph < known:
                    raise IndexError("list index out of range")
                if glyph < full:
                    return unpack_from(">HH", data, hmtx + 4 * glyph)
                return (scale(unpack_from(">H", data, hmtx + 4 * (full - 1))[0]),
                        unpack_from(">H", data, hmtx + 4 * full + 2 * (glyph - full))[0])
        else:
            metric = metrics.__getitem__
        self.position, self.metric = position, metric
        self.start = table["glyf"]["offset"]
        self.glyf_length = table["glyf"]["length"]

    def read(self, glyph: int) -> tuple:
        """The glyph's entry: its components read as makeSubset's first pass reads them (from the file, past its
        end if it says so), its bytes as its second pass cuts them (inside the glyf table)."""
        found = self.get(glyph)
        if found is not None:
            return found
        data, position = self.data, self.position
        glyph_pos = position(glyph)
        glyph_len = position(glyph + 1) - glyph_pos
        components = []
        if glyph_len:
            at = self.start + glyph_pos
            try:
                (contours,) = unpack(">h", data[at:at + 2])
            except StructError as error:
                raise TTFError(error) from None
            at += 2
            if contours < 0:   # a composite glyph
                at += 8
                flags = GF_MORE_COMPONENTS
                while flags & GF_MORE_COMPONENTS:
                    (flags,) = unpack(">H", data[at:at + 2])
                    (component,) = unpack(">H", data[at + 2:at + 4])
                    at += 4
                    components.append(component)
                    at = _past_arguments(at, flags)
        # glyphData[glyph_pos:glyph_pos + glyph_len] of the glyf table as ReportLab copies it, without the copy
        first, last = min(glyph_pos, self.glyf_length), min(glyph_pos + glyph_len, self.glyf_length)
        piece = data[self.start + first:self.start + last] if last > first else b""
        composite = glyph_len > 2 and unpack(">h", piece[:2])[0] < 0
        found = (glyph_len, tuple(components), piece, composite, self.metric(glyph))
        if len(self) >= GLYPHS_KEPT:
            self.clear()
        self[glyph] = found
        return found


#: glyphs a face keeps read (``_Glyphs``): a few files' subsets
GLYPHS_KEPT = 4096


def _make_subset(face: Face, subset: tuple) -> bytes:  # noqa: C901  (ReportLab's makeSubset, step by step)
    """``TTFontFile.makeSubset(subset)`` of ReportLab 5.1, step by step, with its reads of ``charToGlyph``,
    ``glyphPos``, ``hmetrics`` and the ``glyf`` table made from the file's bytes for the glyphs it needs, each
    glyph's once a process (``_Glyphs``): the same values, the same bytes."""
    data, table = face._ttf_data, face.table
    glyphs = _GLYPHS.get(face)
    if glyphs is None:
        glyphs = _GLYPHS[face] = _Glyphs(face)
    read = glyphs.read

    def get_table(tag: str) -> bytes:
        record = table[tag]
        return data[record["offset"]:record["offset"] + record["length"]]

    output = TTFontMaker()
    glyph_map = [0]
    glyph_set = {0: 0}
    code_to_glyph = {}
    known = face.__dict__.get("charToGlyph")
    pending = _pending(face) if known is None else None
    for code in subset:
        if known is not None:
            original = known.get(code, 0)
        else:
            original = pending.get(code) if pending is not None else None
            if original is None:
                original = _lookup(face, code)
            if original is _MISSING:
                original = 0
        if original not in glyph_set:
            glyph_set[original] = len(glyph_map)
            glyph_map.append(original)
        code_to_glyph[code] = glyph_set[original]

    n = 0
    while n < len(glyph_map):   # composite glyphs bring their components
        for component in read(glyph_map[n])[1]:
            if component not in glyph_set:
                glyph_set[component] = len(glyph_map)
                glyph_map.append(component)
        n += 1

    for tag in ("name", "OS/2", "cvt ", "fpgm", "prep"):
        if tag in table:
            output.add(tag, get_table(tag))
    post = table["post"]
    output.add("post", b"\x00\x03\x00\x00" + data[post["offset"]:post["offset"] + min(post["length"], 16)][4:16]
               + b"\x00" * 16)

    num_glyphs = len(glyph_map)
    entries = [read(glyph) for glyph in glyph_map]
    hmtx_values = []
    for entry in entries:
        aw, lsb = entry[4]
        hmtx_values.append(int(aw))
        hmtx_values.append(int(lsb))
    n = len(hmtx_values) - 2
    while n and hmtx_values[n] == hmtx_values[n - 2]:
        n -= 2
    n += 2
    full_metrics = n >> 1
    hmtx_values = hmtx_values[:n] + hmtx_values[n + 1::2]
    output.add("hmtx", pack(f">{len(hmtx_values)}H", *hmtx_values))
    output.add("hhea", _set_ushort(get_table("hhea"), 34, full_metrics))
    output.add("maxp", _set_ushort(get_table("maxp"), 4, num_glyphs))

    count = len(subset)
    cmap = [0, 1, 1, 0, 0, 12, 6, 10 + count * 2, 0, 0, count, *map(code_to_glyph.get, subset)]
    output.add("cmap", pack(f">{len(cmap)}H", *cmap))

    offsets = []
    pieces = []
    pos = 0
    for glyph_len, _components, piece, composite, _metric in entries:
        offsets.append(pos)
        if composite:   # its components renumbered
            in_glyph = 10
            flags = GF_MORE_COMPONENTS
            while flags & GF_MORE_COMPONENTS:
                (flags,) = unpack(">H", piece[in_glyph:in_glyph + 2])
                (component,) = unpack(">H", piece[in_glyph + 2:in_glyph + 4])
                piece = _set_ushort(piece, in_glyph + 2, glyph_set[component])
                in_glyph += 4
                in_glyph = _past_arguments(in_glyph, flags)
        pieces.append(piece)
        pos += glyph_len
        if pos % 4 != 0:
            padding = 4 - pos % 4
            pieces.append(b"\0" * padding)
            pos += padding
    offsets.append(pos)
    output.add("glyf", b"".join(pieces))
    if (pos + 1) >> 1 > 0xFFFF:
        loc_format = 1
        loca_bytes = pack(f">{len(offsets)}L", *offsets)
    else:
        loc_format = 0
        loca_bytes = pack(f">{len(offsets)}H", *[offset >> 1 for offset in offsets])
    output.add("loca", loca_bytes)
    output.add("head", _set_ushort(get_table("head"), 50, loc_format))
    return output.makeStream()


#: the format of :func:`snapshot`'s bytes (a different one is not read: the face is parsed instead)
SNAPSHOT_FORMAT = 1
#: what a snapshot does not hold: the file's bytes and name (given again), the scale (made from unitsPerEm)
_NOT_KEPT = ("_ttf_data", "filename", "_pdfScale", "_deferred")


def _directory(data: bytes) -> bytes:
    """The file's header and table directory: every table's tag, checksum, offset and length."""
    (count,) = unpack_from(">H", data, 4)
    return bytes(data[:12 + 16 * count])


def snapshot(face: Face) -> bytes:
    """The parsed face as bytes (``marshal``): every attribute ``extractInfo`` sets and the ones it defers, keyed by
    the file's table directory and size. tools/font_faces.py writes one beside each bundled font, so a build
    reads the face back (:func:`restored`, ~1 ms) instead of parsing it (~25 ms each). The two large tables
    (``charToGlyph``, ``charWidths``) are kept as arrays (a dict of 12,000 entries unmarshals in 2-3 ms, two arrays
    and a ``dict(zip())`` in a fraction), what only a subset reads as marshal bytes read when first read."""
    deferred = {name: marshal.dumps(getattr(face, name)) for name in DEFERRED}
    state, names, tables = {}, {}, {}
    for key, value in vars(face).items():
        if key in _NOT_KEPT or key in deferred:
            continue
        if isinstance(value, TTFNameBytes):   # bytes of the UTF-8 text: TTFNameBytes(b) makes the same again
            names[key] = bytes(value)
        elif key in _TABLES and isinstance(value, dict):
            tables[key] = (_column(value.keys()), _column(value.values()))
        else:
            state[key] = value
    data = face._ttf_data
    return marshal.dumps({"format": SNAPSHOT_FORMAT, "size": len(data), "directory": _directory(data),
                          "names": names, "tables": tables, "state": state, "deferred": deferred})


#: the dictionaries kept as two columns of machine numbers
_TABLES = ("charToGlyph", "charWidths")
#: a column's array kinds, by what each value is: (typecode, item size, byte order) checked as it is read back
_KINDS = {int: ("I", array("I").itemsize, sys.byteorder), float: ("d", array("d").itemsize, sys.byteorder)}


def _column(values) -> tuple:
    """(kind, bytes) of an array of one type of number, or (None, the list) where the values are not so."""
    values = list(values)
    kinds = {type(v) for v in values}
    kind = _KINDS.get(next(iter(kinds))) if len(kinds) == 1 else None
    if kind is not None and (kind[0] != "I" or all(0 <= v <= 0xFFFFFFFF for v in values)):
        return kind, array(kind[0], values).tobytes()
    return None, values


def _readable(column: tuple) -> bool:
    kind, stored = column
    return kind is None or (tuple(kind) in _KINDS.values() and len(stored) % kind[1] == 0)


def _values(column: tuple, whole: bool = True):
    """The column's values as a list (``whole=False``: as the array itself, where it is one)."""
    kind, stored = column
    if kind is None:
        return list(stored)
    found = array(kind[0])
    found.frombytes(stored)
    return found.tolist() if whole else found


def _table(keys: tuple, values: tuple) -> dict:
    return dict(zip(_values(keys), _values(values)))


def _scale(units_per_em: int):
    """``extractInfo``'s scale to 1000 units an em, made again for a restored face."""
    if units_per_em == 1000:
        def scale(x):
            return x
    else:
        _1000mult = 1000 / units_per_em

        def scale(x):
            return x * _1000mult
    return scale


def restored(filename: str, data: bytes, kept: bytes) -> Face | None:
    """The face a :func:`snapshot` of ``data``'s file holds, or None where ``kept`` is not one of this file (another
    size or table directory: an edited font) or not readable: then the face is parsed as any other."""
    try:
        saved = marshal.loads(kept)
        if (not isinstance(saved, dict) or saved.get("format") != SNAPSHOT_FORMAT or saved["size"] != len(data)
                or saved["directory"] != _directory(data)):
            return None
        face = Face.__new__(Face)
        attrs = face.__dict__
        attrs["_ttf_data"] = data
        attrs["filename"] = filename
        attrs.update(saved["state"])
        attrs.update({key: TTFNameBytes(value) for key, value in saved["names"].items()})
        attrs["_pdfScale"] = _scale(attrs["unitsPerEm"])
        deferred = {name: functools.partial(marshal.loads, blob) for name, blob in saved["deferred"].items()}
        deferred.update({key: _Table(*columns) if key == "charToGlyph" else functools.partial(_table, *columns)
                         for key, columns in saved["tables"].items()})
        if not all(_readable(column) for columns in saved["tables"].values() for column in columns):
            return None   # arrays of another machine's numbers
        attrs["_deferred"] = deferred
    except (ValueError, EOFError, TypeError, KeyError, StructError):
        return None
    return face


class Font(TTFont):
    """ReportLab's ``TTFont`` around a :class:`Face`: what ``TTFont.__init__`` sets, with the face read here (or
    ``face``, one already read: :func:`restored`)."""

    def __init__(self, name: str, filename: str, data: bytes, face: Face | None = None) -> None:  # noqa: D107
        self.fontName = name
        self.face = face if face is not None else Face(filename, data)
        self.encoding = TTEncoding()
        self.state = WeakKeyDictionary()
        self._asciiReadable = rl_config.ttfAsciiReadable
        self.shapable = not any(fnmatch(name, glob) for glob in unShapedFontGlob or ())

    def splitString(self, text, doc, encoding="utf-8"):  # noqa: C901, N802  (ReportLab's name and steps)
        """ReportLab's ``TTFont.splitString`` (5.1) step by step, asking the face whether it maps a character
        (``Face.maps``) instead of reading its whole ``charToGlyph``: the same codes and subsets."""
        ascii_readable = self._asciiReadable
        try:
            state = self.state[doc]
        except KeyError:   # a new file's state, made without the face's whole charToGlyph where it is not made yet
            face = self.face
            pending = _pending(face) if not face._full_font else None
            state = self.state[doc] = TTFont.State(ascii_readable, self if pending is None else _StateFace(face, pending))
        skip31 = 31 if ascii_readable and state.nextCode < 32 else -256
        current = -1
        cur: list[int] = []
        results = []
        if not isinstance(text, str):
            text = text.decode("utf-8")
        maps = self.face.maps
        assignments = state.assignments
        subsets = state.subsets
        for code in map(ord, text):
            if code == 0xA0:
                code = 32
            if code in assignments:
                n = assignments[code]
            elif not maps(code):
                n = 0
            else:
                if state.frozen:
                    raise PDFError(f"Font {self.fontName} is already frozen, cannot add new character U+{code:04X}")
                n = state.nextCode
                if n & 0xFF == 32:   # code 32 is always a space
                    if n != 32:
                        subsets[n >> 8].append(32)
                    state.nextCode += 1
                    n = state.nextCode
                if n > 32:
                    if not n & 0xFF:
                        subsets.append([0])   # code 0 of a new subset: notdef
                        state.nextCode += 1
                        n = state.nextCode
                    subsets[n >> 8].append(code)
                else:
                    if n == skip31:   # the first part of subset 0 filled: past 32-127
                        state.nextCode = 127
                    subsets[0][n] = code
                state.nextCode += 1
                assignments[code] = n
            if (n >> 8) != current:
                if cur:
                    results.append((current, bytes(cur)))
                current = n >> 8
                cur = []
            cur.append(n & 0xFF)
        if cur:
            results.append((current, bytes(cur)))
        return results


def check_glyphs(face: Face) -> None:
    """Raise ``TTFError`` where ``makeSubset`` of the face's characters (any of them, 256 a subset, as the PDF
    writer makes them) would raise: a glyph the cmap or a composite names that the font has not, a composite
    whose components run past its glyph, an advance too wide to write back. Each glyph is looked at once
    (making every subset, as before, cost 0.1 s per 12,000 characters). Needs :class:`Face`'s checks: ``loca``
    ascending inside ``glyf``."""
    data = face._ttf_data
    glyf = face.table["glyf"]["offset"] if "glyf" in face.table else None
    positions = face.glyphPos
    hmetrics = face.hmetrics
    num_glyphs = len(positions) - 1
    todo = sorted({0, *face.charToGlyph.values()})
    seen = set(todo)
    while todo:
        glyph = todo.pop()
        if glyph >= num_glyphs or glyph >= len(hmetrics):
            raise TTFError(f"a glyph the font names ({glyph}) is not among its {num_glyphs} glyphs")
        if int(hmetrics[glyph][0]) > 0xFFFF:
            raise TTFError(f"glyph {glyph}'s advance ({hmetrics[glyph][0]}) is too wide to write in a subset")
        start, end = positions[glyph], positions[glyph + 1]
        if end == start:
            continue
        if glyf is None:
            raise TTFError("no glyf table")
        if unpack_from(">h", data, glyf + start)[0] >= 0:
            continue
        at = glyf + start + 10   # a composite: its components, as makeSubset reads them
        flags = GF_MORE_COMPONENTS
        while flags & GF_MORE_COMPONENTS:
            if at + 4 > glyf + end:
                raise TTFError(f"composite glyph {glyph} runs past its end")
            flags, component = unpack_from(">HH", data, at)
            if component not in seen:
                seen.add(component)
                todo.append(component)
            at = _past_arguments(at + 4, flags)
