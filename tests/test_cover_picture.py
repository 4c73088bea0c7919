"""The print-and-play cover's picture of the components: every printed part, drawn from its forms, named and counted."""
from __future__ import annotations

import pytest
from pypdf import PdfReader

from generator.layout.cardface import FaceRenderer
from generator.layout.components import KINDS
from generator.layout.components.overview import MARGIN, Shown, overview_page, trim
from generator.layout.primitives import Form, Group, Rect, Use
from generator.load.game import load_game
from tests.conftest import ROOT


def _picture_page(folder, game_id):
    reader = PdfReader(folder / f"{game_id}-print-and-play.pdf")
    for n, page in enumerate(reader.pages[:4]):
        text = page.extract_text()
        if "内容物の一覧" in text:
            return n, text.replace(" ", "")
    raise AssertionError("no picture of the components in the first pages")


def test_germany_cover_pictures_every_part_with_its_count(built_game):
    n, text = _picture_page(built_game("ttr-germany"), "ttr-germany")
    assert n == 1   # right behind the cover's list, the back of its sheet
    for label in ("ドイツ×1", "列車カード×110", "行き先チケット（短距離）×55", "行き先チケット（長距離）×34",
                  "乗客コマ×60", "列車コマ×225", "スコアマーカー×5", "得点集計表×1", "プレイヤーエイド×5"):
        assert label in text, label
    assert "チケット・トゥ・ライド" in text and "TickettoRide:Germany" in text   # the logo block


def test_dice_cover_shows_a_net_per_die_set(built_game):
    _n, text = _picture_page(built_game("ttr-dice"), "ttr-dice")
    for label in ("白ダイス×5", "黒ダイス×3", "線路トークン×30", "手番の早見表×5"):
        assert label in text, label


def test_a_die_overview_is_one_net_with_six_faces():
    g = load_game(ROOT / "content" / "ttr-dice")
    die = g.parts["white-dice"]
    (net,) = KINDS["die"].overview(g, die, FaceRenderer(g))
    s, tab = die.options.net_size, die.options.tab
    assert net.box == pytest.approx((0.0, 0.0, 4 * s + 2 * tab, 3 * s + 2 * tab))
    faces = [i for i in net.items if isinstance(i, Group)]
    assert len(faces) == 6
    assert not [i for i in net.items if isinstance(i, Use)]   # drawn in: a form holds no other form


def _square(name, side):
    return Form(name, (Rect(0, 0, side, side, fill="#cc2222"),), (0.0, 0.0, side, side))


def _placed(page):
    """(form name, x, y, scale) of every form the page draws."""
    return [(g.items[0].name, g.dx, g.dy, g.scale) for g in page.items
            if isinstance(g, Group) and g.items and isinstance(g.items[0], Use)]


def test_parts_that_do_not_fit_shrink_together_and_stay_on_the_page():
    g = load_game(ROOT / "content" / "ttr-germany")
    shown = [Shown((_square(f"s{i}", 60.0),), 60.0 if i % 2 else 30.0, f"part {i} ×1") for i in range(24)]
    page = overview_page(shown, 210.0, 297.0, g.typeset, "内容物の一覧", g.title, g.latin)
    placed = _placed(page)
    assert len(placed) == 24
    for _name, x, y, scale in placed:
        assert x >= MARGIN - 1e-6 and x + 60.0 * scale <= 210.0 - MARGIN + 1e-6
        assert y + 60.0 * scale <= 297.0 - MARGIN + 1e-6
    scales = {name: scale for name, _x, _y, scale in placed}
    assert scales["s1"] == pytest.approx(2 * scales["s0"])   # their sizes stay comparable
    assert scales["s1"] < 1.0   # 24 squares of 60 mm: shrunk


def test_parts_are_clipped_to_their_trim_and_framed():
    g = load_game(ROOT / "content" / "ttr-germany")
    card = Form("card", (Rect(-3, -3, 50, 74, fill="#2244cc"),), (-3.0, -3.0, 50.0, 74.0))
    assert trim(card) == (44.0, 68.0)
    page = overview_page([Shown((card, card), 34.0, "カード ×2")], 210.0, 297.0, g.typeset, "x", g.title, g.latin)
    uses = [g.items[0] for g in page.items if isinstance(g, Group) and g.items and isinstance(g.items[0], Use)]
    assert [u.clip for u in uses] == [(0.0, 0.0, 44.0, 68.0)] * 2
    frames = [r for r in page.items if isinstance(r, Rect) and r.stroke == "#9a9a9a"]
    assert len(frames) == 2
