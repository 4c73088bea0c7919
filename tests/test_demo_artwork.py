"""content/demo-artwork, the game that shows artwork, fonts, rich text and spreadsheet data together.

What issue 12's "done when" asks of it, read back from a plain ``pnpgen build``: decks as many cards
as the spreadsheets' rows (with their counts), each picture embedded once, the game's own TrueType
faces embedded and subset, and no font left out of any PDF (an SVG picture must not bring one in).
"""
from __future__ import annotations

import csv
import re
from pathlib import Path

from pypdf import PdfReader

from tests.golden_lib import pdf_fonts, resources

GAME = Path(__file__).resolve().parents[1] / "content" / "demo-artwork"


def _csv_cards(name: str) -> int:
    with (GAME / name).open(encoding="utf-8", newline="") as stream:
        return sum(int(row.get("count") or 1) for row in csv.DictReader(stream))


def _components(out: Path) -> dict[str, int]:
    with (out / "components.csv").open(encoding="utf-8", newline="") as stream:
        rows = list(csv.reader(stream))
    return {row[0]: int(row[2]) for row in rows[1:] if len(row) > 2 and row[2].isdigit()}


def _xobjects(pdf: Path) -> dict[str, int]:
    """XObjects of a PDF by subtype, each object counted once however many pages place it."""
    seen: dict[int, str] = {}
    for res in resources(PdfReader(pdf)):
        for ref in (res.get("/XObject") or {}).values():
            seen[ref.idnum] = str(ref.get_object()["/Subtype"])
    counts: dict[str, int] = {}
    for subtype in seen.values():
        counts[subtype] = counts.get(subtype, 0) + 1
    return counts


def test_decks_have_as_many_cards_as_their_spreadsheets_rows(built_game):
    out = built_game("demo-artwork")
    listed = _components(out)
    assert _csv_cards("cards.csv") == 44 == listed["Train cards"]
    assert _csv_cards("tickets.csv") == 10 == listed["Destination tickets"]


def test_the_paper_picture_is_one_image_in_every_pdf_that_prints_it(built_game):
    out = built_game("demo-artwork")
    for name in ("train-cards.pdf", "tickets.pdf", "demo-artwork-print-and-play.pdf", "demo-artwork-print-shop.pdf"):
        # art/card-paper.png is the game's only raster picture: 54 cards, one image object
        assert _xobjects(out / name).get("/Image") == 1, name


def test_the_games_own_faces_are_embedded_and_subset_and_no_font_is_left_out(built_game):
    out = built_game("demo-artwork")
    rules = {re.sub(r"^/?[A-Z]{6}\+", "", name) for name in pdf_fonts(PdfReader(out / "demo-artwork-rules.pdf"))}
    assert {"Lato-Regular", "Lato-Bold", "Lato-Italic"} <= rules
    for pdf in sorted(out.glob("*.pdf")):
        for name, font in pdf_fonts(PdfReader(pdf)).items():
            descriptor = font.get("/FontDescriptor")
            assert descriptor is not None and "/FontFile2" in descriptor.get_object(), f"{pdf.name}: {name} not embedded"
            assert re.match(r"/?[A-Z]{6}\+", name), f"{pdf.name}: {name} not subset"
