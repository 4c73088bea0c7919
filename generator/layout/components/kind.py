"""What a component kind is: the interface every kind module implements, and the registry.

A kind (token, tile, die, sheet …) is one module that builds a ``ComponentKind``
and registers it; ``KINDS`` imports a kind's module the first time the kind is
asked for (one line per kind in ``KIND_MODULES``). Everything else — the loader, the checker, the
writers, a sheet's legend — reaches kinds only through ``KINDS``, never by name.
"""
from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from generator.layout.cardface import FaceRenderer
from generator.layout.primitives import Document, Form
from generator.model import dataclass_eq, dataclass_repr
from generator.model.components import Component
from generator.model.game import Game
from generator.model.words import Words


@dataclass(repr=False, eq=False)
class Output:
    """One printable file of a component."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    name: str                 # file name in the game's output folder
    doc: Document
    section: str | None       # title in the print-and-play file; None leaves it out (an alternative print)


OptionsT = TypeVar("OptionsT")


class ComponentKind(Protocol[OptionsT]):
    """The interface of a component kind: what it declares, and what it does.

    Nothing outside the kind modules asks a component's kind by name: the
    loader, checker, writers and rules read these declarations through
    ``KINDS[component.kind]``.

    The declarations are read-only (properties here): a kind may declare them as class constants,
    dataclass fields or properties. ``OptionsT`` is the kind's frozen options dataclass, the type of
    ``component.options`` for its components.
    """

    @property
    def name(self) -> str: ...
    #: JSON Schema of the kind's own keys (``properties``, ``required``); the loader validates them with file:line
    @property
    def schema(self) -> dict: ...
    #: what a component's ``count`` counts, plural, for messages and the build summary: "tokens", "dice"
    @property
    def unit(self) -> str: ...
    #: the catalogue key (templates/catalogues/) of the kind's name on the rule sheet and the cover: "kind.token"
    @property
    def label_key(self) -> str: ...
    #: the papers the checker lays the kind out on (PNP807–809): the shorter page first when the kind fills one
    @property
    def papers_checked(self) -> tuple[str, ...]: ...
    #: its faces are pictures of pieces: one SVG per distinct face, ``picture()`` in rules.md, a sheet's legend
    @property
    def pictured(self) -> bool: ...
    #: a sheet's legend draws an outline round each face (a die face has no edge of its own)
    @property
    def outlined_in_legend(self) -> bool: ...
    #: place in the print-and-play file among component kinds (after rules, boards and cards): lower first
    @property
    def print_order(self) -> int: ...
    #: printed on one side only: the print-and-play file puts a blank page behind each of its pages
    @property
    def one_sided(self) -> bool: ...
    #: the PNP8xx checks (``generator/check/components.py``) that look inside components of this kind
    @property
    def checks(self) -> frozenset[str]: ...
    #: the rules.md helpers that read components of this kind (``die_faces``, ``stacks``)
    @property
    def rules_helpers(self) -> frozenset[str]: ...

    def read(self, component: Component[OptionsT], spec, resolver, game: Game) -> None:
        """Type the kind's options from ``spec`` once (``component.options``: the kind's frozen dataclass),
        and fill the component's faces and geometry."""

    def faces(self, game: Game, component: Component[OptionsT], renderer: FaceRenderer) -> list[Form]:
        """One Form per distinct face (trim box origin at 0, 0): what a rule sheet or an SVG shows."""

    def legend(self, game: Game, component: Component[OptionsT], renderer: FaceRenderer) -> list[tuple[Form, str]]:
        """(Form, caption) per distinct face, for a sheet's legend block."""

    def outputs(self, game: Game, component: Component[OptionsT], renderer: FaceRenderer, paper: str) -> list[Output]:
        """The printable documents of the component."""

    # optional: ``assembly(component) -> tuple[str, ...]``, catalogue keys of the steps that make a printed sheet
    # into pieces (fold, glue, cut); the print-and-play cover lists each step once (``assembly_steps``)
    # optional: ``overview(game, component, renderer) -> list[Form]``, what the cover's picture of the components
    # shows of it (a die: one net); without it, its first three faces


def assembly_steps(components) -> list[str]:
    """Catalogue keys of the assembly steps the components need, each once, in component order."""
    return _declared(components, "assembly")


def supplies_needed(components) -> list[str]:
    """Catalogue keys of what the components need besides paper (glue, card stock, blank dice), each once."""
    return _declared(components, "supplies")


def _declared(components, hook: str) -> list[str]:
    """The catalogue keys a kind's optional ``hook`` (``assembly``, ``supplies``) gives for each component."""
    keys: list[str] = []
    for component in components:
        declared = getattr(KINDS[component.kind], hook, None)
        for key in (declared(component) if declared is not None else ()):
            if key not in keys:
                keys.append(key)
    return keys


#: kind name → the module (in this package) that registers it: adding a kind is its module and one line here
KIND_MODULES = {"die": "die", "token": "pieces", "tile": "pieces", "sheet": "sheet"}


class Kinds(MutableMapping[str, ComponentKind[Any]]):
    """Kind name → kind, filled by each kind module's ``register``; a kind's module is imported the first time
    the kind is asked for, so a game without components (or a name that is no kind's: "cards", "board tiles")
    imports none of them. Iterated, every kind's module is imported: the kinds of ``KIND_MODULES`` in its order,
    then any other registered (a test's), as a dict filled by importing them all at once would be."""

    def __init__(self) -> None:
        self._kinds: dict[str, ComponentKind[Any]] = {}

    def _import(self, name: str) -> None:
        module = KIND_MODULES.get(name)
        if module is not None and name not in self._kinds:
            importlib.import_module(f"{__package__}.{module}")

    def __getitem__(self, name: str) -> ComponentKind[Any]:
        if name not in self._kinds:
            self._import(name)
        return self._kinds[name]

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        self._import(name)
        return name in self._kinds

    def __setitem__(self, name: str, kind: ComponentKind[Any]) -> None:
        self._kinds[name] = kind

    def __delitem__(self, name: str) -> None:
        del self._kinds[name]

    def imported(self) -> dict[str, ComponentKind[Any]]:
        """The kinds registered so far (their modules imported, or registered by hand), none imported now."""
        return dict(self._kinds)

    def _every(self) -> dict[str, ComponentKind[Any]]:
        for name in KIND_MODULES:
            self._import(name)
        return self._kinds

    def __iter__(self) -> Iterator[str]:
        kinds = self._every()
        return iter([*(n for n in KIND_MODULES if n in kinds), *(n for n in kinds if n not in KIND_MODULES)])

    def __len__(self) -> int:
        return len(self._every())


KINDS = Kinds()

#: what every kind declares (the protocol's read-only properties), in the order above
DECLARATIONS = tuple(name for name, value in vars(ComponentKind).items() if isinstance(value, property))

KindT = TypeVar("KindT", bound=ComponentKind[Any])


def kinds_with(attribute: str, value) -> list[str]:
    """Names of the kinds whose set ``attribute`` holds ``value`` (``kinds_with("checks", "PNP801")``), for messages."""
    return [name for name, kind in KINDS.items() if value in getattr(kind, attribute)]


def kind_label(words: Words, kind: str) -> str:
    """How the game's language names a kind: a component kind by its ``label_key`` (⟨key⟩ when the catalogue
    lacks it: PNP901), any other (deck, board, board tiles, rules…) by ``kind.<kind>``, else as it is written."""
    component_kind = KINDS.get(kind)
    if component_kind is not None:
        return words[component_kind.label_key]
    return words.kind(kind)


def register(kind: KindT) -> KindT:
    """Make ``kind`` known by its name (a kind module calls this once, at import).

    A kind that leaves out part of the interface is refused here, when its module is imported.
    """
    missing = [name for name in DECLARATIONS if not hasattr(kind, name)]
    missing += [name for name in ("read", "faces", "legend", "outputs") if not callable(getattr(kind, name, None))]
    if missing:
        raise TypeError(f"component kind {getattr(kind, 'name', kind)!r} does not declare {', '.join(missing)} "
                        f"(see ComponentKind in {__name__})")
    KINDS[kind.name] = kind
    return kind
