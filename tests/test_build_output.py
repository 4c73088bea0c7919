"""Built PDFs and SVGs: fonts embedded, boxes set, byte-identical rebuilds, list output."""
from __future__ import annotations

import json

import pytest
from pypdf import PdfReader

from generator.layout.sheets import grid_for
from generator.model.game import CardGeometry
from tests.golden_lib import pdf_fonts

MM = 72 / 25.4


@pytest.fixture(scope="module")
def germany(built_game):
    return built_game("ttr-germany")




def _embedded(font) -> bool:
    if font.get("/Subtype") == "/Type0":
        font = font["/DescendantFonts"][0].get_object()
    desc = font.get("/FontDescriptor")
    return desc is not None and any(k in desc.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))


def test_every_font_is_embedded_and_subset(germany):
    for pdf in sorted(germany.glob("*.pdf")):
        reader = PdfReader(pdf)
        fonts = pdf_fonts(reader)
        if not fonts:  # pure artwork (tokens): no text, so no font to embed
            assert not any(page.extract_text().strip() for page in reader.pages), pdf
            continue
        for name, font in fonts.items():
            assert "Helvetica" not in name, f"{pdf.name}: stray {name}"
            assert _embedded(font), f"{pdf.name}: {name} is not embedded"
            assert name.startswith("/") and "+" in name, f"{pdf.name}: {name} is not a subset"


def test_deck_pdf_pages_and_sizes(germany):
    expected = {"train-cards": 110, "short-tickets": 55, "long-tickets": 34, "bonus-cards": 1}
    for deck, cards in expected.items():
        reader = PdfReader(germany / f"{deck}.pdf")
        sheets = -(-cards // 9)
        assert len(reader.pages) == 2 * sheets
        box = reader.pages[0].mediabox
        assert float(box.width) == pytest.approx(210 * MM, abs=0.01)
        assert float(box.height) == pytest.approx(297 * MM, abs=0.01)


def test_print_shop_pdf_has_trim_and_bleed_boxes(germany):
    reader = PdfReader(germany / "ttr-germany-print-shop.pdf")
    assert len(reader.pages) == 2 * (9 + 55 + 34 + 1)   # a page per distinct face and its back (tests/test_outputs.py)
    page = reader.pages[0]
    assert float(page.mediabox.width) == pytest.approx(50 * MM, abs=0.01)
    assert float(page.mediabox.height) == pytest.approx(74 * MM, abs=0.01)
    trim = [float(v) / MM for v in page.trimbox]
    assert trim == pytest.approx([3, 3, 47, 71], abs=0.01)
    bleed = [float(v) / MM for v in page.bleedbox]
    assert bleed == pytest.approx([0, 0, 50, 74], abs=0.01)


@pytest.mark.parametrize("deck", ["short-tickets", "train-cards"])  # faces drawn in place / as reused forms
def test_cards_sit_at_their_slots_in_mm(germany, deck):
    """Each card's origin (its trim box corner) is at its grid slot on the front, mirrored on the back."""
    import re
    reader = PdfReader(germany / f"{deck}.pdf")
    grid = grid_for(CardGeometry(44, 68, 3, 3), "a4")

    def origins(page):
        data = page.get_contents().get_data().decode("latin-1")
        return [(float(x) / MM, 297 - float(y) / MM)
                for x, y in re.findall(r"1 0 0 1 ([\d.]+) ([\d.]+) cm", data) if (float(x), float(y)) != (0, 0)]

    flat = lambda pts: [v for pt in pts for v in pt]  # noqa: E731
    front, back = origins(reader.pages[0]), origins(reader.pages[1])
    slots = [grid.slot(c, r) for r in range(3) for c in range(3)]
    assert flat(front) == pytest.approx(flat(slots), abs=0.01)
    assert slots[0] == pytest.approx((33.0, 40.5))  # 210 mm: (210 - 3 × 50) / 2 + 3 mm bleed
    mirrored = [grid.slot(2 - c, r) for r in range(3) for c in range(3)]
    assert flat(back) == pytest.approx(flat(mirrored), abs=0.01)


def test_svg_for_every_distinct_face_and_back(germany):
    svg = germany / "svg"
    assert len(list((svg / "train-cards").glob("*.svg"))) == 9 + 1  # 8 colours + locomotive + back
    assert len(list((svg / "short-tickets").glob("*.svg"))) == 55 + 1
    text = (svg / "short-tickets" / "001.svg").read_text(encoding="utf-8")
    assert 'width="50mm"' in text and 'height="74mm"' in text
    assert "ベルリン" in text


def test_rebuild_is_byte_identical(germany, run, tmp_path):
    """A second build (here, in another folder) writes the same files, byte for byte, as the session's."""
    assert run("build", "content/ttr-germany", "--all", "--out", tmp_path).exit_code == 0
    first, second = germany, tmp_path / "ttr-germany"
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files and files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    for rel in files:
        assert (first / rel).read_bytes() == (second / rel).read_bytes(), rel


def test_letter_paper(run, tmp_path):
    assert run("build", "content/ttr-germany", "--paper", "letter", "--out", tmp_path).exit_code == 0
    box = PdfReader(tmp_path / "ttr-germany" / "train-cards.pdf").pages[0].mediabox
    assert float(box.width) == pytest.approx(215.9 * MM, abs=0.01)
    assert float(box.height) == pytest.approx(279.4 * MM, abs=0.01)


def test_list_json(run):
    result = run("list", "content/ttr-germany", "--format", "json")
    assert result.exit_code == 0
    (game,) = json.loads(result.stdout)
    assert game["game"] == "ttr-germany"
    counts = {c["id"]: c["count"] for c in game["components"]}
    assert counts == {"germany": 1, "train-cards": 110, "short-tickets": 55, "long-tickets": 34, "bonus-cards": 1,
                      "passengers": 60, "trains": 225, "score-markers": 5, "score-summary": 1, "player-aid": 5}
    assert all(set(c) == {"name", "id", "kind", "count"} for c in game["components"])
