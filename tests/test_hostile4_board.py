"""Round four, ``pnpgen check`` of a crammed board (196 places in 40 × 40 mm: 18.5 s CPU in the board geometry).
Placing names counted every obstacle each of a name's 24 spots covers, though a spot replaces the best only with
fewer: on a crammed board every spot covers dozens. Counting now stops once a spot cannot win (the same spots
are chosen: the goldens and the bundled boards' plans are unchanged); a 6 × 6 crammed grid's plan made 20,533
overlap tests, now 7,828; and a name's upright box is tested against an obstacle with its axes as four
comparisons (``_box_overlap``, the same answer as ``convex_overlap``). 196 places in 40 × 40 mm: a plan
6.3 → 2.0 s CPU."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

from generator import limits
from generator.layout import board_geometry as geo
from generator.load.game import load_game

MINI = Path(__file__).resolve().parent / "fixtures" / "mini"


def _crammed(tmp_path: Path, n: int = 6, spread: int = 3) -> Path:
    """The mini game with an n × n grid of places ``spread`` mm apart, each joined to its neighbours."""
    game = tmp_path / "crammed"
    shutil.copytree(MINI, game)
    places = "".join(f"  p{r}-{c}: {{name: P{r}-{c}, latin: P{r}-{c}, at: [{100 + spread * c}, {100 + spread * r}]}}\n"
                     for r in range(n) for c in range(n))
    routes = "".join([f"  - [p{r}-{c}, p{r}-{c + 1}, 1, red]\n" for r in range(n) for c in range(n - 1)]
                     + [f"  - [p{r}-{c}, p{r + 1}-{c}, 1, blue]\n" for r in range(n - 1) for c in range(n)])
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text[:text.index("places:")] + f"places:\n{places}routes:\n{routes}tables:\n"
                                    "  route_scoring: {1: 1}\nboards:\n  grid:\n    name: G\n    latin: G\n"
                                    "    size: [800, 800]\n", encoding="utf-8")
    decks = (game / "decks.yaml").read_text(encoding="utf-8").replace(
        "      - [Berlin, Hamburg", "      - [p0-0, p1-1, 5]\n      - [Berlin, Hamburg", 1)
    old = ("Berlin", "Hamburg", "Koeln", "München", "Muenchen")
    (game / "decks.yaml").write_text("\n".join(line for line in decks.split("\n") if not any(c in line for c in old)),
                                     encoding="utf-8")
    return game


def test_a_crammed_boards_names_are_placed_with_bounded_work(tmp_path, monkeypatch):
    board = next(iter(load_game(_crammed(tmp_path), ()).boards.values()))
    calls = []
    for name in ("convex_overlap", "_box_overlap"):   # the second: a name's box against one obstacle
        overlap = getattr(geo, name, None)

        def counting(*args, overlap=overlap, **kwargs):
            calls.append(1)
            return overlap(*args, **kwargs)
        monkeypatch.setattr(geo, name, counting, raising=False)
    plan = geo.plan_board(board)
    assert len(plan.places) == 36 and not all(p.label_clean for p in plan.places.values())
    assert len(calls) < 10_000   # 20,533 when every spot's every obstacle was tested


def test_a_box_overlaps_exactly_where_convex_overlap_says():
    """``_box_overlap`` must choose the same spots as before: the same answer on boxes against rotated quads,
    touching ones (within the 0.05 mm tolerance) included."""
    rng = random.Random(4)
    for _ in range(20_000):
        x, y = (rng.uniform(0, 20) if rng.random() < 0.5 else round(rng.uniform(0, 20), 1) for _ in range(2))
        w, h = rng.uniform(0.5, 8), rng.uniform(0.5, 8)
        box = geo._rect_quad(x, y, w, h)
        if rng.random() < 0.5:
            quad = geo._rect_quad(round(rng.uniform(0, 20), 1), round(rng.uniform(0, 20), 1), rng.uniform(0.5, 8), 5)
        else:
            quad = geo._segment_quad((rng.uniform(0, 25), rng.uniform(0, 25)), (rng.uniform(0, 25), rng.uniform(0, 25)),
                                     rng.uniform(0.5, 4))
        assert geo._box_overlap(box, quad, geo._bbox(quad)) == geo.convex_overlap(box, quad), (box, quad)


def test_past_max_name_tests_the_remaining_names_are_set_untried_and_said(tmp_path, monkeypatch):
    board = next(iter(load_game(_crammed(tmp_path), ()).boards.values()))
    monkeypatch.setattr(limits, "MAX_NAME_TESTS", 200)
    tests = []
    overlap = geo._box_overlap
    monkeypatch.setattr(geo, "_box_overlap", lambda *args: tests.append(1) or overlap(*args))
    plan = geo.plan_board(board)
    untried = [pp for pp in plan.places.values() if not pp.label_tried]
    assert untried and all(pp.label is not None and not pp.label_clean for pp in untried)
    assert 200 <= len(tests) < 200 + 24 * 200   # the name that crossed the bound finished its spots
    said = [p for p in geo.board_problems(plan) if "limits.MAX_NAME_TESTS" in p.message]
    assert sorted(p.subject for p in said) == sorted((pp.place.id,) for pp in untried)
