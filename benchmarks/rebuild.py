"""Rebuilds: what the build cache saves when nothing, or one card, changed.

For one game (default Ticket to Ride Germany, copied to a temporary folder) it times, each as its own
process (``measure.measure_command``: wall, CPU, peak memory), best of ``--repeat``:

- a cold build (cache off),
- a build with nothing changed since the last one (issue 14: ≤ 0.5 s),
- a build after one ticket's points changed (one face redrawn; the stamped PDFs are drawn again),
- a cold ``pnpgen check`` and one with nothing changed.

    python benchmarks/rebuild.py [--game content/ttr-germany] [--repeat 3] [--no-write]
"""
from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure import git_commit, measure_command, write_section  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _pnpgen() -> list[str]:
    script = Path(sys.executable).with_name("pnpgen")
    return [str(script)] if script.exists() else [sys.executable, "-m", "generator.cli"]


def _quiet(argv: list[str], env: dict) -> dict:
    return measure_command(argv, env=env, quiet=True)


def _best(runs: list[dict]) -> dict:
    return min(runs, key=lambda r: r["wall_s"])


def _edit_one_ticket(folder: Path, step: int) -> None:
    """Change the points of the first ticket row written ``[A, B, N]`` (a different value each step)."""
    for path in sorted(folder.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        match = re.search(r"- \[([^\],]+), ([^\],]+), (\d+)\]", text)
        if match:
            new = f"- [{match[1]}, {match[2]}, {int(match[3]) + (1 if step % 2 == 0 else -1)}]"
            path.write_text(text[:match.start()] + new + text[match.end():], encoding="utf-8")
            return
    raise SystemExit(f"no ticket row [A, B, N] in {folder}")


def measure(game: Path, repeat: int) -> dict:
    pnpgen = _pnpgen()
    with tempfile.TemporaryDirectory(prefix="pnpgen-rebuild-") as tmp:
        work, out, cache = Path(tmp) / game.name, Path(tmp) / "out", Path(tmp) / "cache"
        shutil.copytree(game, work, ignore=shutil.ignore_patterns("output"))
        env_on = {**os.environ, "PNPGEN_CACHE_DIR": str(cache)}
        env_off = {**os.environ, "PNPGEN_CACHE_DIR": "off"}
        build = [*pnpgen, "build", str(work), "--out", str(out)]
        check = [*pnpgen, "check", str(work)]
        figures: dict[str, dict] = {}
        figures["cold build"] = _best([_quiet(build, env_off) for _ in range(repeat)])
        _quiet(build, env_on)
        figures["nothing changed"] = _best([_quiet(build, env_on) for _ in range(repeat)])
        edits = []
        for step in range(repeat):
            _edit_one_ticket(work, step)
            edits.append(_quiet(build, env_on))
        figures["one ticket changed"] = _best(edits)
        figures["check, cold"] = _best([_quiet(check, env_off) for _ in range(repeat)])
        _quiet(check, env_on)
        figures["check, nothing changed"] = _best([_quiet(check, env_on) for _ in range(repeat)])
        return figures


def report(game: Path, figures: dict, repeat: int) -> str:
    lines = ["## Rebuilds and the build cache (`benchmarks/rebuild.py`)", "",
             f"- {game.name}; {os.cpu_count()} CPUs ({platform.processor() or platform.machine()}), Python "
             f"{platform.python_version()}, pnpgen commit {git_commit()}; each a fresh process, best wall time of {repeat}",
             "", "| run | wall s | CPU s | peak MiB |", "|---|---:|---:|---:|"]
    for name, run in figures.items():
        lines.append(f"| {name} | {run['wall_s']:.2f} | {run['cpu_s']:.2f} | {run['peak_mib']:.0f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", type=Path, default=ROOT / "content" / "ttr-germany")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only; leave results.md alone")
    args = parser.parse_args()
    text = report(args.game, measure(args.game, args.repeat), args.repeat)
    print(text)
    if not args.no_write:
        write_section("rebuild", text)


if __name__ == "__main__":
    main()
