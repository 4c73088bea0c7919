"""Fonts: pnpgen's real bold, a game's own TrueType families, and the files that are refused."""
from __future__ import annotations

import shutil
import struct
from pathlib import Path

from pypdf import PdfReader

from generator import fonts
from generator.fonts import BOLD_NAME, FONT_NAME, FontFamily, resolve
from tests.conftest import FIXTURES, copy_fixture

TEST_FONT = Path(__file__).resolve().parent / "data" / "PnpTestSans-Regular.ttf"


def _font_names(pdf: Path) -> set[str]:
    """BaseFont names of every font the PDF embeds (what `pdffonts` lists), with their file streams."""
    names = set()
    reader = PdfReader(pdf)
    for page in reader.pages:
        resources = page.get("/Resources") or {}
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            desc = font.get("/FontDescriptor")
            embedded = desc is not None and "/FontFile2" in desc.get_object()
            names.add((str(font["/BaseFont"]), embedded))
        xobjects = resources.get("/XObject") or {}
        for xobj in xobjects.values():
            inner = (xobj.get_object().get("/Resources") or {}).get("/Font") or {}
            for font in inner.values():
                font = font.get_object()
                desc = font.get("/FontDescriptor")
                names.add((str(font["/BaseFont"]), desc is not None and "/FontFile2" in desc.get_object()))
    return names


def _with_font(tmp_path: Path, fixture: str, yaml: str, font: Path = TEST_FONT, name: str = "TestSans.ttf") -> Path:
    folder = tmp_path / fixture
    shutil.copytree(FIXTURES / fixture, folder)
    (folder / "fonts").mkdir()
    shutil.copy(font, folder / "fonts" / name)
    with (folder / "game.yaml").open("a", encoding="utf-8") as f:
        f.write(yaml)
    return folder


def test_face_names_are_content_digests(tmp_path):
    copy = tmp_path / "body.ttf"
    shutil.copy(TEST_FONT, copy)
    name = fonts.register_file(TEST_FONT)
    assert name == fonts.register_file(copy) == fonts.register_file(TEST_FONT)
    assert name.startswith("F") and len(name) == 17 and "body" not in name
    other = tmp_path / "other.ttf"
    data = bytearray(TEST_FONT.read_bytes())
    data[-1] ^= 1  # one byte of the last glyph: another file, another face
    other.write_bytes(bytes(data))
    assert fonts.register_file(other) != name


def test_resolve_takes_real_faces_and_fakes_the_rest():
    assert resolve() == fonts.Face(FONT_NAME)
    assert resolve(None, bold=True) == fonts.Face(BOLD_NAME)
    assert resolve(None, italic=True) == fonts.Face(FONT_NAME, fake_italic=True)
    assert resolve(None, bold=True, italic=True) == fonts.Face(BOLD_NAME, fake_italic=True)
    test = fonts.register_file(TEST_FONT)
    families = {"body": FontFamily(TEST_FONT), "display": FontFamily(TEST_FONT, bold=fonts.BOLD_FILE)}
    assert resolve(None, families=families) == fonts.Face(test)
    assert resolve(None, bold=True, families=families) == fonts.Face(test, fake_bold=True)
    assert resolve("display", bold=True, families=families) == fonts.Face(BOLD_NAME)
    assert fonts.text_width_mm("Hello", 10, test) != fonts.text_width_mm("Hello", 10)
    assert fonts.missing_glyphs("Aあ", test) == ["あ"] and fonts.missing_glyphs("Aあ") == []


def test_bundled_bold_prints_the_rule_sheet_headings(built_game):
    names = _font_names(built_game("ttr-germany") / "ttr-germany-rules.pdf")
    bold = [(n, emb) for n, emb in names if n.endswith("+BIZUDPGothic-Bold")]
    assert bold and all(emb for _n, emb in bold), names


def test_a_game_font_is_embedded_and_subset(tmp_path, run):
    folder = _with_font(tmp_path, "english", "fonts:\n  heading: {regular: fonts/TestSans.ttf}\n")
    result = run("build", "--all", folder, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    names = _font_names(tmp_path / "out" / "english" / "english-rules.pdf")
    mine = [(n, emb) for n, emb in names if n.split("+")[-1] == "PnpTestSans"]
    assert mine and all(emb and "+" in n for n, emb in mine), names


def test_a_layout_names_a_family_and_its_glyphs_are_checked(tmp_path, run):
    folder = _with_font(tmp_path, "check-line", "fonts:\n  display: {regular: fonts/TestSans.ttf}\n")
    layout = folder / "layouts" / "plain.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("size: 10,", "size: 10, font: display,"),
                      encoding="utf-8")
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    assert "PNP702" in result.output and "目" in result.output  # the test font has no Japanese


def test_a_layout_naming_an_unknown_family_is_an_error(tmp_path, run):
    folder = _with_font(tmp_path, "check-line", "fonts:\n  display: {regular: fonts/TestSans.ttf}\n")
    layout = folder / "layouts" / "plain.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("size: 10,", "size: 10, font: dispaly,"),
                      encoding="utf-8")
    result = run("build", "--all", folder, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "font 'dispaly' is not a family the game declares" in result.stderr
    assert "display" in result.stderr and "plain.yaml:4" in result.stderr
    assert "Traceback" not in result.stderr


def _refused(tmp_path, run, data: bytes, name: str = "Bad.otf") -> str:
    tmp_path.mkdir(exist_ok=True)
    bad = tmp_path / name
    bad.write_bytes(data)
    folder = _with_font(tmp_path, "mini", f"fonts:\n  body:\n    regular: fonts/{name}\n", font=bad, name=name)
    result = run("check", folder)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.stderr
    assert "game.yaml:20" in result.stderr, result.stderr
    return result.stderr


def test_an_opentype_cff_font_is_refused_with_what_works(tmp_path, run):
    err = _refused(tmp_path, run, b"OTTO" + bytes(200))
    assert "font 'Bad.otf' is an OpenType font with CFF (PostScript) outlines" in err
    assert "TrueType fonts only (.ttf files with glyf outlines)" in err and "otf2ttf" in err


def test_collections_web_fonts_and_other_files_are_refused(tmp_path, run):
    assert "a TrueType collection (.ttc)" in _refused(tmp_path / "a", run, b"ttcf" + bytes(100), "Bad.ttc")
    assert "a WOFF web font" in _refused(tmp_path / "b", run, b"wOFF" + bytes(100), "Bad.woff")
    assert "not a font file" in _refused(tmp_path / "c", run, b"<html></html>", "Bad.ttf")


def test_a_font_that_forbids_embedding_is_refused(tmp_path, run):
    data = bytearray(TEST_FONT.read_bytes())
    count = struct.unpack_from(">H", data, 4)[0]
    for i in range(count):
        tag, _sum, offset, _length = struct.unpack_from(">4sLLL", data, 12 + 16 * i)
        if tag == b"OS/2":
            struct.pack_into(">H", data, offset + 8, 0x0002)
    err = _refused(tmp_path, run, bytes(data), "Locked.ttf")
    assert "forbids being embedded in a PDF (OS/2 fsType 0x0002: restricted licence embedding)" in err


def test_a_missing_font_file_points_at_its_line(tmp_path, run):
    folder = copy_fixture(tmp_path, "mini", "game.yaml", "include: [decks.yaml]\n",
                          "include: [decks.yaml]\nfonts:\n  body: {regular: fonts/Nope.ttf}\n")
    result = run("build", "--all", folder, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "game.yaml:8" in result.stderr and "font file 'fonts/Nope.ttf' does not exist" in result.stderr


def test_a_font_outside_the_game_is_refused(tmp_path, run):
    folder = copy_fixture(tmp_path, "mini", "game.yaml", "include: [decks.yaml]\n",
                          f"include: [decks.yaml]\nfonts:\n  body: {{regular: ../../{TEST_FONT.name}}}\n")
    shutil.copy(TEST_FONT, tmp_path.parent / TEST_FONT.name)
    result = run("check", folder)
    assert result.exit_code == 2 and "is outside the game folder" in result.stderr


def test_package_fonts_and_svg_families(tmp_path, run):
    folder = _with_font(tmp_path, "english",
                        "fonts:\n  body: {regular: 'package:ipaexg.ttf', bold: 'package:BIZUDPGothic-Bold.ttf'}\n"
                        "  heading: {regular: fonts/TestSans.ttf}\n")
    result = run("build", "--all", folder, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    svgs = list((tmp_path / "out" / "english").rglob("*.svg"))
    text = "".join(p.read_text(encoding="utf-8") for p in svgs)
    # the face's own name first (the family its embedded @font-face declares), then the family the file names
    assert "font-family=\"'BIZUDPGothic-Bold', 'BIZ UDPGothic', IPAexGothic" in text and 'font-weight="bold"' in text
    assert "@font-face { font-family: 'BIZUDPGothic-Bold'; font-weight: bold; font-style: normal;" in text


def test_fake_italic_slants_alike_in_pdf_and_svg(tmp_path):
    from generator.layout.primitives import Document, Page, Text
    from generator.render.pdf import render_pdf
    from generator.render.svg import render_svg
    face = resolve(None, italic=True)
    doc = Document("italic", [Page(100, 50, [Text(10, 20, "Slanted", 12, font=face.name, italic=face.fake_italic),
                                             Text(10, 40, "Upright", 12)])])
    render_pdf(doc, tmp_path / "a.pdf")
    content = PdfReader(tmp_path / "a.pdf").pages[0].get_contents().get_data().decode("latin-1")
    # the text matrix [1 0 tan(12°) 1 x y] for the slanted line; the upright one keeps a plain origin
    assert "1 0 .212557 1 28.34646 85.03937 Tm /F1+0 12 Tf 14.4 TL (Slanted)" in content, content
    assert "1 0 0 1 28.34646 28.34646 Tm /F1+0 12 Tf 14.4 TL (Upright)" in content, content
    render_svg(doc, doc.pages[0], tmp_path / "a.svg")
    svg = (tmp_path / "a.svg").read_text(encoding="utf-8")
    assert 'transform="translate(10,20) skewX(-12) translate(-10,-20)"' in svg and svg.count("skewX") == 1
