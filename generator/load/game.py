"""Load a game folder (game.yaml + the files it includes) into a ``Game``.

Structure is validated with the one content schema (``generator.load.schema``, the same
schema editors use as ``generator/schema/pnpgen.schema.json``; errors mapped back to file:line). References
by name (a ticket's city, a card's colour) are resolved here, with a "did you
mean" when a name is wrong.
"""
from __future__ import annotations

import importlib
import math
from dataclasses import replace
from pathlib import Path

from generator import TEMPLATES_DIR, limits
from generator.errors import BuildError, ContentError, Source, did_you_mean
from generator.layout.sheets import PRINTER_MARGIN, grid_for, paper_name
from generator.layout.symbols import SYMBOLS
from generator.limits import MIN_PIECE_MM
from generator.load.catalogue import load_words
from generator.load.components import load_components
from generator.load.compose import compose
from generator.load.files import collect, game_id_of, merge_by_key, merged_sections, read_main
from generator.load.fonts import load_fonts
from generator.load.icons import load_icons
from generator.load.maprules import load_map_rules
from generator.load.templates import load_template
from generator.load.values import ATTRIBUTES, COLLECTIONS, PLACE_KINDS, Resolver, entities, read_route, type_attributes
from generator.model.game import Card, CardGeometry, Color, Deck, Entity, ExpectedBy, Follows, Game, Side
from generator.model.network import has_tickets, network, ticket_ends
from generator.model.stamp import build_date, content_hash, stamp_text
from generator.model.words import Words
from generator.papers import HOME_PAPERS
from generator.paths import plain_name
from generator.yamlsource import LDict

DEFAULT_PALETTE = TEMPLATES_DIR / "palette.yaml"

CORE_SECTIONS = ("palette", "tables", "decks", *COLLECTIONS)
DEFAULT_CARD = CardGeometry(63.5, 88.9, 3.0, 3.0)


def load_game(folder: Path, with_: tuple = ()) -> Game:
    """The game in ``folder``, with the add-ons it declares (``game: {with: […]}``) and those in ``with_``."""
    folder = Path(folder)
    main = read_main(folder)
    merged: dict = {}
    routes: list[tuple[list, Source]] = []  # rows with their own lines, from every file
    collect(folder, main, merged, routes, merge_by_key)
    addons = compose(folder, main, merged, routes, with_)
    game = _build(folder, main, merged, routes, addons)
    game.fonts = load_fonts(game)
    for board in game.boards.values():
        board.typeset = game.typeset
    meta = main["game"]
    version = meta.get("version")
    game.stamp = stamp_text(game.title, "" if version is None else str(version), build_date(meta.get("date")),
                            content_hash([folder, *(addon.folder for addon in addons)]), game.words)
    _replace_decks(game)
    if with_:  # an ad-hoc composition is its own output: output/<game>+<add-on>/
        game.id = plain_name("+".join([game.id, *(addon.id for addon in addons[len(addons) - len(with_):])]),
                             addons[-1].source, "the composed game's id")
    return game


def _replace_decks(game: Game) -> None:
    """Mark the decks an add-on replaces (the dice replace the train cards): kept for the checker, not printed.
    Components of a replaced role (the game's player aid, which tells players to draw train cards) are left out.
    A role written with a question mark (``player-aid?``) is replaced where the game has it and asked of no game."""
    for addon in game.addons:
        for written in addon.replaces:
            role, optional = written.rstrip("?"), written.endswith("?")
            decks = [deck for deck in game.decks.values() if deck.role == role]
            parts = [part_id for part_id, part in game.parts.items() if part.role == role]
            for part_id in parts:
                del game.parts[part_id]
            if (parts or optional) and not decks:
                continue
            if not decks:
                raise ContentError(addon.replaces_source or addon.source, f"add-on '{addon.id}' replaces the '{role}' deck, but "
                                                 f"{game.title} has no deck with role: {role}",
                                   f"add `role: {role}` to the deck it replaces in {game.folder.name}")
            for deck in decks:
                deck.replaced_by = addon


def _build(folder: Path, main: LDict, merged: dict, routes: list, addons: list) -> Game:
    meta = main["game"]
    game_id = game_id_of(folder, main)
    printing = main.get("print", {})
    card = printing.get("card", {})
    margin = printer_margin(printing)
    geometry = card_geometry(card, DEFAULT_CARD, "print: card:", margin)
    words = load_words(meta, merged.get("words", {}))
    collections: dict[str, dict[str, Entity]] = {"color": _palette(merged.get("palette", {}), words)}
    for section, kind in COLLECTIONS.items():
        collections[kind] = entities(kind, [(key, attrs, src) for key, (attrs, src) in merged.get(section, {}).items()])
    resolver = Resolver(collections)
    for kind in COLLECTIONS.values():
        for entity in collections[kind].values():
            type_attributes(entity, resolver)
    tables = {key: value for key, (value, _src) in merged.get("tables", {}).items()}
    specs = {str(deck_id): (plain_name(deck_id, src, "deck id"), spec, src)
             for deck_id, (spec, src) in merged.get("decks", {}).items()}
    decks = {key: _deck(deck_id, spec, src, geometry, resolver, tables, margin)
             for key, (deck_id, spec, src) in specs.items() if "board" not in spec}
    route_list = [read_route(row, src, resolver, collect=True) for row, src in routes]
    resolver.raise_collected()
    _check_game_declarations(meta, collections)
    players = tuple(meta["players"]) if "players" in meta else None
    extra = {section: merged[section] for section in merged_sections()
             if section not in CORE_SECTIONS and section in merged}
    game = Game(id=game_id, folder=folder, title=meta["title"], latin=meta.get("latin", ""),
                language=meta.get("language", "ja"), players=players, geometry=geometry,
                back_offset=tuple(printing.get("back_offset", (0.0, 0.0))), collections=collections,
                decks=decks, routes=route_list, tables=tables, source=main.src("game"),
                meta=meta, sections=extra, words=words, addons=addons, printer_margin=margin,
                home_bleed=_print_mm(printing, "home_bleed", 20.0), home_gutter=_print_mm(printing, "home_gutter",
                                                                                      limits.MAX_HOME_GUTTER_MM) or 0.0,
                shop_bleed=_print_mm(printing, "shop_bleed", limits.MAX_SHOP_BLEED_MM),
                home_grid=_home_grid(printing))
    _check_home_grid(game, printing)
    game.icons = load_icons(game)  # each relative to its declaring folder: the add-ons are known
    game.parts = load_components(game, resolver)
    _fill_auto_points(game)
    # the boards' reader (and the board model, the terrain under it) imported for a game with boards only
    game.boards = importlib.import_module("generator.load.board").load_boards(game) if game.sections.get("boards") else {}
    game.map_rules = load_map_rules(game)
    for board in game.boards.values():
        board.words = game.words
    _board_decks(game, specs, tables)
    return game


def _board_decks(game: Game, specs: dict, tables: dict) -> None:
    """The decks whose fields name a board's own places (``board: north``: a second map's city cards), read once
    the boards are, each with that board's places and areas; the game's decks stay in content order."""
    read = {}
    for key, (deck_id, spec, src) in specs.items():
        if "board" not in spec:
            continue
        board_id = str(spec["board"])
        board = game.boards.get(board_id)
        if board is None or board.kind != "map":
            raise ContentError(spec.src("board"), f"deck '{deck_id}' names board '{board_id}', which is not a map "
                                                  f"board of this game",
                               did_you_mean(board_id, game.boards) or "name one of the map boards under boards:")
        resolver = Resolver({**game.collections, "place": {place.id: place for place in board.places},
                             "area": {area.id: area for area in board.areas}})
        deck = _deck(deck_id, spec, src, game.geometry, resolver, tables, game.printer_margin)
        resolver.raise_collected()
        if any(card.auto for card in deck.cards):
            raise ContentError(spec.src("board"), f"deck '{deck_id}' of board '{board_id}' has points: auto, which "
                                                  f"is worked out on the game's own map",
                               "write the points as numbers")
        deck.board = board_id
        read[key] = deck
    if read:
        game.decks = {key: read[key] if key in read else game.decks[key] for key in specs}


def _check_game_declarations(meta: LDict, collections: dict) -> None:
    """The `game:` keys the checker reads: players is [fewest, most], terminals are place kinds,
    setup totals are place attributes."""
    if "players" in meta and meta["players"][0] > meta["players"][1]:
        low, high = meta["players"]
        raise ContentError(meta.src("players"), f"players: [{low}, {high}] has the fewest above the most",
                           f"write [fewest, most], e.g. [{high}, {low}]")
    if "players" in meta and meta["players"][1] > limits.MAX_PLAYERS:   # each seat is a hand, a bot, a colour
        raise ContentError(meta.src("players"), f"players: up to {meta['players'][1]:,} players, more than "
                                                f"{limits.MAX_PLAYERS} (limits.MAX_PLAYERS)",
                           "give the most players the game seats, e.g. players: [2, 5]")
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
            ends = ticket_ends(card)
            length = network(game).shortest_any(card["from"], ends)
            if length is None:
                raise ContentError(card.source, f"points: auto, but {card['from'].id} and "
                                                f"{'/'.join(end.id for end in ends)} are not "
                                                f"connected (without passing through a terminal)",
                                   "connect them with routes, or write the points as a number")
            card.values["points"] = length


def _palette(game_palette: dict, words: Words) -> dict[str, Entity]:  # every value a Color
    """templates/palette.yaml's colours (named in the game's language: the catalogue's ``color.<id>``),
    then the game's own."""
    base = load_template(DEFAULT_PALETTE).get("palette", {})
    merged = {key: (dict(value, name=words[f"color.{key}"]), base.src(key)) for key, value in base.items()}
    merged.update(game_palette)
    colors: dict[str, Entity] = {}
    for key, (value, src) in merged.items():
        attrs = {"hex": value} if isinstance(value, str) else dict(value)
        attrs["hex"] = attrs["hex"].lower()
        if "symbol" in attrs and attrs["symbol"] not in SYMBOLS:
            where = value.src("symbol") if isinstance(value, LDict) else src
            raise ContentError(where, f"palette: colour '{key}' has an unknown symbol '{attrs['symbol']}'",
                               did_you_mean(str(attrs["symbol"]), SYMBOLS) or "symbols: " + ", ".join(SYMBOLS))
        # no Latin name unless given: an id is never printed for one (a colour's id is no word of any language)
        colors[str(key)] = Color("color", str(key), str(attrs.pop("name", key)), str(attrs.pop("latin", "")), attrs, src)
    return colors


def printer_margin(printing) -> float:
    """``print: margin:``, the mm a home printer leaves unprinted at each paper edge (default 5): refused unless
    a card still fits inside it on both papers (checked with the cards)."""
    if "margin" not in printing:
        return PRINTER_MARGIN
    margin = float(printing["margin"])
    if not (math.isfinite(margin) and 0 <= margin <= limits.MAX_PRINTER_MARGIN_MM):
        raise ContentError(printing.src("margin"), f"print: margin: {margin:g} mm is not a printer margin",
                           f"give the mm your printer leaves blank at each edge, 0 to {limits.MAX_PRINTER_MARGIN_MM:g} "
                           f"(most print 3-5 mm from the edge; the default is {PRINTER_MARGIN:g})")
    return margin


def _print_mm(printing, key: str, most: float) -> float | None:
    """``print: <key>:`` in mm, 0 to ``most`` (None when not given); refused at its line otherwise."""
    if key not in printing:
        return None
    value = float(printing[key])
    if not (math.isfinite(value) and 0 <= value <= most):
        raise ContentError(printing.src(key), f"print: {key}: {value:g} mm is out of range",
                           f"give {key}: in mm, 0 to {most:g}")
    return value


def _home_grid(printing) -> tuple[int, int] | None:
    """``print: home_grid: [columns, rows]``, each 1 to MAX_HOME_GRID (the schema has refused other shapes)."""
    if "home_grid" not in printing:
        return None
    cols, rows = (int(n) for n in printing["home_grid"])
    if not all(1 <= n <= limits.MAX_HOME_GRID for n in (cols, rows)):
        raise ContentError(printing.src("home_grid"), f"print: home_grid: [{cols}, {rows}] is not a grid of cards",
                           f"give [columns, rows], each 1 to {limits.MAX_HOME_GRID}")
    return cols, rows


def _check_home_grid(game: Game, printing) -> None:
    """``home_grid`` must fit every deck's home sheet on A4 and on Letter (with its home bleed and gutter): a grid
    asked for and silently not printed would not match the stock it was asked for."""
    if game.home_grid is None:
        return
    cols, rows = game.home_grid
    for deck in game.decks.values():
        g = deck.geometry
        if game.home_bleed is not None and game.home_bleed < g.bleed:
            g = replace(g, bleed=game.home_bleed)
        for paper in HOME_PAPERS:
            grid = grid_for(g, paper, margin=game.printer_margin, gutter=game.home_gutter)
            if grid.cols < cols or grid.rows < rows:
                raise ContentError(printing.src("home_grid"),
                                   f"print: home_grid: [{cols}, {rows}]: deck '{deck.id}' ({g.width:g} × {g.height:g} mm, "
                                   f"{g.bleed:g} mm bleed, {game.home_gutter:g} mm gutter) fits {grid.cols} × {grid.rows} "
                                   f"on {paper_name(paper)}",
                                   f"ask for at most [{min(cols, grid.cols)}, {min(rows, grid.rows)}] (every game prints "
                                   "on A4 and Letter), or less home_bleed, home_gutter or printer margin")


def card_geometry(spec: LDict, default: CardGeometry, what: str, margin: float = PRINTER_MARGIN) -> CardGeometry:
    """A card's size, bleed and safe zone, refused at the line that set them unless every printer can use them.

    The build lays cards out on A4 and on Letter; a size it could not lay out (NaN, ∞, 0, negative, larger
    than the sheet) is a content mistake at game.yaml's (or the deck's) line, not a layout failure later.
    """
    if not isinstance(spec, LDict):  # an empty `card:` (None) or a deck without geometry of its own
        return default
    size = spec.get("size", (default.width, default.height))
    width, height = float(size[0]), float(size[1])
    bleed, safe = float(spec.get("bleed", default.bleed)), float(spec.get("safe", default.safe))
    where = lambda key: spec.src(key) if key in spec else spec.src()  # noqa: E731
    for side, value in (("width", width), ("height", height)):
        if not (math.isfinite(value) and value >= MIN_PIECE_MM):
            raise ContentError(where("size"), f"{what} size: a card {side} of {value:g} mm cannot be printed",
                               f"give the trim size in mm, at least {MIN_PIECE_MM:g}: e.g. size: [63.5, 88.9]")
    for key, value in (("bleed", bleed), ("safe", safe)):
        if not (math.isfinite(value) and value >= 0):
            raise ContentError(where(key), f"{what} {key}: {value:g} mm is not a distance",
                               f"give {key}: in mm, 0 or more (the default is {getattr(DEFAULT_CARD, key):g})")
    if 2 * safe >= min(width, height):
        raise ContentError(where("safe"), f"{what} safe: {safe:g} mm on each side leaves nothing of a "
                                          f"{width:g} × {height:g} mm card",
                           "the safe zone is the margin inside the trim that text keeps clear of: a few mm")
    geometry = CardGeometry(width, height, bleed, safe)
    for paper in HOME_PAPERS:  # the build's own imposition decides: what it could not place is refused here
        try:
            grid_for(geometry, paper, margin=margin)
        except BuildError as error:
            raise ContentError(where("size" if "size" in spec else "bleed"), f"{what} {error.message}",
                               "make the cards smaller (a game prints on A4 and on Letter, --paper), or the printer margin "
                               "(print: margin:)") from None
    return geometry


def _deck(deck_id: str, spec: LDict, src: Source, default: CardGeometry, resolver: Resolver, tables: dict,
          margin: float = PRINTER_MARGIN) -> Deck:
    geometry = card_geometry(spec, default, f"deck '{deck_id}'", margin)
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
                expected_source=spec.src("expected"), role=str(spec.get("role", "")),
                alternative_of=str(spec.get("alternative_of", "")))
    columns = spec.get("columns", list(fields))  # cards written as rows give the fields in order, unless columns: says
    if "columns" in spec:
        for i, column in enumerate(columns):
            if column != "count" and column not in fields:
                raise ContentError(spec["columns"].src(i), f"column '{column}' is not a field of deck '{deck_id}'",
                                   did_you_mean(column, fields) or "declare it under fields:")
    _deck_declarations(deck, spec, resolver, tables)
    tickets = has_tickets(deck)
    cards = spec["cards"]
    printed = 0   # cards so far, counts included: a deck over MAX_CARDS_PER_DECK stops at the row that tips it
    for index, row in enumerate(cards):
        row_src = cards.src(index)
        if isinstance(row, list):
            if len(row) != len(columns):
                listed = "columns: lists" if "columns" in spec else "the deck has (its fields: in order)"
                raise ContentError(row_src, f"card row has {len(row)} values but {listed} {len(columns)} ({', '.join(columns)})",
                                   "give one value per column" if "columns" in spec else
                                   "give one value per field, in the order of fields: (or add `columns: [field, …]`)")
            row = dict(zip(columns, row))
        values: dict[str, object] = {}
        count = 1
        auto = set()
        cell = row.src if isinstance(row, LDict) else (lambda key, where=row_src: where)  # a field's line (or cell)
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
                    raise ContentError(cell(key), f"count should be a whole number ≥ 1, not {value!r}", "write e.g. count: 12")
                count = value
                continue
            if key not in fields:
                raise ContentError(cell(key), f"unknown field '{key}' on a card of deck '{deck_id}'",
                                   did_you_mean(key, fields) or "declare it under the deck's fields:")
            values[key] = resolver.collect(value, fields[key], cell(key), f"deck '{deck_id}' card {index + 1} field '{key}'")
        for name, type_name in fields.items():
            if name not in values:
                if type_name.endswith("?"):
                    values[name] = None
                else:
                    raise ContentError(row_src, f"card {index + 1} of deck '{deck_id}' has no '{name}'",
                                       f"add {name}: … (or declare the field optional as '{type_name}?')")
        printed += count
        if printed > limits.MAX_CARDS_PER_DECK:
            raise ContentError(row_src, f"deck '{deck_id}' reaches {printed:,} cards at card {index + 1}, more than "
                                        f"{limits.MAX_CARDS_PER_DECK:,} (MAX_CARDS_PER_DECK)",
                               "check the counts: no printed deck has this many cards")
        deck.cards.append(Card(deck, index, values, count, row_src, frozenset(auto)))
    return deck


def _deck_declarations(deck: Deck, spec: LDict, resolver: Resolver, tables: dict) -> None:
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


