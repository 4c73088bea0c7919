"""What a check works out once and reuses (issue 14): the board plan per board and geometry, the rules once per
game, and — across runs, in the build cache — a palette's colour-blind views and a map's shortest paths, so a
check of an edited game whose palette and map did not change imports neither numpy nor rustworkx."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from types import SimpleNamespace

import pytest

import generator.load.rules as rules_module
from generator.check import colours
from generator.layout.board import plan_for_drawing
from generator.load.game import load_game
from generator.model import network as network_module
from generator.model.network import Network
from tests.conftest import FIXTURES, ROOT

PROBE = """
import sys
from generator.cli import main
try:
    main(sys.argv[1:], prog_name="pnpgen")
except SystemExit:
    pass
print("\\nMODULES", *sorted(sys.modules))
"""


def _check(folder, env) -> tuple[list[dict], set[str]]:
    """``pnpgen check FOLDER --format json`` in a fresh interpreter: its findings and the modules it imported."""
    out = subprocess.run([sys.executable, "-c", PROBE, "check", str(folder), "--format", "json"], cwd=ROOT,
                         capture_output=True, text=True, check=True, env=env)
    text, _, modules = out.stdout.rpartition("\nMODULES ")
    return json.loads(text), set(modules.split())


def _top(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_a_check_of_an_edited_game_reads_the_palette_and_map_answers_back(tmp_path):
    """First check: rustworkx and colorspacious work the answers out; a ticket's points then edited (content
    changed, map and palette not): the second check imports neither and finds the same shortest path."""
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "check-routes", game)
    env = {**os.environ, "PNPGEN_CACHE_DIR": str(tmp_path / "cache")}
    first, modules = _check(game, env)
    assert first == [] and {"rustworkx", "numpy", "colorspacious"} <= _top(modules)
    assert sorted(p.name for p in (tmp_path / "cache" / "derived").iterdir()) == ["colour-views", "network"]
    decks = game / "decks.yaml"
    decks.write_text(decks.read_text(encoding="utf-8").replace("[Bdorf, Dheim, 4]", "[Bdorf, Dheim, 5]"),
                     encoding="utf-8")
    second, modules = _check(game, env)
    assert not {"rustworkx", "numpy", "colorspacious"} & _top(modules)
    assert "generator.check.colours" in modules and "generator.check.tickets" in modules   # the checks ran
    assert [(f["code"], f["message"]) for f in second] == [
        ("PNP404", "tickets card 2: ticket Bdorf–Dheim is worth 5, the shortest path is 4 spaces (+1)")]
    cold, _ = _check(game, {**env, "PNPGEN_CACHE_DIR": "off"})
    assert cold == second


def test_palette_views_are_kept_by_palette_and_a_bad_record_is_worked_out_again(tmp_path, monkeypatch):
    monkeypatch.setenv("PNPGEN_CACHE_DIR", str(tmp_path))
    palette = ["#cc2222", "#2244cc", "#22aa44"]
    views = colours.palette_views(palette)
    assert views["#cc2222"]["deuteranomaly"] == colours.simulated("#cc2222", "deuteranomaly")

    def refused(*_args):
        raise AssertionError("simulated again")

    monkeypatch.setattr(colours, "simulated", refused)
    assert colours.palette_views(reversed(palette)) == views          # the same palette, in any order
    with pytest.raises(AssertionError, match="simulated again"):
        colours.palette_views([*palette, "#ffffff"])                  # another palette is worked out
    [record] = (tmp_path / "derived" / "colour-views").iterdir()
    record.write_text(json.dumps({"#cc2222": {"deuteranomaly": [1, "x", 3]}}), encoding="utf-8")
    with pytest.raises(AssertionError, match="simulated again"):
        colours.palette_views(palette)                                # a record of the wrong shape is not read


def _map_game(extra_route: bool = False):
    def place(pid, kind="city"):
        return SimpleNamespace(id=pid, attrs={"kind": kind})

    places = {p.id: p for p in (place("A"), place("B"), place("C"), place("T", "country"))}
    routes = [SimpleNamespace(a=places[a], b=places[b], length=n)
              for a, b, n in [("A", "T", 1), ("T", "B", 1), ("A", "C", 2), ("C", "B", 2)]]
    if extra_route:
        routes.append(SimpleNamespace(a=places["A"], b=places["B"], length=3))
    return SimpleNamespace(meta={"terminals": ["country"]}, collections={"place": places}, routes=routes), places


def test_a_maps_answers_are_kept_under_the_map_and_only_under_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PNPGEN_CACHE_DIR", str(tmp_path))
    game, places = _map_game()
    net = Network(game)
    assert net.shortest(places["A"], places["B"]) == 4
    assert net.shortest_paths(places["A"], places["B"]) == [["A", "C", "B"]]
    net.keep()

    def refused():
        raise AssertionError("rustworkx asked")

    monkeypatch.setattr(network_module, "_rustworkx", refused)
    again = Network(_map_game()[0])   # the same map, another game object: answered from the record
    assert again.shortest(places["A"], places["B"]) == 4
    assert again.shortest_paths(places["A"], places["B"]) == [["A", "C", "B"]]
    assert again.degree() == {"A": 2, "B": 2, "C": 2, "T": 2}
    changed, changed_places = _map_game(extra_route=True)
    with pytest.raises(AssertionError, match="rustworkx asked"):
        Network(changed).shortest(changed_places["A"], changed_places["B"])   # another map: not these answers


def test_the_board_is_planned_once_per_geometry():
    """The board check, the drawing and the rule examples share one plan; a place moved (as pnpgen fit moves
    one) is planned again, where it now is."""
    game = load_game(ROOT / "content" / "ttr-new-york")
    board = next(b for b in game.boards.values() if b.kind == "map")
    plan = plan_for_drawing(board)
    assert plan_for_drawing(board) is plan
    place = board.places[0]
    x, y = place.attrs["at"]
    place.attrs["at"] = (x + 5, y)
    moved = plan_for_drawing(board)
    assert moved is not plan and moved.places[place.id].center == (x + 5, y)
    place.attrs["at"] = (x, y)
    assert plan_for_drawing(board).places[place.id].center == (x, y)


def test_a_check_reads_the_rules_once(monkeypatch):
    """``pnpgen check`` reads rules.md for its mistakes and lays the rule sheet out from the same chapters."""
    from generator.cli.checking import checked_game

    calls = []
    original = rules_module.load_rules

    def counted(game):
        calls.append(game.id)
        return original(game)

    monkeypatch.setattr(rules_module, "load_rules", counted)
    game, _ = checked_game(FIXTURES / "check-routes", ())
    assert calls == [game.id]


def test_derived_records_stay_few_and_small(tmp_path, monkeypatch):
    """Each kind keeps its DERIVED_KEPT newest records; a record too large to be read back is not written."""
    from generator import cache

    monkeypatch.setenv("PNPGEN_CACHE_DIR", str(tmp_path))
    for n in range(cache.DERIVED_KEPT + 3):
        cache.keep_derived("network", [n], {"n": n})
    folder = tmp_path / "derived" / "network"
    assert len(list(folder.glob("*.json"))) == cache.DERIVED_KEPT
    assert cache.recall_derived("network", [cache.DERIVED_KEPT + 2]) == {"n": cache.DERIVED_KEPT + 2}
    cache.keep_derived("network", ["big"], {"text": "x" * cache.DERIVED_MAX_BYTES})
    assert cache.recall_derived("network", ["big"]) is None
    monkeypatch.setenv("PNPGEN_CACHE_DIR", "off")
    cache.keep_derived("network", ["off"], {"n": 1})
    assert cache.recall_derived("network", ["off"]) is None


def test_a_palette_with_a_symbol_for_every_colour_needs_no_colour_science(monkeypatch):
    """Germany marks every train colour with a symbol (gray with hatching): no pair can be reported, so none is
    simulated; take one symbol away and the pairs it is in are."""
    game = load_game(ROOT / "content" / "ttr-germany")
    asked: list[list[str]] = []
    monkeypatch.setattr(colours, "palette_views", lambda hexes: asked.append(sorted(set(hexes))) or {})
    assert list(colours.indistinct_colours(game)) == [] and asked == []
    red = game.collections["color"]["red"]
    monkeypatch.delitem(red.attrs, "symbol")
    with pytest.raises(KeyError):   # the stand-in has no views to give: the pairs with red were asked for
        list(colours.indistinct_colours(game))
    assert asked and red.hex in asked[0]
