"""Shared fixtures: a copy of the tiny test game, and a CLI runner."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main

# the build cache (generator.cache) is off in tests, in this process and the pnpgen processes tests start:
# each test sees a build as it is; tests/test_cache.py turns it on in a folder of its own
os.environ["PNPGEN_CACHE_DIR"] = "off"

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def mini(tmp_path) -> Path:
    """A writable copy of tests/fixtures/mini, to break in each test."""
    target = tmp_path / "mini"
    shutil.copytree(FIXTURES / "mini", target)
    return target


@pytest.fixture
def run(monkeypatch):
    """Run ``pnpgen ARGS`` in-process from the project root; returns the click Result."""
    monkeypatch.chdir(ROOT)
    runner = CliRunner()

    def _run(*args):
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)

    return _run


def copy_fixture(tmp_path: Path, fixture: str, file: str, old: str, new: str) -> Path:
    """A copy of tests/fixtures/<fixture> with the first ``old`` in ``file`` replaced by ``new``."""
    folder = tmp_path / fixture
    shutil.copytree(FIXTURES / fixture, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{fixture}/{file} no longer contains {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


@pytest.fixture(scope="session")
def built_game(tmp_path_factory):
    """``built_game("ttr-germany")`` → the game's output folder, built once per test session (a plain
    ``pnpgen build content/<game> --all``: every output, A4, no add-on). Tests only read it; a test that needs another
    build (``--paper letter``, ``--with``, a broken copy) builds its own."""
    from tests.golden_lib import build
    root = tmp_path_factory.mktemp("built")
    done: dict[str, Path] = {}

    def _built(game: str) -> Path:
        if game not in done:
            done[game], _built.output[game] = build(game, root)
        return done[game]

    _built.output = {}   # game → what its build printed (stdout and stderr)
    return _built


def load_tool(name: str):
    """A script of tools/ (not a package) loaded as a module, so a test can call what it writes or checks."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parents[1] / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def drawn_element_kinds(monkeypatch) -> list[str]:
    """The kind of every layout element FaceRenderer draws from now on, in order (to count what is drawn again)."""
    from generator.layout.cardface import FaceRenderer

    drawn: list[str] = []
    real = FaceRenderer._element

    def counting(self, layout, kind, a, scope, where, what, card_src):
        drawn.append(kind)
        return real(self, layout, kind, a, scope, where, what, card_src)
    monkeypatch.setattr(FaceRenderer, "_element", counting)
    return drawn
