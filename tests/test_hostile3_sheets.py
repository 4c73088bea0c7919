"""Round three, spreadsheets: a shared string (XLSX) or a repeated cell (ODS) is copied into every cell that shows
it; a small file whose few long texts are shown by thousands of cells asked for hundreds of gigabytes
(MAX_SHEET_TEXT). CSV fields and formula cells are plain text; checked here too."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from generator import limits
from generator.errors import ContentError, Source
from generator.sheets import read_sheet
from tests.test_spreadsheets import _ods

REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE = "http://schemas.openxmlformats.org/package/2006/relationships"
NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def _xlsx(path: Path, rows: int, text: str, shared_at: str = "xl/sharedStrings.xml") -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                      '<Default Extension="xml" ContentType="application/xml"/></Types>')
        book.writestr("_rels/.rels", f'<Relationships xmlns="{PACKAGE}"><Relationship Id="r1" Type="{REL}/officeDocument" '
                                     'Target="xl/workbook.xml"/></Relationships>')
        book.writestr("xl/workbook.xml", f'<workbook xmlns="{NS}" xmlns:r="{REL}"><sheets><sheet name="S" sheetId="1" '
                                         'r:id="r1"/></sheets></workbook>')
        book.writestr("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{PACKAGE}"><Relationship Id="r1" '
                      f'Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="r2" '
                      f'Type="{REL}/sharedStrings" Target="{shared_at[3:]}"/></Relationships>')
        book.writestr(shared_at, f'<sst xmlns="{NS}"><si><t>name</t></si><si><t>{text}</t></si></sst>')
        cells = "".join(f'<row r="{i}"><c r="A{i}" t="s"><v>1</v></c></row>' for i in range(2, rows + 2))
        book.writestr("xl/worksheets/sheet1.xml", f'<worksheet xmlns="{NS}"><sheetData><row r="1"><c r="A1" t="s">'
                                                  f'<v>0</v></c></row>{cells}</sheetData></worksheet>')
    path.write_bytes(out.getvalue())


@pytest.mark.parametrize("shared_at", ["xl/sharedStrings.xml", "xl/other/strings.xml"])
def test_an_xlsx_whose_shared_string_is_named_by_thousands_of_cells_is_refused(tmp_path, shared_at):
    path = tmp_path / "bomb.xlsx"
    _xlsx(path, 20_000, "x" * 2_000_000, shared_at)   # 40 billion characters from a file of ~100 KB
    assert path.stat().st_size < 200_000
    with pytest.raises(ContentError, match="MAX_SHEET_TEXT"):
        read_sheet(path, None, Source(path))


def test_an_xlsx_of_ordinary_shared_strings_is_read(tmp_path):
    path = tmp_path / "fine.xlsx"
    _xlsx(path, 3, "Berlin")
    sheet = read_sheet(path, None, Source(path))
    assert [cells["name"].value for _, cells in sheet.rows] == ["Berlin"] * 3


def test_an_ods_whose_long_cell_is_repeated_is_refused(tmp_path):
    path = tmp_path / "bomb.ods"
    _ods(path, [["name"], ["x" * 200_000]])
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    members["content.xml"] = members["content.xml"].replace(
        b"<table:table-row>", b'<table:table-row table:number-rows-repeated="20000">', 2).replace(
        b"<table:table-row table:number-rows-repeated=\"20000\">", b"<table:table-row>", 1)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    with pytest.raises(ContentError, match="MAX_SHEET_TEXT"):
        read_sheet(path, None, Source(path))


def test_csv_formula_cells_are_text_and_a_huge_field_is_a_clear_error(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text('name,note\n"=HYPERLINK(""http://x"")",' + "y" * 100_000 + "\n", encoding="utf-8")
    cells = read_sheet(path, None, Source(path)).rows[0][1]
    assert cells["name"].value == '=HYPERLINK("http://x")' and len(cells["note"].value) == 100_000
    path.write_text("name,note\nx," + "y" * 1_000_000 + "\n", encoding="utf-8")
    with pytest.raises(ContentError, match="cards.csv:2: .*field larger than field limit"):
        read_sheet(path, None, Source(path))
    assert limits.MAX_SHEET_TEXT >= 10_000_000
