"""The stamp on every home-printer page (issue 11): title · version · date · content hash, in the margin."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from generator.cli import main
from generator.layout import stamp as layout_stamp
from generator.layout.primitives import Line, Rect, Use
from generator.layout.sheets import PAPERS, PRINTER_MARGIN, crop_marks, grid_for
from generator.load.game import load_game
from generator.writers import context as build_context
from tests.conftest import FIXTURES, ROOT

GAMES = ("ttr-germany", "s-railway")  # cards, pieces, sheets, a map board and tiles; a line board


def _build(folder: Path, out: Path, env: dict | None = None):
    result = CliRunner().invoke(main, ["build", str(folder), "--out", str(out)],
                                env={"SOURCE_DATE_EPOCH": None, **(env or {})}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize("game", GAMES)
def test_every_home_printer_page_carries_the_stamp_and_no_print_shop_page_does(game, built_game, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    stamp = load_game(ROOT / "content" / game).stamp
    digest = stamp.rsplit(" ", 1)[-1]
    assert len(digest) == 7 and int(digest, 16) >= 0
    pdfs = sorted(built_game(game).glob("*.pdf"))
    assert len(pdfs) > 5
    for pdf in pdfs:
        pages = list(PdfReader(str(pdf)).pages)
        if pdf.name.endswith("-print-shop.pdf"):
            # every page is one card drawn the same way: the first and last few stand for the hundreds
            sample = pages[:3] + pages[-3:]
            assert not any(digest in page.extract_text() for page in sample), \
                f"{pdf.name}: a print-shop page carries the stamp"
            continue
        with_stamp = [digest in page.extract_text() for page in pages]
        missing = [n for n, ok in enumerate(with_stamp, 1) if not ok]
        assert not missing, f"{pdf.name}: pages {missing[:10]} have no stamp"


def test_two_builds_are_byte_identical(tmp_path):
    for out in ("a", "b"):
        _build(FIXTURES / "mini", tmp_path / out)
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert files
    for name in files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_source_date_epoch_0_prints_1970_01_01(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    assert "1970-01-01" in load_game(FIXTURES / "mini").stamp
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert "1970-01-01" not in load_game(FIXTURES / "mini").stamp
    _build(FIXTURES / "mini", tmp_path, {"SOURCE_DATE_EPOCH": "0"})
    assert "1970-01-01" in PdfReader(str(tmp_path / "mini" / "tickets.pdf")).pages[0].extract_text()


def test_version_and_date_come_from_game_yaml(tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    folder = tmp_path / "mini"
    shutil.copytree(FIXTURES / "mini", folder)
    main_file = folder / "game.yaml"
    main_file.write_text(main_file.read_text(encoding="utf-8").replace(
        "  title: ミニゲーム\n", '  title: ミニゲーム\n  version: "1.10"\n  date: "2026-11-22"\n', 1), encoding="utf-8")
    stamp = load_game(folder).stamp
    assert stamp.startswith("ミニゲーム · v1.10 · 2026-11-22 · ") and len(stamp.rsplit(" ", 1)[-1]) == 7
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")  # the build's date wins over the content's
    assert "1970-01-02" in load_game(folder).stamp and "2026-11-22" not in load_game(folder).stamp


def test_one_changed_content_byte_changes_the_hash_and_output_folders_are_not_content(tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    folder = tmp_path / "mini"
    shutil.copytree(FIXTURES / "mini", folder)
    before = load_game(folder).stamp
    (folder / "output" / "mini").mkdir(parents=True)
    (folder / "output" / "mini" / "tickets.pdf").write_bytes(b"%PDF")
    assert load_game(folder).stamp == before  # a build written into the game folder is not its content
    decks = folder / "decks.yaml"
    data = bytearray(decks.read_bytes())
    data[-1:] = b"\n\n" if data[-1:] == b"\n" else data[-1:] + b"\n"
    decks.write_bytes(bytes(data))
    after = load_game(folder).stamp
    assert after != before and after.rsplit(" ", 1)[0] == before.rsplit(" ", 1)[0]


def _overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_the_stamp_sits_in_the_printable_margin_clear_of_cards_marks_and_words(tmp_path, monkeypatch):
    """On every page the build writes for a home printer: inside the printer's safe area, touching nothing else
    the page draws; on card sheets, clear of every card's bleed box and every crop mark of the sheet's grid."""
    docs: dict[str, object] = {}
    real = build_context.render_pdf

    def keep(doc, path, stamp=None):
        docs[Path(path).name] = layout_stamp.with_stamp(doc, stamp)
        real(doc, path, stamp)

    monkeypatch.setattr(build_context, "render_pdf", keep)
    monkeypatch.setattr(build_context, "render_pdfs_together", lambda whole, parts: [keep(*f) for f in (whole, *parts)])
    _build(ROOT / "content" / "ttr-germany", tmp_path)
    game = load_game(ROOT / "content" / "ttr-germany")
    checked = patched = 0
    for name, doc in docs.items():
        for n, page in enumerate(doc.pages, 1):  # type: ignore[attr-defined]
            box = layout_stamp.stamp_box(page, doc.forms)  # type: ignore[attr-defined]
            if name.endswith("-print-shop.pdf"):
                assert box is None
                continue
            assert box is not None, f"{name} page {n}: no stamp"
            assert box[0] >= PRINTER_MARGIN and box[1] >= PRINTER_MARGIN, f"{name} page {n}: {box}"
            assert box[2] <= page.width - PRINTER_MARGIN and box[3] <= page.height - PRINTER_MARGIN
            patch = page.items[-2] if len(page.items) > 1 else None
            if isinstance(patch, Rect) and patch.fill == "#ffffff" and name.startswith(("board-", game.id)):
                # artwork to the edges (board tiles, the full-size board): over the art on a patch, clear of marks
                patched += 1
                others = [b for item in page.items[:-2] if isinstance(item, layout_stamp.MARKS)
                          for b in layout_stamp.item_boxes(item, doc.forms)]  # type: ignore[attr-defined]
            else:
                others = [b for item in page.items[:-1] for b in layout_stamp.item_boxes(item, doc.forms)]  # type: ignore[attr-defined]
            assert not [b for b in others if _overlaps(box, b)], f"{name} page {n}: the stamp {box} overlaps"
            checked += 1
    assert checked > 100 and patched < checked / 5  # only pages of artwork to the edges have a patch
    # card sheets against the grid itself: no card (bleed box) and no crop mark under the stamp
    deck = game.decks["train"] if "train" in game.decks else next(iter(game.decks.values()))
    grid = grid_for(deck.geometry, "a4")
    doc = docs[f"{deck.id}.pdf"]
    g = deck.geometry
    cards = [(x - g.bleed, y - g.bleed, x + g.width + g.bleed, y + g.height + g.bleed)
             for x, y in (grid.slot(c, r) for c in range(grid.cols) for r in range(grid.rows))]
    marks = [(min(m.x1, m.x2), min(m.y1, m.y2), max(m.x1, m.x2), max(m.y1, m.y2)) for m in crop_marks(grid)]
    for page in doc.pages:  # type: ignore[attr-defined]
        assert (page.width, page.height) == PAPERS["a4"]
        assert any(isinstance(item, Use) for item in page.items) and any(isinstance(i, Line) for i in page.items)
        box = layout_stamp.stamp_box(page, doc.forms)  # type: ignore[attr-defined]
        assert box is not None
        assert not [c for c in cards if _overlaps(box, c)] and not [m for m in marks if _overlaps(box, m)]


def test_the_content_hash_reads_nothing_outside_the_game_and_no_large_file_whole(tmp_path):
    """A link leading out of the game is not hashed (nor read); a file too large to be content counts by its size."""
    from generator import limits
    from generator.model.stamp import content_hash

    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "mini", game)
    before = content_hash([game])
    outside = tmp_path / "secret.txt"
    outside.write_text("not the game's", encoding="utf-8")
    (game / "notes.txt").symlink_to(outside)
    assert content_hash([game]) == before
    big = game / "artwork.bin"
    with big.open("wb") as f:
        f.truncate(limits.MAX_FILE_BYTES + 1)   # sparse: large, cheap
    with_big = content_hash([game])
    assert with_big != before
    with big.open("r+b") as f:
        f.seek(limits.MAX_FILE_BYTES)
        f.write(b"x")   # a change inside a file this large is not read, so not seen: its size stands for it
    assert content_hash([game]) == with_big
