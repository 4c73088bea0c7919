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
from tests.conftest import ROOT
from tests.test_fontparse import _same, _subsets, _whole

BUNDLED = (fonts.FONT_FILE, fonts.BOLD_FILE)


def _tool():
    spec = importlib.util.spec_from_file_location("font_faces", ROOT / "tools" / "font_faces.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
import bench_cards
bench_cards.decks_only({game!r}, {out!r})
print("MODULES", *sorted(sys.modules))
"""

#: what a cards-only game (no components, boards, spreadsheets or rules) never needs
NOT_FOR_CARDS = ("generator.sheets", "generator.model.rules", "generator.model.examples", "generator.model.board",
                 "generator.layout.components", "generator.load.board", "generator.load.terrain", "zipfile",
                 "xml.etree")


def test_the_deck_pdfs_of_a_cards_only_game_import_no_boards_kinds_sheets_or_rules(tmp_path):
    """``bench_cards.py --decks-only``'s work (load, count check, layout, deck PDFs) in a fresh interpreter."""
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
    assert [m for m in NOT_FOR_CARDS if _loaded(modules, m)] == []


def test_a_game_with_components_boards_and_sheets_still_imports_them():
    """Germany (a board, components) and the demo (a spreadsheet): their readers are imported when used."""
    from tests.test_startup import _imported, _loaded

    modules = _imported("list", "content/ttr-germany")
    assert _loaded(modules, "generator.layout.components") and "generator.load.board" in modules
    assert "generator.model.board" in modules
