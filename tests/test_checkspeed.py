"""A cold ``pnpgen check`` asks less (issue 14): one shortest-path search per ticket start, the ticket example's
paths only until a telling ticket is found, a name's spots tested against nearby obstacles, each board drawn
once, and a layout that is checked but not written not kept for writing — each with the same answers as before."""
from __future__ import annotations

import itertools
import random
from pathlib import Path

import networkx as nx
import pytest

from generator.check import run_checks
from generator.check.dry import check_only, laid_out
from generator.errors import Source
from generator.layout import board as board_layout
from generator.layout import board_geometry as geo
from generator.load.game import load_game
from generator.load.rules import rules_of
from generator.model import examples
from generator.model import network as network_module
from generator.model.network import Network, network, ticket_ends, tickets

CONTENT = Path(__file__).resolve().parents[1] / "content"


@pytest.fixture(scope="module")
def germany():
    return load_game(CONTENT / "ttr-germany")


def _fewest(net: Network, a: str, b: str) -> int | None:
    """The answer as networkx gives it for the pair alone: Dijkstra on the map without the terminals that are
    not the pair's own ends (what ``Network.shortest`` answered before it searched once per start)."""
    hidden = net._terminals - {a, b}
    graph = nx.Graph()
    graph.add_nodes_from(net.nodes)
    graph.add_weighted_edges_from((u, v, weight) for (u, v), weight in net.weights.items())
    view = nx.subgraph_view(graph, filter_node=lambda n: n not in hidden)
    try:
        return int(nx.dijkstra_path_length(view, a, b, weight="weight"))
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None


@pytest.mark.parametrize("game_id", ["ttr-germany", "ttr-new-york"])
def test_one_search_per_start_answers_every_pair_as_a_search_per_pair(game_id):
    """Every pair of places (terminals among them: Germany's five countries, ends but never a way through), and a
    place that is on no route, has the fewest spaces networkx finds for that pair alone, whichever end is asked first."""
    game = load_game(CONTENT / game_id)
    places = list(game.collections["place"].values())
    net = Network(game)
    assert net.nodes
    terminals = {p.id for p in places if p.id in net._terminals}
    assert (game_id == "ttr-germany") == bool(terminals)
    for a, b in itertools.product(places, repeat=2):
        assert net.shortest(a, b) == _fewest(net, a.id, b.id), (a.id, b.id)
    if terminals:   # two countries: no way between them through a third
        t1, t2 = sorted(terminals)[:2]
        assert net.shortest(game.collections["place"][t1], game.collections["place"][t2]) == _fewest(net, t1, t2)


def test_a_check_searches_once_per_ticket_start(monkeypatch, germany):
    """Germany's 89 tickets start at 28 places: the whole check (points, ranges, the rule example) asks networkx
    at most 28 single-source searches and no search per pair; the ticket example lists the shortest paths of a few
    tickets, not all 89."""
    game = load_game(CONTENT / "ttr-germany")
    starts = {card.values["from"].id for card in tickets(game)}
    assert (len(tickets(game)), len(starts)) == (89, 28)
    asked = {"single": 0, "pair": 0, "paths": 0}

    def counted(name, function):
        def count(*args, **kwargs):
            asked[name] += 1
            return function(*args, **kwargs)
        return count

    monkeypatch.setattr(network_module, "_search", counted("single", network_module._search))
    monkeypatch.setattr(nx, "dijkstra_path_length", counted("pair", nx.dijkstra_path_length))
    monkeypatch.setattr(Network, "_walk", counted("paths", Network._walk))
    net = network(game)
    for card in tickets(game):
        net.shortest_any(card.values["from"], ticket_ends(card))
    rules_of(game)
    assert 0 < asked["single"] <= len(starts)   # a pair whose other end was searched from already asks none
    assert asked["pair"] == 0
    assert 1 <= asked["paths"] <= 5


@pytest.mark.parametrize("game_id", ["ttr-germany", "ttr-new-york"])
def test_the_ticket_example_is_the_one_every_ticket_compared_would_give(game_id):
    """The ticket of three routes worth nearest 8 points: the same ticket as comparing every reachable ticket's
    first shortest path (what the example did before it stopped at the first of three routes)."""
    game = load_game(CONTENT / game_id)
    net = network(game)
    cards = [c for deck in game.decks.values() for c in deck.cards
             if c.values.get("from") is not None and len(ticket_ends(c)) == 1 and "points" in c.values]
    reachable = [c for c in cards if net.shortest(c.values["from"], ticket_ends(c)[0]) is not None]

    def telling(card):
        routes = len(net.shortest_paths(card.values["from"], ticket_ends(card)[0])[0]) - 1
        return abs(routes - 3), abs(int(card.values["points"]) - 8), card.values["from"].id, ticket_ends(card)[0].id

    expected = min(reachable, key=telling)
    chosen = examples.plan_example(game, "ticket", {}, Source(Path("rules.md"), 1))
    assert chosen.ticket is expected
    # and when no ticket takes exactly three routes, every one is compared: the nearest count wins
    fewer = [c for c in reachable if telling(c)[0] != 0]
    assert examples._chosen_ticket(fewer, net, {}, Source(Path("rules.md"), 1)) is min(fewer, key=telling)


def test_obstacles_near_a_box_are_every_one_it_may_overlap():
    """The grid hands a box every obstacle whose bounding box overlaps it (each once, in the order added), among
    boxes that straddle cell edges, sit on them and lie at negative coordinates."""
    rng = random.Random(14)
    grid = geo._Obstacles()
    quads = []
    for _ in range(300):
        x, y = rng.uniform(-40, 400), rng.uniform(-40, 300)
        w, h = rng.choice([0.5, 5.0, geo._Obstacles.CELL, 75.0]), rng.uniform(0.5, 40)
        if rng.random() < 0.2:
            x = round(x / geo._Obstacles.CELL) * geo._Obstacles.CELL   # exactly on a cell edge
        quad = geo._rect_quad(x, y, w, h)
        quads.append(quad)
        grid.add(quad)
    for _ in range(300):
        x, y = rng.uniform(-60, 420), rng.uniform(-60, 320)
        bb = geo._bbox(geo._rect_quad(x, y, rng.uniform(0.5, 90), rng.uniform(0.5, 30)))
        every = [q for q in quads if geo._bbox_overlap(bb, geo._bbox(q))]
        near = [q for _, q in grid.near(bb)]
        assert [q for q in near if geo._bbox_overlap(bb, geo._bbox(q))] == every
        assert len(near) == len(set(near)) and near == [q for q in quads if q in set(near)]


def test_a_board_is_drawn_once_per_game_and_again_when_its_plan_changes(germany):
    """The board files and the rule examples share one drawing; a board edited in place (``pnpgen fit`` moves a
    place) gets a new plan and a new drawing, which shows the move."""
    board = next(b for b in germany.boards.values() if b.kind == "map")
    form, plan = board_layout.board_form(germany, board)
    again, plan_again = board_layout.board_form(germany, board)
    assert again is form and plan_again is plan
    place = board.places[0]
    x, y = place.attrs["at"]
    place.attrs["at"] = [x + 5.0, y]
    try:
        moved, moved_plan = board_layout.board_form(germany, board)
        assert moved_plan is not plan and moved is not form
        assert moved_plan.places[place.id].center[0] == pytest.approx(plan.places[place.id].center[0] + 5.0)
    finally:
        place.attrs["at"] = [x, y]


def test_a_game_checked_and_not_built_keeps_no_layout_and_finds_the_same():
    """``pnpgen check`` (``check_only``) lays the build out without keeping it for writing; the findings are
    those of a check whose layout the build would write."""
    kept = load_game(CONTENT / "ttr-new-york")
    only = load_game(CONTENT / "ttr-new-york")
    check_only(only)

    def seen(game):
        return [(f.code, str(f.source), f.message, f.waived) for f in run_checks(game)]

    assert seen(only) == seen(kept)
    assert laid_out(kept).ctx is not None
    layout = laid_out(only)
    assert layout.ctx is None and layout.error is None and layout.marks == laid_out(kept).marks


def _telling_route_every_path(roads, cities, length, area_tiles, spread=False):
    """The settle example's route as it was chosen before (every route of the search scored in full): the oracle."""
    best, seen, steps = None, 0, 0
    area_of = {pid: cities[pid].attrs["area"].id for pid in roads}
    wanted = [({a.id for a in t.values["areas"]}, int(t.values["city_count"])) for t in area_tiles]
    after = {pid: sorted(roads[pid], reverse=True) for pid in roads}
    stack = [(pid,) for pid in sorted(roads, reverse=True)]
    while stack and seen < examples.MAX_PATHS and steps < examples.MAX_STEPS:
        steps += 1
        path = stack.pop()
        if len(path) == length:
            seen += 1
            if path[0] > path[-1]:
                continue
            held: dict[str, int] = {}
            for p in path:
                held[area_of[p]] = held.get(area_of[p], 0) + 1
            complete = any(sum(held.get(a, 0) for a in areas) == count for areas, count in wanted)
            key = (not complete, (len(held) >= length, -len(held)) if spread else (False, len(held)), path)
            best = key if best is None or key < best else best
            continue
        stack.extend(path + (n,) for n in after[path[-1]] if n not in path)
    return best[2] if best else ()


@pytest.mark.parametrize(("length", "spread", "with_tiles"), [(5, False, True), (6, True, False), (7, False, True),
                                                                (4, False, False), (8, True, True), (3, True, True)])
def test_the_settle_route_is_the_one_scoring_every_route_gives(length, spread, with_tiles):
    """Thurn and Taxis' roads: the route of ``length`` cities the example shows is the one every route of the
    search scored in full gives, the search's bound included (routes of 7 cities stop at MAX_PATHS)."""
    game = load_game(CONTENT / "thurn-and-taxis")
    board = examples._map_board(game, Source(Path("rules.md"), 1))
    cities = {p.id: p for p in board.places if p.attrs.get("area") is not None}
    roads: dict[str, set[str]] = {pid: set() for pid in cities}
    for broute in board.routes:
        a, b = broute.route.a.id, broute.route.b.id
        if a in roads and b in roads and a != b:
            roads[a].add(b)
            roads[b].add(a)
    tiles = [f for part in game.parts.values() for f in part.faces
             if f.values.get("areas") and f.values.get("city_count")] if with_tiles else []
    assert len(roads) == 22 and (len(tiles) == 16 or not with_tiles)
    found = examples._telling_route(roads, cities, length, tiles, spread)
    assert len(found) == length
    assert found == _telling_route_every_path(roads, cities, length, tiles, spread)
