"""``pnpgen build``: check, then write every output of each game."""
from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click
from rich.markup import escape
from rich.table import Table

from generator.check import ChecksFailed, Finding, errors_in, report
from generator.cli.common import _fail, _games_for, _interrupted, _sigterm_as_interrupt, err_console, out_console
from generator.errors import PnpgenError
from generator.incremental import Memory, RecalledBuild
from generator.outputs import DEFAULT_PROFILE, PRINT_SHOP_MODES, PROFILES, parse_only
from generator.outputs import KINDS as OUTPUT_KINDS
from generator.paths import folder_name

if TYPE_CHECKING:
    from generator.writers import BuildResult


@click.command()
@click.argument("games", nargs=-1, type=click.Path())
@click.option("--paper", type=click.Choice(["a4", "letter"], case_sensitive=False), default="a4", show_default=True,
              help="Paper for everything printed at home: card sheets, rules, print-and-play file.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output", show_default=True,
              help="Folder that receives one folder per game: OUT/<game>/.")
@click.option("--force", is_flag=True, help="Build even when the checks find errors (and say so).")
@click.option("--with", "addons", multiple=True, type=click.Path(),
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
def build(games, paper, out_dir, force, addons, no_cache, only, profile, every, print_shop):
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


def _building():
    """``generator.cli.building``, the machinery that builds a game, loaded when a game must be built: a build
    with nothing changed recalls its result (``generator.incremental``) without importing any of it."""
    return importlib.import_module("generator.cli.building")


def _refused(failed: ChecksFailed, verb: str) -> NoReturn:
    """The check errors that stop ``build``/``export`` (without --force), and the exit code."""
    report.print_findings([f for f in failed.findings if not f.waived], err_console)
    errors = len(failed.diagnostics)
    err_console.print(f"[bold red]{verb} refused[/]: {failed.game.id} has {errors} check "
                      f"error{'s' if errors != 1 else ''}; fix {'them' if errors != 1 else 'it'}, "
                      f"or {verb} anyway with --force", soft_wrap=True)
    sys.exit(failed.exit_code)


def _print_written(result: BuildResult | RecalledBuild, seconds: float, note: str = "") -> None:
    """What a build wrote: one table per game, file names whole (a narrow terminal wraps the kind).
    ``note``: "unchanged" when nothing changed since the last build, which the files are from."""
    folder = escape(str(result.out_dir))
    title = f"{folder}/ — {seconds:.1f} s" + (", unchanged since the last build" if note == "unchanged" else "")
    table = Table(title=title, title_justify="left", show_edge=False, header_style="bold")
    table.add_column("file", no_wrap=True)
    table.add_column("kind", overflow="fold")
    table.add_column("contents", justify="right", no_wrap=True)
    table.add_column("size", justify="right", no_wrap=True)
    if not result.files:
        table.add_row("(nothing printable yet)", "", "", "")
    for written in result.files:
        unit = written.unit if written.pages != 1 else written.unit.removesuffix("s")
        name = written.path.name + ("/" if written.path.is_dir() else "")
        table.add_row(escape(name), escape(written.kind), f"{written.pages} {unit}", _size(written.path))
    out_console.print(table)
    _print_notes(getattr(result, "notes", []))


def _print_notes(notes: list[str]) -> None:
    """What the build's choice of outputs left out (``Outputs.not_written``), under its table."""
    for note in notes:
        out_console.print(escape(note), soft_wrap=True)


def _report_build_findings(game, findings: list[Finding]) -> None:
    """What the checks found before a build: errors and warnings (waived ones only count).
    ``game``: anything with the game's ``id`` (the game, or a build recalled from the cache)."""
    shown = [f for f in findings if not f.waived]
    if shown:
        report.print_findings(shown, err_console)
    errors = len(errors_in(findings))
    if errors:
        err_console.print(f"[bold red]--force[/]: building {_game_id(game)} despite {errors} check "
                          f"error{'s' if errors != 1 else ''}", soft_wrap=True)
    elif shown:
        err_console.print(f"{_game_id(game)} checked: {report.tally(findings)}", soft_wrap=True)


def _game_id(game) -> str:
    return getattr(game, "game_id", None) or game.id


def _size(path: Path) -> str:
    total = sum(p.stat().st_size for p in path.rglob("*")) if path.is_dir() else path.stat().st_size
    if total < 1024:
        return f"{total} B"
    return f"{total / 1024:.0f} KB" if total < 10 * 1024 * 1024 else f"{total / 1048576:.1f} MB"
