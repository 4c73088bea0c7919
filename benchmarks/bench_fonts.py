"""Reading a TrueType face: ReportLab's own ``TTFont`` against ``generator.fontparse``, and a cold ``pnpgen check``.

Each figure is CPU time (user + system) in a fresh process, so that a parse is the process's first (as in
``pnpgen check``) and other work on a shared machine moves it little; runs alternate before/after and the
median and minimum are given. "Before" is the package at ``--before`` (a commit: main's, by default the
merge base with ``main``), "after" the working tree, both compiled first (``compileall``).

    python benchmarks/bench_fonts.py [--runs 7] [--before COMMIT]
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure import ROOT, git_commit, package_copy, write_section  # noqa: E402

FONTS = [ROOT / "generator" / "fonts" / "ipaexg.ttf", ROOT / "generator" / "fonts" / "BIZUDPGothic-Bold.ttf",
         ROOT / "content" / "demo-artwork" / "fonts" / "Lato-Regular.ttf"]
GAMES = ["content/ttr-germany", "content/demo-artwork"]   # pnpgen's own faces; a game's own (Lato) too
#: one parse in a fresh process, printed as CPU seconds; ``game`` adds what registering a game's font adds
PARSE = """
import sys, time
from reportlab.pdfbase.ttfonts import TTFont
from generator import fontparse
which, path, game = sys.argv[1], sys.argv[2], sys.argv[3] == "game"
start = time.process_time()
if which == "before":
    font = TTFont("F", path)
    if game:
        codes = sorted(font.face.charToGlyph)
        for at in range(0, len(codes), 256):
            font.face.makeSubset(codes[at:at + 256])
else:
    font = fontparse.Font("F", path, open(path, "rb").read())
    if game:
        fontparse.check_glyphs(font.face)
print(time.process_time() - start)
"""


#: ``pnpgen check GAME`` as ENTRY runs it, printing at exit (stderr) its CPU seconds and those spent registering faces
CHECK = """
import atexit, resource, sys, time
import generator
assert generator.__file__.startswith(sys.argv[2]), generator.__file__   # the package measured, not another
from generator import fonts
register, spent = fonts.register_file, [0.0]
def timed(*args, **kwargs):
    start = time.process_time()
    try:
        return register(*args, **kwargs)
    finally:
        spent[0] += time.process_time() - start
fonts.register_file = timed
def report():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print("CPU", usage.ru_utime + usage.ru_stime, spent[0], file=sys.stderr)
atexit.register(report)
from generator.cli import main
sys.argv = ["pnpgen", "check", sys.argv[1]]
main()
"""


def _check(tree: Path, game: str) -> tuple[float, float]:
    """(CPU seconds of a cold check of ``game`` with the package at ``tree``, of them in ``fonts.register_file``)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PNPGEN_CACHE_DIR": "off"}
    # run from the tree: ``python -c`` puts the working directory first on sys.path, ahead of PYTHONPATH
    err = subprocess.run([sys.executable, "-c", CHECK, str(ROOT / game), str(tree)], env=env, capture_output=True,
                         text=True, cwd=tree).stderr
    line = next(line for line in err.splitlines() if line.startswith("CPU "))
    _, total, fonts_s = line.split()
    return float(total), float(fonts_s)


def _parse(which: str, path: Path, game: bool) -> float:
    out = subprocess.run([sys.executable, "-c", PARSE, which, str(path), "game" if game else "face"],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout
    return float(out)


def _row(label: str, before: list[float], after: list[float], unit: float = 1000, suffix: str = "ms",
         digits: int = 0) -> str:
    def show(values: list[float]) -> str:
        return f"{statistics.median(values) * unit:.{digits}f} {suffix} (min {min(values) * unit:.{digits}f})"
    return f"| {label} | {show(before)} | {show(after)} | {statistics.median(before) / statistics.median(after):.1f}× |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--before", default=None, help="commit of the 'before' package (default: merge base with main)")
    args = parser.parse_args()
    before_commit = args.before or subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=ROOT, capture_output=True,
                                                  text=True, check=True).stdout.strip()
    rows = []
    for path in FONTS:
        game = "demo-artwork" in str(path)
        times: dict[str, list[float]] = {"before": [], "after": []}
        for _ in range(args.runs):
            for which in times:
                times[which].append(_parse(which, path, game))
        what = "parse + every glyph checked (a game's font)" if game else "parse"
        rows.append(_row(f"`{path.name}`: {what}", times["before"], times["after"]))
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"before": package_copy(Path(tmp) / "before", before_commit),
                 "after": package_copy(Path(tmp) / "after", None)}
        check_lines = []
        for game in GAMES:
            checks: dict[str, list[float]] = {"before": [], "after": []}
            registering: dict[str, list[float]] = {"before": [], "after": []}
            for _ in range(args.runs):
                for which, tree in trees.items():
                    total, fonts_s = _check(tree, game)
                    checks[which].append(total)
                    registering[which].append(fonts_s)
            rows.append(_row(f"cold `pnpgen check {game}` (process)", checks["before"], checks["after"],
                             unit=1, suffix="s", digits=2))
            rows.append(_row("… of it in `fonts.register_file` (every face it reads)", registering["before"],
                             registering["after"]))
            check_lines.append(f"- `check {game}`, CPU s per run: before "
                               f"{', '.join(f'{t:.2f}' for t in checks['before'])}; after "
                               f"{', '.join(f'{t:.2f}' for t in checks['after'])}")
    text = "\n".join([
        "## Reading a TrueType face (bench_fonts.py)",
        "",
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()} {os.cpu_count()} cores (shared "
        f"with other work), Python {platform.python_version()}; before = `{before_commit[:7]}` (ReportLab's "
        f"`TTFont`, every character subset for a game's font), after = `{git_commit()}` (`generator.fontparse`). "
        f"CPU time in a fresh process, median of {args.runs} alternating runs.",
        "",
        "| | before | after | |",
        "|---|---|---|---|",
        *rows,
        "",
        *check_lines,
    ])
    print(text)
    write_section("fonts", text)


if __name__ == "__main__":
    main()
