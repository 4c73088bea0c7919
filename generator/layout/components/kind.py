"""What a component kind is: the interface every kind module implements, and the registry.

A kind (token, tile, die, sheet …) is one module that builds a ``ComponentKind``
and registers it; ``generator/layout/components/__init__.py`` imports each kind
module once (one line per kind). Everything else — the loader, the checker, the
writers, a sheet's legend — reaches kinds only through ``KINDS``, never by name.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from generator.layout.cardface import FaceRenderer
from generator.layout.primitives import Document, Form
from generator.model.components import Component
from generator.model.game import Game


@dataclass
class Output:
    """One printable file of a component."""

    name: str                 # file name in the game's output folder
    doc: Document
    section: str | None       # title in the print-and-play file; None leaves it out (an alternative print)


class ComponentKind(Protocol):
    """The interface of a component kind."""

    name: str
    #: JSON Schema of the kind's own keys (``properties``, ``required``); the loader validates them with file:line
    schema: dict

    def read(self, component: Component, spec, resolver, game: Game) -> None:
        """Type the kind's options from ``spec`` once, and fill the component's faces and geometry."""

    def faces(self, game: Game, component: Component, renderer: FaceRenderer) -> list[Form]:
        """One Form per distinct face (trim box origin at 0, 0): what a rule sheet or an SVG shows."""

    def legend(self, game: Game, component: Component, renderer: FaceRenderer) -> list[tuple[Form, str]]:
        """(Form, caption) per distinct face, for a sheet's legend block."""

    def outputs(self, game: Game, component: Component, renderer: FaceRenderer, paper: str) -> list[Output]:
        """The printable documents of the component."""


#: kind name → kind; filled by each kind module's ``register``
KINDS: dict[str, ComponentKind] = {}


def register(kind: ComponentKind) -> ComponentKind:
    """Make ``kind`` known by its name (a kind module calls this once, at import)."""
    KINDS[kind.name] = kind
    return kind
