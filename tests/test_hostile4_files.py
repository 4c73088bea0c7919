"""Round four, files that are not files: a named pipe (FIFO), a socket or a device where the game names a file or
pnpgen reads one by convention. ``Path.is_file()`` is False for one, so ``include: [decks.yaml]`` was "does not
exist; did you mean 'decks.yaml'" and a FIFO ``rules.md`` was passed over; reading one would wait for a writer
forever. Each is an error naming the file and what it is, found by ``stat`` without opening it."""
from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from tests.hostile_lib import alarm_guard

ROOT = Path(__file__).resolve().parents[1]
ARTWORK = ROOT / "content" / "demo-artwork"


@pytest.fixture(autouse=True)
def no_hang():
    """A read of a named pipe waits forever: fail the test instead (the file-reading tests never get here)."""
    with alarm_guard("pnpgen opened a named pipe and waited on it"):
        yield


def _check(game: Path):
    return CliRunner().invoke(main, ["check", str(game), "--no-cache"])


@pytest.mark.parametrize("name, line", [
    ("decks.yaml", "game.yaml:"), ("rules.md", "rules.md"), ("layouts/lantern-train.yaml", "decks.yaml:"),
    ("cards.csv", "decks.yaml:"), ("art/back.svg", "lantern-back.yaml:"), ("art/card-paper.png", ".yaml:"),
    ("fonts/Lato-Regular.ttf", "game.yaml:"), ("game.yaml", "game.yaml")])
def test_a_named_pipe_is_refused_unopened(tmp_path, name, line):
    game = tmp_path / "g"
    shutil.copytree(ARTWORK, game)
    (game / name).unlink()
    os.mkfifo(game / name)
    result = _check(game)
    assert result.exit_code == 2, result.output
    assert f"'{name}' is a named pipe (FIFO), not a regular file" in result.output, result.output
    assert line in result.output and "Traceback" not in result.output


def test_a_link_to_a_named_pipe_is_refused_too(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(ARTWORK, game)
    os.mkfifo(game / "pipe.yaml")
    (game / "decks.yaml").unlink()
    (game / "decks.yaml").symlink_to(game / "pipe.yaml")
    result = _check(game)
    assert result.exit_code == 2 and "'decks.yaml' is a named pipe (FIFO)" in result.output, result.output


def test_a_socket_and_a_folder_are_named_for_what_they_are(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(ARTWORK, game)
    (game / "rules.md").unlink()
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(game / "rules.md"))
        result = _check(game)
    assert result.exit_code == 2 and "'rules.md' is a socket, not a regular file" in result.output, result.output
    (game / "rules.md").unlink()
    (game / "decks.yaml").unlink()
    (game / "decks.yaml").mkdir()
    result = _check(game)
    assert result.exit_code == 2 and "'decks.yaml' is a folder, not a regular file" in result.output, result.output



def test_a_named_pipe_as_a_rules_template_is_refused(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(ARTWORK, game)
    (game / "rules").mkdir()
    os.mkfifo(game / "rules" / "macros.md.j2")   # overrides templates/rules/macros.md.j2, which every rules.md reads
    result = _check(game)
    assert result.exit_code == 2, result.output
    assert "rules/macros.md.j2: cannot read" in result.output and "is a named pipe (FIFO)" in result.output, \
        result.output
