"""Designer's aid (not part of the build): nudge city positions and route curves of a game's
map board until the geometry checks pass, keeping every city close to where it was, then write
the new `at:` and `{curve: …}` values back into the YAML rows they came from.

    .venv/bin/python tools/fit_board.py content/ttr-germany [iterations]

Deterministic (fixed seed); review the diff before committing, as with any generated edit.
It reads the board checks' diagnostics (PNP501–505), never their messages: each names the
routes (``(a, b, n)``) and places it concerns in ``subject``.
"""
import random
import re
import sys
from functools import partial
from pathlib import Path

from generator.check.board import board_diagnostics
from generator.layout.board_geometry import plan_board, route_keys
from generator.load.game import load_game

WEIGHT = {"PNP501": 10.0, "PNP502": 10.0, "PNP503": 12.0, "PNP504": 3.0, "PNP505": 12.0}


def cost(board, origin):
    plan = plan_board(board)
    problems = board_diagnostics(plan)
    total = sum(WEIGHT[p.code] for p in problems)
    total += sum(rp.shortfall for rp in plan.routes) * 0.5
    total += sum(abs(p.attrs["at"][0] - origin[p.id][0]) + abs(p.attrs["at"][1] - origin[p.id][1])
                 for p in board.places) * 0.01
    total += sum(abs(r.curve) for r in board.routes) * 0.005
    return total, problems


def main(folder, iterations=400):
    game = load_game(Path(folder))
    board = next(b for b in game.boards.values() if b.kind == "map")
    origin = {p.id: tuple(p.attrs["at"]) for p in board.places}
    rng = random.Random(1)
    best, problems = cost(board, origin)
    print(f"start: cost {best:.1f}, {len(problems)} problems")
    for it in range(iterations):
        if not problems:
            break
        problem = problems[rng.randrange(len(problems))]
        routes, places = concerned(problem, board)
        undo = None
        if routes and rng.random() < 0.45:
            route = rng.choice(routes)
            old = route.curve
            route.curve = round(old + rng.choice([-1, 1]) * rng.uniform(4, 14))
            undo = partial(setattr, route, "curve", old)
        else:
            if routes:
                route = rng.choice(routes)
                place = rng.choice([route.route.a, route.route.b])
            else:
                place = places[0] if places else rng.choice(board.places)
            old = place.attrs["at"]
            place.attrs["at"] = (round(old[0] + rng.gauss(0, 7)), round(old[1] + rng.gauss(0, 7)))
            undo = partial(place.attrs.__setitem__, "at", old)
        new, new_problems = cost(board, origin)
        if new < best:
            best, problems = new, new_problems
        else:
            undo()
        if it % 50 == 0:
            print(f"{it}: cost {best:.1f}, {len(problems)} problems", flush=True)
    print(f"end: cost {best:.1f}, {len(problems)} problems")
    for p in problems:
        print(f"  {p.source}: {p.message}")
    write_back(board)


def concerned(diagnostic, board):
    """The board's routes and places a diagnostic concerns, read from its ``subject``: route keys
    ``(a, b, n)`` (``route_keys``) and place ids."""
    by_key = dict(zip(route_keys(board.routes), board.routes))
    by_id = {p.id: p for p in board.places}
    routes = [by_key[s] for s in diagnostic.subject if isinstance(s, tuple) and s in by_key]
    places = [by_id[s] for s in diagnostic.subject if isinstance(s, str) and s in by_id]
    return routes, places


def write_back(board):
    files = {}
    for place in board.places:
        path = place.source.file
        lines = files.setdefault(path, path.read_text(encoding="utf-8").split("\n"))
        i = place.source.line - 1
        x, y = place.attrs["at"]
        lines[i], n = re.subn(r"at: \[[^\]]*\]", f"at: [{x:g}, {y:g}]", lines[i])
        assert n == 1, lines[i]
    for route in board.routes:
        path = route.source.file
        lines = files.setdefault(path, path.read_text(encoding="utf-8").split("\n"))
        i = route.source.line - 1
        line = re.sub(r", \{curve: [-0-9.]+\}\]$", "]", lines[i])
        if re.search(r"\{[^}]*\}\]$", line):   # other extras: leave the row to the designer
            if route.curve != route.route.extras.get("curve", 0):
                print(f"  {route.source}: set curve: {route.curve:g} by hand (the row has other extras)")
            continue
        if route.curve:
            line = line[:-1] + f", {{curve: {route.curve:g}}}]"
        lines[i] = line
    for path, lines in files.items():
        path.write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 400)
