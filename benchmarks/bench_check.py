"""How long the rules checker takes on each bundled game.

For every game under content/ it measures, in one process:

- load       ``load_game`` (YAML, schema, model, ``points: auto``);
- checks     ``run_checks`` on the freshly loaded game (load excluded) —
             this includes laying out every card face for the print checks;
- total      load + checks;

the first repetition is *cold* (fresh font metrics and text-fitting caches,
as in a one-off ``pnpgen check``), the best of the others *warm*. It also
times each check group on the largest game, and ``pnpgen check GAME`` as a
user runs it (a fresh process: interpreter start-up and imports included).

    python benchmarks/bench_check.py              # 5 repetitions, writes the section in results.md
    python benchmarks/bench_check.py --repeat 10 --no-write

The figures replace the "Checker" section of benchmarks/results.md (the rest
of the file is left as it is).
"""
from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import generator.writers  # noqa: E402,F401  (imported by the CLI anyway; not charged to the first game)
from generator.check import catalogue, run_checks  # noqa: E402
from generator.load.game import load_game  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from measure import RESULTS, git_commit, write_section  # noqa: E402


def _timed(fn, *args):
    started = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - started


def measure_game(folder: Path, repeat: int) -> dict:
    runs = []
    for _ in range(repeat):
        game, load_s = _timed(load_game, folder)
        findings, check_s = _timed(run_checks, game)
        runs.append((load_s, check_s, load_s + check_s))
    game = load_game(folder)
    size = {"cards": sum(d.size for d in game.decks.values()), "distinct": sum(len(d.cards) for d in game.decks.values()),
            "routes": len(game.routes), "places": len(game.collections.get("place", {})),
            "findings": len(findings)}
    cold, warm = runs[0], [min(r[i] for r in runs[1:] or runs) for i in range(3)]
    return {"game": folder.name, "cold": cold, "warm": warm, **size}


def _drained(run, game) -> list:
    return list(run(game))


def per_group(folder: Path) -> dict[str, float]:
    """Seconds per check group on a freshly loaded game (the print group draws the faces)."""
    game = load_game(folder)
    groups: dict[str, float] = defaultdict(float)
    for entry in catalogue():
        _, seconds = _timed(_drained, entry.run, game)
        groups[entry.group] += seconds
    return dict(sorted(groups.items(), key=lambda kv: -kv[1]))


def cli_wall(folder: Path, repeat: int) -> float:
    pnpgen = Path(sys.executable).with_name("pnpgen")
    argv = [str(pnpgen), "check", str(folder)] if pnpgen.exists() else [sys.executable, "-m", "generator.cli", "check",
                                                                         str(folder)]
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(argv, cwd=ROOT, capture_output=True, check=False)
        best = min(best, time.perf_counter() - started)
    return best


def report(rows, groups, largest, wall, repeat) -> str:
    ms = lambda s: f"{s * 1000:.1f}"  # noqa: E731
    lines = ["## Checker (`benchmarks/bench_check.py`)", "",
             f"- {os.cpu_count()} CPUs ({platform.processor() or platform.machine()}), Python {platform.python_version()}, "
             f"pnpgen commit {git_commit()}; {repeat} repetitions in one process: cold = the first (empty caches, as a "
             f"one-off `pnpgen check`), warm = the best of the rest", "",
             "| game | cards (distinct) | places | routes | load ms cold / warm | checks ms cold / warm "
             "| load + checks ms cold / warm |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['game']} | {r['cards']} ({r['distinct']}) | {r['places']} | {r['routes']} | "
                     f"{ms(r['cold'][0])} / {ms(r['warm'][0])} | {ms(r['cold'][1])} / {ms(r['warm'][1])} | "
                     f"{ms(r['cold'][2])} / {ms(r['warm'][2])} |")
    lines += ["", f"Checks by group on {largest} (ms, warm process, fresh game): "
              + ", ".join(f"{g} {ms(s)}" for g, s in groups.items()), "",
              f"`pnpgen check content/{largest}` as a user runs it (fresh process, start-up and imports included, "
              f"best of {repeat}): {wall:.2f} s"]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-write", action="store_true", help="print only; leave results.md alone")
    args = parser.parse_args()
    games = sorted(p for p in (ROOT / "content").iterdir() if (p / "game.yaml").is_file())
    rows = [measure_game(folder, args.repeat) for folder in games]
    largest = max(rows, key=lambda r: (r["cards"] + r["routes"], r["game"]))["game"]
    groups = per_group(ROOT / "content" / largest)
    wall = cli_wall(ROOT / "content" / largest, args.repeat)
    text = report(rows, groups, largest, wall, args.repeat)
    print(text)
    if not args.no_write:
        write_section("bench_check", text)
        print(f"written to {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
