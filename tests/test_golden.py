"""Golden outputs: each bundled game's build is compared with what tests/golden/<game>/ keeps.

A card moved by 2 mm, a recoloured token, a crop mark drawn thicker, a page more: each changes a kept
SVG or a PDF's page-geometry summary, and this test names the file, the page or form and what moved.
When the change is wanted, ``python tools/update_golden.py GAME`` rewrites the goldens and prints the same
differences (see tests/golden/README.md).
"""
from __future__ import annotations

import pytest

from tests.golden_lib import GAMES, GOLDEN, UPDATE, compare, golden_svgs


@pytest.mark.parametrize("game", GAMES)
def test_build_matches_its_goldens(built_game, game):
    out = built_game(game)
    assert (GOLDEN / game).is_dir(), f"no goldens for {game}: run `{UPDATE} {game}`"
    problems = compare(game, out)
    assert not problems, (f"{game}: the build differs from tests/golden/{game}/:\n  " + "\n  ".join(problems)
                          + f"\nIf the change is intended, rewrite the goldens: `{UPDATE} {game}` (and commit them).")


@pytest.mark.parametrize("game", GAMES)
def test_goldens_cover_every_kind_of_face(built_game, game):
    """Every deck front and back, token, tile and die face folder, and every board, has a golden SVG."""
    out = built_game(game)
    kept = golden_svgs(out)
    for folder in (out / "svg").iterdir():
        assert any(k.startswith(f"svg/{folder.name}/") for k in kept), folder.name
        if (folder / "back.svg").exists():
            assert f"svg/{folder.name}/back.svg" in kept
    assert {f"{p.name}" for p in out.glob("board-*.svg")} <= set(kept)


def test_a_moved_item_is_named_with_its_page(tmp_path):
    """The comparison says which file and page changed and what moved (here: a placement, 2 mm)."""
    from tests.golden_lib import describe
    old = b"pages 1\npage 1 media 0.00 0.00 210.00 297.00 sha 1\n  do face#1 at 33.00,256.50\n"
    new = b"pages 1\npage 1 media 0.00 0.00 210.00 297.00 sha 2\n  do face#1 at 35.00,256.50\n"
    lines = describe("pdf/train-cards.pdf.txt", old, new)
    assert lines[0] == "pdf/train-cards.pdf.txt: 1 part(s) differ: page 1"
    assert "    page 1: -  do face#1 at 33.00,256.50" in lines
    assert "    page 1: +  do face#1 at 35.00,256.50" in lines
    assert describe("pdf/x.pdf.txt", old, old) == []
