"""``pnpgen fit``: nudge a map board until its geometry checks pass, as a diff of the content files."""
from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from generator.cli.common import _fail, out_console
from generator.cli.given import Given
from generator.errors import PnpgenError
from generator.fit import fit_game


@click.command()
@click.argument("game", type=Given())
@click.option("--write", is_flag=True, help="Write the edits into the YAML files (without it, only show them).")
@click.option("--iterations", type=click.IntRange(1, 100_000), default=400, show_default=True,
              help="Moves to try at most.")
def fit(game, write, iterations):
    """Nudge a map board's places and route curves until its geometry checks (PNP501–506) pass; show the
    edits as a diff (comments and layout of the files kept), and write them with --write."""
    try:
        result = fit_game(Path(game), iterations)
    except PnpgenError as error:
        _fail(error)
    click.echo(result.diff(), nl=False)
    for note in result.notes:
        out_console.print(f"note: {escape(note)}", soft_wrap=True)
    out_console.print(f"board findings: {len(result.before)} before, {len(result.after)} after", soft_wrap=True)
    for finding in result.after:
        out_console.print(f"  {escape(str(finding.source))}: {finding.code} {escape(finding.message)}", soft_wrap=True)
    if write and result.texts:
        for path in result.write():
            out_console.print(f"wrote {escape(str(path))}", soft_wrap=True)
    elif result.texts:
        out_console.print("nothing written: run again with --write to apply the diff", soft_wrap=True)
