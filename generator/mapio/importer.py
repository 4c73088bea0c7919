"""``pnpgen import``: a TTR Map Editor map (``generator.mapio.ttrme``) into a new game folder.

The folder starts as ``pnpgen new`` writes the route starter (English), so it has everything a
game needs (train cards, components, tables, rules); then the map's own files replace the
starter's: ``map.yaml`` (places at their positions in mm, routes as rows: a double route is one
row with a colour per track when its tracks agree on length and extras), ``palette.yaml`` (the
colours the routes use), ``decks.yaml`` (train cards for those colours, one ticket deck per ticket
set, long tickets in a deck of their own), ``tables.yaml`` (route scoring up to the longest route),
``game.yaml`` (the map's name) and ``rules.md`` (the map's rules text, if it has one). What pnpgen
does not use is kept in ``ttr-map-editor.json`` beside them, for ``pnpgen export ttr-map-editor``.

Everything is read and written to text before the folder is made: on any error nothing is written.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from generator import __version__
from generator.errors import ContentError
from generator.mapio.ttrme import EditorMap, Stop, Track, read_files
from generator.new import create_game
from generator.paths import folder_name, name_problem, plain_name

#: the file of what pnpgen keeps for the editor (ids, styles, background …)
SIDECAR = "ttr-map-editor.json"
#: the marks around the rules text in rules.md, so an export finds it again (Jinja comments: never printed)
RULES_BEGIN = "{# ttr-map-editor rules: begin #}"
RULES_END = "{# ttr-map-editor rules: end #}"
#: the editor's colours → pnpgen palette entries (gray, white and black are pnpgen's own, given symbols here)
PALETTE = {
    "red": ('"#cf3429"', "circle"), "blue": ('"#2f6db5"', "diamond"), "green": ('"#3f8f3a"', "triangle"),
    "yellow": ('"#f0cb2a"', "star"), "black": ('"#2b2b2b"', "cross"), "white": ('"#f3f1ea"', "drop"),
    "orange": ('"#e8892b"', "square"), "purple": ('"#8a4f9e"', "hexagon"),
}
INK = {"yellow": "#222222", "white": "#222222"}
#: route scoring of the published maps, 1–8 spaces; longer routes rise by 4 a space
SCORING = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}
CARDS_PER_COLOUR = 12
LOCOMOTIVES = 14
PLAYERS = (2, 4)


def import_map(paths: list[Path], folder: Path) -> tuple[list[Path], list[str]]:
    """Read the editor's files and write the game into ``folder`` (new, or empty); (files written, notes)."""
    folder = Path(os.path.abspath(folder))
    plain_name(folder_name(folder), None, "game folder name",
               "name the folder with letters, digits, '-', '_', '.' and '+' only (e.g. harbour): it is the game's id")
    if folder.is_symlink() or folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ContentError(None, f"{folder} already exists and is not an empty folder",
                           "name a new folder with --to (pnpgen import makes it), or empty this one first")
    board = read_files([Path(p) for p in paths])
    texts, notes = game_files(board)
    parent = folder.parent
    parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.import-", dir=parent))
    try:
        game = staging / folder.name
        create_game(game, "route", "en")
        for name, text in texts.items():
            (game / name).write_text(text, encoding="utf-8")
        _fit_score_markers(game / "components.yaml", board.furniture.get("score_track_depth", STARTER_DEPTH))
        if folder.exists():
            folder.rmdir()
        os.replace(game, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return sorted(p for p in folder.rglob("*") if p.is_file()), notes


#: mm across the starter's score track band, and its markers' size (templates/new/route)
STARTER_DEPTH, STARTER_MARKERS = 17, 16


def _fit_score_markers(components: Path, depth: float) -> None:
    """A map whose score track is narrower than the starter's gets markers that fit its cells (PNP508: 1 mm of play)."""
    if depth >= STARTER_DEPTH:
        return
    text = components.read_text(encoding="utf-8")
    block = text.index("score-markers:")
    line = re.compile(rf"^(\s+size: ){STARTER_MARKERS}\b", re.MULTILINE).search(text, block)
    if line is not None:
        size = _depth(max(1.0, float(depth) - 2))
        components.write_text(text[:line.start()] + line.group(1) + size + text[line.end():], encoding="utf-8")


def game_files(board: EditorMap) -> tuple[dict[str, str], list[str]]:
    """The texts of the files that replace the starter's, and what the designer should know."""
    notes: list[str] = []
    names = {stop.key: stop.name for stop in board.stops}
    rows = _rows(board, names, notes)
    colours = sorted({t.colour for t in board.tracks if not t.own_colour} - {"neutral"}, key=list(PALETTE).index)
    colours = colours + sorted({t.own_colour for t in board.tracks if t.own_colour}) or ["red"]
    spaces = sum(t.length for t in board.tracks)
    longest = max((t.length for t in board.tracks), default=1)
    decks = _ticket_decks(board, names)
    texts = {
        "game.yaml": _game_yaml(board, spaces),
        "map.yaml": _map_yaml(board, rows),
        "palette.yaml": _palette_yaml(colours, board.palette),
        "decks.yaml": _decks_yaml(colours, decks),
        "tables.yaml": _tables_yaml(longest),
        "rules.md": _rules_md(board),
        SIDECAR: _sidecar(board, {deck_id: {"set": label, "long": long} for deck_id, _, label, long, _ in decks}),
    }
    if board.extra.get("infrastructure"):
        notes.append(f"{len(board.extra['infrastructure'])} pre-built lines (route types without wagon spaces) are "
                     f"not routes in pnpgen: kept in {SIDECAR} for the export")
    if not decks:
        notes.append("the map has no tickets: decks.yaml has the train cards only")
    return texts, notes


def _rows(board: EditorMap, names: dict[str, str], notes: list[str]) -> list[str]:
    """Route rows: the tracks between one pair of stops, in the map's order, joined into one row with a colour
    per track when they agree on length and extras (pnpgen's double route), else a row each."""
    groups: dict[tuple[str, str], list[Track]] = {}
    for track in board.tracks:
        groups.setdefault(tuple(sorted((track.a, track.b))), []).append(track)  # type: ignore[arg-type]
    rows = []
    for tracks in groups.values():
        first = tracks[0]
        same = all((t.length, t.tunnel, t.locomotives, t.bends, t.curve) ==
                   (first.length, first.tunnel, first.locomotives, first.bends, first.curve) for t in tracks)
        for row in ([tracks] if same else [[t] for t in tracks]):
            rows.append(_row(row, names))
        if not same:
            notes.append(f"{names[first.a]} – {names[first.b]}: {len(tracks)} routes that differ in length or "
                         f"extras are written as {len(tracks)} rows (check reports PNP305 until pnpgen draws them apart)")
    return rows


def _row(tracks: list[Track], names: dict[str, str]) -> str:
    track = tracks[0]
    colours = [t.own_colour or _colour(t.colour) for t in tracks]
    colour = colours[0] if len(colours) == 1 else f"[{', '.join(colours)}]"
    extras = []
    if track.bends:
        extras.append("bends: [" + ", ".join(f"[{_mm(x)}, {_mm(y)}]" for x, y in track.bends) + "]")
    if track.curve:
        extras.append(f"curve: {_mm(track.curve)}")
    if track.tunnel:
        extras.append("tunnel: true")
    if track.locomotives:
        extras.append(f"ferry: {track.locomotives}")
    tail = f", {{{', '.join(extras)}}}" if extras else ""
    return f"  - [{quote(names[track.a])}, {quote(names[track.b])}, {track.length}, {colour}{tail}]"


def _colour(key: str) -> str:
    return "gray" if key == "neutral" else key


def _mm(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.1f}"


_PLAIN = re.compile(r"^[^\W\d_][\w .'’()-]*(?<![ .])$")
_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def quote(text: str) -> str:
    """A name as YAML writes it: plain when it can be (``Hill Town``), else a double-quoted string."""
    if _PLAIN.match(text) and text.lower() not in _YAML_WORDS and "  " not in text:
        return text
    return json.dumps(text, ensure_ascii=False)


def _game_yaml(board: EditorMap, spaces: int) -> str:
    trains = max(1, min(45, spaces // PLAYERS[1]))
    terminals = (f"  terminals: [{', '.join(board.terminals)}]   # place kinds a ticket may end at, never pass "
                 f"through\n") if board.terminals else ""
    return f"""# {board.name} — imported from the TTR Map Editor by `pnpgen import`. Change anything: run
# `pnpgen check <folder>` after each edit; it names the file and line of every mistake.
game:
  title: {quote(board.name)}
  latin: {quote(board.name)}
  language: en
  players: [{PLAYERS[0]}, {PLAYERS[1]}]
  trains_per_player: {trains}         # the map has {spaces} train spaces: players × trains must not exceed them
{terminals}include:
  - palette.yaml
  - map.yaml
  - decks.yaml
  - tables.yaml
  - components.yaml
print:
  card: {{size: [44, 68], bleed: 3, safe: 3}}   # mm: card size, bleed beyond the cut, safe zone inside it
"""


def _map_yaml(board: EditorMap, rows: list[str]) -> str:
    places = "\n".join(_place(stop) for stop in board.stops)
    width, height = board.size
    furniture = "".join(f"    {key}: [{_mm(board.furniture[key][0])}, {_mm(board.furniture[key][1])}]\n"
                        for key in ("title_at", "legend_at") if key in board.furniture)
    return f"""# The map, imported from the TTR Map Editor: `at:` is the stop's centre in mm from the board's top-left
# corner; a route is [end, end, spaces, colour], a colour list a double route; bends are corners (the editor
# draws a smooth curve through them unless the route says otherwise).
places:
{places}

routes:
{chr(10).join(rows) if rows else "  []"}

boards:
  map:
    name: {quote(board.name)}
    latin: {quote(board.name)}
    size: [{_mm(width)}, {_mm(height)}]
    score_track: {board.furniture.get("score_track", 100)}
    score_track_depth: {_depth(board.furniture.get("score_track_depth", STARTER_DEPTH))}   # mm: markers fit a cell (PNP508)
    legend: route_scoring
{furniture}"""


def _depth(mm: float) -> str:
    return str(int(mm)) if float(mm).is_integer() else str(mm)


def _place(stop: Stop) -> str:
    return f"  {quote(stop.name)}: {{name: {quote(stop.name)}, kind: {stop.kind}, at: [{_mm(stop.at[0])}, {_mm(stop.at[1])}]}}"


def _palette_yaml(colours: list[str], own: dict) -> str:
    lines = ["# The route colours of the map (gray takes cards of any one colour), each with the symbol printed on",
             "# its cards and spaces for colour-blind players (check PNP710).", "palette:"]
    for colour in colours:
        if colour in own:   # a colour of pnpgen's own, as an export wrote it
            entry = own[colour]
            symbol = f", symbol: {entry['symbol']}" if entry["symbol"] else ""
            latin = quote(entry["latin"])
            lines.append(f"  {colour}: {{hex: \"{entry['hex']}\", name: {latin}, latin: {latin}{symbol}}}")
            continue
        hex_value, symbol = PALETTE[colour]
        ink = f", ink: \"{INK[colour]}\"" if colour in INK else ""
        lines.append(f"  {colour}: {{hex: {hex_value}, name: {colour}, latin: {colour}{ink}, symbol: {symbol}}}")
    lines += ['  locomotive: {hex: "#c9a227", name: Locomotive, latin: Locomotive}   # the wild card',
              '  train-back: {hex: "#1d2a44", name: train cards, latin: train back}',
              '  ticket-back: {hex: "#7a3b2e", name: tickets, latin: ticket back}',
              '  p-red: {hex: "#d9534f", name: red, latin: red}',
              '  p-blue: {hex: "#4a7fc1", name: blue, latin: blue}',
              '  p-green: {hex: "#5aa05a", name: green, latin: green}',
              '  p-yellow: {hex: "#f2c230", name: yellow, latin: yellow, ink: "#222222"}']
    return "\n".join(lines) + "\n"


def _ticket_decks(board: EditorMap, names: dict[str, str]) -> list[tuple[str, str, str, bool, list[str]]]:
    """(deck id, its name, the ticket set's label, long, card rows) per ticket set, long tickets in a deck of
    their own."""
    decks: dict[tuple[str, bool], list[str]] = {}
    for ticket in board.tickets:
        decks.setdefault((ticket.deck, ticket.long), []).append(
            f"      - [{quote(names[ticket.a])}, {quote(names[ticket.b])}, {ticket.points}]")
    out: list[tuple[str, str, str, bool, list[str]]] = []
    used: set[str] = set()
    for (label, long), cards in decks.items():
        base = "tickets" if not out and not long else slug(label)
        deck_id = base + ("-long" if long else "")
        number = 2
        while deck_id in used or deck_id == "train-cards":
            deck_id, number = f"{base}-{number}" + ("-long" if long else ""), number + 1
        used.add(deck_id)
        out.append((deck_id, label + (" (long)" if long else ""), label, long, cards))
    return out


def slug(text: str) -> str:
    """A deck id from a name: lower-case letters, digits and '-' only (a file name in the output)."""
    value = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-")
    if value and name_problem(value):   # a set named "Con" or "NUL": a Windows device's name, refused as a deck id
        value += "-tickets"
    return value or "tickets"


def _decks_yaml(colours: list[str], decks: list[tuple[str, str, str, bool, list[str]]]) -> str:
    counts = ", ".join(f"{c}: {CARDS_PER_COLOUR}" for c in colours)
    cards = "\n".join(f"      - {{color: {c}, count: {CARDS_PER_COLOUR}}}" for c in colours)
    text = f"""# Decks: train cards for the map's colours ({CARDS_PER_COLOUR} each and {LOCOMOTIVES} locomotives, as in the
# published maps), and the map's tickets, one deck per ticket set.
decks:
  train-cards:
    name: Train cards
    latin: Train cards
    expected: {CARDS_PER_COLOUR * len(colours) + LOCOMOTIVES}
    expected_by:
      color: {{{counts}, locomotive: {LOCOMOTIVES}}}
    role: train
    layout: ttr-train
    back: {{layout: ttr-back, color: train-back, icon: wagon}}
    vars: {{wild: locomotive, wild_icon: locomotive, icon: wagon}}
    fields: {{color: color}}
    cards:
{cards}
      - {{color: locomotive, count: {LOCOMOTIVES}}}
"""
    for deck_id, name, _, _, rows in decks:
        text += f"""
  {deck_id}:
    name: {quote(name)}
    latin: {quote(name)}
    expected: {len(rows)}
    layout: ttr-ticket
    back: {{layout: ttr-back, color: ticket-back, icon: station}}
    vars: {{color: ticket-back}}
    fields: {{from: place, to: place, points: int}}
    cards:
{chr(10).join(rows)}
"""
    return text


def _tables_yaml(longest: int) -> str:
    scoring = {n: SCORING.get(n, SCORING[8] + 4 * (n - 8)) for n in range(1, max(longest, 4) + 1)}
    return ("# Figures the rules, the board's legend, the score sheet and the checker read.\ntables:\n"
            "  # a claimed route of N spaces scores this (the published maps' table)\n"
            f"  route_scoring: {{{', '.join(f'{n}: {p}' for n, p in scoring.items())}}}\n")


def escape_jinja(text: str) -> str:
    """Text that rules.md prints as it is: every ``{`` written as a Jinja expression, so nothing in it runs."""
    return text.replace("{", "{{ '{' }}")


def unescape_jinja(text: str) -> str:
    return text.replace("{{ '{' }}", "{")


def _rules_md(board: EditorMap) -> str:
    head = """{#- The rule sheet: Markdown with Jinja (templates/rules/macros.md.j2 writes figures from the YAML).
    The text between the two marks is the map's rules from the TTR Map Editor; pnpgen export writes it back. -#}
# {{ title }}

"""
    tail = """

## Components

{{ components_table() }}

{{ scoring_table('route_scoring', 'Route length', 'Points') }}
"""
    if board.rules is None:
        body = ("{{ players[0] }} to {{ players[1] }} players claim railway routes between {{ places | length }} "
                "cities and complete destination tickets.")
        return head + body + tail
    text = board.rules.strip("\n")
    if text.startswith("# "):   # the map's rules have a title of their own: one title, not two pages
        head = head.replace("# {{ title }}\n\n", "")
    return head + RULES_BEGIN + "\n" + escape_jinja(text) + "\n" + RULES_END + tail


def _sidecar(board: EditorMap, ticket_decks: dict) -> str:
    """What pnpgen does not use, for the export: the map's own fields, stops' and routes' (by stop names and
    the route's place among the tracks between them), ticket sets', pre-built lines."""
    names = {stop.key: stop.name for stop in board.stops}
    seen: dict[tuple[str, str], int] = {}
    routes = []
    for track in board.tracks:
        pair = (names[track.a], names[track.b])
        index = seen.get(pair, 0)
        seen[pair] = index + 1
        if track.extra:
            routes.append({"a": pair[0], "b": pair[1], "track": index, "fields": track.extra})
    data = {"about": f"kept by pnpgen import ({__version__}) for pnpgen export ttr-map-editor: the editor's fields "
                     "that pnpgen does not use",
            "map": board.extra.get("map", {}),
            "stops": {stop.name: stop.extra for stop in board.stops if stop.extra},
            "routes": routes,
            "decks": board.extra.get("decks", {}),
            "ticket_decks": ticket_decks,
            "infrastructure": board.extra.get("infrastructure", [])}
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
