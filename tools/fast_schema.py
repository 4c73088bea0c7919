#!/usr/bin/env python3
"""Write generator/load/schema_fast.py: the content schema as plain Python code (fastjsonschema), for a fast yes.

    python tools/fast_schema.py            # after the content schema changed (a test fails while it is stale)

Run at development time only: fastjsonschema is a test/development dependency, and the module it writes imports
nothing of it. The loader asks that module first (``generator.load.schema.fast_valid``); only when it says no,
or the data holds a value it was not proven for, is jsonschema imported and asked, so every error message is
jsonschema's as before.

Why its yes can be trusted: the keywords the schema uses are each in ``VETTED`` (fastjsonschema decides them as
jsonschema's Draft 2020-12 does for data made of dicts, lists, strings, booleans, None, ints and finite floats,
which is what ``fast_valid`` lets through); a keyword not in it stops this script. The two known differences
only make the fast code stricter, which costs a call to jsonschema, never a wrong yes: a pattern's ``$`` is
``\\Z`` there (``"a\\n"`` does not end a pattern), and a ``$ref`` whose siblings fastjsonschema would ignore
(Draft 7 reading) is written as ``allOf: [$ref, siblings]`` here, as 2020-12 reads it.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.layout.components import KINDS  # noqa: E402
from generator.load.schema import content_schema  # noqa: E402

_NAME_PREFIX = re.compile(r', custom_formats, \(name_prefix or "data"\) \+ "[^"\n]*"(?:\.format\(\*\*locals\(\)\))?\)')
#: fastjsonschema's "a float that is whole is an integer too", taken out of each integer check
_FLOAT_INTEGER = re.compile(r" and not \(isinstance\((\w+), float\) and \1\.is_integer\(\)\)")
TARGET = ROOT / "generator" / "load" / "schema_fast.py"
REGENERATE = "python tools/fast_schema.py"

#: keywords decided alike by both, each checked by tests/test_coldcheck_schema.py
VETTED = {"type", "properties", "additionalProperties", "required", "items", "minItems", "maxItems", "uniqueItems",
          "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "enum", "const", "pattern", "propertyNames",
          "minProperties", "maxProperties", "if", "then", "else", "oneOf", "allOf", "anyOf", "not", "$ref", "$defs"}
#: annotations: no part of a verdict
ANNOTATIONS = {"description", "title", "$comment", "$id", "$schema", "default", "examples"}
#: keywords whose value is a map of names to schemas, a list of schemas, or one schema
MAPS, LISTS, ONE = {"properties", "$defs"}, {"allOf", "oneOf", "anyOf"}, {"items", "additionalProperties",
                                                                         "propertyNames", "if", "then", "else", "not"}


def fast_schema(schema):
    """The schema as the fast code is generated from: annotations dropped, ``$ref`` siblings kept (``allOf``),
    and a keyword outside ``VETTED`` refused."""
    if isinstance(schema, bool):
        return schema
    unknown = sorted(set(schema) - VETTED - ANNOTATIONS)
    if unknown:
        raise SystemExit(f"tools/fast_schema.py: no fast path proven for {', '.join(unknown)}: add it to VETTED "
                         "with a test in tests/test_coldcheck_schema.py, or leave the schema to jsonschema")
    out: dict = {}
    for key, value in schema.items():
        if key in ANNOTATIONS:
            continue
        if key in MAPS:
            out[key] = {name: fast_schema(sub) for name, sub in value.items()}
        elif key in LISTS:
            out[key] = [fast_schema(sub) for sub in value]
        elif key in ONE:
            out[key] = fast_schema(value)
        else:
            out[key] = value
    if "$ref" in out and len(out) > 1 and set(out) != {"$ref", "$defs"}:
        rest = {k: v for k, v in out.items() if k not in ("$ref", "$defs")}
        out = {**({"$defs": out["$defs"]} if "$defs" in out else {}), "allOf": [{"$ref": out["$ref"]}, rest]}
    return out


def kind_schemas() -> dict:
    """The component kinds' own schemas the code was generated with (a kind registered later makes it unusable)."""
    return {name: KINDS[name].schema for name in sorted(KINDS)}


def code() -> str:
    """The text of generator/load/schema_fast.py."""
    import fastjsonschema

    body = fastjsonschema.compile_to_code(fast_schema(content_schema()), use_default=False, use_formats=False)
    head, _, body = body.partition("from fastjsonschema import JsonSchemaValueException, JsonSchemaValuesException\n")
    if not body or "fastjsonschema" in body:
        raise SystemExit("tools/fast_schema.py: fastjsonschema's code changed shape; look at it before trusting it")
    name = body[body.index("\ndef ") + 5:body.index("(data")]
    body = "\n".join(map(_no_definition, body.split("\n")))
    # a referenced schema's call without the error's path (formatted from ``locals()`` on every call: most of the
    # time of a big map's rows), which only the dropped messages read
    body = _NAME_PREFIX.sub(", custom_formats)", body)
    # an integer is a whole number written as one: 5.0 is not (``generator.load.schema._whole_number``; Draft 2020-12
    # and fastjsonschema count it as an integer, and ``count_each: 5.0`` met ``range()`` in the build)
    body, floats = _FLOAT_INTEGER.subn("", body)
    if not floats or "is_integer" in body:
        raise SystemExit("tools/fast_schema.py: fastjsonschema's integer check changed shape; look at it")
    # no Decimal: ``fast_valid`` never asks about one (``_plain``), and decimal is an import of its own
    head = head.replace("from decimal import Decimal\n", "")
    body = body.replace(", Decimal)", ")")
    if "Decimal" in head + body or "locals()" in body or "name_prefix or" in body.replace("name_prefix=None", ""):
        raise SystemExit("tools/fast_schema.py: fastjsonschema's code changed shape; look at it before trusting it")
    return (f'"""Generated by `{REGENERATE}` (fastjsonschema {fastjsonschema.VERSION}) from the content schema: do '
            'not edit.\n\nThe content schema as plain code, for a fast yes (see tools/fast_schema.py for why its yes '
            'is jsonschema\'s).\n"""\n# ruff: noqa\n# mypy: ignore-errors\n'
            + head
            + "\n\nclass JsonSchemaValueException(ValueError):\n    \"\"\"The data is not valid (or not proven so).\"\"\"\n\n\n"
              "JsonSchemaValuesException = JsonSchemaValueException\n"
            + f"\n#: the component kinds' schemas it was generated with\nKIND_SCHEMAS = {kind_schemas()!r}\n"
            + body.rstrip("\n") + ("\n" if name == "validate" else f"\n\n\nvalidate = {name}\n"))


def fast_validator(schema):
    """``schema`` compiled as the generated module's code is (fastjsonschema's, with pnpgen's integer: no float), for
    tests that compare it with jsonschema's reading: a function that raises fastjsonschema's exception on a no."""
    import fastjsonschema

    text = _FLOAT_INTEGER.sub("", fastjsonschema.compile_to_code(schema, use_default=False, use_formats=False))
    namespace: dict = {}
    exec(compile(text, "<fast schema>", "exec"), namespace)  # noqa: S102 - code generated from pnpgen's own schema
    return namespace["validate"]


def _no_definition(line: str) -> str:
    """A bare raise: the fast code's messages (and the copy of the schema each carried: most of the module's size
    and load time) are never shown, jsonschema's are."""
    if not line.lstrip().startswith("raise JsonSchemaValueException("):
        return line
    return line[:line.index("raise ")] + "raise JsonSchemaValueException"


def main() -> None:
    TARGET.write_text(code(), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
