"""SVG font subsets: generator.fontsubset against fontTools' subsetter, on the same masters in one run.

    python benchmarks/bench_subsets.py               # 200 subsets per face, best of 3; writes results.md
    python benchmarks/bench_subsets.py --count 50

Each SVG a build writes embeds one TrueType subset per face it draws with (``fonts.web_subset``): a card
of Japanese and Latin text, two faces, so a 1,000-card build cuts about 2,000 of them. Both ways cut the
same subsets from the same master (a fontTools cut of the face to 400 characters, as a build cuts it to
the characters of all its SVGs) for random sets of 15-60 of them, as a ticket's text has; CPU time per
subset is reported (process time, which other work on a shared machine moves far less than wall time),
with the mean size of a subset.
"""
from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.measure import write_section  # noqa: E402
from generator import fonts, fontsubset  # noqa: E402


def _cases(count: int) -> list[tuple[bytes, frozenset[int]]]:
    rng = random.Random(14)
    cases = []
    for face, path in ((fonts.FONT_NAME, fonts.FONT_FILE), (fonts.BOLD_NAME, fonts.BOLD_FILE)):
        pool = rng.sample(sorted(fonts.charset(face)), 400)   # a game's text draws on a few hundred characters
        sets = [frozenset(rng.sample(pool, rng.randint(15, 60))) for _ in range(count)]
        master = fonts._subset(path.read_bytes(), frozenset().union(*sets), None, glyph_names=True)
        cases += [(master, wanted) for wanted in sets]
    return cases


def _best(repeat: int, run) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="subsets per face")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    fonts.register()
    cases = _cases(args.count)
    parsed = {id(master): fontsubset.parse(master) for master, _ in cases}
    ours = [fontsubset.subset(parsed[id(m)], w) for m, w in cases]
    theirs = [fonts._subset(m, w, None, glyph_names=False) for m, w in cases]
    direct = _best(args.repeat, lambda: [fontsubset.subset(parsed[id(m)], w) for m, w in cases]) / len(cases)
    tools = _best(args.repeat, lambda: [fonts._subset(m, w, None, glyph_names=False) for m, w in cases]) / len(cases)
    rows = [("fontsubset (direct)", direct, sum(map(len, ours)) / len(ours)),
            ("fontTools subsetter", tools, sum(map(len, theirs)) / len(theirs))]
    lines = ["## SVG font subsets (`benchmarks/bench_subsets.py`)", "",
             f"{time.strftime('%Y-%m-%d')}, {platform.python_version()}, {len(cases)} subsets "
             f"(IPAexGothic and BIZ UDPGothic Bold, 15-60 of 400 characters each), CPU time, best of {args.repeat}:", "",
             "| way | ms per subset | mean bytes |", "|---|---|---|"]
    lines += [f"| {name} | {ms * 1000:.2f} | {size:.0f} |" for name, ms, size in rows]
    lines += ["", f"fontsubset is {tools / direct:.1f}× faster."]
    print("\n".join(lines))
    write_section("bench_subsets", "\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
