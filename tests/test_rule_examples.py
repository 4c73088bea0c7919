"""Rule examples (``{{ example('claim'|'double'|'ticket') }}``) are worked out from the game's data: the
route, the cards, the points and the ticket's way follow the content, and a mistake is a clear error at
the rules.md line."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import ContentError, Source
from generator.layout.cardface import FaceRenderer
from generator.layout.examples import example_form
from generator.layout.primitives import Document, Group, Polygon
from generator.load.game import load_game
from generator.load.rules import load_rules
from generator.model.examples import plan_example
from generator.model.network import Network, ticket_ends
from generator.model.rules import Picture

ROOT = Path(__file__).resolve().parents[1]
GERMANY = ROOT / "content" / "ttr-germany"
NEW_YORK = ROOT / "content" / "ttr-new-york"
HERE = Source(Path("rules.md"), 7)


@pytest.fixture(scope="module")
def germany():
    return load_game(GERMANY)


def test_a_claim_pays_the_route_with_its_colour_and_one_wild_card_and_scores_the_table(germany):
    example = plan_example(germany, "claim", {}, HERE)
    (route, track), = example.placed
    scoring = {int(k): int(v) for k, v in germany.tables["route_scoring"].items()}
    assert route.length in (3, 4) and route.colors[0].id != "gray"
    assert len(example.cards) == route.length and example.points == scoring[route.length]
    colours = [card.values["color"].id for card in example.cards]
    assert colours == [route.colors[0].id] * (route.length - 1) + ["locomotive"]
    assert route.a.name in example.caption and f"{example.points}点" in example.caption


def test_a_named_route_and_a_gray_one(germany):
    example = plan_example(germany, "claim", {"a": "Berlin", "b": "Leipzig"}, HERE)
    (route, _), = example.placed
    assert {route.a.id, route.b.id} == {"Berlin", "Leipzig"}
    gray = next(r for r in germany.routes if r.colors[0].id == "gray" and len(r.colors) == 1 and r.length >= 2)
    example = plan_example(germany, "claim", {"a": gray.a.id, "b": gray.b.id}, HERE)
    assert "どの色でも" in example.caption   # a gray route: any one colour
    assert len({c.values["color"].id for c in example.cards if c.values["color"].id != "locomotive"}) == 1


def test_the_scoring_table_decides_the_points(germany, tmp_path):
    folder = tmp_path / "ttr-germany"
    shutil.copytree(GERMANY, folder)
    tables = folder / "tables.yaml"
    tables.write_text(tables.read_text(encoding="utf-8").replace("4: 7,", "4: 9,"), encoding="utf-8")
    changed = load_game(folder)
    route = plan_example(germany, "claim", {}, HERE).placed[0][0]
    points = plan_example(changed, "claim", {"a": route.a.id, "b": route.b.id}, HERE).points
    assert points == (9 if route.length == 4 else {1: 1, 2: 2, 3: 4}.get(route.length))


def test_a_ticket_is_completed_along_its_shortest_way(germany):
    example = plan_example(germany, "ticket", {}, HERE)
    ticket = example.ticket
    assert ticket is not None and example.points == int(ticket.values["points"])
    path = example.places
    assert path[0] == ticket.values["from"].id and path[-1] == ticket_ends(ticket)[0].id
    joined = [{r.a.id, r.b.id} for r, _ in example.placed]
    assert joined == [{a, b} for a, b in zip(path, path[1:])]
    assert sum(r.length for r, _ in example.placed) == Network(germany).shortest(ticket.values["from"],
                                                                                  ticket_ends(ticket)[0])


def test_a_double_route_names_the_player_count_that_closes_it(germany):
    example = plan_example(germany, "double", {}, HERE)
    (route, _), = example.placed
    assert len(route.colors) >= 2
    few = germany.meta["all_tracks_from"] - 1
    assert f"2〜{few}人" in example.caption


@pytest.mark.parametrize("kind, query, message", [
    ("nope", {}, "no rule example 'nope'"),
    ("claim", {"a": "Berlin"}, "name both ends"),
    ("claim", {"a": "Berlin", "b": "Kiel"}, "no route between 'Berlin' and 'Kiel'"),
    ("double", {"a": "Berlin", "b": "Leipzig"}, "has one track"),
    ("ticket", {"a": "Kiel", "b": "Konstanz"}, "no ticket between"),
])
def test_mistakes_are_errors_at_the_line(germany, kind, query, message):
    with pytest.raises(ContentError, match=message) as caught:
        plan_example(germany, kind, query, HERE)
    assert caught.value.source == HERE


def test_the_picture_shows_the_board_window_the_trains_and_the_cards(germany):
    example = plan_example(germany, "claim", {}, HERE)
    form = example_form(germany, example, FaceRenderer(germany))
    needs = [f.name for f in form.needs]
    assert needs[0].startswith("board-") and len(needs) == 1 + len(example.cards)
    window = next(item for item in form.items if isinstance(item, Group))
    pieces = [i for i in window.items if isinstance(i, Polygon) and i.fill == example.player]
    assert len(pieces) == example.placed[0][0].length
    doc = Document("t")
    doc.add_form(form)
    assert set(needs) <= set(doc.forms)   # adding the example adds what it places
    again = example_form(germany, plan_example(germany, "claim", {}, HERE), FaceRenderer(germany))
    assert again.name == form.name   # the same content, the same picture


def test_the_rules_of_the_bundled_route_games_show_their_examples():
    for folder in (GERMANY, NEW_YORK):
        game = load_game(folder)
        pictures = [b for chapter in load_rules(game) for b in _walk(chapter.blocks) if isinstance(b, Picture)]
        kinds = sorted(b.example.kind for b in pictures if b.example is not None)
        assert kinds == ["claim", "double", "ticket"], folder.name
        assert all(b.caption for b in pictures if b.example is not None)


def test_a_wrong_example_in_rules_md_is_exit_2_at_its_line(tmp_path):
    folder = tmp_path / "ttr-new-york"
    shutil.copytree(NEW_YORK, folder)
    rules = folder / "rules.md"
    lines = rules.read_text(encoding="utf-8").splitlines()
    at = next(n for n, line in enumerate(lines, 1) if "example('claim')" in line)
    lines[at - 1] = "{{ example('claim', a='Chelsea', b='Nowhere') }}"
    rules.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(folder)])
    assert result.exit_code == 2, result.output
    assert f"rules.md:{at}" in result.output and "no route between 'Chelsea' and 'Nowhere'" in result.output


def _walk(blocks):
    for block in blocks:
        yield block
        for item in getattr(block, "items", []) or []:
            yield from _walk(item)


# --------------------------------------------------------------------------- the line family: a move

S_RAILWAY = ROOT / "content" / "s-railway"


@pytest.fixture(scope="module")
def s_railway():
    return load_game(S_RAILWAY)


def test_the_default_move_is_the_rulebooks_own_one_express_section_from_takadanobaba(s_railway):
    example = plan_example(s_railway, "move", {}, HERE)
    assert example.train_type.id == "express"
    assert example.places == ("takadanobaba", "saginomiya")   # the seed: one 急行 section lands on 鷺ノ宮
    assert "4駅" in example.caption and example.cards[0].values["type"].id == "express"


def test_a_move_of_several_sections_stops_at_each_stop_of_its_type(s_railway):
    example = plan_example(s_railway, "move", {"type": "local", "at": "takadanobaba", "sections": "3"}, HERE)
    assert example.places == ("takadanobaba", "shimo-ochiai", "naka-ochiai", "myoshoji")
    assert "1駅ずつ" in example.caption and "駅には止まりません" not in example.caption


@pytest.mark.parametrize("query, message", [
    ({"at": "nowhere"}, "no station 'nowhere'"),
    ({"type": "bullet"}, "no train type 'bullet'"),
    ({"type": "limited", "at": "shimo-ochiai"}, "does not stop at 'shimo-ochiai'"),
    ({"type": "limited", "sections": "3"}, "moves 1 to 2 sections, not 3"),
])
def test_move_mistakes(s_railway, query, message):
    with pytest.raises(ContentError, match=message):
        plan_example(s_railway, "move", query, HERE)


def test_a_map_example_needs_a_map_and_a_move_a_line(s_railway, germany):
    with pytest.raises(ContentError, match="has none"):
        plan_example(s_railway, "claim", {}, HERE)
    with pytest.raises(ContentError, match="line board"):
        plan_example(germany, "move", {}, HERE)


def test_the_move_strip_shows_every_station_from_start_to_end(s_railway):
    from generator.layout.examples import STRIP_SQUARE
    from generator.layout.primitives import Rect
    example = plan_example(s_railway, "move", {}, HERE)
    form = example_form(s_railway, example, FaceRenderer(s_railway))
    squares = [i for i in form.items if isinstance(i, Rect) and abs(i.w - STRIP_SQUARE) < 1e-9 and i.fill == "#ffffff"]
    assert len(squares) == 6   # 高田馬場 … 鷺ノ宮: stations 2 to 7
    assert [x.x for x in squares] == sorted(x.x for x in squares)


# --------------------------------------------------------------------------- the network family: a settled route

THURN_AND_TAXIS = ROOT / "content" / "thurn-and-taxis"


@pytest.fixture(scope="module")
def thurn_and_taxis():
    return load_game(THURN_AND_TAXIS)


def test_a_settled_route_builds_houses_in_one_area_and_takes_the_top_tiles(thurn_and_taxis):
    example = plan_example(thurn_and_taxis, "settle", {}, HERE)
    board = example.board
    cities = {p.id: p for p in board.places}
    assert len(example.places) == 5   # the shortest route-length tile is for 5 cities
    areas = {cities[p].attrs["area"].id for p in example.houses}
    assert len(areas) == 1   # one area chosen: every city of it on the route gets a house
    titles = {t.values["title"]: t.values["value"] for t in example.tiles}
    assert titles["ルート 5"] == 2   # the top of the stack [2, 1]
    area_tile = next(t for t in example.tiles if t.values.get("areas"))
    assert {c for c in example.houses} == {p.id for p in board.places if p.attrs["area"] in area_tile.values["areas"]}
    assert example.points == sum(titles.values()) and f"{example.points}点" in example.caption
    joined = [{r.a.id, r.b.id} for r, _ in example.placed]
    assert joined == [{a, b} for a, b in zip(example.places, example.places[1:])]


def test_a_named_settled_route_and_its_mistakes(thurn_and_taxis):
    example = plan_example(thurn_and_taxis, "settle", {"route": "Mannheim,Carlsruhe,Freiburg"}, HERE)
    # three cities: too short for a route-length tile, but all of Baden: its tile, the top one
    assert [(t.values["title"], t.values["value"]) for t in example.tiles] == [("バーデン", 3)]
    with pytest.raises(ContentError, match="not joined by roads"):
        plan_example(thurn_and_taxis, "settle", {"route": "Mannheim,Basel"}, HERE)
    with pytest.raises(ContentError, match="not a route of different cities"):
        plan_example(thurn_and_taxis, "settle", {"route": "Mannheim,Nowhere"}, HERE)


def test_the_settled_route_picture_shows_houses_and_tiles(thurn_and_taxis):
    example = plan_example(thurn_and_taxis, "settle", {}, HERE)
    form = example_form(thurn_and_taxis, example, FaceRenderer(thurn_and_taxis))
    assert len(form.needs) == 1 + len(example.tiles)   # the board and each tile taken
    assert all(n.name.startswith("scoring-tiles-face") for n in form.needs[1:])


def test_one_house_in_each_area_of_a_longer_route(thurn_and_taxis):
    example = plan_example(thurn_and_taxis, "settle", {"houses": "each"}, HERE)
    cities = {p.id: p for p in example.board.places}
    areas = [cities[p].attrs["area"].id for p in example.places]
    assert len(example.places) == 6 and len(set(areas)) < len(areas)   # one area passed twice: the choice shows
    assert sorted(cities[p].attrs["area"].id for p in example.houses) == sorted(set(areas))   # one house per area
    assert [t.values["title"] for t in example.tiles] == ["ルート 6"]
    with pytest.raises(ContentError, match="houses='both'"):
        plan_example(thurn_and_taxis, "settle", {"houses": "both"}, HERE)


def test_with_the_dice_the_add_ons_chapter_claims_with_dice_and_the_games_own_keeps_its_cards():
    composed = load_game(GERMANY, (ROOT / "content" / "ttr-dice",))
    with_dice = plan_example(composed, "claim", {}, HERE, addon=True)
    (route, _), = with_dice.placed
    assert with_dice.cards == () and with_dice.die.id == "white-dice"
    assert with_dice.die_sides == ("track",) * (route.length - 1) + ("locomotive",)
    assert "単線" in with_dice.caption and "機関車" in with_dice.caption
    own = plan_example(composed, "claim", {}, HERE)
    assert own.die_sides == () and len(own.cards) == route.length   # the base chapter's text speaks of cards
    form = example_form(composed, with_dice, FaceRenderer(composed))
    assert sorted(f.name.rsplit("-", 2)[0] for f in form.needs[1:]) == ["white-dice-locomotive", "white-dice-track"]


def test_the_games_claim_and_the_add_ons_claim_are_two_pictures(tmp_path):
    """Both chapters write {{ example('claim') }}: the game's shows cards, the dice add-on's dice — two pictures,
    two SVGs for the HTML page, not one picture shown twice."""
    from generator.writers.rules import picture_name
    composed = load_game(NEW_YORK, (ROOT / "content" / "ttr-dice",))
    chapters = load_rules(composed)
    claims = [b for chapter in chapters for b in _walk(chapter.blocks)
              if isinstance(b, Picture) and b.example is not None and b.example.kind == "claim"]
    assert [bool(b.example.die_sides) for b in claims] == [False, True, True]
    assert len({picture_name(b) for b in claims}) == 3
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(NEW_YORK), "--with", str(ROOT / "content" / "ttr-dice"),
                                       "--only", "html", "--no-cache", "--out", str(out)])
    assert result.exit_code == 0, result.output
    html = next(out.glob("*/ttr-new-york+ttr-dice-rules.html")).read_text(encoding="utf-8")
    assert "rules-img/example-claim-all.svg" in html and "rules-img/example-claim-addon-all.svg" in html
