"""The content schema's fast yes (issue 14, a cold check): ``generator/load/schema_fast.py`` is generated from the
schema (``tools/fast_schema.py``) and says yes only where jsonschema says yes.

Proven three ways: every vetted keyword alone on values chosen to split them (bool against number, 1 against 1.0,
a trailing newline, duplicates, NaN); every bundled content file and fixture file; and hundreds of small mutations
of them (a value replaced by another kind of value). Wherever the two differ, the fast code is the stricter, and
the loader then asks jsonschema, so the verdict and every message are jsonschema's."""
from __future__ import annotations

import copy
import itertools
import math
import random
from pathlib import Path

import fastjsonschema
import pytest

from generator.layout.components import KINDS
from generator.load import schema, schema_fast
from generator.load.files import read_content_file
from generator.yamlsource import LDict, LList, load_yaml
from tools import fast_schema

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted([*(ROOT / "content").glob("*/*.yaml"), *(ROOT / "tests" / "fixtures").glob("*/*.yaml")])
ODD = [True, False, 0, 1, 2, -1, 1.0, 1.5, 2.0, math.nan, math.inf, "", "x", "abc\n", "#aabbcc", "#aabbcc\n", None,
       [], ["a", "a"], ["a", "b"], [1, True], [1, 1.0], {}, {"a": 1}, {"kind": "tile"}, {"kind": "die", "dice": 0}]


def _jsonschema_valid(data) -> bool:
    return schema.first_error(schema.game_validator(), data) is None


def test_the_generated_module_is_up_to_date():
    assert (ROOT / "generator" / "load" / "schema_fast.py").read_text(encoding="utf-8") == fast_schema.code(), (
        f"generator/load/schema_fast.py is out of date with the content schema: run `{fast_schema.REGENERATE}`")


# one schema per vetted keyword, and values that split their readings
KEYWORD_CASES = {
    "type": [{"type": t} for t in ("integer", "number", "string", "boolean", "null", "array", "object")]
    + [{"type": ["integer", "string"]}, {"type": ["number", "null"]}],
    "properties": [{"properties": {"a": {"type": "integer"}}}],
    "additionalProperties": [{"additionalProperties": False, "properties": {"a": {}}},
                             {"additionalProperties": {"type": "string"}}],
    "required": [{"required": ["a"]}],
    "items": [{"items": {"type": "integer"}}],
    "minItems": [{"minItems": 1}], "maxItems": [{"maxItems": 1}],
    "uniqueItems": [{"uniqueItems": True}, {"type": "array", "items": {"type": "string"}, "uniqueItems": True}],
    "minimum": [{"minimum": 1}, {"minimum": 0}], "maximum": [{"maximum": 1}, {"maximum": 0}],
    "exclusiveMinimum": [{"exclusiveMinimum": 0}], "exclusiveMaximum": [{"exclusiveMaximum": 1}],
    "enum": [{"enum": [1, 2]}, {"enum": ["a", "x"]}, {"enum": [True]}, {"enum": [None, 0]}],
    "const": [{"const": "x"}, {"const": 1}, {"const": True}],
    "pattern": [{"pattern": "^#[0-9a-fA-F]{6}$"}, {"pattern": "^[^/\\\\].*\\.ya?ml$"}],
    "propertyNames": [{"propertyNames": {"pattern": "^[A-Za-z][A-Za-z0-9_-]*$"}}],
    "minProperties": [{"minProperties": 1}], "maxProperties": [{"maxProperties": 1}],
    "if": [{"if": {"properties": {"kind": {"const": "tile"}}, "required": ["kind"]}, "then": {"required": ["sides"]},
            "else": {"maxProperties": 1}}],
    "oneOf": [{"oneOf": [{"const": "same"}, {"type": "string"}]}, {"oneOf": [{"type": "integer"},
                                                                                           {"type": "number"}]}],
    "allOf": [{"allOf": [{"type": "integer"}, {"minimum": 1}]}],
    "anyOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}],
    "not": [{"not": {"type": "integer"}}],
    "$ref": [{"$defs": {"n": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/n", "minimum": 2}}}],
}


def test_every_vetted_keyword_is_tested_here():
    assert set(KEYWORD_CASES) | {"then", "else", "$defs"} == fast_schema.VETTED


def _instances():
    yield from ODD
    yield from ({"a": value} for value in ODD)
    yield from ({"kind": "tile", "sides": value} for value in ODD)
    yield from ({1: "x"}, {True: "x"}, {"a": 1, "b": 2}, {"Bad key!": 1})


@pytest.mark.parametrize("keyword", sorted(KEYWORD_CASES))
def test_the_fast_code_says_yes_only_where_jsonschema_does(keyword):
    stricter = []
    for case in KEYWORD_CASES[keyword]:
        fast = fast_schema.fast_validator(fast_schema.fast_schema(case))
        slow = schema._content_validator_class()(case)
        for instance in _instances():
            if not schema._plain(instance):
                continue   # not asked of the fast code (fast_valid answers False)
            try:
                fast(copy.deepcopy(instance))
                fast_yes = True
            except fastjsonschema.JsonSchemaException:
                fast_yes = False
            slow_yes = slow.is_valid(instance)
            assert not fast_yes or slow_yes, (case, instance)
            if slow_yes and not fast_yes:
                stricter.append((case, instance))
    # the two readings known to differ, each stricter in the fast code: a pattern's $ before a trailing newline,
    # minimum/maximum applied to a boolean (jsonschema leaves it to type)
    for case, instance in stricter:
        assert keyword in ("pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"), (case, instance)


def test_values_the_fast_code_was_not_proven_for_go_to_jsonschema():
    assert schema._plain(LDict({"a": LList([1, 2.5, "x", None, True]), 3: {}}))
    for odd in (math.nan, -math.inf, (1, 2), {(1, 2): 1}, {1.5: 1}, b"x", __import__("datetime").date(2024, 1, 1)):
        assert not schema._plain({"game": {"x": [odd]}}), odd
        assert not schema.fast_valid({"game": {"title": "T", "x": [odd]}})


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_content_and_fixture_file_has_the_same_verdict(path):
    data = load_yaml(path)
    assert schema.fast_valid(data) == _jsonschema_valid(data)


def _paths(data, prefix=()):
    if isinstance(data, dict):
        for key, value in data.items():
            yield (*prefix, key)
            yield from _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield (*prefix, i)
            yield from _paths(value, (*prefix, i))


def _replaced(data, path, value):
    copied = copy.deepcopy(data)
    node = copied
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copied


@pytest.mark.parametrize("game", ["ttr-germany", "thurn-and-taxis", "s-railway", "ttr-dice"])
def test_mutations_of_the_bundled_content_are_never_a_wrong_yes(game):
    """Any value of a game's files replaced by one of ODD (a sample, the same each run): the fast yes implies
    jsonschema's, and the two agree on nearly all (the fast code's few extra noes are the pattern/boolean ones)."""
    rng = random.Random(14)
    both = fast_no = 0
    for path in sorted((ROOT / "content" / game).glob("*.yaml")):
        data = load_yaml(path)
        paths = list(_paths(data))
        for where, value in itertools.islice(((rng.choice(paths), rng.choice(ODD)) for _ in itertools.count()), 80):
            mutated = _replaced(data, where, value)
            fast, slow = schema.fast_valid(mutated), _jsonschema_valid(mutated)
            assert not fast or slow, (path.name, where, value)
            both += fast == slow
            fast_no += slow and not fast
    assert both > 10 * fast_no


def test_a_kind_registered_later_is_left_to_jsonschema(monkeypatch):
    data = read_content_file(ROOT / "content" / "ttr-germany" / "game.yaml")
    assert schema.fast_valid(data)
    monkeypatch.setitem(KINDS, "zz-new", type("Kind", (), {"schema": {"properties": {}}})())
    assert {name: KINDS[name].schema for name in sorted(KINDS)} != schema_fast.KIND_SCHEMAS
    assert not schema.fast_valid(data)
