"""Write tests/data/PnpTestSans-Regular.ttf: a tiny TrueType font for the tests (a game's own font).

Every printable ASCII character is a box whose width grows with its code, so text measured in it
differs from IPAexGothic. Made with fontTools (``pip install fonttools``; not a dependency of
pnpgen: the file is committed). Run from the repository root: ``python tools/make_test_font.py``.
"""
from __future__ import annotations

from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "PnpTestSans-Regular.ttf"


def box(width: int):
    pen = TTGlyphPen(None)
    if width:
        pen.moveTo((50, 0))
        pen.lineTo((50, 700))
        pen.lineTo((width - 50, 700))
        pen.lineTo((width - 50, 0))
        pen.closePath()
    return pen.glyph()


def main() -> None:
    chars = [chr(c) for c in range(0x20, 0x7F)]
    names = [".notdef"] + [f"uni{ord(c):04X}" for c in chars]
    widths = {".notdef": 500, **{f"uni{ord(c):04X}": 300 + 4 * (ord(c) - 0x20) for c in chars}}
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({ord(c): f"uni{ord(c):04X}" for c in chars})
    fb.setupGlyf({name: box(0 if name == "uni0020" else widths[name]) for name in names})
    fb.setupHorizontalMetrics({name: (widths[name], 50) for name in names})
    fb.setupHorizontalHeader(ascent=880, descent=-120)
    fb.setupNameTable({"familyName": "PnpTestSans", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120, fsType=0)
    fb.setupPost()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    fb.save(str(OUT))
    print(OUT, OUT.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
