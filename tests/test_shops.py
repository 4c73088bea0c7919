"""Print-shop presets (``--preset tgc|mpc|dtc``), ``pnpgen export shop-pdf`` and the home/shop print settings
(``print: home_bleed / home_gutter / shop_bleed``): exact pixels and page sizes, counts, refusals and exit codes."""
from __future__ import annotations

import json

import pypdfium2
import pytest
from PIL import Image

from generator.errors import ContentError
from generator.export.shoppdf import export_shop_pdf
from generator.export.shops import DTC, MPC, PRESETS, TGC, product_for
from generator.layout.sheets import duplex_sheets
from generator.load.game import load_game
from generator.model.game import CardGeometry
from tests.conftest import FIXTURES, copy_fixture

PT_PER_MM = 72 / 25.4
MINI_CARD = "  card: {size: [44, 68], bleed: 3, safe: 3}"
#: the mini game's ticket back colour: every edge of a back page must be it (no white sliver)
TICKET_BACK = (0x2C, 0x5D, 0x9C)
POKER_9 = CardGeometry(63.0, 88.0, 3.0, 3.0)


def _poker(tmp_path, extra: str = ""):
    """The mini game with 63 × 88 mm cards (a poker product within 1 mm) and ``extra`` print: lines."""
    return copy_fixture(tmp_path, "mini", "game.yaml", MINI_CARD, "  card: {size: [63, 88], bleed: 3, safe: 3}" + extra)


def _edges(image: Image.Image) -> set:
    w, h = image.size
    return {image.getpixel(xy) for xy in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (w // 2, 0), (0, h // 2),
                                          (w - 1, h // 2), (w // 2, h - 1)]}


def test_the_presets_figures():
    """Pixels as the shops state them (not recomputed by the formula they check)."""
    assert {name: (p.dpi, p.takes) for name, p in PRESETS.items()} == {
        "tgc": (300, "png"), "mpc": (300, "png"), "dtc": (300, "pdf")}
    assert product_for((63.5, 88.9), TGC).pixels == (825, 1125)
    assert product_for((63.5, 88.9), MPC).pixels == (822, 1122)      # 36 px of bleed a side, 750 × 1050 trim
    assert product_for((63.5, 88.9), DTC).pixels == (825, 1125)      # 2.75 × 3.75 in at 300 dpi
    assert round(MPC.bleed, 3) == 3.048 and DTC.bleed == TGC.bleed == 3.175
    assert product_for((63, 88), MPC).name == "poker"                 # within 1 mm
    assert product_for((44, 68), MPC) is None and product_for((44.45, 63.5), TGC).name == "mini"


@pytest.mark.parametrize(("preset", "size"), [("mpc", (822, 1122)), ("dtc", (825, 1125)), ("tgc", (825, 1125))])
def test_png_preset_gives_the_shops_pixels_and_counts(run, tmp_path, preset, size):
    game = _poker(tmp_path)
    result = run("export", "png", game, "--preset", preset, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "mini-png"
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["preset"] == preset and manifest["dpi"] == 300
    decks = {s["id"]: s for s in manifest["sets"]}
    assert {deck: [face["count"] for face in s["faces"]] for deck, s in decks.items()} == {
        "trains": [2, 2, 1], "tickets": [1] * 11}
    assert {s["product"] for s in decks.values()} == {"poker"}
    images = sorted(folder.rglob("*.png"))
    assert len(images) == 3 + 1 + 11 + 1
    for path in images:
        with Image.open(path) as im:
            assert im.size == size, path
    with Image.open(folder / "tickets" / "back.png") as back:
        assert _edges(back) == {TICKET_BACK}   # the back drawn again with the shop's bleed reaches every edge


def test_png_preset_refuses_a_card_size_the_shop_does_not_make(run, tmp_path):
    result = run("export", "png", FIXTURES / "mini", "--preset", "mpc", "--out", tmp_path)
    assert result.exit_code == 2
    assert "decks.yaml:2" in result.output
    assert "deck 'trains' is 44 × 68 mm: MakePlayingCards (--preset mpc) makes no card of that size" in result.output
    assert "poker 63.5 × 88.9 mm" in result.output
    assert not (tmp_path / "mini-png").exists()
    result = run("export", "png", FIXTURES / "mini", "--preset", "tgc", "--out", tmp_path)
    assert result.exit_code == 2 and "the nearest, mini: size: [44.45, 63.5]" in result.output


def test_shop_pdf_is_a_pdf_per_deck_back_then_front_at_the_shops_size(run, tmp_path):
    game = _poker(tmp_path)
    result = run("export", "shop-pdf", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "mini-dtc"
    assert sorted(p.name for p in folder.iterdir()) == ["manifest.json", "tickets.pdf", "trains.pdf"]
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert {d["deck"]: (d["cards"], d["pages"], d["page_mm"]) for d in manifest["decks"]} == {
        "trains": (5, 10, [69.85, 95.25]), "tickets": (11, 22, [69.85, 95.25])}
    pdf = pypdfium2.PdfDocument(str(folder / "tickets.pdf"))
    try:
        assert len(pdf) == 22
        pages = []
        for index in range(3):
            page = pdf[index]
            assert [round(v, 2) for v in page.get_mediabox()] == [0, 0, 198, 270]   # 2.75 × 3.75 in
            assert [round(v, 2) for v in page.get_trimbox()] == [9, 9, 189, 261]    # 2.5 × 3.5 in, 1/8 in in
            pages.append(page.render(scale=30 / 72).to_pil().convert("RGB"))
        back, front, next_back = pages
        assert _edges(back) == {TICKET_BACK}                   # the shop's bleed filled to the page edge
        assert back.tobytes() == next_back.tobytes() != front.tobytes()   # back, front, back, …
    finally:
        pdf.close()


def test_shop_pdf_refusals_exit_2(run, tmp_path):
    result = run("export", "shop-pdf", FIXTURES / "mini", "--out", tmp_path)
    assert result.exit_code == 2 and "DriveThruCards (--preset dtc) makes no card of that size" in result.output
    assert run("export", "shop-pdf", FIXTURES / "mini", "--preset", "mpc", "--out", tmp_path).exit_code == 2
    with pytest.raises(ContentError, match="takes an image per card face, not PDFs"):
        export_shop_pdf(load_game(_poker(tmp_path)), tmp_path, "mpc")
    assert not list(tmp_path.glob("mini-*"))


def test_shop_pdf_is_refused_on_check_errors_like_the_build(run, tmp_path):
    game = copy_fixture(tmp_path, "mini", "decks.yaml", "expected: 5", "expected: 6")
    result = run("export", "shop-pdf", game, "--out", tmp_path / "out")
    assert result.exit_code == 1 and "export refused: mini has 1 check error" in result.output


def test_home_gutter_keeps_nine_poker_cards_on_a4_and_spaces_them():
    tight = duplex_sheets([f"c{i}" for i in range(9)], ["b"] * 9, POKER_9, "a4", home_bleed=0, gutter=2)
    front = [item for item in tight[0].items if hasattr(item, "name")]
    assert len(front) == 9
    xs = sorted({round(use.x, 3) for use in front})
    assert [round(b - a, 3) for a, b in zip(xs, xs[1:])] == [65.0, 65.0]   # 63 mm card + 2 mm of paper
    wide = duplex_sheets([f"c{i}" for i in range(9)], ["b"] * 9, POKER_9, "a4", home_bleed=0, gutter=6)
    assert len([item for item in wide[0].items if hasattr(item, "name")]) == 6   # two columns of three


def test_home_and_shop_settings_apart_in_one_build(run, tmp_path):
    """9-up poker on A4 with no bleed at home; the print-shop file with the shop's 1/8 in."""
    game = _poker(tmp_path, "\n  home_bleed: 0\n  home_gutter: 1\n  shop_bleed: 3.175")
    result = run("build", game, "--out", tmp_path / "out", "--profile", "shop")
    assert result.exit_code == 0, result.output
    out = tmp_path / "out" / "mini"
    home = pypdfium2.PdfDocument(str(out / "tickets.pdf"))
    shop = pypdfium2.PdfDocument(str(out / "mini-print-shop.pdf"))
    try:
        assert len(home) == 4                                  # 11 tickets, 9 a sheet, front and back
        width, height = shop[0].get_mediabox()[2:]
        assert (round(width / PT_PER_MM, 2), round(height / PT_PER_MM, 2)) == (69.35, 94.35)   # 63 + 2 × 3.175
        ticket_back = shop[len(shop) - 1].render(scale=30 / 72).to_pil().convert("RGB")
        assert _edges(ticket_back) == {TICKET_BACK}
    finally:
        home.close()
        shop.close()


@pytest.mark.parametrize(("line", "key"), [("home_gutter: -1", "home_gutter"), ("shop_bleed: 11", "shop_bleed"),
                                           ("home_gutter: 25", "home_gutter")])
def test_print_settings_out_of_range_are_refused_at_their_line(run, tmp_path, line, key):
    game = copy_fixture(tmp_path, "mini", "game.yaml", MINI_CARD, MINI_CARD + "\n  " + line)
    result = run("check", game)
    assert result.exit_code == 2
    assert "game.yaml:9" in result.output and key in result.output


def test_a_safe_zone_narrower_than_the_shops_is_a_note(run, tmp_path):
    exact = copy_fixture(tmp_path / "a", "mini", "game.yaml", MINI_CARD, "  card: {size: [63.5, 88.9], bleed: 3, safe: 3}")
    result = run("export", "shop-pdf", exact, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert ("note: deck 'tickets': its safe zone is 3 mm from the cut; DriveThruCards asks for 3.175 mm"
            in result.output)
    # 63 × 88 mm centred on 63.5 × 88.9: 3 mm + 0.25 mm from the product's cut is enough
    assert "note:" not in run("export", "shop-pdf", _poker(tmp_path / "b"), "--out", tmp_path / "out").output


def test_home_grid_caps_the_cards_on_a_sheet_and_centres_them():
    sheets = duplex_sheets([f"c{i}" for i in range(9)], ["b"] * 9, POKER_9, "a4", home_bleed=0, most=(3, 2))
    assert len(sheets) == 4                                   # 6 a sheet: two sheets, front and back
    uses = [item for item in sheets[0].items if hasattr(item, "name")]
    assert len(uses) == 6
    xs, ys = sorted({round(u.x, 3) for u in uses}), sorted({round(u.y, 3) for u in uses})
    assert xs == [10.5, 73.5, 136.5] and ys == [60.5, 148.5]  # 189 × 176 mm of cards centred on 210 × 297 mm


def test_home_grid_that_does_not_fit_is_refused_at_its_line(run, tmp_path):
    game = copy_fixture(tmp_path / "a", "mini", "game.yaml", MINI_CARD,
                        "  card: {size: [63, 88], bleed: 3, safe: 3}\n  home_grid: [3, 3]")
    result = run("check", game)
    assert result.exit_code == 2
    assert "game.yaml:9" in result.output
    assert "print: home_grid: [3, 3]: deck 'trains' (63 × 88 mm, 3 mm bleed, 0 mm gutter) fits 2 × 2 on A4" in result.output
    fits = copy_fixture(tmp_path / "b", "mini", "game.yaml", MINI_CARD,
                        "  card: {size: [63, 88], bleed: 3, safe: 3}\n  home_bleed: 0\n  home_grid: [3, 2]")
    result = run("build", fits, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    home = pypdfium2.PdfDocument(str(tmp_path / "out" / "mini" / "tickets.pdf"))
    try:
        assert len(home) == 4   # 11 tickets, 6 a sheet, front and back
    finally:
        home.close()


def test_shop_pdf_is_byte_identical_twice(run, tmp_path):
    game = _poker(tmp_path)
    for out in ("one", "two"):
        assert run("export", "shop-pdf", game, "--out", tmp_path / out).exit_code == 0
    files = {out: {p.name: p.read_bytes() for p in sorted((tmp_path / out / "mini-dtc").iterdir())} for out in ("one", "two")}
    assert files["one"] == files["two"] and len(files["one"]) == 3
