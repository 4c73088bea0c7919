"""`pnpgen check`: exit codes, text and JSON output, the catalogue; `pnpgen build` refusing and --force."""
from __future__ import annotations

import json
import shutil

import pytest

from generator.check import CATALOGUE, catalogue, check
from generator.check.registry import Issue
from tests.conftest import FIXTURES, ROOT


@pytest.fixture
def game(tmp_path):
    """A writable copy of tests/fixtures/check-routes, a small route game that checks clean."""
    target = tmp_path / "routes"
    shutil.copytree(FIXTURES / "check-routes", target)
    return target


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture no longer contains {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _break_count(game):
    _edit(game / "decks.yaml", "    expected: 4\n", "    expected: 5\n")


def test_clean_game_exits_0_with_a_summary(game, run):
    result = run("check", game)
    assert result.exit_code == 0, result.output
    assert "1 game checked: 0 errors, 0 warnings" in result.stdout


def test_errors_exit_1_with_file_line_code_and_hint(game, run):
    _break_count(game)
    result = run("check", game)
    assert result.exit_code == 1
    assert "decks.yaml:19: error PNP101 deck 'tickets' has 4 cards but declares expected: 5" in result.stdout
    assert "hint: fix the counts" in result.stdout
    assert "1 error, 0 warnings" in result.stdout


def test_unreadable_content_exits_2_and_still_checks_the_others(game, run, tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "game.yaml").write_text("game: {title: x\n", encoding="utf-8")
    _break_count(game)
    result = run("check", broken, game)
    assert result.exit_code == 2
    assert "malformed YAML" in result.stderr and "game.yaml:" in result.stderr
    assert "PNP101" in result.stdout, "the readable game is still checked"
    assert "1 could not be read" in result.stdout


def test_json_is_one_object_per_finding(game, run):
    _break_count(game)
    result = run("check", game, "--format", "json")
    assert result.exit_code == 1
    rows = json.loads(result.stdout)
    assert len(rows) == 1
    row = rows[0]
    assert {k: row[k] for k in ("code", "severity", "line")} == {"code": "PNP101", "severity": "error", "line": 19}
    assert row["file"].endswith("routes/decks.yaml")
    assert row["message"] == "deck 'tickets' has 4 cards but declares expected: 5"
    assert row["game"] == "routes" and row["waived"] is None


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


def test_build_refuses_on_check_errors(game, run, tmp_path):
    _break_count(game)
    out = tmp_path / "out"
    result = run("build", game, "--out", out)
    assert result.exit_code == 1
    assert "PNP101" in result.stderr
    assert "build refused: routes has 1 check error" in result.stderr and "--force" in result.stderr
    assert not (out / "routes").exists()


def test_build_force_builds_anyway_and_says_so(game, run, tmp_path):
    _break_count(game)
    out = tmp_path / "out"
    result = run("build", game, "--out", out, "--force")
    assert result.exit_code == 0, result.output
    assert "PNP101" in result.stderr
    assert "--force: building routes despite 1 check error" in result.stderr
    assert (out / "routes" / "tickets.pdf").is_file()


def test_build_prints_warnings_and_builds(game, run, tmp_path):
    _edit(game / "decks.yaml", "      - [Bdorf, Dheim, 4]", "      - [Bdorf, Dheim, 5]")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "decks.yaml:28: warning PNP404" in result.stderr
    assert "routes checked: 0 errors, 1 warning" in result.stderr


def test_waived_findings_are_shown_with_their_reason(game, run):
    _edit(game / "decks.yaml", "      - [Bdorf, Dheim, 4]", "      - [Bdorf, Dheim, 5]  # waive PNP404: as printed")
    result = run("check", game)
    assert result.exit_code == 0
    assert "waived PNP404" in result.stdout and "reason: as printed" in result.stdout
    assert "0 errors, 0 warnings, 1 waived" in result.stdout


def test_a_layout_that_cannot_be_read_exits_2(game, run):
    _edit(game / "decks.yaml", "    layout: ttr-ticket", "    layout: ttr-tiket")
    result = run("check", game)
    assert result.exit_code == 2
    assert "no layout named 'ttr-tiket'" in result.stderr and "decks.yaml:21" in result.stderr


def test_build_force_draws_text_that_does_not_fit(game, run, tmp_path):
    _edit(game / "game.yaml", "Dheim: {name: デーハイム,", "Dheim: {name: " + "デーハイム" * 12 + ",")
    out = tmp_path / "out"
    refused = run("build", game, "--out", out)
    assert refused.exit_code == 1 and "PNP701" in refused.stderr and "does not fit its box" in refused.stderr
    forced = run("build", game, "--out", out, "--force")
    assert forced.exit_code == 0, forced.output
    assert "--force: building routes despite" in forced.stderr
    from pypdf import PdfReader
    text = "".join(page.extract_text() for page in PdfReader(out / "routes" / "tickets.pdf").pages)
    assert "デーハイム" * 3 in text.replace("\n", ""), "the overflowing name is printed, not dropped"


def test_every_bundled_game_checks_clean_from_the_command_line(run):
    result = run("check")
    assert result.exit_code == 0, result.output
    assert "6 games checked: 0 errors, 0 warnings, 2 waived" in result.stdout


def test_every_misspelt_name_is_reported_in_one_run(game, run):
    _edit(game / "decks.yaml", "      - [Aburg, Dheim, 6]", "      - [Aburgg, Dheim, 6]")
    _edit(game / "decks.yaml", "      - [Aburg, Xland, 1]", "      - [Aburg, Xlnd, 1]")
    _edit(game / "game.yaml", "  - [Cstadt, Dheim, 1, gray]", "  - [Cstadt, Dheim, 1, grey]")
    result = run("check", game)
    assert result.exit_code == 2
    err = result.stderr
    assert "decks.yaml:27: cannot read the content: deck 'tickets' card 1 field 'from': unknown place 'Aburgg'" in err
    assert "decks.yaml:30: cannot read the content: deck 'tickets' card 4 field 'to': unknown place 'Xlnd'" in err
    assert "game.yaml:30: cannot read the content: route colour: unknown color 'grey'" in err
    assert "did you mean 'Xland'" in err and "did you mean 'gray'" in err
    rows = json.loads(run("check", game, "--format", "json").stdout)
    assert [(r["code"], r["file"].rsplit("/", 1)[1], r["line"]) for r in rows] == [
        ("LOAD", "decks.yaml", 27), ("LOAD", "decks.yaml", 30), ("LOAD", "game.yaml", 30)]
    assert run("build", game, "--out", game / "out").exit_code == 2


def test_a_mistake_in_rules_md_makes_check_exit_2_at_its_line(tmp_path, run):
    """rules.md is content: check reads it as a build would, so a template mistake never waits for a build."""
    folder = tmp_path / "game"
    shutil.copytree(FIXTURES / "check-routes", folder)
    (folder / "rules.md").write_text("# ルール\n\n{{ component_table() }}\n", encoding="utf-8")
    result = run("check", folder)
    assert result.exit_code == 2
    assert "rules.md:3" in result.output and "'component_table' is undefined" in result.output


def test_build_force_draws_an_overflowing_piece_in_the_rule_sheet_too(run, tmp_path):
    """The rule sheet pictures the track tokens with the build's renderer: --force draws them as the token sheet does."""
    folder = tmp_path / "dice"
    shutil.copytree(ROOT / "content/ttr-dice", folder)
    path = folder / "components.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("text: 単線, color: single-token", "text: とても長い単線トークンの名前ですので入りません, color: single-token"),
                    encoding="utf-8")
    assert run("build", folder, "--out", tmp_path / "out").exit_code == 1
    result = run("build", folder, "--out", tmp_path / "out", "--force")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "dice" / "dice-rules.pdf").is_file()
