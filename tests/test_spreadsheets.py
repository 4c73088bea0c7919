"""Spreadsheet data: cards, places and routes read from CSV, TSV, XLSX and ODS files (``{from: file}``),
errors at file:row:column, the file's limits, and ``pnpgen export csv`` read back to the same build."""
from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import Table, TableCell, TableRow
from odf.text import P

from generator import limits
from generator.cli import main
from generator.errors import ContentError
from generator.export.tables import write_csv
from generator.load.game import load_game
from generator.model.stamp import content_hash

ROOT = Path(__file__).resolve().parents[1]
GERMANY = ROOT / "content" / "ttr-germany"
TRAIN_CARDS = "    cards:\n      - {color: purple, count: 12}\n"


@pytest.fixture(scope="module")
def original():
    return load_game(GERMANY)


def _germany(tmp_path: Path, table: str) -> Path:
    """A copy of ttr-germany whose train cards are read from ``table`` (the rows after the first stay as
    YAML until the next deck: they are cut out)."""
    folder = tmp_path / "ttr-germany"
    shutil.copytree(GERMANY, folder)
    decks = folder / "decks.yaml"
    text = decks.read_text(encoding="utf-8")
    start = text.index(TRAIN_CARDS)
    end = text.index("\n\n", start)
    decks.write_text(text[:start] + f"    cards: {{from: {table}}}\n" + text[end + 1:], encoding="utf-8")
    return folder


def _map_from(folder: Path, section: str, sheets: str) -> None:
    """map.yaml with its YAML rows from ``section`` (places: or routes:) to boards: replaced by ``sheets``."""
    text = (folder / "map.yaml").read_text(encoding="utf-8")
    (folder / "map.yaml").write_text(text[:text.index(f"{section}:")] + sheets + text[text.index("\nboards:"):],
                                     encoding="utf-8")


def _trains(game) -> list[tuple[str, int]]:
    return [(card["color"].id, card.count) for card in game.decks["train-cards"].cards]


def _check(folder: Path):
    return CliRunner().invoke(main, ["check", str(folder)], catch_exceptions=False)


TRAIN_ROWS = [("purple", 12), ("blue", 12), ("orange", 12), ("white", 12), ("green", 12), ("yellow", 12),
              ("black", 12), ("red", 12), ("locomotive", 14)]


def test_csv_with_semicolons_and_a_byte_order_mark(tmp_path, original):
    folder = _germany(tmp_path, "trains.csv")
    rows = "".join(f"{color};{count}\n" for color, count in TRAIN_ROWS)
    (folder / "trains.csv").write_bytes(("\ufeffcolor;count\n" + rows + ";\n").encode("utf-8"))  # an empty row: skipped
    game = load_game(folder)
    assert _trains(game) == _trains(original) == TRAIN_ROWS
    assert sum(card.count for card in game.decks["train-cards"].cards) == 110
    assert isinstance(game.decks["train-cards"].cards[0].count, int)
    assert str(game.decks["train-cards"].cards[8].source).endswith("trains.csv:10")   # row 10: the header is row 1


def test_tsv_tickets_typed_like_yaml(tmp_path, original):
    folder = _germany(tmp_path, "trains.tsv")
    (folder / "trains.tsv").write_text("count\tcolor\n" + "".join(f"{n}\t{c}\n" for c, n in TRAIN_ROWS), encoding="utf-8")
    assert _trains(load_game(folder)) == TRAIN_ROWS


def test_xlsx_named_sheet(tmp_path):
    folder = _germany(tmp_path, "trains.xlsx")
    book = openpyxl.Workbook()
    book.active.append(["nothing", "here"])
    sheet = book.create_sheet("Trains")
    sheet.append(["color", "count"])
    for row in TRAIN_ROWS:
        sheet.append(list(row))
    book.save(folder / "trains.xlsx")
    decks = folder / "decks.yaml"
    decks.write_text(decks.read_text(encoding="utf-8").replace("{from: trains.xlsx}", "{from: trains.xlsx, sheet: Trains}"),
                     encoding="utf-8")
    game = load_game(folder)
    assert _trains(game) == TRAIN_ROWS and all(type(card.count) is int for card in game.decks["train-cards"].cards)


def _ods(path: Path, rows: list[list]) -> None:
    doc = OpenDocumentSpreadsheet()
    table = Table(name="Trains")
    for row in rows:
        line = TableRow()
        for value in row:
            cell = (TableCell(valuetype="string") if isinstance(value, str)
                    else TableCell(valuetype="float", value=value))
            cell.addElement(P(text=str(value)))
            line.addElement(cell)
        table.addElement(line)
    doc.spreadsheet.addElement(table)
    doc.save(str(path))


def test_ods(tmp_path):
    folder = _germany(tmp_path, "trains.ods")
    _ods(folder / "trains.ods", [["color", "count"], *map(list, TRAIN_ROWS)])
    assert _trains(load_game(folder)) == TRAIN_ROWS


def test_places_and_routes_from_exported_csv(tmp_path, original):
    folder = tmp_path / "ttr-germany"
    shutil.copytree(GERMANY, folder)
    write_csv(original, folder)
    _map_from(folder, "places", "places: {from: places.csv}\nroutes: {from: routes.csv}\n")
    game = load_game(folder)
    assert [(r.a.id, r.b.id, r.length, [c.id for c in r.colors], r.extras) for r in game.routes] == \
           [(r.a.id, r.b.id, r.length, [c.id for c in r.colors], r.extras) for r in original.routes]
    assert {p.id: (p.name, p.latin, p.attrs) for p in game.collections["place"].values()} == \
           {p.id: (p.name, p.latin, p.attrs) for p in original.collections["place"].values()}
    assert str(game.routes[0].source).endswith("routes.csv:2")
    assert str(game.collections["place"]["Berlin"].source).endswith("places.csv:3:A")


def test_an_error_in_a_cell_names_file_row_column(tmp_path):
    folder = _germany(tmp_path, "trains.csv")
    (folder / "trains.csv").write_text("color,count\npurple,12\nblue,twelve\n", encoding="utf-8")
    result = _check(folder)
    assert result.exit_code == 2
    assert re.search(r"trains\.csv:3:B: .*count should be a whole number ≥ 1, not 'twelve'", result.output), result.output


def test_unknown_column_and_unknown_colour_say_did_you_mean(tmp_path):
    folder = _germany(tmp_path, "trains.csv")
    (folder / "trains.csv").write_text("colour,count\npurple,12\n", encoding="utf-8")
    result = _check(folder)
    assert result.exit_code == 2 and "trains.csv:1:A: " in result.output and "did you mean 'color'?" in result.output
    (folder / "trains.csv").write_text("count,color\n12,purple\n3,purpel\n", encoding="utf-8")
    result = _check(folder)
    assert result.exit_code == 2 and "trains.csv:3:B: " in result.output and "unknown color 'purpel'" in result.output


def test_unknown_city_in_a_route_row(tmp_path):
    folder = tmp_path / "ttr-germany"
    shutil.copytree(GERMANY, folder)
    _map_from(folder, "routes", "routes: {from: routes.csv}\n")
    (folder / "routes.csv").write_text("from,to,length,color,curve\nBerlin,Hamburg,7,\"blue, yellow\",\n"
                                       "Berlin,Hambrug,7,red,12\n", encoding="utf-8")
    result = _check(folder)
    assert result.exit_code == 2 and "routes.csv:3:B: " in result.output and "did you mean 'Hamburg'?" in result.output


def test_a_path_out_of_the_game_is_refused(tmp_path):
    folder = _germany(tmp_path, "../trains.csv")
    (tmp_path / "trains.csv").write_text("color,count\npurple,110\n", encoding="utf-8")
    result = _check(folder)
    assert result.exit_code == 2 and "decks.yaml:" in result.output and "outside the game folder" in result.output


def test_a_corrupt_xlsx_is_refused(tmp_path):
    folder = _germany(tmp_path, "trains.xlsx")
    (folder / "trains.xlsx").write_bytes(b"PK\x03\x04 this is not a zip")
    result = _check(folder)
    assert result.exit_code == 2 and "trains.xlsx: " in result.output and "not a valid XLSX file" in result.output
    assert "Traceback" not in result.output


def test_a_sheet_that_reaches_too_far_is_refused_before_it_is_read(tmp_path):
    """Two cells, A1 and XFD1048576: the reader would build a block of 17 billion cells."""
    folder = _germany(tmp_path, "trains.xlsx")
    book = openpyxl.Workbook()
    book.active["A1"] = "color"
    book.active["XFD1048576"] = "far"
    book.save(folder / "trains.xlsx")
    with pytest.raises(ContentError, match=r"more than 20,001 rows \(MAX_SHEET_ROWS\)"):
        load_game(folder)


def test_an_ods_with_repeated_filled_rows_is_refused(tmp_path):
    folder = _germany(tmp_path, "trains.ods")
    _ods(folder / "trains.ods", [["color", "count"], ["purple", 12]])
    with zipfile.ZipFile(folder / "trains.ods") as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    members["content.xml"] = members["content.xml"].replace(b"<table:table-row>", b'<table:table-row table:number-rows-repeated="999999">', 2)
    with zipfile.ZipFile(folder / "trains.ods", "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    with pytest.raises(ContentError, match="MAX_SHEET_ROWS"):
        load_game(folder)


def test_a_zip_bomb_stops_at_the_unpacked_limit(tmp_path, monkeypatch):
    folder = _germany(tmp_path, "trains.xlsx")
    with zipfile.ZipFile(folder / "trains.xlsx", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * 200_000)
    monkeypatch.setattr(limits, "MAX_SHEET_UNZIPPED_BYTES", 100_000)
    with pytest.raises(ContentError, match=r"unpacks to more than 100,000 bytes") as caught:
        load_game(folder)
    assert caught.value.source.file.name == "trains.xlsx"


def test_export_csv_then_read_back_builds_the_same_files(tmp_path, built_game, monkeypatch):
    """Every deck, the places and the routes of ttr-germany through CSV: the build is byte-identical
    (the stamp's content hash set to the original's: the folders' files differ, on purpose)."""
    original = built_game("ttr-germany")
    folder = tmp_path / "ttr-germany"
    shutil.copytree(GERMANY, folder)
    result = CliRunner().invoke(main, ["export", "csv", str(GERMANY), "--out", str(folder)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.glob("*.csv")) == [
        "bonus-cards.csv", "long-tickets.csv", "places.csv", "routes.csv", "short-tickets.csv", "train-cards.csv"]
    assert (folder / "train-cards.csv").read_text(encoding="utf-8").startswith("color,count\npurple,12\n")
    _map_from(folder, "places", "places: {from: places.csv}\nroutes: {from: routes.csv}\n")
    decks = (folder / "decks.yaml").read_text(encoding="utf-8")
    deck = None
    lines, skipping = [], False
    for line in decks.splitlines():
        if skipping and (not line.strip() or line.startswith("      ")):
            continue
        skipping = False
        if re.match(r"^  [\w-]+:$", line):
            deck = line.strip()[:-1]
        if line == "    cards:":
            lines.append(f"    cards: {{from: {deck}.csv}}")
            skipping = True
            continue
        lines.append(line)
    (folder / "decks.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert "cards: {from: long-tickets.csv}" in (folder / "decks.yaml").read_text(encoding="utf-8")
    digest = content_hash([GERMANY])
    monkeypatch.setattr("generator.load.game.content_hash", lambda folders: digest)
    out = tmp_path / "out"
    # the two tickets whose '# waive' comment is in decks.yaml are check errors now: --force
    result = CliRunner().invoke(main, ["build", str(folder), "--all", "--out", str(out), "--force"],
                                env={"SOURCE_DATE_EPOCH": None}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    rebuilt = out / "ttr-germany"
    names = sorted(p.relative_to(original).as_posix() for p in original.rglob("*") if p.is_file())
    assert sorted(p.relative_to(rebuilt).as_posix() for p in rebuilt.rglob("*") if p.is_file()) == names
    assert len(names) > 20 and "train-cards.pdf" in names and "board-germany.svg" in names
    assert [n for n in names if (original / n).read_bytes() != (rebuilt / n).read_bytes()] == []


def _point_at_sheets(text: str, files: set[str]) -> str:
    """YAML text with each block `cards:` of a deck (`<deck>.csv`) and each top-level `places:` … `routes:`
    (`<section>.csv`) replaced by `{from: …}`, when that file was exported; flow-style rows are left as they are."""
    out, skip, deck = [], None, None
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip())
        if skip is not None:
            if not line.strip() or line.lstrip().startswith("#") or indent > skip:
                continue
            skip = None
        match = re.match(r"^( *)([^\s#:][^:]*):\s*(#.*)?$", line)
        if match and len(match.group(1)) == 2:
            deck = match.group(2)
        if match:
            key, depth = match.group(2), len(match.group(1))
            target = f"{deck}.csv" if key == "cards" and depth == 4 else f"{key}.csv" if depth == 0 else None
            if target in files:
                out.append(f"{match.group(1)}{key}: {{from: {target}}}")
                skip = depth
                continue
        out.append(line)
    return "\n".join(out) + "\n"


def _model(game) -> dict:
    def plain(value):
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return value.id if hasattr(value, "id") and hasattr(value, "kind") else value
    return {
        "decks": {d.id: [({k: plain(v) for k, v in c.values.items()}, c.count, sorted(c.auto)) for c in d.cards]
                  for d in game.decks.values()},
        "collections": {kind: {e.id: (e.name, e.latin, {k: plain(v) for k, v in e.attrs.items()}) for e in entities.values()}
                        for kind, entities in game.collections.items()},
        "routes": [(r.a.id, r.b.id, r.length, plain(r.colors), r.extras) for r in game.routes],
    }


@pytest.mark.parametrize("name", ["ttr-new-york", "s-railway", "thurn-and-taxis"])
def test_every_table_of_a_bundled_game_reads_back_the_same(tmp_path, name):
    source = ROOT / "content" / name
    folder = tmp_path / name
    shutil.copytree(source, folder)
    original = load_game(source)
    files = {path.name for path in write_csv(original, folder)}
    replaced = 0
    for path in folder.glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        new = _point_at_sheets(text, files)
        replaced += new.count("{from: ")
        path.write_text(new, encoding="utf-8")
    assert replaced >= 3
    assert _model(load_game(folder)) == _model(original)


def test_a_formula_reads_as_its_saved_value_and_is_never_run(tmp_path):
    """The count of purple is =6*2: with the value a spreadsheet program saved (12) it is 12; written by a
    script that never computed it, it is an empty cell (so the card has no count: 1 copy)."""
    folder = _germany(tmp_path, "trains.xlsx")
    book = openpyxl.Workbook()
    book.active.append(["color", "count"])
    book.active.append(["purple", "=6*2"])
    book.save(folder / "trains.xlsx")
    assert _trains(load_game(folder)) == [("purple", 1)]
    with zipfile.ZipFile(folder / "trains.xlsx") as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    sheet = members["xl/worksheets/sheet1.xml"]
    # openpyxl writes the empty value as <v /> or <v></v> (with lxml installed): either way, no value saved
    empty = re.search(rb"<f>6\*2</f><v ?/>|<f>6\*2</f><v></v>", sheet)
    assert empty is not None
    members["xl/worksheets/sheet1.xml"] = sheet.replace(empty.group(0), b"<f>6*2</f><v>12</v>")
    with zipfile.ZipFile(folder / "trains.xlsx", "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    assert _trains(load_game(folder)) == [("purple", 12)]


def test_the_extent_of_cells_without_a_reference_is_counted_as_the_reader_places_them():
    from generator.sheets import _xlsx_extent
    sheet = "xl/worksheets/sheet1.xml"
    assert _xlsx_extent({sheet: b'<row><c><v>1</v></c><c/></row><row r="5"><c r="C5"/></row>'}) == (5, 3)
    assert _xlsx_extent({sheet: b'<row r="2">' + b"<c/>" * 300 + b"</row>"}) == (2, 300)
    assert _xlsx_extent({sheet: b'<row r="1"><c r="A1"><v>1</v></c><c r="XFD1"/></row><row r="7"/>'}) == (7, 16384)
