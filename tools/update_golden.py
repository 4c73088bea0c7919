#!/usr/bin/env python3
"""Rewrite the golden outputs under tests/golden/ on purpose, and say what changed.

    python tools/update_golden.py                 # every bundled game
    python tools/update_golden.py ttr-germany     # one (several may be named)

Each game is built afresh into a temporary folder (``pnpgen build content/<game>``), its kept SVGs and PDF
summaries are rewritten, and every changed file is listed with the pages/forms and lines that differ.
Review the list (and ``git diff tests/golden``) before committing: it is what the tests will hold you to.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.golden_lib import GAMES, GOLDEN, build, write  # noqa: E402


def main(argv: list[str]) -> int:
    games = argv or GAMES
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        print(f"unknown game(s): {', '.join(unknown)}; bundled: {', '.join(GAMES)}", file=sys.stderr)
        return 2
    total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for game in games:
            changes = write(game, build(game, Path(tmp))[0])
            files = sorted({line.split(":", 1)[0] for line in changes if not line.startswith(" ")})
            total += len(files)
            print(f"{game}: {len(files)} golden file(s) changed" if files else f"{game}: unchanged")
            for line in changes:
                print("  " + line)
    print(f"{total} file(s) rewritten under {GOLDEN.relative_to(ROOT)}/" if total else "goldens already up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
