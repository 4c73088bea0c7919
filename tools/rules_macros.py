"""Write generator/load/rules_macros.py: templates/rules/macros.md.j2 as the Python code Jinja compiles it to.

Every ``pnpgen check`` and build renders a game's rules.md after pnpgen's own macros; Jinja's parse, code
generation and compile of the macros took 0.025 s of each process. The code written here is what Jinja's
``Environment.compile`` makes of the template in the rules' sandbox (``generator.load.rules.environment``), line
for line (Jinja maps an error's line in the code back to the template's by line numbers), followed by the
template's SHA-1: ``generator.load.rules`` hands the code to Jinja (a bytecode cache) only when the template
read has that SHA-1, so a template edited without running this again is compiled as before. The file is
compiled with the package (``python -m compileall``) and never imported. tests/test_startup2.py fails when it
is not current.

    python tools/rules_macros.py            # write it
    python tools/rules_macros.py --check    # exit 1 if it is not current
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.load import rules  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not current")
    args = parser.parse_args()
    text = rules.macros_code_text()
    if args.check:
        current = rules.MACROS_CODE_FILE.is_file() and rules.MACROS_CODE_FILE.read_text(encoding="utf-8") == text
        print("current" if current else "stale: run python tools/rules_macros.py")
        return 0 if current else 1
    rules.MACROS_CODE_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {rules.MACROS_CODE_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
