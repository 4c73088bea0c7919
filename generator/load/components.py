"""Read the `components:` section into typed ``Component`` objects.

The keys every component has (kind, name, latin, expected, note, vars) are
checked by the schema fragment ``schema/sections/components.json``; each
kind's own keys by the schema its module declares (``KINDS`` in
``generator/layout/components``), with errors mapped to file:line the same
way as the rest of the content.
"""
from __future__ import annotations

import jsonschema

from generator.errors import ContentError, did_you_mean
from generator.layout.components import KINDS
from generator.load.schema import first_error, schema_error
from generator.model.components import Component, check_pieces
from generator.model.game import Game
from generator.paths import plain_name

COMMON = ("kind", "name", "latin", "expected", "note", "vars")


def load_components(game: Game, resolver) -> dict[str, Component]:
    components = {}
    for cid, (spec, src) in game.sections.get("components", {}).items():
        cid = plain_name(cid, src, "component id")
        kind = KINDS.get(spec["kind"])
        if kind is None:
            raise ContentError(spec.src("kind"), f"unknown component kind '{spec['kind']}' for '{cid}'",
                               did_you_mean(spec["kind"], KINDS) or "kinds: " + ", ".join(KINDS))
        _validate(cid, spec, kind)
        component = Component(id=cid, kind=spec["kind"], unit=kind.unit, name=spec["name"], latin=spec.get("latin", ""),
                              expected=spec["expected"], options=None, vars=dict(spec.get("vars", {})), source=src,
                              expected_source=spec.src("expected"), note=spec.get("note", ""))
        kind.read(component, spec, resolver, game)
        check_pieces(component)
        components[cid] = component
    return components


def _validate(cid: str, spec, kind) -> None:
    schema = {"type": "object", "additionalProperties": False,
              "properties": {**{key: {} for key in COMMON}, **kind.schema["properties"]},
              "required": kind.schema.get("required", [])}
    first = first_error(jsonschema.Draft202012Validator(schema), spec)
    if first is not None:
        error = schema_error(spec, first)
        where = ".".join(str(p) for p in first.absolute_path) or "top level"
        message = error.message.replace(where, f"components.{cid}" + (f".{where}" if first.absolute_path else ""), 1)
        hint = error.hint
        if first.validator == "enum":
            hint = "use one of: " + ", ".join(map(str, first.validator_value))
        elif first.validator in ("minimum", "exclusiveMinimum"):
            hint = f"use a number {'≥' if first.validator == 'minimum' else '>'} {first.validator_value}"
        elif first.schema.get("description") and first.validator != "type":
            hint = first.schema["description"]
        elif hint and "game.schema.json" in hint:
            hint = f"the keys of a {spec['kind']} are described in generator/layout/components/ ({kind.__module__})"
        raise ContentError(error.source, message, hint)
