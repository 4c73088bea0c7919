"""A small build's fixed cost (issue 14, branch startup3): pnpgen's own faces read back from snapshots
(``tools/font_faces.py``) instead of parsed in every build, their files mapped rather than copied, and what a
build imports only when the game uses it. Import cases run in a fresh interpreter (``tests.test_startup``)."""
from __future__ import annotations

import importlib.util
import marshal
import mmap
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from generator import fontparse, fonts
from tests.conftest import ROOT, load_tool
from tests.test_fontparse import _same, _subsets, _whole

BUNDLED = (fonts.FONT_FILE, fonts.BOLD_FILE)


def _tool():
    return load_tool("font_faces")


def test_the_snapshots_are_current():
    """What tools/font_faces.py would write now is what the package holds (run it after changing a font)."""
    for file, data in _tool().snapshots().items():
        assert file.read_bytes() == data, f"{file.name} is stale: run python tools/font_faces.py"


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_a_restored_face_is_reportlabs_parse(path):
    """Every attribute (the deferred ones too, and the dictionaries' orders) and every subset's bytes."""
    data = path.read_bytes()
    face = fontparse.restored(str(path), data, fonts.snapshot_file(path).read_bytes())
    assert face is not None
    # restored, nothing large is built until read: measuring and a subset read only what they need
    assert {"charToGlyph", "charWidths", *fontparse.DEFERRED} <= set(vars(face)["_deferred"])
    theirs = TTFont("F", str(path)).face
    for name in list(vars(face)["_deferred"]):
        getattr(face, name)
    _same(vars(theirs), _whole(face))
    assert list(face.charToGlyph.items()) == list(theirs.charToGlyph.items())
    assert list(face.charWidths.items()) == list(theirs.charWidths.items())
    fresh = fontparse.restored(str(path), data, fonts.snapshot_file(path).read_bytes())
    for subset in _subsets(theirs):
        assert fresh.makeSubset(subset) == theirs.makeSubset(subset)


def test_a_snapshot_of_another_file_is_not_used():
    """The other font's snapshot, or a file changed in one table (its checksum in the directory), or bytes that
    are no snapshot: None, and the face is parsed."""
    regular, bold = (fonts.snapshot_file(p).read_bytes() for p in BUNDLED)
    data = bytearray(fonts.FONT_FILE.read_bytes())
    assert fontparse.restored("x", bytes(data), bold) is None
    data[28] ^= 1   # a byte of the first table's checksum in the directory
    assert fontparse.restored("x", bytes(data), regular) is None
    assert fontparse.restored("x", fonts.FONT_FILE.read_bytes(), b"not marshal") is None
    saved = marshal.loads(regular)
    assert fontparse.restored("x", fonts.FONT_FILE.read_bytes(), marshal.dumps({**saved, "format": 0})) is None
    odd = {**saved, "tables": {k: ((("I", 3, "little"), v[0][1]), v[1]) for k, v in saved["tables"].items()}}
    assert fontparse.restored("x", fonts.FONT_FILE.read_bytes(), marshal.dumps(odd)) is None


def test_a_games_font_is_parsed_never_restored(tmp_path):
    """Only pnpgen's own files have snapshots: one beside a game's font (named as the tool names them) is not read."""
    font = tmp_path / "ipaexg.ttf"
    font.write_bytes(fonts.FONT_FILE.read_bytes())
    fonts.snapshot_file(font).write_bytes(b"never read")
    assert fonts._snapshot(font) is None
    assert fonts._snapshot(fonts.FONT_FILE) == fonts.snapshot_file(fonts.FONT_FILE).read_bytes()


def test_registered_bundled_faces_are_restored_from_mapped_files():
    fonts.register()
    for name, path in ((fonts.FONT_NAME, fonts.FONT_FILE), (fonts.BOLD_NAME, fonts.BOLD_FILE)):
        face = pdfmetrics.getFont(name).face
        assert isinstance(face._ttf_data, mmap.mmap)
        assert face.filename == str(path)


def test_the_snapshots_ride_in_the_package():
    """Beside the fonts, so the wheel (every file under generator/) carries them."""
    assert {fonts.snapshot_file(p).parent for p in BUNDLED} == {fonts.FONT_FILE.parent}
    assert all(Path(fonts.snapshot_file(p)).stat().st_size < 1_000_000 for p in BUNDLED)


# --------------------------------------------------------------------------- what a cards-only game imports

DECKS_PROBE = """
import sys
sys.path.insert(0, {bench!r})
import decks_only
decks_only.decks_only({game!r}, {out!r})
print("MODULES", *sorted(sys.modules))
"""

#: what a cards-only game (no components, boards, spreadsheets or rules) never needs, in its deck PDFs or its build:
#: the boards' models, layouts, checks' geometry and producer; the component kinds (``kind.KIND_MODULES``) and theirs;
#: the rule sheet's reader, worked examples and producer; the SVG writer; and the standard library only they use
NOT_FOR_CARDS = ("generator.sheets", "generator.model.examples", "generator.model.board", "generator.load.board",
                 "generator.load.terrain", "generator.load.rules", "generator.layout.board", "generator.layout.board_geometry",
                 "generator.layout.board_line", "generator.layout.terrain", "generator.layout.tiling",
                 "generator.layout.examples", "generator.layout.dicenet", "generator.layout.components.die",
                 "generator.layout.components.pieces", "generator.layout.components.sheet", "generator.render.svg",
                 "generator.writers.boards", "generator.writers.components", "generator.writers.rules", "zipfile",
                 "xml.etree", "html.parser", "difflib", "traceback")
#: what the deck PDFs alone do not import either: the cover's rule-sheet blocks and the component registry
NOT_FOR_DECKS = ("generator.model.rules", "generator.layout.components", "pkgutil")


def test_the_deck_pdfs_of_a_cards_only_game_import_no_boards_kinds_sheets_or_rules(tmp_path):
    """``benchmarks/decks_only.py``'s work (load, count check, layout, deck PDFs) in a fresh interpreter."""
    import subprocess
    import sys

    from tests.test_startup import _loaded

    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_cards.py"), "--write-game", "120",
                    str(tmp_path / "game")], cwd=ROOT, capture_output=True, check=True)
    probe = DECKS_PROBE.format(bench=str(ROOT / "benchmarks"), game=str(tmp_path / "game"), out=str(tmp_path / "out"))
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    modules = set(next(line for line in out.stdout.splitlines() if line.startswith("MODULES ")).split()[1:])
    assert "generator.render.pdf" in modules and "generator.model.spans" in modules   # the decks were drawn
    assert sorted((tmp_path / "out").glob("*.pdf"))
    assert [m for m in (*NOT_FOR_CARDS, *NOT_FOR_DECKS) if _loaded(modules, m)] == []


def test_a_game_with_components_boards_and_sheets_still_imports_them():
    """Germany (a board, components) and the demo (a spreadsheet): their readers are imported when used."""
    from tests.test_startup import _imported, _loaded

    modules = _imported("list", "content/ttr-germany")
    assert _loaded(modules, "generator.layout.components") and "generator.load.board" in modules
    assert "generator.model.board" in modules


KINDS_PROBE = """
import sys
from generator.layout.components import KINDS
from generator.layout.components.kind import KIND_MODULES

def loaded():
    return sorted(m for m in set(KIND_MODULES.values()) if f"generator.layout.components.{m}" in sys.modules)

seen = [loaded()]
assert KINDS.get("cards") is None and "board tiles" not in KINDS and "cards" not in KINDS
seen.append(loaded())
assert KINDS["tile"].name == "tile" and "token" in KINDS
seen.append(loaded())
seen.append(list(KINDS))
seen.append(loaded())
print(seen)
"""


def test_a_kinds_module_is_imported_when_the_kind_is_first_asked_for():
    """A name that is no kind's ("cards", "board tiles": a print-and-play part's) imports none; a kind, its module;
    iterating, every one, in the table's order (as importing them all at once registered them)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", KINDS_PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str([[], [], ["pieces"], ["die", "token", "tile", "sheet"], ["die", "pieces", "sheet"]])


def test_every_kind_module_is_in_the_table():
    """Each module of the package that registers a kind is the one ``KIND_MODULES`` names for it: a kind module
    without its line would never be imported."""
    import pkgutil

    import generator.layout.components as package
    from generator.layout.components import KINDS
    from generator.layout.components.kind import KIND_MODULES

    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{module.name}")
    assert {name: type(kind).__module__ for name, kind in KINDS.items()} == {
        name: f"{package.__name__}.{module}" for name, module in KIND_MODULES.items()}


# --------------------------------------------------------------------------- a build's table and lines without rich

def _rich_lines(title: str, rows: list[list[str]], width: int) -> str:
    """The table as ``cli.build`` prints it through rich (its own ``rich_table``), on a console without colour
    ``width`` cells wide."""
    import io

    from rich.console import Console
    from rich.markup import escape

    from generator.cli.build import rich_table

    console = Console(file=io.StringIO(), width=width, highlight=False, emoji=False, color_system=None,
                      force_terminal=False)
    console.print(rich_table(escape(title), rows))
    return console.file.getvalue()


def test_the_plain_table_is_riches_characters():
    """Random tables (names of every printable ASCII character but "[" and backslash, spaces inside, titles short
    and long, consoles narrow and wide): where ``table_lines`` answers, it is rich's text; where it does not (too
    wide, a title rich would wrap), rich prints."""
    import random
    import string

    from generator.cli.build import COLUMNS
    from generator.cli.plaintable import table_lines

    rnd = random.Random(14)
    alphabet = "".join(c for c in string.printable[:95] if c not in "[\\") + "  "
    answered = 0
    for _ in range(400):
        def word(most: int) -> str:
            return "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, most))).strip() or "x"
        rows = [[word(28), word(14), f"{rnd.randint(1, 999)} pages", f"{rnd.randint(1, 999)} KB"]
                for _ in range(rnd.randint(1, 4))]
        title = f"{word(rnd.choice([8, 30, 60]))}/ — {rnd.random() * 10:.1f} s" + rnd.choice(
            ["", ", unchanged since the last build"])
        width = rnd.choice([50, 80, 120])
        lines = table_lines(title, COLUMNS, rows, width)
        if lines is not None:
            answered += 1
            assert "".join(line + "\n" for line in lines) == _rich_lines(title, rows, width), (title, rows, width)
    assert answered > 100


def test_what_the_plain_table_leaves_to_rich():
    from generator.cli.build import COLUMNS
    from generator.cli.plaintable import table_lines

    row = [["a.pdf", "cards", "2 pages", "1 KB"]]
    assert table_lines("out/g/ — 0.1 s", COLUMNS, row, 80) is not None
    assert table_lines("out/g/ — 0.1 s", COLUMNS, row, 30) is None              # rich would shrink it
    assert table_lines("o" * 60 + "/ — 0.1 s", COLUMNS, row, 200) is None       # rich would wrap the title
    for odd in ("a[b].pdf", "a\\b.pdf", "東京.pdf", "a\tb.pdf", " a.pdf"):       # markup, escapes, widths, spaces
        assert table_lines("out/g/ — 0.1 s", COLUMNS, [[odd, "cards", "2 pages", "1 KB"]], 80) is None


def test_a_build_off_a_terminal_prints_riches_characters_without_rich(tmp_path):
    """The 199-card game (two warnings, then its table) built with standard output and error not terminals: rich is
    not imported, and both streams are what rich prints (``TTY_COMPATIBLE=0``: rich decides, and prints)."""
    import os
    import re
    import subprocess
    import sys

    from tests.test_startup import PROBE, _loaded

    game = tmp_path / "game"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_cards.py"), "--write-game", "199", str(game)],
                   cwd=ROOT, capture_output=True, check=True)
    env = {**os.environ, "PNPGEN_CACHE_DIR": "off"}
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS"):
        env.pop(name, None)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    # (in the game's folder, so that the table's title, "o/game/ — 0.3 s", is not one rich would wrap)
    probe = subprocess.run([sys.executable, "-c", PROBE, "build", "game", "--out", "probe"], cwd=tmp_path, env=env,
                           capture_output=True, text=True, check=True)
    modules = set(next(line for line in probe.stdout.splitlines() if line.startswith("MODULES ")).split()[1:])
    assert "generator.pipeline" in modules and not _loaded(modules, "rich")
    # the build wrote the print-and-play file (its cover: rule-sheet blocks) and ran every check: and no more
    assert {"generator.writers.printandplay", "generator.model.rules", "generator.check.board"} <= modules
    assert [m for m in NOT_FOR_CARDS if _loaded(modules, m)] == []

    def run(extra: dict) -> tuple[str, str]:
        out = subprocess.run([sys.executable, "-m", "generator.cli", "build", "game", "--out", "o"],
                             cwd=tmp_path, env={**env, **extra}, capture_output=True, text=True, check=True)
        return re.sub(r"— \d+\.\d s", "— T s", out.stdout), out.stderr

    plain, through_rich = run({}), run({"TTY_COMPATIBLE": "0"})
    assert plain == through_rich
    assert "building game …\n" in plain[1] and "game checked: 0 errors, 2 warnings\n" in plain[1]
    assert plain[0].splitlines()[1].startswith(" file ") and "┃ kind" in plain[0]


def test_a_bundled_font_that_cannot_be_mapped_is_read_as_any_other(tmp_path, monkeypatch):
    """An empty (or missing) file of pnpgen's own is refused as a game's would be: a ContentError, no traceback."""
    from generator.errors import ContentError

    empty = tmp_path / "ipaexg.ttf"
    empty.write_bytes(b"")
    monkeypatch.setitem(fonts._BUNDLED, empty, "Empty")
    with pytest.raises(ContentError, match="not a font file"):
        fonts._register(empty)
    with pytest.raises(ContentError, match="cannot be read"):
        fonts._own_file(tmp_path / "missing.ttf")
