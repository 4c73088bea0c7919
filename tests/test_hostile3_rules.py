"""Round three, rules.md: inline Markdown costs ten times a plain word; a sheet of tens of thousands of marks is
refused before markdown-it reads it (MAX_RULES_MARKS)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main

MINI = Path(__file__).resolve().parent / "fixtures" / "mini"


@pytest.mark.parametrize("body", ["*a* " * 24_000, "`a` " * 20_000, "[a](b) " * 12_000, "\\* " * 24_000,
                                  "&amp; " * 15_000])
def test_a_rule_sheet_of_too_many_marks_is_refused_by_the_check(tmp_path, body):
    game = tmp_path / "g"
    shutil.copytree(MINI, game)
    (game / "rules.md").write_text("# R\n\n" + body + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(game), "--no-cache"])
    assert result.exit_code == 2, result.output
    assert "rules.md" in result.output and "MAX_RULES_MARKS" in result.output
    assert "Traceback" not in result.output
