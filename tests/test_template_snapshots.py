"""templates/'s catalogues and palette read back from snapshots (``generator.load.templates``): the same data as
parsing them, kept current, and an edited file parsed again."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator import TEMPLATES_DIR
from generator.errors import ContentError
from generator.load import template_snapshots, templates
from generator.yamlsource import LDict, LList, load_yaml
from tools import template_snapshots as tool

ROOT = Path(__file__).resolve().parents[1]


def _same(restored, parsed, path: Path) -> None:
    """Equal values, types, order, lines and files, all the way down."""
    assert type(restored) is type(parsed)
    if isinstance(parsed, LDict):
        assert list(restored) == list(parsed)
        assert (restored.file, restored.line, restored.key_lines) == (path, parsed.line, parsed.key_lines)
        for key in parsed:
            _same(restored[key], parsed[key], path)
    elif isinstance(parsed, LList):
        assert len(restored) == len(parsed)
        assert (restored.file, restored.line, restored.item_lines) == (path, parsed.line, parsed.item_lines)
        for one, other in zip(restored, parsed):
            _same(one, other, path)
    else:
        assert restored == parsed


def test_the_snapshots_are_current():
    assert (ROOT / "generator" / "load" / "template_snapshots.py").read_text(encoding="utf-8") == tool.code(), (
        f"generator/load/template_snapshots.py is out of date with templates/: run `{tool.REGENERATE}`")


def test_the_catalogues_and_the_palette_are_snapshotted():
    assert {"palette.yaml", "catalogues/ja.yaml", "catalogues/en.yaml", "catalogues/de.yaml"} <= set(
        template_snapshots.SNAPSHOTS)


@pytest.mark.parametrize("name", sorted(template_snapshots.SNAPSHOTS))
def test_a_snapshot_is_what_parsing_gives(name, monkeypatch):
    path = TEMPLATES_DIR / name
    parsed = load_yaml(path)
    monkeypatch.setattr(templates, "load_yaml", lambda p: pytest.fail(f"{p} parsed, not read from its snapshot"))
    _same(templates.load_template(path), parsed, path)


def test_an_edited_template_is_parsed(monkeypatch):
    path = TEMPLATES_DIR / "catalogues" / "ja.yaml"
    digest, node = template_snapshots.SNAPSHOTS["catalogues/ja.yaml"]
    stale = ("m", node[1], (("stale.key", 3, "not in the file"), *node[2]))
    monkeypatch.setitem(template_snapshots.SNAPSHOTS, "catalogues/ja.yaml", ("0" * 64, stale))
    restored = templates.load_template(path)
    assert "stale.key" not in restored
    _same(restored, load_yaml(path), path)


def test_a_file_elsewhere_is_parsed_with_its_errors(tmp_path):
    copy = tmp_path / "ja.yaml"
    shutil.copy(TEMPLATES_DIR / "catalogues" / "ja.yaml", copy)
    _same(templates.load_template(copy), load_yaml(copy), copy)
    copy.write_text("a: 1\na: 2\n", encoding="utf-8")
    with pytest.raises(ContentError, match="duplicate key 'a'"):
        templates.load_template(copy)
