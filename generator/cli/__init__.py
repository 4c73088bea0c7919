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
neither ReportLab's canvas (``reportlab.pdfgen``) nor the spreadsheet reader nor the preview server
(tests/test_imports.py pins which). A command runs with fewer garbage collections (``collect_less``) and
skips the interpreter's last full collection as the process ends (``_spare_the_last_collection``).
"""
from __future__ import annotations

import atexit
import gc
import importlib

import click

from generator import FORMAT_VERSION, __version__
from generator.cli.games import find_games
from generator.collector import THRESHOLD, fewer_collections

__all__ = ["COMMANDS", "SUMMARIES", "find_games", "main"]

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

#: each command's summary as ``pnpgen -h`` lists it (the first sentence of its help, which click shortens to
#: the terminal's width), so the list needs no command imported: ``-h`` would otherwise load every module
#: pnpgen has (0.6 s). tests/test_startup.py holds each to its command's own help.
SUMMARIES = {
    "build": "Check, then build every game under content/ (or the GAMES given) into OUT/<game>/.",
    "check": "Check every game under content/ (or the GAMES given) and report every inconsistency.",
    "export": "Export a game for other tools: PNG faces, Tabletop Simulator decks, CSV tables.",
    "fit": "Nudge a map board's places and route curves until its geometry checks (PNP501–506) pass; show the "
           "edits as a diff (comments and layout of the files kept), and write them with --write.",
    "import": "Bring a TTR Map Editor map in: its JSON map file and/or CSV files of stops, routes and tickets "
              "(told apart by their headers) into a new game FOLDER that checks and builds.",
    "list": "List each game's components with their counts.",
    "new": "Write a small starter game into FOLDER (a new or empty folder; its name is the game's id).",
    "schema": "Print the JSON Schema of the content files, for an editor (VS Code's YAML extension).",
    "serve": "Live preview: the GAME folder's faces, boards, rule sheet and check findings in the browser, "
             "rebuilt on every save. Ctrl-C stops it.",
    "simulate": "Play GAME many times with bots and report scores, seats and what the game is made of (route or "
                "line games).",
    "stats": "Balance figures: spaces and cards per colour, ticket points, routes per place, crowding, "
             "ticket-deck scores.",
    "tickets": "Ticket decks for a map: `pnpgen tickets suggest GAME`.",
}


#: young objects between two collections while a command runs: ``generator.collector.THRESHOLD``, as a build's
COMMAND_GC_THRESHOLD = THRESHOLD


def collect_less():
    """The young generation collected less often while a command runs (``collector.fewer_collections``), the
    caller's threshold put back after. Nothing is frozen here: a build or a check's layout freezes what exists
    when it starts (``writers.fewer_collections``), the modules and the loaded game."""
    return fewer_collections(freeze=False)


def _spare_the_last_collection() -> None:
    """Run at exit (``atexit``): everything left is frozen (``gc.freeze``), so the interpreter's full collection as
    it shuts down walks nothing (the modules and the game: 0.05 s of a check). The files a command writes are
    closed by then, and what that collection would free the process gives back as it ends anyway."""
    gc.freeze()


class LazyGroup(click.Group):
    """A group whose subcommands are imported when named (click's documented lazy-loading pattern)."""

    _exit_registered = False   # ``_spare_the_last_collection`` registered (once per process)

    def __init__(self, *args, lazy: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def main(self, *args, **kwargs):
        """The command run with garbage collected less often (``collect_less``), put back after, also when click
        exits (a test or an embedding program calls ``main`` again)."""
        if kwargs.get("standalone_mode", True) and not self._exit_registered:   # a process that ends with it
            atexit.register(_spare_the_last_collection)
            LazyGroup._exit_registered = True
        with collect_less():
            return super().main(*args, **kwargs)

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

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their summaries (``SUMMARIES``), as click lists them, without importing one."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            if name in self.lazy:
                rows.append((name, click.Command(name, help=SUMMARIES[name]).get_short_help_str(limit)))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnpgen",
                      message=f"%(prog)s, version %(version)s (content format {FORMAT_VERSION})")
def main():
    """pnpgen: print-and-play components from YAML game content."""
