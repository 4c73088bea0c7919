"""Read the ``boards:`` section into ``Board`` objects (generator.model.board).

Called by ``load_game`` once the game's collections exist, so a board can use
the game's places and routes, or declare its own (a second map). Everything a
board draws is checked here: a map place without ``at:``, a position off the
board — each with its file and line (a route row's extras, how a board draws
it, are checked with the row, in ``generator.load.game``).
"""
from __future__ import annotations

import math

from generator import limits
from generator.errors import ContentError, Source, did_you_mean
from generator.layout import images
from generator.load.terrain import read_terrain
from generator.load.values import Resolver, entities, read_route, type_attributes
from generator.model.board import DEFAULT_SPACE, Board, BoardPicture, BoardRoute, CardSlot, Tray, place_points
from generator.model.game import Entity, Game
from generator.paths import plain_name


def load_boards(game: Game) -> dict[str, Board]:
    raw = game.sections.get("boards", {})
    return {str(board_id): _board(game, plain_name(board_id, src, "board id"), spec, src)
            for board_id, (spec, src) in raw.items()}


def _board(game: Game, board_id: str, spec, src: Source) -> Board:
    width, height = (float(v) for v in spec["size"])
    if not all(math.isfinite(side) and side > 0 for side in (width, height)):  # NaN is neither > 0 nor <= 0
        raise ContentError(spec.src("size"), f"board '{board_id}' size must be positive numbers, not {list(spec['size'])}",
                           "write the size as [width, height] in mm, e.g. [790, 525]")
    if max(width, height) > limits.MAX_BOARD_MM:
        raise ContentError(spec.src("size"), f"board '{board_id}' size {list(spec['size'])} has a side over "
                                             f"{limits.MAX_BOARD_MM:g} mm (MAX_BOARD_MM)",
                           "write the size in mm (Germany is [525, 790]); a larger board cannot be printed or tiled")
    kind = spec.get("kind", "map")
    collections = dict(game.collections)
    if "areas" in spec:
        collections["area"] = _own(spec["areas"], "area", collections)
    if "places" in spec:
        collections["place"] = _own(spec["places"], "place", collections)
    resolver = Resolver(collections)
    if "routes" in spec:
        rows = spec["routes"]
        routes = [read_route(row, rows.src(i), resolver) for i, row in enumerate(rows)]
    else:
        routes = list(game.routes) if kind == "map" else []
    places = list(collections["place"].values()) if kind == "map" else []
    areas = list(collections["area"].values()) if kind == "map" else []
    space = spec.get("space", DEFAULT_SPACE)  # a pair (the schema's)
    board = Board(id=board_id, name=str(spec.get("name", game.title)), latin=str(spec.get("latin", game.latin)),
                  kind=kind, width=width, height=height,
                  space=(float(space[0]), float(space[1])),
                  style=spec.get("style", "track"), places=places,
                  routes=[BoardRoute(route, **route.extras) for route in routes], areas=areas,
                  score_track=spec.get("score_track"),
                  legend=_legend_rows(game, spec),
                  source=src,
                  title_at=_pair(spec, "title_at"), legend_at=_pair(spec, "legend_at"),
                  score_depth=float(spec.get("score_track_depth", 9.0)),
                  score_markers=str(spec["score_markers"]) if "score_markers" in spec else None)
    names = spec.get("names", {})
    board.name_pt = float(names.get("size", board.name_pt))
    board.halo = bool(names.get("halo", False))
    board.trays = [_tray(tray, game) for tray in spec.get("trays", [])]
    board.rounds = int(spec.get("round_track", 0))
    board.round_marker = str(spec["round_marker"]) if "round_marker" in spec else None
    board.pools = [CardSlot(str(p["name"]), str(p.get("latin", "")), 1, False) for p in spec.get("pools", [])]
    for key, named in (("score_markers", board.score_markers), ("round_marker", board.round_marker)):
        if named is not None and named not in game.parts:
            raise ContentError(spec.src(key), f"board '{board_id}' names {key.replace('_', ' ')} '{named}', "
                                              f"which the game lacks",
                               did_you_mean(named, game.parts)
                               or "name the token set (under components:) that is moved on this track")
    if "background" in spec:
        board.background = _picture(game, {"src": spec["background"], "fit": "fill"}, spec.src("background"),
                                    (0.0, 0.0, width, height))
    overlays = spec.get("overlays", [])
    for i, overlay in enumerate(overlays):
        where = overlays.src(i)
        (x, y), (w, h) = overlay["at"], overlay["size"]
        board.overlays.append(_picture(game, overlay, where, (float(x), float(y), float(w), float(h))))
    if kind == "map":
        for place in places:
            _check_position(board, place)
        board.terrain = read_terrain(game, board, spec)
    else:
        board.stations = list(game.collections["station"].values())
        board.train_types = list(game.collections["train_type"].values())
        board.card_size = (game.geometry.width, game.geometry.height)
        board.slots = [CardSlot(str(s["name"]), str(s.get("latin", "")), int(s["count"]), bool(s.get("numbered", False)))
                       for s in spec.get("slots", [])]
        if not board.stations:
            raise ContentError(src, f"line board '{board_id}' has no stations to draw",
                               "declare the line's stations under `stations:` in line order")
    return board


def _picture(game: Game, spec, src: Source, box) -> BoardPicture:
    """A board's picture: the file kept inside the game and read now (a missing or malformed one is
    an error at this line), its box checked and its options as the schema typed them."""
    if not all(math.isfinite(v) for v in box) or box[2] <= 0 or box[3] <= 0:
        raise ContentError(src, f"picture box {list(box)} must be finite, with a size above 0 mm",
                           "write at: [x, y] and size: [width, height] in board mm")
    shown = str(spec["src"])
    picture = images.read(images.picture_path(game, shown, src), src, shown)
    crop = tuple(float(v) for v in spec["crop"]) if "crop" in spec else None
    if crop is not None and not (crop[2] > 0 and crop[3] > 0 and crop[0] + crop[2] <= 1 and crop[1] + crop[3] <= 1):
        raise ContentError(src, f"crop {list(crop)} is not inside the picture",
                           "crop is [x, y, w, h] as fractions of the picture, e.g. [0.25, 0, 0.5, 1]")
    return BoardPicture(picture.path, picture.digest, shown, box, src, str(spec.get("fit", "fit")),
                        crop, float(spec.get("opacity", 1.0)), float(spec.get("rotate", 0.0)))  # type: ignore[arg-type]


def _tray(spec, game: Game) -> Tray:
    """A tray's places: card-sized unless ``size:`` says otherwise, in one row unless ``columns:``, 4 mm apart."""
    w, h = (float(v) for v in spec.get("size", (game.geometry.width, game.geometry.height)))
    count = int(spec.get("count", 1))
    columns = int(spec.get("columns", count))
    step = tuple(float(v) for v in spec["step"]) if "step" in spec else (w + 4.0, h + 4.0)
    return Tray(str(spec["name"]), str(spec.get("latin", "")), (float(spec["at"][0]), float(spec["at"][1])),
                (w, h), count, max(1, columns), (step[0], step[1]))


def _own(section, kind: str, collections: dict) -> dict[str, Entity]:
    """A board's own places or areas, typed like the game's (same attributes, same checks)."""
    own = entities(kind, [(key, attrs, section.src(key)) for key, attrs in section.items()])
    resolver = Resolver({**collections, kind: own})
    for entity in own.values():
        type_attributes(entity, resolver)
    return own


def _pair(spec, key):
    return tuple(float(v) for v in spec[key]) if key in spec else None


def _check_position(board: Board, place: Entity) -> None:
    points = place_points(place)
    if not points:
        raise ContentError(place.source, f"place '{place.id}' has no position on board '{board.id}'",
                           f"add at: [x, y] in mm (the board is {board.width:g} × {board.height:g} mm)")
    for name, (x, y) in points.items():
        if not (0 <= x <= board.width and 0 <= y <= board.height):
            what = f"place '{place.id}'" + (f" point '{name}'" if name else "")
            raise ContentError(place.source, f"{what} at [{x:g}, {y:g}] is off board '{board.id}' "
                               f"({board.width:g} × {board.height:g} mm)",
                               f"move it inside 0–{board.width:g} × 0–{board.height:g}")


def _legend_rows(game, spec) -> list[tuple[int, int]]:
    """The (length, points) rows of the table the board's ``legend:`` names: one table, shared with the checker."""
    if "legend" not in spec:
        return []
    name = str(spec["legend"])
    if name not in game.tables:
        raise ContentError(spec.src("legend"), f"legend names the table '{name}', which is not defined",
                           did_you_mean(name, game.tables) or "define it under tables: (length: points)")
    table = game.tables[name]
    if not isinstance(table, dict) or not all(isinstance(k, int) and isinstance(v, int) for k, v in table.items()):
        raise ContentError(spec.src("legend"), f"table '{name}' is not a route scoring table (whole numbers length: points)",
                           "write it as {1: 1, 2: 2, 3: 4, …}")
    return sorted(table.items())
