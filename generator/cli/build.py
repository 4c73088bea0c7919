"""``pnpgen build``: check, then write every output of each game."""
from __future__ import annotations

import importlib
import signal
import sys
import time
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, NoReturn, cast

import click

from generator.check import ChecksFailed, Finding, errors_in, report
from generator.cli import common
from generator.cli.common import (
    PlainConsole,
    _fail,
    _interrupted,
    _print_error,
    _sigterm_as_interrupt,
    _Terminated,
    plain_stderr,
    plain_stdout,
    say,
)
from generator.cli.games import _games_for
from generator.cli.given import Given
from generator.cli.plaintable import console_width, table_lines
from generator.errors import PnpgenError
from generator.incremental import Memory, RecalledBuild
from generator.outputs import DEFAULT_PROFILE, PRINT_SHOP_MODES, PROFILES, parse_only
from generator.outputs import KINDS as OUTPUT_KINDS
from generator.papers import PAPERS
from generator.paths import folder_name

if TYPE_CHECKING:
    from rich.console import Console

    from generator.writers import BuildResult


@click.command()
@click.argument("games", nargs=-1, type=Given())
@click.option("--paper", type=click.Choice(list(PAPERS), case_sensitive=False), default="a4", show_default=True,
              help="Paper for everything printed at home: card sheets, rules, print-and-play file (A3 and Tabloid: "
                   "board tiles for that paper too).")
@click.option("--out", "out_dir", type=Given(file_okay=False), default="output", show_default=True,
              help="Folder that receives one folder per game: OUT/<game>/.")
@click.option("--force", is_flag=True, help="Build even when the checks find errors (and say so).")
@click.option("--with", "addons", multiple=True, type=Given(),
              help="Compose an add-on folder into each game (repeatable): OUT/<game>+<add-on>/.")
@click.option("--no-cache", is_flag=True,
              help="Neither reuse nor keep results in the build cache (PNPGEN_CACHE_DIR=off does the same).")
@click.option("--only", "only", multiple=True, metavar="KIND|PART[,…]",
              help=f"Write only these output kinds ({', '.join(OUTPUT_KINDS)}) and/or parts (deck:ID, component:ID, "
                   "board[:ID], rules; or a deck's, component's or board's id alone). Repeatable, comma-separated.")
@click.option("--profile", default=None, metavar="|".join(PROFILES),
              help="A set of output kinds: " + "; ".join(f"{name} = {', '.join(kinds)}" for name, kinds in PROFILES.items())
                   + f" (default: {DEFAULT_PROFILE}).")
@click.option("--all", "every", is_flag=True, help="Write every output kind (the profile 'all').")
@click.option("--print-shop", "print_shop", default="per-face", show_default=True, metavar="|".join(PRINT_SHOP_MODES),
              help="The print-shop PDF: a page per distinct face and its back, with the count (per-face), or a page "
                   "per printed card, front then back (per-card).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Games built at once, each in a process of its own (default: the number of cores).")
def build(games, paper, out_dir, force, addons, no_cache, only, profile, every, print_shop, jobs):
    """Check, then build every game under content/ (or the GAMES given) into OUT/<game>/.

    Check errors refuse the build (exit 1) unless --force; warnings are printed. What is written: the
    home profile (home-printer PDFs and the print-and-play file) unless --only, --profile or --all say otherwise.
    A game whose content, options and output folder are as the last build left them is not built again (the
    build cache).
    """
    building = None  # the game being read or built, for the line an interruption prints
    try:
        outputs = parse_only(only, profile, every, print_shop)
    except PnpgenError as error:
        _fail(error)
    # one game named: no processes to start (multiprocessing is not even imported)
    if len(games) != 1 and (jobs or _parallel().default_jobs()) > 1 and _parallel().available():
        _build_in_parallel(jobs or _parallel().default_jobs(), click.get_current_context().params)
    try:
        with _sigterm_as_interrupt():
            for folder in _games_for(games, addons):
                started = time.perf_counter()
                building = folder_name(folder)
                memory = Memory(folder, tuple(addons), Path(out_dir),
                                {"paper": paper.lower(), "force": force, "outputs": outputs.key()},
                                use_cache=not no_cache)
                recalled = memory.recall_build()
                if recalled is not None and recalled.result is not None:
                    _report_build_findings(recalled, recalled.findings)
                    _print_written(recalled.result, time.perf_counter() - started, "unchanged")
                    _print_notes(outputs.not_written())
                    continue
                machinery = _building()
                game = machinery.load_game(folder, tuple(addons))
                building = game.id
                result = machinery.build_one(game, Path(out_dir), paper.lower(), force, _report_build_findings,
                                             memory.kept, outputs)
                memory.remember_build(result)
                _print_written(result, time.perf_counter() - started)  # now: a later game's error must not hide it
    except KeyboardInterrupt as interrupt:
        _fail(_interrupted(interrupt, building, Path(out_dir)))
    except ChecksFailed as failed:
        _refused(failed, "build")
    except PnpgenError as error:
        _fail(error)


def _build_in_parallel(jobs: int, params: dict) -> None:
    """``pnpgen build`` of several games in ``jobs`` processes (``generator.pipeline_parallel``): each process
    runs this command for one game, with every other option as given, and what it printed is shown
    game by game in order; the first game that fails ends the command with its exit status. Returns
    (for the ordinary loop) when there are fewer than two games, or two that would write one folder."""
    try:
        folders = _games_for(params["games"], params["addons"])
    except PnpgenError as error:
        _fail(error)
    names = [folder_name(folder) for folder in folders]
    if len(folders) < 2 or len(set(names)) < len(names):
        return
    status = 0
    built = 0   # games delivered and built, in order

    def work(folder: Path) -> tuple[list[tuple[bool, str]], int]:
        assert build.callback is not None
        return _captured(partial(build.callback, **{**params, "games": (str(folder),), "jobs": 1}))

    def deliver(folder: Path, outcome: tuple[list[tuple[bool, str]], int]) -> bool:
        nonlocal status, built
        chunks, status = outcome
        for to_stderr, text in chunks:
            stream = sys.stderr if to_stderr else sys.stdout
            stream.write(text)
            stream.flush()
        built += 0 if status else 1
        return status == 0

    with _sigterm_as_interrupt():
        try:
            _parallel().run_in_order(folders, work, jobs, deliver,
                                  lambda error: signal.SIGTERM if isinstance(error, _Terminated) else signal.SIGINT)
        except KeyboardInterrupt as interrupt:   # every game delivered so far was built: the next was not
            _fail(_interrupted(interrupt, names[built] if built < len(names) else None, Path(params["out_dir"])))
        except PnpgenError as error:
            _fail(error)
    sys.exit(status)


class _Sink:
    """Where a captured console writes (``_captured``): the text, in order, and which stream it was for.
    It says it is a terminal when the real stream is one, so the console keeps its colours; ``captured``
    tells the progress display to print a line instead of a bar."""

    captured = True

    def __init__(self, chunks: list[tuple[bool, str]], to_stderr: bool, terminal: bool):
        self.chunks, self.to_stderr, self.terminal = chunks, to_stderr, terminal

    def write(self, text: str) -> int:
        self.chunks.append((self.to_stderr, text))
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return self.terminal


def _captured(run) -> tuple[list[tuple[bool, str]], int]:
    """What ``run()`` prints on the CLI's consoles, in order ((to stderr, text), …), and its exit status:
    a build in a process of its own, whose output the parent shows when that game's turn comes. The consoles
    keep their colours and width, and draw no progress bar (``building._ConsoleProgress``)."""
    chunks: list[tuple[bool, str]] = []
    err_console, out_console = common.err_console, common.out_console   # (rich's: they print what is captured)
    real = err_console.file, out_console.file
    terminal = err_console.is_terminal, out_console.is_terminal
    err_console.file = cast(IO[str], _Sink(chunks, True, terminal[0]))
    out_console.file = cast(IO[str], _Sink(chunks, False, terminal[1]))
    try:
        run()
        status = 0
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 0 if exit_.code is None else 1
    except KeyboardInterrupt as interrupt:   # before the command's own handler was reached
        _print_error(_interrupted(interrupt, None, Path(".")))
        status = 130
    finally:
        err_console.file, out_console.file = real
    return chunks, status


def _parallel():
    """``generator.pipeline_parallel`` (and multiprocessing), loaded when several games may be built at once."""
    return importlib.import_module("generator.pipeline_parallel")


def _building():
    """``generator.cli.building``, the machinery that builds a game, loaded when a game must be built: a build
    with nothing changed recalls its result (``generator.incremental``) without importing any of it."""
    return importlib.import_module("generator.cli.building")


def _refused(failed: ChecksFailed, verb: str) -> NoReturn:
    """The check errors that stop ``build``/``export`` (without --force), and the exit code."""
    report.print_findings([f for f in failed.findings if not f.waived], common.err_console)
    errors = len(failed.diagnostics)
    common.err_console.print(f"[bold red]{verb} refused[/]: {failed.game.id} has {errors} check "
                      f"error{'s' if errors != 1 else ''}; fix {'them' if errors != 1 else 'it'}, "
                      f"or {verb} anyway with --force", soft_wrap=True)
    sys.exit(failed.exit_code)


def _print_written(result: BuildResult | RecalledBuild, seconds: float, note: str = "") -> None:
    """What a build wrote: one table per game, file names whole (a narrow terminal wraps the kind).
    ``note``: "unchanged" when nothing changed since the last build, which the files are from.
    Off a terminal a table that fits is written without rich (``plaintable``): the same characters."""
    after = f"/ — {seconds:.1f} s" + (", unchanged since the last build" if note == "unchanged" else "")
    title = f"{result.out_dir}{after}"
    rows = [["(nothing printable yet)", "", "", ""]] if not result.files else []
    for written in result.files:
        unit = written.unit if written.pages != 1 else written.unit.removesuffix("s")
        name = written.path.name + ("/" if written.path.is_dir() else "")
        rows.append([name, written.kind, f"{written.pages} {unit}", _size(written.path)])
    lines = table_lines(title, COLUMNS, rows, console_width()) if plain_stdout() else None
    if lines is not None:
        sys.stdout.write("".join(line + "\n" for line in lines))
        sys.stdout.flush()
    else:
        _rich_table(str(result.out_dir), after, rows)
    _print_notes(getattr(result, "notes", []))


#: the table's columns: (header, justify)
COLUMNS = (("file", "left"), ("kind", "left"), ("contents", "right"), ("size", "right"))


def _rich_table(folder: str, after: str, rows: list[list[str]]) -> None:
    """The table through rich: on a terminal (colour, and the width it has), or what ``table_lines`` leaves to it."""
    from rich.markup import escape

    common.out_console.print(rich_table(escape(folder) + after, rows))


def rich_table(title: str, rows: list[list[str]]):
    """The build's table of written files as a rich ``Table`` (``title``: markup; the rows' text is escaped here)."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=title, title_justify="left", show_edge=False, header_style="bold")
    table.add_column("file", no_wrap=True)
    table.add_column("kind", overflow="fold")
    table.add_column("contents", justify="right", no_wrap=True)
    table.add_column("size", justify="right", no_wrap=True)
    for name, kind, contents, size in rows:
        table.add_row(escape(name), escape(kind), contents, size)
    return table


def _print_notes(notes: list[str]) -> None:
    """What the build's choice of outputs left out (``Outputs.not_written``), under its table."""
    for note in notes:
        say(note)


def _report_build_findings(game, findings: list[Finding]) -> None:
    """What the checks found before a build: errors and warnings (waived ones only count).
    ``game``: anything with the game's ``id`` (the game, or a build recalled from the cache)."""
    shown = [f for f in findings if not f.waived]
    if shown:
        report.print_findings(shown, cast("Console", PlainConsole(stderr=True)) if plain_stderr() else common.err_console)
    errors = len(errors_in(findings))
    if errors:
        text = f"--force: building {_game_id(game)} despite {errors} check error{'s' if errors != 1 else ''}"
        say(text, stderr=True, markup="[bold red]--force[/]" + text.removeprefix("--force"))
    elif shown:
        text = f"{_game_id(game)} checked: {report.tally(findings)}"
        say(text, stderr=True, markup=text)


def _game_id(game) -> str:
    return getattr(game, "game_id", None) or game.id


def _size(path: Path) -> str:
    total = sum(p.stat().st_size for p in path.rglob("*")) if path.is_dir() else path.stat().st_size
    if total < 1024:
        return f"{total} B"
    return f"{total / 1024:.0f} KB" if total < 10 * 1024 * 1024 else f"{total / 1048576:.1f} MB"
