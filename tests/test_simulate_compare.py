"""pnpgen simulate --compare A B: the same seeds on two versions, changes only beyond chance."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import ContentError
from generator.simulate import compare

ROOT = Path(__file__).resolve().parents[1]
NEW_YORK = ROOT / "content" / "ttr-new-york"
ROUTE = "  - [Chelsea, Soho, 4, pink]"
SHORTER = "  - [Chelsea, Soho, 1, pink]"
ARGS = ["--players", "2", "--games", "120", "--validate", "0", "--format", "json"]


def shortened(folder: Path) -> None:
    """Chelsea – Soho from 4 spaces to 1: cheap, so every bot that passes by takes it."""
    map_file = folder / "map.yaml"
    text = map_file.read_text(encoding="utf-8")
    assert ROUTE in text
    map_file.write_text(text.replace(ROUTE, SHORTER), encoding="utf-8")


def test_wilson_interval_known_values():
    low, high = compare.wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    low, high = compare.wilson(0, 10)   # stays inside 0–1 at the edge, unlike p ± z·se
    assert low == 0.0 and round(high, 4) == 0.2775
    assert compare.wilson(0, 0) == (0.0, 1.0)


def test_change_needs_intervals_apart():
    apart = compare.Change("route", "X – Y", "claimed in", "%", 54, 50.9, 57.1, 71, 68.2, 73.7, " of games")
    assert apart.changed
    assert apart.sentence() == "X – Y now claimed in 71.0 % of games (was 54.0 %; 95 % CI 68.2–73.7 % vs 50.9–57.1 %)"
    assert not compare.Change("route", "X – Y", "claimed in", "%", 54, 50, 58, 57, 53, 61).changed


def test_a_shorter_route_is_reported_and_nothing_else_moves_by_chance(tmp_path):
    changed = tmp_path / "ttr-new-york"
    shutil.copytree(NEW_YORK, changed)
    shortened(changed)
    result = CliRunner().invoke(main, ["simulate", "--compare", str(NEW_YORK), str(changed)] + ARGS)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == [120, 120]
    route = next(c for c in data["changes"] if c["name"] == "Chelsea – Soho")
    assert route["changed"] and route["b"] > route["a"] + 20 and route["b_low"] > route["a_high"]
    assert len(data["changes"]) + data["unchanged"] == len(data["figures"])
    same = CliRunner().invoke(main, ["simulate", "--compare", str(NEW_YORK), str(NEW_YORK)] + ARGS)
    figures = json.loads(same.output)
    assert figures["changes"] == []   # the same seeds on the same game: the same games, to the figure
    assert all(f["a"] == f["b"] for f in figures["figures"])


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_git_revision_against_the_working_folder(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(NEW_YORK, repo / "games" / "ttr-new-york")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "first"], check=True)
    folder = repo / "games" / "ttr-new-york"
    shortened(folder)
    text = CliRunner().invoke(main, ["simulate", "--compare", f"{folder}@HEAD", str(folder),
                                     "--players", "2", "--games", "120", "--validate", "0"])
    assert text.exit_code == 0, text.output
    assert "Chelsea – Soho now claimed in" in text.output
    bad = CliRunner().invoke(main, ["simulate", "--compare", f"{folder}@no-such-rev", str(folder), "--games", "2"])
    assert bad.exit_code == 2 and "git has no revision 'no-such-rev'" in bad.output


def test_without_git_a_revision_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(compare.shutil, "which", lambda name: None)
    with pytest.raises(ContentError, match="needs git, and git is not installed"):
        compare.version(f"{NEW_YORK}@HEAD", tmp_path)
    assert compare.version(str(NEW_YORK), tmp_path) == NEW_YORK   # a folder needs no git


def test_compare_command_line_mistakes():
    runner = CliRunner()
    both = runner.invoke(main, ["simulate", str(NEW_YORK), "--compare", str(NEW_YORK), str(NEW_YORK)])
    assert both.exit_code == 2 and "leave out GAME" in both.output
    none = runner.invoke(main, ["simulate"])
    assert none.exit_code == 2 and "name the game to play" in none.output


@pytest.mark.parametrize("rev", ["--output=/tmp/pnpgen-escaped", "--remote=ext::sh", "HEAD;rm", "a b", "-"])
def test_a_revision_that_is_an_option_or_odd_is_refused_before_git_runs(tmp_path, monkeypatch, rev):
    """``FOLDER@--output=…`` would make git archive write anywhere; a revision is never passed as an option."""
    monkeypatch.setattr(compare.subprocess, "run", lambda *a, **k: pytest.fail("git ran"))
    with pytest.raises(ContentError, match="is not a git revision"):
        compare.version(f"{NEW_YORK}@{rev}", tmp_path)
