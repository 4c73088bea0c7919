"""Terrain on map boards (issue 16, cartography): the ``terrain:`` list read, refused at its line, drawn
first, the game's areas as regions, PNP510, and the bundled maps' ground (Germany from Natural Earth,
New York by hand, Thurn and Taxis' areas).

Each small case writes a tiny game of its own (three cities on a 300 × 200 mm board)."""
from __future__ import annotations

import pytest

from generator import limits
from generator.check import run_checks
from generator.check.terrain import ground_at, inside
from generator.errors import ContentError
from generator.layout.board import LAND, board_form
from generator.layout.primitives import Circle, Group, Polygon, Text
from generator.layout.terrain import AREA_TINT, DEFAULTS, area_regions, shade, tint
from generator.load.game import load_game
from generator.model.board import place_points
from tests.conftest import ROOT

GAME = """\
game:
  title: 地形
  latin: Terrain
  players: [2, 4]
  trains_per_player: 3
print:
  card: {size: [44, 68], bleed: 3, safe: 3}
palette:
  red: {hex: "#cc2222", name: 赤, latin: red}
  blue: {hex: "#2244cc", name: 青, latin: blue}
  shore: "#8090a0"
areas:
  West: {name: 西, color: red}
  East: {name: 東, color: blue}
places:
  Aa: {name: アー, latin: Aa, area: West, at: [50, 100]}
  Bb: {name: ベー, latin: Bb, area: West, at: [130, 60]}
  Cc: {name: ツェー, latin: Cc, area: East, at: [250, 120]}
routes:
  - [Aa, Bb, 3, red]
  - [Bb, Cc, 3, blue]
boards:
  map:
    size: [300, 200]
    terrain:
TERRAIN"""

SHAPES = """\
      - {kind: sea, name: the sea, points: [[4, 4], [296, 4], [296, 196], [4, 196]]}
      - {kind: land, points: [[20, 20], [280, 20], [280, 180], [20, 180]], stroke: shore, stroke_width: 0.8}
      - {kind: water, name: a lake, points: [[150, 150], [170, 150], [170, 170]], colour: "#AABBCC"}
      - {kind: river, points: [[30, 190], [200, 150]], width: 4, colour: blue}
      - {kind: park, points: [[200, 30], [240, 30], [240, 60]]}
"""


def game_with(tmp_path, shapes: str = SHAPES):
    folder = tmp_path / "terrain"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME.replace("TERRAIN", shapes), encoding="utf-8")
    return folder


def refused(tmp_path, shapes: str) -> ContentError:
    with pytest.raises(ContentError) as caught:
        load_game(game_with(tmp_path, shapes))
    return caught.value


# ------------------------------------------------------------------------------------------- reading

def test_shapes_are_read_in_order_with_colours_as_hex(tmp_path):
    board = load_game(game_with(tmp_path)).boards["map"]
    assert [s.kind for s in board.terrain] == ["sea", "land", "water", "river", "park"]
    sea, land, lake, river, park = board.terrain
    assert sea.points == ((4.0, 4.0), (296.0, 4.0), (296.0, 196.0), (4.0, 196.0)) and sea.name == "the sea"
    assert (land.stroke, land.stroke_width) == ("#8090a0", 0.8)   # a palette name
    assert lake.fill == "#aabbcc"                                  # hex as written, lower case
    assert (river.fill, river.stroke_width) == ("#2244cc", 4.0)    # a river's colour and width
    assert park.fill is None and park.source.line == 30            # default tint; its own line


def test_a_point_off_the_board_is_refused_at_its_line(tmp_path):
    error = refused(tmp_path, "      - {kind: land, points: [[20, 20], [310, 20], [20, 180]]}\n")
    assert error.source.line == 26
    assert "point [310, 20] is off board 'map' (300 × 200 mm)" in error.message
    assert "0–300 × 0–200" in error.hint


def test_too_few_points_are_refused(tmp_path):
    error = refused(tmp_path, "      - {kind: park, points: [[20, 20], [40, 20]]}\n")
    assert "a park shape needs at least 3 points, not 2" in error.message
    assert load_game(game_with(tmp_path, "      - {kind: river, points: [[20, 20], [40, 20]]}\n")).boards["map"].terrain


def test_an_unknown_colour_says_did_you_mean(tmp_path):
    error = refused(tmp_path, "      - {kind: land, points: [[20, 20], [40, 20], [30, 40]], colour: shorre}\n")
    assert "terrain colour 'shorre' is neither a palette colour nor #rrggbb" in error.message
    assert "shore" in error.hint


def test_an_unknown_kind_is_refused_by_the_schema(tmp_path):
    error = refused(tmp_path, "      - {kind: desert, points: [[20, 20], [40, 20], [30, 40]]}\n")
    assert error.source.line == 26 and "desert" in error.message


def test_shapes_and_points_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_TERRAIN_SHAPES", 4)
    error = refused(tmp_path, SHAPES)
    assert "5 terrain shapes, over 4 (MAX_TERRAIN_SHAPES)" in error.message
    monkeypatch.setattr(limits, "MAX_TERRAIN_SHAPES", 500)
    monkeypatch.setattr(limits, "MAX_TERRAIN_POINTS", 3)
    error = refused(tmp_path, SHAPES)
    assert "a sea shape has 4 points, over 3 (MAX_TERRAIN_POINTS)" in error.message and error.source.line == 26


# ------------------------------------------------------------------------------------------- drawing

def test_terrain_is_the_first_layer_in_the_order_written(tmp_path):
    game = load_game(game_with(tmp_path))
    form, _plan = board_form(game, game.boards["map"])
    assert form.items[0].fill == LAND                      # the paper
    sea, land, lake, river, park = form.items[1:6]
    assert (sea.fill, sea.stroke) == (DEFAULTS["sea"][0], None)
    assert (land.fill, land.stroke, land.stroke_width) == (DEFAULTS["land"][0], "#8090a0", 0.8)
    assert (lake.fill, lake.stroke) == ("#aabbcc", DEFAULTS["water"][1])
    assert (river.closed, river.fill, river.stroke, river.stroke_width) == (False, None, "#2244cc", 4.0)
    assert park.points == ((200.0, 30.0), (240.0, 30.0), (240.0, 60.0)) and park.fill == DEFAULTS["park"][0]
    # the areas still get their discs (no `kind: areas`), drawn over the terrain
    discs = [i for i in form.items if isinstance(i, Circle) and i.r > 30]
    assert len(discs) == 3 and form.items.index(discs[0]) > 5


def test_areas_become_one_region_each_round_their_cities(tmp_path):
    game = load_game(game_with(tmp_path, "      - {kind: areas, points: [[10, 10], [290, 10], [290, 190], [10, 190]]}\n"))
    board = game.boards["map"]
    regions = area_regions(board, board.terrain[0].points)
    assert [area.id for area, _ in regions] == ["West", "East"]   # the bigger first
    for area, outlines in regions:
        assert len(outlines) == 1
        for place in board.places:
            assert inside(place_points(place)[""], outlines[0]) == (place.attrs["area"] is area), (area.id, place.id)
    # the Voronoi edge between Bb (130, 60) and Cc (250, 120): every point of it is as far from both
    west = regions[0][1][0]
    xs = [x for x, y in west if 10 < y < 190 and x > 100]
    assert xs and all(abs(((x - 130) ** 2 + (y - 60) ** 2) - ((x - 250) ** 2 + (y - 120) ** 2)) < 1.0
                      for x, y in west if x > 100 and 10 < y < 190)
    form, _plan = board_form(game, board)
    assert not [i for i in form.items if isinstance(i, Circle) and i.r > 30], "regions replace the discs"
    red, blue = tint("#cc2222", AREA_TINT), tint("#2244cc", AREA_TINT)
    fills = [i.fill for i in form.items if isinstance(i, Polygon) and i.fill in (red, blue)]
    assert fills == [red, blue]   # one region each, the bigger first


def test_regions_are_the_same_on_every_layout(tmp_path):
    game = load_game(game_with(tmp_path, "      - {kind: areas}\n"))
    board = game.boards["map"]
    assert board_form(game, board)[0] == board_form(game, board)[0]
    assert area_regions(board)[0][1][0][0] == (4.0, 4.0) or all(4 <= x <= 296 for x, _ in area_regions(board)[0][1][0])


def test_labels_are_printed_over_every_shape_turned_and_under_the_routes(tmp_path):
    shapes = ("      - kind: sea\n"
              "        points: [[4, 4], [296, 4], [296, 196], [4, 196]]\n"
              "        labels: [{text: 北海, latin: Nordsee, at: [40, 40]}, {text: 川, at: [270, 100], angle: 90, size: 10}]\n"
              "      - {kind: land, points: [[20, 20], [280, 20], [280, 180], [20, 180]]}\n")
    game = load_game(game_with(tmp_path, shapes))
    form, _plan = board_form(game, game.boards["map"])
    groups = [i for i in form.items if isinstance(i, Group) and i.items and isinstance(i.items[0], Text)]
    sea_name, river = groups[:2]
    assert form.items.index(sea_name) == 3                  # after the paper, the sea and the land
    assert (sea_name.dx, sea_name.dy, sea_name.rotate) == (40.0, 40.0, 0.0)
    assert [(t.text, t.size, t.anchor) for t in sea_name.items] == [("北海", 14.0, "middle"), ("Nordsee", 8.4, "middle")]
    assert sea_name.items[0].y < 0 < sea_name.items[1].y    # the two lines centred on the point
    assert sea_name.items[0].fill == shade(DEFAULTS["sea"][0], 0.55)
    assert (river.rotate, [t.text for t in river.items], river.items[0].size) == (90.0, ["川"], 10.0)
    error = refused(tmp_path, shapes.replace("at: [270, 100]", "at: [370, 100]"))
    assert "the label '川' at [370, 100] is off board 'map'" in error.message and error.source.line == 26


# ------------------------------------------------------------------------------------------- PNP510

def test_a_city_on_the_sea_is_pnp510(tmp_path):
    shapes = ("      - {kind: sea, name: the sea, points: [[4, 4], [296, 4], [296, 196], [4, 196]]}\n"
              "      - {kind: land, points: [[20, 20], [200, 20], [200, 180], [20, 180]]}\n")
    findings = [f for f in run_checks(load_game(game_with(tmp_path, shapes))) if f.code == "PNP510"]
    assert [(f.source.line, f.severity) for f in findings] == [(18, "warning")]   # Cc, at x 250, is off the land
    assert "Cc at [250, 120] lies on sea 'the sea' (terrain at line 26)" in findings[0].message
    assert findings[0].hint


def test_land_written_after_the_sea_keeps_cities_dry(tmp_path):
    assert not [f for f in run_checks(load_game(game_with(tmp_path))) if f.code == "PNP510"]
    # a lake over the land is wet again, and a river (a line) never is
    lake = SHAPES + "      - {kind: water, points: [[40, 90], [60, 90], [60, 110], [40, 110]]}\n"
    findings = [f for f in run_checks(load_game(game_with(tmp_path, lake))) if f.code == "PNP510"]
    assert [f.message.split(": ")[1].split(" at ")[0] for f in findings] == ["Aa"]


def test_ground_at_is_the_topmost_filled_shape(tmp_path):
    terrain = load_game(game_with(tmp_path)).boards["map"].terrain
    assert ground_at(terrain, (10, 10)).kind == "sea"
    assert ground_at(terrain, (100, 100)).kind == "land"
    assert ground_at(terrain, (165, 155)).kind == "water"
    assert ground_at(terrain, (-5, -5)) is None


# ------------------------------------------------------------------------------------------- the bundled maps

def test_germany_is_on_its_land_and_each_country_on_its_own_region():
    board = load_game(ROOT / "content" / "ttr-germany").boards["germany"]
    assert 10 <= len(board.terrain) <= 60
    assert sum(len(s.points) for s in board.terrain) < 2000
    assert all(x == round(x, 1) and y == round(y, 1) for s in board.terrain for x, y in s.points)
    for place in board.places:
        ground = ground_at(board.terrain, place_points(place)[""])
        assert ground is not None, place.id
        if place.attrs.get("kind") == "country":
            assert (ground.kind, ground.name.split(" ")[0]) == ("region", place.id)
        else:
            assert (ground.kind, ground.name.split(" ")[0]) == ("land", "Deutschland"), place.id


def test_new_york_is_on_manhattan_and_brooklyn_across_the_river():
    board = load_game(ROOT / "content" / "ttr-new-york").boards["new-york"]
    grounds = {p.id: ground_at(board.terrain, place_points(p)[""]).name for p in board.places}
    assert grounds.pop("Brooklyn") == "Queens / Brooklyn"
    assert grounds.pop("Central Park") == "Central Park"
    assert set(grounds.values()) == {"Manhattan"}


@pytest.mark.parametrize("board_id", ["south", "north"])
def test_thurn_and_taxis_cities_lie_in_their_areas_region(board_id):
    board = load_game(ROOT / "content" / "thurn-and-taxis").boards[board_id]
    regions = area_regions(board, board.terrain[0].points)
    assert len(regions) == len([a for a in board.areas if "color" in a.attrs])
    for place in board.places:
        area = place.attrs.get("area")
        homes = [a.id for a, outlines in regions for o in outlines if inside(place_points(place)[""], o)]
        assert homes == ([area.id] if area is not None else []), place.id


def test_the_board_pdf_and_svg_draw_the_terrain(built_game):
    import re

    from pypdf import PdfReader
    svg = (built_game("ttr-germany") / "board-germany.svg").read_text(encoding="utf-8")
    assert DEFAULTS["sea"][0] in svg and DEFAULTS["region"][0] in svg and DEFAULTS["land"][0] in svg
    fills = set()
    reader = PdfReader(built_game("ttr-germany") / "board-germany.pdf")
    for number in range(1, int(reader.trailer["/Size"])):
        obj = reader.get_object(number)
        data = obj.get_data() if hasattr(obj, "get_data") else b""
        fills |= {tuple(round(float(v) * 255) for v in m.groups())
                  for m in re.finditer(rb"([\d.]+) ([\d.]+) ([\d.]+) rg", data)}
    for kind in ("sea", "region", "land"):
        hex_color = DEFAULTS[kind][0]
        assert tuple(int(hex_color[i:i + 2], 16) for i in (1, 3, 5)) in fills, kind
