"""Component kinds: tokens, tiles, dice and sheets, one module each, one registry.

The interface a kind implements is ``ComponentKind`` in ``kind.py``. Adding a
kind is one module (which calls ``register``) and one line in ``kind.KIND_MODULES``:
``KINDS`` imports a kind's module when the kind is first asked for.
"""
from __future__ import annotations

from generator.layout.cardface import FaceRenderer
from generator.layout.components.kind import KINDS, ComponentKind, Output
from generator.layout.primitives import Form
from generator.model.components import Component
from generator.model.game import Game

__all__ = ["KINDS", "ComponentKind", "Output", "component_faces"]


def component_faces(game: Game, component: Component, renderer: FaceRenderer | None = None) -> list[Form]:
    """The component's distinct faces as Forms (trim box origin at 0, 0), e.g. to picture it in a rule sheet."""
    return KINDS[component.kind].faces(game, component, renderer or FaceRenderer(game))
