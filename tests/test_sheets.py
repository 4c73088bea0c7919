"""Sheet geometry in mm: grid, crop marks in the outer margin, duplex backs that line up."""
from __future__ import annotations

import pytest

from generator.layout.primitives import Line, Use
from generator.layout.sheets import PAPERS, PRINTER_MARGIN, duplex_sheets, grid_for, print_shop_pages
from generator.model.game import CardGeometry

TTR = CardGeometry(44, 68, 3, 3)


@pytest.mark.parametrize("paper,cols,rows", [("a4", 3, 3), ("letter", 3, 3)])
def test_ttr_cards_fit_three_by_three(paper, cols, rows):
    grid = grid_for(TTR, paper)
    assert (grid.cols, grid.rows) == (cols, rows)
    width, height = PAPERS[paper]
    # centred, bleed boxes abutting: 3 × 50 mm wide, 3 × 74 mm tall
    assert grid.left == pytest.approx((width - 150) / 2)
    assert grid.top == pytest.approx((height - 222) / 2)
    assert grid.slot(1, 0)[0] - grid.slot(0, 0)[0] == pytest.approx(50)
    assert grid.slot(0, 1)[1] - grid.slot(0, 0)[1] == pytest.approx(74)


def _uses(page):
    return [item for item in page.items if isinstance(item, Use)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_back_lines_up_with_front_for_long_edge_duplex(paper):
    fronts = [f"f{i}" for i in range(7)]
    pages = duplex_sheets(fronts, ["back"] * 7, TTR, paper)
    front, back = pages
    width = PAPERS[paper][0]
    assert len(_uses(front)) == len(_uses(back)) == 7
    for f, b in zip(_uses(front), _uses(back)):
        # flipping the sheet about its long (vertical) edge maps x to width - x - card width
        assert b.x == pytest.approx(width - f.x - TTR.width)
        assert b.y == pytest.approx(f.y)


def test_back_offset_moves_backs_only():
    pages = duplex_sheets(["a"], ["b"], TTR, "a4", back_offset=(0.7, -0.4))
    plain = duplex_sheets(["a"], ["b"], TTR, "a4")
    assert _uses(pages[0])[0] == _uses(plain[0])[0]
    assert _uses(pages[1])[0].x == pytest.approx(_uses(plain[1])[0].x + 0.7)
    assert _uses(pages[1])[0].y == pytest.approx(_uses(plain[1])[0].y - 0.4)


def test_crop_marks_stay_in_the_outer_margin_and_printable_area():
    grid = grid_for(TTR, "a4")
    page = duplex_sheets(["a"] * 9, ["b"] * 9, TTR, "a4")[0]
    marks = [item for item in page.items if isinstance(item, Line)]
    assert len(marks) == 2 * 3 * 2 * 2  # (cols + rows) × 2 trim lines × 2 sides
    right = grid.left + 150
    bottom = grid.top + 222
    for m in marks:
        xs, ys = (m.x1, m.x2), (m.y1, m.y2)
        outside = max(ys) <= grid.top or min(ys) >= bottom or max(xs) <= grid.left or min(xs) >= right
        assert outside, f"crop mark {m} lies inside the card grid"
        assert min(xs) >= PRINTER_MARGIN and max(xs) <= 210 - PRINTER_MARGIN
        assert min(ys) >= PRINTER_MARGIN and max(ys) <= 297 - PRINTER_MARGIN
    trims_x = sorted({m.x1 for m in marks if m.x1 == m.x2})
    assert trims_x == pytest.approx(sorted([grid.slot(c, 0)[0] for c in range(3)] + [grid.slot(c, 0)[0] + 44 for c in range(3)]))


def test_sheets_are_front_back_interleaved():
    pages = duplex_sheets([f"f{i}" for i in range(19)], ["b"] * 19, TTR, "a4")
    assert len(pages) == 6  # 3 sheets of 9, each front + back
    assert [len(_uses(p)) for p in pages] == [9, 9, 9, 9, 1, 1]


def test_print_shop_page_is_the_bleed_box_with_trim_box():
    (page,) = print_shop_pages([("f", "x")], TTR)
    assert (page.width, page.height) == (50, 74)
    assert page.trim_box == (3, 3, 44, 68)
    assert page.bleed_box == (0, 0, 50, 74)


def test_shorter_crop_marks_buy_a_third_row_for_thurn_and_taxis_cards():
    grid = grid_for(CardGeometry(56, 87, 3, 3), "a4")
    assert (grid.cols, grid.rows) == (3, 3)
    assert grid.mark_length == 2.5
    marks = [m for m in duplex_sheets(["a"] * 9, ["b"] * 9, CardGeometry(56, 87, 3, 3), "a4")[0].items
             if isinstance(m, Line)]
    assert min(min(m.y1, m.y2) for m in marks) >= PRINTER_MARGIN
    assert max(max(m.y1, m.y2) for m in marks) <= 297 - PRINTER_MARGIN
    # Ticket to Ride cards keep the full 4 mm marks: shorter ones would not gain anything
    assert grid_for(TTR, "a4").mark_length == 4.0


def _mark_positions(page):
    """x of vertical marks and y of horizontal marks, rounded to 0.01 mm."""
    lines = [item for item in page.items if isinstance(item, Line)]
    xs = {round(ln.x1, 2) for ln in lines if ln.x1 == ln.x2}
    ys = {round(ln.y1, 2) for ln in lines if ln.y1 == ln.y2}
    return xs, ys


def test_a_partial_sheet_marks_only_the_slots_it_uses_and_its_back_mirrors_them():
    grid = grid_for(TTR, "a4")
    full_front, _ = duplex_sheets(["f"] * 9, ["b"] * 9, TTR, "a4")
    # 2 cards: one row, the first two columns; the back uses the last two columns
    front, back = duplex_sheets(["f"] * 2, ["b"] * 2, TTR, "a4")
    xs, ys = _mark_positions(front)
    assert xs == {round(grid.slot(c, 0)[0] + dx, 2) for c in (0, 1) for dx in (0, 44)}
    assert ys == {round(grid.slot(0, 0)[1] + dy, 2) for dy in (0, 68)}
    bxs, bys = _mark_positions(back)
    assert bxs == {round(grid.slot(c, 0)[0] + dx, 2) for c in (1, 2) for dx in (0, 44)}
    assert bys == ys
    # every card's trim corners are on marked lines; a full sheet keeps the whole grid
    for use in _uses(back):
        assert round(use.x, 2) in bxs and round(use.x + 44, 2) in bxs
    assert len(_mark_positions(full_front)[0]) == 6 and len(_mark_positions(full_front)[1]) == 6
    # 4 cards: two rows, all columns (a guillotine cuts whole rows), marks end below row 2
    front, _ = duplex_sheets(["f"] * 4, ["b"] * 4, TTR, "a4")
    xs, ys = _mark_positions(front)
    assert len(xs) == 6 and ys == {round(grid.slot(0, r)[1] + dy, 2) for r in (0, 1) for dy in (0, 68)}


def test_a_piece_larger_than_the_paper_is_an_error_at_its_source_not_a_traceback(mini, run, tmp_path):
    from generator.errors import BuildError, Source
    with pytest.raises(BuildError, match="pieces of 200 × 88.9 mm .* do not fit on A4") as caught:
        grid_for(CardGeometry(200, 88.9, 3, 3), "a4", Source(tmp_path / "decks.yaml", 7))
    assert caught.value.source.line == 7
    text = (mini / "game.yaml").read_text(encoding="utf-8")
    (mini / "game.yaml").write_text(text.replace("size: [44, 68]", "size: [440, 68]"), encoding="utf-8")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 2, "refused where the size is set, as content that cannot be printed"
    assert "game.yaml:8: print: card: pieces of 440 × 68 mm (plus 3 mm bleed) do not fit on A4" in result.stderr
    assert "Traceback" not in result.stderr
