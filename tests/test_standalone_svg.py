"""SVGs and the HTML rule page carry their fonts (issue 13): Japanese shows on a machine with no Japanese font.

Each SVG has one ``@font-face`` per face it draws with, a TrueType subset whose cmap covers every character
it prints with that face; the same file comes out byte for byte whatever was built before. The rule page
embeds its faces the same way, keeps numbers whole in table cells, draws rich-text markup (colours, icons,
emphasis) instead of printing it, and is well-formed HTML.
"""
from __future__ import annotations

import base64
import io
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from lxml import etree

from generator import fonts
from generator.layout.primitives import Document, Page, Text
from generator.render.svg import render_svg
from tests.conftest import ROOT

SVG = "{http://www.w3.org/2000/svg}"
FACE = re.compile(r"@font-face \{ font-family: '([^']+)'; font-weight: (\w+); font-style: (\w+); "
                  r"src: url\(data:font/ttf;base64,([A-Za-z0-9+/=]+)\) format\('truetype'\); \}")


def _faces(text: str) -> dict[tuple[str, str, str], TTFont]:
    """(family, weight, style) → the embedded font, opened with fontTools."""
    return {(m.group(1), m.group(2), m.group(3)): TTFont(io.BytesIO(base64.b64decode(m.group(4))))
            for m in FACE.finditer(text)}


def _first_family(value: str) -> str:
    return value.split(",")[0].strip().strip("'\"")


def _svg_texts(path: Path) -> list[tuple[str, str, str]]:
    """(family, weight, text) of every <text> of an SVG: the family the element names first (else the root's)."""
    root = etree.parse(str(path)).getroot()
    found = []
    for el in root.iter(f"{SVG}text"):
        family = el.get("font-family") or root.get("font-family")
        found.append((_first_family(family), el.get("font-weight", "normal"), el.text or ""))
    return found


@pytest.fixture(scope="module")
def germany(built_game):
    return built_game("ttr-germany")


def test_every_svg_of_a_japanese_game_embeds_fonts_covering_its_text(germany):
    """Every SVG of ttr-germany: each <text>'s characters are in the cmap of the @font-face its family names."""
    svgs = sorted(germany.rglob("*.svg"))
    assert len(svgs) > 100
    checked = 0
    for path in svgs:
        text = path.read_text(encoding="utf-8")
        faces = _faces(text)
        for family, weight, line in _svg_texts(path):
            font = faces.get((family, weight, "normal"))
            assert font is not None, f"{path.name}: no @font-face for {family} {weight} (text {line!r})"
            cmap = font.getBestCmap()
            missing = sorted({c for c in line if ord(c) not in cmap})
            assert not missing, f"{path.relative_to(germany)}: {family} lacks {missing} of {line!r}"
            checked += 1
    assert checked > 500


def test_a_japanese_card_carries_both_faces_small(germany):
    """The purple train card: 紫 in the bold face, 'purple' in the regular one; each subset only what it prints."""
    path = germany / "svg" / "train-cards" / "001.svg"
    faces = _faces(path.read_text(encoding="utf-8"))
    assert set(faces) == {("BIZUDPGothic-Bold", "bold", "normal"), ("IPAexGothic", "normal", "normal")}
    bold = faces[("BIZUDPGothic-Bold", "bold", "normal")].getBestCmap()
    regular = faces[("IPAexGothic", "normal", "normal")].getBestCmap()
    assert set(bold) == {ord("紫")}
    assert set(regular) == {ord(c) for c in "purple"}
    assert path.stat().st_size < 10_000   # the SVG was 1.9 KB without fonts; a subset, not a 6 MB file


def test_subsets_are_the_same_bytes_whatever_was_built_before(tmp_path):
    """A face's subset is cut from a master that grows as pages need characters: the file is byte for byte the
    same from a fresh process state, from a master grown with many other characters, and from the whole font."""
    doc = Document("t", [Page(60, 20, [Text(2, 10, "ベルリン Berlin 110", 10),
                                       Text(2, 18, "紫", 10, font=fonts.BOLD_NAME)])])
    fonts._masters.clear()
    fonts._web_subset.cache_clear()
    render_svg(doc, doc.pages[0], tmp_path / "a.svg")
    fonts.web_subset(fonts.FONT_NAME, "あいうえお漢字東京大阪ÄÖÜß")  # grows the master with other characters
    fonts.web_subset(fonts.BOLD_NAME, "あいうえお漢字東京大阪")
    fonts._web_subset.cache_clear()
    render_svg(doc, doc.pages[0], tmp_path / "b.svg")
    assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()
    # and a subset of the grown master is the subset of a master cut for just these characters
    grown = fonts.web_subset(fonts.FONT_NAME, "ベルリン Berlin 110")
    fonts._masters.clear()
    fonts._web_subset.cache_clear()
    whole = fonts.web_subset(fonts.FONT_NAME, "ベルリン Berlin 110")
    assert fonts._masters[fonts.FONT_NAME][0] == {ord(c) for c in "ベルリン Berlin 110"}
    assert grown == whole
    # no timestamp of today: head.modified is the font file's own
    original = TTFont(str(fonts.FONT_FILE), lazy=True)["head"].modified
    assert TTFont(io.BytesIO(whole))["head"].modified == original


def test_a_face_with_none_of_the_characters_embeds_nothing():
    assert fonts.web_subset(fonts.FONT_NAME, "\ue000") is None     # private use: no glyph
    assert fonts.web_subset("no-such-face", "abc") is None
    assert fonts.face_file(fonts.BOLD_NAME) == fonts.BOLD_FILE


# --------------------------------------------------------------------------- the HTML rule page

class _Checker(HTMLParser):
    """Basic HTML validation: doctype, every element closed in order, unique ids, alt on every <img>."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.doctype, self.stack, self.ids, self.problems = None, [], [], []
        self.tags: list[tuple[str, dict]] = []
        self.title = ""

    def handle_decl(self, decl):
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "img" and not attrs.get("alt"):
            self.problems.append(f"<img> without alt: {attrs}")
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
        else:
            self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "title":
            self.title += data


def _check_html(page: str) -> _Checker:
    checker = _Checker()
    checker.feed(page)
    checker.close()
    assert checker.doctype and checker.doctype.lower() == "doctype html"
    assert not checker.problems, checker.problems
    assert not checker.stack, f"unclosed: {checker.stack}"
    assert len(checker.ids) == len(set(checker.ids)), "duplicate ids"
    html = [a for t, a in checker.tags if t == "html"]
    assert html and html[0].get("lang")
    assert any(t == "meta" and a.get("charset", "").lower() == "utf-8" for t, a in checker.tags)
    assert checker.title.strip()
    return checker


def test_the_rule_page_is_valid_html_and_carries_its_fonts(germany):
    page = (germany / "ttr-germany-rules.html").read_text(encoding="utf-8")
    _check_html(page)
    faces = _faces(page)
    assert set(faces) == {("IPAexGothic", "normal", "normal"), ("IPAexGothic", "bold", "normal")}
    body = re.sub(r"<style>.*?</style>|<head>.*?</head>|<[^>]+>", "", page, flags=re.S)
    shown = {c for c in re.sub(r"&[a-z#0-9]+;", "", body) if not c.isspace()}
    regular = faces[("IPAexGothic", "normal", "normal")].getBestCmap()
    assert {"ベ", "ル", "リ", "ン", "1", "0"} <= {chr(c) for c in regular}
    assert not sorted(c for c in shown if ord(c) not in regular)
    # the bold face (BIZ UDPGothic Bold) has the headings' characters
    assert ord("勝") in faces[("IPAexGothic", "bold", "normal")].getBestCmap()   # 勝ち負け, a heading


def test_numbers_in_table_cells_stay_whole(germany):
    """'110' must not wrap to 11/0: body's overflow-wrap: anywhere let a table shrink cells to one character.
    Cells reset it, and short cells (numbers, kinds) are kept on one line."""
    page = (germany / "ttr-germany-rules.html").read_text(encoding="utf-8")
    assert re.search(r"th, td \{[^}]*overflow-wrap: normal;", page)
    assert re.search(r"td\.whole, th\.whole \{ white-space: nowrap; \}", page)
    assert re.search(r'<td style="text-align:right" class="whole">110</td>', page)
    assert '<div class="table"><table>' in page


def test_rich_text_markup_is_drawn_in_the_html(tmp_path, run):
    """[colour]…[/] is a coloured span (across **bold**), :icon: the icon, *italic* <em>; escapes stay text."""
    game = tmp_path / "mini"
    shutil.copytree(ROOT / "tests" / "fixtures" / "mini", game)
    (game / "rules.md").write_text(
        "# Rules\n\n"
        "Take [red]two **red** cards[/] and a :star: token. *Slanted* words.\n\n"
        "| Kind | Count |\n|:--|--:|\n| [#1e6fd9]blue[/] | 110 |\n\n"
        "Escaped: \\[red\\] and 10\\:30 stay as written.\n", encoding="utf-8")
    result = run("build", "--all", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    page = next((tmp_path / "out").rglob("*-rules.html")).read_text(encoding="utf-8")
    _check_html(page)
    body = page.split("<body>", 1)[1]
    assert body.count("[red]") == 1 and "Escaped: [red] and" in body    # only the escaped one
    assert "[/]" not in body and ":star:" not in body and "[#1e6fd9]" not in body
    assert ('<span style="color:#cc2222">two </span><span style="color:#cc2222"><strong>red</strong></span>'
            '<span style="color:#cc2222"> cards</span>') in body, body
    assert '<svg class="icon" role="img" aria-label="star"' in body and 'fill="currentColor"' in body
    assert "<em>Slanted</em>" in body
    assert '<span style="color:#1e6fd9">blue</span>' in body
    assert "Escaped: [red] and 10:30 stay as written." in body


# --------------------------------------------------------------------------- seen in a browser

@pytest.mark.skipif(shutil.which("chromium") is None,
                    reason="chromium is not installed (Debian package `chromium`): the SVG is not looked at in a "
                           "browser; the @font-face tests above still check the embedded fonts")
def test_chromium_without_a_japanese_font_draws_the_embedded_one(tmp_path):
    """Chromium that sees one Latin font only (fontconfig pointed at a folder holding just Lato, a font without
    Japanese) draws 紫 from the SVG's embedded subset; with the <style> removed it has no font for it and draws
    a box. Looked at: the first is the glyph, strokes of ink; the second a thin outline."""
    from PIL import Image as Picture
    (tmp_path / "fonts").mkdir()
    shutil.copy(ROOT / "content" / "demo-artwork" / "fonts" / "Lato-Regular.ttf", tmp_path / "fonts")
    (tmp_path / "fonts.conf").write_text(
        f'<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>{tmp_path / "fonts"}</dir>'
        f"<cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>", encoding="utf-8")
    doc = Document("t", [Page(60, 30, [Text(5, 22, "紫紫紫", 40, fill="#000000")])])
    render_svg(doc, doc.pages[0], tmp_path / "with.svg")
    card = (tmp_path / "with.svg").read_text(encoding="utf-8")
    assert "@font-face" in card
    (tmp_path / "without.svg").write_text(re.sub(r"<style.*?</style>", "", card, flags=re.S), encoding="utf-8")
    env = {"FONTCONFIG_FILE": str(tmp_path / "fonts.conf"), "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    ink = {}
    for name in ("with", "without"):
        png = tmp_path / f"{name}.png"
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'profile'}",
                        f"--screenshot={png}", "--window-size=300,200", (tmp_path / f"{name}.svg").as_uri()],
                       env=env, capture_output=True, timeout=120, check=False)
        assert png.is_file(), f"chromium wrote no screenshot of {name}.svg"
        with Picture.open(png) as shot:
            ink[name] = sum(shot.convert("L").histogram()[:128])   # dark pixels
    assert ink["with"] > 2 * ink["without"], ink
