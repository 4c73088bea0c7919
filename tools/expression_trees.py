"""Write generator/layout/expression_trees.marshal: the parse trees of the bundled layouts' expressions.

The first face of a deck parses every expression its layout holds (Jinja's lexer and parser, ~0.7 M instructions an
expression, 81 of them for a ticket game: 5 % of a 199-card build), and the first parse makes the lexer's dozen
regular expressions. The layouts in templates/layouts/ ship with pnpgen, so their trees are the same on every run:
written here once as plain data (``generator.layout.expressions.trees_snapshot``, marshal) and made again from it
(``tree_from``: Jinja's node classes, filled with the kept fields) by ``generator.layout.cardface``. Keyed by the
exact text, Jinja's version and the environment's parse settings: a text not in the file (a designer's own, a
bundled one edited without running this again) is parsed as before. tests/test_expression_trees.py fails when the
file is not current.

    python tools/expression_trees.py            # write it
    python tools/expression_trees.py --check    # exit 1 if it is not current
"""
from __future__ import annotations

import argparse
import marshal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.layout import cardface, expressions  # noqa: E402


def current() -> bool:
    """Whether the file keeps exactly the trees the bundled layouts' expressions parse into now."""
    file = cardface.TREES_FILE
    if not file.is_file():
        return False
    try:
        saved = marshal.loads(file.read_bytes())
    except (ValueError, EOFError, TypeError):
        return False
    # compared as data: marshal's bytes for equal data can differ (it marks objects referenced twice)
    return saved == marshal.loads(expressions.trees_snapshot(cardface._env, cardface.bundled_expressions()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not current")
    args = parser.parse_args()
    if args.check:
        ok = current()
        print("current" if ok else "stale: run python tools/expression_trees.py")
        return 0 if ok else 1
    texts = cardface.bundled_expressions()
    cardface.TREES_FILE.write_bytes(expressions.trees_snapshot(cardface._env, texts))
    print(f"wrote {cardface.TREES_FILE.relative_to(ROOT)} ({len(texts)} expressions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
