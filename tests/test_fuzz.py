"""Fuzz: mutated game folders end in a message and exit 0, 1 or 2, never in a traceback.

Each example copies a small game folder, changes one to three values at random
places inside the data of its YAML files (a value's type, the structure around
it, a nasty string or number), writes the files back with ``yaml.safe_dump``
and runs ``pnpgen check`` and ``pnpgen build`` in-process. Whatever the change,
pnpgen must end with exit status 0, 1 or 2 and, when it refuses, say why —
never an exception escaping the command.

CI runs a small, derandomized sample (a few seconds). Hunt locally with more:

    PNPGEN_FUZZ_EXAMPLES=2000 python -m pytest -q tests/test_fuzz.py -x

(a long run draws fresh examples each time; ``PNPGEN_FUZZ_SEED=n`` repeats one).
A failure prints the mutations it made and the command's output.
"""
from __future__ import annotations

import copy
import math
import os
import shutil
import signal
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, note, seed, settings
from hypothesis import strategies as st

from generator.cli import main

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"

EXAMPLES = int(os.environ.get("PNPGEN_FUZZ_EXAMPLES", "0"))
LONG = EXAMPLES > 0
#: seconds one pnpgen command may take before the example counts as a hang
COMMAND_SECONDS = float(os.environ.get("PNPGEN_FUZZ_TIMEOUT", "20"))


@dataclass(frozen=True)
class Target:
    folder: Path
    build: bool  # also build (check only for a bundled game: its build takes seconds)


TARGETS = {
    "mini": Target(FIXTURES / "mini", build=True),                   # two decks, colours, places
    "check-routes": Target(FIXTURES / "check-routes", build=True),   # a map: routes, tables, rules.md
    "check-line": Target(FIXTURES / "check-line", build=True),       # a line game, a game's own layout
    "ttr-new-york": Target(ROOT / "content" / "ttr-new-york", build=False),  # boards, components
}


# -- values a designer (or a broken editor) might type -----------------------------------------

def _numbers():
    # huge counts, sizes and repeats must stop at a limit of generator/limits.py, never run for ever
    values = [0, -1, 1, 2, 0.5, -0.0, 1.5, 3.0, float("nan"), float("inf"), float("-inf"), 10**6,
              10**12, 2**63, 10**100, 1e300]
    return st.sampled_from(values) | st.integers(-5, 200) | st.floats(-1e4, 1e4, allow_nan=False)


_NASTY_TEXT = [
    "", " ", "x", "red", "Berlin", "#zzzzzz", "#12345", "#ffffff", "auto", "int", "list of place", "place?",
    "text", "{{ 7 * 7 }}", "{{ card.nope.deeper }}", "{% for x in range(3) %}{{ x }}{% endfor %}", "{{",
    "{% if %}", "{{ game }}", "{# #}", "../../etc/passwd", "../", "/tmp/x", "C:\\windows", "~", "a/b",
    "ニ" * 3, "ベルリン", "é", "\u200b", "\ufeff", "\u202e", "🚂", "\t", "\n", "a\nb", "\r\n", "\x07",
    "\\x00", "%s%s%n", "'", '"', "null", "true", "1e5", "-1", "0x10", "[1, 2]", "{a: 1}", "*alias", "&anchor",
    "W", "H", "n", "card", "card.color", "W / 0", "1/0", "-W", "W * 1000",
]


def _texts():
    long = st.sampled_from(["W" * 2_000, "あ" * 500, "word " * 300, "{{ 'x' * 10 }}" * 50])
    return st.sampled_from(_NASTY_TEXT) | st.text(max_size=12) | long


def _scalars():
    return st.none() | st.booleans() | _numbers() | _texts()


def _values():
    return st.recursive(_scalars(), lambda inner: st.lists(inner, max_size=3)
                        | st.dictionaries(_texts() | st.integers(-2, 5), inner, max_size=3), max_leaves=6)


# -- walking and changing the data ---------------------------------------------------------------

def _children(node):
    if isinstance(node, dict):
        return list(node.keys())
    if isinstance(node, list):
        return list(range(len(node)))
    return []


def _all_nodes(node, out=None):
    out = [] if out is None else out
    out.append(node)
    for key in _children(node):
        _all_nodes(node[key], out)
    return out


def _pick(data, draw):
    """A random (parent, key) in ``data``: descend while the dice say so, stop at a leaf."""
    parent, key = None, None
    node = data
    path = []
    while _children(node):
        keys = _children(node)
        if parent is not None and draw(st.integers(0, 3)) == 0:
            break
        parent, key = node, draw(st.sampled_from(keys))
        path.append(key)
        node = node[key]
    return parent, key, path


def _mutate(data, draw) -> str:
    """Change ``data`` in place once; return what was done, for the failure report."""
    parent, key, path = _pick(data, draw)
    if parent is None:
        return "nothing (empty document)"
    old = parent[key]
    # "tweak" and "rename" keep the type, so the change gets past the schema into the model
    kind = draw(st.sampled_from(["tweak", "tweak", "tweak", "rename", "replace", "retype", "drop", "duplicate",
                                 "nest", "empty", "graft", "add-key"]))
    where = "/".join(map(str, path))
    if kind == "tweak":
        parent[key] = _tweak(old, data, draw)
    elif kind == "rename":  # a name this file uses elsewhere (a place for a colour, a deck for a field…)
        parent[key] = draw(st.sampled_from(_names(data)))
    elif kind == "replace":
        parent[key] = draw(_values())
    elif kind == "retype":
        parent[key] = _retype(old, draw)
    elif kind == "drop":
        del parent[key]
    elif kind == "duplicate":
        if isinstance(parent, list):
            parent.insert(key, old)
        else:
            parent[f"{key}-2"] = old
    elif kind == "nest":
        parent[key] = draw(st.sampled_from([[old], {"x": old}, [[old]], {str(key): old}]))
    elif kind == "empty":
        parent[key] = draw(st.sampled_from([[], {}, "", None, 0]))
    elif kind == "graft":  # another value of the same file where this one was
        parent[key] = copy.deepcopy(draw(st.sampled_from(_all_nodes(data))))  # a copy: no cycles
    elif kind == "add-key":
        target = old if isinstance(old, dict) else parent
        if isinstance(target, dict):
            target[draw(_texts() | st.sampled_from(list(target) or ["k"]))] = draw(_values())
        else:
            parent[key] = {"x": old}
    note_value = parent.get(key, "<dropped>") if isinstance(parent, dict) else (
        parent[key] if key < len(parent) else "<dropped>")
    return f"{kind} at {where}: {_short(old)} → {_short(note_value)}"


def _names(data) -> list:
    names = set()
    for node in _all_nodes(data):
        if isinstance(node, dict):
            names.update(k for k in node if isinstance(k, str))
        elif isinstance(node, str) and len(node) < 40:
            names.add(node)
    return sorted(names) or ["x"]


def _tweak(value, data, draw):
    """Another value of the same type: a number for a number, an item more or less in a list."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return draw(_numbers())
    if isinstance(value, str):
        return draw(_texts() | st.sampled_from(_names(data)))
    if isinstance(value, list):
        value = list(value)
        if not value:
            return [draw(_scalars())]
        i = draw(st.integers(0, len(value) - 1))
        how = draw(st.sampled_from(["drop", "repeat", "reverse", "swap-in", "append"]))
        if how == "drop":
            del value[i]
        elif how == "repeat":
            value.insert(i, copy.deepcopy(value[i]))
        elif how == "reverse":
            value.reverse()
        elif how == "swap-in":
            value[i] = _tweak(value[i], data, draw)
        else:
            value.append(draw(_scalars()))
        return value
    if isinstance(value, dict):
        value = dict(value)
        if value:
            k = draw(st.sampled_from(list(value)))
            if draw(st.booleans()):
                del value[k]
            else:
                value[k] = _tweak(value[k], data, draw)
        return value
    return draw(_scalars())


def _retype(value, draw):
    """The same content in another type: string ↔ number ↔ list ↔ mapping ↔ null ↔ bool."""
    options = [None, True, False, str(value), [value], {"value": value}]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        options += [float(value), -value, int(value) if math.isfinite(value) else 0]
    if isinstance(value, str):
        try:
            options.append(float(value))
        except ValueError:
            options.append(len(value))
    if isinstance(value, (list, dict)):
        options += [len(value), list(value)[:1], str(value)]
    return draw(st.sampled_from(options))


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


# -- running pnpgen ------------------------------------------------------------------------------

#: what the current example changed (tools that hunt with this module read it after a failure)
MUTATIONS: list[str] = []


class Hang(Exception):
    pass


@contextmanager
def _deadline(seconds: float):
    """Raise Hang in the command if it runs longer than ``seconds`` (main thread, POSIX only)."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def _raise(*_):
        raise Hang(f"no answer in {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _invoke(args: list[str]):
    with _deadline(COMMAND_SECONDS):
        return CliRunner().invoke(main, args)


def _assert_clean(result, command: str) -> None:
    output = result.output
    note(f"$ pnpgen {command}\nexit {result.exit_code}\n{output[-3000:]}")
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        import traceback
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        raise AssertionError(f"pnpgen {command} raised {type(exc).__name__}: {exc}\n{tb}")
    assert result.exit_code in (0, 1, 2), f"pnpgen {command} ended with exit {result.exit_code}"
    event(f"{command.split()[0]} exit {result.exit_code}")
    assert "Traceback" not in output, f"pnpgen {command} printed a traceback"
    if result.exit_code:
        assert output.strip(), f"pnpgen {command} failed (exit {result.exit_code}) without a word"


def _settings(examples: int):
    fuzz_seed = os.environ.get("PNPGEN_FUZZ_SEED")
    return settings(max_examples=EXAMPLES or examples, deadline=None, derandomize=not LONG and not fuzz_seed,
                    database=None if not LONG else settings.default.database,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


def _maybe_seed(test):
    fuzz_seed = os.environ.get("PNPGEN_FUZZ_SEED")
    return seed(int(fuzz_seed))(test) if fuzz_seed else test


def _fuzz(name: str, data, tmp_path_factory):
    target = TARGETS[name]
    folder = tmp_path_factory.mktemp("fuzz") / target.folder.name
    shutil.copytree(target.folder, folder)
    files = sorted(p for p in folder.rglob("*.yaml"))
    documents = {p: yaml.safe_load(p.read_text(encoding="utf-8")) for p in files}
    changed = set()
    MUTATIONS.clear()
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        path = data.draw(st.sampled_from(files), label="file")
        doc = documents[path]
        if not isinstance(doc, (dict, list)):
            continue
        what = _mutate(doc, lambda strategy: data.draw(strategy))
        note(f"{path.relative_to(folder)}: {what}")
        MUTATIONS.append(f"{path.relative_to(folder)}: {what}")
        changed.add(path)
    for path in changed:
        path.write_text(yaml.safe_dump(documents[path], allow_unicode=True, sort_keys=False), encoding="utf-8")

    _assert_clean(_invoke(["check", str(folder)]), f"check {name}")
    if target.build:
        force = data.draw(st.booleans(), label="--force")
        args = ["build", str(folder), "--out", str(folder.parent / "out")] + (["--force"] if force else [])
        _assert_clean(_invoke(args), f"build {name}{' --force' if force else ''}")


@pytest.mark.parametrize("name", ["mini", "check-routes", "check-line"])
@_settings(25)
@_maybe_seed
@given(data=st.data())
def test_a_mutated_fixture_is_checked_and_built_without_a_traceback(name, data, tmp_path_factory):
    _fuzz(name, data, tmp_path_factory)


@_settings(25)
@_maybe_seed
@given(data=st.data())
def test_a_mutated_bundled_game_is_checked_without_a_traceback(data, tmp_path_factory):
    _fuzz("ttr-new-york", data, tmp_path_factory)
