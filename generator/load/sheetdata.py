"""Tables from spreadsheets: ``cards: {from: cards.csv}`` (and places, areas, …, routes) read as YAML rows.

A deck's ``cards:``, a collection (``places:``, ``areas:``, ``stations:``, ``lines:``,
``train_types:``) and ``routes:`` may name a spreadsheet in the game folder instead
of listing rows, with ``sheet:`` for a worksheet of an XLSX or ODS file. The sheet is
read (``generator.sheets``) into the very objects the YAML reader makes — mappings
and lists whose ``src()`` is the cell (``cards.csv:14:C``) — so the rest of the loader
reads a spreadsheet row exactly as a YAML row, with the same checks and messages.

Cells are typed as YAML would type the value for that field: ``3`` is the number 3 where
the field is a number (``int``, ``number``, ``count``), ``true``/``false`` a bool where it is
``bool``; a ``pair`` or ``list of …`` cell is ``a, b`` (or YAML's ``[a, b]``); anything
else stays text. A value that does not fit its field is left as it is, for the loader's
own check to refuse it at its cell.
"""
from __future__ import annotations

import importlib
import math
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from generator import limits
from generator.errors import ContentError, Source, did_you_mean
from generator.load.schema import schema_keys
from generator.load.values import ATTRIBUTES, COLLECTIONS, ROUTE_EXTRAS
from generator.paths import inside
from generator.yamlsource import LDict, check_shape, loader_for, too_large

if TYPE_CHECKING:
    from generator.sheets import Cell, Sheet


def _sheets():
    """``generator.sheets`` (CSV, XLSX and ODS readers, with zipfile and ElementTree under them), imported when a
    content file names a spreadsheet: most games have none, and every load used to import it."""
    return importlib.import_module("generator.sheets")

#: the keys of a table read from a spreadsheet, ``{from: file, sheet: name}``: the schema's (``$defs/spreadsheet``)
FILE_KEY, WORKSHEET_KEY = SHEET_KEYS = schema_keys("$defs", "spreadsheet", "properties")
#: the columns of a routes sheet: the row's items by name, then its extras, each a column of its own
ROUTE_COLUMNS = {"from": "place", "to": "place", "length": "int", "color": "list of color",
                 "bends": "list of pair", "curve": "number", "tunnel": "list of bool", "ferry": "list of int",
                 "style": "list of text", "distinct": "bool"}
#: route columns that hold one value for every track or one per track ("2, 1"): a single value is written as one
PER_TRACK = ("tunnel", "ferry", "style")
ROUTE_ITEMS = ("from", "to", "length", "color")
#: the column of a collection's sheet that holds each entry's id
ID_COLUMN = "id"


def is_sheet_ref(value) -> bool:
    """``{from: file}`` (and perhaps ``sheet:``): a table in a spreadsheet, not rows or entries
    (a place named ``from`` has a mapping of attributes, never a file name)."""
    return (isinstance(value, dict) and isinstance(value.get("from"), str) and set(value) <= set(SHEET_KEYS))


def expand_sheets(data: LDict, folder: Path) -> bool:
    """Replace each ``{from: file}`` table of one content file by the rows of its spreadsheet (files inside
    ``folder`` only); True when any was replaced (the file is then checked against the schema again)."""
    changed = False
    decks = data.get("decks")
    if isinstance(decks, dict):
        for deck_id, spec in decks.items():
            if isinstance(spec, dict) and is_sheet_ref(spec.get("cards")):
                spec["cards"] = _cards(folder, spec, str(deck_id))
                changed = True
    for section, kind in COLLECTIONS.items():
        if is_sheet_ref(data.get(section)):
            data[section] = _collection(folder, data[section], section, kind)
            changed = True
    if is_sheet_ref(data.get("routes")):
        data["routes"] = _routes(folder, data["routes"])
        changed = True
    return changed


def _open(folder: Path, ref: LDict) -> Sheet:
    name = ref["from"]
    where = ref.src("from")
    path = inside(folder / name, (folder,), where, name)
    sheet = ref.get(WORKSHEET_KEY)
    return _sheets().read_sheet(path, None if sheet is None else str(sheet), where)


def _check_header(sheet: Sheet, allowed, what: str, hint: str) -> None:
    for name, cell in sheet.header.items():
        if name not in allowed:
            raise ContentError(cell.source, f"unknown column '{name}' in {what}",
                               did_you_mean(name, allowed) or hint + ": " + ", ".join(allowed))


def _cards(folder: Path, spec: dict, deck_id: str):
    ref = spec["cards"]
    sheet = _open(folder, ref)
    fields = {str(name): str(type_name) for name, type_name in (spec.get("fields") or {}).items()}
    types = {**fields, "count": "int"}
    _check_header(sheet, types, f"the cards of deck '{deck_id}'", "the columns are the deck's fields: and count")
    rows = [_row(cells, types, where) for where, cells in sheet.rows]
    return _sheets().cell_list(rows, [where for where, _ in sheet.rows], ref.src("from"))


def _row(cells: dict[str, Cell], types: dict[str, str], where: Source):
    def value(name: str, cell: Cell):
        result = typed(cell, types[name])
        if name in PER_TRACK and types is ROUTE_COLUMNS and isinstance(result, list) and len(result) == 1 \
                and not str(cell.value).lstrip().startswith("["):
            return result[0]   # one value for every track, as in a YAML row
        return result
    return _sheets().cell_dict({name: value(name, cell) for name, cell in cells.items()},
                     {name: cell.source for name, cell in cells.items()}, where)


def _collection(folder: Path, ref: LDict, section: str, kind: str):
    sheet = _open(folder, ref)
    types = {ID_COLUMN: "text", "name": "text", "latin": "text", **ATTRIBUTES[kind]}
    _check_header(sheet, types, f"the {section} sheet", f"the columns are {ID_COLUMN}, then a {kind}'s attributes")
    if ID_COLUMN not in sheet.header:
        raise ContentError(Source(sheet.path, 1), f"the {section} sheet has no '{ID_COLUMN}' column",
                           f"add a column named {ID_COLUMN} that holds each {kind}'s id (the name the rows of other "
                           f"tables use for it)")
    entries: dict = {}
    sources: dict = {}
    for where, cells in sheet.rows:
        key_cell = cells.get(ID_COLUMN)
        if key_cell is None:
            raise ContentError(where, f"a row of the {section} sheet has no {ID_COLUMN}",
                               f"give every {kind} an id in the {ID_COLUMN} column")
        key = _text(key_cell.value)
        if key in entries:
            raise ContentError(key_cell.source, f"'{key}' is defined twice in {section} (first at {sources[key]})",
                               "rename or remove one of them")
        attrs = {name: cell for name, cell in cells.items() if name != ID_COLUMN}
        entries[key] = _row(attrs, types, where)
        sources[key] = key_cell.source
    return _sheets().cell_dict(entries, sources, ref.src("from"))


def _routes(folder: Path, ref: LDict):
    sheet = _open(folder, ref)
    _check_header(sheet, ROUTE_COLUMNS, "the routes sheet", "the columns are")
    rows = []
    for where, cells in sheet.rows:
        for name in ROUTE_ITEMS[:3]:
            if name not in cells:
                raise ContentError(where, f"a route row without '{name}'", "give every route from, to and length")
        items = [typed(cells[name], ROUTE_COLUMNS[name]) for name in ROUTE_ITEMS[:3]]
        sources = [cells[name].source for name in ROUTE_ITEMS[:3]]
        extras = {name: cell for name, cell in cells.items() if name in ROUTE_EXTRAS}
        color = cells.get("color")
        if color is not None:
            colors = typed(color, ROUTE_COLUMNS["color"])
            if isinstance(colors, list) and len(colors) == 1 and not str(color.value).lstrip().startswith("["):
                colors = colors[0]   # one colour is written as one, as in a YAML row
            items.append(colors)
            sources.append(color.source)
        elif extras:
            items.append("gray")   # the YAML row's default colour, written out before the extras
            sources.append(where)
        if extras:
            items.append(_row(extras, ROUTE_COLUMNS, where))
            sources.append(where)
        rows.append(_sheets().cell_list(items, sources, where))
    return _sheets().cell_list(rows, [where for where, _ in sheet.rows], ref.src("from"))


# --------------------------------------------------------------------------- cells typed


def typed(cell: Cell, type_name: str):
    """A cell's value as YAML would give it for a field of ``type_name``: numbers where numbers are wanted,
    lists where lists are; else as it is (text), for the loader to check. A whole number past MAX_WHOLE_NUMBER
    is refused at its cell, as YAML's is (``yamlsource.too_large``)."""
    value = _typed(cell, type_name)
    todo = [value]   # a YAML list in a cell is bounded by MAX_YAML_NODES (check_shape)
    while todo:
        item = todo.pop()
        if isinstance(item, (list, dict)):
            todo.extend(item.values() if isinstance(item, dict) else item)
        elif type(item) is int and abs(item) > limits.MAX_WHOLE_NUMBER:
            raise too_large(item, cell.source)
    return value


def _typed(cell: Cell, type_name: str):
    base = type_name.rstrip("?")
    if base == "points" and isinstance(cell.value, str) and cell.value.strip().startswith("{"):
        return _list(cell, "number")   # named points, as YAML: {north: [x, y], east: [x, y]}
    if base in ("pair", "points") or base.startswith("list of "):   # points: a place's one [x, y] (or a YAML list)
        return _list(cell, "number" if base in ("pair", "points") else base[len("list of "):])
    return _scalar(cell.value, base)


def _scalar(value, base: str):
    if isinstance(value, str):
        if base in ("int", "number"):
            try:
                return int(value)
            except ValueError:
                pass
            if base == "number":
                try:
                    number = float(value)
                except ValueError:
                    return value
                return number if math.isfinite(number) else value
            return value
        if base == "bool":
            return {"true": True, "false": False}.get(value.lower(), value)
        return value
    if base in ("int", "number", "bool") or base.startswith("list of "):
        return value
    return _text(value)   # a number in a text or name column (an XLSX cell): the text it shows


def _text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _list(cell: Cell, item_type: str):
    value = cell.value
    if not isinstance(value, str):
        return [value]
    text = value.strip()
    if text.startswith("[") or text.startswith("{"):   # YAML's flow list: [a, b], [[120, 340], [130, 350]] (or points)
        try:
            check_shape(text, cell.source.file or Path())
            # read as a content file is: a duplicate key (``{north: …, north: …}``) an error, not the last kept
            return yaml.load(text, Loader=loader_for(cell.source.file or Path()))  # noqa: S506 - pnpgen's safe loader
        except (ContentError, yaml.YAMLError) as error:
            problem = error.message if isinstance(error, ContentError) else str(error).splitlines()[0]
            raise ContentError(cell.source, f"cannot read {text[:40]!r} as a list: {problem}",
                               "write the items separated by commas (a, b), or as YAML: [a, b]") from None
    if item_type.startswith("list of ") or item_type == "pair":
        raise ContentError(cell.source, f"a list of lists is written as YAML: [[…], […]], not {text[:40]!r}",
                           "write e.g. [[120, 340], [130, 352]]")
    base = item_type.rstrip("?")
    return [_scalar(item.strip(), base) for item in text.split(",")]
