"""Component kinds have a declared interface: a new kind is one module, and no other module names a kind.

- a kind written here (``StampKind``, as a kind module would be) and registered with ``register``
  is loaded, checked, built, listed and pictured without a line changed anywhere else;
- ``register`` refuses a kind that leaves out part of the interface;
- no module outside the kind modules writes a kind's name (or its unit) as a string: a comparison
  ``part.kind == "die"``, a ``kind in ("tile", "token")`` or a lookup table keyed by kind names.
"""
from __future__ import annotations

import ast
import csv
import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.check import CATALOGUE, run_checks
from generator.fonts import Typeset
from generator.layout.cardface import FaceRenderer
from generator.layout.components import KINDS
from generator.layout.components.kind import Output, register
from generator.layout.components.sheet import SHEET
from generator.layout.primitives import Document, Form, Page, Rect, Text, distinct_forms
from generator.layout.sheets import simplex_sheets
from generator.load.game import load_game
from generator.load.rules import RulesError, load_rules
from generator.model.components import Component
from generator.model.game import Card, CardGeometry, Game
from generator.model.words import Words
from generator.writers.context import Printable
from generator.writers.printandplay import place_parts

PACKAGE = Path(__file__).resolve().parents[1] / "generator"
KIND_MODULES = {PACKAGE / "layout" / "components" / name for name in ("pieces.py", "die.py", "sheet.py", "kind.py")}


# ---------------------------------------------------------------------- a kind of one module

@dataclass(frozen=True)
class StampOptions:
    ink: str


class StampKind:
    """A rubber-stamp token: a square with its word on it (all the interface, nothing more)."""

    name = "stamp"
    unit = "stamps"
    label_key = "kind.stamp"
    papers_checked = ("a4",)
    pictured = True
    outlined_in_legend = True
    print_order = 0          # before tokens
    one_sided = False
    checks: frozenset[str] = frozenset()
    rules_helpers: frozenset[str] = frozenset()
    schema = {"properties": {"words": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                             "ink": {"type": "string"}},
              "required": ["words"]}

    def read(self, component: Component, spec, resolver, game: Game) -> None:
        component.options = StampOptions(ink=spec.get("ink", "#000000"))
        component.geometry = CardGeometry(15.0, 15.0, 1.0, 1.0)
        component.faces = [Card(component, i, {"text": word}, 1, spec["words"].src(i))
                           for i, word in enumerate(spec["words"])]

    def faces(self, game, component, renderer) -> list[Form]:
        return distinct_forms(self._forms(component))

    def legend(self, game, component, renderer):
        return [(form, face.text) for form, face in zip(self._forms(component), component.faces)]

    def outputs(self, game, component, renderer, paper):
        doc = Document(component.label)
        forms = [doc.add_form(form) for form in self._forms(component)]
        doc.pages = simplex_sheets(forms, component.geometry, paper, component.id, component.source)
        return [Output(f"{component.id}.pdf", doc, component.label)]

    def _forms(self, component) -> list[Form]:
        return [Form(f"stamp-{face.text}", (Rect(0, 0, 15, 15, stroke=component.options.ink),
                                            Text(7.5, 9, face.text, 8, component.options.ink, "middle")),
                     (-1, -1, 17, 17)) for face in component.faces]


STAMPS = """\
components:
  marks:
    kind: stamp
    name: スタンプ
    latin: Stamps
    expected: 3
    words: [A, B, C]
    ink: "#224488"
  aid:
    kind: sheet
    name: 早見表
    expected: 1
    blocks:
      - legend: {component: marks}
words:
  kind.stamp: ハンコ      # a new kind's name, in the game's language (else PNP901)
"""

RULES = """\
# ルール

{{ components_table() }}

{{ picture("marks") }}
"""


@pytest.fixture
def stamp_kind():
    kind = register(StampKind())
    yield kind
    del KINDS[kind.name]


@pytest.fixture
def stamp_game(mini, stamp_kind):
    text = (mini / "game.yaml").read_text(encoding="utf-8")
    (mini / "game.yaml").write_text(text.replace("include: [decks.yaml]", "include: [decks.yaml, stamps.yaml]"),
                                    encoding="utf-8")
    (mini / "stamps.yaml").write_text(STAMPS, encoding="utf-8")
    (mini / "rules.md").write_text(RULES, encoding="utf-8")
    return mini


def test_a_kind_registered_from_one_module_is_loaded_with_typed_options(stamp_game):
    game = load_game(stamp_game)
    marks = game.parts["marks"]
    assert marks.options == StampOptions(ink="#224488") and marks.ink == "#224488"   # read through, as layouts do
    assert marks.unit == "stamps" and marks.count == 3
    assert [face.ref for face in marks.faces] == ["marks face 1", "marks face 2", "marks face 3"]
    assert all(face.deck is marks for face in marks.faces)
    row = next(c for c in game.components() if c.id == "marks")
    assert (row.kind, row.count, row.unit, row.expected) == ("stamp", 3, "stamps", 3)


def test_a_new_kind_is_checked_with_its_unit(stamp_game):
    assert [f for f in run_checks(load_game(stamp_game)) if f.severity == "error"] == []
    (stamp_game / "stamps.yaml").write_text(STAMPS.replace("expected: 3", "expected: 4"), encoding="utf-8")
    found = [f for f in run_checks(load_game(stamp_game)) if f.code == "PNP101"]
    assert len(found) == 1 and "stamp 'marks' has 3 stamps but declares expected: 4" in found[0].message


def test_a_new_kind_without_a_name_in_the_games_language_is_pnp901(stamp_game):
    (stamp_game / "stamps.yaml").write_text(STAMPS.split("\nwords:")[0] + "\n", encoding="utf-8")
    found = [f for f in run_checks(load_game(stamp_game)) if f.code == "PNP901"]
    assert [f.message for f in found] == ["the catalogue for ja has no 'kind.stamp'"]


def test_a_new_kind_is_built_listed_and_pictured(stamp_game, run, tmp_path):
    result = run("build", "--all", stamp_game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    out = tmp_path / "out" / "mini"
    assert (out / "marks.pdf").is_file()
    assert sorted(p.name for p in (out / "svg" / "marks").iterdir()) == ["001.svg", "002.svg", "003.svg"]
    rules = (out / "mini-rules.html").read_text(encoding="utf-8")
    assert "ハンコ" in rules and "rules-img/marks" in rules    # label_key (the game's words:) in the table; the picture
    rows = list(csv.DictReader((out / "components.csv").open(encoding="utf-8")))
    kinds = [r["kind"] for r in rows if r["pages"]]
    assert kinds.index("stamp") < kinds.index("sheet")   # print_order 0: before the sheet (4)
    listed = run("list", stamp_game, "--format", "json")
    assert {"name": "スタンプ / Stamps", "id": "marks", "kind": "stamp", "count": 3} in \
        json.loads(listed.output)[0]["components"]


def test_a_sheet_legend_shows_a_new_pictured_kind_outlined(stamp_game):
    game = load_game(stamp_game)
    items = SHEET.draw(game, game.parts["aid"], 210, 297, FaceRenderer(game))
    outlines = [i for i in items if isinstance(i, Rect) and i.stroke == "#bbbbbb"]
    assert len(outlines) == 3
    KINDS["stamp"].outlined_in_legend = False   # the fixture's own instance: the declaration decides
    items = SHEET.draw(game, game.parts["aid"], 210, 297, FaceRenderer(game))
    assert not [i for i in items if isinstance(i, Rect) and i.stroke == "#bbbbbb"]


def test_a_one_sided_kind_gets_blank_backs_in_the_print_and_play_file(stamp_kind):
    doc = Document("d", [Page(210, 297, [Rect(0, 0, 1, 1, "#000000")]) for _ in range(2)])
    parts = [Printable("スタンプ", doc, "stamp", Path("marks.pdf"), "marks")]
    assert place_parts(parts, 0, Words(), Typeset())[0] == [(1, 2)]
    stamp_kind.one_sided = True
    spans, pages = place_parts(parts, 0, Words(), Typeset())
    assert spans == [(1, 3)] and len(pages) == 4 and not pages[1].items[0].text.isascii()   # blank notes behind


def test_a_rules_helper_reads_only_the_kinds_that_declare_it(stamp_game):
    (stamp_game / "rules.md").write_text('{{ dice_faces("marks") }}\n', encoding="utf-8")
    with pytest.raises(RulesError, match="component 'marks' is a stamp, not a die"):
        load_rules(load_game(stamp_game))
    stamp_kind = KINDS["stamp"]
    stamp_kind.rules_helpers = frozenset({"stacks"})
    (stamp_game / "rules.md").write_text('{{ tile_table("marks") }}\n', encoding="utf-8")
    assert "| A |" in load_rules(load_game(stamp_game))[0].markdown


def test_register_refuses_a_kind_that_leaves_out_part_of_the_interface():
    class Half:
        name = "half"
        schema = {"properties": {}}

        def read(self, *args):
            pass

    with pytest.raises(TypeError, match="'half' does not declare unit, label_key"):
        register(Half())
    assert "half" not in KINDS


def test_every_kind_declares_checks_that_exist():
    for kind in KINDS.values():
        assert kind.checks <= set(CATALOGUE), kind.name
        assert set(kind.papers_checked) <= {"a4", "letter"}, kind.name
    assert len({kind.print_order for kind in KINDS.values()}) == len(KINDS)


# ---------------------------------------------------------------------- no kind names elsewhere

def kind_names_written(source: str, names: set[str]) -> list[tuple[int, str]]:
    """(line, string) for every string constant in ``source`` that is one of ``names``."""
    return [(node.lineno, node.value) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names]


def test_the_scan_finds_a_kind_name_written_as_a_string():
    names = {"die", "dice"}
    assert kind_names_written('if part.kind == "die":\n    pass\n', names) == [(1, "die")]
    assert kind_names_written('ok = kind in ("tile", "die")\n', names) == [(1, "die")]
    assert kind_names_written('LABELS = {"dice": "ダイス"}\n', names) == [(1, "dice")]
    assert kind_names_written('if KINDS[part.kind].pictured:\n    pass\n', names) == []


#: the content schema as code (tools/fast_schema.py): it spells out each kind's keys, as the schema does
GENERATED_SCHEMA = PACKAGE / "load" / "schema_fast.py"
#: templates/'s catalogues as data (tools/template_snapshots.py): their words are the catalogues' (a kind's label)
GENERATED_TEMPLATES = PACKAGE / "load" / "template_snapshots.py"


def test_no_module_outside_the_kind_modules_names_a_kind():
    names = set(KINDS) | {kind.unit for kind in KINDS.values()}
    assert {"token", "tile", "die", "sheet", "dice"} <= names
    found = [f"{path.relative_to(PACKAGE.parent)}:{line}: {value!r}"
             for path in sorted(PACKAGE.rglob("*.py")) if path not in KIND_MODULES and path not in (GENERATED_SCHEMA, GENERATED_TEMPLATES)
             for line, value in kind_names_written(path.read_text(encoding="utf-8"), names)]
    assert found == [], "ask KINDS[component.kind] for a declared property instead:\n" + "\n".join(found)


def test_kind_modules_do_not_name_other_kinds():
    """A kind module names itself only (when it registers): a sheet's legend asks ``pictured``, not the names."""
    for path in KIND_MODULES - {PACKAGE / "layout" / "components" / "kind.py"}:
        source = path.read_text(encoding="utf-8")
        own = {kind.name for kind in KINDS.values() if kind.__module__ == f"generator.layout.components.{path.stem}"}
        others = (set(KINDS) | {kind.unit for kind in KINDS.values()}) - own - {
            kind.unit for kind in KINDS.values() if kind.name in own}
        assert kind_names_written(source, others) == [], path.name


def test_options_are_typed_and_read_as_attributes():
    game = load_game(Path(__file__).resolve().parents[1] / "content" / "ttr-germany")
    for part in game.parts.values():
        assert dataclasses.is_dataclass(part.options), part.id
        with pytest.raises(dataclasses.FrozenInstanceError):
            part.options.layout = "other"   # type: ignore[misc]
    unsubscripted = [f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
                     for path in sorted(PACKAGE.rglob("*.py"))
                     for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                     if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute)
                     and node.value.attr == "options"]
    assert unsubscripted == [], "read options as attributes (component.options.shape):\n" + "\n".join(unsubscripted)
