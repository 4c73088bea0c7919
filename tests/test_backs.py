"""Illustrated backs: the deck's motif inside the bleed, the game's logo block, one back per deck, ``tint``."""
from __future__ import annotations

import pytest

from generator.errors import BuildError
from generator.layout.cardface import FaceRenderer, tint
from generator.layout.deck import draw_deck
from generator.layout.logo import logo, logo_height
from generator.layout.primitives import Circle, Group, Line, Polygon, Rect
from generator.load.game import load_game
from generator.writers.cards import printed_decks
from tests.conftest import ROOT
from tests.drawing_lib import text_items

GAMES = ["ttr-germany", "ttr-new-york", "s-railway", "thurn-and-taxis", "demo-artwork"]


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    return load_game(ROOT / "content" / request.param)


def _points(items, dx=0.0, dy=0.0, scale=1.0):
    """Every corner the shapes reach (texts left out), in the form's coordinates."""
    for item in items:
        if isinstance(item, Group):
            yield from _points(item.items, dx + item.dx * scale, dy + item.dy * scale, scale * item.scale)
        elif isinstance(item, Rect):
            for x, y in ((item.x, item.y), (item.x + item.w, item.y + item.h)):
                yield dx + x * scale, dy + y * scale
        elif isinstance(item, Circle):
            for x, y in ((item.cx - item.r, item.cy - item.r), (item.cx + item.r, item.cy + item.r)):
                yield dx + x * scale, dy + y * scale
        elif isinstance(item, Polygon):
            for x, y in item.points:
                yield dx + x * scale, dy + y * scale
        elif isinstance(item, Line):
            for x, y in ((item.x1, item.y1), (item.x2, item.y2)):
                yield dx + x * scale, dy + y * scale


def test_every_back_stays_inside_its_bleed_box(game):
    """Cards abut on a home sheet: a motif reaching past the bleed would paint on its neighbour."""
    renderer = FaceRenderer(game)
    for deck in printed_decks(game):
        back = draw_deck(game, deck, renderer).back
        x0, y0, w, h = back.box
        for x, y in _points(back.items):
            assert x0 - 1e-6 <= x <= x0 + w + 1e-6 and y0 - 1e-6 <= y <= y0 + h + 1e-6, (deck.id, x, y)


def test_every_back_carries_the_logo_block(game):
    renderer = FaceRenderer(game)
    for deck in printed_decks(game):
        texts = [t for t in text_items(draw_deck(game, deck, renderer).back.items)]
        joined = "".join(t.text for t in texts)
        assert game.title.replace(" ", "") in joined.replace(" ", ""), deck.id
        if game.latin != game.title:
            assert game.latin in joined, deck.id


@pytest.mark.parametrize("game_id,deck_id,icon_count", [("ttr-germany", "train-cards", 13 * 9 // 2),
                                                        ("thurn-and-taxis", "carriage-cards", 40)])
def test_the_motif_repeats_the_deck_symbol_symmetrically(game_id, deck_id, icon_count):
    g = load_game(ROOT / "content" / game_id)
    back = draw_deck(g, g.decks[deck_id], FaceRenderer(g)).back
    width = g.decks[deck_id].geometry.width
    xs = sorted(x for x, _ in _points(back.items))
    # a left-right mirror image, so a back printed a little off still looks centred
    assert xs == pytest.approx(sorted(width - x for x in xs), abs=1e-6)
    groups = [i for i in back.items if isinstance(i, Group)]
    assert len(groups) >= icon_count // 8   # the motif's rows (one group per repeated row after the first)


def test_each_deck_has_one_back(game):
    """The print shop counts distinct faces: every card of a deck shares its one back form."""
    from generator.writers.cards import printed_decks as decks
    renderer = FaceRenderer(game)
    for deck in decks(game):
        art = draw_deck(game, deck, renderer)
        again = draw_deck(game, deck, renderer)
        assert art.back.name == again.back.name and art.back.items == again.back.items


def test_tint_mixes_towards_white_or_black():
    scope = {"palette": {}}

    class Context(dict):
        pass
    ctx = Context(scope)
    assert tint(ctx, "#000000", 0.5) == "#808080"
    assert tint(ctx, "#ffffff", -0.5) == "#808080"
    assert tint(ctx, "#7c1f1f", 0) == "#7c1f1f"
    assert tint(ctx, "#7c1f1f", 2) == "#ffffff"   # clamped to 1


def test_tint_reads_palette_names_and_refuses_other_values():
    g = load_game(ROOT / "content" / "ttr-germany")
    from jinja2 import TemplateError
    assert tint({"palette": g.palette}, "game-back", 0.0) == g.palette["game-back"].hex
    with pytest.raises(TemplateError, match="tint needs a colour"):
        tint({"palette": g.palette}, "no-such-colour", 0.2)


def test_the_logo_fits_its_badge():
    g = load_game(ROOT / "content" / "ttr-germany")
    items = logo(g.typeset, g.title, g.latin, 10.0, 20.0, 40.0)
    h = logo_height(40.0)
    for x, y in _points(items):
        assert 10.0 - 1e-6 <= x <= 50.0 + 1e-6 and 20.0 - 1e-6 <= y <= 20.0 + h + 1e-6
    texts = list(text_items(items))
    assert [t.text for t in texts][-1] == g.latin
    for t in texts:   # each line no wider than the badge's inside
        assert g.typeset.width(t.text, t.size, bold=t is texts[0]) <= 40.0
    # a game named in Latin letters has no second line that repeats it
    assert len(list(text_items(logo(g.typeset, "Lantern Line", "Lantern Line", 0, 0, 40.0)))) == 1


def test_a_logo_element_with_a_bad_width_is_a_build_error(tmp_path):
    from tests.conftest import copy_fixture
    folder = copy_fixture(tmp_path, "mini", "decks.yaml", "back: {layout: ttr-back,", "back: {layout: broken-back,")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "broken-back.yaml").write_text(
        'extends: ttr-back\nelements:\n  - name: game-title\n    logo: {x: 3, y: 3, w: "{{ nowhere }}"}\n',
        encoding="utf-8")
    g = load_game(folder)
    deck = next(iter(g.decks.values()))
    with pytest.raises(BuildError, match="nowhere"):
        draw_deck(g, deck, FaceRenderer(g))


def test_the_stamp_counts_a_full_bleed_back_as_one_box():
    """A motif is hundreds of shapes; the stamp, which looks for free paper, sees the back's field only."""
    from generator.layout.stamp import form_boxes
    g = load_game(ROOT / "content" / "ttr-germany")
    back = draw_deck(g, g.decks["train-cards"], FaceRenderer(g)).back
    x, y, w, h = back.box
    assert len(back.items) > 20
    assert form_boxes(back.name, {back.name: back}) == [(x, y, x + w, y + h)]
