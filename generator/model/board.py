"""Boards: what a game's map or line board is, in millimetres.

A ``Board`` is read from the ``boards:`` section by ``generator.load.board``.
A map board uses the game's places and routes (places carry ``at: [x, y]``
in mm on the board) unless it declares its own ``places:``/``routes:`` (a
second map, e.g. Thurn and Taxis' northern map, whose city cards are a deck
of their own: ``Deck.board``). A line board (S鉄道で行こう) draws the game's stations in line order with
each train type's stops, and card slots the rules need.
"""
from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field

from generator.errors import Source
from generator.fonts import Typeset
from generator.model import dataclass_eq, dataclass_hash, dataclass_repr
from generator.model.game import Entity, Route, bilingual
from generator.model.words import Words

#: a real Ticket to Ride train space, mm
DEFAULT_SPACE = (20.0, 9.0)


@dataclass(eq=False, repr=False)
class BoardRoute:
    """A route as drawn: the model route plus how its path runs on the board."""

    __repr__ = dataclass_repr

    route: Route
    bends: tuple[tuple[float, float], ...] = ()   # points the path passes through, mm
    curve: float = 0.0   # sideways bulge of a smooth curve, mm (+ = to the right of a → b as seen on the board)
    tunnel: bool | tuple[bool, ...] = False       # one for every track, or one per track
    ferry: int | tuple[int, ...] = 0              # locomotives a ferry needs (spaces marked with one)
    style: str | tuple[str, ...] = ""             # a letter printed in each space (a mountain track: "M")
    distinct: bool = False                        # a route of its own beside others between the same places

    @property
    def end_points(self) -> tuple[str, str]:
        """The names of the points its ends reach (``place_points``): as the row names them (``Land.east``),
        else, of a place with several, the one nearest the other end."""
        return route_end_points(self.route)

    @property
    def a_at(self) -> tuple[float, float]:
        """Where the route starts on the board (its first place's point), mm; what a ticket's mini-map draws."""
        return place_points(self.route.a)[self.end_points[0]]

    @property
    def b_at(self) -> tuple[float, float]:
        return place_points(self.route.b)[self.end_points[1]]

    def tunnel_of(self, track: int) -> bool:
        return self.tunnel[track] if isinstance(self.tunnel, tuple) else self.tunnel

    def ferry_of(self, track: int) -> int:
        return self.ferry[track] if isinstance(self.ferry, tuple) else self.ferry

    def style_of(self, track: int) -> str:
        return self.style[track] if isinstance(self.style, tuple) else self.style

    @property
    def source(self) -> Source:
        return self.route.source

    @property
    def name(self) -> str:
        return f"{self.route.a.id} – {self.route.b.id}"


def place_points(place: Entity) -> dict[str, tuple[float, float]]:
    """A place's positions by name: its points (``at: {north: [x, y], …}``, or 1, 2, … for a list),
    or its one ``at`` (named ""); the first is where its name is anchored and the place's ``at``."""
    points = place.attrs.get("points")
    if points:
        return dict(points)
    at = place.attrs.get("at")
    return {"": (float(at[0]), float(at[1]))} if at is not None else {}


def route_end_points(route: Route) -> tuple[str, str]:
    """Which of its places' points a route joins: those it names, else the nearest pair (``place_points`` names)."""
    a_opts = [route.ends[0]] if route.ends[0] else list(place_points(route.a))
    b_opts = [route.ends[1]] if route.ends[1] else list(place_points(route.b))
    if len(a_opts) == 1 and len(b_opts) == 1:
        return a_opts[0], b_opts[0]
    pa, pb = place_points(route.a), place_points(route.b)
    return min(((na, nb) for na in a_opts for nb in b_opts), key=lambda names: math.dist(pa[names[0]], pb[names[1]]))


def point_key(place: Entity, point: str) -> str:
    """How a board plan names one of a place's points: the place id for its first (or only) point,
    ``id.point`` for the others."""
    points = place_points(place)
    return place.id if not point or point == next(iter(points), "") else f"{place.id}.{point}"


@dataclass(frozen=True, repr=False, eq=False)
class CardSlot:
    """A row of places on a line board where the rules lay cards."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    label: str
    latin: str
    count: int
    numbered: bool


@dataclass(frozen=True, repr=False, eq=False)
class BoardPicture:
    """A picture file on a board (its ``background:`` or one of its ``overlays:``): the file, already
    kept inside the game and read (``digest``), and its box in board mm."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    path: str
    digest: str
    shown: str                # as the content wrote it, for messages
    box: tuple[float, float, float, float]
    source: Source
    fit: str = "fit"
    crop: tuple[float, float, float, float] | None = None
    opacity: float = 1.0
    rotate: float = 0.0


@dataclass(frozen=True, repr=False, eq=False)
class Tray:
    """Places on a map board for what lies beside the map (a card display, tile stacks): ``count`` outlines of
    ``size`` mm from ``at``, ``columns`` to a row, each ``step`` mm from the last (less than the size: they overlap)."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    label: str
    latin: str
    at: tuple[float, float]
    size: tuple[float, float]
    count: int
    columns: int
    step: tuple[float, float]

    def box(self) -> tuple[float, float, float, float]:
        """(x, y, w, h) it covers: its name above the places, and the places."""
        cols = min(self.columns, self.count)
        rows = -(-self.count // self.columns)
        w = (cols - 1) * self.step[0] + self.size[0]
        h = TRAY_LABEL + (rows - 1) * self.step[1] + self.size[1]
        return (self.at[0], self.at[1], w, h)

    def places(self) -> list[tuple[float, float]]:
        """Top-left corner of each place, row by row."""
        return [(self.at[0] + (n % self.columns) * self.step[0], self.at[1] + TRAY_LABEL + (n // self.columns) * self.step[1])
                for n in range(self.count)]


TRAY_LABEL = 7.0   # mm above a tray's places for its name

#: kinds of terrain a map may declare (``terrain:``), each drawn in its own default tint
TERRAIN_KINDS = ("land", "sea", "water", "river", "park", "region", "areas")
#: kinds on which a place is afloat (PNP510)
WET_KINDS = ("sea", "water")


@dataclass(frozen=True, repr=False, eq=False)
class TerrainLabel:
    """A name printed on the ground (a sea, a river, a neighbouring country): ``text`` over its ``latin``
    form, centred at ``at`` (board mm), turned ``angle`` degrees clockwise (a river's course)."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    text: str
    latin: str
    at: tuple[float, float]
    angle: float
    size: float
    source: Source


@dataclass(frozen=True, repr=False, eq=False)
class Terrain:
    """One shape of a map's ground, drawn behind everything else in the order written: land, sea, a lake
    (``water``), a ``river`` (an open line ``width`` mm wide), a ``park``, a ``region`` (a neighbouring
    country, a province), or ``areas`` (the game's areas as tinted regions, computed at layout time from
    the places' areas and clipped to ``points``). Points are board mm; colours are already hex."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    kind: str
    points: tuple[tuple[float, float], ...]
    fill: str | None
    stroke: str | None
    stroke_width: float
    source: Source
    name: str = ""
    labels: tuple[TerrainLabel, ...] = ()


@dataclass(eq=False, repr=False)
class Board:
    """A board of the game: a map (places, routes, areas, terrain) or a line board (stations, train types,
    card slots), its frame and furniture, in mm."""

    __repr__ = dataclass_repr

    id: str
    name: str
    latin: str
    kind: str                 # "map" | "line"
    width: float
    height: float
    space: tuple[float, float]
    style: str                # "track" (train spaces) | "road" (plain roads between cities)
    places: list[Entity]
    routes: list[BoardRoute]
    areas: list[Entity]
    score_track: int | None   # cells around the edge (100 = a 0–99 loop), or None
    legend: list[tuple[int, int]]  # (route length, points) rows of the scoring table
    source: Source
    stations: list[Entity] = field(default_factory=list)      # line boards: in line order
    train_types: list[Entity] = field(default_factory=list)
    slots: list[CardSlot] = field(default_factory=list)
    card_size: tuple[float, float] = (56.0, 87.0)
    title_at: tuple[float, float] | None = None    # top-left of the title box, mm
    legend_at: tuple[float, float] | None = None   # top-left of the scoring table, mm
    score_depth: float = 9.0           # mm across the score track's band (a marker must fit its cells)
    score_markers: str | None = None   # the token set that marks scores on the track (checked to fit, PNP508)
    name_pt: float = 9.0               # size of place names (``names: {size:}``); Latin names scale with it
    halo: bool = False                 # names ringed in the paper colour instead of set on a plate (``names: {halo:}``)
    trays: list[Tray] = field(default_factory=list)   # places beside the map (map boards), drawn over it
    rounds: int = 0                    # a round track of this many cells (0: none)
    round_marker: str | None = None    # the token that marks the round (checked to fit a cell, PNP508)
    pools: list[CardSlot] = field(default_factory=list)   # named places for a common supply (chips …); count unused
    #: the game's printed words (its legend, key and captions), set by the loader
    words: Words = field(default_factory=Words)
    #: the faces its text is set in (the game's ``body`` family or pnpgen's own), set by the loader
    typeset: Typeset = field(default_factory=Typeset)
    #: a picture filling the board under everything; pictures over it, under the routes (rivers, coasts)
    background: BoardPicture | None = None
    overlays: list[BoardPicture] = field(default_factory=list)
    #: the map's ground (``terrain:``), drawn first, in the order written
    terrain: list[Terrain] = field(default_factory=list)

    @property
    def area_regions(self) -> bool:
        """Whether areas are drawn as regions (a ``kind: areas`` terrain) rather than a disc under each city."""
        return any(shape.kind == "areas" for shape in self.terrain)

    @property
    def label(self) -> str:
        return bilingual(self.name, self.latin)

    @property
    def points(self) -> list[tuple[float, float]]:
        """Every place's every point, in place order (a place with several border points has a marker at each):
        ``place_points`` of each. A ticket's mini-map asks for them twice a point (81 times a deck for Germany's
        40 cities), so the list is kept with what it was made from, each place's ``points`` or ``at`` by identity
        (``pnpgen fit`` moves a place by giving it a new ``at``), and made again when one differs."""
        places = self.places
        made_of = [place.attrs.get("points") or place.attrs.get("at") for place in places]
        kept = self.__dict__.get("_points")
        if kept is not None and kept[0] is places and len(kept[1]) == len(made_of) and all(
                map(operator.is_, kept[1], made_of)):
            return list(kept[2])
        out: list[tuple[float, float]] = []
        for place in places:
            points = place.attrs.get("points")
            if points:
                out += points.values()
            else:
                at = place.attrs.get("at")
                if at is not None:
                    out.append((float(at[0]), float(at[1])))
        self.__dict__["_points"] = (places, made_of, tuple(out))
        return out
