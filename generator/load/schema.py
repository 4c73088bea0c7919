"""The content's JSON Schema, and its errors mapped back to file:line.

``game.schema.json`` plus one fragment per extra section (``schema/sections/``)
checks the shape of every content file; component kinds validate their own keys
with a schema of their own. Both report the same way: the outermost error, at the
line of the key or item it is about, with what to do.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import jsonschema

from generator.errors import ContentError, Source, did_you_mean
from generator.yamlsource import LDict, LList

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schema"
SCHEMA_FILE = SCHEMA_DIR / "game.schema.json"


@lru_cache(maxsize=1)
def game_schema() -> dict:
    """game.schema.json plus every fragment in schema/sections/ (one per extra section).

    A fragment is ``{"properties": {section: …}, "$defs": {…}}``; a new kind of
    content adds its own fragment instead of editing the core schema.
    """
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    for fragment in sorted((SCHEMA_DIR / "sections").glob("*.json")):
        extra = json.loads(fragment.read_text(encoding="utf-8"))
        schema["properties"].update(extra.get("properties", {}))
        schema.setdefault("$defs", {}).update(extra.get("$defs", {}))
    return schema


@lru_cache(maxsize=1)
def game_validator():
    return jsonschema.Draft202012Validator(game_schema())


def first_error(validator, data):
    """The error to report, or None: the outermost (shortest path), then the first by path."""
    return min(validator.iter_errors(data), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))),
               default=None)


def _locate(data, path) -> Source:
    node, src = data, data.src()
    for key in path:
        if isinstance(node, LDict) and key in node or isinstance(node, LList) and isinstance(key, int) and key < len(node):
            src = node.src(key)
        else:
            break
        node = node[key]
    return src


def schema_error(data: LDict, error) -> ContentError:
    """``error`` (a jsonschema ValidationError on ``data``) as a ContentError at its line."""
    where = ".".join(str(p) for p in error.absolute_path) or "top level"
    src = _locate(data, error.absolute_path)
    if error.validator == "additionalProperties":
        allowed = list(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in allowed]
        bad = extra[0] if extra else "?"
        if isinstance(error.instance, LDict) and bad in error.instance:
            src = error.instance.src(bad)
        hint = did_you_mean(bad, allowed) or ("allowed keys: " + ", ".join(allowed) if allowed else "remove it")
        return ContentError(src, f"unknown key '{bad}' in {where}", hint)
    if error.validator == "required":
        return ContentError(src, f"{where}: {error.message}", "add the missing key")
    if error.validator == "type":
        return ContentError(src, f"{where} should be of type {error.validator_value}, not {error.instance!r}",
                            "fix the value's type")
    if error.validator == "minProperties" and not error.instance:
        return ContentError(src, f"{where} is empty", "give it at least one entry, or remove it")
    if error.validator == "oneOf" and where.startswith("palette"):
        return ContentError(src, f"{where}: a colour is '#rrggbb' or {{hex: '#rrggbb', name: …}}",
                            "write the colour as six hex digits after #")
    return ContentError(src, f"{where}: {error.message}", "see generator/schema/game.schema.json for the format")
