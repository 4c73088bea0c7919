"""TrueType subsets written directly, for the fonts each SVG and HTML page carries.

fontTools' subsetter costs about 2.5 ms per call on a 20 KB font (it walks every table generically), and a
build makes one per face per SVG: for 1,000 cards that was 5 of 8 seconds. The input here is always a
*master* fontTools has already cut (``generator.fonts._master``: hinting, layout tables and legacy names gone,
TrueType outlines), so what is left is copying: the wanted glyphs' bytes (composite glyphs' component ids
renumbered), their metrics, a new cmap and loca, and the master's small tables with their counts updated.
That takes a tenth of the time. A master this module does not understand (no Unicode cmap of format 4 or 12,
variation or colour tables) is ``None`` here, and ``fonts`` falls back to fontTools.

Every value copied is the master's, and the master keeps the font file's own (bounding boxes, unicode
ranges, glyph order), so a subset depends only on the font file and the characters: the same bytes however
many other characters the master holds (tests/test_standalone_svg.py).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

#: tables a subset is made of (those the master has); ``post`` is written as format 3 (no glyph names)
KEPT = ("OS/2", "cmap", "glyf", "head", "hhea", "hmtx", "loca", "maxp", "name", "post")
#: tables that change what a glyph looks like: a master holding one is left to fontTools
UNDERSTOOD_NOT = ("gvar", "fvar", "COLR", "CPAL", "CBDT", "CBLC", "sbix", "SVG ", "EBDT", "EBLC", "CFF ", "CFF2")

_COMPOSITE_MORE, _ARG_WORDS, _SCALE, _XY_SCALE, _TWO_BY_TWO = 0x20, 0x1, 0x8, 0x40, 0x80


@dataclass(frozen=True)
class Master:
    """A master font taken apart once: what each subset of it copies."""

    cmap: dict[int, int]            # code point → glyph id
    glyphs: list[bytes]             # glyf data per glyph id
    metrics: list[tuple[int, int]]  # (advance, left side bearing) per glyph id
    tables: dict[str, bytes]        # head, hhea, maxp, OS/2, name, post as the master has them


def parse(data: bytes) -> Master | None:
    """``data`` (a TrueType master) taken apart, or None when it holds something only fontTools should cut."""
    try:
        return _parse(data)
    except (struct.error, KeyError, IndexError, ValueError):
        return None


def _parse(data: bytes) -> Master | None:
    (count,) = struct.unpack_from(">H", data, 4)
    raw: dict[str, bytes] = {}
    for i in range(count):
        tag, _checksum, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * i)
        raw[tag.decode("latin-1")] = data[offset:offset + length]
    if any(tag in raw for tag in UNDERSTOOD_NOT) or not all(t in raw for t in ("cmap", "glyf", "head", "hhea",
                                                                            "hmtx", "loca", "maxp")):
        return None
    head, maxp, hhea = raw["head"], raw["maxp"], raw["hhea"]
    (glyph_count,) = struct.unpack_from(">H", maxp, 4)
    (long_loca,) = struct.unpack_from(">h", head, 50)
    if long_loca:
        loca = struct.unpack_from(f">{glyph_count + 1}L", raw["loca"])
    else:
        loca = tuple(2 * o for o in struct.unpack_from(f">{glyph_count + 1}H", raw["loca"]))
    glyf = raw["glyf"]
    glyphs = [glyf[loca[g]:loca[g + 1]] for g in range(glyph_count)]
    (full,) = struct.unpack_from(">H", hhea, 34)
    hmtx = raw["hmtx"]
    metrics = [struct.unpack_from(">Hh", hmtx, 4 * g) for g in range(full)]
    last = metrics[-1][0]
    metrics += [(last, struct.unpack_from(">h", hmtx, 4 * full + 2 * (g - full))[0])
                for g in range(full, glyph_count)]
    cmap = _read_cmap(raw["cmap"])
    if cmap is None or any(g >= glyph_count for g in cmap.values()):
        return None
    return Master(cmap, glyphs, metrics, {t: raw[t] for t in ("head", "hhea", "maxp", "OS/2", "name", "post")
                                          if t in raw})


def _read_cmap(table: bytes) -> dict[int, int] | None:
    """The Unicode mapping of a cmap: its (3,10) or (0,4) format 12 subtable, else its (3,1) or (0,3) format 4."""
    (count,) = struct.unpack_from(">H", table, 2)
    records = {struct.unpack_from(">HH", table, 4 + 8 * i): struct.unpack_from(">L", table, 8 + 8 * i)[0]
               for i in range(count)}
    for key in ((3, 10), (0, 4), (0, 6), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0)):
        if key not in records:
            continue
        offset = records[key]
        (fmt,) = struct.unpack_from(">H", table, offset)
        if fmt == 12:
            (groups,) = struct.unpack_from(">L", table, offset + 12)
            cmap = {}
            for n in range(groups):
                start, end, glyph = struct.unpack_from(">LLL", table, offset + 16 + 12 * n)
                for cp in range(start, end + 1):
                    cmap[cp] = glyph + cp - start
            return cmap
        if fmt == 4:
            return _read_format4(table, offset)
    return None


def _read_format4(table: bytes, offset: int) -> dict[int, int]:
    (seg_x2,) = struct.unpack_from(">H", table, offset + 6)
    segs = seg_x2 // 2
    ends = struct.unpack_from(f">{segs}H", table, offset + 14)
    starts = struct.unpack_from(f">{segs}H", table, offset + 16 + seg_x2)
    deltas = struct.unpack_from(f">{segs}H", table, offset + 16 + 2 * seg_x2)
    range_at = offset + 16 + 3 * seg_x2
    ranges = struct.unpack_from(f">{segs}H", table, range_at)
    cmap = {}
    for i in range(segs):
        for cp in range(starts[i], ends[i] + 1):
            if cp == 0xFFFF:
                continue
            if ranges[i] == 0:
                glyph = (cp + deltas[i]) & 0xFFFF
            else:
                (glyph,) = struct.unpack_from(">H", table, range_at + 2 * i + ranges[i] + 2 * (cp - starts[i]))
                if glyph:
                    glyph = (glyph + deltas[i]) & 0xFFFF
            if glyph:
                cmap[cp] = glyph
    return cmap


def _components(glyph: bytes) -> list[tuple[int, int]]:
    """(byte offset of the glyph id, glyph id) of each component of a composite glyph (none for a simple one)."""
    if len(glyph) < 10 or struct.unpack_from(">h", glyph, 0)[0] >= 0:
        return []
    found, at = [], 10
    while True:
        flags, gid = struct.unpack_from(">HH", glyph, at)
        found.append((at + 2, gid))
        at += 4 + (4 if flags & _ARG_WORDS else 2)
        at += 2 if flags & _SCALE else 4 if flags & _XY_SCALE else 8 if flags & _TWO_BY_TWO else 0
        if not flags & _COMPOSITE_MORE:
            return found


def subset(master: Master, codepoints: frozenset[int]) -> bytes:
    """The master cut down to ``codepoints`` (those it has) and ``.notdef``: glyphs in the master's order."""
    mapped = {cp: master.cmap[cp] for cp in sorted(codepoints) if cp in master.cmap}
    wanted = {0, *mapped.values()}
    todo = list(wanted)
    while todo:   # composite glyphs bring their components
        for _at, gid in _components(master.glyphs[todo.pop()]):
            if gid not in wanted:
                wanted.add(gid)
                todo.append(gid)
    order = sorted(wanted)
    new_id = {old: new for new, old in enumerate(order)}
    glyf, offsets = bytearray(), []
    for old in order:
        offsets.append(len(glyf))
        data = master.glyphs[old]
        parts = _components(data)
        if parts:
            patched = bytearray(data)
            for at, gid in parts:
                struct.pack_into(">H", patched, at, new_id[gid])
            data = bytes(patched)
        glyf += data + b"\0" * (-len(data) % 4)
    offsets.append(len(glyf))
    long_loca = len(glyf) >= 0x20000
    loca = struct.pack(f">{len(offsets)}{'L' if long_loca else 'H'}",
                       *(offsets if long_loca else [o // 2 for o in offsets]))
    hmtx = b"".join(struct.pack(">Hh", *master.metrics[old]) for old in order)
    tables = {"glyf": bytes(glyf) or b"\0", "loca": loca, "hmtx": hmtx,
              "cmap": _cmap({cp: new_id[g] for cp, g in mapped.items()})}
    head = bytearray(master.tables["head"])
    struct.pack_into(">L", head, 8, 0)
    struct.pack_into(">h", head, 50, 1 if long_loca else 0)
    tables["head"] = bytes(head)
    hhea = bytearray(master.tables["hhea"])
    struct.pack_into(">H", hhea, 34, len(order))
    tables["hhea"] = bytes(hhea)
    maxp = bytearray(master.tables["maxp"])
    struct.pack_into(">H", maxp, 4, len(order))
    tables["maxp"] = bytes(maxp)
    if "OS/2" in master.tables and len(master.tables["OS/2"]) >= 68:
        os2 = bytearray(master.tables["OS/2"])
        cps = list(mapped) or [0]
        struct.pack_into(">HH", os2, 64, min(min(cps), 0xFFFF), min(max(cps), 0xFFFF))
        tables["OS/2"] = bytes(os2)
    if "name" in master.tables:
        tables["name"] = master.tables["name"]
    if "post" in master.tables and len(master.tables["post"]) >= 32:
        tables["post"] = struct.pack(">L", 0x00030000) + master.tables["post"][4:32]
    return _sfnt(tables)


def _cmap(mapping: dict[int, int]) -> bytes:
    """A cmap with a (3,1) format 4 subtable of the BMP, and a (3,10) format 12 one when there is more."""
    bmp = [(cp, g) for cp, g in sorted(mapping.items()) if cp < 0xFFFF]
    subtables = [((3, 1), _format4(bmp))]
    if len(bmp) < len(mapping):
        subtables.append(((3, 10), _format12(sorted(mapping.items()))))
    header = struct.pack(">HH", 0, len(subtables))
    offset = 4 + 8 * len(subtables)
    records, body = b"", b""
    for (platform, encoding), data in subtables:
        records += struct.pack(">HHL", platform, encoding, offset + len(body))
        body += data
    return header + records + body


def _runs(pairs: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(first code point, last, first glyph) of each run where both go up by one."""
    runs: list[list[int]] = []
    for cp, g in pairs:
        if runs and cp == runs[-1][1] + 1 and g == runs[-1][2] + cp - runs[-1][0]:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp, g])
    return [(a, b, g) for a, b, g in runs]


def _format4(pairs: list[tuple[int, int]]) -> bytes:
    segments = [(a, b, (g - a) & 0xFFFF) for a, b, g in _runs(pairs)] + [(0xFFFF, 0xFFFF, 1)]
    n = len(segments)
    power = 1 << (n.bit_length() - 1)
    body = (struct.pack(f">{n}H", *(b for _, b, _ in segments)) + b"\0\0"
            + struct.pack(f">{n}H", *(a for a, _, _ in segments))
            + struct.pack(f">{n}H", *(d for _, _, d in segments)) + b"\0\0" * n)
    return struct.pack(">7H", 4, 14 + len(body), 0, 2 * n, 2 * power, power.bit_length() - 1, 2 * n - 2 * power) + body


def _format12(pairs: list[tuple[int, int]]) -> bytes:
    runs = _runs(pairs)
    return struct.pack(">HHLLL", 12, 0, 16 + 12 * len(runs), 0, len(runs)) + b"".join(
        struct.pack(">LLL", a, b, g) for a, b, g in runs)


def _checksum(data: bytes) -> int:
    data += b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(data) // 4}L", data)) & 0xFFFFFFFF


def _sfnt(tables: dict[str, bytes]) -> bytes:
    """The font file: table directory (tags sorted), each table 4-byte aligned, head's checkSumAdjustment set."""
    tags = sorted(tables)
    n = len(tags)
    power = 1 << (n.bit_length() - 1)
    directory = struct.pack(">LHHHH", 0x00010000, n, 16 * power, power.bit_length() - 1, 16 * n - 16 * power)
    offset = 12 + 16 * n
    body = b""
    for tag in tags:
        data = tables[tag]
        directory += struct.pack(">4sLLL", tag.encode("latin-1"), _checksum(data), offset + len(body), len(data))
        body += data + b"\0" * (-len(data) % 4)
    font = bytearray(directory + body)
    head_at = offset + sum(len(tables[t]) + (-len(tables[t]) % 4) for t in tags[:tags.index("head")])
    struct.pack_into(">L", font, head_at + 8, (0xB1B0AFBA - _checksum(bytes(font))) & 0xFFFFFFFF)
    return bytes(font)
