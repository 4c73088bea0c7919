"""``load_yaml`` reads a content file in one pass of libyaml's events (``yamlsource._one_pass``): the same data,
keys, order and lines as the two passes (``check_shape``, then ``yaml.load``), and anything unusual left to them."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from generator import yamlsource
from generator.errors import ContentError
from generator.yamlsource import LDict, LList, load_yaml

ROOT = Path(__file__).resolve().parents[1]


def _two_passes(path: Path):
    text = path.read_text(encoding="utf-8")
    yamlsource.check_shape(text, path)
    return yaml.load(text, Loader=yamlsource.loader_for(path))  # noqa: S506 - pnpgen's safe loader


def _same(one, other) -> None:
    assert type(one) is type(other)
    if isinstance(other, LDict):
        assert list(one) == list(other)
        assert (one.file, one.line, one.key_lines) == (other.file, other.line, other.key_lines)
        for key in other:
            _same(one[key], other[key])
    elif isinstance(other, LList):
        assert (one.file, one.line, one.item_lines) == (other.file, other.line, other.item_lines)
        assert len(one) == len(other)
        for a, b in zip(one, other):
            _same(a, b)
    else:
        assert one == other


@pytest.mark.parametrize("game", sorted(p.name for p in (ROOT / "content").iterdir() if p.is_dir()))
def test_the_bundled_games_are_read_in_one_pass_as_in_two(game):
    files = sorted((ROOT / "content" / game).rglob("*.yaml"))
    assert files
    for path in files:
        one = yamlsource._one_pass(path.read_text(encoding="utf-8"), path)
        assert one is not yamlsource._TWO_PASSES, f"{path} was not read in one pass"
        _same(one, _two_passes(path))


SAME_DATA = {
    "scalars": "a: 1\nb: 1.5\nc: true\nd: ~\ne: 'q'\nf: \"x\\ty\"\ng: 0x1F\nh: .inf\ni: yes\n1: int key\n",
    "nested": "- [a, [b, {c: d}]]\n- {x: {y: [1, 2]}}\n- a:\n  - b\n  - c: d\n    e: f\n",
    "empty values": "a:\nb:\n- \n-\n",
    "block text": "a: |\n  x\n  y\nb: >\n  z\n",
    "a scalar": "just text\n",
    "nothing": "# a comment only\n",
}


@pytest.mark.parametrize("name", sorted(SAME_DATA))
def test_plain_yaml_is_read_in_one_pass(name, tmp_path):
    path = tmp_path / "f.yaml"
    path.write_text(SAME_DATA[name], encoding="utf-8")
    assert yamlsource._one_pass(SAME_DATA[name], path) is not yamlsource._TWO_PASSES
    data = load_yaml(path)
    expected = _two_passes(path)
    if expected is None:   # an empty file: load_yaml's empty mapping
        assert isinstance(data, LDict) and not data and data.line == 1
    else:
        _same(data, expected)


TWO_PASSES = {
    "an anchor and an alias": ("a: &x [1]\nb: *x\n", None),
    "a tag": ("a: !!str 1\n", None),
    "a date": ("d: 2024-01-01\n", None),
    "a complex key": ("? [a, b]\n: c\n", "a key must be a plain name"),
    "a null key": ("~: 1\n", "a key must be a plain name"),
    "a duplicate key": ("a: 1\nb: 2\na: 3\n", "duplicate key 'a' (first at line 1)"),
    "two documents": ("a: 1\n---\nb: 2\n", "malformed YAML: but found another document"),
    "too deep": ("x: " + "[" * 70 + "]" * 70 + "\n", "nested more than 64 levels"),
    "a number too large": ("x: 99999999999999999999999\n", "larger than"),
    "a merge key": ("<<: {a: 1}\n", "a YAML merge key"),
    "malformed": ("a: [1, 2\n", "malformed YAML"),
}


@pytest.mark.parametrize("name", sorted(TWO_PASSES))
def test_anything_unusual_is_left_to_the_two_passes(name, tmp_path):
    text, error = TWO_PASSES[name]
    path = tmp_path / "f.yaml"
    path.write_text(text, encoding="utf-8")
    assert yamlsource._one_pass(text, path) is yamlsource._TWO_PASSES
    if error is None:
        _same(load_yaml(path), _two_passes(path))
    else:
        with pytest.raises(ContentError, match=re.escape(error)):
            load_yaml(path)
