"""Read the `components:` section into typed ``Component`` objects.

The keys every component has (kind, name, latin, expected, note, vars) are
checked by the schema fragment ``schema/sections/components.json``; each
kind's own keys by the schema its module declares (``KINDS`` in
``generator/layout/components``). Both are part of the one content schema
(``generator.load.schema.content_schema``), so every file is checked whole
when it is read, errors mapped to file:line like the rest of the content.
"""
from __future__ import annotations

from generator.errors import ContentError, did_you_mean
from generator.load.schema import kinds as _kinds
from generator.model.components import Component, check_pieces
from generator.model.game import Game
from generator.paths import plain_name


def load_components(game: Game, resolver) -> dict[str, Component]:
    components = {}
    for cid, (spec, src) in game.sections.get("components", {}).items():
        cid = plain_name(cid, src, "component id")
        kind = _kinds().get(spec["kind"])
        if kind is None:
            raise ContentError(spec.src("kind"), f"unknown component kind '{spec['kind']}' for '{cid}'",
                               did_you_mean(spec["kind"], _kinds()) or "kinds: " + ", ".join(_kinds()))
        component = Component(id=cid, kind=spec["kind"], unit=kind.unit, name=spec["name"], latin=spec.get("latin", ""),
                              expected=spec["expected"], options=None, vars=dict(spec.get("vars", {})), source=src,
                              expected_source=spec.src("expected"), note=spec.get("note", ""),
                              role=str(spec.get("role", "")))
        kind.read(component, spec, resolver, game)
        check_pieces(component)
        components[cid] = component
    return components
