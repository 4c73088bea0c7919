"""Issue 9's hostile game folders, run as a person would: `pnpgen` in a fresh process per case.

Each case is a copy of tests/fixtures/mini with one hostile edit. Prints the exit status, the
seconds taken, whether a traceback appeared, and the first error line. Run it under a memory
cap to see that bound hold too:

    (ulimit -v 1500000; python tools/hostile_cases.py)

The suite pins each case (tests/test_limits.py, tests/test_containment.py, tests/test_hostile.py); this
script is for looking, and for the numbers in an issue note. The second part (round two) starts from
content/demo-artwork, which has pictures, fonts and spreadsheets to spoil. The third (round three) adds other
commands (``tickets suggest``, ``fit``, ``simulate``) and what the cache and the spreadsheet readers meet. The
fourth (round four) makes content files named pipes, and points an SVG picture's images at other files. The fifth
(round five) names a pipe, a socket or a device on the command line, builds a picture of 79 megapixels with an alpha
channel, gives ids that a Mac or Windows disk cannot keep apart or make, finite numbers too large or too small to
draw, and a game whose output folder is a folder of the designer's own. The sixth (round six) reaches outside
through a path in the model from rules.md and a layout, empties a deck from its layout, writes whole numbers of 400
digits (YAML, a spreadsheet cell, a map file to import) and 5.0 where a whole number goes, checks a map of 6,000
places with 3,000 tickets from as many starts and a game folder holding a 20 GB sparse file. The seventh (round
seven) works inside filters, calls, comparisons, macros and recursive loops, reaches objects outside pnpgen's, prints
the game's absolute folder, exports cells a spreadsheet runs as formulas, names a new game ``-rf`` and writes YAML
merge keys.
"""
from __future__ import annotations

import os
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
#: an edit that makes the file a named pipe (FIFO), which a reader that opens it waits on forever
FIFO = object()
#: an edit that makes the file a sparse file of 20 GB (a few bytes in a tar)
SPARSE = object()
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


def case(workdir: Path, name: str, edits, command: str = "check", base: Path = MINI, args=()) -> None:
    """``command`` on a copy of ``base`` with ``edits``; ``command`` may be several words (``tickets suggest``)
    and ``args`` more arguments after the game's folder (``{game}`` in one is the copy's folder)."""
    game = workdir / f"case{len(list(workdir.iterdir()))}"
    shutil.copytree(base, game)
    for file, edit in edits:
        path = game / file
        path.parent.mkdir(parents=True, exist_ok=True)
        if edit is FIFO:
            path.unlink(missing_ok=True)
            os.mkfifo(path)
            continue
        if edit is SPARSE:
            with open(path, "wb") as file:
                file.truncate(20 << 30)
            continue
        path.write_bytes(edit(path.read_bytes() if path.exists() else b""))
    extra = ["--out", str(game / "out")] if command == "build" else []
    extra += [arg.format(game=game) for arg in args]
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "generator.cli", *command.split(), str(game), *extra],
                            capture_output=True, text=True, timeout=300)
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
        round_three(work)
        round_four(work)
        round_five(work)
        round_seven(work)   # (before round six's slow maps: its cases finish in seconds)
        round_six(work)
        round_simulate(work)


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


def grid(spread: int = 40):
    """The mini game's map made a 14 × 14 grid of equal routes, places ``spread`` mm apart (2: crammed)."""
    places = "".join(f"  p{r}-{c}: {{name: P{r}-{c}, latin: P{r}-{c}, at: [{100 + spread * c}, {100 + spread * r}]}}\n"
                     for r in range(14) for c in range(14))
    routes = "".join([f"  - [p{r}-{c}, p{r}-{c + 1}, 1, red]\n" for r in range(14) for c in range(13)]
                     + [f"  - [p{r}-{c}, p{r + 1}-{c}, 1, blue]\n" for r in range(13) for c in range(14)])

    def edit(data: bytes) -> bytes:
        text = data.decode()
        return (text[:text.index("places:")] + f"places:\n{places}routes:\n{routes}tables:\n  route_scoring: {{1: 1}}\n"
                "boards:\n  grid:\n    name: G\n    latin: G\n    size: [800, 800]\n").encode()
    decks = replace("      - [Berlin, Hamburg", "      - [p0-0, p13-13, 20]\n      - [Berlin, Hamburg")

    def no_old_tickets(data: bytes) -> bytes:
        lines = decks(data).decode().split("\n")
        return "\n".join(line for line in lines if not any(city in line for city in ("Berlin", "Hamburg", "Koeln",
                                                                                    "München", "Muenchen"))).encode()
    return [("game.yaml", edit), ("decks.yaml", no_old_tickets)]


def big_png(data: bytes) -> bytes:
    import io

    from PIL import Image
    out = io.BytesIO()
    Image.linear_gradient("L").resize((9000, 8000)).convert("RGB").save(out, "PNG")
    return out.getvalue()


def shared_string_bomb(data: bytes) -> bytes:
    """An XLSX of 114 KB whose one 10 MB shared string 20,000 cells name."""
    import io
    import zipfile
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    package = "http://schemas.openxmlformats.org/package/2006/relationships"
    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr("_rels/.rels", f'<Relationships xmlns="{package}"><Relationship Id="r1" Type="{rel}/officeDocument" '
                                     'Target="xl/workbook.xml"/></Relationships>')
        book.writestr("xl/workbook.xml", f'<workbook xmlns="{ns}" xmlns:r="{rel}"><sheets><sheet name="S" sheetId="1" '
                                         'r:id="r1"/></sheets></workbook>')
        book.writestr("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{package}"><Relationship Id="r1" '
                      f'Type="{rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="r2" '
                      f'Type="{rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>')
        book.writestr("xl/sharedStrings.xml", f'<sst xmlns="{ns}"><si><t>color</t></si><si><t>{"x" * 10_000_000}</t></si></sst>')
        cells = "".join(f'<row r="{i}"><c r="A{i}" t="s"><v>1</v></c></row>' for i in range(2, 20_002))
        book.writestr("xl/worksheets/sheet1.xml", f'<worksheet xmlns="{ns}"><sheetData><row r="1"><c r="A1" t="s">'
                                                  f'<v>0</v></c></row>{cells}</sheetData></worksheet>')
    return out.getvalue()


def hidden_decks(game_yaml: bytes) -> bytes:
    return game_yaml.replace(b"include: [decks.yaml]", b"include: [.decks.yaml]")


def round_three(work: Path) -> None:
    """Round three: memory of a large picture, the ticket suggester, fit, lists grown in Jinja, spreadsheet text
    bombs, hidden content the cache does not hash, hostile numbers for simulate, and ``--compare`` names."""
    art = {"base": ARTWORK}
    case(work, "PNG of 72 megapixels (build)", [("art/card-paper.png", big_png)], "build", **art)
    case(work, "tickets suggest on a 14x14 grid", grid(), "tickets suggest")
    case(work, "fit 196 places in 26 x 26 mm", grid(2), "fit")
    case(work, "layout l.extend(l) 40 times", [layout_text("{% set l = [0] %}{% for i in range(40) %}"
                                                           "{{ l.extend(l) or '' }}{% endfor %}")], "build")
    case(work, "XLSX shared string x 20,000",
         [("cards.xlsx", shared_string_bomb), ("decks.yaml", replace("{from: cards.csv}", "{from: cards.xlsx}"))], **art)
    case(work, "include of .decks.yaml", [("game.yaml", hidden_decks), (".decks.yaml", lambda b: (MINI / "decks.yaml")
                                                                          .read_bytes())])
    case(work, "players up to 10^6 (simulate)", [("game.yaml", replace("players: [2, 5]", "players: [2, 1000000]"))],
         "simulate", base=ROOT / "content" / "ttr-germany", args=("--games", "1", "--players", "1000000"))
    case(work, "simulate --compare F@<300 chars>", [], "simulate --games 1 --compare",
         base=ROOT / "content" / "ttr-germany", args=("{game}@" + "a" * 300,))



def round_four(work: Path) -> None:
    """Round four: named pipes where content is read (each a ContentError, none opened), SVG pictures whose
    ``<image>`` names another file, and the crammed board's ``check``."""
    art = {"base": ARTWORK}
    for name in ("decks.yaml", "rules.md", "layouts/lantern-train.yaml", "cards.csv", "art/back.svg",
                 "art/card-paper.png", "fonts/Lato-Regular.ttf", "game.yaml"):
        case(work, f"FIFO {name}", [(name, FIFO)], **art)
    for href in ("http://example.com/x.png", "/etc/passwd.png", ".hidden.png", "island.svg#g"):
        case(work, f"SVG <image href={href[:20]}>", [svg(SVG.format(f'<image xlink:href="{href}" width="9" height="9"/>'))],
             **art)
    case(work, "SVG <image> of a FIFO", [("art/pipe.png", FIFO), svg(SVG.format('<image href="pipe.png" width="9" '
                                                                               'height="9"/>'))], **art)
    case(work, "check of 196 places in 40 x 40 mm", grid(3), "check")


def command_line(work: Path, name: str, special: str, argv: list[str]) -> None:
    """``pnpgen *argv`` where ``{p}`` is a named pipe, a socket or /dev/null (``special``: fifo, socket, device) and
    ``{tmp}`` a fresh folder; nothing may wait on the pipe."""
    import socket
    tmp = work / f"cli{len(list(work.iterdir()))}"
    tmp.mkdir()
    path, server = tmp / "thing.json", None
    if special == "fifo":
        os.mkfifo(path)
    elif special == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
    else:
        path = Path(os.devnull)
    start = time.perf_counter()
    try:
        result = subprocess.run([sys.executable, "-m", "generator.cli", *(a.format(p=path, tmp=tmp) for a in argv)],
                                capture_output=True, text=True, timeout=60)
    finally:
        if server is not None:
            server.close()
    seconds = time.perf_counter() - start
    output = result.stderr + result.stdout
    first = " ".join(output.split("Error:")[-1].split())
    print(f"{name:32} exit {result.returncode}  {seconds:4.1f}s  traceback={'Traceback' in output}  {first[:150]}")


def big_rgba_png(data: bytes) -> bytes:
    """A 79-megapixel PNG with an alpha channel (Pillow's reduce of RGBA copied all of it)."""
    import io

    from PIL import Image
    grey = Image.linear_gradient("L").resize((9900, 7980))
    out = io.BytesIO()
    Image.merge("RGBA", [grey, grey.transpose(Image.Transpose.ROTATE_180), grey, grey]).save(out, "PNG", compress_level=1)
    return out.getvalue()


def round_five(work: Path) -> None:
    """Round five: special files named on the command line, a 79-megapixel RGBA picture, ids a Mac or Windows disk
    cannot keep apart or make, finite numbers too large or too small to draw, an output folder of one's own."""
    mini = str(MINI)
    for special, argv in (("fifo", ["build", "{p}"]), ("fifo", ["build", mini, "--out", "{p}"]),
                          ("fifo", ["import", "{p}", "--to", "{tmp}/x"]), ("socket", ["new", "{p}"]),
                          ("device", ["check", mini, "--with", "{p}"]), ("socket", ["export", "tts", mini, "--out", "{p}"])):
        command_line(work, f"{special}: {' '.join(argv[:1] + argv[2:3] if argv[1] == mini else argv[:2])}"[:32],
                     special, argv)
    art = {"base": ARTWORK}
    case(work, "PNG 79 Mpx RGBA (build)", [("art/card-paper.png", big_rgba_png)], "build", **art)
    case(work, "deck id con", [("decks.yaml", replace("  tickets:", "  con:"))])
    case(work, "deck ids Trains and trains", [("decks.yaml", replace("  tickets:", "  Trains:"))], "build")
    case(work, "deck id ending with '.'", [("decks.yaml", replace("  tickets:", "  tickets.:"))])
    train = "layouts/lantern-train.yaml"
    case(work, "layout x: 1e308 (build)", [(train, replace("x: 7.5, y: 7.5", "x: 1.0e+308, y: 7.5"))], "build", **art)
    case(work, "layout rotate: 1e308 (build)", [(train, replace("rotate: 180", "rotate: 1.0e+308"))], "build", **art)
    case(work, "token size 1e-300", [("components.yaml", replace("size: 14", "size: 1.0e-300"))],
         base=ROOT / "content" / "ttr-germany")
    case(work, "die_size 1e-300", [("components.yaml", replace("dice: 5", "dice: 5\n    die_size: 1.0e-300"))],
         base=ROOT / "content" / "ttr-dice")
    game_id = f"case{len(list(work.iterdir()))}"   # the folder case() makes next, and its output folder's name
    case(work, "OUT/<game> holds one's own file", [(f"output/{game_id}/main.py", lambda b: b"print('mine')\n")],
         "build", args=("--out", "{game}/output"))
    case(work, "--out . with id: art (build)", [("game.yaml", replace("game:\n", "game:\n  id: art\n"))], "build",
         args=("--out", "{game}"), **art)


def chain_map(places: int, tickets: int, terminals: bool = False):
    """game.yaml's places: a chain of ``places`` joined by routes of 1 (each a terminal if ``terminals``), and a deck
    of ``tickets`` from as many starts."""
    kind = ", kind: country" if terminals else ""

    def edit(data: bytes) -> bytes:
        text = data.decode()
        rows = "".join(f"  - [P{i}, P{i + 1}, 1, red]\n" for i in range(places - 1))
        text = text.replace("places:\n", "routes:\n" + rows + "places:\n" + "".join(
            f"  P{i}: {{name: p{i}{kind}}}\n" for i in range(places)), 1)
        return text.replace("  players: [2, 4]\n", "  players: [2, 4]\n  terminals: [country]\n" if terminals
                            else "  players: [2, 4]\n").encode()

    def deck(data: bytes) -> bytes:
        text = data.decode().split("    cards:\n      - [Berlin")[0]
        return (text.replace("expected: 11", f"expected: {tickets}") + "    cards:\n" + "".join(
            f"      - [P{i}, P{places - 1 - i}, 5]\n" for i in range(tickets))).encode()
    return [("game.yaml", edit), ("decks.yaml", deck)]


def import_case(work: Path, name: str, change) -> None:
    """``pnpgen import`` of tests/test_mapio.py's map with ``change`` made to it."""
    import copy
    import json
    sys.path.insert(0, str(ROOT / "tests"))
    from test_mapio import MAP
    data = copy.deepcopy(MAP)
    change(data)
    folder = work / f"import{len(list(work.iterdir()))}"
    folder.mkdir()
    (folder / "map.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "generator.cli", "import", str(folder / "map.json"), "--to",
                             str(folder / "game")], capture_output=True, text=True, timeout=120)
    output = result.stderr + result.stdout
    first = " ".join(output.split("hint")[0].split()).replace(f"{folder}/", "")
    print(f"{name:32} exit {result.returncode}  {time.perf_counter() - start:4.1f}s  "
          f"traceback={'Traceback' in output}  {first[:150]}")


#: a 99,999-item list, then 100,000 loop turns each doing ~100,000 items of work inside one filter or call: 10**10
LOOPED = "{% set b = range(99999) | list %}{% set s = 'a ' * 499999 %}{% for i in range(100000) %}"
WORK = [LOOPED + "{{ b | sort | length }}{% endfor %}", LOOPED + "{{ b | map('string') | join | length }}{% endfor %}",
        LOOPED + "{{ b | select('gt', 10**9) | first is defined }}{% endfor %}", LOOPED + "{{ -1 in b }}{% endfor %}",
        LOOPED + "{{ b | unique | list | length }}{% endfor %}", LOOPED + "{{ s | wordwrap(5) | length }}{% endfor %}",
        LOOPED + "{{ s.split() | length }}{% endfor %}", LOOPED + "{{ loop.changed(b) }}{% endfor %}",
        "{% macro f(n) %}{% if n < 30 %}{{ f(n + 1) }}{{ f(n + 1) }}{% endif %}{% endmacro %}{{ f(1) }}",
        "{% for x in [1, 2] recursive %}{% if loop.depth < 30 %}{{ loop([1, 2]) }}{% endif %}{% endfor %}",
        "{{ lipsum(10**6) | length }}", LOOPED + "{{ [1] | batch(999999, 0) | list | length }}{% endfor %}",
        "{% set ns = namespace(x=1) %}{% for i in range(60) %}{% set ns.x = namespace(a=ns.x, b=ns.x) %}{% endfor %}"
        "{{ ns }}"]
#: a text repeated 10,000 times, each copy sorting a 10**5-item list: each evaluation within its bound, the face not
FACE_WORK = ("elements:\n  - rect: {x: 0, y: 0, w: 1, h: 1}\n  - repeat: 10000\n    text: {x: 0, y: 0, w: 40, h: 5, "
             "text: \"{{ (range(99999) | list | sort | length) + n }}\"}\n")
#: what a template must not reach: a template's self, Jinja's helpers' insides, a macro's
REACH = ["{{ self['body'] }}", "{{ cycler.__init__.__globals__ }}", "{{ joiner.__init__ }}", "{{ lipsum.__globals__ }}",
         "{% macro m() %}{% endmacro %}{{ m.arguments }}", "{{ game.folder.joinpath('x') }}"]


def printed_folder(work: Path, name: str, text: str) -> None:
    """Whether rules.md's ``text`` prints the game's absolute folder into the rule sheet's Markdown."""
    game = work / f"case{len(list(work.iterdir()))}"
    shutil.copytree(MINI, game)
    (game / "rules.md").write_text(f"# R\n\n{text}\n", encoding="utf-8")
    code = ("import sys; from pathlib import Path; from generator.load.game import load_game; "
            "from generator.load.rules import load_rules; "
            "md = load_rules(load_game(Path(sys.argv[1])))[0].markdown; print(repr(md.split(chr(10))[2][:60]), "
            "'absolute folder printed:', sys.argv[1] in md)")
    result = subprocess.run([sys.executable, "-c", code, str(game)], capture_output=True, text=True, timeout=60,
                            cwd=ROOT)
    output = (result.stdout + result.stderr).strip().replace(str(game), "<game>")
    print(f"{name:32} exit {result.returncode}  {output[-150:]}")


def formula_export(work: Path) -> None:
    """``pnpgen export csv`` of a game whose place names are formulas: the cells as written."""
    game = work / f"case{len(list(work.iterdir()))}"
    shutil.copytree(MINI, game)
    yaml = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(yaml.replace("Berlin: {name: ベルリン, latin: Berlin}",
                                                 "Berlin: {name: '=HYPERLINK(\"http://x\",\"y\")', latin: '@SUM(A1)'}"),
                                    encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "generator.cli", "export", "csv", str(game), "--out",
                             str(game / "out")], capture_output=True, text=True, timeout=60)
    places = next((game / "out").rglob("places.csv"), None)
    berlin = [line for line in places.read_text(encoding="utf-8").splitlines() if line.startswith("Berlin")] \
        if places else []
    print(f"{'export csv: formula cells':32} exit {result.returncode}  {berlin[:1]}")


def new_case(work: Path, name: str) -> None:
    folder = work / f"new{len(list(work.iterdir()))}"
    folder.mkdir()
    result = subprocess.run([sys.executable, "-m", "generator.cli", "new", "--", name], capture_output=True,
                            text=True, timeout=60, cwd=folder)
    output = result.stderr + result.stdout
    print(f"{'new ' + name[:28]:32} exit {result.returncode}  traceback={'Traceback' in output}  "
          f"made={sorted(p.name for p in folder.iterdir())[:3]}  {' '.join(output.split('hint')[0].split())[:100]}")


def merge_key(data: bytes) -> bytes:
    text = data.decode()
    text = text.replace("    back: {layout: ttr-back, color: black,", "    back: &base {layout: ttr-back, color: black,", 1)
    return text.replace("    back: {layout: ttr-back, color: ticket-back, title: チケット, latin: Tickets, icon: station}",
                        "    back:\n      <<: *base\n      color: ticket-back").encode()


def round_seven(work: Path) -> None:
    """Round seven: work inside filters, calls, comparisons, macros and recursive loops; objects outside pnpgen's;
    the game's absolute folder printed; formulas in an exported CSV; ``pnpgen new -- -rf``; YAML merge keys."""
    for template in WORK:
        shown = template.replace(LOOPED, "loop 10^5: ")
        case(work, "rules.md " + shown[:23], [rules_text(template)])
    for template in WORK[:4]:
        case(work, "layout " + template.replace(LOOPED, "loop 10^5: ")[:25], [layout_text(template)], "build")
    case(work, "layout: repeat 10^4 x sort 10^5", [("layouts/ttr-train.yaml", lambda data: FACE_WORK.encode())],
         "build")
    for template in REACH:
        case(work, "rules.md " + template[:23], [rules_text(template)])
    for text in ("{{ game.folder }}", "{{ game.source }}", "{{ game }}", "{{ [game.folder] }}", "{{ game.collections }}"):
        printed_folder(work, "rules.md prints " + text, text)
    formula_export(work)
    for name in ("-rf", "a..b", "CON", "aux.yaml", "x" * 300):
        new_case(work, name)
    case(work, "YAML merge key <<: *base", [("decks.yaml", merge_key)])


def round_six(work: Path) -> None:
    """Round six: a path in the model reached from rules.md and a layout, whole numbers of 400 digits, a map of
    6,000 places with 3,000 tickets from as many starts, a 20 GB sparse file in the game folder."""
    secret = work / "outside.txt"
    secret.write_text("outside the game\n")
    case(work, "rules.md reads a file by a path", [rules_text(f"{{{{ game.folder.joinpath('{secret}').read_text() }}}}")])
    case(work, "rules.md writes a file by a path", [rules_text(
        f"{{{{ game.folder.joinpath('{work}/written.txt').write_text('x') }}}}")])
    case(work, "layout writes a file (build)", [layout_text(
        f"{{{{ game.folder.joinpath('{work}/written.txt').write_text('x') }}}}")], "build")
    print(f"{'  (nothing written outside)':32} {not (work / 'written.txt').exists()}")
    case(work, "layout empties its deck (build)", [layout_text("{{ deck.cards.clear() or 1 }}")], "build")
    huge = "1" + "0" * 400
    case(work, "card size 10^400 (build)", [("game.yaml", replace("size: [44, 68]", f"size: [{huge}, 68]"))], "build")
    case(work, "card size 0x + 5,000 f", [("game.yaml", replace("size: [44, 68]", f"size: [0x{'f' * 5000}, 68]"))])
    case(work, "count_each: 5.0 (build)", [("components.yaml", replace("count_each: 5", "count_each: 5.0"))], "build",
         base=ROOT / "content" / "s-railway")
    case(work, "CSV points 10^400", [("tickets.csv", lambda b: f"from,to,points\nNorthport,Eastwick,{huge}\n".encode())],
         base=ARTWORK)
    import_case(work, "import: a stop at x 10^400", lambda d: d["payload"]["stops"][0].update(x=10 ** 400))
    case(work, "6,000 places, 3,000 ticket starts", chain_map(6000, 3000))
    case(work, "... each place a terminal", chain_map(6000, 3000, terminals=True))
    case(work, "a 20 GB sparse file (check)", [("notes.bin", SPARSE)])


def round_simulate(work: Path) -> None:
    """``pnpgen simulate`` on hostile maps (agree): a grid of 2,500 places, a complete graph of 200 cities, 3,000 parallel
    routes, 5,000 tickets, a 1-card train deck, 10^9 trains, a map where no one can claim. tools/hostile_simulate.py
    makes them, and with --cases runs every case above through ``simulate`` too."""
    import hostile_simulate
    for name, (make, args) in hostile_simulate.CASES.items():
        case(work, name[:32], [("game.yaml", lambda data, make=make: make().encode())], "simulate",
             args=("--players", "2", *args))


if __name__ == "__main__":
    main()
