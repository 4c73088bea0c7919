"""``pnpgen check``: every inconsistency of each game, as text or JSON."""
from __future__ import annotations

import json
import sys

import click

from generator.check import Finding, catalogue, errors_in, report, run_checks
from generator.cli.common import _fail, _games_for, _print_error, out_console
from generator.errors import PnpgenError
from generator.load.game import load_game
from generator.load.rules import load_rules


@click.command()
@click.argument("games", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people; json: one object per finding (code, severity, file, line, message, hint).")
@click.option("--list", "list_checks", is_flag=True, help="Print the catalogue of checks and exit.")
@click.option("--with", "addons", multiple=True, type=click.Path(), help="Compose an add-on folder into each game.")
def check(games, fmt, list_checks, addons):
    """Check every game under content/ (or the GAMES given) and report every inconsistency.

    Exit status: 0 no errors (warnings allowed), 1 errors found, 2 content could not be read.
    """
    if list_checks:
        if fmt == "json":
            click.echo(report.catalogue_json(catalogue()))
        else:
            report.print_catalogue(catalogue(), out_console)
        return
    try:
        folders = _games_for(games, addons)
    except PnpgenError as error:
        _fail(error)
    findings: list[Finding] = []
    unreadable: list[PnpgenError] = []
    for folder in folders:
        try:
            game = load_game(folder, tuple(addons))
            load_rules(game)  # rules.md is content too: a template mistake is found here, not first in a build
            findings += run_checks(game)
        except PnpgenError as error:  # the content (or a layout or rules.md it names) cannot be read
            unreadable.append(error)
    if fmt == "json":
        rows = findings + [Finding.of(d) for error in unreadable for d in error.diagnostics]
        click.echo(json.dumps([row.to_json() for row in rows], ensure_ascii=False, indent=2))
    else:
        report.print_findings(findings, out_console)
        for failed in unreadable:
            _print_error(failed, "cannot read the content: ")
        text = report.summary(findings, len(folders) - len(unreadable))
        if unreadable:
            text += f"; {len(unreadable)} could not be read"
        style = "bold red" if errors_in(findings) or unreadable else "bold green"
        out_console.print(f"[{style}]{text}[/]", soft_wrap=True)
    sys.exit(max([error.exit_code for error in unreadable] + [1 if errors_in(findings) else 0]))
