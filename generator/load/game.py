"""Load a game folder (game.yaml + the files it includes) into a ``Game``.

Structure is validated with the JSON Schema in ``generator/schema`` (the same
file editors can use; ``generator.load.schema`` maps its errors back to file:line). References
by name (a ticket's city, a card's colour) are resolved here, with a "did you
mean" when a name is wrong.
"""
from __future__ import annotations

import unicodedata
from pathlib import Path

from generator import PROJECT_ROOT
from generator.errors import ContentError, ContentErrors, Source, did_you_mean
from generator.load.components import load_components
from generator.load.schema import first_error, game_schema, game_validator, schema_error
from generator.load.yamlsource import LDict, load_yaml
from generator.model.game import Card, CardGeometry, Color, Deck, Entity, ExpectedBy, Follows, Game, Route, Side
from generator.model.network import is_ticket_deck, network
from generator.paths import NAME_HINT, folder_name, inside, plain_name

DEFAULT_PALETTE = PROJECT_ROOT / "templates" / "palette.yaml"

#: content section → the field type that names its entries
COLLECTIONS = {"places": "place", "areas": "area", "stations": "station", "lines": "line", "train_types": "train_type"}

#: attributes each collection's entries may have, with their types
ATTRIBUTES = {
    "place": {"at": "pair", "kind": "text", "area": "area", "passengers": "int", "note": "text"},
    "area": {"color": "color", "note": "text"},
    "station": {"note": "text"},
    "line": {"color": "color", "note": "text"},
    "train_type": {"color": "color", "stops": "list of station", "advance": "int", "note": "text"},
}
PLACE_KINDS = ("city", "country", "attraction", "free-city")
#: what the optional 5th item of a route row may say (how a board draws the route)
ROUTE_EXTRAS = ("bends", "curve", "tunnel", "ferry")
CORE_SECTIONS = ("palette", "tables", "decks", *COLLECTIONS)
SINGLE_FILE_SECTIONS = ("game", "include", "print")
DEFAULT_CARD = CardGeometry(63.5, 88.9, 3.0, 3.0)


def merged_sections() -> tuple[str, ...]:
    """Sections that may appear in any content file and are merged by key."""
    return tuple(k for k in game_schema()["properties"] if k not in SINGLE_FILE_SECTIONS and k != "routes")


def load_game(folder: Path, with_: tuple = ()) -> Game:
    """The game in ``folder``, with the add-ons it declares (``game: {with: […]}``) and those in ``with_``."""
    from generator.load.compose import compose  # compose reads add-ons with this module's readers

    folder = Path(folder)
    main = read_main(folder)
    merged: dict = {}
    routes: list[tuple[list, Source]] = []  # rows with their own lines, from every file
    collect(folder, main, merged, routes, _merge)
    addons = compose(folder, main, merged, routes, with_)
    game = _build(folder, main, merged, routes)
    game.addons = addons
    _replace_decks(game)
    if with_:  # an ad-hoc composition is its own output: output/<game>+<add-on>/
        game.id = plain_name("+".join([game.id, *(addon.id for addon in addons[len(addons) - len(with_):])]),
                             addons[-1].source, "the composed game's id")
    return game


def _replace_decks(game: Game) -> None:
    """Mark the decks an add-on replaces (the dice replace the train cards): kept for the checker, not printed."""
    for addon in game.addons:
        for role in addon.replaces:
            decks = [deck for deck in game.decks.values() if deck.role == role]
            if not decks:
                raise ContentError(addon.replaces_source or addon.source, f"add-on '{addon.id}' replaces the '{role}' deck, but "
                                                 f"{game.title} has no deck with role: {role}",
                                   f"add `role: {role}` to the deck it replaces in {game.folder.name}")
            for deck in decks:
                deck.replaced_by = addon


def read_main(folder: Path) -> LDict:
    if not folder.is_dir():
        raise ContentError(Source(folder), "no such game folder",
                           "give a folder under content/ that holds game.yaml")
    main_file = folder / "game.yaml"
    if not main_file.is_file():
        raise ContentError(Source(folder), "no game.yaml in this folder",
                           "every game folder needs game.yaml with a `game:` section")
    inside(main_file, (folder,), Source(main_file))  # a link to a file elsewhere is not the game's
    main = _read(main_file)
    if "game" not in main:
        raise ContentError(main.src(), "game.yaml has no `game:` section", "add `game:` with at least `title:`")
    return main


def collect(folder: Path, main: LDict, merged: dict, routes: list, merge) -> None:
    """Read game.yaml's sections and its included files' into ``merged`` (by key) and ``routes``."""
    main_file = (folder / "game.yaml").resolve()
    files = [main_file]
    for i, name in enumerate(main.get("include", [])):
        path = _inside(folder, name, main["include"].src(i))
        if path in files:  # read twice, every key of it would be "defined twice" at its own line
            raise ContentError(main["include"].src(i), "include: lists game.yaml itself" if path == main_file
                               else f"include: lists '{name}' twice",
                               "list each file once under include: (game.yaml is always read)")
        files.append(path)
    for path in files:
        data = main if path == main_file else _read(path)
        for key in SINGLE_FILE_SECTIONS:
            if key in data and path != main_file:
                raise ContentError(data.src(key), f"`{key}:` belongs in game.yaml only", "move it to game.yaml")
        for section in merged_sections():
            if section in data:
                merge(merged, section, data[section])
        if "routes" in data:
            routes += [(row, data["routes"].src(i)) for i, row in enumerate(data["routes"])]


def _inside(folder: Path, name: str, src: Source) -> Path:
    path = inside(folder / str(name), (folder,), src, name)
    if not path.is_file():
        raise ContentError(src, f"included file '{name}' does not exist",
                           did_you_mean(name, [p.name for p in folder.glob("*.y*ml")]) or "check the file name")
    return path


def _read(path: Path) -> LDict:
    data = load_yaml(path)
    if not isinstance(data, dict):
        raise ContentError(Source(path, 1), "a content file must be a mapping of sections (game:, decks:, …)",
                           "start each section at the left margin as `name:` (a list or a bare value cannot be read)")
    error = first_error(game_validator(), data)
    if error is not None:
        raise schema_error(data, error)
    return data


def _merge(merged: dict, section: str, value: LDict) -> None:
    target = merged.setdefault(section, {})
    for key, item in value.items():
        if key in target:
            first = target[key][1]
            raise ContentError(value.src(key), f"'{key}' is defined twice in {section} (first at {first})",
                               "rename or remove one of them")
        target[key] = (item, value.src(key))


# --------------------------------------------------------------------------- build

def _build(folder: Path, main: LDict, merged: dict, routes: list) -> Game:
    meta = main["game"]
    game_id = game_id_of(folder, main)
    printing = main.get("print", {})
    card = printing.get("card", {})
    size = card.get("size", (DEFAULT_CARD.width, DEFAULT_CARD.height))
    geometry = CardGeometry(float(size[0]), float(size[1]), float(card.get("bleed", DEFAULT_CARD.bleed)),
                            float(card.get("safe", DEFAULT_CARD.safe)))
    collections: dict[str, dict[str, Entity]] = {"color": _palette(merged.get("palette", {}))}
    for section, kind in COLLECTIONS.items():
        collections[kind] = entities(kind, [(key, attrs, src) for key, (attrs, src) in merged.get(section, {}).items()])
    resolver = _Resolver(collections)
    for kind in COLLECTIONS.values():
        for entity in collections[kind].values():
            type_attributes(entity, resolver)
    tables = {key: value for key, (value, _src) in merged.get("tables", {}).items()}
    decks = {str(deck_id): _deck(plain_name(deck_id, src, "deck id"), spec, src, geometry, resolver, tables)
             for deck_id, (spec, src) in merged.get("decks", {}).items()}
    route_list = [_route(row, src, resolver, collect=True) for row, src in routes]
    resolver.raise_collected()
    _check_game_declarations(meta, collections)
    players = tuple(meta["players"]) if "players" in meta else None
    extra = {section: merged[section] for section in merged_sections()
             if section not in CORE_SECTIONS and section in merged}
    game = Game(id=game_id, folder=folder, title=meta["title"], latin=meta.get("latin", ""),
                language=meta.get("language", "ja"), players=players, geometry=geometry,
                back_offset=tuple(printing.get("back_offset", (0.0, 0.0))), collections=collections,
                decks=decks, routes=route_list, tables=tables, source=main.src("game"),
                meta=meta, sections=extra)
    game.parts = load_components(game, resolver)
    _fill_auto_points(game)
    from generator.load.board import load_boards  # boards read the game's collections and routes
    game.boards = load_boards(game)
    return game


def game_id_of(folder: Path, main: LDict) -> str:
    """The id that names the game's output folder: `game: id:`, else the folder's name (a plain name either way)."""
    meta = main["game"]
    if "id" in meta:
        return plain_name(meta["id"], meta.src("id"), "game id")
    return plain_name(folder_name(folder), main.src("game"), "the game folder's name",
                      "rename the folder, or give the game an id in game.yaml (`game: {id: my-game}`); " + NAME_HINT)


def _check_game_declarations(meta: LDict, collections: dict) -> None:
    """The `game:` keys the checker reads: players is [fewest, most], terminals are place kinds,
    setup totals are place attributes."""
    if "players" in meta and meta["players"][0] > meta["players"][1]:
        low, high = meta["players"]
        raise ContentError(meta.src("players"), f"players: [{low}, {high}] has the fewest above the most",
                           f"write [fewest, most], e.g. [{high}, {low}]")
    for i, kind in enumerate(meta.get("terminals", [])):
        if kind not in PLACE_KINDS:
            raise ContentError(meta["terminals"].src(i), f"terminals: unknown place kind '{kind}'",
                               did_you_mean(kind, PLACE_KINDS) or "use one of: " + ", ".join(PLACE_KINDS))
    numeric = [name for name, type_name in ATTRIBUTES["place"].items() if type_name == "int"]
    for name in meta.get("setup", {}):
        if name not in numeric:
            raise ContentError(meta["setup"].src(name), f"setup: '{name}' is not a number attribute of places",
                               did_you_mean(name, numeric) or "setup totals add up place attributes: " + ", ".join(numeric))


def _fill_auto_points(game: Game) -> None:
    """`points: auto` on a ticket: the fewest spaces between its ends (terminals are never a way through)."""
    for deck in game.decks.values():
        for card in deck.cards:
            if "points" not in card.auto:
                continue
            length = network(game).shortest(card["from"], card["to"])
            if length is None:
                raise ContentError(card.source, f"points: auto, but {card['from'].id} and {card['to'].id} are not "
                                                f"connected (without passing through a terminal)",
                                   "connect them with routes, or write the points as a number")
            card.values["points"] = length


def entities(kind: str, items) -> dict[str, Entity]:
    """One collection's entities from (key, raw attributes, source), by id (the key as text, as
    names are looked up); their attributes stay raw until ``type_attributes``, which may need
    the whole collection (a place's area, a train type's stops)."""
    return {str(key): Entity(kind, str(key), str(attrs.get("name", key)), str(attrs.get("latin", latin_of(key))), attrs, src)
            for key, attrs, src in items}


def latin_of(key) -> str:
    """The Latin name an entity has without `latin:`: its id, if the id is written in Latin letters
    (Berlin, Düsseldorf, Times Square, jr), else none (高田馬場)."""
    text = str(key)
    return text if all(c.isascii() and c.isprintable() or c.isalpha() and unicodedata.name(c, "").startswith("LATIN ")
                       for c in text) else ""


def type_attributes(entity: Entity, resolver: "_Resolver") -> None:
    """Replace an entity's raw attributes (except name/latin) by values typed by ``ATTRIBUTES``,
    names resolved; file:line errors."""
    kind, entity_id, raw = entity.kind, entity.id, entity.attrs
    allowed = ATTRIBUTES[kind]
    attrs = {}
    for key, value in raw.items():
        if key in ("name", "latin"):
            continue
        if key not in allowed:
            raise ContentError(raw.src(key), f"unknown attribute '{key}' for {kind} '{entity_id}'",
                               did_you_mean(key, allowed) or "allowed: " + ", ".join(allowed))
        attrs[key] = resolver.value(value, allowed[key], raw.src(key), f"{kind} '{entity_id}' {key}")
    if kind == "place" and attrs.get("kind", "city") not in PLACE_KINDS:
        raise ContentError(raw.src("kind"), f"unknown place kind '{attrs['kind']}'",
                           "use one of: " + ", ".join(PLACE_KINDS))
    entity.attrs = attrs


def _palette(game_palette: dict) -> dict[str, Color]:
    base = load_yaml(DEFAULT_PALETTE).get("palette", {})
    merged = {key: (value, base.src(key)) for key, value in base.items()}
    merged.update(game_palette)
    colors = {}
    for key, (value, src) in merged.items():
        attrs = {"hex": value} if isinstance(value, str) else dict(value)
        attrs["hex"] = attrs["hex"].lower()
        colors[str(key)] = Color("color", str(key), str(attrs.pop("name", key)), str(attrs.pop("latin", key)), attrs, src)
    return colors


class _Resolver:
    """Turns content values into typed values, resolving names to entities."""

    SCALARS = ("int", "text", "bool", "pair", "number")

    def __init__(self, collections):
        self.collections = collections
        self.errors: list[ContentError] = []

    def collect(self, value, type_name: str, src: Source, what: str):
        """``value``, but a mistake is noted and reading goes on, so one run reports every
        misspelt name in cards and routes (``raise_collected`` raises them together)."""
        try:
            return self.value(value, type_name, src, what)
        except ContentError as error:
            self.errors.append(error)
            return None

    def raise_collected(self) -> None:
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            raise ContentErrors(self.errors)

    def check_type(self, type_name: str, src: Source, what: str) -> None:
        base = type_name.removeprefix("list of ").rstrip("?")
        if base not in self.SCALARS and base not in self.collections:
            raise ContentError(src, f"unknown field type '{type_name}' for {what}",
                               did_you_mean(base, [*self.SCALARS, *self.collections])
                               or "types: " + ", ".join([*self.SCALARS, *self.collections]) + " (or 'list of <type>')")

    def value(self, value, type_name: str, src: Source, what: str):
        type_name = type_name.rstrip("?")
        if type_name.startswith("list of "):
            if not isinstance(value, list):
                raise ContentError(src, f"{what} should be a list, not {value!r}", "write it as [a, b, c]")
            return [self.value(v, type_name[8:], src, what) for v in value]
        if type_name == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ContentError(src, f"{what} should be a whole number, not {value!r}", "write a number such as 7")
            return value
        if type_name == "number":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ContentError(src, f"{what} should be a number, not {value!r}", "write a number such as 7.5")
            return float(value)
        if type_name == "bool":
            if not isinstance(value, bool):
                raise ContentError(src, f"{what} should be true or false, not {value!r}", "write true or false")
            return value
        if type_name == "text":
            if isinstance(value, (dict, list)) or value is None:
                raise ContentError(src, f"{what} should be text, not {value!r}", "write plain text (quote it if needed)")
            return str(value)
        if type_name == "pair":
            if not _is_pair(value):
                raise ContentError(src, f"{what} should be two numbers [x, y] in mm, not {value!r}", "write [x, y]")
            return (float(value[0]), float(value[1]))
        entities = self.collections[type_name]
        if isinstance(value, (dict, list)) or str(value) not in entities:
            hint = did_you_mean(value, entities) if not isinstance(value, (dict, list)) else None
            section = next((s for s, k in COLLECTIONS.items() if k == type_name), "palette")
            raise ContentError(src, f"{what}: unknown {type_name} '{value}'",
                               hint or f"define it under `{section}:` or use one of: " + ", ".join(list(entities)[:12]))
        return entities[str(value)]


def _deck(deck_id: str, spec: LDict, src: Source, default: CardGeometry, resolver: _Resolver, tables: dict) -> Deck:
    size = spec.get("size", (default.width, default.height))
    geometry = CardGeometry(float(size[0]), float(size[1]), float(spec.get("bleed", default.bleed)),
                            float(spec.get("safe", default.safe)))
    fields = dict(spec.get("fields", {}))
    for name, type_name in fields.items():
        resolver.check_type(type_name, spec["fields"].src(name), f"field '{name}' of deck '{deck_id}'")
    back_spec = spec["back"]
    back = Side(str(back_spec["layout"]), {"title": spec["name"], "latin": spec.get("latin", ""),  # defaults: the deck's
                                           **{k: v for k, v in back_spec.items() if k != "layout"}},
                back_spec.src("layout"), f"the back of deck '{deck_id}'")
    deck = Deck(id=deck_id, name=spec["name"], latin=spec.get("latin", ""), expected=spec["expected"],
                layout=spec["layout"], back=back, geometry=geometry, fields=fields,
                vars=dict(spec.get("vars", {})), source=src, layout_source=spec.src("layout"),
                expected_source=spec.src("expected"), role=str(spec.get("role", "")))
    columns = spec.get("columns", list(fields))  # cards written as rows give the fields in order, unless columns: says
    if "columns" in spec:
        for i, column in enumerate(columns):
            if column != "count" and column not in fields:
                raise ContentError(spec["columns"].src(i), f"column '{column}' is not a field of deck '{deck_id}'",
                                   did_you_mean(column, fields) or "declare it under fields:")
    _deck_declarations(deck, spec, resolver, tables)
    tickets = is_ticket_deck(deck)
    cards = spec["cards"]
    for index, row in enumerate(cards):
        row_src = cards.src(index)
        if isinstance(row, list):
            if len(row) != len(columns):
                listed = "columns: lists" if "columns" in spec else "the deck has (its fields: in order)"
                raise ContentError(row_src, f"card row has {len(row)} values but {listed} {len(columns)} ({', '.join(columns)})",
                                   "give one value per column" if "columns" in spec else
                                   "give one value per field, in the order of fields: (or add `columns: [field, …]`)")
            row = dict(zip(columns, row))
        values = {}
        count = 1
        auto = set()
        for key, value in row.items():
            if key == "points" and value == "auto":
                if not tickets:
                    raise ContentError(row_src, f"points: auto needs a ticket deck; '{deck_id}' is not one",
                                       "a ticket deck has fields from: place, to: place, points: int; "
                                       "otherwise write the points as a number")
                auto.add(key)
                values[key] = None  # filled in once the routes are known
                continue
            if key == "count":
                if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                    raise ContentError(row_src, f"count should be a whole number ≥ 1, not {value!r}", "write e.g. count: 12")
                count = value
                continue
            if key not in fields:
                raise ContentError(row_src, f"unknown field '{key}' on a card of deck '{deck_id}'",
                                   did_you_mean(key, fields) or "declare it under the deck's fields:")
            values[key] = resolver.collect(value, fields[key], row_src, f"deck '{deck_id}' card {index + 1} field '{key}'")
        for name, type_name in fields.items():
            if name not in values:
                if type_name.endswith("?"):
                    values[name] = None
                else:
                    raise ContentError(row_src, f"card {index + 1} of deck '{deck_id}' has no '{name}'",
                                       f"add {name}: … (or declare the field optional as '{type_name}?')")
        deck.cards.append(Card(deck, index, values, count, row_src, frozenset(auto)))
    return deck


def _deck_declarations(deck: Deck, spec: LDict, resolver: _Resolver, tables: dict) -> None:
    """What the checker compares a deck with: expected_by, point_range, follows."""
    fields = deck.fields
    if "expected_by" in spec:
        by = spec["expected_by"]
        (name, counts), = by.items()
        if name not in fields:
            raise ContentError(by.src(name), f"expected_by: '{name}' is not a field of deck '{deck.id}'",
                               did_you_mean(name, fields) or "use one of its fields: " + ", ".join(fields))
        type_name = deck.field_type(name)
        listed, each = [], None
        for value, count in counts.items():
            where = counts.src(value)
            if value == "each":
                if type_name not in resolver.collections or type_name == "color":
                    raise ContentError(where, f"expected_by: 'each' needs a field naming places, stations, areas, "
                                              f"lines or train types; '{name}' is {type_name}",
                                       "list every value with its count instead")
                each = (count, where)
                continue
            listed.append((resolver.value(value, type_name, where, f"expected_by {name}"), count, where))
        deck.expected_by = ExpectedBy(name, tuple(listed), each, by.src(name))
    if "point_range" in spec:
        low, high = spec["point_range"]
        where = spec.src("point_range")
        if deck.field_type("points") != "int":
            raise ContentError(where, f"point_range: deck '{deck.id}' has no points field (points: int)",
                               "add the field, or remove point_range")
        if low > high:
            raise ContentError(where, f"point_range [{low}, {high}]: the minimum is above the maximum",
                               "write [min, max]")
        deck.point_range, deck.point_range_source = (low, high), where
    if "follows" in spec:
        follows = spec["follows"]
        if follows["table"] not in tables:
            raise ContentError(follows.src("table"), f"follows: no table named '{follows['table']}'",
                               did_you_mean(follows["table"], tables) or "declare it under tables:")
        for role in ("key", "value"):
            if follows[role] not in fields:
                raise ContentError(follows.src(role), f"follows: '{follows[role]}' is not a field of deck '{deck.id}'",
                                   did_you_mean(follows[role], fields) or "use one of: " + ", ".join(fields))
        deck.follows = Follows(follows["table"], follows["key"], follows["value"], spec.src("follows"))


def _route(row, src: Source, resolver: _Resolver, collect: bool = False) -> Route:
    """A route row; with ``collect``, misspelt names are noted on the resolver (see ``collect``) instead of raised."""
    name = resolver.collect if collect else resolver.value
    a = name(row[0], "place", src, "route end")
    b = name(row[1], "place", src, "route end")
    length = resolver.value(row[2], "int", src, "route length")
    if length < 1:  # a path's length: networkx refuses negative weights, a board cannot draw 0 spaces
        raise ContentError(src, f"route length should be at least 1 space, not {length}", "write the number of train spaces")
    colors = row[3] if len(row) > 3 else "gray"
    colors = colors if isinstance(colors, list) else [colors]
    if not colors:
        raise ContentError(src, "a route needs a colour per track, not []", "write [gray] for one track of any colour")
    colors = tuple(name(c, "color", src, "route colour") for c in colors)
    if len(row) > 4 and not isinstance(row[4], dict):
        raise ContentError(src, f"the 5th item of a route row is a mapping of extras, not {row[4]!r}",
                           "write e.g. {tunnel: true}, or remove it")
    extras = _route_extras(row[4], f"{row[0]} – {row[1]}", length, src) if len(row) > 4 else {}
    return Route(a, b, length, colors, extras, src)


def _route_extras(extras: dict, name: str, length: int, src: Source) -> dict:
    """The extras of a route row, typed (bends, curve, tunnel, ferry: what ``BoardRoute`` takes); checked
    when the row is read, so a mistake is found whether or not a board draws the route."""
    for key in extras:
        if key not in ROUTE_EXTRAS:
            raise ContentError(src, f"unknown route extra '{key}' ({name})",
                               did_you_mean(key, ROUTE_EXTRAS) or "route extras: " + ", ".join(ROUTE_EXTRAS))
    typed = {}
    if "bends" in extras:
        bends = extras["bends"]
        if not (isinstance(bends, list) and all(_is_pair(p) for p in bends)):
            raise ContentError(src, f"bends of {name} should be a list of [x, y] points in mm",
                               "write e.g. {bends: [[120, 340]]}")
        typed["bends"] = tuple((float(x), float(y)) for x, y in bends)
    if "curve" in extras:
        curve = extras["curve"]
        if isinstance(curve, bool) or not isinstance(curve, (int, float)):
            raise ContentError(src, f"curve of {name} should be a number of mm, not {curve!r}",
                               "write e.g. {curve: 25} (positive bulges to the right of the first city → second city, "
                               "as seen on the board)")
        typed["curve"] = float(curve)
    if typed.get("bends") and typed.get("curve"):
        raise ContentError(src, f"route {name} has both bends and a curve",
                           "use bends (corners) or curve (one smooth arc), not both")
    if "tunnel" in extras:
        if not isinstance(extras["tunnel"], bool):
            raise ContentError(src, f"tunnel should be true or false, not {extras['tunnel']!r}", "write {tunnel: true}")
        typed["tunnel"] = extras["tunnel"]
    if "ferry" in extras:
        ferry = extras["ferry"]
        if isinstance(ferry, bool) or not isinstance(ferry, int) or not 0 <= ferry <= length:
            raise ContentError(src, f"ferry should be the number of locomotives (0–{length}), not {ferry!r}",
                               "write e.g. {ferry: 1}")
        typed["ferry"] = ferry
    return typed


def _is_pair(value) -> bool:
    """Two numbers [x, y] (true/false are not numbers here, though Python counts them as ints)."""
    return isinstance(value, list) and len(value) == 2 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
