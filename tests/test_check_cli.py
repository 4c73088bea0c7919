"""`pnpgen check`: exit codes, text and JSON output, the catalogue; `pnpgen build` refusing and --force."""
from __future__ import annotations

import json

import pytest

from generator.check import CATALOGUE, catalogue, check
from generator.check.registry import Issue


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture no longer contains {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _break_count(mini):
    _edit(mini / "decks.yaml", "    expected: 11\n", "    expected: 12\n")


def test_clean_game_exits_0_with_a_summary(mini, run):
    result = run("check", mini)
    assert result.exit_code == 0, result.output
    assert "1 game checked: 0 errors, 0 warnings" in result.stdout


def test_errors_exit_1_with_file_line_code_and_hint(mini, run):
    _break_count(mini)
    result = run("check", mini)
    assert result.exit_code == 1
    assert "decks.yaml:17: error PNP101 deck 'tickets' has 11 cards but declares expected: 12" in result.stdout
    assert "hint: fix the counts" in result.stdout
    assert "1 error, 0 warnings" in result.stdout


def test_unreadable_content_exits_2_and_still_checks_the_others(mini, run, tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "game.yaml").write_text("game: {title: x\n", encoding="utf-8")
    _break_count(mini)
    result = run("check", broken, mini)
    assert result.exit_code == 2
    assert "malformed YAML" in result.stderr and "game.yaml:" in result.stderr
    assert "PNP101" in result.stdout, "the readable game is still checked"
    assert "1 could not be read" in result.stdout


def test_json_is_one_object_per_finding(mini, run):
    _break_count(mini)
    result = run("check", mini, "--format", "json")
    assert result.exit_code == 1
    rows = json.loads(result.stdout)
    assert len(rows) == 1
    row = rows[0]
    assert {k: row[k] for k in ("code", "severity", "line")} == {"code": "PNP101", "severity": "error", "line": 17}
    assert row["file"].endswith("mini/decks.yaml")
    assert row["message"] == "deck 'tickets' has 11 cards but declares expected: 12"
    assert row["game"] == "mini" and row["waived"] is None


def test_json_for_unreadable_content(run, tmp_path):
    result = run("check", tmp_path / "nope", "--format", "json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)[0]["code"] == "LOAD"


def test_list_prints_the_catalogue(run):
    result = run("check", "--list")
    assert result.exit_code == 0
    for entry in catalogue():
        assert f"{entry.code} {entry.severity}" in " ".join(result.stdout.split())
        assert entry.description in " ".join(result.stdout.split())
    rows = json.loads(run("check", "--list", "--format", "json").stdout)
    assert [r["code"] for r in rows] == sorted(CATALOGUE)
    assert all(r["severity"] in ("error", "warning") and r["description"] for r in rows)


def test_every_check_has_code_severity_description_and_group():
    for entry in catalogue():
        assert entry.code.startswith("PNP") and len(entry.code) == 6
        assert entry.severity in ("error", "warning")
        assert entry.description and "\n" not in entry.description
        assert entry.group not in ("registry", "__init__")


def test_a_code_cannot_be_registered_twice():
    with pytest.raises(ValueError, match="used twice"):
        @check("PNP101", "error", "again")
        def another(game):
            yield Issue(None, "x")
    with pytest.raises(ValueError, match="should look like"):
        check("X1", "error", "bad code")
    with pytest.raises(ValueError, match="severity"):
        check("PNP999", "fatal", "bad severity")


def test_build_refuses_on_check_errors(mini, run, tmp_path):
    _break_count(mini)
    out = tmp_path / "out"
    result = run("build", mini, "--out", out)
    assert result.exit_code == 1
    assert "PNP101" in result.stderr
    assert "build refused: mini has 1 check error" in result.stderr and "--force" in result.stderr
    assert not (out / "mini").exists()


def test_build_force_builds_anyway_and_says_so(mini, run, tmp_path):
    _break_count(mini)
    out = tmp_path / "out"
    result = run("build", mini, "--out", out, "--force")
    assert result.exit_code == 0, result.output
    assert "PNP101" in result.stderr
    assert "--force: built mini despite 1 check error" in result.stderr
    assert (out / "mini" / "tickets.pdf").is_file()
