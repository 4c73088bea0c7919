"""Components other than cards: tokens, tiles, dice, score sheets and player aids.

A component is declared once in content (``components:``) with the count the
rulebook promises (``expected``); what it really prints (``count``) is derived
here from its faces, so the checker and the build compare promise and content
the same way for every kind. Layouts read a face as ``card`` and the component
as ``deck`` — the same names card layouts use, so one layout language serves all.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Generic, TypeVar

from generator import limits
from generator.errors import ContentError, Source
from generator.model import dataclass_repr
from generator.model.game import Card, CardGeometry, bilingual

#: a kind's frozen options dataclass (``PieceOptions``, ``DieOptions`` …)
OptionsT = TypeVar("OptionsT")


@dataclass(eq=False, repr=False)
class Component(Generic[OptionsT]):
    """A token set, tile set, die type or sheet, with its kind-specific options in ``options``.

    Layouts read an option as ``deck.shape`` as well as ``deck.options.shape``. Its faces are ``Card``s
    (``card`` in a layout, ``card.deck`` the component), as a deck's cards are.
    ``Component[PieceOptions]`` is a component whose kind types its options as ``PieceOptions``.
    """

    __repr__ = dataclass_repr

    #: what one of its ``faces`` is called in messages (``Card.ref``)
    face_noun = "face"

    id: str
    kind: str         # the name of its kind in KINDS (generator/layout/components): asked there, never compared
    unit: str         # what ``count`` counts, plural (tokens, dice …): the kind's ``unit``, set by the loader
    name: str
    latin: str
    expected: int
    options: OptionsT  # the kind's own keys: its frozen options dataclass, filled once by the kind's ``read``
    vars: dict        # free values for layouts (deck.vars.*)
    source: Source
    faces: list[Card] = field(default_factory=list)
    geometry: CardGeometry | None = None   # trim size, bleed and safe margin of one piece (None for sheets)
    expected_source: Source | None = None  # the `expected:` line, where a count mismatch is reported
    note: str = ""                          # e.g. "optional — the box has plastic trains"
    role: str = ""                          # what it is for (``role: player-aid``): an add-on may replace the role

    @property
    def count(self) -> int:
        """Pieces printed: tokens, tiles, dice or sheets (the sum of every face's count)."""
        return sum(face.count for face in self.faces)

    def __getattr__(self, key):
        """An option read as an attribute of the component (``deck.shape``), as layouts write it."""
        options = self.__dict__.get("options")
        if options is not None and key in {f.name for f in fields(options)}:
            return getattr(options, key)
        raise AttributeError(key)

    @property
    def label(self) -> str:
        return bilingual(self.name, self.latin)


def piece_geometry(component: Component) -> CardGeometry:
    """``component.geometry``, for a kind whose ``read`` always sets it (every kind whose pieces are cut:
    not a sheet)."""
    if component.geometry is None:
        raise TypeError(f"component '{component.id}' of kind {component.kind} has no piece geometry")
    return component.geometry


def check_pieces(component: Component) -> None:
    """Refuse a component of more than MAX_PIECES_PER_COMPONENT pieces (counts and copies included)."""
    for _face in counted_faces(component, component.faces):
        pass


def counted_faces(component: Component, faces):
    """``faces`` as they are read, stopped at the face that takes the component over
    MAX_PIECES_PER_COMPONENT pieces — before the rest is built."""
    total = 0
    for face in faces:
        total += face.count
        if total > limits.MAX_PIECES_PER_COMPONENT:
            raise ContentError(face.source, f"component '{component.id}' has {total:,} pieces here, more than "
                                            f"{limits.MAX_PIECES_PER_COMPONENT:,} (MAX_PIECES_PER_COMPONENT)",
                               "check count:, count_each:, values:, dice: or copies: — no printed game has this many")
        yield face
