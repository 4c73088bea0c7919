"""Card-sized player aids (sheet ``format: card``): duplex card sheets, backs behind fronts, text that fits."""
from __future__ import annotations

from dataclasses import replace

import pytest
from pypdf import PdfReader

from generator.errors import BuildError
from generator.layout.cardface import FaceRenderer
from generator.layout.components import KINDS
from generator.layout.components.sheet import CARD_SCALE
from generator.layout.primitives import Line, Use
from generator.load.game import load_game
from generator.writers.printandplay import cut_through
from tests.conftest import ROOT
from tests.test_components import parts  # noqa: F401  (the mini game with components)

MM = 72 / 25.4


@pytest.fixture(scope="module")
def germany():
    return load_game(ROOT / "content" / "ttr-germany")


def _card_pages(game, cid):
    part = game.parts[cid]
    (output,) = KINDS["sheet"].outputs(game, part, FaceRenderer(game), "a4")
    return part, output.doc


def test_germany_aid_is_five_63_by_88_cards_on_one_duplex_sheet(germany):
    part, doc = _card_pages(germany, "player-aid")
    assert part.options.format == "card" and part.count == 5
    assert (part.options.card.width, part.options.card.height) == (63.0, 88.0)
    front, back = doc.pages
    fronts = [i for i in front.items if isinstance(i, Use)]
    backs = [i for i in back.items if isinstance(i, Use)]
    assert [u.name for u in fronts] == ["player-aid-card-front"] * 5
    assert [u.name for u in backs] == ["player-aid-card-back"] * 5
    # long-edge duplex: each back sits where its front is, columns mirrored about the page's middle
    for f, b in zip(fronts, backs):
        assert b.y == pytest.approx(f.y)
        assert b.x + 63.0 == pytest.approx(210.0 - f.x, abs=1e-6)
    # 63 × 88 mm without bleed go three across: the first row is full
    assert len({round(u.y, 3) for u in fronts}) == 2 and sum(u.y == fronts[0].y for u in fronts) == 3


def test_card_sheets_have_crop_marks_outside_the_printer_margin(germany):
    _part, doc = _card_pages(germany, "player-aid")
    for page in doc.pages:
        marks = [i for i in page.items if isinstance(i, Line)]
        assert len(marks) >= 12
        for m in marks:
            for x, y in ((m.x1, m.y1), (m.x2, m.y2)):
                assert 5.0 <= x <= 205.0 and 5.0 <= y <= 292.0


def test_a_deck_named_as_size_gives_its_size_and_bleed():
    g = load_game(ROOT / "content" / "s-railway")
    card = g.parts["player-aid"].options.card
    assert card == g.decks["train-cards"].geometry
    front, back = KINDS["sheet"].faces(g, g.parts["player-aid"], FaceRenderer(g))
    assert front.box == (-3.0, -3.0, 62.0, 93.0) and back.box == front.box


def test_front_and_back_show_their_own_blocks(germany):
    front, back = KINDS["sheet"].faces(germany, germany.parts["player-aid"], FaceRenderer(germany))

    def texts(form):
        (group,) = [i for i in form.items if hasattr(i, "scale")]
        assert group.scale == CARD_SCALE
        return "".join(i.text for i in group.items if hasattr(i, "text"))

    assert "列車カードを引く" in texts(front) and "列車カードを引く" not in texts(back)
    assert "20点" in texts(back) and "20点" not in texts(front)
    assert "プレイヤーエイド" in texts(front) and "プレイヤーエイド" in texts(back)   # the title on both sides


def test_too_much_text_on_a_back_is_reported_with_its_block(germany):
    part = germany.parts["player-aid"]
    kind, value, src = part.options.back[-1]
    long = replace(part.options, back=part.options.back + ((kind, "乗客は色ごとに数える。" * 40, src),))
    broken = replace(part, options=long)
    with pytest.raises(BuildError) as caught:
        KINDS["sheet"].outputs(germany, broken, FaceRenderer(germany), "a4")
    message = str(caught.value)
    assert "card 'player-aid' needs" in message and "on its back but is 88 mm tall" in message
    assert "move a block to the other side" in caught.value.hint


def test_the_checker_reports_an_overflowing_card_rather_than_raising(germany):
    part = germany.parts["player-aid"]
    _kind, _value, src = part.options.blocks[-1]
    broken = replace(part, options=replace(part.options,
                                           blocks=part.options.blocks + (("text", "手番" * 300, src),)))
    seen = []
    renderer = FaceRenderer(germany)
    renderer.on_print_problem = lambda what, error: seen.append((what, str(error)))
    KINDS["sheet"].outputs(germany, broken, renderer, "a4")
    assert [what for what, _ in seen] == ["overflow"]
    assert "on its front" in seen[0][1]


AID = """\
  aid:
    kind: sheet
    name: 早見表
    expected: 1
    blocks:
"""


@pytest.mark.parametrize("old,new,message,hint", [
    (AID, AID.replace("    blocks:\n", "    format: card\n    blocks:\n"), "is a card but has no `size:`",
     "size: [63, 88]"),
    (AID, AID.replace("    blocks:\n", "    format: card\n    size: tickts\n    blocks:\n"),
     "takes the size of deck 'tickts'", "did you mean 'tickets'"),
    (AID, AID.replace("    blocks:\n", "    size: [63, 88]\n    blocks:\n"), "has `size:`, which only a card has",
     "format: card"),
])
def test_card_mistakes_are_content_errors(parts, run, tmp_path, old, new, message, hint):  # noqa: F811
    path = parts / "components.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    result = run("build", parts, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert message in result.stderr and hint in result.stderr and "Traceback" not in result.stderr


def test_mini_card_aid_builds_with_a_back(parts, run, tmp_path):  # noqa: F811
    path = parts / "components.yaml"
    text = path.read_text(encoding="utf-8").replace(
        AID, AID.replace("    blocks:\n", "    format: card\n    size: tickets\n    back:\n      - text: 裏面\n"
                                          "    blocks:\n"), 1)
    path.write_text(text, encoding="utf-8")
    result = run("build", parts, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    reader = PdfReader(tmp_path / "out" / "mini" / "aid.pdf")
    assert len(reader.pages) == 2
    assert "裏面" in reader.pages[1].extract_text() and "裏面" not in reader.pages[0].extract_text()


def test_print_and_play_keeps_each_aid_back_behind_its_front(built_game):
    reader = PdfReader(built_game("ttr-germany") / "ttr-germany-print-and-play.pdf")
    outline = {item.title: reader.get_destination_page_number(item) for item in reader.outline
               if not isinstance(item, list)}
    first = outline["プレイヤーエイド / Player aid"]
    assert first % 2 == 0   # 0-based even: an odd page, a sheet's front
    assert "列車カードを引く" in reader.pages[first].extract_text()
    assert "20点" in reader.pages[first + 1].extract_text()
    assert float(reader.pages[first].mediabox.width) == pytest.approx(210 * MM, abs=0.01)


def test_card_aid_pages_are_duplex_not_one_sided(germany):
    _part, doc = _card_pages(germany, "player-aid")
    assert not any(p.one_sided for p in doc.pages)
    assert cut_through(doc.pages, 1) == []
