"""``pnpgen export ttr-map-editor``: a game's map as the TTR Map Editor's JSON map file.

The first map board's places become stops (mm → the editor's units, its long side 1,100), each
track of a route an editor route (a double route two routes between the same stops), ``bends``
its bend points, ``tunnel``/``ferry`` its wagon style and locomotive spaces, every deck of tickets
(``from``, ``to``: places; ``points``) a ticket set. A game brought in by ``pnpgen import`` gets back
what the editor had and pnpgen does not use (``ttr-map-editor.json``), and its rules text (between
the marks in rules.md), so exporting and importing again gives the same game.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from generator import __version__, limits
from generator.errors import ContentError, OutputError, Source
from generator.mapio.importer import RULES_BEGIN, RULES_END, SIDECAR, unescape_jinja
from generator.mapio.ttrme import COLOURS, EditorMap, Stop, Ticket, Track, nearest_colour, to_json
from generator.model.game import Game
from generator.yamlsource import read_bounded


def editor_map(game: Game) -> EditorMap:
    """The game's first map board, its tickets and rules as the editor sees a map."""
    board = next((b for b in game.boards.values() if b.kind == "map"), None)
    if board is None:
        raise ContentError(game.source, f"game '{game.id}' has no map board to export",
                           "the TTR Map Editor holds maps: add a board (boards: with places at: [x, y])")
    kept = _sidecar(game.folder)
    ids: dict[str, object] = {name: fields.get("id") for name, fields in kept.get("stops", {}).items()
                              if isinstance(fields, dict)}
    result = EditorMap(name=game.title, size=(board.width, board.height))
    if board.score_track is not None:
        result.furniture["score_track"] = int(board.score_track)
    for key in ("title_at", "legend_at"):
        if getattr(board, key) is not None:
            result.furniture[key] = tuple(getattr(board, key))
    terminals = game.meta.get("terminals") or []
    result.terminals = tuple(str(t) for t in terminals)
    result.extra = {"map": kept.get("map", {}), "decks": kept.get("decks", {}),
                    "infrastructure": kept.get("infrastructure", [])}
    keys: dict[str, str] = {}
    used = {str(v) for v in ids.values() if v}
    for place in board.places:
        kept_id = ids.get(place.id)
        key = kept_id if isinstance(kept_id, str) else ""
        if not key or key in keys.values():
            number = len(keys) + 1
            while f"stop-{number}" in used:
                number += 1
            key = f"stop-{number}"
            used.add(key)
        keys[place.id] = key
        fields = dict(kept.get("stops", {}).get(place.id, {}))
        fields.pop("id", None)
        x, y = place.attrs["at"]
        # the editor prints a stop's name; routes and tickets in pnpgen name a place by its id: the name is the id
        result.stops.append(Stop(key, place.id, (float(x), float(y)), place.source, fields,
                                 str(place.attrs.get("kind") or "city")))
    route_fields = {(r["a"], r["b"], r["track"]): r["fields"] for r in kept.get("routes", [])
                    if isinstance(r, dict) and {"a", "b", "track", "fields"} <= r.keys()}
    seen: dict[tuple[str, str], int] = {}
    for broute in board.routes:
        route = broute.route
        pair = (route.a.id, route.b.id)
        for colour in route.colors:
            index = seen.get(pair, 0)
            seen[pair] = index + 1
            key = _colour(colour)
            track = Track(keys[route.a.id], keys[route.b.id], route.length, key or nearest_colour(colour.hex),
                          route.source, tuple(broute.bends), broute.curve, broute.tunnel, broute.ferry,
                          dict(route_fields.get((*pair, index), {})))
            if not key:   # a colour the editor lacks: drawn as its nearest there, itself when it comes back
                track.own_colour = colour.id
                result.palette[colour.id] = {"hex": colour.hex, "symbol": colour.symbol, "latin": colour.latin or colour.id}
            result.tracks.append(track)
    ticket_decks = kept.get("ticket_decks", {})
    for deck in game.decks.values():
        places = [name for name, kind in deck.fields.items() if kind == "place"]
        if len(places) != 2 or deck.fields.get("points") != "int":
            continue
        spec = ticket_decks.get(deck.id) if isinstance(ticket_decks.get(deck.id), dict) else {}
        label, long = str(spec.get("set") or deck.latin or deck.name), bool(spec.get("long"))
        for card in deck.cards:
            a, b = (card.values[name] for name in places)
            if a.id not in keys or b.id not in keys:
                continue   # a ticket to a place of another board
            for _ in range(card.count):
                result.tickets.append(Ticket(keys[a.id], keys[b.id], int(card.values["points"]), label, long, card.source))
    result.rules = _rules(game.folder)
    return result


def _colour(colour) -> str:
    """The editor's key for a pnpgen colour of the same name (id or Latin name), or "" when it has none."""
    for word in (colour.id, colour.latin):
        key = "neutral" if str(word).lower() in ("gray", "grey") else str(word).lower()
        if key in COLOURS:
            return key
    return ""


def _sidecar(folder: Path) -> dict:
    path = folder / SIDECAR
    if not path.is_file():
        return {}
    data = read_bounded(path, limits.MAX_MAP_FILE_BYTES, "MAX_MAP_FILE_BYTES", "map editor file",
                        "it is written by pnpgen import; import the map again")
    try:
        kept = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as error:
        raise ContentError(Source(path), f"{SIDECAR} is not the JSON pnpgen import wrote: {error}",
                           f"delete {SIDECAR} (the export then writes what the YAML says) or import the map again") from None
    return kept if isinstance(kept, dict) else {}


def _rules(folder: Path) -> str | None:
    path = folder / "rules.md"
    if not path.is_file():
        return None
    text = read_bounded(path, limits.MAX_FILE_BYTES, "MAX_FILE_BYTES", "rules file", "").decode("utf-8", "replace")
    start, end = text.find(RULES_BEGIN), text.find(RULES_END)
    if start < 0 or end < start:
        return None
    return unescape_jinja(text[start + len(RULES_BEGIN):end].strip("\n")) + "\n"


def write_map(game: Game, out_dir: Path) -> list[Path]:
    """Write ``OUT/<game>.json`` (``out_dir`` made if missing), replaced whole by a rename."""
    text = to_json(editor_map(game), __version__)
    out_dir = Path(out_dir)
    target = out_dir / f"{game.id}.json"
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=out_dir)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
                stream.write(text)
            os.chmod(temporary, 0o644)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        raise OutputError(Source(Path(error.filename)) if error.filename else None,
                          f"cannot write the export: {error.strerror or error}",
                          "check that the --out folder is writable and the disk has room") from None
    return [target]
