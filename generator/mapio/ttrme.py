"""The TTR Map Editor's files (github.com/bjornhagstrom/ticket-to-ride-map-editor), read and written.

Read: a JSON map file (``docs/FILE-FORMAT.md``: the envelope ``{format: "ticket-to-ride-map",
version, kind, board, payload}``, or a version 1 file without it; ``docs/MAP-FORMAT.md``: the
payload's stops, routes, tickets, ticket sets and rules) and CSV files of stops, routes and
tickets (``docs/CSV.md``), told apart by their header as the editor does: ``from``/``a``,
``to``/``b`` and ``points`` make a ticket file, the same with ``length`` a route file, ``name``
without ends a stop file. Coordinates become mm on the board (the editor's long side is 1,100
units; a 2×3 board is 790 × 525 mm).

Unlike the editor, which turns an unknown colour grey and leaves out a route to a missing stop,
the reader refuses both (a ``ContentError`` naming the file and the CSV line, or the JSON line and
field): an import is a one-off, and a silently grey route is found only at the printer. What pnpgen
does not use (styles, background, notes, ids, label angles …) is kept in ``extra`` so that an export
writes it back ("unknown fields survive", the format's rule 3).
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from generator import limits
from generator.errors import ContentError, Source
from generator.layout.symbols import SYMBOLS
from generator.load.values import PLACE_KINDS
from generator.sheets import Cell, read_sheet
from generator.yamlsource import read_bounded

FORMAT = "ticket-to-ride-map"
#: the newest file version read (4: a board may stand); a newer one is refused, as the format asks
NEWEST_VERSION = 4
#: units of the board's long side in the editor
LONG_SIDE = 1100
#: board formats: id → (long side, short side) in mm; older ids open as board-2x3, as in the editor
BOARD_FORMATS = {"board-2x3": (790.0, 525.0), "board-2x4": (1053.0, 526.0)}
#: the editor's route colours (``neutral`` is grey: any colour) and the other words its CSV import reads
COLOURS = ("neutral", "red", "blue", "green", "yellow", "black", "white", "orange", "purple")
COLOUR_WORDS = {"grey": "neutral", "gray": "neutral", "any": "neutral", "": "neutral"}
#: route types that are pre-built lines (no wagon spaces, no cards) unless the map's own list says otherwise
INFRASTRUCTURE_TYPES = ("rail", "trail")
YES = ("yes", "true", "1", "ja", "y")
#: the editor's route colours as it draws them (``routeColors``), to find the nearest for a colour it lacks
EDITOR_RGB = {"red": (0xcf, 0x3f, 0x3f), "blue": (0x3b, 0x72, 0xb9), "green": (0x4c, 0x8b, 0x58),
              "yellow": (0xe2, 0xb8, 0x3b), "black": (0x3e, 0x41, 0x46), "white": (0xff, 0xfd, 0xf5),
              "orange": (0xda, 0x7a, 0x31), "purple": (0x8a, 0x5a, 0xa5)}


@dataclass
class Stop:
    key: str                      # the editor's id (a CSV stop file's id column, or the name)
    name: str
    at: tuple[float, float]       # mm from the board's top-left corner
    source: Source
    extra: dict = field(default_factory=dict)
    kind: str = "city"            # pnpgen's place kind (``country``…), carried in the stop's ``pnpgen`` field


@dataclass
class Track:
    """One editor route: one track (a double route is two tracks between the same stops)."""

    a: str                        # stop keys
    b: str
    length: int
    colour: str                   # one of COLOURS
    source: Source
    bends: tuple[tuple[float, float], ...] = ()
    curve: float = 0.0            # pnpgen's arc, carried in the route's ``pnpgen`` field
    tunnel: bool = False
    locomotives: int = 0
    extra: dict = field(default_factory=dict)
    #: pnpgen's own colour where the editor has none (``pink``): a key of ``EditorMap.palette``; ``colour`` is the
    #: editor's nearest
    own_colour: str = ""


@dataclass
class Ticket:
    a: str
    b: str
    points: int
    deck: str                     # the deck's (ticket set's) label
    long: bool
    source: Source


@dataclass
class EditorMap:
    name: str
    size: tuple[float, float]     # the board in mm (width, height)
    stops: list[Stop] = field(default_factory=list)
    tracks: list[Track] = field(default_factory=list)
    tickets: list[Ticket] = field(default_factory=list)
    rules: str | None = None
    #: place kinds a ticket may end at but never pass through (pnpgen's ``terminals:``)
    terminals: tuple[str, ...] = ()
    #: pnpgen colours the editor does not have: id → {hex, symbol, latin} (carried in the payload's ``pnpgen``)
    palette: dict = field(default_factory=dict)
    #: the pnpgen board's furniture: ``score_track`` (cells), ``title_at``/``legend_at`` (mm), when not the defaults
    furniture: dict = field(default_factory=dict)
    #: what pnpgen does not use, written back by an export: ``map`` (the payload's own fields), ``decks``
    #: (label → the ticket set's fields), ``infrastructure`` (pre-built lines, as the editor wrote them)
    extra: dict = field(default_factory=dict)


# --------------------------------------------------------------------------- reading


def read_files(paths: list[Path]) -> EditorMap:
    """One map from a JSON map file and/or CSV files of stops, routes and tickets."""
    if not paths:
        raise ContentError(None, "no file to import", "name a map file (.json) or CSV files of stops, routes, tickets")
    maps = [p for p in paths if p.suffix.lower() == ".json"]
    sheets = [p for p in paths if p.suffix.lower() in (".csv", ".tsv")]
    others = [p for p in paths if p not in maps and p not in sheets]
    if others:
        raise ContentError(Source(others[0]), f"'{others[0].name}' is neither a map file (.json) nor a CSV file",
                           "export the map from the TTR Map Editor as a map (JSON) or as spreadsheets (CSV)")
    if len(maps) > 1:
        raise ContentError(Source(maps[1]), "more than one map file", "import one map file (with CSV files beside it)")
    for path in paths:
        if not path.is_file():
            raise ContentError(Source(path), f"'{path}' does not exist", "check the file's name and folder")
    board = read_json(maps[0]) if maps else None
    if sheets:
        board = _with_sheets(board, sheets)
    assert board is not None
    _check_ends(board)
    return board


def _frame(format_id: str, portrait: bool) -> tuple[tuple[float, float], tuple[float, float]]:
    """(board size in mm, the editor's frame in units) for a board format."""
    long_mm, short_mm = BOARD_FORMATS.get(format_id, BOARD_FORMATS["board-2x3"])
    short_units = round(LONG_SIDE * short_mm / long_mm)
    if portrait:
        return (short_mm, long_mm), (short_units, LONG_SIDE)
    return (long_mm, short_mm), (LONG_SIDE, short_units)


def frame_for(size: tuple[float, float]) -> tuple[str, bool, tuple[float, float]]:
    """(format id, standing, frame in units) that an export writes for a board of ``size`` mm: the
    format whose shape is nearest, the frame the board's own shape with its long side 1,100 units."""
    width, height = size
    long_mm, short_mm = max(width, height), min(width, height)
    format_id = min(BOARD_FORMATS, key=lambda f: abs(BOARD_FORMATS[f][1] / BOARD_FORMATS[f][0] - short_mm / long_mm))
    standard = BOARD_FORMATS[format_id] == (long_mm, short_mm)   # the editor's own frame: whole units
    short_units = round(LONG_SIDE * short_mm / long_mm, None if standard else 2)
    portrait = height > width
    return format_id, portrait, ((short_units, LONG_SIDE) if portrait else (LONG_SIDE, short_units))


class _Json:
    """A parsed JSON map file and how to name its parts: the line of an object is found by its
    ``"id"`` after the list's key, the field by its path (``routes[3].color``)."""

    def __init__(self, path: Path, text: str):
        self.path = path
        self.text = text

    def where(self, listed: str, index: int, item) -> tuple[Source, str]:
        line = None
        key = self.text.find(f'"{listed}"')
        if isinstance(item, dict) and isinstance(item.get("id"), str) and key >= 0:
            found = re.compile(r'"id"\s*:\s*' + re.escape(json.dumps(item["id"], ensure_ascii=False))).search(self.text, key)
            if found:
                line = self.text.count("\n", 0, found.start()) + 1
        named = f" ({item['id']})" if isinstance(item, dict) and isinstance(item.get("id"), str) else ""
        return Source(self.path, line), f"{listed}[{index}]{named}"


def read_json(path: Path) -> EditorMap:
    data = read_bounded(path, limits.MAX_MAP_FILE_BYTES, "MAX_MAP_FILE_BYTES", "map file",
                        "a map file is a few MB at most (its background picture included)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ContentError(Source(path), f"the map file is not UTF-8 text (byte {error.start})",
                           "export the map again from the TTR Map Editor (its files are UTF-8 JSON)") from None
    try:
        top = json.loads(text, parse_constant=_no_constant, parse_int=_whole_number)
    except json.JSONDecodeError as error:
        raise ContentError(Source(path, error.lineno, str(error.colno)), f"malformed JSON: {error.msg}",
                           "export the map again, or mend the file in a JSON-aware editor") from None
    except _TooLarge as error:
        digits = re.search("[0-9]{" + str(len(str(limits.MAX_WHOLE_NUMBER))) + "}", text)
        raise ContentError(Source(path, text.count("\n", 0, digits.start()) + 1 if digits else None), str(error),
                           "no position, length or count is this large: export the map again") from None
    except (RecursionError, ValueError) as error:
        raise ContentError(Source(path), f"malformed JSON: {error}", "export the map again from the TTR Map Editor") from None
    where = _Json(path, text)
    if not isinstance(top, dict):
        raise ContentError(Source(path, 1), "a map file holds a JSON object, not a list or a value",
                           "export the map from the TTR Map Editor (Export → Map)")
    payload, frame, kind = _envelope(path, top)
    if kind not in ("map", "network"):
        raise ContentError(Source(path), f"this is a '{kind}' file: it holds no stops and routes",
                           "export the whole map (Export → Map) or its network, and import that")
    portrait = payload.get("orientation") == "portrait"
    size, default_frame = _frame(str(payload.get("format", "board-2x3")), portrait)
    own = payload.get("pnpgen")
    if isinstance(own, dict) and _pair(own.get("size")):
        size = (float(own["size"][0]), float(own["size"][1]))
    terminals = own.get("terminals") if isinstance(own, dict) else None
    frame = frame or default_frame
    scale = (size[0] / frame[0], size[1] / frame[1])
    name = payload.get("name")
    board = EditorMap(name=_text(name if isinstance(name, str) and name.strip() else path.stem, Source(path),
                                 "the map's name" if isinstance(name, str) and name.strip()
                                 else "the map's name (its file's name)"), size=size)
    rules = payload.get("rules")
    board.rules = rules if isinstance(rules, str) and rules.strip() else None
    if board.rules is not None and len(board.rules) > limits.MAX_RULES_MARKDOWN:
        raise ContentError(Source(path), f"the map's rules text has {len(board.rules):,} characters, more than "
                                         f"{limits.MAX_RULES_MARKDOWN:,} (limits.MAX_RULES_MARKDOWN): the game's "
                                         f"rules.md could not be read", "shorten the rules text in the editor")
    furniture = own.get("board") if isinstance(own, dict) else None
    if isinstance(furniture, dict):
        board.furniture = _furniture(furniture, Source(path))
    if isinstance(own, dict) and isinstance(own.get("palette"), dict):
        board.palette = _palette(own["palette"], Source(path))
    if isinstance(terminals, list):
        board.terminals = tuple(_kind(t, Source(path), "pnpgen.terminals") for t in terminals)
    board.extra["map"] = {k: v for k, v in payload.items()
                          if k not in ("stops", "routes", "tickets", "ticketSets", "rules", "name", "format",
                                       "orientation", "pnpgen")}
    stops = _list(payload, "stops", path)
    for index, item in enumerate(stops):
        board.stops.append(_json_stop(where, index, item, scale, size))
    keys = {stop.key for stop in board.stops}
    if len(keys) < len(board.stops):
        _twice(where, "stops", stops)
    infrastructure = _infrastructure(payload)
    board.extra["infrastructure"] = []
    routes = _list(payload, "routes", path)
    for index, item in enumerate(routes):
        src, named = where.where("routes", index, item)
        if not isinstance(item, dict):
            raise ContentError(src, f"{named} should be an object", "export the map again")
        if item.get("type") in infrastructure:
            board.extra["infrastructure"].append(item)   # a pre-built line: no spaces, no cards; kept for the export
            continue
        track = _json_track(item, src, named, keys, scale)
        mine = item.get("pnpgen")
        if isinstance(mine, dict) and "color" in mine:
            if mine["color"] not in board.palette:
                raise ContentError(src, f"{named}.pnpgen.color names {mine['color']!r}, which pnpgen.palette lacks",
                                   "export the map from pnpgen again")
            track.own_colour = mine["color"]
        board.tracks.append(track)
    decks = {}
    for index, item in enumerate(_list(payload, "ticketSets", path)):
        src, named = where.where("ticketSets", index, item)
        if not (isinstance(item, dict) and isinstance(item.get("id"), str)):
            raise ContentError(src, f"{named} should be an object with an id", "export the map again")
        label = _text(item.get("label") or item["id"], src, f"{named}.label")
        decks[item["id"]] = label
        board.extra.setdefault("decks", {})[label] = {k: v for k, v in item.items() if k != "label"}
    for index, item in enumerate(_list(payload, "tickets", path)):
        src, named = where.where("tickets", index, item)
        if not isinstance(item, dict):
            raise ContentError(src, f"{named} should be an object", "export the map again")
        a, b = (_ref(item, end, src, named, keys) for end in ("a", "b"))
        points = _whole(item.get("points"), src, f"{named}.points", 0)
        deck = decks.get(item.get("set")) or (next(iter(decks.values())) if decks else "Tickets")
        board.tickets.append(Ticket(a, b, points, deck, bool(item.get("long")), src))
    _bound(board, path)
    return board


class _TooLarge(ValueError):
    """A whole number in a map file past limits.MAX_WHOLE_NUMBER."""


def _whole_number(text: str) -> int:
    """A JSON whole number, refused past MAX_WHOLE_NUMBER: a coordinate of 10**400 met ``float()`` in the importer
    (OverflowError: int too large to convert to float, a traceback)."""
    value = int(text)
    if abs(value) > limits.MAX_WHOLE_NUMBER:
        raise _TooLarge(f"the map file holds a whole number of {len(text.lstrip('-'))} digits, larger than "
                        f"{limits.MAX_WHOLE_NUMBER:,} (MAX_WHOLE_NUMBER)")
    return value


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def _envelope(path: Path, top: dict) -> tuple[dict, tuple[float, float] | None, str]:
    """(payload, the coordinates' frame if the file says, kind) of a version 2+ file or a version 1 file."""
    if top.get("format") != FORMAT:
        return top, None, str(top.get("kind") or "map")
    version = top.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ContentError(Source(path), f"the map file's version should be a whole number, not {version!r}",
                           "export the map again from the TTR Map Editor")
    if version > NEWEST_VERSION:
        raise ContentError(Source(path), f"the map file is version {version}; pnpgen reads versions up to "
                                         f"{NEWEST_VERSION}", "export it from the editor in an older version, or "
                                                              "update pnpgen")
    payload = top.get("payload")
    if not isinstance(payload, dict):
        raise ContentError(Source(path), "the map file has no payload object", "export the map again")
    frame = None
    board = top.get("board")
    if isinstance(board, dict) and all(_number(board.get(k)) and board[k] > 0 for k in ("width", "height")):
        frame = (float(board["width"]), float(board["height"]))
    return payload, frame, str(top.get("kind") or "map")


def _list(payload: dict, key: str, path: Path) -> list:
    value = payload.get(key, [])
    if not isinstance(value, list):
        raise ContentError(Source(path), f"'{key}' should be a list", "export the map again")
    if len(value) > limits.MAX_MAP_ITEMS:
        raise ContentError(Source(path), f"the map has {len(value):,} {key}, more than {limits.MAX_MAP_ITEMS:,} "
                                         f"(MAX_MAP_ITEMS)", "no printable map has this many")
    return value


def _infrastructure(payload: dict) -> set:
    styles = payload.get("routeTypeStyles")
    if isinstance(styles, list) and styles:
        return {s.get("id") for s in styles if isinstance(s, dict) and s.get("infrastructure") is True}
    return set(INFRASTRUCTURE_TYPES)


def _json_stop(where: _Json, index: int, item, scale, size) -> Stop:
    src, named = where.where("stops", index, item)
    if not isinstance(item, dict):
        raise ContentError(src, f"{named} should be an object", "export the map again")
    key = item.get("id")
    if not isinstance(key, str) or not key:
        raise ContentError(src, f"{named} has no id", "export the map again")
    name = _text(item.get("name"), src, f"{named}.name")
    x, y = (_coordinate(item.get(k), src, f"{named}.{k}") for k in ("x", "y"))
    at = (round(x * scale[0], 1), round(y * scale[1], 1))
    _on_board(at, size, src, f"stop '{name}'")
    extra = {k: v for k, v in item.items() if k not in ("name", "x", "y", "pnpgen")}
    own = item.get("pnpgen")
    kind = _kind(own["kind"], src, f"{named}.pnpgen.kind") if isinstance(own, dict) and "kind" in own else "city"
    return Stop(key, name, at, src, extra, kind)


def _furniture(spec: dict, src: Source) -> dict:
    furniture: dict = {}
    track = spec.get("score_track")
    if track is not None:
        furniture["score_track"] = _whole(track, src, "pnpgen.board.score_track", 0, 1000)
    depth = spec.get("score_track_depth")
    if depth is not None:
        if not (_number(depth) and 1 <= depth <= 100):
            raise ContentError(src, f"pnpgen.board.score_track_depth should be mm between 1 and 100, not {depth!r}",
                               "export the map from pnpgen again")
        furniture["score_track_depth"] = float(depth)
    for key in ("title_at", "legend_at"):
        if key in spec:
            value = spec[key]
            if not (isinstance(value, list) and len(value) == 2 and all(_number(v) for v in value)):
                raise ContentError(src, f"pnpgen.board.{key} should be [x, y] in mm, not {value!r}",
                                   "export the map from pnpgen again")
            furniture[key] = (float(value[0]), float(value[1]))
    return furniture


def _palette(spec: dict, src: Source) -> dict:
    palette = {}
    for key, entry in list(spec.items())[:64]:
        if not (isinstance(key, str) and re.fullmatch(r"[a-z][a-z0-9-]{0,40}", key) and key not in COLOURS
                and isinstance(entry, dict) and isinstance(entry.get("hex"), str)
                and re.fullmatch(r"#[0-9a-fA-F]{6}", entry["hex"])
                and entry.get("symbol", "") in ("", *SYMBOLS) and isinstance(entry.get("latin", ""), str)):
            raise ContentError(src, f"pnpgen.palette: {key!r} is not a colour pnpgen wrote "
                                    "({hex: '#rrggbb', symbol, latin})", "export the map from pnpgen again")
        palette[key] = {"hex": entry["hex"], "symbol": entry.get("symbol", ""),
                        "latin": _text(entry.get("latin") or key, src, f"pnpgen.palette.{key}.latin")}
    return palette


def nearest_colour(hex_value: str) -> str:
    """The editor's colour nearest to a colour it does not have (by RGB distance; never grey, which means any)."""
    rgb = tuple(int(hex_value[i:i + 2], 16) for i in (1, 3, 5))
    return min(COLOURS[1:], key=lambda c: sum((a - b) ** 2 for a, b in zip(rgb, EDITOR_RGB[c])))


def _kind(value, src: Source, named: str) -> str:
    if value not in PLACE_KINDS:
        raise ContentError(src, f"{named} should be a place kind ({', '.join(PLACE_KINDS)}), not {value!r}",
                           "export the map from pnpgen again")
    return value


def _json_track(item: dict, src: Source, named: str, keys: set, scale) -> Track:
    a, b = (_ref(item, end, src, named, keys) for end in ("a", "b"))
    if a == b:
        raise ContentError(src, f"{named} joins a stop to itself", "give the route two different stops")
    length = _whole(item.get("length"), src, f"{named}.length", 1, limits.MAX_ROUTE_LENGTH)
    colour = colour_key(item.get("color", "neutral"), src, f"{named}.color")
    points = item.get("points") or []
    if not isinstance(points, list) or len(points) > limits.MAX_MAP_BENDS:
        raise ContentError(src, f"{named}.points should be a list of at most {limits.MAX_MAP_BENDS} bend points "
                                f"(MAX_MAP_BENDS)", "export the map again")
    bends = []
    for i, point in enumerate(points):
        if not isinstance(point, dict):
            raise ContentError(src, f"{named}.points[{i}] should be an object {{x, y}}", "export the map again")
        x, y = (_coordinate(point.get(k), src, f"{named}.points[{i}].{k}") for k in ("x", "y"))
        bends.append((round(x * scale[0], 1), round(y * scale[1], 1)))
    slots = item.get("locomotiveSlots") or []
    if not isinstance(slots, list) or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < length
                                              for s in slots):
        raise ContentError(src, f"{named}.locomotiveSlots should list wagon spaces 0–{length - 1}",
                           "export the map again")
    tunnel = item.get("wagonStyle") == "tunnel" or item.get("tunnel") is True
    own = item.get("pnpgen")
    curve = float(own["curve"]) if isinstance(own, dict) and _number(own.get("curve")) else 0.0
    if curve:
        bends = []                 # the one point an export wrote for the arc
    extra = {k: v for k, v in item.items()
             if k not in ("a", "b", "length", "color", "points", "tunnel", "pnpgen")
             and not (k == "wagonStyle" and v == "tunnel")
             and not (k == "locomotiveSlots" and sorted(v) == list(range(len(v))))}
    return Track(a, b, length, colour, src, tuple(bends), curve, tunnel, len(set(slots)), extra)


def _twice(where: _Json, listed: str, items: list) -> None:
    seen: dict = {}
    for index, item in enumerate(items):
        if item["id"] in seen:
            src, named = where.where(listed, index, item)
            raise ContentError(src, f"{named}: the id '{item['id']}' is used twice", "export the map again")
        seen[item["id"]] = index


def _ref(item: dict, end: str, src: Source, named: str, keys: set) -> str:
    key = item.get(end)
    if not isinstance(key, str) or key not in keys:
        raise ContentError(src, f"{named}.{end} names the stop {key!r}, which the map does not have",
                           "every route and ticket joins two stops of the map's stops list")
    return key


def colour_key(value, src: Source, named: str) -> str:
    """The editor's colour key for a colour as its files write it (``red``, ``Red``, ``Grey``, ``neutral``)."""
    text = str(value).strip().lower() if isinstance(value, (str, int)) else None
    if text is not None and text in COLOURS:
        return text
    if text is not None and text in COLOUR_WORDS:
        return COLOUR_WORDS[text]
    raise ContentError(src, f"{named}: the colour {value!r} is not one of the editor's",
                       "use one of: " + ", ".join(["grey", *COLOURS[1:]]))


def _text(value, src: Source, named: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ContentError(src, f"{named} should be a name, not {value!r}", "give it a name")
    text = value.strip()
    if len(text) > limits.MAX_MAP_NAME:
        raise ContentError(src, f"{named} has {len(text)} characters, more than {limits.MAX_MAP_NAME} (MAX_MAP_NAME)",
                           "shorten it: it is printed on the board")
    # C0 and C1 controls (U+0085, NEL, is a line break to YAML: a name holding one broke the YAML pnpgen wrote),
    # surrogates, and the Unicode line and paragraph separators
    if any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F or 0xD800 <= ord(c) <= 0xDFFF or c in "\u2028\u2029" for c in text):
        raise ContentError(src, f"{named} {text!r} holds a control character", "type the name again")
    return text


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _pair(value) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_number(v) and v > 0 for v in value)


def _coordinate(value, src: Source, named: str) -> float:
    if not _number(value):
        raise ContentError(src, f"{named} should be a number, not {value!r}", "export the map again")
    return float(value)


def _whole(value, src: Source, named: str, least: int, most: int | None = None) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*[0-9]{1,9}\s*", value):   # a CSV cell read as text
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < least or (most is not None and value > most):
        limit = f" at most {most}" if most is not None else ""
        raise ContentError(src, f"{named} should be a whole number from {least}{limit}, not {value!r}",
                           "write the number of spaces (or points) as a whole number")
    return value


def _on_board(at, size, src: Source, named: str) -> None:
    if not (0 <= at[0] <= size[0] and 0 <= at[1] <= size[1]):
        raise ContentError(src, f"{named} at [{at[0]:g}, {at[1]:g}] mm is off the board ({size[0]:g} × {size[1]:g} mm)",
                           "move it onto the board in the editor")


def _bound(board: EditorMap, path: Path) -> None:
    for name, items in (("stops", board.stops), ("routes", board.tracks), ("tickets", board.tickets)):
        if len(items) > limits.MAX_MAP_ITEMS:
            raise ContentError(Source(path), f"the map has {len(items):,} {name}, more than "
                                             f"{limits.MAX_MAP_ITEMS:,} (MAX_MAP_ITEMS)", "no printable map has this many")


def _check_ends(board: EditorMap) -> None:
    names: dict[str, Stop] = {}
    for stop in board.stops:
        other = names.get(stop.name.casefold())
        if other is not None:
            raise ContentError(stop.source, f"two stops are named '{stop.name}' (the other at {other.source})",
                               "rename one: pnpgen names places by their names")
        names[stop.name.casefold()] = stop
    if not board.stops:
        raise ContentError(None, "the map has no stops", "import a map with stops and routes (a stop file with a "
                                                         "route file, or a map file)")


# --------------------------------------------------------------------------- CSV


def csv_kind(header: list[str]) -> str:
    """stops, routes, tickets, distances or unknown: the editor's own rule (``csvFileKind``)."""
    names = [h.strip().lower() for h in header]
    if names and names[0] == "" and len(names) > 2:
        return "distances"
    ends = any(n in names for n in ("from", "a")) and any(n in names for n in ("to", "b"))
    if ends and "points" in names:
        return "tickets"
    if ends and "length" in names:
        return "routes"
    if not ends and "name" in names:
        return "stops"
    return "unknown"


def _with_sheets(board: EditorMap | None, paths: list[Path]) -> EditorMap:
    files: dict[str, list] = {"stops": [], "routes": [], "tickets": []}
    for path in paths:
        data = read_bounded(path, limits.MAX_MAP_FILE_BYTES, "MAX_MAP_FILE_BYTES", "CSV file",
                            "split the table; no map needs this many rows")
        first = data.decode("utf-8-sig", errors="replace").split("\n", 1)[0]
        if first.startswith((",", ";", "\t")) or first.strip() == "":
            raise ContentError(Source(path, 1), "this is a table of distances (an empty corner, then stops across "
                                                "the top), which cannot be read back",
                               "import the stops and routes instead")
        sheet = read_sheet(path, None, Source(path))
        kind = csv_kind(list(sheet.header))
        if kind not in files:
            raise ContentError(Source(path, 1), f"'{path.name}' is not a stop, route or ticket file: its header "
                                                f"is {', '.join(sheet.header)}",
                               "a stop file has Name (and X, Y); a route file From, To, Length; a ticket file "
                               "From, To, Points")
        files[kind].append(sheet)
    if files["stops"] or board is None:
        if not files["stops"]:
            raise ContentError(Source(paths[0]), "no stop file: pnpgen needs every stop's position",
                               "import the stop file (Name, X, Y) with the routes, or the map file")
        size, frame = _frame("board-2x3", False)
        board = EditorMap(name=_text(files["stops"][0].path.stem, Source(files["stops"][0].path),
                                     "the map's name (the stops file's name)"), size=size)
        board.extra["map"] = {}
        board.stops = _csv_stops(files["stops"], size, frame)
    lookup: dict[str, str] = {}
    for stop in board.stops:
        lookup[stop.name.casefold()] = stop.key
        lookup.setdefault(stop.key.casefold(), stop.key)
    if files["routes"]:
        board.tracks = [track for sheet in files["routes"] for track in _csv_tracks(sheet, lookup)]
        board.extra["infrastructure"] = []
    elif files["stops"]:
        raise ContentError(Source(files["stops"][0].path), "stops without a route file",
                           "import the route file (From, To, Length, Colour) with the stops")
    for sheet in files["tickets"]:
        board.tickets.extend(_csv_tickets(sheet, lookup))
    _bound(board, paths[0])
    return board


def _column(cells: dict[str, Cell], *names: str) -> Cell | None:
    lowered = {k.strip().lower(): v for k, v in cells.items()}
    return next((lowered[n] for n in names if n in lowered), None)


def _csv_stops(sheets, size, frame) -> list[Stop]:
    read = []
    for sheet in sheets:
        for row_src, cells in sheet.rows:
            name_cell = _column(cells, "name") or _column(cells, "id")
            if name_cell is None:
                continue
            name = _text(str(name_cell.value), name_cell.source, "the stop's name")
            key_cell = _column(cells, "id")
            x_cell, y_cell = _column(cells, "x"), _column(cells, "y")
            if x_cell is None or y_cell is None:
                raise ContentError(row_src, f"stop '{name}' has no X and Y",
                                   "give every stop its position (X across, Y down, in board units)")
            xy = (_csv_number(x_cell), _csv_number(y_cell))
            extra = {"type": str(t.value)} if (t := _column(cells, "type")) is not None else {}
            read.append((str(key_cell.value) if key_cell else name, name, xy, row_src, extra))
    if len(read) > limits.MAX_MAP_ITEMS:
        raise ContentError(read[0][3], f"more than {limits.MAX_MAP_ITEMS:,} stops (MAX_MAP_ITEMS)", "no map has this many")
    fits = all(0 <= x <= frame[0] and 0 <= y <= frame[1] for _, _, (x, y), _, _ in read)
    if fits:
        scale, offset = (size[0] / frame[0], size[1] / frame[1]), (0.0, 0.0)
    else:   # pixels from a scan, say: fitted to the board, shape kept, 50 units from the edges (the editor's rule)
        xs, ys = [p[2][0] for p in read], [p[2][1] for p in read]
        span = max(max(xs) - min(xs), 1e-9), max(max(ys) - min(ys), 1e-9)
        k = min((frame[0] - 100) / span[0], (frame[1] - 100) / span[1])
        unit = size[0] / frame[0]
        scale = (k * unit, k * unit)
        offset = (50 * unit - min(xs) * k * unit, 50 * unit - min(ys) * k * unit)
    stops = []
    for key, name, (x, y), src, extra in read:
        at = (round(offset[0] + x * scale[0], 1), round(offset[1] + y * scale[1], 1))
        stops.append(Stop(key, name, at, src, extra))
    return stops


def _csv_number(cell: Cell) -> float:
    value = cell.value
    if isinstance(value, str):
        try:
            value = float(value.replace(",", "."))
        except ValueError:
            raise ContentError(cell.source, f"{value!r} is not a number", "write a number") from None
    if not _number(value):
        raise ContentError(cell.source, f"{value!r} is not a number", "write a number")
    return float(value)


def _csv_tracks(sheet, lookup: dict[str, str]) -> list[Track]:
    tracks = []
    for row_src, cells in sheet.rows:
        ends = _csv_ends(row_src, cells, lookup, "route")
        if ends is None:
            continue
        length_cell = _column(cells, "length")
        length = _whole(length_cell.value if length_cell else None, length_cell.source if length_cell else row_src,
                        "the route's length", 1, limits.MAX_ROUTE_LENGTH)
        colour_cell = _column(cells, "colour", "color")
        colour = colour_key(colour_cell.value, colour_cell.source, "the route") if colour_cell else "neutral"
        wagon = _column(cells, "wagon style")
        tunnel_cell = _column(cells, "tunnel")
        tunnel = (str(wagon.value).strip().lower() == "tunnel") if wagon else bool(
            tunnel_cell and str(tunnel_cell.value).strip().lower() in YES)
        locos_cell = _column(cells, "locomotives", "ferrylocomotives")
        locos = _whole(locos_cell.value, locos_cell.source, "locomotives", 0, length) if locos_cell else 0
        extra = {}
        for column, key in (("type", "type"), ("kind", "kind")):
            if (cell := _column(cells, column)) is not None:
                extra[key] = str(cell.value)
        if wagon and not tunnel:
            extra["wagonStyle"] = str(wagon.value)
        tracks.append(Track(ends[0], ends[1], length, colour, row_src, (), 0.0, tunnel, locos, extra))
    return tracks


def _csv_ends(row_src: Source, cells, lookup, what: str) -> tuple[str, str] | None:
    cells_ab = (_column(cells, "from", "a"), _column(cells, "to", "b"))
    if cells_ab[0] is None and cells_ab[1] is None:
        return None
    ends = []
    for cell, end in zip(cells_ab, ("From", "To")):
        if cell is None:
            raise ContentError(row_src, f"the {what} has no {end} stop", f"write the stop at each end of the {what}")
        key = lookup.get(str(cell.value).strip().casefold())
        if key is None:
            raise ContentError(cell.source, f"the {what} names the stop '{cell.value}', which the stop file does not have",
                               "add the stop to the stop file, or correct the name (any case)")
        ends.append(key)
    if ends[0] == ends[1]:
        raise ContentError(row_src, f"the {what} joins a stop to itself", "give it two different stops")
    return ends[0], ends[1]


def _csv_tickets(sheet, lookup: dict[str, str]) -> list[Ticket]:
    tickets = []
    for row_src, cells in sheet.rows:
        ends = _csv_ends(row_src, cells, lookup, "ticket")
        if ends is None:
            continue
        points_cell = _column(cells, "points")
        points = _whole(points_cell.value if points_cell else None, points_cell.source if points_cell else row_src,
                        "the ticket's points", 0)
        deck_cell = _column(cells, "deck")
        deck = _text(str(deck_cell.value), deck_cell.source, "the deck's name") if deck_cell else "Imported deck"
        long_cell = _column(cells, "long deck", "long")
        tickets.append(Ticket(ends[0], ends[1], points, deck,
                              bool(long_cell and str(long_cell.value).strip().lower() in YES), row_src))
    return tickets


# --------------------------------------------------------------------------- writing


def to_json(board: EditorMap, app_version: str) -> str:
    """The map as the editor's JSON map file (version 3, or 4 for a standing board): deterministic, so
    no ``written`` time; pnpgen's own figures (the board size, a route's arc) in ``pnpgen`` fields."""
    format_id, portrait, frame = frame_for(board.size)
    sx, sy = frame[0] / board.size[0], frame[1] / board.size[1]

    def units(point):
        return {"x": round(point[0] * sx, 2), "y": round(point[1] * sy, 2)}

    payload: dict = {"name": board.name, "format": format_id}
    if portrait:
        payload["orientation"] = "portrait"
    payload["pnpgen"] = {"size": [board.size[0], board.size[1]]}
    if board.terminals:
        payload["pnpgen"]["terminals"] = list(board.terminals)
    if board.palette:
        payload["pnpgen"]["palette"] = board.palette
    if board.furniture:
        payload["pnpgen"]["board"] = {k: list(v) if isinstance(v, tuple) else v for k, v in board.furniture.items()}
    payload["stops"] = [{"id": stop.key, "name": stop.name, **units(stop.at), **stop.extra,
                         **({"pnpgen": {"kind": stop.kind}} if stop.kind != "city" else {})} for stop in board.stops]
    routes: list[dict] = []
    used = {str(r.get("id")) for r in board.extra.get("infrastructure", [])}
    for track in board.tracks:
        route = dict(track.extra)
        if "id" not in route or route["id"] in used:
            route["id"] = _fresh_id("route", len(routes) + 1, used)
        used.add(route["id"])
        route.update({"a": track.a, "b": track.b, "length": track.length, "color": track.colour})
        route.setdefault("type", "city")
        if track.own_colour:
            route["pnpgen"] = {"color": track.own_colour}
        if track.curve:
            route["points"] = [units(arc_apex(board, track))]
            route["pnpgen"] = {**route.get("pnpgen", {}), "curve": track.curve}
            route.setdefault("curved", True)
        elif track.bends:
            route["points"] = [units(p) for p in track.bends]
            route.setdefault("curved", False)   # pnpgen draws corners; the editor's default is a smooth curve
        if track.tunnel:
            route["wagonStyle"] = "tunnel"
        if track.locomotives and len(route.get("locomotiveSlots", [])) != track.locomotives:
            route["locomotiveSlots"] = list(range(track.locomotives))
        routes.append(route)
    payload["routes"] = routes + list(board.extra.get("infrastructure", []))
    decks: dict[str, str] = {}
    sets: list[dict] = []
    for label in dict.fromkeys(t.deck for t in board.tickets):
        fields = dict(board.extra.get("decks", {}).get(label, {}))
        fields.setdefault("id", f"deck-{len(sets) + 1}")
        decks[label] = fields["id"]
        sets.append({**fields, "label": label})
    payload["ticketSets"] = sets
    tickets = []
    for index, ticket in enumerate(board.tickets, start=1):
        item = {"id": f"t-{index}", "a": ticket.a, "b": ticket.b, "points": ticket.points, "set": decks[ticket.deck]}
        if ticket.long:
            item["long"] = True
        tickets.append(item)
    payload["tickets"] = tickets
    if board.rules:
        payload["rules"] = board.rules
    for key, value in board.extra.get("map", {}).items():
        payload.setdefault(key, value)
    envelope = {"format": FORMAT, "version": 4 if portrait else 3, "kind": "map",
                "app": {"name": "pnpgen", "version": app_version},
                "board": {"width": frame[0], "height": frame[1]}, "payload": payload}
    return json.dumps(envelope, ensure_ascii=False, indent=2) + "\n"


def _fresh_id(prefix: str, number: int, used: set) -> str:
    while f"{prefix}-{number}" in used:
        number += 1
    return f"{prefix}-{number}"


def arc_apex(board: EditorMap, track: Track) -> tuple[float, float]:
    """The middle of a pnpgen arc (``curve`` mm to the right of a → b): the one point the editor's smooth
    curve passes through."""
    stops = {stop.key: stop.at for stop in board.stops}
    (ax, ay), (bx, by) = stops[track.a], stops[track.b]
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy) or 1.0
    # right of a → b as seen on the board (y down): the direction (-dy, dx) rotated … (dy, -dx) is left
    nx, ny = -dy / length, dx / length
    return (round((ax + bx) / 2 + nx * track.curve, 1), round((ay + by) / 2 + ny * track.curve, 1))
