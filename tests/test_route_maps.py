"""Real route maps (issue 15): places with several points, distinct parallel routes, extras per track,
tickets with several possible ends, alternative ticket decks, a route that overlaps itself.

Each test writes a tiny game of its own (three cities and a country with two border points)."""
from __future__ import annotations

import pytest

from generator.check import run_checks
from generator.check.stats import crowding, places_without_tickets
from generator.layout.board import board_form
from generator.layout.board_geometry import board_problems, plan_board
from generator.layout.cardface import FaceRenderer
from generator.layout.primitives import Circle, Group, Text
from generator.load.game import load_game
from tests.conftest import ROOT
from tests.drawing_lib import flat

GAME = """\
game:
  title: 路線図
  latin: Route maps
  players: [2, 4]
  trains_per_player: 3
  terminals: [country]
  all_tracks_from: 4
include: [decks.yaml]
print:
  card: {size: [44, 68], bleed: 3, safe: 3}
palette:
  red: {hex: "#cc2222", name: 赤, latin: red}
  blue: {hex: "#2244cc", name: 青, latin: blue}
  locomotive: {hex: "#c9a227", name: 機関車, latin: Locomotive}
  ticket-back: "#2c5d9c"
places:
  Aa: {name: アー, latin: Aa, at: [50, 100]}
  Bb: {name: ベー, latin: Bb, at: [150, 100]}
  Cc: {name: ツェー, latin: Cc, at: [250, 60]}
  Land: {name: ラント, latin: Land, kind: country, at: {north: [150, 25], east: [280, 160]}}
routes:
  - [Aa, Bb, 3, red]
  - [Aa, Bb, 2, blue, {distinct: true, tunnel: true}]
  - [Bb, Cc, 3, blue]
  - [Bb, Land.north, 2, red]
  - [Cc, Land.east, 3, [red, blue], {ferry: [2, 1], style: [M, ""]}]
boards:
  map:
    size: [300, 200]
"""

DECKS = """\
decks:
  trains:
    name: 列車カード
    latin: Train cards
    expected: 5
    layout: ttr-train
    back: {layout: ttr-back, color: black, title: 列車, latin: Train, icon: wagon}
    vars: {wild: locomotive, wild_icon: locomotive, icon: wagon}
    fields: {color: color}
    cards:
      - {color: red, count: 2}
      - {color: blue, count: 2}
      - {color: locomotive, count: 1}
  tickets:
    name: 行き先チケット
    latin: Tickets
    expected: 2
    layout: ttr-ticket
    back: {layout: ttr-back, color: ticket-back, title: チケット, latin: Tickets, icon: station}
    vars: {color: ticket-back}
    fields: {from: place, to: place, points: int}
    cards:
      - [Aa, Cc, auto]
      - [Cc, Land, auto]
  countries:
    name: 国チケット
    latin: Country tickets
    expected: 1
    layout: ttr-ticket
    back: {layout: ttr-back, color: ticket-back, title: チケット, latin: Tickets, icon: station}
    vars: {color: ticket-back}
    fields: {from: place, to: list of place, points: int}
    cards:
      - [Aa, [Land, Cc], auto]
"""

ALTERNATIVE = """\
  tickets-1910:
    name: 行き先チケット 1910
    latin: Tickets 1910
    expected: 2
    alternative_of: tickets
    layout: ttr-ticket
    back: {layout: ttr-back, color: ticket-back, title: チケット, latin: Tickets, icon: station}
    vars: {color: ticket-back}
    fields: {from: place, to: place, points: int}
    cards:
      - [Aa, Cc, auto]
      - [Bb, Land, auto]
"""


@pytest.fixture
def routemap(tmp_path):
    folder = tmp_path / "routemap"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "decks.yaml").write_text(DECKS, encoding="utf-8")
    return folder


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _findings(folder):
    return [(f.code, f.message, f.hint) for f in run_checks(load_game(folder))]


def _route(plan, name, n=0):
    return [rp for rp in plan.routes if rp.route.name == name][n]


# ---------------------------------------------------------------- 1. several points

def test_a_place_with_named_points_is_reached_where_each_route_says(routemap):
    game = load_game(routemap)
    land = game.collections["place"]["Land"]
    assert land.attrs["at"] == (150.0, 25.0)                      # the first point is the place's `at`
    assert land.attrs["points"] == {"north": (150.0, 25.0), "east": (280.0, 160.0)}
    plan = plan_board(game.boards["map"])
    assert set(plan.places) == {"Aa", "Bb", "Cc", "Land", "Land.east"}   # a marker (and a name) per point
    assert _route(plan, "Bb – Land").path[-1] == (150.0, 25.0)
    assert _route(plan, "Cc – Land").path[-1] == (280.0, 160.0)
    assert board_problems(plan) == []
    assert _findings(routemap) == []


def test_a_route_that_names_no_point_takes_the_nearest(routemap):
    _edit(routemap / "game.yaml", "[Bb, Land.north, 2, red]", "[Bb, Land, 2, red]")
    _edit(routemap / "game.yaml", "[Cc, Land.east, 3,", "[Cc, Land, 3,")
    plan = plan_board(load_game(routemap).boards["map"])
    assert _route(plan, "Bb – Land").path[-1] == (150.0, 25.0)    # 75 mm away, the east point 141 mm
    assert _route(plan, "Cc – Land").path[-1] == (280.0, 160.0)   # 104.4 mm away, the north point 105.9


def test_a_list_of_points_is_numbered(routemap):
    _edit(routemap / "game.yaml", "at: {north: [150, 25], east: [280, 160]}", "at: [[150, 25], [280, 160]]")
    _edit(routemap / "game.yaml", "Land.north", "Land.1")
    _edit(routemap / "game.yaml", "Land.east", "Land.2")
    plan = plan_board(load_game(routemap).boards["map"])
    assert set(plan.places) == {"Aa", "Bb", "Cc", "Land", "Land.2"}
    assert _route(plan, "Cc – Land").path[-1] == (280.0, 160.0)


@pytest.mark.parametrize("old,new,message,hint", [
    ("Land.east", "Land.est", "route end 'Land.est': place 'Land' has no point 'est'", "did you mean 'east'"),
    ("Land.north", "Bb.north", "route end 'Bb.north': place 'Bb' has no point 'north'", "give Bb named points"),
    ("east: [280, 160]", "east: [380, 160]", "place 'Land' point 'east' at [380, 160] is off board 'map'", "move it inside"),
    ("east: [280, 160]", "e.ast: [280, 160]", "point name 'e.ast' cannot be used", "without dots"),
])
def test_point_mistakes_are_content_errors_at_their_line(routemap, run, tmp_path, old, new, message, hint):
    _edit(routemap / "game.yaml", old, new)
    result = run("check", routemap)
    assert result.exit_code == 2, result.output
    assert "game.yaml:" in result.stderr and message in result.stderr and hint in result.stderr
    assert "Traceback" not in result.stderr


def test_auto_points_reach_a_country_at_any_of_its_points(routemap):
    game = load_game(routemap)
    cards = {(c["from"].id, c["to"].id): c["points"] for c in game.decks["tickets"].cards}
    # Cc reaches Land at its east point (3 spaces): the north point (via Bb, 3 + 2) is longer
    assert cards == {("Aa", "Cc"): 5, ("Cc", "Land"): 3}


# ---------------------------------------------------------------- 2. distinct parallel routes

def test_distinct_parallel_routes_have_their_own_length_and_are_drawn_side_by_side(routemap):
    assert _findings(routemap) == []                              # 3 red and a 2-space blue tunnel: no PNP305
    plan = plan_board(load_game(routemap).boards["map"])
    red, tunnel = _route(plan, "Aa – Bb", 0), _route(plan, "Aa – Bb", 1)
    assert len(red.tracks[0].spaces) == 3 and len(tunnel.tracks[0].spaces) == 2
    # one bundle of two tracks: 9 mm spaces and a 1.5 mm gap, each 5.25 mm off the centre line (y = 100)
    assert red.tracks[0].path[0][1] == pytest.approx(100 - 5.25)
    assert tunnel.tracks[0].path[0][1] == pytest.approx(100 + 5.25)


def test_parallel_rows_of_different_length_not_marked_distinct_get_a_hint_to_follow(routemap):
    _edit(routemap / "game.yaml", "{distinct: true, tunnel: true}", "{tunnel: true}")
    found = [f for f in _findings(routemap) if f[0] == "PNP305"]
    assert len(found) == 1
    code, message, hint = found[0]
    assert "tracks Aa–Bb are 2 long here but 3" in message
    assert "add {distinct: true} to each row's extras" in hint and "give both rows 3 spaces" in hint


def test_rows_between_the_same_places_are_not_drawn_on_one_line(routemap):
    # two plain rows of one pair (not distinct, same length): still side by side, no crossing
    _edit(routemap / "game.yaml", "[Aa, Bb, 2, blue, {distinct: true, tunnel: true}]", "[Bb, Aa, 3, blue]")
    plan = plan_board(load_game(routemap).boards["map"])
    first, second = _route(plan, "Aa – Bb"), _route(plan, "Bb – Aa")
    assert first.tracks[0].path[0][1] == pytest.approx(94.75)
    assert second.tracks[0].path[-1][1] == pytest.approx(105.25)   # written the other way round: still the other side
    assert board_problems(plan) == []


# ---------------------------------------------------------------- 3. extras per track

def test_ferry_and_style_per_track_are_drawn_on_their_track(routemap):
    game = load_game(routemap)
    form, plan = board_form(game, game.boards["map"])
    ferry = _route(plan, "Cc – Land")
    assert (ferry.route.ferry_of(0), ferry.route.ferry_of(1)) == (2, 1)
    locomotives = [i for i in form.items if isinstance(i, Group) and i.rotate]
    assert len(locomotives) == 3                                  # 2 on the red track, 1 on the blue
    letters = [i for i in form.items if isinstance(i, Text) and i.text == "M"]
    assert len(letters) == 3                                      # the red track's 3 spaces, not the blue's
    inside = [any(_inside(quad, (t.x, t.y - 0.8)) for quad in ferry.tracks[0].spaces) for t in letters]
    assert all(inside)
    tunnel = _route(plan, "Aa – Bb", 1)
    outlined = [i for i in form.items if getattr(i, "points", None) in tunnel.tracks[0].spaces and i.fill is None]
    assert len(outlined) == 2                                     # the tunnel's own track, not the red beside it


def _inside(quad, point):
    sides = [(x2 - x1) * (point[1] - y1) - (y2 - y1) * (point[0] - x1) for (x1, y1), (x2, y2) in zip(quad, quad[1:] + quad[:1])]
    return all(s >= 0 for s in sides) or all(s <= 0 for s in sides)


@pytest.mark.parametrize("old,new,message", [
    ("{ferry: [2, 1], style: [M, \"\"]}", "{ferry: [2, 1, 1]}", "ferry of Cc – Land.east lists 3 values for 2 track(s)"),
    ("{ferry: [2, 1], style: [M, \"\"]}", "{ferry: [4, 1]}", "ferry should be the number of locomotives (0–3)"),
    ("{ferry: [2, 1], style: [M, \"\"]}", "{style: Mountain}", "style should be a letter or two"),
    ("{distinct: true, tunnel: true}", "{distinct: yes please}", "distinct should be true or false"),
])
def test_per_track_mistakes_are_content_errors(routemap, run, old, new, message):
    _edit(routemap / "game.yaml", old, new)
    result = run("check", routemap)
    assert result.exit_code == 2, result.output
    assert message in result.stderr and "Traceback" not in result.stderr


# ---------------------------------------------------------------- 4. several possible ends

def test_a_ticket_to_any_of_several_places_is_worth_its_nearest(routemap):
    _edit(routemap / "decks.yaml", "[Cc, Land, auto]", "[Cc, Aa, auto]  # waive PNP402")
    game = load_game(routemap)
    card = game.decks["countries"].cards[0]
    assert card["points"] == 4                                    # Aa–Land: 2 + 2 (tunnel, north point); Aa–Cc: 5
    assert places_without_tickets(game) == ["Bb"]                 # Land is named: as one of the possible ends


def test_checks_see_every_end_of_a_ticket(routemap):
    _edit(routemap / "decks.yaml", "[Aa, [Land, Cc], auto]", "[Aa, [Land, Cc], 7]")
    assert [(f[0], f[1]) for f in _findings(routemap)] == [
        ("PNP404", "countries card 1: ticket Aa–Land/Cc is worth 7, the shortest path to the nearest of its ends is "
                   "4 spaces (+3)")]
    _edit(routemap / "decks.yaml", "[Aa, [Land, Cc], 7]", "[Aa, [Land, Aa], 4]")
    assert [f[0] for f in _findings(routemap)] == ["PNP401"]


def test_the_ticket_card_names_every_end_and_rings_each_on_its_map(routemap):
    game = load_game(routemap)
    deck = game.decks["countries"]
    card = deck.cards[0]
    context = {"game": game, "deck": deck, "geometry": deck.geometry, "back": deck.back, "card": card}
    items = FaceRenderer(game).face(deck.layout, context, card.ref, card.source, "t").items
    texts = [i.text for i in flat(items) if isinstance(i, Text)]
    assert "ラント / ツェー" in texts and "Land / Cc" in texts
    rings = [i for i in flat(items) if isinstance(i, Circle) and i.r == 1.7]
    assert len(rings) == 3                                        # the start and both possible ends


# ---------------------------------------------------------------- 5. alternative decks

def test_reprints_in_an_alternative_deck_are_no_duplicates(routemap):
    _edit(routemap / "decks.yaml", "  countries:\n", ALTERNATIVE + "  countries:\n")
    assert _findings(routemap) == []
    _edit(routemap / "decks.yaml", "alternative_of: tickets", "alternative_of: tikets")
    found = [f for f in run_checks(load_game(routemap))]
    misspelt = [f for f in found if f.code == "PNP406"]
    assert len(misspelt) == 1 and misspelt[0].severity == "warning"
    assert misspelt[0].message == "deck 'tickets-1910' is an alternative_of 'tikets', but no other deck is in that set"
    assert "tickets" in misspelt[0].hint
    reprint = [f for f in found if f.code == "PNP402"]
    assert len(reprint) == 1 and "tickets-1910 card 1: ticket Aa–Cc (5 points) duplicates tickets card 1" in reprint[0].message
    assert reprint[0].hint.endswith("if a game plays either deck, not both, mark this one alternative_of: tickets")


def test_crowding_is_counted_per_chosen_deck(routemap):
    _edit(routemap / "decks.yaml", "  countries:\n", ALTERNATIVE + "  countries:\n")
    entries = crowding(load_game(routemap))
    assert [(e["decks"], e["players"]) for e in entries] == [
        ("tickets", 2), ("tickets", 4), ("tickets-1910", 2), ("tickets-1910", 4)]
    # with the base deck, Cc–Land runs Cc–Land.east; with 1910, Bb–Land instead: never both
    base = {r["route"] for r in entries[1]["routes"]}
    reprint = {r["route"] for r in entries[3]["routes"]}
    assert "Cc–Land" in base and "Cc–Land" not in reprint
    assert "Bb–Land" in reprint


# ---------------------------------------------------------------- 6. a route over itself

def test_a_route_whose_bends_double_back_overlaps_itself(routemap):
    _edit(routemap / "game.yaml", "  - [Bb, Cc, 3, blue]",
          "  - [Bb, Cc, 8, blue, {bends: [[240, 150], [140, 150], [200, 150]]}]")
    found = [(f[0], f[1]) for f in _findings(routemap) if f[0] == "PNP502"]
    assert ("PNP502", "route Bb – Cc overlaps itself: its path doubles back over its own spaces") in found


def test_readme_documents_route_maps():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Route maps", 1)[1].split("\n## ", 1)[0]
    for words in ("at: {north:", "Land.north", "distinct: true", "ferry: [2, 1]", "list of place", "alternative_of:", "map_rules:"):
        assert words in section


def test_points_ends_and_per_track_extras_read_back_from_exported_tables(routemap):
    from generator.export.tables import write_csv
    original = load_game(routemap)
    write_csv(original, routemap)
    text = (routemap / "game.yaml").read_text(encoding="utf-8")
    head, _ = text.split("places:\n", 1)
    (routemap / "game.yaml").write_text(head + "places: {from: places.csv}\nroutes: {from: routes.csv}\n"
                                        "boards:\n  map:\n    size: [300, 200]\n", encoding="utf-8")
    again = load_game(routemap)
    assert again.collections["place"]["Land"].attrs == original.collections["place"]["Land"].attrs
    assert [(r.a.id, r.b.id, r.ends, r.extras) for r in again.routes] == \
        [(r.a.id, r.b.id, r.ends, r.extras) for r in original.routes]


# ---------------------------------------------------------------- 7. map rules as data

MAP_RULES = """\
map_rules:
  stations: {count: 3, cost: [1, 2, 3], points_per_unused: 4}
  locomotives: {only_on: [tunnel, ferry], exchange: 4}
  tunnels: {reveal: 3}
  ferries: {locomotive_per_mark: 1}
  bonuses: {longest_path: 10, globetrotter: 15}
"""


def test_map_rules_are_read_by_checker_stats_and_rule_sheet(routemap):
    from generator.check.stats import game_stats
    from generator.load.rules import load_rules
    (routemap / "game.yaml").write_text(GAME + MAP_RULES, encoding="utf-8")
    (routemap / "rules.md").write_text("# ルール\n\n駅は {{ map_rules.stations.count }} 個、"
                                       "最長路線 {{ map_rules.bonuses.longest_path }} 点。\n", encoding="utf-8")
    game = load_game(routemap)
    assert game.map_rules.stations.cost == (1, 2, 3) and game.map_rules.exchange == 4
    assert _findings(routemap) == []                              # the tunnel and the ferry have their rules
    assert game_stats(game)["map_rules"] == {
        "stations": {"count": 3, "cards_to_build_all": 6, "points_if_none_built": 12},
        "bonuses": {"longest_path": 10, "globetrotter": 15}, "bonus_points": 25,
        "cards_per_locomotive": 4, "locomotives_only_on": ["tunnel", "ferry"]}
    assert "駅は 3 個、最長路線 10 点。" in load_rules(game)[0].markdown


def test_map_rules_that_disagree_with_the_routes_are_pnp309(routemap, run):
    rules = MAP_RULES.replace("  tunnels: {reveal: 3}\n", "")
    (routemap / "game.yaml").write_text(GAME.replace("{ferry: [2, 1], style: [M, \"\"]}", "{style: [M, \"\"]}") + rules,
                                        encoding="utf-8")
    found = [(f[0], f[1]) for f in _findings(routemap)]
    assert found == [
        ("PNP309", "route Aa–Bb is a tunnel, but map_rules says nothing about tunnels"),
        ("PNP309", "map_rules has rules for ferries, but no route is a ferry"),
        ("PNP309", "map_rules: locomotives only on ferries, but no route is a ferry")]
    (routemap / "game.yaml").write_text(GAME + MAP_RULES.replace("cost: [1, 2, 3]", "cost: [1, 2]"), encoding="utf-8")
    result = run("check", routemap)
    assert result.exit_code == 2 and "map_rules: stations cost lists 2 values for 3 stations" in result.stderr


def test_stats_prints_the_map_rules_and_crowding_per_chosen_deck(routemap, run):
    (routemap / "game.yaml").write_text(GAME + MAP_RULES, encoding="utf-8")
    _edit(routemap / "decks.yaml", "  countries:\n", ALTERNATIVE + "  countries:\n")
    result = run("stats", routemap)
    assert result.exit_code == 0, result.output
    assert "map rules: stations: {'count': 3, 'cards_to_build_all': 6, 'points_if_none_built': 12}" in result.stdout
    assert "bonus_points: 25" in result.stdout
    assert "crowding with 2 players (tickets: tickets-1910)" in result.stdout


def test_the_simulator_sees_a_distinct_route_as_a_route_of_its_own(routemap):
    from generator.simulate.rules import compile_rules
    # the simulator plays no tunnels or ferries yet: a map of plain routes, one of them distinct
    text = GAME.replace("{distinct: true, tunnel: true}", "{distinct: true}").replace(
        "{ferry: [2, 1], style: [M, \"\"]}", "{tunnel: [false, false]}")
    (routemap / "game.yaml").write_text(text + "tables:\n  route_scoring: {1: 1, 2: 2, 3: 4}\n", encoding="utf-8")
    decks = DECKS.split("  countries:\n")[0].replace("    expected: 5\n", "    expected: 5\n    role: train\n")
    (routemap / "decks.yaml").write_text(decks, encoding="utf-8")   # (it plays no multi-end tickets yet either)
    rules = compile_rules(load_game(routemap))
    lengths = [[rules.tracks[t].length for t in group] for group in rules.groups]
    assert lengths == [[3], [2], [3], [2], [3, 3]]               # Aa–Bb 3 and Aa–Bb 2 apart; Cc–Land's two tracks together
