"""Pictures benchmark: a deck with a full-bleed PNG on every card against the same deck without it.

    python benchmarks/images.py                 # 1,000 cards, best of 3
    python benchmarks/images.py --cards 200 --repeat 1 --keep /tmp/bench-images

Two synthetic games are written to a temporary folder, identical but for one
layout element: a deck of N cards (63 × 88 mm, 3 mm bleed, each card its own
face: a number and a name), and in ``with-art`` a full-bleed PNG (69 × 94 mm at
300 dpi: 815 × 1110 px, a colour gradient with noise, so it compresses like a
painting rather than a flat colour) under the text of every card. Each game is
built with ``pnpgen build`` in its own process (measure.measure_command: wall
time, CPU time and peak RSS); the best of --repeat runs counts. CPU time (user +
system) is printed beside wall time: on a shared machine other work stretches
wall time, not the build's own CPU time. Both builds write
everything a build writes (deck PDF, print-shop PDF, one SVG per face, …).

Target (issue 12): with-art ≤ 1.5 × without. The picture is one image XObject
per PDF (placed by every card's form) and one ``<symbol>`` per SVG file; the
script also counts the image XObjects of the deck PDF (it must be 1). Results
go to this script's section of benchmarks/results.md.
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image
from pypdf import PdfReader

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure import measure_command, write_section  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TARGET = 1.5

GAME = """game: {{title: "Bench {n}", latin: "Bench {n}", language: en, players: [2, 4]}}
include: [decks.yaml]
print:
  card: {{size: [63, 88], bleed: 3, safe: 3}}
palette:
  back: {{hex: "#1d2a44", name: "back", latin: back}}
"""

DECKS = """decks:
  cards:
    name: "Cards"
    latin: Cards
    expected: {n}
    layout: card
    back: {{layout: ttr-back, color: back, icon: star}}
    fields: {{value: int, title: text}}
    cards:
{rows}
"""

LAYOUT = """background: paper
elements:
{art}  - text: {{x: "{{{{ safe }}}}", y: "{{{{ safe }}}}", w: 30, h: 12, text: "{{{{ card.value }}}}", size: 24, bold: true}}
  - text: {{x: "{{{{ safe }}}}", y: "{{{{ H - safe - 10 }}}}", w: "{{{{ W - 2*safe }}}}", h: 8, text: "{{{{ card.title }}}}",
           size: 12, align: center}}
"""
ART = ('  - image: {src: art/background.png, x: "{{ -bleed }}", y: "{{ -bleed }}", w: "{{ W + 2*bleed }}", '
       'h: "{{ H + 2*bleed }}", fit: fill}\n')

RULES = "# Bench\n\nA benchmark game.\n"


def write_game(folder: Path, n: int, art: bool) -> None:
    (folder / "layouts").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME.format(n=n), encoding="utf-8")
    rows = "\n".join(f'      - [{i}, "Card number {i}"]' for i in range(1, n + 1))
    (folder / "decks.yaml").write_text(DECKS.format(n=n, rows=rows), encoding="utf-8")
    (folder / "layouts" / "card.yaml").write_text(LAYOUT.format(art=ART if art else ""), encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    if art:
        (folder / "art").mkdir()
        width, height = 815, 1110   # 69 × 94 mm at 300 dpi
        rng = random.Random(12)
        im = Image.new("RGB", (width, height))
        im.putdata([(int(255 * x / width), int(255 * y / height), 128 + rng.randrange(-24, 24))
                    for y in range(height) for x in range(width)])
        im.save(folder / "art" / "background.png")


def image_xobjects(pdf: Path) -> int:
    """Image XObjects in a PDF, found through every page's and form's resources, each counted once."""
    seen: set = set()

    def walk(resources):
        if not resources or "/XObject" not in resources:
            return
        for ref in resources["/XObject"].values():
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            obj = ref.get_object()
            if obj["/Subtype"] == "/Form":
                walk(obj.get("/Resources"))
            else:
                images.add(ref.idnum)

    images: set = set()
    for page in PdfReader(pdf).pages:
        walk(page.get("/Resources"))
    return len(images)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="keep the games and outputs in this folder")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-images-"))
    work.mkdir(parents=True, exist_ok=True)
    pnpgen = str(Path(sys.executable).with_name("pnpgen"))
    times: dict = {}
    cpu: dict = {}
    try:
        for name, art in (("without-art", False), ("with-art", True)):
            game = work / name
            shutil.rmtree(game, ignore_errors=True)
            write_game(game, args.cards, art)
            best = None
            for _ in range(args.repeat):
                shutil.rmtree(work / "out", ignore_errors=True)
                run = measure_command([pnpgen, "build", str(game), "--all", "--out", str(work / "out")])
                best = run if best is None or run["wall_s"] < best["wall_s"] else best
                cpu[name] = min(cpu.get(name, run["cpu_s"]), run["cpu_s"])
            times[name] = best
            if art:
                xobjects = image_xobjects(work / "out" / name / "cards.pdf")
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    ratio = times["with-art"]["wall_s"] / times["without-art"]["wall_s"]
    cpu_ratio = cpu["with-art"] / cpu["without-art"]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "unknown"
    lines = [
        f"- date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC; commit {commit}; "
        f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}",
        f"- {args.cards} cards, best of {args.repeat} (`python benchmarks/images.py`)",
        "",
        "| build | wall s (best) | CPU s (best) | peak MiB |",
        "|---|---:|---:|---:|",
        *(f"| {name} | {t['wall_s']:.2f} | {cpu[name]:.2f} | {t['peak_mib']:.0f} |" for name, t in times.items()),
        "",
        f"- ratio with/without: wall **{ratio:.2f}×**, CPU **{cpu_ratio:.2f}×** (target ≤ {TARGET}×: "
        f"{'met' if ratio <= TARGET else 'NOT met'} by wall time; CPU time is the fairer figure on a busy machine)",
        f"- image XObjects in the deck PDF: {xobjects} (one picture on {args.cards} cards)",
    ]
    text = "\n".join(lines)
    print(text)
    write_section("images", "## Pictures (benchmarks/images.py)\n\n" + text + "\n")
    return 0 if ratio <= TARGET and xobjects == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
