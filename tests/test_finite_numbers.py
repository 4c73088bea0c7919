"""YAML's ``.nan`` and ``.inf`` are numbers to JSON Schema but no size, count or position: every number in
content is refused at its line unless finite, whichever key holds it (the class, not one key)."""
from __future__ import annotations

import pytest

from tests.conftest import ROOT, copy_fixture


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf"])
@pytest.mark.parametrize("old, new, line", [
    ("  card: {size: [44, 68], bleed: 3, safe: 3}", "  card: {size: [44, 68], bleed: VALUE, safe: 3}", 8),
    ("  card: {size: [44, 68], bleed: 3, safe: 3}", "  card: {size: [44, 68], bleed: 3, safe: 3}\n  margin: VALUE", 9),
    ("  card: {size: [44, 68], bleed: 3, safe: 3}", "  card: {size: [44, 68], bleed: 3, safe: 3}\n  home_bleed: VALUE", 9),
])
def test_a_number_that_is_no_number_is_refused_at_its_line(run, tmp_path, value, old, new, line):
    game = copy_fixture(tmp_path, "mini", "game.yaml", old, new.replace("VALUE", value))
    result = run("check", game)
    assert result.exit_code == 2, result.output
    assert f"game.yaml:{line}" in result.output and "not a number that can be measured or counted" in result.output
    assert "Traceback" not in result.output


def test_a_board_setting_too(run, tmp_path):
    import shutil
    game = tmp_path / "germany"
    shutil.copytree(ROOT / "content" / "ttr-germany", game)
    text = (game / "map.yaml").read_text(encoding="utf-8")
    assert "score_track_depth: 14" in text
    (game / "map.yaml").write_text(text.replace("score_track_depth: 14", "score_track_depth: .nan"), encoding="utf-8")
    result = run("check", game)
    assert result.exit_code == 2 and "score_track_depth is nan" in result.output
