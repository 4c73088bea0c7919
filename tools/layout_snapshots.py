"""Write generator/layout/layout_files.marshal and expression_trees.marshal: the bundled layouts, read and parsed.

The first face of a deck reads its layout's YAML (~8 M instructions a file) and parses every expression it holds
(Jinja's lexer and parser, ~0.7 M instructions an expression, 81 of them for a ticket game; the first parse also
makes the lexer's dozen regular expressions): 5 % of a 199-card build. The layouts in templates/layouts/ ship with
pnpgen, so what they read and parse into is the same on every run: written here once as plain data (marshal) and
made again from it by ``generator.layout.cardface`` (``file_from``: ``LDict``/``LList`` with their lines;
``expressions.tree_from``: Jinja's node classes, filled with the kept fields). Keyed by the exact text (a file's,
an expression's) and by the versions and settings that read them: a text not kept (a designer's own, a bundled
one edited without running this again) is read and parsed as before. tests/test_layout_snapshots.py fails when
a file is not current.

    python tools/layout_snapshots.py            # write them
    python tools/layout_snapshots.py --check    # exit 1 if one is not current
"""
from __future__ import annotations

import argparse
import marshal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.layout import cardface, expressions  # noqa: E402


def snapshots() -> dict[Path, bytes]:
    """Each snapshot file and the bytes it should hold."""
    layouts = sorted(cardface.TEMPLATE_DIR.glob("*.yaml"))
    return {cardface.FILES_FILE: marshal.dumps(cardface.files_snapshot(layouts)),
            cardface.TREES_FILE: expressions.trees_snapshot(cardface._env, cardface.bundled_expressions())}


def stale() -> list[Path]:
    """The snapshot files that do not hold what they should (compared as data: marshal's bytes for equal data
    can differ, as it marks objects referenced twice)."""
    found = []
    for file, data in snapshots().items():
        try:
            current = file.is_file() and marshal.loads(file.read_bytes()) == marshal.loads(data)
        except (ValueError, EOFError, TypeError):
            current = False
        if not current:
            found.append(file)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is not current")
    args = parser.parse_args()
    if args.check:
        files = stale()
        for file in files:
            print(f"stale: {file.relative_to(ROOT)}: run python tools/layout_snapshots.py")
        print("current" if not files else "")
        return 1 if files else 0
    for file, data in snapshots().items():
        file.write_bytes(data)
        print(f"wrote {file.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
