"""All bundled games with ``pnpgen build`` (issue 14: ≤ 3 s on the 2-core machine), beside the floor.

Each run is a fresh process with the build cache off (``PNPGEN_CACHE_DIR=off``): the whole ``pnpgen build``
of every game in ``content/`` into a temporary folder (default outputs, default ``-j``), then each game on its
own with ``-j 1`` (where the time goes), and the ReportLab floor at 199 cards in the same run, since the
machine is shared and noisy. Wall time is what the target is about; CPU time (user + system, children
included) moves less with other work.

    python benchmarks/bench_games.py                 # best of 3; writes the "games" section of results.md
    python benchmarks/bench_games.py --repeat 5 --no-write
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure import git_commit, measure_command, write_section  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 3.0


def _pnpgen() -> list[str]:
    script = Path(sys.executable).with_name("pnpgen")
    return [str(script)] if script.exists() else [sys.executable, "-m", "generator.cli"]


def _best(argv: list[str], env: dict, repeat: int) -> dict:
    runs = [measure_command(argv, env=env, quiet=True) for _ in range(repeat)]
    best = min(runs, key=lambda r: r["wall_s"])
    return {**best, "cpu_best": min(r["cpu_s"] for r in runs), "runs": runs}


def measure(repeat: int) -> tuple[dict, dict, dict]:
    env = {**os.environ, "PNPGEN_CACHE_DIR": "off"}
    games = sorted(p for p in (ROOT / "content").iterdir() if (p / "game.yaml").exists())
    with tempfile.TemporaryDirectory(prefix="pnpgen-games-") as tmp:
        out = Path(tmp)
        floor = _best([sys.executable, str(ROOT / "benchmarks/floor_reportlab.py"), "--cards", "199",
                       "--out", str(out / "floor.pdf")], env, repeat)
        whole = _best([*_pnpgen(), "build", *map(str, games), "--out", str(out / "all")], env, repeat)
        each = {game.name: _best([*_pnpgen(), "build", str(game), "-j", "1", "--out", str(out / game.name)],
                                 env, repeat) for game in games}
    return floor, whole, each


def report(floor: dict, whole: dict, each: dict, repeat: int) -> str:
    holds = "HOLDS" if whole["wall_s"] <= TARGET_S else "DOES NOT HOLD"
    lines = [
        "## All bundled games (`benchmarks/bench_games.py`)",
        "",
        f"- date: {datetime.now(UTC).isoformat(timespec='seconds')}; commit {git_commit()}; nproc {os.cpu_count()}, "
        f"{platform.machine()}, Python {platform.python_version()}; load average "
        f"{os.getloadavg()[0]:.1f} at the end; cache off; best wall time of {repeat}",
        "",
        "| run | wall s | CPU s (best) | peak MiB |",
        "|---|---:|---:|---:|",
        f"| floor, 199 cards (one PDF) | {floor['wall_s']:.2f} | {floor['cpu_best']:.2f} | {floor['peak_mib']:.0f} |",
        f"| **`pnpgen build` of all {len(each)} games** | **{whole['wall_s']:.2f}** | {whole['cpu_best']:.2f} | "
        f"{whole['peak_mib']:.0f} |",
        *(f"| {name}, `-j 1` | {r['wall_s']:.2f} | {r['cpu_best']:.2f} | {r['peak_mib']:.0f} |"
          for name, r in each.items()),
        "",
        f"- Target, all games ≤ {TARGET_S:g} s wall: {holds} ({whole['wall_s']:.2f} s; the floor took "
        f"{floor['wall_s']:.2f} s in the same run).",
        "- Every run of the whole build, wall/CPU s: "
        + ", ".join(f"{r['wall_s']:.2f}/{r['cpu_s']:.2f}" for r in whole["runs"]),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only; leave results.md as it is")
    args = parser.parse_args()
    text = report(*measure(args.repeat), args.repeat)
    print(text)
    if not args.no_write:
        write_section("games", text)


if __name__ == "__main__":
    main()
