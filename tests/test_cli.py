"""The command line's own options: -h beside --help on every command, --version with the content format."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from generator import FORMAT_VERSION, __version__
from generator.cli import main


@pytest.mark.parametrize("command", [[], *([name] for name in sorted(main.commands))])
def test_h_is_help_on_every_command(command):
    runner = CliRunner()
    short = runner.invoke(main, [*command, "-h"], prog_name="pnpgen")
    long = runner.invoke(main, [*command, "--help"], prog_name="pnpgen")
    assert short.exit_code == 0, short.output
    assert short.output == long.output
    assert short.output.startswith(f"Usage: {' '.join(['pnpgen', *command])} ")
    assert "-h, --help" in short.output


def test_version_names_the_content_format():
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"pnpgen, version {__version__} (content format {FORMAT_VERSION})\n"
