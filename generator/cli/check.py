"""``pnpgen check``: every inconsistency of each game, as text or JSON."""
from __future__ import annotations

import importlib
import json
import sys

import click

from generator.check import SUBJECTS, Finding, catalogue, errors_in, report, subject_of
from generator.cli import common
from generator.cli.common import PlainConsole, _fail, _print_error, plain_stdout
from generator.cli.games import _games_for
from generator.cli.given import Given
from generator.collector import fewer_collections
from generator.errors import PnpgenError
from generator.incremental import Memory

#: young objects between two garbage collections while games are read and checked (the command's own is
#: ``cli.COMMAND_GC_THRESHOLD``, 20,000): a check keeps nearly all it makes to its end (the model, the layout:
#: ~150,000 objects for a bundled game), so collecting every 20,000 found little and cost Germany's check about
#: 35 M instructions; a large game's layout is freed explicitly all the same (``check.dry``)
CHECK_GC_THRESHOLD = 100_000


@click.command()
@click.argument("games", nargs=-1, type=Given())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people; json: one object per finding (code, severity, file, line, message, hint).")
@click.option("--list", "list_checks", is_flag=True, help="Print the catalogue of checks and exit.")
@click.option("--with", "addons", multiple=True, type=Given(), help="Compose an add-on folder into each game.")
@click.option("--no-cache", is_flag=True,
              help="Check again even if nothing changed since the last check (PNPGEN_CACHE_DIR=off does the same).")
@click.option("--only", type=click.Choice(SUBJECTS), default=None,
              help="Report only the checks of one subject: rules (the game as played: what `pnpgen simulate` "
                   "refuses on) or print (layout, fonts, the board's drawing, artwork).")
def check(games, fmt, list_checks, addons, no_cache, only):
    """Check every game under content/ (or the GAMES given) and report every inconsistency.

    Exit status: 0 no errors (warnings allowed), 1 errors found, 2 content could not be read.
    """
    if list_checks:
        listed = [c for c in catalogue() if only is None or c.subject == only]
        if fmt == "json":
            click.echo(report.catalogue_json(listed))
        else:
            report.print_catalogue(listed, common.out_console)
        return
    try:
        folders = _games_for(games, addons)
    except PnpgenError as error:
        _fail(error)
    findings: list[Finding] = []
    unreadable: list[PnpgenError] = []
    with fewer_collections(freeze=False, threshold=CHECK_GC_THRESHOLD):
        _check_each(folders, addons, no_cache, findings, unreadable)
    if only is not None:   # every check ran (and is remembered as it is); only the subject's findings are reported
        findings = [f for f in findings if subject_of(f.code) == only]
    if fmt == "json":
        rows = findings + [Finding.of(d) for error in unreadable for d in error.diagnostics]
        click.echo(json.dumps([row.to_json() for row in rows], ensure_ascii=False, indent=2))
    else:
        # not a terminal: the findings and the summary written as they are, without rich (``common.plain_stdout``)
        plain = plain_stdout()
        report.print_findings(findings, PlainConsole() if plain else common.out_console)
        for failed in unreadable:
            _print_error(failed, "cannot read the content: ")
        text = report.summary(findings, len(folders) - len(unreadable))
        if unreadable:
            text += f"; {len(unreadable)} could not be read"
        if plain:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
        else:
            style = "bold red" if errors_in(findings) or unreadable else "bold green"
            common.out_console.print(f"[{style}]{text}[/]", soft_wrap=True)
    sys.exit(max([error.exit_code for error in unreadable] + [1 if errors_in(findings) else 0]))


def _check_each(folders, addons: tuple, no_cache: bool, findings: list[Finding], unreadable: list[PnpgenError]) -> None:
    """Read and check each game (or recall its findings), into ``findings`` and ``unreadable``."""
    for folder in folders:
        memory = Memory(folder, tuple(addons), use_cache=not no_cache)
        recalled = memory.recall_check()
        if recalled is not None:
            findings += recalled.findings
            continue
        try:
            game, found = _checking().checked_game(folder, tuple(addons))
        except PnpgenError as error:  # the content (or a layout or rules.md it names) cannot be read
            unreadable.append(error)
            continue
        memory.remember_check(game, found)
        findings += found


def _checking():
    """``generator.cli.checking``, which reads and checks a game, loaded when a game must be checked: a check
    with nothing changed prints the recorded findings (``generator.incremental``) without importing it."""
    return importlib.import_module("generator.cli.checking")
