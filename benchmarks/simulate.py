"""How fast ``pnpgen simulate`` plays: four-player greedy games on Ticket to Ride: Germany (cards, and the dice add-on),
and greedy games of S鉄道で行こう (the line family) with 2 to 5 players.

Games per minute per core are measured in CPU time of this one process (``time.process_time``), so
other work on a shared machine does not count against it; wall time is shown too. Memory per game is
the peak of ``tracemalloc`` while one game is played (with and without the move log the referee
reads). The goal is ≥ 2,000 games per minute per core.

    python benchmarks/simulate.py                 # 500 games, writes the "Simulator" section of results.md
    python benchmarks/simulate.py --games 2000 --no-write
    python benchmarks/simulate.py --profile       # cProfile of 200 games, the 25 costliest functions
    python benchmarks/simulate.py --line-only     # S鉄道 only (the route-family table is left as it was)
"""
from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import sys
import time
import tracemalloc
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.measure import git_commit, write_section  # noqa: E402
from generator.load.game import load_game  # noqa: E402
from generator.simulate.family import compile_game  # noqa: E402
from generator.simulate.report import play_one  # noqa: E402
from generator.simulate.rules import compile_rules  # noqa: E402

GERMANY = Path(__file__).resolve().parents[1] / "content" / "ttr-germany"
DICE = Path(__file__).resolve().parents[1] / "content" / "ttr-dice"
S_RAILWAY = Path(__file__).resolve().parents[1] / "content" / "s-railway"
LINE_PLAYERS = (2, 3, 4, 5)
GOAL = 2000
VARIANTS = (("train cards", ()), ("dice add-on", (DICE,)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--line-only", action="store_true")
    args = parser.parse_args()
    bots = ["greedy"] * 4
    if args.profile:
        rules = compile_rules(load_game(GERMANY))
        cProfile.runctx("for i in range(200): play_one(rules, bots, 0, i)", globals(), locals(), "/tmp/simulate.prof")
        pstats.Stats("/tmp/simulate.prof").sort_stats("cumulative").print_stats(25)
        return
    if args.line_only:
        print("\n".join(line_table(args.games)))
        return
    lines = [
        "## Simulator",
        "",
        f"`python benchmarks/simulate.py --games {args.games}`: 4-player greedy games on ttr-germany, one process,",
        "with its train cards and with the dice add-on (`--with content/ttr-dice`).",
        f"Python {platform.python_version()}, {platform.machine()}.",
        "",
        "| figure | " + " | ".join(name for name, _ in VARIANTS) + " |",
        "|:--|" + "--:|" * len(VARIANTS),
    ]
    rows: dict[str, list[str]] = {}
    for _name, addons in VARIANTS:
        rules = compile_rules(load_game(GERMANY, addons))
        cpu, wall, turns, memory = measure(rules, bots, args.games)
        per_minute = args.games / cpu * 60
        verdict = "met" if per_minute >= GOAL else "not met"
        for label, value in (
                ("games", f"{args.games}"),
                ("CPU time", f"{cpu:.2f} s"),
                ("wall time", f"{wall:.2f} s"),
                (f"**games per minute per core** (CPU; goal ≥ {GOAL:,})", f"**{per_minute:,.0f}** ({verdict})"),
                ("ms per game (CPU)", f"{cpu / args.games * 1000:.1f}"),
                ("turns per game", f"{turns / args.games:.1f}"),
                ("peak memory per game, no log", f"{memory[False] / 1024:.0f} KiB"),
                ("peak memory per game, with the referee's log", f"{memory[True] / 1024:.0f} KiB")):
            rows.setdefault(label, []).append(value)
    lines += [f"| {label} | " + " | ".join(values) + " |" for label, values in rows.items()]
    lines += [""] + line_table(args.games)
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        write_section("simulator", text)


def measure(rules, bots: list[str], games: int) -> tuple[float, float, int, dict[bool, int]]:
    """CPU and wall seconds of ``games`` games (after one to warm up), their turns, and the peak memory of one
    game without and with the referee's log."""
    play_one(rules, bots, 0, 0)   # warm up (imports, caches)
    cpu, wall = time.process_time(), time.perf_counter()
    turns = 0
    for i in range(games):
        turns += play_one(rules, bots, 0, i).turns
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    memory = {}
    for log in (False, True):
        tracemalloc.start()
        play_one(rules, bots, 0, 1, log=log)
        memory[log] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return cpu, wall, turns, memory


def line_table(games: int) -> list[str]:
    """The line family: greedy games of S鉄道で行こう by player count, per minute per core (CPU) and memory."""
    rules = compile_game(load_game(S_RAILWAY))
    lines = [f"S鉄道で行こう (the line family, `content/s-railway`): {games} greedy games per player count, one process, "
             f"commit {git_commit()}, {date.today().isoformat()}, {platform.machine()} with {os.cpu_count()} cores.",
             "", "| figure | " + " | ".join(f"{n} players" for n in LINE_PLAYERS) + " |",
             "|:--|" + "--:|" * len(LINE_PLAYERS)]
    rows: dict[str, list[str]] = {}
    for n in LINE_PLAYERS:
        bots = ["greedy"] * n
        cpu, wall, moves, memory = measure(rules, bots, games)
        for label, value in (("CPU time", f"{cpu:.2f} s"), ("wall time", f"{wall:.2f} s"),
                             ("**games per minute per core** (CPU)", f"**{games / cpu * 60:,.0f}**"),
                             ("ms per game (CPU)", f"{cpu / games * 1000:.1f}"),
                             ("phase-2 moves per game", f"{moves / games:.1f}"),
                             ("peak memory per game, no log", f"{memory[False] / 1024:.0f} KiB"),
                             ("peak memory per game, with the referee's log", f"{memory[True] / 1024:.0f} KiB")):
            rows.setdefault(label, []).append(value)
    return lines + [f"| {label} | " + " | ".join(values) + " |" for label, values in rows.items()]


if __name__ == "__main__":
    main()
