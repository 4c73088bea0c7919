"""PNP8xx — tokens, tiles, dice and sheets: what the rulebook promises about pieces.

Counts are PNP101 (``Game.components()`` lists every component). These checks
look inside: six faces per die, tile stacks that lose a point per later copy,
area tiles that match the map's areas, one colour of pieces per player, and
text on pieces and sheets that prints (laid out by the same code as the build).
"""
from __future__ import annotations

from generator.check.printing import PrintProblems
from generator.check.registry import Issue, check, per_game
from generator.errors import did_you_mean
from generator.layout.components import KINDS
from generator.layout.faces import SharedFaceRenderer as FaceRenderer  # drawn once for check and build


def _parts(game, code: str):
    """The components whose kind declares the check ``code`` among its ``checks`` (``KINDS``)."""
    return [part for part in game.parts.values() if code in KINDS[part.kind].checks]


@check("PNP801", "error", "a die does not have exactly six faces")
def die_faces(game):
    for die in _parts(game, "PNP801"):
        symbols = die.options.symbols
        if len(symbols) != 6:
            yield Issue(die.source, f"die '{die.id}' has {len(symbols)} faces, a die has 6",
                        "make the counts under faces: add up to 6 (blank for an empty face)")


def _stacks(game):
    """Faces printed from one `values:` list: (component, [faces]) in content order."""
    for part in _parts(game, "PNP802"):
        stacks: dict = {}
        for face in part.faces:
            if face.get("stack"):
                stacks.setdefault((face.source.file, face.source.line), []).append(face)
        for faces in stacks.values():
            yield part, faces


@check("PNP802", "error", "the copies of a tile stack do not lose 1 point per later copy")
def stack_values(game):
    for part, faces in _stacks(game):
        values = [face.value for face in faces]
        for before, after in zip(values, values[1:]):
            if after != before - 1:
                want = list(range(values[0], values[0] - len(values), -1))
                yield Issue(faces[0].source, f"{part.id}: a stack of {len(values)} has values {values}; each later "
                                             f"copy is worth 1 less ({want})",
                            "write the values from the first finisher's down, one less each")
                break


def _cities_of(game, areas) -> list[str]:
    return sorted(place.id for place in game.collections["place"].values()
                  if place.attrs.get("area") in areas)


def _tile_rows(game, code: str):
    """One face per content line of the tiles that ``code`` checks: the copies of a stack share their line and
    their areas."""
    for part in _parts(game, code):
        seen = set()
        for face in part.faces:
            if face.source.line not in seen:
                seen.add(face.source.line)
                yield part, face


@check("PNP803", "error", "a tile needs houses in an area that has no city")
def area_without_city(game):
    for part, face in _tile_rows(game, "PNP803"):
        for area in face.get("areas") or []:
            if not _cities_of(game, [area]):
                yield Issue(face.source, f"a tile of '{part.id}' needs area '{area.id}', which has no city on the map",
                            "give the area its cities (places: … area:), or remove it from the tile")


@check("PNP804", "error", "a tile's cities (or city_count) are not those of its areas on the map")
def tile_cities(game):
    places = game.collections["place"].values()
    by_latin = {place.latin: place.id for place in places if place.latin}
    for part, face in _tile_rows(game, "PNP804"):
        areas, cities, count = face.get("areas"), face.get("cities"), face.get("city_count")
        if not areas:
            continue
        have = _cities_of(game, areas)
        if count is not None and count != len(have):
            yield Issue(face.source, f"a tile of '{part.id}' promises {count} cities, but "
                                     f"{', '.join(a.id for a in areas)} {'has' if len(areas) == 1 else 'have'} "
                                     f"{len(have)} on the map ({', '.join(have)})",
                        "fix city_count: (the rulebook's figure) or the places' area: on the map")
        if not cities:
            continue
        listed = sorted(by_latin.get(c, c) for c in cities)  # cities by id or by their printed (Latin) name
        if listed != have:
            missing = sorted(set(have) - set(listed))
            extra = sorted(set(listed) - set(have))
            detail = "; ".join(filter(None, [f"missing {', '.join(missing)}" if missing else "",
                                             f"not in those areas: {', '.join(extra)}" if extra else ""]))
            yield Issue(face.source, f"a tile of '{part.id}' lists the cities of {', '.join(a.id for a in areas)} "
                                     f"wrongly ({detail})",
                        "list exactly the cities of its areas (or drop cities: and let areas: say it)")


def _every_place(game):
    """The game's places and those of every board that has places of its own (map 2 of Thurn and Taxis)."""
    seen = {}
    for place in list(game.collections["place"].values()) + [p for b in game.boards.values() for p in b.places]:
        seen.setdefault(place.id, place)
    return list(seen.values())


def _place_named(places, name):
    return next((p for p in places if name in (p.id, p.latin, p.name)), None)


@check("PNP810", "error", "a tile names a city that is on no map of the game")
def tile_city_exists(game):
    places = _every_place(game)
    for part, face in _tile_rows(game, "PNP810"):
        for name in face.get("cities") or []:
            if _place_named(places, name) is None:
                yield Issue(face.source, f"a tile of '{part.id}' names '{name}', which is on no map of this game",
                            did_you_mean(name, [p.latin or p.id for p in places]) or "check the spelling (id or Latin name)")


@check("PNP811", "error", "free cities and their bonus tiles do not match one to one")
def free_city_tiles(game):
    places = _every_place(game)
    free = [p for p in places if p.attrs.get("kind") == "free-city"]
    named: dict[str, list] = {}
    for part, face in _tile_rows(game, "PNP811"):
        for name in face.get("cities") or []:
            place = _place_named(places, name)
            if place is not None and place.attrs.get("kind") == "free-city":
                named.setdefault(place.id, []).append((part, face))
    if not named:  # the game has no free-city tiles at all: nothing promised
        return
    for place in free:
        tiles = named.get(place.id, [])
        if len(tiles) > 1:
            yield Issue(tiles[1][1].source, f"free city {place.latin or place.id} has {len(tiles)} bonus tiles",
                        "keep one tile per free city")
    missing = [p.latin or p.id for p in free if p.id not in named]
    if missing:
        part, face = next(iter(named.values()))[0]
        yield Issue(face.source, f"free cities without a bonus tile: {', '.join(missing)}",
                    "add a tile naming each (cities: [<name>]) to the free-city tiles")


@check("PNP805", "error", "a set of pieces per player does not have one colour for each seat")
def one_colour_per_player(game):
    if not game.players:
        return
    seats = game.players[1]
    for part in _parts(game, "PNP805"):
        if not part.options.per_player:
            continue
        colours = [face.color for face in part.faces if face.get("color") is not None]
        if len({c.id for c in colours}) != seats:
            yield Issue(part.source, f"'{part.id}' is one set per player but has {len({c.id for c in colours})} "
                                     f"colours for up to {seats} players",
                        "give it one colour per seat (colors:), or fix the game's players:")


@check("PNP806", "error", "players' sets of pieces have different sizes")
def equal_sets(game):
    for part in _parts(game, "PNP806"):
        if not part.options.per_player:
            continue
        per_colour: dict = {}
        for face in part.faces:
            if face.get("color") is not None:
                per_colour[face.color.id] = per_colour.get(face.color.id, 0) + face.count
        if len(set(per_colour.values())) > 1:
            detail = ", ".join(f"{c} {n}" for c, n in per_colour.items())
            yield Issue(part.source, f"'{part.id}': players would get different numbers of pieces ({detail})",
                        "give every colour the same count (count_each:)")


@per_game
def print_problems(game) -> PrintProblems:
    """Every component laid out as the build prints it (A4; sheets on Letter too, the shorter page):
    one problem per content line (a stack's copies share one, as do a sheet's two papers)."""
    problems = PrintProblems(once_per_line=True)
    renderer = FaceRenderer(game, on_print_problem=problems.note)  # shapes too: their expressions can fail
    for part in game.parts.values():
        kind = KINDS[part.kind]
        for paper in kind.papers_checked:
            with problems.drawing():
                kind.outputs(game, part, renderer, paper)
    return problems


@check("PNP807", "error", "text on a token, tile, die face or sheet that does not fit (a sheet: its page)", subject="print")
def component_overflow(game):
    yield from print_problems(game).issues("overflow")


@check("PNP808", "error", "characters on a token, tile, die face or sheet the embedded font lacks", subject="print")
def component_glyphs(game):
    yield from print_problems(game).issues("glyph")


@check("PNP809", "error", "a token, tile or die face whose layout cannot be drawn", subject="print")
def component_layout(game):
    yield from print_problems(game).issues("layout")
