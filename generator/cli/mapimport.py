"""``pnpgen import``: a TTR Map Editor map (JSON, or CSV files of stops, routes and tickets) into a new game."""
from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from generator.cli.common import _fail, out_console
from generator.cli.given import Given
from generator.errors import PnpgenError
from generator.mapio.importer import import_map


@click.command(name="import")
@click.argument("files", nargs=-1, required=True, type=Given("map file"))
@click.option("--to", "folder", required=True, type=Given(), help="The new game folder (new, or empty).")
def import_command(files, folder):
    """Bring a TTR Map Editor map in: its JSON map file and/or CSV files of stops, routes and tickets
    (told apart by their headers) into a new game FOLDER that checks and builds."""
    try:
        written, notes = import_map([Path(f) for f in files], Path(folder))
    except PnpgenError as error:
        _fail(error)
    for note in notes:
        out_console.print(f"note: {escape(note)}", soft_wrap=True)
    out_console.print(f"wrote {len(written)} files into {escape(folder)}/; next: pnpgen check {escape(folder)} "
                      f"&& pnpgen build {escape(folder)}", soft_wrap=True)
