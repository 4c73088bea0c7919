"""How time and memory grow with the card count: `pnpgen build` (the default outputs) against the floor.

    python benchmarks/bench_scale.py                       # N = 1000, 10000; best of 2
    python benchmarks/bench_scale.py --sizes 1000 10000 100000 --repeat 1

The games are bench_cards.py's (``write_game``: 110 train cards and N - 110 distinct tickets, split into decks
of at most 20,000 cards). Each command is a fresh process (``measure.measure_command``): CPU time (user +
system, which other work on a shared machine moves less than wall time), wall time and peak RSS. The build
runs with ``--no-cache`` and writes the default (home) outputs: one PDF per deck and the print-and-play file.
Replaces its own section of results.md.
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_cards import FLOOR, pnpgen_command, write_game  # noqa: E402
from measure import git_commit, measure_command, write_section  # noqa: E402


def best(argv: list[str], repeat: int, clean: Path) -> dict:
    runs = []
    for _ in range(repeat):
        shutil.rmtree(clean, ignore_errors=True) if clean.is_dir() else clean.unlink(missing_ok=True)
        runs.append(measure_command(argv, env=dict(os.environ, PNPGEN_CACHE_DIR="off"), quiet=True))
    return {"cpu_s": min(r["cpu_s"] for r in runs), "wall_s": min(r["wall_s"] for r in runs),
            "peak_mib": max(r["peak_mib"] for r in runs), "runs": runs}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="pnpgen-scale-") as tmp:
        work = Path(tmp)
        for n in args.sizes:
            game = work / f"bench-{n}"
            write_game(game, n)
            floor = best([sys.executable, str(FLOOR), "--cards", str(n), "--out", str(work / "floor.pdf")],
                         args.repeat, work / "floor.pdf")
            build = best([pnpgen_command(), "build", str(game), "--no-cache", "--out", str(work / "out")],
                         args.repeat, work / "out")
            rows.append((n, floor, build))
            print(f"N={n}: floor {floor['cpu_s']:.2f} s CPU {floor['peak_mib']:.0f} MiB; "
                  f"build {build['cpu_s']:.2f} s CPU, {build['wall_s']:.2f} s wall, {build['peak_mib']:.0f} MiB",
                  flush=True)
            shutil.rmtree(game)
    md = ["## Scaling with the card count (`benchmarks/bench_scale.py`)", "",
          f"- date: {dt.datetime.now(dt.UTC).isoformat(timespec='seconds')}; commit {git_commit()}; "
          f"nproc {os.cpu_count()}, {platform.machine()}, Python {platform.python_version()}; "
          f"load average {os.getloadavg()[0]:.1f} at the end",
          f"- `pnpgen build GAME --no-cache` (default outputs: deck PDFs + print-and-play file) and the floor "
          f"(`floor_reportlab.py`, one PDF); best CPU of {args.repeat}, peak RSS the highest", "",
          "| N | floor CPU s | build CPU s | build/floor | build wall s | build ms CPU per card | peak MiB floor / build |",
          "|---:|---:|---:|---:|---:|---:|---:|"]
    for n, floor, build in rows:
        md.append(f"| {n:,} | {floor['cpu_s']:.2f} | {build['cpu_s']:.2f} | {build['cpu_s'] / floor['cpu_s']:.1f}× | "
                  f"{build['wall_s']:.2f} | {1000 * build['cpu_s'] / n:.2f} | "
                  f"{floor['peak_mib']:.0f} / {build['peak_mib']:.0f} |")
    write_section("bench_scale", "\n".join(md))
    print("\n".join(md))


if __name__ == "__main__":
    main()
