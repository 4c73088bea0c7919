"""``print: home_bleed:``: home card sheets keep less of each card's bleed, so more cards fit a sheet; the
print-shop file keeps all of it."""
from __future__ import annotations

from pypdf import PdfReader

from generator.layout.primitives import Document, Form, Page, Rect, Use
from generator.layout.sheets import duplex_sheets
from generator.model.game import CardGeometry
from generator.render.svg import render_svg
from tests.conftest import copy_fixture

POKER = CardGeometry(63.0, 88.0, 3.0, 3.0)
MM = 72 / 25.4


def _uses(page: Page) -> list[Use]:
    return [item for item in page.items if isinstance(item, Use)]


def test_without_bleed_nine_poker_cards_share_an_a4_sheet_and_their_cut_lines():
    fronts = [f"f{i}" for i in range(9)]
    full = duplex_sheets(fronts, ["back"] * 9, POKER, "a4")
    home = duplex_sheets(fronts, ["back"] * 9, POKER, "a4", home_bleed=0)
    assert len(_uses(full[0])) == 4 and len(home) == 2 and len(_uses(home[0])) == 9
    first, second = _uses(home[0])[:2]
    assert second.x - first.x == 63.0                         # side by side: one cut line between them
    assert first.clip == (0.0, 0.0, 63.0, 88.0)               # the card is drawn to its trim only
    assert all(u.clip == first.clip for u in _uses(home[1]))  # the backs too
    assert _uses(full[0])[0].clip is None


def test_a_home_bleed_of_1_mm_keeps_1_mm():
    home = duplex_sheets(["a", "b"], ["back"] * 2, POKER, "a4", home_bleed=1)
    first, second = _uses(home[0])
    assert first.clip == (-1.0, -1.0, 65.0, 90.0) and second.x - first.x == 65.0


def test_a_home_bleed_at_or_above_the_card_s_bleed_changes_nothing():
    assert duplex_sheets(["a"], ["b"], POKER, "a4", home_bleed=3) == duplex_sheets(["a"], ["b"], POKER, "a4")


def test_the_build_prints_home_sheets_closer_and_the_print_shop_file_whole(run, tmp_path):
    poker = "  card: {size: [63, 88], bleed: 3, safe: 3}"
    plain = copy_fixture(tmp_path / "plain", "mini", "game.yaml", "  card: {size: [44, 68], bleed: 3, safe: 3}", poker)
    tight = copy_fixture(tmp_path / "tight", "mini", "game.yaml", "  card: {size: [44, 68], bleed: 3, safe: 3}",
                         poker + "\n  home_bleed: 0")
    for folder in (plain, tight):
        result = run("build", folder, "--out", folder.parent / "out", "--all")
        assert result.exit_code == 0, result.output
    pages = {name: len(PdfReader(f.parent / "out" / "mini" / "tickets.pdf").pages) for name, f in
             (("plain", plain), ("tight", tight))}
    assert pages == {"plain": 6, "tight": 4}      # 11 tickets: 4 a sheet with bleed, 9 without
    content = PdfReader(tight.parent / "out" / "mini" / "tickets.pdf").pages[0].get_contents().get_data()
    assert content.count(b"178.5827 249.4488 re W") == 9   # each card clipped to its trim, 63 × 88 mm
    shop = PdfReader(tight.parent / "out" / "mini" / "mini-print-shop.pdf").pages[0].mediabox
    assert (round(float(shop.width) / MM), round(float(shop.height) / MM)) == (69, 94)   # the bleed kept


def test_a_negative_home_bleed_is_refused_at_its_line(run, tmp_path):
    game = copy_fixture(tmp_path, "mini", "game.yaml", "  card: {size: [44, 68], bleed: 3, safe: 3}",
                        "  card: {size: [44, 68], bleed: 3, safe: 3}\n  home_bleed: -1")
    result = run("check", game)
    assert result.exit_code == 2
    assert "game.yaml:9" in result.output and "home_bleed" in result.output


def test_an_svg_draws_a_clipped_use_inside_its_clip(tmp_path):
    doc = Document("t")
    doc.add_form(Form("card", (Rect(-3, -3, 69, 94, fill="#336699"),), (-3.0, -3.0, 69.0, 94.0)))
    page = Page(100, 100, [Use("card", 10, 10, (0.0, 0.0, 63.0, 88.0))])
    render_svg(doc, page, tmp_path / "p.svg")
    text = (tmp_path / "p.svg").read_text(encoding="utf-8")
    assert '<clipPath id="clip-0"><rect height="88" width="63" x="10" y="10" /></clipPath>' in text
    assert 'clip-path="url(#clip-0)"' in text
