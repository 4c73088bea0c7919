"""The shipped editor schema (generator/schema/pnpgen.schema.json) is the loader's schema, and editors can use it.

Every check here reads the committed file with plain ``jsonschema``, one YAML file at a time,
as an editor does: no Python merging of fragments or kinds.
"""
from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.errors import ContentError
from generator.load import schema
from generator.load.files import read_content_file
from generator.load.schema import (
    EDITOR_SCHEMA_FILE,
    LAYOUT_SCHEMA_FILE,
    REGENERATE,
    REGENERATE_LAYOUT,
    content_schema,
    layout_schema_text,
    schema_text,
)

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = json.loads(EDITOR_SCHEMA_FILE.read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SHIPPED)

LAYOUT_VALIDATOR = jsonschema.Draft202012Validator(json.loads(LAYOUT_SCHEMA_FILE.read_text(encoding="utf-8")))

# Content files: every YAML file of every bundled game. Not the files under layouts/: a layout
# (elements, vars, extends) is another format, read and checked by generator/layout/cardface.py; its
# schema for editors is pnpgen-layout.schema.json (LAYOUT_FILES below).
CONTENT_FILES = sorted((ROOT / "content").glob("*/*.yaml"))
LAYOUT_FILES = sorted([*(ROOT / "templates" / "layouts").glob("*.yaml"), *(ROOT / "content").glob("*/layouts/*.yaml")])


def as_editor_sees(text: str):
    """The YAML as a JSON document, as a YAML language server validates it: mapping keys are strings."""
    return json.loads(json.dumps(yaml.safe_load(text), default=str))


def errors(data, validator=VALIDATOR) -> list[str]:
    return [f"{'.'.join(map(str, e.absolute_path)) or 'top level'}: {e.message}" for e in validator.iter_errors(data)]


def test_the_committed_file_is_what_the_loader_validates_with():
    assert EDITOR_SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), (
        f"{EDITOR_SCHEMA_FILE.name} is out of date with the schema sources: run `{REGENERATE}`")
    assert content_schema() == SHIPPED
    assert LAYOUT_SCHEMA_FILE.read_text(encoding="utf-8") == layout_schema_text(), (
        f"{LAYOUT_SCHEMA_FILE.name} is out of date with generator/layout/cardface.py: run `{REGENERATE_LAYOUT}`")


@pytest.mark.parametrize("path", [EDITOR_SCHEMA_FILE, LAYOUT_SCHEMA_FILE], ids=lambda p: p.name)
def test_the_file_is_a_self_contained_draft_2020_12_schema(path):
    schema_doc = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema_doc)
    assert schema_doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema_doc["$id"] and schema_doc["title"] and schema_doc["description"]
    refs = re.findall(r'"\$ref": "([^"]*)"', json.dumps(schema_doc))
    assert refs and all(ref.startswith("#/$defs/") and ref[8:] in schema_doc["$defs"] for ref in refs)


def test_there_are_bundled_content_and_layout_files():
    assert len(CONTENT_FILES) >= 27
    assert len(LAYOUT_FILES) >= 16


@pytest.mark.parametrize("path", LAYOUT_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_bundled_layout_validates_against_the_layout_schema(path):
    assert errors(as_editor_sees(path.read_text(encoding="utf-8")), LAYOUT_VALIDATOR) == []


@pytest.mark.parametrize("text", [
    "elements: [{rect: {x: 0, y: 0, w: 1}}]",                    # rect needs h
    "elements: [{rect: {x: 0, y: 0, w: 1, h: 1, colour: red}}]",  # no such attribute
    "elements: [{rect: {x: 0, y: 0, w: 1, h: 1}, circle: {cx: 0, cy: 0, r: 1}}]",  # two kinds in one element
    "elements: []\ncolour: red",                                   # no such layout key
    "elements: [{group: {elements: [{name: a, rect: {x: 0, y: 0, w: 1, h: 1}}]}}]",  # name: inside a group
])
def test_a_broken_layout_is_rejected(text):
    assert errors(as_editor_sees(text), LAYOUT_VALIDATOR)


@pytest.mark.parametrize("path", CONTENT_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_content_file_validates_on_its_own(path):
    assert errors(as_editor_sees(path.read_text(encoding="utf-8"))) == []


TOKEN = """\
components:
  chips:
    kind: token
    name: Chips
    expected: 4
    size: 14
    colors: [red]
    count_each: 4
"""


@pytest.mark.parametrize("change, expected", [
    (("components:", "colours: {}\ncomponents:"), "Additional properties are not allowed ('colours' was unexpected)"),
    (("expected: 4", "expected: four"), "components.chips.expected: 'four' is not of type 'integer'"),
    (("size: 14", "size: big"), "components.chips.size: 'big' is not valid"),
    (("kind: token", "kind: tokn"), "components.chips.kind: 'tokn' is not one of"),
    # a die's key on a token: the token's own keys are checked as a token's
    (("size: 14", "size: 14\n    dice: 5"), "components.chips: Additional properties are not allowed ('dice' was"),
    (("    size: 14\n", ""), "components.chips: 'size' is a required property"),
])
def test_a_broken_file_is_rejected(change, expected):
    assert errors(as_editor_sees(TOKEN)) == []
    found = errors(as_editor_sees(TOKEN.replace(*change)))
    assert any(expected in e for e in found), found


def test_wrong_types_in_the_core_sections_are_rejected():
    assert errors(as_editor_sees("game: {title: T, players: 4}\n")) == ["game.players: 4 is not of type 'array'"]
    assert errors(as_editor_sees("palette: {red: red}\n"))
    assert errors(as_editor_sees("boards: {b: {size: [10, 10], legend: {1: 1}}}\n"))


# ------------------------------------------------------------------------------------- README examples

README = (ROOT / "README.md").read_text(encoding="utf-8")
YAML_BLOCKS = [(README[:m.start()].count("\n") + 1, m.group(1))
               for m in re.finditer(r"^```yaml\n(.*?)^```", README, re.S | re.M)]


def _partial(schema):
    """``schema`` without any ``required``: an example that shows a few keys of a deck still has them checked."""
    if isinstance(schema, dict):
        return {k: _partial(v) for k, v in schema.items() if k != "required"}
    if isinstance(schema, list):
        return [_partial(v) for v in schema]
    return schema


PARTIAL = jsonschema.Draft202012Validator(_partial(copy.deepcopy(SHIPPED)))


def _how(block: str) -> str:
    """How a README block is checked, decided per block by what it shows."""
    if block.startswith("extends:"):
        return "layout"    # the layout example (Layouts): another format, checked with the layout schema
    if "expected_by:" in block or "# name, expected, layout, back as above" in block:
        # the checker's declarations and the deck example show only the keys they are about
        # (no deck name, layout or back): every key and type is checked, missing required keys are not
        return "partial"
    return "whole"         # a complete content file: the modeline example, boards, components


def test_every_readme_yaml_block_is_accounted_for():
    assert [_how(block) for _, block in YAML_BLOCKS].count("layout") == 1
    assert len(YAML_BLOCKS) >= 5


@pytest.mark.parametrize("line, block", YAML_BLOCKS, ids=[f"README.md:{line}" for line, _ in YAML_BLOCKS])
def test_readme_yaml_examples_validate(line, block):
    how = _how(block)
    validator = {"layout": LAYOUT_VALIDATOR, "partial": PARTIAL, "whole": VALIDATOR}[how]
    assert errors(as_editor_sees(block), validator) == [], f"README.md:{line}"


# ------------------------------------------------------------------------------------- pnpgen schema

def test_pnpgen_schema_prints_it_and_writes_it_beside_a_game(tmp_path):
    printed = CliRunner().invoke(main, ["schema"])
    assert printed.exit_code == 0 and printed.output == schema_text()
    written = CliRunner().invoke(main, ["schema", "-o", str(tmp_path / "pnpgen.schema.json")])
    assert written.exit_code == 0, written.output
    assert (tmp_path / "pnpgen.schema.json").read_text(encoding="utf-8") == schema_text()
    (tmp_path / "game").mkdir()
    assert CliRunner().invoke(main, ["schema", "-o", str(tmp_path / "game")]).exit_code == 0
    assert (tmp_path / "game" / "pnpgen.schema.json").read_bytes() == EDITOR_SCHEMA_FILE.read_bytes()
    assert CliRunner().invoke(main, ["schema", "--layout", "-o", str(tmp_path / "game")]).exit_code == 0
    assert (tmp_path / "game" / LAYOUT_SCHEMA_FILE.name).read_bytes() == LAYOUT_SCHEMA_FILE.read_bytes()


# ------------------------------------------------------------------------------------- one definition

def test_a_new_section_fragment_joins_the_one_schema(tmp_path, monkeypatch):
    """A fragment dropped into schema/sections/ (e.g. a `words:` section) is in the loader's and the editor's schema."""
    shutil.copytree(EDITOR_SCHEMA_FILE.parent, tmp_path / "schema")
    (tmp_path / "schema" / "sections" / "zz-extra.json").write_text(json.dumps(
        {"properties": {"extra": {"type": "object", "description": "a test section"}}}), encoding="utf-8")
    monkeypatch.setattr(schema, "SCHEMA_DIR", tmp_path / "schema")
    monkeypatch.setattr(schema, "SCHEMA_FILE", tmp_path / "schema" / "game.schema.json")
    for cached in (schema._core_and_fragments, schema._assembled, schema._validator):
        cached.cache_clear()
    try:
        assert schema.content_schema()["properties"]["extra"]["description"] == "a test section"
        assert not list(schema.game_validator().iter_errors({"extra": {"a": 1}}))
        assert list(schema.game_validator().iter_errors({"extra": [1]}))
    finally:
        for cached in (schema._core_and_fragments, schema._assembled, schema._validator):
            cached.cache_clear()


def test_the_loader_refuses_what_the_editor_refuses_at_its_line(tmp_path):
    path = tmp_path / "components.yaml"
    path.write_text(TOKEN.replace("size: 14", "size: 14\n    dice: 5"), encoding="utf-8")
    assert errors(as_editor_sees(path.read_text(encoding="utf-8")))
    with pytest.raises(ContentError) as caught:
        read_content_file(path)
    assert caught.value.source.line == 7 and "unknown key 'dice' in components.chips" in caught.value.message
