"""The five games at the table (issue 16): what a player hits when the files are printed and played.

Score markers that fit the score track (PNP508), one-sided pages never printed back to back in the
print-and-play file, and the bundled games' fixes that could come back.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.check import run_checks
from generator.check.margins import mark_edges, marks_inside
from generator.errors import ContentError
from generator.fonts import Typeset
from generator.layout.board import track_cells
from generator.layout.primitives import Document, Line, Page
from generator.layout.sheets import grid_for
from generator.load.game import load_game
from generator.model.game import CardGeometry
from generator.model.words import Words
from generator.writers.context import Printable
from generator.writers.printandplay import cut_through, place_parts
from tests.conftest import ROOT


def _copy(tmp_path: Path, game: str, edits: dict[str, list[tuple[str, str]]]) -> Path:
    folder = tmp_path / game
    shutil.copytree(ROOT / "content" / game, folder)
    for name, pairs in edits.items():
        path = folder / name
        text = path.read_text(encoding="utf-8")
        for old, new in pairs:
            assert old in text, f"{game}/{name} no longer contains {old!r}"
            text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
    return folder


def _codes(folder: Path, code: str) -> list:
    return [f for f in run_checks(load_game(folder), {code}) if f.code == code]


# ---------------------------------------------------------------- PNP508 score markers and the track

def test_germany_score_markers_fit_a_cell_of_its_track():
    game = load_game(ROOT / "content" / "ttr-germany")
    board = game.boards["germany"]
    cells = track_cells(board.width, board.height, board.score_track, board.score_depth)
    assert len(cells) == 100
    assert min(min(w, h) for _x, _y, w, h in cells) == pytest.approx(14.0)   # the band, not the length along it
    assert game.parts["score-markers"].geometry.width == 12.0
    assert not _codes(ROOT / "content" / "ttr-germany", "PNP508")


def test_markers_wider_than_the_band_are_pnp508(tmp_path):
    folder = _copy(tmp_path, "ttr-germany", {"map.yaml": [("score_track_depth: 14", "score_track_depth: 9")]})
    [finding] = _codes(folder, "PNP508")
    assert "12 mm across" in finding.message and "9.0 mm" in finding.message
    assert finding.source.file.name == "components.yaml"
    assert "score_track_depth: 13" in finding.hint


def test_unnamed_markers_are_found_by_their_id(tmp_path):
    """A board that does not name its markers is still checked against a token set called score-…"""
    folder = _copy(tmp_path, "ttr-germany", {"map.yaml": [("score_track_depth: 14", "score_track_depth: 10"),
                                                          ("    score_markers: score-markers\n", "")]})
    [finding] = _codes(folder, "PNP508")
    assert "'score-markers'" in finding.message


def test_named_markers_must_exist(tmp_path):
    folder = _copy(tmp_path, "ttr-germany", {"map.yaml": [("score_markers: score-markers", "score_markers: scores")]})
    with pytest.raises(ContentError, match="names score markers 'scores'"):
        load_game(folder)


def test_new_york_has_no_score_track():
    """Its scores are added up on the score pad; a track of 100 cells would never be used."""
    assert load_game(ROOT / "content" / "ttr-new-york").boards["new-york"].score_track is None


# ---------------------------------------------------------------- one-sided pages in the duplex file

def _part(pages: list[Page], kind: str = "token") -> Printable:
    return Printable("part", Document("d", pages), kind, Path("part.pdf"))


def test_one_sided_pages_each_get_a_blank_back():
    strips = [Page(210, 297, label="strips 1", one_sided=True), Page(210, 297, label="strips 2", one_sided=True)]
    cards = [Page(210, 297, label="front"), Page(210, 297, label="back")]
    spans, pages = place_parts([_part(cards, "cards"), _part(strips)], 2, Words(), Typeset())   # after a two-page cover
    assert [p.label for p in pages] == ["part: front", "part: back", "part: strips 1", "blank", "part: strips 2",
                                        "blank"]
    assert spans == [(3, 4), (5, 7)]
    assert cut_through(pages, 3) == []


def test_cut_through_finds_one_sided_pages_back_to_back():
    pages = [Page(210, 297, label="a", one_sided=True), Page(210, 297, label="b", one_sided=True),
             Page(210, 297, label="c"), Page(210, 297, label="blank")]
    assert cut_through(pages, 1) == [1, 2]
    assert cut_through(pages[2:], 1) == []


def test_germany_train_counters_never_land_back_to_back(built_game):
    """The two sheets of fold-over train counters were pages 75 and 76 of one sheet: now each has a blank back."""
    out = built_game("ttr-germany")
    rows = (out / "components.csv").read_text(encoding="utf-8").splitlines()
    trains = next(r for r in rows if r.startswith("列車コマ"))
    first, last = (int(n) for n in trains.rsplit(",", 1)[1].split("-"))
    assert first % 2 == 1 and last - first == 2   # two sheets: front, blank, front
    reader = PdfReader(out / "ttr-germany-print-and-play.pdf")
    assert "白紙" in reader.pages[first].extract_text()      # page first + 1 (0-based: first)
    assert "白紙" in reader.pages[last].extract_text()


# ---------------------------------------------------------------- the printer's margin (print: margin:, PNP509)

def _nearest_mark(grid) -> float:
    from generator.layout.sheets import crop_marks
    page = Page(*grid.paper, crop_marks(grid))
    return min(mark_edges(page))


def test_a_3x3_sheet_of_56x87_cards_keeps_its_marks_outside_the_default_5mm():
    """The issue's case: 3 × 3 cards of 56 × 87 mm on A4 put the short crop marks 6 to 8.5 mm from the edge.
    Outside the default 5 mm margin, so it stays; a printer that clips 6.5 mm gets a 3 × 2 sheet instead."""
    cards = CardGeometry(56, 87, 3, 3)
    grid = grid_for(cards, "a4")
    assert (grid.cols, grid.rows) == (3, 3)
    assert _nearest_mark(grid) == pytest.approx(6.0)
    wide = grid_for(cards, "a4", margin=6.5)
    assert (wide.cols, wide.rows) == (3, 2)
    assert _nearest_mark(wide) >= 6.5


def test_marks_inside_finds_a_mark_in_the_margin():
    page = Page(210, 297, [Line(3.0, 50, 8.0, 50), Line(20, 20, 30, 20)])
    assert marks_inside([page], 5.0) == [(1, 3.0)]
    assert marks_inside([page], 3.0) == []


def test_print_margin_is_read_and_bounded(tmp_path):
    folder = _copy(tmp_path, "ttr-new-york", {"game.yaml": [("  back_offset: [0, 0]", "  back_offset: [0, 0]\n  margin: 9")]})
    game = load_game(folder)
    assert game.printer_margin == 9.0
    assert not _codes(folder, "PNP509")   # every sheet, the half-page aids' cut line and the board tiles keep out of it
    too_wide = _copy(tmp_path / "b", "ttr-new-york", {"game.yaml": [("  back_offset: [0, 0]",
                                                                    "  back_offset: [0, 0]\n  margin: 25")]})
    with pytest.raises(ContentError, match="margin"):
        load_game(too_wide)


def test_no_bundled_game_prints_a_mark_inside_the_margin():
    for game in ("s-railway",):   # 56 × 87 mm cards, the tightest sheets
        assert not _codes(ROOT / "content" / game, "PNP509"), game


# ---------------------------------------------------------------- S鉄道: round track, chip pool, a readable key

def _line_board():
    from generator.layout.board_line import line_board_form
    game = load_game(ROOT / "content" / "s-railway")
    board = game.boards["line"]
    return game, board, line_board_form(game, board)


def test_s_railway_board_has_a_round_track_and_a_chip_pool():
    from generator.layout.board_line import ROUND_CELL, key_left, round_cells
    from generator.layout.primitives import Rect, Text
    game, board, form = _line_board()
    cells = round_cells(board)
    assert board.rounds == 3 and len(cells) == 3
    assert all(w == h == ROUND_CELL for _x, _y, w, h in cells)
    assert cells[-1][0] + ROUND_CELL < key_left(board)            # between the title and the key
    texts = [item.text for item in form.items if isinstance(item, Text)]
    assert "チップ置き場 / chip pool" in texts and "ラウンド / Round" in texts
    rects = [item for item in form.items if isinstance(item, Rect)]
    pool = next(r for r in rects if r.w == 150.0)
    assert pool.y + pool.h <= board.height - 10 and pool.h >= 30     # under the card places, inside the frame
    assert game.parts["round-marker"].geometry.width + 1 <= ROUND_CELL


def test_s_railway_key_is_readable():
    """The key's small print was 5.5 pt; 8 pt is the least read across a table."""
    from generator.layout.primitives import Text
    _game, _board, form = _line_board()
    key = [item for item in form.items if isinstance(item, Text) and ("最大" in item.text or "停車駅" in item.text)]
    assert len(key) == 6 and min(item.size for item in key) >= 8.0


def test_a_round_marker_too_large_for_its_cells_is_pnp508(tmp_path):
    folder = _copy(tmp_path, "s-railway", {"components.yaml": [("    size: 20\n", "    size: 30\n")]})
    [finding] = _codes(folder, "PNP508")
    assert "round marker 'round-marker' is 30 mm across" in finding.message


# ---------------------------------------------------------------- New York's taxi card

def test_the_taxi_cards_stripes_are_new_yorks_own_colours(built_game):
    """The shared train layout's wild card used a fixed rainbow (yellow, purple …) New York has no card of."""
    import re
    game = load_game(ROOT / "content" / "ttr-new-york")
    own = {game.collections["color"][c].hex.lower() for c in ("blue", "green", "black", "pink", "red", "orange")}
    svg_dir = built_game("ttr-new-york") / "svg" / "transport-cards"
    taxi = next(p for p in sorted(svg_dir.glob("0*.svg")) if "タクシー" in p.read_text(encoding="utf-8"))
    fills = {f.lower() for f in re.findall(r'fill="(#[0-9a-fA-F]{6})"', taxi.read_text(encoding="utf-8"))}
    assert own <= fills
    assert not {"#f0cb2a", "#8a4f9e"} & fills   # yellow and purple: Germany's, not New York's


# ---------------------------------------------------------------- Thurn and Taxis: names, trays

def test_thurn_and_taxis_names_are_table_size_with_a_halo():
    from generator.layout.board import HALO, board_form
    from generator.layout.primitives import Text
    game = load_game(ROOT / "content" / "thurn-and-taxis")
    for board in game.boards.values():
        form, plan = board_form(game, board)
        names = [i for i in form.items if isinstance(i, Text) and i.text == plan.board.places[0].name]
        assert {i.size for i in names} == {13.0}
        assert sum(i.fill == HALO for i in names) == 8 and sum(i.fill != HALO for i in names) == 1


def test_thurn_and_taxis_boards_have_places_for_the_display_carriages_and_tiles():
    game = load_game(ROOT / "content" / "thurn-and-taxis")
    for board_id, tiles in (("south", 10), ("north", 15)):
        board = game.boards[board_id]
        display, carriages, stacks = board.trays
        assert (display.count, display.size) == (6, (56.0, 87.0))
        assert carriages.count == 5 and stacks.count == tiles and stacks.size == (26.0, 26.0)
        for tray in board.trays:
            x, y, w, h = tray.box()
            assert y >= 420 and x >= 5 and x + w <= board.width - 5 and y + h <= board.height - 5, tray.label


def test_a_tray_over_the_map_is_pnp506(tmp_path):
    folder = _copy(tmp_path, "thurn-and-taxis", {"map.yaml": [("latin: card display, at: [10, 426]",
                                                               "latin: card display, at: [10, 300]")]})
    found = _codes(folder, "PNP506")
    assert any("tray '公開カード'" in f.message for f in found)


# ---------------------------------------------------------------- words, the dice add-on

def test_germany_score_sheet_has_no_space_after_a_full_stop():
    """A folded YAML scalar joins its lines with a space, which prints after 。 in Japanese."""
    game = load_game(ROOT / "content" / "ttr-germany")
    texts = [str(value) for kind, value, _src in game.parts["score-summary"].options.blocks if kind == "text"]
    assert texts
    assert not any("。 " in text for text in texts)


@pytest.mark.parametrize("game, words, not_words", [
    ("ttr-germany", ["SL", "オレンジ"], ["機関車", "橙"]),          # seed 000 says SLカード, オレンジ
    ("thurn-and-taxis", ["オレンジ"], ["橙"]),                       # seed 004: オレンジのエリア
])
def test_terminology_follows_each_rulebook(game, words, not_words):
    folder = ROOT / "content" / game
    text = "".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.yaml")) + [folder / "rules.md"])
    names = {c.name for c in load_game(folder).collections["color"].values()}
    for word in words:
        assert word in names or word in text
    for word in not_words:
        assert word not in text, word


def test_dice_with_germany_replaces_the_player_aid_that_says_to_draw_train_cards():
    game = load_game(ROOT / "content" / "ttr-germany", (str(ROOT / "content" / "ttr-dice"),))
    assert "player-aid" not in game.parts and "turn-aid" in game.parts
    assert "player-aid" in load_game(ROOT / "content" / "ttr-germany").parts


def test_dice_cover_lists_the_stickers_and_the_assembly_steps(tmp_path, run):
    result = run("build", "content/ttr-dice", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    out = tmp_path / "ttr-dice"
    rows = (out / "components.csv").read_text(encoding="utf-8")
    assert "white-dice-nets.pdf white-dice-stickers.pdf" in rows
    cover = PdfReader(out / "ttr-dice-print-and-play.pdf").pages[0].extract_text()
    for step in ("展開図", "山折り", "のりしろ", "ステッカー"):
        assert step in cover, step


# ---------------------------------------------------------------- board tiles of an 8-sheet board

def test_an_8_sheet_boards_tile_label_is_square_and_its_index_map_fits_its_frame():
    from generator.layout.primitives import Rect
    from generator.layout.tiling import plan_tiles, tile_pages
    plan = plan_tiles(594, 420, "a4")   # S鉄道's board: 4 × 2 sheets
    assert (plan.cols, plan.rows) == (4, 2)
    _forms, pages = tile_pages(plan, "board-line", "S鉄道", Words(), Typeset())
    rects = [i for i in pages[0].items if isinstance(i, Rect)]
    frame, *cells = rects[:1 + len(plan.tiles)]
    assert frame.w / frame.h == pytest.approx(plan.cols / plan.rows, rel=0.05)   # no empty half under the map
    assert max(c.x + c.w for c in cells) <= frame.x + frame.w and max(c.y + c.h for c in cells) <= frame.y + frame.h
    label = rects[1 + len(plan.tiles)]
    assert label.w == pytest.approx(label.h)   # it was a 21 × 42 mm box


def test_a_layout_that_forgets_the_margin_is_pnp509():
    """PNP509 on pages laid out for a 5 mm margin and checked against 8 mm: what a layout that ignored
    ``print: margin:`` would print (New York's taxi sheet, the aid's cut line and the board tiles come closer than 8 mm)."""
    from generator.check.dry import laid_out
    game = load_game(ROOT / "content" / "ttr-new-york")
    laid_out(game)                 # laid out with the game's 5 mm
    game.printer_margin = 8.0      # and checked against a printer that clips 8 mm
    found = [f for f in run_checks(game, {"PNP509"}) if f.code == "PNP509"]
    assert found and all("inside the printer's 8 mm margin" in f.message for f in found)
    assert {f.source.file.name for f in found} == {"components.yaml", "map.yaml"}   # the taxis, the aid, the board tiles
