"""A command imports only what it uses (generator/cli/: one module per subcommand, loaded when named; heavy
libraries imported inside the functions that need them), so ``pnpgen --version`` and ``pnpgen check`` start
fast. Each case runs in a fresh interpreter: what a module imports at its top shows in ``sys.modules``."""
from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest

from generator.cli import COMMANDS, SUMMARIES, main
from tests.conftest import ROOT

PROBE = """
import sys
from generator.cli import main
try:
    main(sys.argv[1:], prog_name="pnpgen")
except SystemExit:
    pass
print("MODULES", *sorted(sys.modules))
"""

#: what the PDF writers, exports, SVG pictures, font subsetting and the preview server bring, and none of the rest
HEAVY = ("fontTools.subset", "svglib", "lxml", "svgwrite", "networkx", "pypdfium2", "starlette", "uvicorn",
         "reportlab.graphics.renderPDF", "reportlab.platypus", "generator.export", "generator.serve",
         "generator.simulate", "generator.pipeline")


def _imported(*args: str, env: dict | None = None) -> set[str]:
    out = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, capture_output=True, text=True, check=True,
                         env=env)
    line = next(line for line in out.stdout.splitlines() if line.startswith("MODULES "))
    return set(line.split()[1:])


def _loaded(modules: set[str], name: str) -> bool:
    return name in modules or any(m.startswith(name + ".") for m in modules)


def test_version_imports_no_generator_module_beyond_the_base():
    modules = _imported("--version")
    # generator.collector: the garbage collector's settings a command runs with (gc and contextlib alone)
    assert {m for m in modules if m.startswith("generator")} == {"generator", "generator.cli", "generator.cli.games",
                                                                  "generator.collector", "generator.errors"}
    assert not [m for m in ("reportlab", "jinja2", "yaml", "jsonschema", "PIL", "rich", "numpy", "networkx")
                if _loaded(modules, m)]


def test_help_lists_every_command_without_importing_one():
    modules = _imported("-h")
    assert not {where.split(":")[0] for where in COMMANDS.values()} & modules
    assert not [m for m in ("reportlab", "jinja2", "yaml", "networkx", "numpy") if _loaded(modules, m)]


@pytest.mark.parametrize("width", [30, 45, 74, 200])
def test_each_summary_help_lists_is_the_commands_own(width):
    """``SUMMARIES`` (what ``pnpgen -h`` shows without importing the commands) says what each command's help says,
    shortened alike at any terminal width."""
    assert sorted(SUMMARIES) == sorted(COMMANDS)
    for name in COMMANDS:
        command = main.get_command(click.Context(main), name)
        assert command is not None
        assert click.Command(name, help=SUMMARIES[name]).get_short_help_str(width) == command.get_short_help_str(width)


def test_list_reads_the_content_and_loads_no_font_drawing_or_graph_library():
    """``pnpgen list`` counts components: ReportLab is imported when a face is first measured, not before."""
    modules = _imported("list", "content/ttr-germany")
    assert "generator.cli.listing" in modules and "generator.load.game" in modules   # the probe listed the game
    assert not [m for m in ("reportlab", "PIL", "networkx", "numpy", "generator.check", "generator.writers")
                if _loaded(modules, m)]


def test_check_imports_neither_writers_output_libraries_nor_exports_nor_the_server():
    modules = _imported("check", "tests/fixtures/mini")
    assert "generator.check" in modules and "generator.cli.check" in modules   # the probe ran the check
    assert [m for m in HEAVY if _loaded(modules, m)] == []
    others = {where.split(":")[0] for name, where in COMMANDS.items() if name != "check"}
    assert others and not others & modules


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_lazy_command_loads_under_its_name(name):
    command = main.get_command(click.Context(main), name)
    assert isinstance(command, click.Command)
    assert command.name == name   # as --help lists it and as the user types it


def test_a_build_or_check_with_nothing_changed_loads_no_layout_renderer_or_check(tmp_path):
    env = {**os.environ, "PNPGEN_CACHE_DIR": str(tmp_path / "cache")}
    out = tmp_path / "out"
    build = ("build", "tests/fixtures/mini", "--out", str(out))
    assert "generator.pipeline" in _imported(*build, env=env)          # the first build builds …
    again = _imported(*build, env=env)                                  # … the second recalls it
    assert "generator.incremental" in again
    loaded = [m for m in (*HEAVY, "generator.layout", "generator.load", "generator.render", "generator.writers",
                          "generator.check.maps", "reportlab", "jinja2") if _loaded(again, m)]
    assert loaded == []
    _imported("check", "tests/fixtures/mini", env=env)
    again = _imported("check", "tests/fixtures/mini", env=env)
    assert not [m for m in ("generator.load", "generator.layout", "generator.check.maps") if _loaded(again, m)]
