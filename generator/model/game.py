"""Typed model of a game, built by ``generator.load.game`` from content.

Every object keeps the ``Source`` it came from so checks and builds can point
at the file and line to change. Layout templates read these objects (through
a sandboxed Jinja), e.g. ``card.start.name`` or ``deck.vars.color``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from jinja2 import StrictUndefined

from generator.errors import Source
from generator.fonts import Typeset
from generator.model import dataclass_eq, dataclass_hash, dataclass_repr
from generator.model.maprules import MapRules
from generator.model.words import Words

if TYPE_CHECKING:  # for annotations only: model.components builds on this module
    from generator.model.components import Component


def bilingual(name: str, latin: str) -> str:
    """How every model object is named for people: ベルリン / Berlin, or the name alone
    when there is no Latin form or it is the same."""
    return f"{name} / {latin}" if latin and latin != name else name


class _ReadsThrough:
    """Lets layouts write ``card.color`` for ``card.values["color"]``: the values
    dict named by ``_through`` answers attribute reads the object itself lacks."""

    _through = "attrs"

    def __getattr__(self, key):
        values = self.__dict__.get(self._through)
        if values is not None and key in values:
            return values[key]
        raise AttributeError(key)


@dataclass(eq=False, repr=False)
class Entity(_ReadsThrough):
    """An item of a named collection (a place, area, station, line, colour…)."""

    __repr__ = dataclass_repr

    kind: str
    id: str
    name: str
    latin: str
    attrs: dict
    source: Source

    @property
    def label(self) -> str:
        return bilingual(self.name, self.latin)

    def __str__(self) -> str:
        return self.name


@dataclass(eq=False, repr=False)
class Color(Entity):
    """A palette colour; ``hex`` is what gets printed, ``ink`` the text on it."""

    __repr__ = dataclass_repr

    @property
    def hex(self) -> str:
        return self.attrs["hex"]

    @property
    def ink(self) -> str:
        return self.attrs.get("ink") or _contrast(self.attrs["hex"])

    @property
    def symbol(self) -> str:
        """The name of its shape (``generator.layout.symbols``), or "" when it has none (wild, backs…)."""
        return str(self.attrs.get("symbol") or "")


def _contrast(hex_color: str) -> str:
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    return "#000000" if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else "#ffffff"


@dataclass(frozen=True)
class CardGeometry:
    """A card's size, bleed and safe margin, mm (its repr is part of every face's key: compiled, the fastest)."""

    width: float
    height: float
    bleed: float
    safe: float


@dataclass(eq=False, repr=False)
class Card(_ReadsThrough):
    """One distinct printed face, ``count`` times: a card of a deck, or a face of a component (a colour of
    token, one tile copy, one die type, a sheet).

    Layouts read it as ``card`` and its deck or component as ``deck`` (``card.deck`` is the same object):
    one class, so ``card`` means the same thing in every layout.
    """

    __repr__ = dataclass_repr

    _through = "values"
    deck: Deck | Component  # the deck or component (generator.model.components) it belongs to
    index: int
    values: dict      # typed by the loader or the kind module: color → Color, areas → [Entity], value → int …
    count: int
    source: Source
    #: fields whose value the loader computed (``points: auto`` → the shortest path)
    auto: frozenset = frozenset()

    def __getitem__(self, key):
        return self.values[key]

    def get(self, key, default=None):
        return self.values.get(key, default)

    @property
    def ref(self) -> str:
        """How a card is named in messages: its deck or component and position ("trains card 3", "dice face 1")."""
        return f"{self.deck.id} {self.deck.face_noun} {self.index + 1}"


@dataclass(eq=False, repr=False)
class Side(_ReadsThrough):
    """A layout plus the values it reads (``back.*`` for backs). A value the side lacks reads as
    undefined with a message naming the side and its line (``back.icon`` of a deck back without
    ``icon:``), not as an attribute missing from a Python object."""

    __repr__ = dataclass_repr

    _through = "vars"
    layout: str
    vars: dict
    source: Source
    what: str = "this back"   # how messages name it: "the back of deck 'tickets'"

    def __getattr__(self, key):
        try:
            return super().__getattr__(key)
        except AttributeError:
            if key.startswith("_") or "vars" not in self.__dict__:
                raise
            return StrictUndefined(hint=f"{self.what} ({self.source}) has no '{key}': add `{key}: …` to it "
                                        f"(it has {', '.join(self.vars) or 'only layout:'})", name=key)


@dataclass(eq=False, repr=False)
class Deck:
    """A deck of cards: its layout, backs, size and the cards themselves."""

    __repr__ = dataclass_repr

    #: what one of its ``cards`` is called in messages (``Card.ref``)
    face_noun = "card"

    id: str
    name: str
    latin: str
    expected: int
    layout: str
    back: Side
    geometry: CardGeometry
    fields: dict
    vars: dict
    source: Source
    layout_source: Source
    cards: list[Card] = field(default_factory=list)
    #: where `expected:` is written, for count findings
    expected_source: Source | None = None
    #: checker declarations (see ExpectedBy), the points range [min, max], a table the cards follow
    expected_by: ExpectedBy | None = None
    point_range: tuple[int, int] | None = None
    point_range_source: Source | None = None
    follows: Follows | None = None
    #: what the deck is for (``role: train``); an add-on that replaces the role sets ``replaced_by``
    role: str = ""
    replaced_by: AddOn | None = None
    #: the deck or named set it is an alternative to (``alternative_of: tickets``): a game plays one of them
    alternative_of: str = ""
    #: the board whose own places and areas its fields name (``board: north``: a second map's city cards); "" = the game's
    board: str = ""

    def field_type(self, name: str) -> str:
        """The type a field is declared with, optional or not (``points: int?`` → ``int``); "" if the deck lacks it.

        What the loader and the checks ask to recognise a kind of deck (tickets, train cards)."""
        return self.fields.get(name, "").rstrip("?")

    @property
    def size(self) -> int:
        """Printed cards: the sum of every distinct card's count."""
        return sum(card.count for card in self.cards)

    @property
    def label(self) -> str:
        return bilingual(self.name, self.latin)


@dataclass(frozen=True, repr=False, eq=False)
class ExpectedBy:
    """How many cards a deck promises per value of one field (Germany: 12 per colour, 14 locomotives).

    ``counts`` holds (value, count, source); ``each`` (count, source) covers every
    entry of the field's collection not listed.
    """

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    field: str
    counts: tuple
    each: tuple | None
    source: Source


@dataclass(frozen=True, repr=False, eq=False)
class Follows:
    """A deck whose ``value`` field is the ``table``'s entry for its ``key`` field."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    table: str
    key: str
    value: str
    source: Source


@dataclass(eq=False, repr=False)
class Route:
    """A route between two places: its length, colours (one per track) and which of their points it joins."""

    __repr__ = dataclass_repr

    a: Entity
    b: Entity
    length: int
    colors: tuple  # one Color per parallel track
    extras: dict   # how a board draws it, typed: bends, curve, tunnel, ferry (generator.model.board.BoardRoute)
    source: Source
    #: which of its places' points each end reaches (``Ontario.north``); "" = the point nearest the other end
    ends: tuple[str, str] = ("", "")

    @property
    def distinct(self) -> bool:
        """A route of its own beside others between the same two places (``{distinct: true}``): its own
        length, extras and colours, not one more track of a double route."""
        return bool(self.extras.get("distinct"))


@dataclass(frozen=True, repr=False, eq=False)
class ComponentRow:
    """One entry of the component list (``Game.components()``): a board, a deck or a component."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    id: str
    name: str                 # the bilingual label
    kind: str                 # "board", "deck", or a component kind's name
    count: int                # what the content makes
    unit: str                 # what is counted: board, cards, tokens, dice …
    expected: int | None      # what the rulebook promises (None: a board promises nothing)
    source: Source | None     # where `expected:` is declared (the checker points there)
    note: str = ""            # e.g. that a set is optional


@dataclass(eq=False, repr=False)
class AddOn:
    """A folder composed into a game (``--with`` or ``game: {with: [...]}``): its
    sections are merged into the game; ``keys`` remembers what it brought."""

    __repr__ = dataclass_repr

    id: str
    title: str
    latin: str
    folder: Path
    source: Source
    keys: dict  # section -> frozenset of the keys the add-on contributed
    replaces: tuple = ()  # deck roles the add-on replaces (their decks are not printed)
    replaces_source: Source | None = None

    def owns(self, key: str) -> bool:
        return any(key in keys for keys in self.keys.values())


@dataclass(eq=False, repr=False)
class Game:
    """A game as read from its folder: its collections, decks, components, boards, words and settings."""

    __repr__ = dataclass_repr

    id: str
    folder: Path
    title: str
    latin: str
    language: str
    players: tuple[int, int] | None
    geometry: CardGeometry
    back_offset: tuple[float, float]
    collections: dict[str, dict[str, Entity]]
    decks: dict[str, Deck]
    routes: list[Route]
    tables: dict
    source: Source
    meta: dict = field(default_factory=dict)  # the whole `game:` section, for keys a stage reads itself
    #: extra sections (from schema/sections/*.json fragments): section → {key: (value, Source)}
    sections: dict = field(default_factory=dict)
    #: add-ons composed into this game, in order (their rules follow the game's own)
    addons: list[AddOn] = field(default_factory=list)
    #: boards by id (generator.model.board.Board), read from the `boards:` section
    boards: dict = field(default_factory=dict)
    #: the map's own rules (generator.model.maprules.MapRules, ``map_rules:``), or None
    map_rules: MapRules | None = None
    #: tokens, tiles, dice and sheets (generator.model.components.Component), by id, in content order
    parts: dict = field(default_factory=dict)
    #: the words pnpgen prints, in the game's language (generator.load.catalogue)
    words: Words = field(default_factory=Words)
    #: the stamp printed on every home-printer sheet (generator.model.stamp), set once by the loader
    stamp: str = ""
    #: mm from each paper edge a home printer cannot print (``print: margin:``): crop marks and cut lines stay outside
    printer_margin: float = 5.0
    #: ``print: home_bleed:`` — mm of each card's bleed kept on home-printed card sheets (None: all of it)
    home_bleed: float | None = None
    #: ``print: home_gutter:`` — mm of blank paper between neighbouring cards on home card sheets (0: they touch)
    home_gutter: float = 0.0
    #: ``print: home_grid:`` — at most (columns, rows) of cards on a home card sheet (None: as many as fit)
    home_grid: tuple[int, int] | None = None
    #: ``print: shop_bleed:`` — mm of bleed on each side of a card in the build's print-shop PDF (None: the card's own)
    shop_bleed: float | None = None
    #: font families the game declares (``fonts:``), by name: generator.fonts.FontFamily; empty = the default face
    fonts: dict = field(default_factory=dict)
    #: the game's own icons (``icons:``): name → (absolute path, sha256 of the file); text shows them as :name:
    icons: dict = field(default_factory=dict)

    @property
    def palette(self) -> dict[str, Color]:
        # the loader fills this collection with Colors only (generator.load.game._palette)
        return cast("dict[str, Color]", self.collections["color"])

    @property
    def label(self) -> str:
        return bilingual(self.title, self.latin)

    @property
    def typeset(self) -> Typeset:
        """The faces the game's text is set in where no layout names a family (boards, sheets, labels …)."""
        return Typeset.of(self.fonts)

    def collection_for(self, deck: Deck, kind: str) -> dict[str, Entity]:
        """The entities a field of ``deck`` of type ``kind`` names: the game's, or, for a deck of a board with places
        of its own (``board:``), that board's places and areas."""
        board = self.boards.get(deck.board) if deck.board else None
        if board is not None and kind in ("place", "area"):
            return {entity.id: entity for entity in (board.places if kind == "place" else board.areas)}
        return self.collections.get(kind, {})

    def components(self, replaced: bool = False) -> list[ComponentRow]:
        """The component list: everything the game prints: boards, decks, then tokens, tiles, dice and sheets.

        The checker compares each row's ``count`` with its ``expected`` and points at its ``source``;
        decks an add-on replaces are left out unless ``replaced`` (they are not printed).
        """
        decks = [ComponentRow(deck.id, deck.label, "deck", deck.size, "cards", deck.expected,
                              deck.expected_source or deck.source)
                 for deck in self.decks.values() if replaced or deck.replaced_by is None]
        parts = [ComponentRow(part.id, part.label, part.kind, part.count, part.unit, part.expected,
                              part.expected_source, part.note)
                 for part in self.parts.values()]
        boards = [ComponentRow(board.id, board.label, "board", 1, "board", None, board.source)
                  for board in self.boards.values()]
        return boards + decks + parts
