"""The directly written TrueType subsets (generator.fontsubset) draw what fontTools' subsetter draws.

Every SVG's fonts are cut by ``fontsubset.subset`` from a fontTools-cut master; these tests hold that its
files map the same characters to the same outlines and advances as fontTools' own subset of that master, that
FreeType (Pillow) renders them the same, and that a master it does not understand goes to fontTools.
"""
from __future__ import annotations

import io

import pytest
from fontTools.pens.recordingPen import RecordingPen
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops, ImageDraw, ImageFont

from generator import fonts, fontsubset
from tests.conftest import ROOT

TEXT = "Berlin–München 110 ÄÖÜß ベルリン東京 (「駅」) ½"
LATO = ROOT / "content" / "demo-artwork" / "fonts" / "Lato-Italic.ttf"


def _drawn(data: bytes, wanted: set[int]) -> dict[int, tuple[int, list]]:
    font = TTFont(io.BytesIO(data))
    glyphs, cmap = font.getGlyphSet(), font.getBestCmap()
    out = {}
    for cp in sorted(wanted & set(cmap)):
        pen = RecordingPen()
        glyphs[cmap[cp]].draw(pen)
        out[cp] = (glyphs[cmap[cp]].width, pen.value)
    return out


def _image(data: bytes, text: str) -> Image.Image:
    im = Image.new("L", (1600, 60), 0)
    ImageDraw.Draw(im).text((0, 0), text, font=ImageFont.truetype(io.BytesIO(data), 40), fill=255)
    return im


@pytest.mark.parametrize("path", [fonts.FONT_FILE, fonts.BOLD_FILE, LATO], ids=lambda p: p.name)
def test_a_direct_subset_draws_what_fonttools_subset_draws(path):
    face = fonts.register_file(path)
    wanted = {ord(c) for c in TEXT} & fonts.charset(face)
    master = fonts._subset(path.read_bytes(), wanted | {ord(c) for c in "xyz漢字"}, None, glyph_names=True)
    parsed = fontsubset.parse(master)
    assert parsed is not None
    ours = fontsubset.subset(parsed, frozenset(wanted))
    theirs = fonts._subset(master, wanted, None, glyph_names=False)
    assert set(TTFont(io.BytesIO(ours)).getBestCmap()) == wanted          # nothing more, nothing less
    assert _drawn(ours, wanted) == _drawn(theirs, wanted)
    assert ImageChops.difference(_image(ours, TEXT), _image(theirs, TEXT)).getbbox() is None
    # .notdef, the glyphs, the components of composite ones (fontTools may add mirrored brackets)
    assert len(wanted) + 1 <= len(TTFont(io.BytesIO(ours)).getGlyphOrder()) <= len(TTFont(io.BytesIO(theirs)).getGlyphOrder())
    assert ours == fontsubset.subset(fontsubset.parse(master), frozenset(wanted))   # deterministic


def test_a_composite_glyph_brings_its_components_renumbered():
    # Lato draws Ä as A plus a dieresis: both come along, and the composite points at their new ids
    face = fonts.register_file(LATO)
    master = fonts._subset(LATO.read_bytes(), {ord("Ä"), ord("z")}, None, glyph_names=True)
    ours = fontsubset.subset(fontsubset.parse(master), frozenset({ord("Ä")}))
    font = TTFont(io.BytesIO(ours))
    glyph = font["glyf"][font.getBestCmap()[ord("Ä")]]
    assert glyph.isComposite()
    assert len(font.getGlyphOrder()) == 1 + 1 + len(glyph.components)
    assert _drawn(ours, {ord("Ä")}) == _drawn(fonts._subset(master, {ord("Ä")}, None, False), {ord("Ä")})
    assert fonts.web_subset(face, "Ä") == ours   # the build's own path gives the same file


def test_a_master_it_does_not_understand_is_left_to_fonttools():
    master = fonts._subset(fonts.FONT_FILE.read_bytes(), {ord("a")}, None, glyph_names=True)
    font = TTFont(io.BytesIO(master))
    font["cmap"].tables = [t for t in font["cmap"].tables if t.format != 4]
    out = io.BytesIO()
    font.save(out)
    assert fontsubset.parse(out.getvalue()) is None
    assert fontsubset.parse(b"not a font") is None
