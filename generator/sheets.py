"""Read a spreadsheet (CSV, TSV, XLSX, ODS) into cells that know their row and column.

A game's tables (a deck's cards, its places, routes …) may live in a spreadsheet
instead of YAML (``cards: {from: cards.csv}``). This module only reads: the header
row and the data rows, every cell with a ``Source`` (file, row, column letter), so
an error names ``cards.csv:14:C``, the cell a designer clicks on in the spreadsheet.
Rows are counted as the spreadsheet counts them (the header is row 1, empty rows
count too); columns are letters (A, B, … Z, AA …) in every format, CSV included.

The file is untrusted like any content file: bounded in size, rows and columns
(``generator.limits``), a zip (XLSX, ODS) bounded in what it unpacks to and in the
extent of its sheet before the reader (python-calamine) builds the sheet in memory,
formulas never evaluated (calamine reads the value the spreadsheet program saved
with the formula; a formula never computed reads as an empty cell). Every failure is
a ``ContentError`` (exit 2) at the file, never a traceback.
"""
from __future__ import annotations

import csv
import datetime
import functools
import io
import math
import re
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

from generator import limits
from generator.csvcells import unguarded
from generator.errors import ContentError, Source, unreadable
from generator.paths import not_a_file
from generator.yamlsource import LDict, LList, read_bounded

#: the formats read, by file ending
FORMATS = {".csv": "CSV", ".tsv": "TSV", ".xlsx": "XLSX", ".ods": "ODS"}
FORMATS_HINT = "use a .csv, .tsv, .xlsx or .ods file (save other formats as one of these)"

Value = str | int | float | bool


@dataclass(frozen=True)
class Cell:
    """One non-empty cell: its value (text stripped, a whole number as int) and where it is."""

    value: Value
    source: Source


@dataclass
class Sheet:
    """A sheet's header (column name → the header cell) and its data rows (each: the row's
    source and its non-empty cells by column name), empty rows left out."""

    path: Path
    header: dict[str, Cell]
    rows: list[tuple[Source, dict[str, Cell]]]


class CellDict(LDict):
    """A row as the loader reads a YAML mapping: ``src(key)`` is the key's cell (file:row:column)."""

    cells: dict

    def src(self, key=None) -> Source:
        if key is not None and key in self.cells:
            return self.cells[key]
        return Source(self.file, self.line)


class CellList(LList):
    """A sequence as the loader reads a YAML list: ``src(i)`` is the item's row or cell."""

    sources: list

    def src(self, index=None) -> Source:
        if index is not None and 0 <= index < len(self.sources):
            return self.sources[index]
        return Source(self.file, self.line)


def cell_dict(items: dict, cells: dict[str, Source], where: Source) -> CellDict:
    result = CellDict(items)
    result.file, result.line, result.key_lines, result.cells = where.file, where.line, {}, cells
    return result


def cell_list(items: list, sources: list[Source], where: Source) -> CellList:
    result = CellList(items)
    result.file, result.line, result.item_lines, result.sources = where.file, where.line, [], sources
    return result


@functools.lru_cache(maxsize=1024)
def column_letter(index: int) -> str:
    """The spreadsheet name of the 0-based column ``index``: A … Z, AA, AB …"""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


@functools.lru_cache(maxsize=1024)
def _column_index(letters: str) -> int:
    """The 0-based index of a column named by letters (``column_letter``'s inverse)."""
    index = 0
    for char in letters:
        index = index * 26 + ord(char) - ord("A") + 1
    return index - 1


def read_sheet(path: Path, sheet: str | None, src: Source) -> Sheet:
    """The sheet in ``path`` (already checked to be inside the game); ``sheet`` names a worksheet of an
    XLSX or ODS file (default: the first). ``src`` is the line that named the file."""
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise ContentError(src, f"'{path.name}' is not a spreadsheet pnpgen reads", FORMATS_HINT)
    not_a_file(path, src, path.name, folder_too=True, what="spreadsheet")
    if not path.is_file():
        raise ContentError(src, f"spreadsheet '{path.name}' does not exist", "check the file name (from the game folder)")
    if sheet is not None and kind in ("CSV", "TSV"):
        raise ContentError(src, f"sheet: names a worksheet, but a {kind} file has only one",
                           "remove sheet:, or use an XLSX or ODS file")
    data = read_bounded(path, limits.MAX_SHEET_BYTES, "MAX_SHEET_BYTES", "spreadsheet",
                        "split it into smaller files; no real game needs a table this large")
    grid = _text_grid(path, data, kind) if kind in ("CSV", "TSV") else _book_grid(path, data, kind, sheet, src)
    return _sheet(path, grid)


# --------------------------------------------------------------------------- CSV and TSV


def _text_grid(path: Path, data: bytes, kind: str) -> list[list[Value | None]]:
    try:
        text = data.decode("utf-8-sig")  # Excel writes a byte-order mark before UTF-8 CSV; it is not part of the header
    except UnicodeDecodeError as error:
        offset = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        raise unreadable(path, UnicodeDecodeError(error.encoding, error.object, error.start + offset,
                                                  error.end + offset, error.reason), "spreadsheet", data) from None
    if "\0" in text:
        raise ContentError(Source(path), "a NUL byte in a CSV file: it is not text",
                           "save the table as CSV (UTF-8) from the spreadsheet program")
    delimiter = "\t" if kind == "TSV" else _delimiter(text)
    grid: list[list[Value | None]] = []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        for row in reader:
            _bound(path, len(grid) + 1, len(row))
            grid.append([unguarded(value.strip()) or None for value in row])   # '=… as exported: =…
    except csv.Error as error:
        raise ContentError(Source(path, len(grid) + 1), f"malformed {kind}: {error}",
                           "check the quotes on this row: a value with the separator, a quote or a line break "
                           "is written in double quotes, a quote inside it doubled (\"\")") from None
    return grid


def _delimiter(text: str) -> str:
    """',' or ';' (the separator of spreadsheet programs where ',' is the decimal comma): the one the header row,
    read outside quotes, uses more; ',' when neither."""
    header = text.split("\n", 1)[0]
    outside = re.sub(r'"[^"]*"', "", header)
    return ";" if outside.count(";") > outside.count(",") else ","


# --------------------------------------------------------------------------- XLSX and ODS


#: a row or cell start tag of an XLSX worksheet (``<row r="3">``, ``<c r="B3" t="s">``), with or without a prefix
_XLSX_TAG = re.compile(rb"<(?:\w+:)?(row|c)(?=[\s/>])([^>]*)>")
_XLSX_REF = re.compile(rb'\sr="([A-Za-z]*)(\d+)"')
_XLSX_CELL_REF = re.compile(rb'<(?:\w+:)?c\s[^>]*?\br="([A-Za-z]{1,3})(\d+)"')
#: the cells of a worksheet, which the reader finds in any member the workbook names as a sheet
_XLSX_SHEET_DATA = re.compile(rb"<(?:\w+:)?sheetData[\s/>]")
_XLSX_SHARED_TABLE = re.compile(rb"<(?:\w+:)?sst[\s>]")
_XLSX_SHARED_ITEM = re.compile(rb"<(?:\w+:)?si[\s>].*?</(?:\w+:)?si>|<(?:\w+:)?si\s*/>", re.DOTALL)
_XLSX_SHARED_CELL = re.compile(rb'<(?:\w+:)?c\s[^>]*?\bt="s"[^>]*>\s*<(?:\w+:)?v>\s*(\d+)\s*<')
_XLSX_DIMENSION = re.compile(rb'<(?:\w+:)?dimension\s[^>]*?ref="[A-Za-z]+\d+(?::([A-Za-z]+)(\d+))?"')


def _book_grid(path: Path, data: bytes, kind: str, sheet: str | None, src: Source) -> list[list[Value | None]]:
    import python_calamine  # a game without spreadsheets never needs the reader (imported here, not at start-up)

    members = _unzipped(path, data, kind)
    if kind == "ODS":   # the reader builds every table of an ODS file as it opens it: all measured first
        _check_extent(path, kind, members, None)
    try:
        book = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = list(book.sheet_names)
        if not names:
            raise ContentError(Source(path), f"the {kind} file has no worksheet", "add a sheet with a header row")
        if sheet is None:
            sheet = names[0]
        elif sheet not in names:
            raise ContentError(src, f"{path.name} has no sheet '{sheet}'",
                               "its sheets: " + ", ".join(repr(n) for n in names))
        _check_extent(path, kind, members, sheet)
        rows = book.get_sheet_by_name(sheet).to_python(skip_empty_area=False)
    except python_calamine.CalamineError as error:
        raise ContentError(Source(path), f"cannot read the {kind} file: {error}",
                           f"save it again from the spreadsheet program as {kind}") from None
    grid = []
    for number, row in enumerate(rows, start=1):
        _bound(path, number, len(row))
        grid.append([_plain(value) for value in row])
    return grid


def _unzipped(path: Path, data: bytes, kind: str) -> dict[str, bytes]:
    """The zip's members, each unpacked here under MAX_SHEET_UNZIPPED_BYTES in all (counted as the bytes come,
    not as the zip's directory claims them), so the reader never unpacks a zip bomb."""
    members: dict[str, bytes] = {}
    total = 0
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for info in archive.infolist():
                if info.is_dir():
                    continue
                chunks = []
                with archive.open(info) as stream:
                    while chunk := stream.read(1 << 20):
                        total += len(chunk)
                        if total > limits.MAX_SHEET_UNZIPPED_BYTES:
                            raise ContentError(Source(path), f"the {kind} file unpacks to more than "
                                                             f"{limits.MAX_SHEET_UNZIPPED_BYTES:,} bytes "
                                                             f"(MAX_SHEET_UNZIPPED_BYTES)",
                                               "a table of cards is far smaller: save it again from the "
                                               "spreadsheet program, without pictures")
                        chunks.append(chunk)
                members[info.filename] = b"".join(chunks)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, ValueError) as error:
        raise ContentError(Source(path), f"not a valid {kind} file (it should be a zip archive): {error}",
                           f"save it again from the spreadsheet program as {kind}") from None
    return members


def _check_extent(path: Path, kind: str, members: dict[str, bytes], name: str | None) -> None:
    """Refuse a sheet that reaches past MAX_SHEET_ROWS or MAX_SHEET_COLUMNS before calamine reads it: the reader
    builds the sheet as one dense block from its first to its last cell, so two cells far apart in a tiny file
    would ask for billions of cells."""
    rows, columns, text = (*_xlsx_extent(members), _xlsx_text(members)) if kind == "XLSX" \
        else _ods_extent(path, members, name)
    _bound(path, rows, columns)
    if text > limits.MAX_SHEET_TEXT:
        raise ContentError(Source(path), f"the sheet's cells hold {text:,} characters once each shared or repeated "
                                         f"text is counted where it is used, more than {limits.MAX_SHEET_TEXT:,} "
                                         f"(MAX_SHEET_TEXT)",
                           "a table of cards holds short texts: save it again from the spreadsheet program")


def _xlsx_text(members: dict[str, bytes]) -> int:
    """Characters (at most: markup and entities included) of the shared strings every worksheet's cells use, each
    counted at every use: the reader copies a shared string into each cell that names it, so a 10 MB string named
    by 20,000 cells of a 100 KB file is 200 GB."""
    lengths: list[int] = []
    for xml in (xml for xml in members.values() if _XLSX_SHARED_TABLE.search(xml)):   # wherever the book keeps it
        found = [len(item.group()) for item in _XLSX_SHARED_ITEM.finditer(xml)]
        lengths = [max(a, b) for a, b in zip(lengths, found)] + lengths[len(found):] + found[len(lengths):]
    if not lengths:
        return 0
    total = 0
    for member in (n for n in members if n.startswith("xl/worksheets/") or _XLSX_SHEET_DATA.search(members[n])):
        for cell in _XLSX_SHARED_CELL.finditer(members[member]):
            index = int(cell.group(1))
            total += lengths[index] if index < len(lengths) else 0
            if total > limits.MAX_SHEET_TEXT:
                return total
    return total


def _xlsx_extent(members: dict[str, bytes]) -> tuple[int, int]:
    """The rows and columns the largest sheet of an XLSX file spans, read from its cell references (a cell
    without one follows the cell before, as the reader places it). Every worksheet is measured: which file
    holds which named sheet is the workbook's business, and none may be a bomb — wherever the workbook keeps it
    (a worksheet may be any member its relationships name, ``xl/data/x.bin`` as well as ``xl/worksheets/``)."""
    rows = columns = 0
    for member in sorted(n for n in members if n.startswith("xl/worksheets/") or _XLSX_SHEET_DATA.search(members[n])):
        xml = members[member]
        dimension = _XLSX_DIMENSION.search(xml)
        if dimension and dimension.group(1):
            rows = max(rows, int(dimension.group(2)))
            columns = max(columns, _column_index(dimension.group(1).decode().upper()) + 1)
        tags = _XLSX_TAG.findall(xml)
        refs = _XLSX_CELL_REF.findall(xml)
        if len(refs) == sum(1 for name, _ in tags if name == b"c"):   # every cell names its place (as programs write)
            if refs:
                rows = max(rows, max(int(number) for _, number in refs))
                letters = {column for column, _ in refs}   # a few distinct columns, however many rows
                columns = max(columns, max(_column_index(name.decode().upper()) + 1 for name in letters))
            rows = max([rows, *(int(ref.group(2)) for name, attrs in tags if name == b"row"
                                for ref in [_XLSX_REF.search(attrs)] if ref)])
            continue
        row = 0
        column = 0
        for tag in _XLSX_TAG.finditer(xml):
            ref = _XLSX_REF.search(tag.group(2))
            if tag.group(1) == b"row":
                row = int(ref.group(2)) if ref else row + 1
                column = 0
            else:
                column = _column_index(ref.group(1).decode().upper()) + 1 if ref and ref.group(1) else column + 1
                if ref:
                    row = max(row, int(ref.group(2)))
            rows, columns = max(rows, row), max(columns, column)
    return rows, columns


_ODS_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_ODS_VALUE_TYPE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}value-type"


def _ods_extent(path: Path, members: dict[str, bytes], name: str | None) -> tuple[int, int, int]:
    """The rows and columns an ODS sheet's filled cells span, repeats counted (``number-rows-repeated``):
    empty rows and cells repeated to the sheet's end, as spreadsheet programs save them, cost nothing; and the
    characters its cells hold, each cell's text counted as often as it is repeated (the reader copies it)."""
    content = members.get("content.xml")
    if content is None:
        raise ContentError(Source(path), "not a valid ODS file: it has no content.xml",
                           "save it again from the spreadsheet program as ODS")
    if b"<!DOCTYPE" in content or b"<!ENTITY" in content:
        raise ContentError(Source(path), "the ODS file declares XML entities", "save it again from the spreadsheet program")
    rows = columns = text = 0
    row = 0
    inside = False
    try:
        for event, element in ElementTree.iterparse(io.BytesIO(content), events=("start", "end")):
            tag = element.tag
            if tag == f"{_ODS_TABLE}table":
                inside = event == "start" and (name is None or element.get(f"{_ODS_TABLE}name") == name)
                row = 0
                continue
            if not inside or event != "end":
                continue
            if tag == f"{_ODS_TABLE}table-row":
                repeat = int(element.get(f"{_ODS_TABLE}number-rows-repeated", "1"))
                column = filled = 0
                for cell in element:
                    span = int(cell.get(f"{_ODS_TABLE}number-columns-repeated", "1"))
                    column += span
                    if cell.get(_ODS_VALUE_TYPE) is not None or len(cell):
                        filled = column
                        text += sum(map(len, cell.itertext())) * span * repeat
                if text > limits.MAX_SHEET_TEXT:
                    return rows, columns, text
                if filled:
                    rows, columns = max(rows, row + repeat), max(columns, filled)
                row += repeat
                element.clear()
    except (ElementTree.ParseError, ValueError) as error:
        raise ContentError(Source(path), f"not a valid ODS file: {error}",
                           "save it again from the spreadsheet program as ODS") from None
    return rows, columns, text


def _plain(value) -> Value | None:
    """A cell as YAML would have given it: a whole number as int, text stripped (empty: None), a date as text."""
    if isinstance(value, bool):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value.is_integer() else value
    if isinstance(value, int):
        return value
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return str(value)
    text = str(value).strip()
    return text or None


# --------------------------------------------------------------------------- header and rows


def _bound(path: Path, rows: int, columns: int) -> None:
    if rows > limits.MAX_SHEET_ROWS:
        raise ContentError(Source(path, limits.MAX_SHEET_ROWS + 1), f"the sheet has more than {limits.MAX_SHEET_ROWS:,} "
                                                                    f"rows (MAX_SHEET_ROWS)",
                           "split the table; no deck or map needs this many rows")
    if columns > limits.MAX_SHEET_COLUMNS:
        raise ContentError(Source(path, rows or None), f"the sheet has more than {limits.MAX_SHEET_COLUMNS} columns "
                                                       f"(MAX_SHEET_COLUMNS)",
                           "a row holds one column per field: remove the columns that are not fields")


def _sheet(path: Path, grid: list[list[Value | None]]) -> Sheet:
    start = next((i for i, row in enumerate(grid) if any(v is not None for v in row)), None)
    if start is None:
        raise ContentError(Source(path), "the spreadsheet is empty", "write the field names in the first row, "
                                                                     "then one row per entry")
    header: dict[str, Cell] = {}
    names: list[str | None] = []
    for index, value in enumerate(grid[start]):
        where = Source(path, start + 1, column_letter(index))
        if value is None:
            names.append(None)
            continue
        name = str(value)
        if name in header:
            raise ContentError(where, f"column '{name}' appears twice in the header (first at "
                                      f"{header[name].source.column})", "name each column once")
        header[name] = Cell(name, where)
        names.append(name)
    rows = []
    for number, row in enumerate(grid[start + 1:], start=start + 2):
        cells: dict[str, Cell] = {}
        for index, value in enumerate(row):
            if value is None:
                continue
            where = Source(path, number, column_letter(index))
            column = names[index] if index < len(names) else None
            if column is None:
                raise ContentError(where, f"a value in column {column_letter(index)}, which has no name in the "
                                          f"header (row {start + 1})",
                                   "write the field's name at the top of the column, or empty the cell")
            cells[column] = Cell(value, where)
        if cells:
            rows.append((Source(path, number), cells))
    return Sheet(path, header, rows)
