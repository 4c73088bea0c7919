"""One error root, one diagnostic type: exit status per error class, the checker's findings and
unreadable content as diagnostics, and pnpgen fit (generator.fit) reading ``subject`` rather than prose."""
from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

import generator.cli.build
import generator.cli.building
from generator.check import ChecksFailed, Finding
from generator.check.board import board_diagnostics
from generator.errors import (
    BuildError,
    ContentError,
    ContentErrors,
    Diagnostic,
    Interrupted,
    OutputError,
    PnpgenError,
    Source,
    Terminated,
    unreadable,
)
from generator.fit import concerned
from generator.layout.board_geometry import plan_board
from generator.load.game import load_game
from generator.yamlsource import read_text
from tests.test_board_errors import BOARD


def _finding(code="PNP101", severity="error"):
    return Finding(code, severity, Source(Path("game.yaml"), 3), "wrong", "fix it", "g")


# ---------------------------------------------------------------------- the classes

def test_build_and_content_errors_are_siblings_under_one_root():
    assert not isinstance(BuildError(None, "x"), ContentError)
    assert not isinstance(ContentError(None, "x"), BuildError)
    for error in (ContentError(None, "x"), BuildError(None, "x"), OutputError(None, "x"), Interrupted("x"),
                  ChecksFailed(SimpleNamespace(id="g"), [_finding()])):
        assert isinstance(error, PnpgenError)


def test_each_class_has_its_exit_code():
    assert ContentError(None, "x").exit_code == 2
    assert ContentErrors([ContentError(None, "x")]).exit_code == 2
    assert BuildError(None, "x").exit_code == 1
    assert OutputError(None, "x").exit_code == 1
    assert ChecksFailed(SimpleNamespace(id="g"), [_finding()]).exit_code == 1
    assert Interrupted("x").exit_code == 130
    assert Terminated("x").exit_code == 143


def test_the_content_error_signature_and_its_diagnostic():
    error = ContentError(Source(Path("decks.yaml"), 7), "unknown colour 'grey'", "did you mean 'gray'?")
    assert (error.source.line, error.message, error.hint) == (7, "unknown colour 'grey'", "did you mean 'gray'?")
    [diagnostic] = error.diagnostics
    assert diagnostic == Diagnostic("LOAD", "error", error.source, error.message, error.hint)
    assert (diagnostic.file, diagnostic.line) == ("decks.yaml", 7)
    assert BuildError(None, "x").diagnostics[0].code == "BUILD"
    several = ContentErrors([ContentError(None, "a"), ContentError(None, "b", "h")])
    assert [(d.message, d.hint) for d in several.diagnostics] == [("a", None), ("b", "h")]


def test_checks_failed_carries_the_error_findings():
    error, warning, waived = _finding(), _finding("PNP102", "warning"), _finding("PNP103")
    waived = Finding(**{**waived.__dict__, "waived": "known"})
    failed = ChecksFailed(SimpleNamespace(id="g"), [error, warning, waived])
    assert failed.diagnostics == [error]
    assert isinstance(error, Diagnostic)


# ---------------------------------------------------------------------- the CLI picks error.exit_code

@pytest.mark.parametrize("error,status", [
    (ContentError(None, "cannot read"), 2),
    (BuildError(None, "cannot build"), 1),
    (OutputError(None, "folder not free"), 1),
    (ChecksFailed(SimpleNamespace(id="g"), [_finding()]), 1),
    (KeyboardInterrupt(), 130),
])
def test_build_exits_with_the_error_class_exit_code(error, status, mini, run, monkeypatch, tmp_path):
    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr(generator.cli.building, "load_game", fail)
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output


def test_an_interrupt_prints_one_line(mini, run, monkeypatch, tmp_path):
    def stop(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(generator.cli.building, "load_game", stop)
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.stderr.splitlines() == [f"interrupted: mini was not built; previous output left as it was in "
                                          f"{tmp_path / 'out' / 'mini'}/"]


# ---------------------------------------------------------------------- unreadable content as diagnostics

def test_json_of_an_unreadable_game_is_its_diagnostics(mini, run):
    (mini / "decks.yaml").write_text("decks: [\n", encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_game(mini)
    result = run("check", mini, "--format", "json")
    assert result.exit_code == 2
    rows = json.loads(result.stdout)
    assert rows == [Finding.of(d).to_json() for d in caught.value.diagnostics]
    [row] = rows
    assert row["code"] == "LOAD" and row["severity"] == "error" and row["file"].endswith("decks.yaml")
    assert row["line"] == 2 and row["message"].startswith("malformed YAML") and row["hint"]
    assert set(row) == {"game", "code", "severity", "file", "line", "column", "message", "hint", "waived"}


def test_every_failed_read_is_a_content_error_at_the_file(tmp_path, monkeypatch):
    path = tmp_path / "decks.yaml"
    path.write_bytes(b"decks:\n  x: caf\xe9\n")
    with pytest.raises(ContentError) as caught:
        read_text(path)
    assert (caught.value.source.line, caught.value.exit_code) == (2, 2) and "not UTF-8" in caught.value.message

    def denied(self):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", denied)
    with pytest.raises(ContentError) as caught:  # before: an OSError the CLI called "cannot write the output"
        read_text(path, "rules file")
    assert caught.value.source.file == path
    assert caught.value.message == "cannot read the rules file: Permission denied"
    assert unreadable(path, FileNotFoundError(2, "No such file")).message == "file not found"


# ---------------------------------------------------------------------- pnpgen fit reads subject

@pytest.fixture
def crossing_board(mini):
    """The mini game with a small board on which Dessau – Erfurt crosses Aa – Bonn."""
    text = (mini / "game.yaml").read_text(encoding="utf-8")
    (mini / "game.yaml").write_text(text.replace("include: [decks.yaml]", "include: [decks.yaml, board.yaml]"),
                                    encoding="utf-8")
    board = BOARD.replace("      Dessau: {name: デッサウ, latin: Dessau, at: [150, 40]}\n",
                          "      Dessau: {name: デッサウ, latin: Dessau, at: [150, 40]}\n"
                          "      Erfurt: {name: エアフルト, latin: Erfurt, at: [100, 160]}\n")
    board = board.replace("      - [Aa, Dessau, 2, blue, {curve: 10}]\n",
                          "      - [Aa, Dessau, 2, blue, {curve: 10}]\n      - [Dessau, Erfurt, 2, red]\n")
    (mini / "board.yaml").write_text(board, encoding="utf-8")
    return next(b for b in load_game(mini).boards.values() if b.kind == "map")


def test_board_diagnostics_name_their_routes_in_subject(crossing_board):
    crossing = [d for d in board_diagnostics(plan_board(crossing_board)) if d.code == "PNP502"]
    assert [d.subject for d in crossing] == [(("Aa", "Bonn", 0), ("Dessau", "Erfurt", 0))]
    assert crossing[0].severity == "error"


def test_fit_takes_routes_and_places_from_subject_not_the_message(crossing_board):
    misleading = Diagnostic("PNP502", "error", Source(None), "route Bonn – Celle overlaps route Aa – Dessau", "",
                            subject=(("Dessau", "Erfurt", 0), "Celle", ("Nowhere", "Aa", 0)))
    routes, places = concerned(misleading, crossing_board)
    assert [r.name for r in routes] == ["Dessau – Erfurt"]
    assert [p.id for p in places] == ["Celle"]
    assert concerned(Diagnostic("PNP502", "error", Source(None), "route Aa – Bonn is short", ""),
                               crossing_board) == ([], [])
