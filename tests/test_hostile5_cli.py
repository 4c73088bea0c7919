"""Round five, what the command line names: a named pipe, a socket or a device given as a game, an add-on, ``--out``,
``pnpgen new``'s folder or a map to import was "no such game folder", "does not exist" or "File exists" (and
``pnpgen new pipe`` wrote a game into a folder beside the pipe's name). Each is now a usage error (exit 2) saying
what the path is, found with ``stat``; nothing is opened, so nothing waits."""
from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from tests.hostile_lib import alarm_guard

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "fixtures" / "mini"


@pytest.fixture(autouse=True)
def no_hang():
    """Opening a named pipe waits forever: fail the test instead."""
    with alarm_guard("pnpgen opened a named pipe named on the command line and waited on it"):
        yield


@pytest.mark.parametrize("args, option, role", [
    (["build", "{p}", "--no-cache"], "'[GAMES]...'", "folder"),
    (["check", "{p}", "--no-cache"], "'[GAMES]...'", "folder"),
    (["build", str(MINI), "--no-cache", "--out", "{p}"], "'--out'", "folder"),
    (["build", str(MINI), "--no-cache", "--with", "{p}", "--out", "{tmp}/o"], "'--with'", "folder"),
    (["new", "{p}"], "'FOLDER'", "folder"),
    (["import", "{p}", "--to", "{tmp}/x"], "'FILES...'", "map file"),
    (["import", str(MINI / "game.yaml"), "--to", "{p}"], "'--to'", "folder"),
    (["export", "tts", str(MINI), "--out", "{p}"], "'--out'", "folder"),
    (["serve", "{p}"], "'[GAME]'", "folder"),
])
@pytest.mark.parametrize("kind", ["fifo", "socket"])
def test_a_special_file_on_the_command_line_is_a_usage_error(tmp_path, args, option, role, kind):
    path = tmp_path / "thing.json"
    if kind == "fifo":
        os.mkfifo(path)
        what = "a named pipe (FIFO)"
    else:
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        what = "a socket"
    result = CliRunner().invoke(main, [a.format(p=path, tmp=tmp_path) for a in args])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for {option}: '{path}' is {what}, not a {role}" in result.output, result.output
    assert "Traceback" not in result.output and sorted(p.name for p in tmp_path.iterdir()) == ["thing.json"]


def test_a_device_as_an_add_on_is_named_a_device(tmp_path):
    result = CliRunner().invoke(main, ["check", str(MINI), "--no-cache", "--with", "/dev/null"])
    assert result.exit_code == 2 and "'/dev/null' is a character device, not a folder" in result.output, result.output
