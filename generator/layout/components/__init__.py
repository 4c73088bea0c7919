"""Component kinds: tokens, tiles, dice and sheets, one module each, one registry.

A kind is an object with
- ``name`` and ``schema`` (JSON Schema properties of the kind's own keys, and
  which are required), validated by the loader with file:line errors;
- ``read(component, spec, resolver, game)``: typed options, faces and geometry;
- ``faces(game, component, renderer)``: one Form per distinct face — what a rule
  sheet or an SVG shows;
- ``legend(game, component, renderer)`` (pieces a sheet's legend block can show:
  tokens, tiles, dice): (Form, caption) per distinct face;
- ``outputs(game, component, renderer, paper)``: the printable documents.

Adding a kind is one module and one line in ``KINDS``.
"""
from __future__ import annotations

from dataclasses import dataclass

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


from generator.layout.components import die, pieces, sheet  # noqa: E402  (kinds import Output)

KINDS = {
    "token": pieces.TOKEN,
    "tile": pieces.TILE,
    "die": die.DIE,
    "sheet": sheet.SHEET,
}


def component_faces(game: Game, component: Component, renderer: FaceRenderer | None = None) -> list[Form]:
    """The component's distinct faces as Forms (trim box origin at 0, 0), e.g. to picture it in a rule sheet."""
    return KINDS[component.kind].faces(game, component, renderer or FaceRenderer(game))
