"""Colour-blind-safe colours: a symbol per train colour on cards and spaces, gray hatched, and PNP710.

Symbols are found in the drawing as whole Groups (``symbols.placed`` draws one Group per symbol,
centred on its position), so a test names where a symbol is in mm, not just that it is somewhere.
"""
from __future__ import annotations

import math
import re
import shutil

import pytest

from generator.check import run_checks
from generator.check.colours import MIN_DELTA_E, closest_view, matched_colours
from generator.errors import BuildError
from generator.layout.board import SPACE_SYMBOL, board_form
from generator.layout.cardface import FaceRenderer
from generator.layout.primitives import Group, Line
from generator.layout.symbols import SHAPES, SYMBOLS, halo_for, placed, symbol
from generator.load.game import load_game
from tests.conftest import ROOT, copy_fixture
from tests.test_board_errors import BOARD

TRAIN_GAMES = ["ttr-germany", "ttr-new-york"]
# blue turned into a green that deuteranopes cannot tell from the fixture's red (ΔE 4.2)
CLOSE = ('  blue: {hex: "#2244cc", name: 青, latin: blue}', '  blue: {hex: "#4f8a2a", name: 青, latin: blue}')


@pytest.fixture(scope="module")
def games():
    return {g: load_game(ROOT / "content" / g) for g in TRAIN_GAMES}


def _groups(items, dx=0.0, dy=0.0):
    """Every Group in ``items`` (nested too) with its origin on the page; no nested group here is turned."""
    for item in items:
        if isinstance(item, Group):
            yield item, (dx + item.dx, dy + item.dy)
            yield from _groups(item.items, dx + item.dx, dy + item.dy)


def _symbols(items, name, size, fill):
    """(x, y, rotate) of every symbol ``name`` of ``size`` mm in ``fill`` drawn in ``items``, in mm."""
    drawn = symbol(name, size, fill)
    return [(round(x, 3), round(y, 3), group.rotate) for group, (x, y) in _groups(items) if group.items == drawn]


# ---------------------------------------------------------------- the symbols themselves

def test_symbols_are_distinct_shapes_within_their_square():
    assert len(set(SYMBOLS)) == len(SYMBOLS) >= 9
    for name, shape in SHAPES.items():
        if shape[0] == "circle":
            continue
        assert len(set(shape)) == len(shape) >= 3, name
        assert all(abs(x) <= 0.5 and abs(y) <= 0.5 for x, y in shape), name   # inside the size × size square
    assert len({repr(s) for s in SHAPES.values()}) == len(SHAPES)


def test_the_halo_contrasts_with_the_fill():
    assert halo_for("#ffffff") == "#000000" and halo_for("#f0cb2a") == "#000000"
    assert halo_for("#222222") == "#ffffff" and halo_for("#cf3429") == "#ffffff"


@pytest.mark.parametrize("game_id", TRAIN_GAMES)
def test_each_bundled_train_colour_has_a_distinct_symbol(games, game_id):
    game = games[game_id]
    colours = [c for c in matched_colours(game) if c.id != "gray"]
    assert len(colours) == {"ttr-germany": 8, "ttr-new-york": 6}[game_id]
    symbols = {c.id: c.symbol for c in colours}
    assert all(symbols.values()), symbols
    assert len(set(symbols.values())) == len(symbols), symbols
    assert "gray" in {c.id for c in matched_colours(game)} and game.palette["gray"].symbol == ""


def test_a_colour_means_one_symbol_in_every_bundled_game(games):
    """Red is a circle in Germany and in New York: a player moving between games keeps the key."""
    seen: dict = {}
    for game in games.values():
        for colour in matched_colours(game):
            if colour.symbol:
                assert seen.setdefault(colour.id, colour.symbol) == colour.symbol, colour.id


# ---------------------------------------------------------------- train cards

def _train_faces(game, deck_id):
    deck = game.decks[deck_id]
    renderer = FaceRenderer(game)
    context = {"game": game, "deck": deck, "geometry": deck.geometry, "back": deck.back}
    seen = {}
    for card in deck.cards:
        colour = card.values["color"]
        if colour.id not in seen:
            seen[colour.id] = (colour, renderer.face(deck.layout, dict(context, card=card), card.ref, card.source, "t"))
    return deck, seen


@pytest.mark.parametrize("game_id,deck_id", [("ttr-germany", "train-cards"), ("ttr-new-york", "transport-cards")])
def test_a_train_card_shows_its_symbol_in_two_opposite_corners(games, game_id, deck_id):
    deck, faces = _train_faces(games[game_id], deck_id)
    g = deck.geometry
    assert (g.width, g.height, g.safe) == (44.0, 68.0, 3.0)
    wild = str(deck.vars["wild"])
    for colour_id, (colour, form) in faces.items():
        if colour_id == wild:
            marks = [group for group, _ in _groups(form.items) if len(group.items) == 2]
            assert not marks, "the wild card keeps its rainbow look: no colour symbol"
            continue
        # 4.5 mm inside the safe zone: centred at (7.5, 7.5) upright and (36.5, 60.5) turned 180°
        assert _symbols(form.items, colour.symbol, 6.5, colour.ink.lower()) == [(7.5, 7.5, 0.0), (36.5, 60.5, 180.0)], \
            colour_id


def test_the_symbol_element_draws_nothing_for_an_empty_name_and_refuses_an_unknown_one(mini, run):
    (mini / "layouts").mkdir(exist_ok=True)
    (mini / "layouts" / "s.yaml").write_text(
        'elements:\n  - symbol: {name: "", x: 5, y: 5, size: 4}\n'
        '  - symbol: {name: heart, x: 10, y: 20, size: 4, color: "#ffffff", rotate: 90}\n', encoding="utf-8")
    game = load_game(mini)
    deck = game.decks["tickets"]
    context = {"game": game, "deck": deck, "geometry": deck.geometry, "back": deck.back, "card": deck.cards[0]}
    items = FaceRenderer(game).face("s", context, "s", deck.source, "s").items
    assert items == (placed("heart", 10.0, 20.0, 4.0, "#ffffff", None, 90.0),)
    assert items[0].items[0].fill == "#000000"   # a white symbol is ringed in black
    (mini / "layouts" / "s.yaml").write_text('elements:\n  - symbol: {name: hart, x: 5, y: 5, size: 4}\n',
                                             encoding="utf-8")
    with pytest.raises(BuildError, match="unknown symbol 'hart'") as error:
        FaceRenderer(load_game(mini)).face("s", context, "s", deck.source, "s")
    assert "heart" in error.value.hint


# ---------------------------------------------------------------- board spaces

def _centre(quad):
    return (round(sum(p[0] for p in quad) / 4, 3), round(sum(p[1] for p in quad) / 4, 3))


@pytest.mark.parametrize("game_id,board_id", [("ttr-germany", "germany"), ("ttr-new-york", "new-york")])
def test_every_space_of_a_coloured_route_carries_its_symbol_and_gray_is_hatched(games, game_id, board_id):
    game = games[game_id]
    form, plan = board_form(game, game.boards[board_id])
    groups = list(_groups(form.items))
    at = {}
    for group, (x, y) in groups:
        at.setdefault((round(x, 3), round(y, 3)), []).append(group)
    coloured = gray = 0
    for rp in plan.routes:
        for track in rp.tracks:
            for quad in track.spaces:
                here = at.get(_centre(quad), [])
                if track.color.symbol:
                    coloured += 1
                    expected = placed(track.color.symbol, *_centre_raw(quad), SPACE_SYMBOL, track.color.ink)
                    assert any(g.items == expected.items and g.rotate == 0.0 for g in here), (rp.route.name, quad)
                else:
                    assert track.color.id == "gray"
                    gray += 1
                    hatch = [g for g in here if g.items and all(isinstance(i, Line) for i in g.items)]
                    assert len(hatch) == 1 and len(hatch[0].items) >= 5, (rp.route.name, quad)
                    # the hatching stays inside the space: every end within the 20 × 9 mm box, turned with it
                    assert all(abs(v) <= 10 for line in hatch[0].items for v in (line.x1, line.x2))
                    assert all(abs(v) <= 4.5 for line in hatch[0].items for v in (line.y1, line.y2))
    spaces = {"ttr-germany": (221, 92), "ttr-new-york": (64, 20)}[game_id]   # every space of the map, by kind
    assert (coloured, gray) == spaces
    assert coloured + gray == sum(r.route.length * len(r.route.colors) for r in game.boards[board_id].routes)


def _centre_raw(quad):
    return (sum(p[0] for p in quad) / 4, sum(p[1] for p in quad) / 4)


def test_the_symbol_fits_a_space_whichever_way_it_runs():
    """Drawn upright in a 20 × 9 mm space turned any way: its 4 mm square's diagonal (5.7 mm) < 9 mm."""
    assert SPACE_SYMBOL * math.sqrt(2) < 9.0


# ---------------------------------------------------------------- PNP710

def test_the_threshold_separates_what_the_issue_names():
    assert closest_view("#cf3429", "#3f8f3a")[0] < MIN_DELTA_E    # red–green, deuteranopia
    assert closest_view("#d6508e", "#9a9a9a")[0] < MIN_DELTA_E    # New York's pink–gray
    assert closest_view("#e8892b", "#f0cb2a")[0] > MIN_DELTA_E    # orange–yellow: told apart
    assert closest_view("#cf3429", "#3f8f3a")[1] == "deuteranopia"


def _pnp710(folder):
    return run_checks(load_game(folder), codes={"PNP710"})


def test_pnp710_fires_on_two_colours_alike_without_symbols(tmp_path):
    folder = copy_fixture(tmp_path, "check-routes", "game.yaml", *CLOSE)
    findings = _pnp710(folder)
    assert [(f.severity, f.line, f.message) for f in findings] == [
        ("warning", 17, "colours 'red' and 'blue' look alike with deuteranopia (ΔE 4.2 in CAM02-UCS, under 12) "
                        "and neither has a symbol")]
    assert "symbol" in findings[0].hint


def test_pnp710_stays_quiet_when_symbols_tell_them_apart(tmp_path):
    folder = copy_fixture(tmp_path, "check-routes", "game.yaml", CLOSE[0], CLOSE[1][:-1] + ", symbol: triangle}")
    path = folder / "game.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("latin: red}", "latin: red, symbol: circle}"), encoding="utf-8")
    assert _pnp710(folder) == []
    path.write_text(text.replace("latin: red}", "latin: red, symbol: triangle}"), encoding="utf-8")
    assert [f.message.split(" and ", 2)[-1] for f in _pnp710(folder)] == ["both have the symbol 'triangle'"]


def test_pnp710_counts_gray_hatching_as_its_mark(tmp_path):
    """A colour alike to gray needs a symbol of its own; gray needs none (the board hatches it)."""
    folder = copy_fixture(tmp_path, "check-routes", "game.yaml", '  blue: {hex: "#2244cc"', '  blue: {hex: "#d6508e"')
    assert [f.message.split(" and ", 2)[-1] for f in _pnp710(folder)] == ["'blue' has no symbol"]


@pytest.mark.parametrize("game_id", TRAIN_GAMES)
def test_the_bundled_games_need_their_symbols(tmp_path, game_id):
    """Without symbols the bundled palettes fire PNP710 (New York's pink and gray among them): the symbols matter."""
    folder = tmp_path / game_id
    shutil.copytree(ROOT / "content" / game_id, folder)
    palette = folder / "palette.yaml"
    text = palette.read_text(encoding="utf-8")
    palette.write_text(re.sub(r", symbol: [a-z]+", "", text), encoding="utf-8")
    pairs = {tuple(f.message.split("'")[1:4:2]) for f in _pnp710(folder)}
    assert ("red", "green") in pairs or ("green", "red") in pairs
    if game_id == "ttr-new-york":
        assert ("pink", "gray") in pairs


def test_an_unknown_symbol_is_a_content_error_at_its_line(tmp_path, run):
    folder = copy_fixture(tmp_path, "check-routes", "game.yaml", "latin: red}", "latin: red, symbol: sqare}")
    result = run("check", folder)
    assert result.exit_code == 2
    assert "game.yaml:16" in result.output and "unknown symbol 'sqare'" in result.output
    assert "did you mean 'square'" in result.output


def test_a_ferry_space_puts_its_symbol_beside_the_locomotive_and_a_tunnel_space_in_the_middle(mini):
    """The locomotive of a ferry space (7 mm, centred) and the symbol (4 mm) must not overlap: the
    symbol moves 6.2 mm along the space, still inside its 20 mm."""
    text = (mini / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("include: [decks.yaml]", "include: [decks.yaml, board.yaml]")
    text = text.replace("latin: red}", "latin: red, symbol: circle}")
    (mini / "game.yaml").write_text(text, encoding="utf-8")
    board = BOARD.replace("      - [Aa, Bonn, 2, red]", "      - [Aa, Bonn, 2, red, {tunnel: true}]")
    board = board.replace("      - [Bonn, Celle, 2, [red, blue]]", "      - [Bonn, Celle, 2, red, {ferry: 1}]")
    (mini / "board.yaml").write_text(board, encoding="utf-8")
    game = load_game(mini)
    form, plan = board_form(game, game.boards["test"])
    red = game.palette["red"]
    drawn = _symbols(form.items, "circle", SPACE_SYMBOL, red.ink)
    assert len(drawn) == 4   # two tunnel spaces, two ferry spaces
    tunnel = next(rp for rp in plan.routes if rp.route.name == "Aa – Bonn").tracks[0].spaces
    ferry = next(rp for rp in plan.routes if rp.route.name == "Bonn – Celle").tracks[0].spaces
    for quad in tunnel:
        assert _centre(quad) + (0.0,) in drawn
    first, second = (_centre_raw(q) for q in ferry)
    # the first space carries the locomotive: its symbol is 6.2 mm from the centre, along the route
    off = [d for d in drawn if math.dist(d[:2], first) < 10]
    assert len(off) == 1 and math.dist(off[0][:2], first) == pytest.approx(6.2, abs=0.01)
    assert 6.2 - SPACE_SYMBOL / 2 > 3.5 and 6.2 + SPACE_SYMBOL / 2 < 10   # clear of the locomotive, inside the space
    assert (round(second[0], 3), round(second[1], 3), 0.0) in drawn       # the second, no locomotive: centred
