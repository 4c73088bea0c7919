"""Content values typed: names resolved to entities (with "did you mean"), route rows, entity attributes.

Shared by the game's own content (``generator.load.game``) and the boards that bring
places and routes of their own (``generator.load.board``).
"""
from __future__ import annotations

import unicodedata
from typing import cast

from generator import limits
from generator.errors import ContentError, ContentErrors, Source, did_you_mean
from generator.model.game import Entity, Route
from generator.yamlsource import LDict, LList

#: content section → the field type that names its entries
COLLECTIONS = {"places": "place", "areas": "area", "stations": "station", "lines": "line", "train_types": "train_type"}


#: attributes each collection's entries may have, with their types
ATTRIBUTES = {
    "place": {"at": "points", "kind": "text", "area": "area", "passengers": "int", "note": "text"},
    "area": {"color": "color", "note": "text"},
    "station": {"note": "text"},
    "line": {"color": "color", "note": "text"},
    "train_type": {"color": "color", "stops": "list of station", "advance": "int", "note": "text"},
}


PLACE_KINDS = ("city", "country", "attraction", "free-city")


#: what the optional 5th item of a route row may say (how a board draws the route; ``distinct``: a route of
#: its own beside others between the same places; tunnel, ferry and style also per track, as a list)
ROUTE_EXTRAS = ("bends", "curve", "tunnel", "ferry", "style", "distinct")


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


def type_attributes(entity: Entity, resolver: Resolver) -> None:
    """Replace an entity's raw attributes (except name/latin) by values typed by ``ATTRIBUTES``,
    names resolved; file:line errors."""
    # the entity's YAML mapping: src() is asked only for a key it has, so it is an LDict then
    kind, entity_id, raw = entity.kind, entity.id, cast(LDict, entity.attrs)
    allowed = ATTRIBUTES[kind]
    attrs = {}
    for key, value in raw.items():
        if key in ("name", "latin"):
            continue
        if key not in allowed:
            raise ContentError(raw.src(key), f"unknown attribute '{key}' for {kind} '{entity_id}'",
                               did_you_mean(key, allowed) or "allowed: " + ", ".join(allowed))
        attrs[key] = resolver.value(value, allowed[key], raw.src(key), f"{kind} '{entity_id}' {key}")
    if kind == "place" and isinstance(attrs.get("at"), dict):  # several points: the first is `at`, all are `points`
        attrs["points"] = attrs["at"]
        attrs["at"] = next(iter(attrs["points"].values()))
    if kind == "place" and attrs.get("kind", "city") not in PLACE_KINDS:
        raise ContentError(raw.src("kind"), f"unknown place kind '{attrs['kind']}'",
                           "use one of: " + ", ".join(PLACE_KINDS))
    entity.attrs = attrs


class Resolver:
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
        if type_name == "points":
            return _points(value, src, what)
        if type_name == "pair":
            if not is_pair(value):
                raise ContentError(src, f"{what} should be two numbers [x, y] in mm, not {value!r}", "write [x, y]")
            return (float(value[0]), float(value[1]))
        entities = self.collections[type_name]
        if isinstance(value, (dict, list)) or str(value) not in entities:
            hint = did_you_mean(value, entities) if not isinstance(value, (dict, list)) else None
            section = next((s for s, k in COLLECTIONS.items() if k == type_name), "palette")
            raise ContentError(src, f"{what}: unknown {type_name} '{value}'",
                               hint or f"define it under `{section}:` or use one of: " + ", ".join(list(entities)[:12]))
        return entities[str(value)]


def read_route(row, src: Source, resolver: Resolver, collect: bool = False) -> Route:
    """A route row; with ``collect``, misspelt names are noted on the resolver (see ``collect``) instead of raised."""
    name = resolver.collect if collect else resolver.value
    at = row.src if isinstance(row, LList) else (lambda index: src)  # an item's own line (or spreadsheet cell)
    a, a_point = _route_end(row[0], name, resolver, at(0))
    b, b_point = _route_end(row[1], name, resolver, at(1))
    length = resolver.value(row[2], "int", at(2), "route length")
    if length < 1:  # a path's length: networkx refuses negative weights, a board cannot draw 0 spaces
        raise ContentError(at(2), f"route length should be at least 1 space, not {length}", "write the number of train spaces")
    if length > limits.MAX_ROUTE_LENGTH:  # a board draws every space, the checker walks them
        raise ContentError(at(2), f"route length {length:,} is more than {limits.MAX_ROUTE_LENGTH} spaces (MAX_ROUTE_LENGTH)",
                           "write the number of train spaces of the route (the longest published route has 10)")
    colors = row[3] if len(row) > 3 else "gray"
    colors = colors if isinstance(colors, list) else [colors]
    if not colors:
        raise ContentError(src, "a route needs a colour per track, not []", "write [gray] for one track of any colour")
    colors = tuple(name(c, "color", at(3), "route colour") for c in colors)
    if len(row) > 4 and not isinstance(row[4], dict):
        raise ContentError(src, f"the 5th item of a route row is a mapping of extras, not {row[4]!r}",
                           "write e.g. {tunnel: true}, or remove it")
    extras = _route_extras(row[4], f"{row[0]} – {row[1]}", length, len(colors), src) if len(row) > 4 else {}
    return Route(a, b, length, colors, extras, src, (a_point, b_point))


def _route_end(value, name, resolver: Resolver, src: Source):
    """A route end: a place, or one of its points (``Ontario.north``, ``Italia.2``): (place, point name or "")."""
    text = str(value)
    places = resolver.collections.get("place", {})
    if isinstance(value, (dict, list)) or text in places or "." not in text:
        return name(value, "place", src, "route end"), ""
    head, point = text.rsplit(".", 1)
    place = name(head, "place", src, "route end")
    if place is None:  # misspelt: noted by collect
        return None, ""
    points = place.attrs.get("points") or {}
    if point not in points:
        error = ContentError(src, f"route end '{text}': place '{head}' has no point '{point}'",
                             did_you_mean(point, points) or (f"its points: {', '.join(points)}" if points else
                                                              f"give {head} named points (at: {{{point}: [x, y], …}}) "
                                                              f"or write just {head}"))
        if name != resolver.collect:
            raise error
        resolver.errors.append(error)
        return place, ""
    return place, point


def _route_extras(extras: dict, name: str, length: int, tracks: int, src: Source) -> dict:
    """The extras of a route row, typed (bends, curve, tunnel, ferry, style, distinct: what ``BoardRoute`` takes);
    checked when the row is read, so a mistake is found whether or not a board draws the route. Tunnel, ferry
    and style are one value for every track or a list, one per track (a double ferry needing 2 and 1 locomotives)."""
    where = extras.src if isinstance(extras, LDict) else (lambda key: src)  # a key's own line (or cell)
    for key in extras:
        if key not in ROUTE_EXTRAS:
            raise ContentError(where(key), f"unknown route extra '{key}' ({name})",
                               did_you_mean(key, ROUTE_EXTRAS) or "route extras: " + ", ".join(ROUTE_EXTRAS))
    typed: dict[str, object] = {}
    if "bends" in extras:
        bends = extras["bends"]
        if not (isinstance(bends, list) and all(is_pair(p) for p in bends)):
            raise ContentError(where("bends"), f"bends of {name} should be a list of [x, y] points in mm",
                               "write e.g. {bends: [[120, 340]]}")
        typed["bends"] = tuple((float(x), float(y)) for x, y in bends)
    if "curve" in extras:
        curve = extras["curve"]
        if isinstance(curve, bool) or not isinstance(curve, (int, float)):
            raise ContentError(where("curve"), f"curve of {name} should be a number of mm, not {curve!r}",
                               "write e.g. {curve: 25} (positive bulges to the right of the first city → second city, "
                               "as seen on the board)")
        typed["curve"] = float(curve)
    if typed.get("bends") and typed.get("curve"):
        raise ContentError(src, f"route {name} has both bends and a curve",
                           "use bends (corners) or curve (one smooth arc), not both")

    def per_track(key: str, ok, wrong: str, example: str):
        value = extras[key]
        if isinstance(value, list):
            if len(value) != tracks:
                raise ContentError(where(key), f"{key} of {name} lists {len(value)} values for {tracks} track(s)",
                                   f"write one value per track, in the order of its colours, or one for all: {example}")
            if not all(ok(v) for v in value):
                raise ContentError(where(key), f"{key} should be {wrong}, not {value!r}", f"write e.g. {example}")
            return tuple(value)
        if not ok(value):
            raise ContentError(where(key), f"{key} should be {wrong}, not {value!r}", f"write e.g. {example}")
        return value

    if "tunnel" in extras:
        typed["tunnel"] = per_track("tunnel", lambda v: isinstance(v, bool), "true or false", "{tunnel: true}")
    if "ferry" in extras:
        typed["ferry"] = per_track("ferry", lambda v: not isinstance(v, bool) and isinstance(v, int) and 0 <= v <= length,
                                   f"the number of locomotives (0–{length})", "{ferry: 1}")
    if "style" in extras:
        typed["style"] = per_track("style", lambda v: isinstance(v, str) and len(v) <= 2, "a letter or two (\"\" for none)",
                                   "{style: M}")
    if "distinct" in extras:
        if not isinstance(extras["distinct"], bool):
            raise ContentError(where("distinct"), f"distinct should be true or false, not {extras['distinct']!r}",
                               "write {distinct: true}")
        typed["distinct"] = extras["distinct"]
    return typed


def _points(value, src: Source, what: str):
    """A place's position: [x, y], or several (a list, named 1, 2, …; or named border points
    ``{north: [x, y], east: [x, y]}``) as a dict name → (x, y) in content order."""
    if is_pair(value):
        return (float(value[0]), float(value[1]))
    if isinstance(value, list) and value and all(is_pair(p) for p in value):
        named = {str(i): p for i, p in enumerate(value, 1)}
    elif isinstance(value, dict) and value and all(is_pair(p) for p in value.values()):
        named = {str(k): p for k, p in value.items()}
    else:
        raise ContentError(src, f"{what} should be two numbers [x, y] in mm, not {value!r}",
                           "write [x, y] (several points: [[x, y], [x, y]] or {north: [x, y], east: [x, y]})")
    if len(named) > limits.MAX_PLACE_POINTS:
        raise ContentError(src, f"{what} has {len(named)} points, more than {limits.MAX_PLACE_POINTS} (MAX_PLACE_POINTS)",
                           "a place is reached at a few border points; merge some")
    for name in named:
        if not name or "." in name or name != name.strip():
            raise ContentError(src, f"{what}: point name {name!r} cannot be used in a route end (Place.point)",
                               "name points with plain words without dots, e.g. north, east")
    return {name: (float(x), float(y)) for name, (x, y) in named.items()}


def is_pair(value) -> bool:
    """Two numbers [x, y] (true/false are not numbers here, though Python counts them as ints)."""
    return isinstance(value, list) and len(value) == 2 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
