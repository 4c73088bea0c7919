"""How long a short pnpgen command takes as a process: ``--version``, ``list`` and ``check`` of Germany.

Each command runs as a fresh process (interpreter start-up, imports and the work), best of N, wall time
and CPU time (user + system of the process, which other work on a shared machine barely moves). Cold: no
content-hash cache, no warm process. pnpgen's package is copied into a temporary folder and run from
there twice: once from source with ``PYTHONDONTWRITEBYTECODE=1`` and no bytecode (every module compiled
in every process, as in a container that sets it), once after ``python -m compileall`` (what the README's
install commands do). ``--baseline COMMIT`` measures that commit's package the same way, in the same run.

    python benchmarks/startup.py                       # 5 runs each; writes the "startup" section of results.md
    python benchmarks/startup.py --baseline 80c75a6 --repeat 7
    python benchmarks/startup.py --no-write

Then warm: ``pnpgen check`` of a copy of Germany with the build cache on, after an edit (a comment added to
decks.yaml: the check's own record misses, the palette and the map are unchanged) and with nothing changed.

``--checks`` measures instead a cold ``pnpgen check`` (bytecode compiled, no build cache) of each bundled game,
of all of them at once and of a generated 1,000-card game (``bench_cards.py --write-game``), this tree and
``--baseline`` taking turns, and writes the "checkspeed" section (issue 14: Germany within 0.5 s CPU).

    python benchmarks/startup.py --checks --baseline d0a5642 --repeat 5 [--instructions]
    python benchmarks/startup.py --checks --build --section imports --baseline f9da878 --repeat 3 --instructions
    python benchmarks/startup.py --checks --section coldcheck --baseline 990c729 --repeat 3 --instructions
    python benchmarks/startup.py --checks --build --section startup2 --baseline a9dde01 --repeat 3 --instructions

``--instructions`` also counts the instructions each check executes under valgrind (cachegrind): on a machine
shared with other work, the figure that moves only with the code. ``--build`` adds a ``pnpgen build`` of the
199-card bench game; ``--section imports`` writes the figures to that section (the fixed cost of a process).
"""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from measure import ENTRY, RESULTS, git_commit, package_copy, write_section  # noqa: E402

#: the commands measured, as a user types them after ``pnpgen``
COMMANDS = (("--version",), ("list", "content/ttr-germany"), ("check", "content/ttr-germany"))
def run_once(argv: list[str], env: dict) -> tuple[float, float]:
    """(wall s, CPU s) of one process run to completion in the repository (its output discarded)."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    errors = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    if proc.returncode not in (0, 1):   # 1: a check that finds errors has still done its work
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}:\n{errors}")
    return wall, usage.ru_utime + usage.ru_stime


def _best(runs: list[tuple[float, float]]) -> dict:
    return {"wall": min(w for w, _ in runs), "cpu": min(c for _, c in runs), "runs": runs}


def measure(packages: dict[str, Path], bytecode: bool, repeat: int,
            commands: tuple[tuple[str, ...], ...] | list[tuple[str, ...]] = COMMANDS) -> dict[str, dict[str, dict]]:
    """Best wall and best CPU of each command, run from each package (compiled first if ``bytecode``) with no
    build cache; the trees take turns run by run, so a load that comes and goes on a shared machine weighs on
    them alike."""
    if bytecode:
        for package in packages.values():
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(package / "generator")], check=True)
    figures: dict[str, dict[str, dict]] = {label: {} for label in packages}
    for command in commands:
        runs: dict[str, list] = {label: [] for label in packages}
        for _ in range(repeat):
            for label, package in packages.items():
                # the build cache off: a check would otherwise print the findings recorded by an earlier run
                env = dict(os.environ, PYTHONPATH=str(package), PYTHONDONTWRITEBYTECODE="1", PNPGEN_CACHE_DIR="off")
                # -P: the working folder (the repository, for content/) is not put on sys.path before PYTHONPATH
                runs[label].append(run_once([sys.executable, "-P", "-c", ENTRY, *command], env))
        for label in packages:
            figures[label][" ".join(command)] = _best(runs[label])
    return figures


#: the game a warm check edits (a copy of it), and the file an edit touches: a card's text, say — the palette
#: and the map unchanged, so what is derived from them alone may be read back from the cache
WARM_GAME, WARM_EDIT = "content/ttr-germany", "decks.yaml"


def measure_warm(packages: dict[str, Path], scratch: Path, repeat: int) -> dict[str, dict[str, dict]]:
    """``pnpgen check`` of a copy of WARM_GAME with the build cache on (bytecode compiled), per package (each its
    own copy and cache; the trees take turns): after an edit of WARM_EDIT (the check's own record misses; what
    is derived from the palette and the map alone is kept), and with nothing changed since (the record is
    recalled). One check first fills each cache."""
    setups = {}
    for n, (label, package) in enumerate(packages.items()):
        game, cache = scratch / f"game{n}", scratch / f"cache{n}"
        shutil.copytree(ROOT / WARM_GAME, game)
        env = dict(os.environ, PYTHONPATH=str(package), PYTHONDONTWRITEBYTECODE="1", PNPGEN_CACHE_DIR=str(cache))
        argv = [sys.executable, "-P", "-c", ENTRY, "check", str(game)]
        run_once(argv, env)
        setups[label] = (game, env, argv)
    runs: dict[str, dict[str, list]] = {label: {"edited": [], "recalled": []} for label in packages}
    for n in range(repeat):
        for label, (game, env, argv) in setups.items():
            with (game / WARM_EDIT).open("a", encoding="utf-8") as stream:
                stream.write(f"# edit {n}\n")
            runs[label]["edited"].append(run_once(argv, env))
            runs[label]["recalled"].append(run_once(argv, env))
    return {label: {"check, content edited": _best(r["edited"]), "check, nothing changed": _best(r["recalled"])}
            for label, r in runs.items()}


def check_commands(scratch: Path, build: bool = False) -> list[tuple[str, ...]]:
    """``pnpgen check`` of each bundled game, of every one (no argument) and of a 1,000-card game written now;
    ``build``: also ``pnpgen build --no-cache`` of the 199-card bench game (``bench_cards.py --write-game 199``,
    the default outputs), whose fixed costs (imports, collections) weigh most against ReportLab's floor."""
    cards = scratch / "cards-1000"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_cards.py"), "--write-game", "1000", str(cards)],
                   check=True, stdout=subprocess.DEVNULL)
    games = sorted(p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").exists())
    commands = [("check", f"content/{game}") for game in games] + [("check",), ("check", str(cards))]
    if build:
        small = scratch / "cards-199"
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_cards.py"), "--write-game", "199", str(small)],
                       check=True, stdout=subprocess.DEVNULL)
        commands.append(("build", str(small), "--no-cache", "--out", str(scratch / "out")))
    return commands


def _shown(command: str) -> str:
    """A command as the report names it: the generated games by their size, not their temporary folder."""
    if command.startswith("check /"):
        return "check (1,000 cards)"
    if command.startswith("build /"):
        return "build (199 cards, default outputs)"
    return command


def count_instructions(packages: dict[str, Path], commands: list[tuple[str, ...]]) -> dict[str, dict[str, int]]:
    """Instructions each cold check executes (valgrind's cachegrind, no cache simulation): a figure that other work
    on a shared machine does not move, once per command and tree."""
    counts: dict[str, dict[str, int]] = {label: {} for label in packages}
    for command in commands:
        for label, package in packages.items():
            env = dict(os.environ, PYTHONPATH=str(package), PYTHONDONTWRITEBYTECODE="1", PNPGEN_CACHE_DIR="off")
            done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                                   sys.executable, "-P", "-c", ENTRY, *command], cwd=ROOT, env=env,
                                  capture_output=True, text=True)
            refs = [line for line in done.stderr.splitlines() if "I   refs:" in line or "I refs:" in line]
            counts[label][" ".join(command)] = int(refs[-1].rsplit(":", 1)[1].replace(",", "")) if refs else 0
    return counts


#: the heading of each section ``--checks`` may write (``--section``)
HEADINGS = {"checkspeed": "## A cold check, issue 14 (`benchmarks/startup.py --checks`, branch checkspeed)",
            "imports": "## The fixed cost of a process, issue 14 (`benchmarks/startup.py --checks --build "
                       "--section imports`, branch imports)",
            "coldcheck": "## A cold check without networkx and jsonschema, issue 14 (`benchmarks/startup.py --checks "
                         "--section coldcheck`, branch coldcheck)",
            "startup2": "## startup2: a cold check's last fixed costs, issue 14 (`benchmarks/startup.py --checks --build "
                        "--section startup2`, branch startup2)"}


def checks_report(figures: dict[str, dict], commands: list[tuple[str, ...]], repeat: int, dirty: bool,
                  instructions: dict[str, dict[str, int]] | None = None, section: str = "checkspeed") -> str:
    trees = sorted(figures, key=lambda t: t != "this tree")
    lines = [HEADINGS[section], "",
             f"- date: {datetime.now(UTC).replace(microsecond=0).isoformat()}",
             f"- machine: nproc {os.cpu_count()}, {platform.processor() or platform.machine()}, {platform.platform()}; "
             f"load average {os.getloadavg()[0]:.1f} at the end (a machine shared with other jobs)",
             f"- Python {platform.python_version()}, pnpgen commit {git_commit()}{' + uncommitted changes' if dirty else ''}",
             f"- each command a fresh process, best of {repeat}, the trees taking turns run by run; bytecode "
             "compiled (`python -m compileall -q generator`), PYTHONDONTWRITEBYTECODE=1, PNPGEN_CACHE_DIR=off; "
             "the 1,000-card game is `bench_cards.py --write-game 1000` (199: `--write-game 199`)", "",
             "| command | " + " | ".join(f"{tree} wall / CPU s" for tree in trees) + " |",
             "|---|" + "---:|" * len(trees)]
    for command in (" ".join(c) for c in commands):
        shown = _shown(command)
        cells = [f"{figures[t][command]['wall']:.2f} / {figures[t][command]['cpu']:.2f}" for t in trees]
        lines.append(f"| `pnpgen {shown}` | " + " | ".join(cells) + " |")
    if instructions:
        lines += ["", "Instructions executed (valgrind `--tool=cachegrind --cache-sim=no`, one run each; billions):", "",
                  "| command | " + " | ".join(trees) + " | change |", "|---|" + "---:|" * (len(trees) + 1)]
        for command in (" ".join(c) for c in commands):
            shown = _shown(command)
            counts = [instructions[t][command] for t in trees]
            change = f"{(counts[0] / counts[-1] - 1) * 100:+.0f} %" if len(counts) > 1 and counts[-1] else ""
            lines.append(f"| `pnpgen {shown}` | " + " | ".join(f"{n / 1e9:.2f}" for n in counts) + f" | {change} |")
    lines += ["", "Every run (wall s / CPU s):", ""]
    for tree in trees:
        for command, f in figures[tree].items():
            shown = _shown(command)
            lines.append(f"- {tree}, `{shown}`: " + ", ".join(f"{w:.2f}/{c:.2f}" for w, c in f["runs"]))
    return "\n".join(lines) + "\n"


def report(results: dict[tuple[str, str], dict], repeat: int, dirty: bool) -> str:
    trees = sorted({tree for tree, _ in results}, key=lambda t: t != "this tree")
    lines = ["## Start-up and a cold check (`benchmarks/startup.py`)", "",
             f"- date: {datetime.now(UTC).replace(microsecond=0).isoformat()}",
             f"- machine: nproc {os.cpu_count()}, {platform.processor() or platform.machine()}, {platform.platform()}; "
             f"load average {os.getloadavg()[0]:.1f} at the end",
             f"- Python {platform.python_version()}, pnpgen commit {git_commit()}{' + uncommitted changes' if dirty else ''}",
             f"- each command a fresh process, best of {repeat}: wall and CPU (user + system) seconds; the trees "
             "take turns run by run; no build cache; "
             "source = no bytecode, PYTHONDONTWRITEBYTECODE=1 (every module compiled in every process); "
             "bytecode = after `python -m compileall -q generator` (the README's install)", "",
             "| command | tree | source wall / CPU s | bytecode wall / CPU s |", "|---|---|---:|---:|"]
    for command in (" ".join(c) for c in COMMANDS):
        for tree in trees:
            if (tree, "source") not in results:
                continue
            cells = []
            for mode in ("source", "bytecode"):
                f = results[(tree, mode)][command]
                cells.append(f"{f['wall']:.2f} / {f['cpu']:.2f}")
            lines.append(f"| `pnpgen {command}` | {tree} | {cells[0]} | {cells[1]} |")
    warm = {tree: figures for (tree, mode), figures in results.items() if mode == "warm"}
    if warm:
        lines += ["", f"Warm: `pnpgen check` of a copy of {WARM_GAME} with the build cache on (bytecode), best of "
                      f"{repeat}; \"content edited\": a comment added to {WARM_EDIT} before each run (the check's "
                      "record misses, the palette and the map are unchanged); \"nothing changed\": run again after it.",
                  "", "| command | tree | wall / CPU s |", "|---|---|---:|"]
        for label in ("check, content edited", "check, nothing changed"):
            for tree in trees:
                if tree in warm:
                    f = warm[tree][label]
                    lines.append(f"| {label} | {tree} | {f['wall']:.2f} / {f['cpu']:.2f} |")
    lines += ["", "Every run (wall s / CPU s):", ""]
    for (tree, mode), figures in sorted(results.items()):
        for command, f in figures.items():
            runs = ", ".join(f"{w:.2f}/{c:.2f}" for w, c in f["runs"])
            lines.append(f"- {tree}, {mode}, `{command}`: {runs}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", metavar="COMMIT", help="also measure this commit's package (git archive)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave results.md alone")
    parser.add_argument("--checks", action="store_true",
                        help="cold checks of every bundled game and a 1,000-card game (the checkspeed section)")
    parser.add_argument("--instructions", action="store_true",
                        help="with --checks: also count each check's instructions under valgrind (minutes)")
    parser.add_argument("--build", action="store_true",
                        help="with --checks: also a `pnpgen build` of the 199-card bench game")
    parser.add_argument("--section", choices=sorted(HEADINGS), default="checkspeed",
                        help="with --checks: the section of results.md written (default: checkspeed)")
    args = parser.parse_args()
    dirty = bool(subprocess.run(["git", "status", "--porcelain", "generator", "templates"], cwd=ROOT,
                                capture_output=True, text=True).stdout.strip())
    if args.checks:
        with tempfile.TemporaryDirectory(prefix="pnpgen-checks-") as tmp:
            trees = [("this tree", None)] + ([(f"baseline {git_commit(args.baseline)}", args.baseline)]
                                             if args.baseline else [])
            packages = {label: package_copy(Path(tmp) / f"tree{n}", commit, compiled=False)
                        for n, (label, commit) in enumerate(trees)}
            commands = check_commands(Path(tmp), args.build)
            figures = measure(packages, True, args.repeat, commands)  # cold checks, bytecode compiled
            counts = count_instructions(packages, commands) if args.instructions and shutil.which("valgrind") else None
            text = checks_report(figures, commands, args.repeat, dirty, counts, args.section)
        print(text)
        if not args.no_write:
            write_section(args.section, text)
            print(f"written to {RESULTS.relative_to(ROOT)}")
        return
    results = {}
    with tempfile.TemporaryDirectory(prefix="pnpgen-startup-") as tmp:
        trees = [("this tree", None)] + ([(f"baseline {git_commit(args.baseline)}", args.baseline)] if args.baseline else [])
        packages = {label: package_copy(Path(tmp) / f"tree{n}", commit, compiled=False)
                    for n, (label, commit) in enumerate(trees)}
        for mode in ("source", "bytecode", "warm"):   # source first: compileall then writes the bytecode
            figures = (measure_warm(packages, Path(tmp) / "warm", args.repeat) if mode == "warm" else
                       measure(packages, mode == "bytecode", args.repeat))
            for label, by_command in figures.items():
                results[(label, mode)] = by_command
    text = report(results, args.repeat, dirty)
    print(text)
    if not args.no_write:
        write_section("startup", text)
        print(f"written to {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
