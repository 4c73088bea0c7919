"""Issue 9's hostile game folders, run as a person would: `pnpgen` in a fresh process per case.

Each case is a copy of tests/fixtures/mini with one hostile edit. Prints the exit status, the
seconds taken, whether a traceback appeared, and the first error line. Run it under a memory
cap to see that bound hold too:

    (ulimit -v 1500000; python tools/hostile_cases.py)

The suite pins each case (tests/test_limits.py, tests/test_containment.py); this script is for
looking, and for the numbers in an issue note.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "fixtures" / "mini"
#: nine levels of aliases, each nine times the one before: 9**9 values once expanded
BOMB = "".join(f"{name}: &{name} [" + ", ".join([f"*{prev}" if prev else "x"] * 9) + "]\n"
               for prev, name in zip(["", *"abcdefgh"], "abcdefghi"))
NESTED_LOOPS = ("{% for i in range(100000) %}{% for j in range(100000) %}{% for k in range(100000) %}"
                "{% endfor %}{% endfor %}{% endfor %}{{ 0 }}")
JINJA = ["{{ 9**(9**9) }}", "{{ 'a' * 10**9 }}", NESTED_LOOPS, "{{ 'a'.center(10**9) }}", "{{ range(10**9)|list }}"]
REPEATS = ("elements:\n  - repeat: 10000\n    group:\n      elements:\n        - repeat: 10000\n"
           "          text: {x: 0, y: 0, w: 40, h: 5, text: x}\n")


def replace(old: str, new: str):
    return lambda data: data.replace(old.encode(), new.encode(), 1)


def layout_text(expression: str):
    text = (f'elements:\n  - rect: {{x: 0, y: 0, w: 1, h: 1}}\n'
            f'  - text: {{x: 0, y: 0, w: 40, h: 5, text: "{expression}"}}\n')
    return "layouts/ttr-train.yaml", lambda data: text.encode()


def rules_text(expression: str):
    return "rules.md", lambda data: f"# R\n\n{expression}\n".encode()


def not_utf8_on_line_3(data: bytes) -> bytes:
    lines = data.split(b"\n")
    lines[2] = b"    \xff" + lines[2][4:]
    return b"\n".join(lines)


def case(workdir: Path, name: str, edits, command: str = "check") -> None:
    game = workdir / f"case{len(list(workdir.iterdir()))}"
    shutil.copytree(MINI, game)
    for file, edit in edits:
        path = game / file
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(edit(path.read_bytes() if path.exists() else b""))
    extra = ["--out", str(game / "out")] if command == "build" else []
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "generator.cli", command, str(game), *extra],
                            capture_output=True, text=True, timeout=120)
    seconds = time.perf_counter() - start
    output = result.stderr + result.stdout
    first = " ".join(output.split("hint")[0].split()).replace(f"{game}/", "")
    print(f"{name:32} exit {result.returncode}  {seconds:4.1f}s  traceback={'Traceback' in output}  {first[:150]}")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="pnpgen-hostile-") as tmp:
        work = Path(tmp)
        case(work, "YAML bomb as a deck name", [("decks.yaml", lambda b: BOMB.encode() + replace(
            "    name: 列車カード", "    name: *i")(b))])
        for depth in (1000, 100000):
            case(work, f"flow nesting {depth}", [("decks.yaml", replace(
                "    name: 列車カード", "    name: " + "[" * depth + "]" * depth))])
            case(work, f"block nesting {depth}", [("decks.yaml", replace(
                "    name: 列車カード", "    name:\n      " + "- " * depth + "x"))])
        case(work, "file over 4 MB", [("decks.yaml", lambda b: b"# " + b"x" * (4 << 20) + b"\n" + b)])
        case(work, "not UTF-8 at line 3 column 5", [("decks.yaml", not_utf8_on_line_3)])
        case(work, "a deck of 10^6 cards", [("decks.yaml", replace("{color: red, count: 2}",
                                                                  "{color: red, count: 1000000}"))])
        case(work, "route length 10^6", [("game.yaml", replace(
            "places:", "routes:\n  - [Berlin, Hamburg, 1000000, red]\nplaces:"))])
        case(work, "board of 10^6 mm", [("game.yaml", replace(
            "places:", "boards:\n  b:\n    name: B\n    size: [1000000, 500]\nplaces:"))])
        case(work, "board of NaN mm", [("game.yaml", replace(
            "places:", "boards:\n  b:\n    name: B\n    size: [.nan, 500]\nplaces:"))])
        case(work, "repeat 10^4 inside repeat 10^4", [("layouts/ttr-train.yaml", lambda b: REPEATS.encode())], "build")
        for expression in JINJA:
            case(work, "layout " + expression[:25], [layout_text(expression)], "build")
            case(work, "rules.md " + expression[:23], [rules_text(expression)])


if __name__ == "__main__":
    main()
