"""A map from anyone may be a grid of equal routes: between two corners of a 14 × 14 grid there are
10,400,600 shortest paths. Listing them (ticket statistics, the ticket suggester, a rule example) must not
hang: pnpgen looks at a bounded number of them (MAX_SHORTEST_PATHS)."""
from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main
from generator.errors import Source
from generator.limits import MAX_SHORTEST_PATHS
from generator.load.game import load_game
from generator.model.examples import plan_example
from generator.model.network import Network

FIXTURES = Path(__file__).resolve().parent / "fixtures"
N = 14


def grid_game(tmp_path: Path) -> Path:
    folder = tmp_path / "grid"
    shutil.copytree(FIXTURES / "mini", folder)
    places = "\n".join(f"  p{r}-{c}: {{name: P{r}-{c}, latin: P{r}-{c}, at: [{30 + 40 * c}, {30 + 40 * r}]}}"
                       for r in range(N) for c in range(N))
    routes = "\n".join([f"  - [p{r}-{c}, p{r}-{c + 1}, 1, red]" for r in range(N) for c in range(N - 1)]
                       + [f"  - [p{r}-{c}, p{r + 1}-{c}, 1, blue]" for r in range(N - 1) for c in range(N)])
    game = (folder / "game.yaml").read_text(encoding="utf-8")
    game = game[:game.index("places:")] + f"places:\n{places}\nroutes:\n{routes}\n" \
        "tables:\n  route_scoring: {1: 1}\n" \
        f"boards:\n  grid:\n    name: グリッド\n    latin: Grid\n    size: [{60 + 40 * (N - 1)}, {60 + 40 * (N - 1)}]\n"
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    decks = (folder / "decks.yaml").read_text(encoding="utf-8")
    start = decks.index("    cards:\n      - [Berlin")
    decks = decks[:start] + "    cards:\n" + f"      - [p0-0, p{N - 1}-{N - 1}, 20]\n" + \
        "".join(f"      - [p0-{c}, p{N - 1}-{c}, 13]  # waive PNP402: a grid\n" for c in range(1, 11))
    (folder / "decks.yaml").write_text(decks, encoding="utf-8")
    return folder


def test_a_corner_to_corner_ticket_looks_at_a_bounded_number_of_paths(tmp_path):
    game = load_game(grid_game(tmp_path))
    net = Network(game)
    places = game.collections["place"]
    paths = net.shortest_paths(places["p0-0"], places[f"p{N - 1}-{N - 1}"])
    assert len(paths) == MAX_SHORTEST_PATHS and all(len(p) == 2 * N - 1 for p in paths)
    assert paths == sorted(paths)
    example = plan_example(game, "ticket", {"a": "p0-0", "b": f"p{N - 1}-{N - 1}"}, Source(None))
    assert sum(r.length for r, _ in example.placed) == 2 * (N - 1)


def test_check_and_stats_of_the_grid_finish(tmp_path):
    folder = grid_game(tmp_path)
    checked = CliRunner().invoke(main, ["check", str(folder)])
    assert checked.exit_code in (0, 1) and "Traceback" not in checked.output, checked.output
    stats = CliRunner().invoke(main, ["stats", str(folder)])
    assert stats.exit_code in (0, 1) and "Traceback" not in stats.output, stats.output
