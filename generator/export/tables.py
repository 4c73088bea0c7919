"""The game's tables as CSV files: what ``cards: {from: file}`` and its kind read back.

One file per deck (``<deck id>.csv``: its fields in order, and ``count`` when a card is
printed more than once), per collection that has entries (``places.csv``: ``id``, then
``name``, ``latin`` and the attributes used) and ``routes.csv`` (``from``, ``to``,
``length``, ``color`` and the extras used). Values are written the way
``generator.load.sheetdata`` reads them, so a game that reads its tables from these
files builds the same cards, board and tickets: a name as its id, a list as ``a, b``,
``points: auto`` as ``auto``. UTF-8 without a byte-order mark, ``\\n`` line ends, a
header row of field names; each file is written whole or not at all.
"""
from __future__ import annotations

import csv
import io
import os
import tempfile
from pathlib import Path

from generator.csvcells import guarded
from generator.errors import OutputError, Source
from generator.load.sheetdata import ID_COLUMN
from generator.load.values import ATTRIBUTES, COLLECTIONS, ROUTE_EXTRAS, latin_of
from generator.model.game import Entity, Game


def tables(game: Game) -> dict[str, list[list[str]]]:
    """File name → rows (the header first), in a stable order: decks, then collections, then routes."""
    result: dict[str, list[list[str]]] = {}
    for deck in game.decks.values():
        fields = list(deck.fields)
        counted = any(card.count != 1 for card in deck.cards)
        rows = [[*fields, *(["count"] if counted else [])]]
        for card in deck.cards:
            row = ["auto" if name in card.auto else _cell(card.values.get(name)) for name in fields]
            rows.append(row + ([str(card.count)] if counted else []))
        result[f"{deck.id}.csv"] = rows
    for section, kind in COLLECTIONS.items():
        entities = list(game.collections.get(kind, {}).values())
        if entities:
            _free(result, f"{section}.csv", game)
            result[f"{section}.csv"] = _collection(entities, kind)
    if game.routes:
        _free(result, "routes.csv", game)
        extras = [name for name in ROUTE_EXTRAS if any(name in route.extras for route in game.routes)]
        rows = [["from", "to", "length", "color", *extras]]
        for route in game.routes:
            ends = [place.id + (f".{point}" if point else "") for place, point in zip((route.a, route.b), route.ends)]
            rows.append([*ends, str(route.length), ", ".join(c.id for c in route.colors),
                         *(_cell(route.extras.get(name)) for name in extras)])
        result["routes.csv"] = rows
    return result


def _free(result: dict, name: str, game: Game) -> None:
    if name in result:
        raise OutputError(game.source, f"deck '{name[:-4]}' and the game's {name[:-4]} would both be written to {name}",
                          "rename the deck (its id) to export the game's tables")


def _collection(entities: list[Entity], kind: str) -> list[list[str]]:
    named = any(e.name != e.id for e in entities)
    latin = any(e.latin != latin_of(e.id) for e in entities)
    attrs = [name for name in ATTRIBUTES[kind] if any(name in e.attrs for e in entities)]
    header = [ID_COLUMN, *(["name"] if named else []), *(["latin"] if latin else []), *attrs]
    rows = [header]
    for e in entities:
        rows.append([e.id, *([e.name if e.name != e.id else ""] if named else []),
                     *([e.latin if e.latin != latin_of(e.id) else ""] if latin else []),
                     *(_cell(e.attrs.get("points") if name == "at" and e.attrs.get("points") else e.attrs.get(name))
                       for name in attrs)])
    return rows


def _cell(value) -> str:
    """A typed value as a cell that reads back as the same value."""
    if value is None:
        return ""
    if isinstance(value, Entity):
        return value.id
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, dict):   # a place's named points, as YAML's flow mapping
        return "{" + ", ".join(f"{name}: [{_cell(x)}, {_cell(y)}]" for name, (x, y) in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        if any(isinstance(item, (list, tuple)) for item in value):   # bends: a list of points, as YAML's flow list
            return "[" + ", ".join("[" + ", ".join(_cell(v) for v in item) + "]" for item in value) + "]"
        return ", ".join(_cell(item) for item in value)
    return str(value)


def _number(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)


def csv_text(rows: list[list[str]]) -> str:
    stream = io.StringIO()
    csv.writer(stream, lineterminator="\n").writerows([guarded(cell) for cell in row] for row in rows)  # no formulas
    return stream.getvalue()


def write_csv(game: Game, out_dir: Path) -> list[Path]:
    """Write ``tables(game)`` into ``out_dir`` (made if missing); each file replaced whole, by a rename."""
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        written = []
        for name, rows in tables(game).items():
            target = out_dir / name
            handle, temporary = tempfile.mkstemp(prefix=f".{name}.", dir=out_dir)
            try:
                with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
                    stream.write(csv_text(rows))
                os.chmod(temporary, 0o644)  # mkstemp makes it private; the tables are for people
                os.replace(temporary, target)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
            written.append(target)
        return written
    except OSError as error:
        raise OutputError(Source(Path(error.filename)) if error.filename else None,
                          f"cannot write the export: {error.strerror or error}",
                          "check that the --out folder is writable and the disk has room") from None
