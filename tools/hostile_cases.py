"""Issue 9's hostile game folders, run as a person would: `pnpgen` in a fresh process per case.

Each case is a copy of tests/fixtures/mini with one hostile edit. Prints the exit status, the
seconds taken, whether a traceback appeared, and the first error line. Run it under a memory
cap to see that bound hold too:

    (ulimit -v 1500000; python tools/hostile_cases.py)

The suite pins each case (tests/test_limits.py, tests/test_containment.py, tests/test_hostile.py); this
script is for looking, and for the numbers in an issue note. The second part (round two) starts from
content/demo-artwork, which has pictures, fonts and spreadsheets to spoil.
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
ARTWORK = ROOT / "content" / "demo-artwork"
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


def case(workdir: Path, name: str, edits, command: str = "check", base: Path = MINI) -> None:
    game = workdir / f"case{len(list(workdir.iterdir()))}"
    shutil.copytree(base, game)
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
        round_two(work)


SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">{}</svg>'
#: a worksheet of two cells, A1 and XFD1000000, for a workbook that keeps it at xl/data/far.xml
FAR_SHEET = ('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">'
             '<c r="A1" t="inlineStr"><is><t>color</t></is></c></row><row r="1000000"><c r="XFD1000000"><v>1</v>'
             '</c></row></sheetData></worksheet>')


def svg(body: str):
    return "art/back.svg", lambda data: body.encode()


def broken_glyph(data: bytes) -> bytes:
    """Glyph 0 made a composite of glyph 65534, which the font has not."""
    import struct
    font = bytearray(data)
    tables = {bytes(font[12 + 16 * i:16 + 16 * i]): struct.unpack_from(">I", font, 20 + 16 * i)[0]
              for i in range(struct.unpack_from(">H", font, 4)[0])}
    struct.pack_into(">hhhhhHHbb", font, tables[b"glyf"], -1, 0, 0, 10, 10, 0, 0xFFFE, 0, 0)
    return bytes(font)


def far_xlsx(data: bytes) -> bytes:
    import io
    import zipfile
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    package = "http://schemas.openxmlformats.org/package/2006/relationships"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as book:
        book.writestr("_rels/.rels", f'<Relationships xmlns="{package}"><Relationship Id="r1" Type="{rel}/officeDocument" '
                                     'Target="xl/workbook.xml"/></Relationships>')
        book.writestr("xl/workbook.xml", '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                                         f'xmlns:r="{rel}"><sheets><sheet name="S" sheetId="1" r:id="r1"/></sheets></workbook>')
        book.writestr("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{package}"><Relationship Id="r1" '
                                                    f'Type="{rel}/worksheet" Target="data/far.xml"/></Relationships>')
        book.writestr("xl/data/far.xml", FAR_SHEET)
    return out.getvalue()


def round_two(work: Path) -> None:
    """Round two: pictures, fonts, spreadsheets, text sizes and Jinja values nested in themselves."""
    art = {"base": ARTWORK}
    case(work, "SVG of 10^6 shapes", [svg(SVG.format('<rect width="1" height="1"/>' * 1_000_000))], **art)
    case(work, "SVG 100 uses of 1,000 shapes", [svg(SVG.format(
        '<defs><g id="g">' + '<rect width="1" height="1"/>' * 1000 + '</g></defs>' + '<use xlink:href="#g"/>' * 100))], **art)
    case(work, "SVG width 1e308 (build)", [svg('<svg xmlns="http://www.w3.org/2000/svg" width="1e308" height="1e308" '
                                               'viewBox="0 0 1e-308 1e-308"><rect width="1" height="1"/></svg>')],
         "build", **art)
    case(work, "SVG scale(1e30) (build)", [svg(SVG.format('<g transform="scale(1e30)"><rect width="1" height="1"/></g>'))],
         "build", **art)
    case(work, "font with a broken glyph (build)", [("fonts/Lato-Regular.ttf", broken_glyph)], "build", **art)
    case(work, "XLSX sheet at xl/data/",
         [("cards.xlsx", far_xlsx), ("decks.yaml", replace("{from: cards.csv}", "{from: cards.xlsx}"))],
         **art)
    case(work, "text size 1e300",
         [("layouts/lantern-train.yaml", replace('motto }}", size: 8,', 'motto }}", size: 1.0e+300,'))], **art)
    case(work, "picture name of 300 bytes", [("layouts/lantern-back.yaml", replace("src: art/back.svg",
                                                                                 f"src: art/{'a' * 300}.svg"))], **art)
    case(work, "include name of 300 bytes", [("game.yaml", replace("  - palette.yaml", f"  - {'a' * 300}.yaml"))], **art)
    case(work, "rules.md emphasis 20,000 deep", [rules_text("*" * 20_000 + "x" + "*" * 20_000)])
    case(work, "rules.md 20,000 list items", [rules_text("1. x\n" * 20_000)])
    case(work, "rules.md table 200 x 2,000", [rules_text("|" + "a|" * 200 + "\n|" + "-|" * 200 + "\n"
                                                         + ("|" + "x|" * 200 + "\n") * 2000)])
    case(work, "rules.md 24,000 emphasised words", [rules_text("*a* " * 24_000)])
    game_id = f"case{len(list(work.iterdir()))}"   # the folder case() makes next
    case(work, "deck id = print-and-play file", [("decks.yaml", replace("  tickets:", f"  {game_id}-print-and-play:"))],
         "build")
    nested = "{{ [[0] * 999999] * 999999 }}"
    case(work, "layout " + nested[:25], [layout_text(nested)], "build")
    case(work, "rules.md [a, a, a] of 10^6", [rules_text("{% set a = [0] * 999999 %}{{ [a, a, a] }}")])


if __name__ == "__main__":
    main()
