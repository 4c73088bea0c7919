"""Larger home papers: A3 and Tabloid (``--paper``) as well as A4 and Letter."""
from __future__ import annotations

import pytest
from pypdf import PdfReader

from generator.layout.sheets import grid_for, paper_name
from generator.model.game import CardGeometry
from generator.papers import HOME_PAPERS, PAPERS
from tests.conftest import FIXTURES

MM = 72 / 25.4


@pytest.mark.parametrize("paper, size", [("a3", (297.0, 420.0)), ("tabloid", (279.4, 431.8))])
def test_a_build_on_a_large_paper_prints_its_sheets_on_it(run, tmp_path, paper, size):
    result = run("build", FIXTURES / "mini", "--out", tmp_path, "--paper", paper)
    assert result.exit_code == 0, result.output
    for name in ("trains.pdf", "mini-print-and-play.pdf"):
        box = PdfReader(tmp_path / "mini" / name).pages[0].mediabox
        assert (round(float(box.width) / MM, 1), round(float(box.height) / MM, 1)) == size


def test_a_large_paper_holds_more_cards_than_the_home_papers():
    card = CardGeometry(63.0, 88.0, 3.0, 3.0)
    counts = {paper: grid_for(card, paper).cols * grid_for(card, paper).rows for paper in PAPERS}
    assert counts == {"a4": 4, "letter": 4, "a3": 16, "tabloid": 12}   # 69 × 94 mm cells with bleed


def test_a_board_is_tiled_for_the_build_s_own_paper_too(run, tmp_path):
    result = run("build", FIXTURES / "english", "--out", tmp_path, "--paper", "a3")
    assert result.exit_code == 0, result.output
    tiles = sorted(p.name for p in (tmp_path / "english").glob("board-*-tiles-*.pdf"))
    assert [name.rsplit("-", 1)[1] for name in tiles] == ["a3.pdf", "a4.pdf", "letter.pdf"]
    box = PdfReader(tmp_path / "english" / next(n for n in tiles if n.endswith("a3.pdf"))).pages[0].mediabox
    assert sorted((round(float(box.width) / MM), round(float(box.height) / MM))) == [297, 420]


def test_every_game_must_still_fit_a4_and_letter():
    assert HOME_PAPERS == ("a4", "letter")
    for large, small in (("a3", "a4"), ("tabloid", "letter")):   # what fits the home papers fits these
        assert PAPERS[large][0] >= PAPERS[small][0] and PAPERS[large][1] >= PAPERS[small][1]
    assert [paper_name(p) for p in PAPERS] == ["A4", "Letter", "A3", "Tabloid"]


def test_an_unknown_paper_is_refused_with_the_choices(run, tmp_path):
    result = run("build", FIXTURES / "mini", "--out", tmp_path, "--paper", "a5")
    assert result.exit_code == 2
    assert "a3" in result.output and "tabloid" in result.output
