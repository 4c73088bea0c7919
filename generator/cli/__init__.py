"""The ``pnpgen`` command: check, build, stats, list, new, simulate, schema, export, serve, import, fit, tickets.

Every error is a ``generator.errors.PnpgenError``: printed as its diagnostics (file:line,
what is wrong, what to do) — never a traceback — and the exit status is its class's
``exit_code``: 2 the content cannot be read (``ContentError``); 1 it was read but is
inconsistent (``BuildError``; ``ChecksFailed``: the checker found errors, ``pnpgen check``
lists them, ``pnpgen build`` refuses to build unless ``--force``), or the output folder is not
free or cannot be written (``OutputError``). A build stopped by Ctrl-C exits 130 (SIGTERM: 143)
with one line (``Interrupted``), the previous output left as it was.

Everything content says is printed verbatim: markup is escaped, and the
consoles neither turn ``:name:`` into emoji (``map.yaml:100:`` is not 💯) nor
highlight.

Each subcommand lives in a module of its own, imported only when it is run (click's lazy
group): ``pnpgen --version`` imports no generator module beyond the base, ``pnpgen check``
neither the PDF writers' exports nor the preview server.
"""
from __future__ import annotations

import importlib

import click

from generator import FORMAT_VERSION, __version__
from generator.cli.games import find_games

__all__ = ["COMMANDS", "find_games", "main"]

#: command name → "module:attribute" of its click command, loaded on first use
COMMANDS = {
    "build": "generator.cli.build:build",
    "check": "generator.cli.check:check",
    "export": "generator.cli.export:export_group",
    "fit": "generator.cli.fitting:fit",
    "import": "generator.cli.mapimport:import_command",
    "list": "generator.cli.listing:list_components",
    "new": "generator.cli.new:new",
    "schema": "generator.cli.schema:schema",
    "serve": "generator.cli.serve:serve",
    "simulate": "generator.cli.simulate:simulate",
    "stats": "generator.cli.stats:stats",
    "tickets": "generator.cli.tickets:tickets",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported when named (click's documented lazy-loading pattern)."""

    def __init__(self, *args, lazy: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.lazy:
            return super().get_command(ctx, cmd_name)
        module, attribute = self.lazy[cmd_name].split(":")
        command = getattr(importlib.import_module(module), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.lazy[cmd_name]} is not a click command")
        return command


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnpgen",
                      message=f"%(prog)s, version %(version)s (content format {FORMAT_VERSION})")
def main():
    """pnpgen: print-and-play components from YAML game content."""
