"""generator.fontparse reads a face exactly as ReportLab does (every attribute, every subset byte), and a
malformed file ends in a ContentError after bounded work (the bounds are structural: no timed tests)."""
from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from generator import FONT_DIR, fontparse, fonts, fontsubset
from generator.errors import ContentError

ROOT = Path(__file__).resolve().parents[1]
TEST_FONT = ROOT / "tests" / "data" / "PnpTestSans-Regular.ttf"
SYSTEM = sorted(Path("/usr/share/fonts/truetype").glob("*/*.ttf"))
SYSTEM = [p for p in SYSTEM if p.parent.name in ("dejavu", "liberation")]
FILES = [*sorted(FONT_DIR.glob("*.ttf")), *sorted((ROOT / "tests" / "data").glob("*.ttf")),
         *sorted((ROOT / "content" / "demo-artwork" / "fonts").glob("*.ttf")), *SYSTEM]


def _theirs(path: Path) -> TTFont:
    return TTFont("F", str(path))


def _ours(path: Path, data: bytes | None = None) -> fontparse.Font:
    return fontparse.Font("F", str(path), path.read_bytes() if data is None else data)


def _whole(face) -> dict:
    """``vars(face)`` once what only a subset reads (deferred by fontparse) has been read."""
    for name in fontparse.DEFERRED:
        getattr(face, name)
    return vars(face)


def _same(theirs: dict, ours: dict) -> None:
    theirs, ours = dict(theirs), dict(ours)
    scale_theirs, scale_ours = theirs.pop("_pdfScale", None), ours.pop("_pdfScale", None)
    assert theirs.keys() == ours.keys()
    for key, value in theirs.items():
        assert type(ours[key]) is type(value), key
        assert ours[key] == value, key
        if isinstance(value, dict):   # insertion order too: anything iterating them sees the same sequence
            assert list(ours[key].items()) == list(value.items()), key
    if scale_theirs is not None:
        probe = [0, 1, -7, 500, 1000, 2048, 65535]
        assert [scale_ours(x) for x in probe] == [scale_theirs(x) for x in probe]


def _subsets(face) -> list[list[int]]:
    codes = sorted(face.charToGlyph)
    picked = random.Random(len(codes)).sample(codes, min(200, len(codes)))
    return [list(range(32, 127)), codes[:256], codes[-256:], picked + [0x10FFFF, 0xE000]]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_attribute_and_subset_is_reportlabs(path):
    theirs, ours = _theirs(path), _ours(path)
    assert not set(fontparse.DEFERRED) & set(vars(ours.face))   # measuring text builds none of them
    _same(vars(theirs.face), _whole(ours.face))
    plain = {k: v for k, v in vars(theirs).items() if k not in ("face", "state", "encoding")}
    assert plain == {k: v for k, v in vars(ours).items() if k not in ("face", "state", "encoding")}
    assert type(ours.encoding) is type(theirs.encoding) and vars(ours.encoding) == vars(theirs.encoding)
    assert type(ours.state) is type(theirs.state) and not ours.state
    fresh = _ours(path).face
    for subset in _subsets(theirs.face):
        assert ours.face.makeSubset(subset) == theirs.face.makeSubset(subset) == fresh.makeSubset(subset)
    assert "glyphToChar" not in vars(fresh)   # a subset needs hmetrics and glyphPos only


def test_the_bundled_fonts_and_the_system_fonts_are_there():
    """The comparison above covers the files it must (DejaVu and Liberation only where installed)."""
    names = {p.name for p in FILES}
    assert {"ipaexg.ttf", "BIZUDPGothic-Bold.ttf", "PnpTestSans-Regular.ttf", "Lato-Regular.ttf"} <= names


# --------------------------------------------------------------------------- malformed files

def _tables(data: bytes) -> dict[str, bytes]:
    (count,) = struct.unpack_from(">H", data, 4)
    found = {}
    for i in range(count):
        tag, _sum, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * i)
        found[tag.decode("latin-1")] = data[offset:offset + length]
    return found


def _font(**changed: bytes) -> bytes:
    """The test font with some tables replaced (keyword ``OS_2`` for ``OS/2``)."""
    tables = _tables(TEST_FONT.read_bytes())
    tables.update({tag.replace("_", "/"): value for tag, value in changed.items()})
    return fontsubset._sfnt(tables)


def _patched(table: str, at: int, fmt: str, *values) -> bytes:
    data = bytearray(_tables(TEST_FONT.read_bytes())[table])
    struct.pack_into(fmt, data, at, *values)
    return _font(**{table.replace("/", "_"): bytes(data)})


def _format4(segments: list[tuple[int, int, int]]) -> bytes:
    """A cmap whose one (3,1) subtable is format 4 with ``segments`` (start, end, delta)."""
    n = len(segments)
    body = (struct.pack(f">{n}H", *(e for _, e, _ in segments)) + b"\0\0" + struct.pack(f">{n}H", *(s for s, _, _ in segments))
            + struct.pack(f">{n}h", *(d for _, _, d in segments)) + b"\0\0" * n)
    sub = struct.pack(">7H", 4, 14 + len(body), 0, 2 * n, 0, 0, 0) + body
    return struct.pack(">HHHHL", 0, 1, 3, 1, 12) + sub


def _format12(groups: list[tuple[int, int, int]]) -> bytes:
    sub = struct.pack(">HHLLL", 12, 0, 16 + 12 * len(groups), 0, len(groups)) + b"".join(
        struct.pack(">LLL", *g) for g in groups)
    return struct.pack(">HHHHL", 0, 1, 3, 10, 12) + sub


def _loca(offsets: list[int]) -> bytes:
    return struct.pack(f">{len(offsets)}H", *(o // 2 for o in offsets))


_GLYPHS = struct.unpack_from(">97H", _tables(TEST_FONT.read_bytes())["loca"])
_ENDS = [2 * o for o in _GLYPHS]

HOSTILE = {
    # a maxp claiming 65,535 glyphs in a 4 KB file: hmtx and loca hold 96
    "maxp-65535-glyphs": _patched("maxp", 4, ">H", 0xFFFF),
    "hhea-65535-metrics": _patched("hhea", 34, ">H", 0xFFFF),
    # one format 4 segment mapping every BMP character to glyph ids up to 0xFFFF (the font has 96)
    "cmap-segment-0-ffff": _font(cmap=_format4([(0, 0xFFFF, 0)])),
    # 8,000 segments of 0–0xFFFF each: ReportLab would map half a billion characters
    "cmap-8000-full-segments": _font(cmap=_format4([(0, 0xFFFF, 0)] * 8000)),
    "cmap-group-0-ffffffff": _font(cmap=_format12([(0, 0xFFFFFFFF, 1)])),
    "cmap-groups-all-unicode-twice": _font(cmap=_format12([(0, 0x10FFFF, 1)] * 2)),
    "cmap-groups-past-the-table": _font(cmap=_format12([(65, 66, 1)])[:-8]),
    "cmap-records-65535": _patched("cmap", 2, ">H", 0xFFFF),
    "loca-past-the-end": _font(loca=_loca(_ENDS[:-1] + [_ENDS[-1] + 4000])),
    "loca-backwards": _font(loca=_loca([*_ENDS[:5], _ENDS[-1], *_ENDS[6:]])),
    "name-records-65535": _patched("name", 2, ">H", 0xFFFF),
    "head-units-per-em-0": _patched("head", 18, ">H", 0),
    "head-magic": _patched("head", 12, ">L", 0),
    "loca-format-7": _patched("head", 50, ">H", 7),
    "no-loca": fontsubset._sfnt({t: v for t, v in _tables(TEST_FONT.read_bytes()).items() if t != "loca"}),
    "every-table-0xff": fontsubset._sfnt({t: b"\xff" * len(v) for t, v in _tables(TEST_FONT.read_bytes()).items()}),
    "every-table-but-os2-0xff": fontsubset._sfnt({t: v if t == "OS/2" else b"\xff" * len(v)
                                                  for t, v in _tables(TEST_FONT.read_bytes()).items()}),
    # glyph 1 made a composite naming glyph 65534 (the font has 96)
    "composite-names-missing-glyph": _font(glyf=_tables(TEST_FONT.read_bytes())["glyf"][:_ENDS[1]] + struct.pack(
        ">hhhhhHH", -1, 0, 0, 10, 10, 0, 0xFFFE) + b"\0\0" + _tables(TEST_FONT.read_bytes())["glyf"][_ENDS[1] + 16:]),
}


def _directory_pointing_past_the_end() -> bytes:
    data = bytearray(TEST_FONT.read_bytes())
    (count,) = struct.unpack_from(">H", data, 4)
    for i in range(count):
        if data[12 + 16 * i:16 + 16 * i] == b"hmtx":
            struct.pack_into(">L", data, 20 + 16 * i, len(data) - 8)
    return bytes(data)


HOSTILE["hmtx-offset-past-the-end"] = _directory_pointing_past_the_end()
HOSTILE["0xff-after-the-magic-1-mib"] = b"\0\1\0\0" + b"\xff" * (1 << 20)   # 65,535 tables claimed
HOSTILE["all-0xff-after-the-directory"] = (TEST_FONT.read_bytes()[:12 + 16 * 10]
                                           + b"\xff" * (len(TEST_FONT.read_bytes()) - 12 - 16 * 10))


def _register(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "Hostile.ttf"
    path.write_bytes(data)
    return fonts.register_file(path)


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_font_is_a_content_error(tmp_path, case):
    with pytest.raises(ContentError, match="cannot be read as a TrueType font|is cut short|forbids being embedded|no glyf"):
        _register(tmp_path, HOSTILE[case])


def test_the_hostile_cases_are_what_they_say():
    """The crafted files differ from the test font where they claim to (the test above can fail)."""
    ours = _ours(TEST_FONT, _font())
    _same(_whole(_ours(TEST_FONT).face) | {"_ttf_data": b"", "table": {}, "tables": [], "_pos": 0},
          _whole(ours.face) | {"_ttf_data": b"", "table": {}, "tables": [], "_pos": 0})
    assert _ours(TEST_FONT, _font(cmap=_format12([(65, 90, 34)]))).face.charToGlyph[66] == 35


def test_a_collection_is_refused_before_reportlab_reads_its_count():
    with pytest.raises(TTFError, match="collection"):
        _ours(TEST_FONT, b"ttcf\0\1\0\0\xff\xff\xff\xff")


def test_reportlab_hangs_where_the_bounds_refuse():
    """What the bounds stand in for: ReportLab's own reading of these never ends (not run: it would not)."""
    with pytest.raises(TTFError, match="maps more than 1114112 characters"):
        _ours(TEST_FONT, HOSTILE["cmap-group-0-ffffffff"])
    with pytest.raises(TTFError, match="maps more than"):
        _ours(TEST_FONT, HOSTILE["cmap-8000-full-segments"])


def _subsets_whole(font) -> None:
    """What register_file did before check_glyphs: make the PDF subsets of every character, 256 at a time."""
    codes = sorted(font.face.charToGlyph)
    for start in range(0, len(codes), 256):
        font.face.makeSubset(codes[start:start + 256])


def _fails(call) -> bool:
    try:
        call()
    except Exception:  # noqa: BLE001 (any failure is what is compared)
        return True
    return False


BROKEN_GLYPHS = {
    "composite-names-missing-glyph": HOSTILE["composite-names-missing-glyph"],
    "cmap-segment-0-ffff": HOSTILE["cmap-segment-0-ffff"],
    "cmap-names-glyph-96": _font(cmap=_format4([(65, 65, 96 - 65), (0xFFFF, 0xFFFF, 1)])),
    "cmap-names-glyph-95": _font(cmap=_format4([(65, 65, 95 - 65), (0xFFFF, 0xFFFF, 1)])),
    # a composite whose component list runs past its glyph's end
    "composite-runs-past-its-end": _font(glyf=_tables(TEST_FONT.read_bytes())["glyf"][:_ENDS[1]] + struct.pack(
        ">hhhhhHHbb", -1, 0, 0, 10, 10, 0x20 | 0x1, 3, 0, 0) + b"\0" * (_ENDS[2] - _ENDS[1] - 18)
        + _tables(TEST_FONT.read_bytes())["glyf"][_ENDS[2]:]),
}


@pytest.mark.parametrize("case", sorted(BROKEN_GLYPHS))
def test_check_glyphs_refuses_what_making_every_subset_refuses(tmp_path, case):
    path = tmp_path / "Broken.ttf"
    path.write_bytes(BROKEN_GLYPHS[case])
    before = _fails(lambda: _subsets_whole(TTFont("F", str(path))))
    after = _fails(lambda: fontparse.check_glyphs(_ours(path).face))
    assert after == before


@pytest.mark.parametrize("path", [TEST_FONT, *sorted((ROOT / "content" / "demo-artwork" / "fonts").glob("*.ttf")),
                                  *[p for p in SYSTEM if p.name in ("DejaVuSans.ttf", "LiberationSerif-Italic.ttf")]],
                         ids=lambda p: p.name)
def test_check_glyphs_passes_a_sound_font(path):
    fontparse.check_glyphs(_ours(path).face)


def test_every_truncation_is_refused_when_reportlab_refuses_it(tmp_path):
    """Cut at every 7th byte: whatever ReportLab (reading and subsetting every character) refuses is refused, as a
    ContentError, never another exception."""
    whole = TEST_FONT.read_bytes()
    refused = 0
    for cut in range(0, len(whole), 7):
        data = whole[:cut]
        path = tmp_path / f"Cut{cut}.ttf"
        path.write_bytes(data)
        theirs = _fails(lambda: _subsets_whole(TTFont("F", str(path))))  # noqa: B023 (called at once)
        try:
            fonts.register_file(path)
        except ContentError:
            refused += 1
            continue
        assert not theirs, f"cut at {cut}: ReportLab refuses it, pnpgen reads it"
    assert refused == len(range(0, len(whole), 7))   # the last table (post) is read: every cut is refused
