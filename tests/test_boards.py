"""Boards: real-size train spaces, page sizes, tiling, and clean geometry for every bundled map.

Spaces are measured twice: on the layout's plan (the primitives the renderers
draw) and on the full-size PDF itself, by reading the content stream's
closed four-point paths back with pypdf. Tiles are measured on the tiled
PDFs: each page's clipping window and offset give the part of the board it
prints, from which the overlap and the coverage are computed.
"""
from __future__ import annotations

import math

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from generator.layout.board import board_form
from generator.layout.board_geometry import board_problems, plan_board
from generator.layout.sheets import PAPERS, PRINTER_MARGIN
from generator.layout.tiling import plan_tiles
from generator.load.game import load_game
from tests.conftest import ROOT

MM = 72 / 25.4
MAP_BOARDS = [("ttr-germany", "germany"), ("ttr-new-york", "new-york"),
              ("thurn-and-taxis", "south"), ("thurn-and-taxis", "north")]
ALL_BOARDS = MAP_BOARDS + [("s-railway", "line")]


def _board(game_id, board_id):
    game = load_game(ROOT / "content" / game_id)
    return game, game.boards[board_id]


@pytest.fixture(scope="module")
def built(built_game):
    """The folder holding each bundled game with a board, from the session's shared builds."""
    games = sorted({g for g, _ in ALL_BOARDS})
    folders = {built_game(g).parent for g in games}
    assert len(folders) == 1
    for g in games:
        assert "warning" not in built_game.output[g], built_game.output[g]
    return folders.pop()


def _sides(quad):
    return sorted(math.dist(quad[i], quad[(i + 1) % 4]) for i in range(4))


@pytest.mark.parametrize("game_id,board_id", MAP_BOARDS[:2])
def test_every_space_is_20_by_9_mm_and_every_route_has_its_length(game_id, board_id):
    game, board = _board(game_id, board_id)
    form, plan = board_form(game, board)
    drawn = {item.points for item in form.items if hasattr(item, "points")}
    assert len(plan.routes) == len(board.routes)
    for rp in plan.routes:
        route = rp.route.route
        assert len(rp.tracks) == len(route.colors)
        for track in rp.tracks:
            assert len(track.spaces) == route.length, rp.route.name
            for quad in track.spaces:
                short, _, _, long_ = _sides(quad)
                assert short == pytest.approx(9.0, abs=0.1) and long_ == pytest.approx(20.0, abs=0.1)
                assert quad in drawn   # what was measured is what is drawn


def test_germany_has_110_tracks_over_85_pairs():
    _, board = _board("ttr-germany", "germany")
    assert len(board.routes) == 85
    assert sum(len(r.route.colors) for r in board.routes) == 110
    assert len(board.places) == 40


@pytest.mark.parametrize("game_id,board_id", MAP_BOARDS)
def test_bundled_maps_have_no_geometry_problems(game_id, board_id):
    """Long enough for their spaces, no overlaps, no route over a city it does not connect, names placed."""
    _, board = _board(game_id, board_id)
    assert board_problems(plan_board(board)) == []


def _closed_quads(page):
    """Closed four-point paths (m l l l h) of a PDF page's content stream, in mm (translation-free)."""
    ops = ContentStream(page.get_contents(), page.pdf).operations
    quads, path = [], []
    for operands, op in ops:
        if op == b"m":
            path = [tuple(float(v) / MM for v in operands)]
        elif op == b"l":
            path.append(tuple(float(v) / MM for v in operands))
        elif op == b"h":
            if len(path) == 4:
                quads.append(tuple(path))
            path = []
    return quads


@pytest.mark.parametrize("game_id,board_id", MAP_BOARDS[:2])
def test_full_size_pdf_page_and_spaces_measured_in_the_pdf(built, game_id, board_id):
    _, board = _board(game_id, board_id)
    reader = PdfReader(built / game_id / f"board-{board_id}.pdf")
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert float(page.mediabox.width) / MM == pytest.approx(board.width, abs=0.01)
    assert float(page.mediabox.height) / MM == pytest.approx(board.height, abs=0.01)
    spaces = [q for q in _closed_quads(page)
              if abs(_sides(q)[0] - 9) <= 0.1 and abs(_sides(q)[3] - 20) <= 0.1 and abs(_sides(q)[1] - 9) <= 0.1]
    expected = sum(r.route.length * len(r.route.colors) for r in board.routes)
    assert len(spaces) == expected
    assert (built / game_id / f"board-{board_id}.svg").read_text(encoding="utf-8").startswith("<?xml")


def _tile_windows(page):
    """The board rectangle (x0, y0, x1, y1 in board mm) a tile page prints: its clip minus its offset."""
    ops = ContentStream(page.get_contents(), page.pdf).operations
    clip = offset = None
    for i, (operands, op) in enumerate(ops):
        if op == b"re" and clip is None and ops[i + 1][1] in (b"W", b"W*"):
            clip = [float(v) for v in operands]
        elif op == b"cm" and clip is not None:
            offset = [float(v) for v in operands[4:6]]
            break
    x, y, w, h = clip
    tx, ty = offset
    return ((x - tx) / MM, (ty - (y + h)) / MM, (x + w - tx) / MM, (ty - y) / MM)


@pytest.mark.parametrize("game_id,board_id,paper,sheets", [
    ("ttr-germany", "germany", "a4", 9), ("ttr-germany", "germany", "letter", 12),
    ("ttr-new-york", "new-york", "a4", 4), ("thurn-and-taxis", "south", "a4", 12),   # 600 × 560: map + trays
    ("s-railway", "line", "letter", 8)])
def test_tiles_count_overlap_and_cover_the_board(built, game_id, board_id, paper, sheets):
    _, board = _board(game_id, board_id)
    reader = PdfReader(built / game_id / f"board-{board_id}-tiles-{paper}.pdf")
    assert len(reader.pages) == sheets
    plan = plan_tiles(board.width, board.height, paper)
    paper_size = PAPERS[paper][::-1] if plan.landscape else PAPERS[paper]
    windows = []
    for page in reader.pages:
        assert (float(page.mediabox.width) / MM, float(page.mediabox.height) / MM) == pytest.approx(paper_size, abs=0.01)
        windows.append(_tile_windows(page))
    # the window is what the printer can print: the sheet less its margin on every side
    for x0, y0, x1, y1 in windows:
        assert x1 - x0 == pytest.approx(paper_size[0] - 2 * PRINTER_MARGIN, abs=0.01)
        assert y1 - y0 == pytest.approx(paper_size[1] - 2 * PRINTER_MARGIN, abs=0.01)
    # neighbours (row-major order) share a strip wider than the printer's margin
    for i, (_x0, _y0, x1, y1) in enumerate(windows):
        if (i + 1) % plan.cols:
            right = windows[i + 1]
            assert x1 - right[0] > PRINTER_MARGIN and x1 - right[0] == pytest.approx(plan.overlap[0], abs=0.01)
        if i + plan.cols < len(windows):
            below = windows[i + plan.cols]
            assert y1 - below[1] > PRINTER_MARGIN
    # every point of the board (on a 2.5 mm grid, edges included) is printed by some sheet
    steps_x, steps_y = int(board.width / 2.5), int(board.height / 2.5)
    for i in range(steps_x + 1):
        for j in range(steps_y + 1):
            x, y = board.width * i / steps_x, board.height * j / steps_y
            assert any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in windows), (x, y)


def test_germany_beats_nine_a4_sheets_mark_and_letter_needs_more():
    assert len(plan_tiles(525, 790, "a4").tiles) == 9
    assert len(plan_tiles(790, 525, "a4").tiles) == 9   # the standard board the other way round too
    assert len(plan_tiles(525, 790, "letter").tiles) == 12


def test_overview_is_one_page_of_the_build_paper(built):
    reader = PdfReader(built / "ttr-germany" / "board-germany-overview.pdf")
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert (float(page.mediabox.width) / MM, float(page.mediabox.height) / MM) == pytest.approx(PAPERS["a4"], abs=0.01)


def test_line_board_marks_each_train_types_stops(built):
    game, board = _board("s-railway", "line")
    assert [s.name for s in board.stations][0] == "西武新宿"
    from generator.layout.board_line import line_board_form
    form = line_board_form(game, board)
    # one filled marker per (type, stop) in the type's colour
    for ttype in board.train_types:
        color = ttype.attrs["color"].hex
        markers = [i for i in form.items if type(i).__name__ == "Circle" and i.fill == color]
        assert len(markers) == len(ttype.attrs["stops"]) + 1   # + its swatch in the key
    reader = PdfReader(built / "s-railway" / "board-line.pdf")
    assert float(reader.pages[0].mediabox.width) / MM == pytest.approx(594, abs=0.01)


def test_board_tiles_reach_the_print_and_play_sections(tmp_path):
    from generator.pipeline import build_game
    game = load_game(ROOT / "content" / "ttr-new-york")
    result = build_game(game, tmp_path, "letter")
    titles = [title for title, _ in result.printable]
    assert titles[-1] == game.boards["new-york"].label
    assert result.printable[-1][1].title.endswith("(LETTER, 6 sheets)")


def test_area_names_sit_clear_of_names_and_roads():
    from generator.layout.board import plan_for_drawing
    from generator.layout.board_geometry import _rect_quad, _segment_quad, convex_overlap
    _, board = _board("thurn-and-taxis", "south")
    plan = plan_for_drawing(board)
    assert len(plan.area_labels) >= 7          # of the 9 provinces
    for _, box in plan.area_labels:
        quad = _rect_quad(*box)
        for pp in plan.places.values():
            assert not convex_overlap(quad, _rect_quad(*pp.label))
        for rp in plan.routes:
            for p, q in zip(rp.path, rp.path[1:]):
                assert not convex_overlap(quad, _segment_quad(p, q, 2.0))


@pytest.mark.parametrize("field,message", [("name", "the name of station"), ("latin", "the Latin name of station")])
def test_a_station_name_too_long_for_its_square_is_an_error_at_the_station(field, message):
    """Neither the name nor the Latin name may run out of its square (the Latin one used to, silently, at 4 pt)."""
    from generator.errors import BuildError
    from generator.layout.board_line import line_board_form
    game, board = _board("s-railway", "line")
    station = board.stations[3]
    setattr(station, field, "Sehr langer Bahnhofsname " * 4 if field == "latin" else "とても長い駅名" * 3)
    with pytest.raises(BuildError, match=message) as caught:
        line_board_form(game, board)
    assert caught.value.source == station.source
