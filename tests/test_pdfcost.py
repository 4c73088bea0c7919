"""The PDF writer's font work without the faces' whole tables, and its forms' content encoded as ASCII: the same
bytes as ReportLab's own (issue 14, session 10, benchmarks/results.md "session10-pdfcost")."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.ttfonts import TTFont

from generator import fontparse, fonts
from generator.render import pdf

BUNDLED = [fonts.FONT_FILE, fonts.BOLD_FILE]
TEST_FONT = Path(__file__).resolve().parent / "data" / "PnpTestSans-Regular.ttf"
#: what a restored face makes whole only when something reads it whole
LARGE = ("charToGlyph", "charWidths", *fontparse.DEFERRED)


class _Doc:
    """A file's document, as a font's state is kept by (weakly)."""


def _restored(path: Path) -> fontparse.Font:
    data = path.read_bytes()
    face = fontparse.restored(str(path), data, fonts.snapshot_file(path).read_bytes())
    assert face is not None
    return fontparse.Font("F", str(path), data, face)


def _texts(codes: list[int]) -> list[str]:
    """Texts that fill more than one subset, repeat characters, and hold a no-break space and characters the
    face has not (U+E000, U+10FFFF, a control character)."""
    rng = random.Random(len(codes))
    picked = rng.sample(codes, min(600, len(codes)))
    chunks = ["Hello, world 123", "\xa0 a\xa0b", "\ue000\U0010ffff\x01x", "".join(map(chr, picked[:300]))]
    chunks += ["".join(map(chr, picked[i:i + 40])) for i in range(0, len(picked), 40)]
    return chunks + chunks[:3]


@pytest.mark.parametrize("path", [*BUNDLED, TEST_FONT], ids=lambda p: p.name)
def test_split_strings_and_subsets_are_reportlabs(path):
    """``Font.splitString`` gives ReportLab's codes and subsets (the file's state after each text too), and the
    subsets' objects (widths, font file) are ReportLab's, for a restored face and a parsed one."""
    ours = _restored(path) if path in BUNDLED else fontparse.Font("F", str(path), path.read_bytes())
    theirs = TTFont("F", str(path))
    codes = sorted(theirs.face.charToGlyph)
    texts = _texts(codes)
    doc_ours, doc_theirs = _Doc(), _Doc()
    for text in texts:
        assert ours.splitString(text, doc_ours) == theirs.splitString(text, doc_theirs)
        mine, their = ours.state[doc_ours], theirs.state[doc_theirs]
        assert (mine.subsets, mine.assignments, mine.nextCode) == (their.subsets, their.assignments, their.nextCode)
    subsets = ours.state[doc_ours].subsets
    assert len(subsets) > 1 or len(codes) < 256   # a small face's characters fill one
    for subset in subsets:
        assert [ours.face.getCharWidth(c) for c in subset] == [theirs.face.getCharWidth(c) for c in subset]
        assert ours.face.makeSubset(subset) == theirs.face.makeSubset(subset)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_a_restored_face_writes_a_pdfs_fonts_without_its_whole_tables(path):
    """Splitting text, the widths and the subsets of a file read what they need: none of the face's large tables
    is made (each costs millions of instructions a process); a subset asked again is the same bytes object."""
    font = _restored(path)
    codes = sorted(TTFont("F", str(path)).face.charToGlyph)
    doc = _Doc()
    for text in _texts(codes):
        font.splitString(text, doc)
    for subset in font.state[doc].subsets:
        [font.face.getCharWidth(c) for c in subset]
        assert font.face.makeSubset(subset) is font.face.makeSubset(list(subset))
    assert not set(LARGE) & set(vars(font.face))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_a_restored_faces_widths_are_its_char_widths(path):
    """``getCharWidth`` of a restored face (worked out from the glyph's advance) is ``charWidths.get(code,
    defaultWidth)`` for every character the face has, and for some it has not."""
    theirs = TTFont("F", str(path)).face
    face = _restored(path).face
    codes = [*theirs.charWidths, *theirs.charToGlyph, 0, 0x0A, 0xE000, 0xFFFF, 0x10FFFF]
    assert [face.getCharWidth(c) for c in codes] == [theirs.charWidths.get(c, theirs.defaultWidth) for c in codes]
    assert "charWidths" not in vars(face)


def test_a_restored_face_whose_keys_do_not_ascend_reads_its_table_whole():
    """A character looked up and not found in columns that do not ascend: the whole table says (no guess)."""
    face = _restored(fonts.FONT_FILE).face
    pending = vars(face)["_deferred"]["charToGlyph"]
    keys = list(fontparse._values(pending.columns[0]))
    values = list(fontparse._values(pending.columns[1]))
    swapped = [keys[1], keys[0], *keys[2:]]
    pending.columns = (fontparse._column(swapped), fontparse._column([values[1], values[0], *values[2:]]))
    assert face.maps(keys[0]) and face.maps(keys[1])   # found by the binary search or the whole table
    assert not face.maps(0x10FFFF)
    assert "charToGlyph" in vars(face)


@pytest.mark.parametrize("text", ["q 1 0 0 1 0 0 cm\nBT /F1+0 12 Tf (\\101) Tj ET\nQ", "caf\xe9 (x)", "a\x18b\x1fc",
                                  "\x7f\x00\t\r\n"])
def test_a_forms_content_is_encoded_as_reportlab_encodes_it(text):
    """ASCII where the PDFDocEncoding codec writes the same bytes; the codec where it does not (and its error)."""
    made = []
    for form in (pdf._FormXObject(0, 0, 1, 1), pdfdoc.PDFFormXObject(0, 0, 1, 1)):
        try:
            form.setStreamList(["%preamble", text])
            made.append(form.stream)
        except UnicodeEncodeError as e:
            made.append(str(e))
    assert made[0] == made[1]
    assert type(made[0]) is (str if "\x18" in text else bytes)
