"""Round three, ``pnpgen simulate --compare FOLDER@REV``: a name too long for the file system, and a revision whose
game holds a link to an absolute path, were tracebacks (OSError ENAMETOOLONG; tarfile's data filter refusing)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from generator.errors import ContentError
from generator.simulate.compare import version

MINI = Path(__file__).resolve().parent / "fixtures" / "mini"


@pytest.mark.parametrize("spec", ["content@" + "a" * 300, "a" * 300 + "@HEAD", "a" * 300])
def test_a_name_too_long_for_the_file_system_is_a_clear_error(tmp_path, spec):
    try:
        found = version(spec, tmp_path / "0")
    except ContentError as error:
        assert "--compare" in str(error)
    else:
        assert found == Path(spec)   # a plain folder name: the loader says it is missing


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_revision_holding_a_link_out_is_refused(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(MINI, repo / "game")
    (repo / "game" / "evil.yaml").symlink_to("/etc/passwd")
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a", "-c", "commit.gpgsign=false"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
        subprocess.run([*git, *args], cwd=repo, check=True)
    with pytest.raises(ContentError, match="cannot be taken out of git safely: 'evil.yaml' is a link to an absolute"):
        version(f"{repo / 'game'}@HEAD", tmp_path / "0")


def test_a_game_of_a_million_players_is_refused_where_it_says_so(tmp_path):
    from click.testing import CliRunner

    from generator.cli import main
    game = tmp_path / "g"
    shutil.copytree(Path(__file__).resolve().parents[1] / "content" / "ttr-germany", game)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace("players: [2, 5]", "players: [2, 1000000]"), encoding="utf-8")
    for command in (["simulate", str(game), "--games", "1", "--players", "1000000"], ["check", str(game), "--no-cache"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 2 and "game.yaml:7" in result.output and "MAX_PLAYERS" in result.output, result.output
