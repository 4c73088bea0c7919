"""The bundled layouts read back from kept YAML and parse trees (issue 14, branch exprsnap:
``tools/layout_snapshots.py``), not read and parsed again at every first face; a var's text parsed once, not twice."""
from __future__ import annotations

import marshal
from types import SimpleNamespace

import pytest
from jinja2 import TemplateSyntaxError, nodes

from generator.errors import BuildError, ContentError, Source
from generator.jinja_sandbox import BoundedSandbox
from generator.layout import cardface, expressions
from generator.yamlsource import LDict, LList, load_yaml
from tests.conftest import load_tool

BUNDLED = cardface.bundled_expressions()


def _tool():
    return load_tool("layout_snapshots")


def _dump(value, env):
    """Everything of a tree: each node's class, its attributes in order (fields, line), its environment."""
    if isinstance(value, nodes.Node):
        assert value.environment is env
        return (type(value), [(key, _dump(item, env)) for key, item in vars(value).items() if key != "environment"])
    if isinstance(value, list):
        return [_dump(item, env) for item in value]
    return (type(value), value)


def _kept() -> dict:
    return expressions.kept_trees(cardface._env, cardface.TREES_FILE.read_bytes())


def test_the_snapshots_are_current():
    """What tools/layout_snapshots.py would write now is what the package holds (run it after editing a layout)."""
    assert _tool().stale() == [], "run python tools/layout_snapshots.py"


def test_every_bundled_expression_is_kept():
    assert len(BUNDLED) > 100 and "{{ card.from.name }}" in BUNDLED and "{{ W + 2*bleed }}" in BUNDLED
    assert sorted(_kept()) == BUNDLED


@pytest.mark.parametrize("text", BUNDLED)
def test_a_restored_tree_is_what_jinja_parses(text):
    """The same node classes, fields (and their kinds: 1, 1.0 and True), line numbers and environment."""
    env = cardface._env
    restored = expressions.tree_from(_kept()[text], env)
    parsed = env.parse(text)
    assert restored == parsed
    assert _dump(restored, env) == _dump(parsed, env)


def test_lines_and_kinds_of_values_are_kept():
    text = "{{ 1 }}{{ 1.0 }}\n{{ true if a == 'x' else none }}\n{{ [b, -2] | join(' ') }}"
    env = cardface._env
    restored = expressions.tree_from(expressions.tree_data(env.parse(text), env), env)
    assert _dump(restored, env) == _dump(env.parse(text), env)
    assert {(type(n.value), n.value) for n in restored.find_all(nodes.Const)} == {
        (int, 1), (float, 1.0), (bool, True), (str, "x"), (type(None), None), (str, " "), (int, 2)}
    assert [n.lineno for n in restored.find_all(nodes.Name)] == [2, 3]


def test_bundled_texts_are_not_parsed_and_a_designers_are(monkeypatch):
    parsed: list[str] = []
    real = cardface._env.parse
    monkeypatch.setattr(cardface._env, "parse", lambda source, *a: parsed.append(source) or real(source, *a))
    cardface._parse("{{ card.from.name }}")
    assert parsed == []
    cardface._parse("{{ card.from.name ~ '!' }}")
    assert parsed == ["{{ card.from.name ~ '!' }}"]


def test_a_designers_invalid_expression_is_refused_as_before():
    with pytest.raises(TemplateSyntaxError) as raised:
        cardface._parse("{{ card.from. }}")
    with pytest.raises(TemplateSyntaxError) as direct:
        cardface._env.parse("{{ card.from. }}")
    assert str(raised.value) == str(direct.value)


def test_trees_of_other_settings_or_another_format_are_not_read():
    kept = cardface.TREES_FILE.read_bytes()
    assert expressions.kept_trees(cardface._env, kept)
    other = BoundedSandbox(variable_start_string="[[", variable_end_string="]]")
    assert expressions.kept_trees(other, kept) == {}
    saved = marshal.loads(kept)
    for changed in ({**saved, "format": 0}, {**saved, "settings": ("2.0", *saved["settings"][1:])}, [saved]):
        assert expressions.kept_trees(cardface._env, marshal.dumps(changed)) == {}
    assert expressions.kept_trees(cardface._env, b"\x00not marshal") == {}


@pytest.mark.parametrize("data", [
    ("Environment", 1), ("Expr", 1), ("Name", 1, "x"), ("Name", "1", "x", "load"), ("Name", 1, "x", {"a": 1}),
    ("Output", 1, [("system", 1)]),
], ids=["not a node", "abstract", "missing field", "line not a number", "a dict", "a name not a node"])
def test_only_jinjas_nodes_of_plain_values_are_made(data):
    with pytest.raises((LookupError, ValueError)):
        expressions.tree_from(data, cardface._env)


def test_a_malformed_kept_tree_is_parsed_instead(monkeypatch):
    monkeypatch.setattr(cardface, "_KEPT", [{"{{ W }}": ("Template", 1, [("Nope", 1)])}])
    assert _dump(cardface._parse("{{ W }}"), cardface._env) == _dump(cardface._env.parse("{{ W }}"), cardface._env)


def test_a_var_is_parsed_once(monkeypatch):
    """``vars:`` are parsed to learn what they read (``_names``); drawing compiles them from that tree."""
    text = "{{ W / 63 + 0.0417 }}"
    parsed: list[str] = []
    real = cardface._env.parse
    monkeypatch.setattr(cardface._env, "parse", lambda source, *a: parsed.append(source) or real(source, *a))
    monkeypatch.setattr(cardface, "_COMPILED", {})
    assert cardface._names(text) == {"W"}
    renderer = SimpleNamespace(_compiled=cardface._COMPILED)
    compiled = cardface.FaceRenderer._compile(renderer, text, Source(None, 1))  # type: ignore[arg-type]
    assert compiled.reads == {"W"} and compiled.run({"W": 63.0}) == pytest.approx(1.0417)
    assert cardface._names(text) == {"W"}
    assert parsed == [text] and text not in cardface._PARSED


def test_an_invalid_expression_still_names_its_line():
    renderer = SimpleNamespace(_compiled={})
    with pytest.raises(BuildError, match=r"layout expression '\{\{ W / \}\}' is not valid Jinja: unexpected 'end of print "
                                        r"statement'"):
        cardface.FaceRenderer._compile(renderer, "{{ W / }}", Source(None, 1))  # type: ignore[arg-type]


# ------------------------------------------------------------------ the layout files
LAYOUT_FILES = sorted(cardface.TEMPLATE_DIR.glob("*.yaml"))


def _yaml_dump(value):
    """Everything of what ``load_yaml`` read: kinds, values, each mapping's and sequence's file and lines."""
    if isinstance(value, LDict):
        return (LDict, value.file, value.line, list(value.key_lines.items()), [(k, _yaml_dump(v)) for k, v in value.items()])
    if isinstance(value, LList):
        return (LList, value.file, value.line, value.item_lines, [_yaml_dump(v) for v in value])
    return (type(value), value)


@pytest.mark.parametrize("path", LAYOUT_FILES, ids=lambda p: p.name)
def test_a_restored_layout_file_is_what_load_yaml_reads(path):
    kept = cardface._kept_files()[path.read_text(encoding="utf-8")]
    assert _yaml_dump(cardface.file_from(kept, path)) == _yaml_dump(load_yaml(path))
    assert _yaml_dump(cardface._load_layout_file(path)) == _yaml_dump(load_yaml(path))


def test_bundled_layout_files_are_not_read_as_yaml_and_a_designers_are(tmp_path, monkeypatch):
    read: list = []
    monkeypatch.setattr(cardface, "load_yaml", lambda path: read.append(path) or load_yaml(path))
    bundled = cardface.TEMPLATE_DIR / "ttr-ticket.yaml"
    cardface._load_layout_file(bundled)
    assert read == []
    copy = tmp_path / "ttr-ticket.yaml"   # the same text elsewhere: the same data, knowing its own file
    copy.write_bytes(bundled.read_bytes())
    assert _yaml_dump(cardface._load_layout_file(copy)) == _yaml_dump(load_yaml(copy)) and read == []
    own = tmp_path / "mine.yaml"
    own.write_text(bundled.read_text(encoding="utf-8") + "\n# mine\n", encoding="utf-8")
    assert _yaml_dump(cardface._load_layout_file(own)) == _yaml_dump(load_yaml(own)) and read == [own]


def test_a_malformed_layout_file_is_refused_as_before(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("elements:\n  - rect: {x: 0\n", encoding="utf-8")
    with pytest.raises(ContentError) as kept:
        cardface._load_layout_file(bad)
    with pytest.raises(ContentError) as direct:
        load_yaml(bad)
    assert str(kept.value) == str(direct.value)


def test_layout_files_of_another_yaml_are_not_read(monkeypatch):
    saved = marshal.loads(cardface.FILES_FILE.read_bytes())
    assert saved["settings"] == cardface._file_settings() and len(saved["files"]) == len(LAYOUT_FILES)
    monkeypatch.setattr(cardface.yaml, "__version__", "0.1")
    monkeypatch.setattr(cardface, "_KEPT_FILES", [])
    assert cardface._kept_files() == {}


@pytest.mark.parametrize("data", [
    ("map", 1, (("a", 1, ("exec", 1, ())),)), ("map", "1", ()), ("map", 1, ((None, 1, 0),)), ("seq", 1, (("2", 0),)),
    ("map", 1, (("a", 1, b"bytes"),)), ("map", 1),
], ids=["unknown tag", "line not a number", "key None", "item line not a number", "bytes", "short"])
def test_only_mappings_sequences_and_plain_values_are_made(data):
    with pytest.raises((LookupError, ValueError, TypeError)):
        cardface.file_from(data, cardface.TEMPLATE_DIR / "x.yaml")


def test_what_an_alias_reads_twice_is_not_kept(tmp_path):
    shared = tmp_path / "shared.yaml"
    shared.write_text("a: &x [1, 2]\nb: *x\n", encoding="utf-8")
    with pytest.raises(ValueError):
        cardface.file_data(load_yaml(shared))
    assert cardface.files_snapshot([shared])["files"] == {}
