"""``pnpgen new``: a starter game."""
from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from generator.cli.common import _fail, out_console
from generator.cli.given import Given
from generator.errors import PnpgenError
from generator.new import LANGUAGES, TEMPLATES, create_game


@click.command()
@click.argument("folder", type=Given())
@click.option("--template", default="route", show_default=True, metavar="|".join(TEMPLATES),
              help="route: a map with cities, routes, train cards and tickets; cards: cards only; line: a line game.")
@click.option("--language", default="en", show_default=True, metavar="|".join(LANGUAGES),
              help="The language of the starter's names and rules.")
def new(folder, template, language):
    """Write a small starter game into FOLDER (a new or empty folder; its name is the game's id).

    It checks clean and builds; its files' comments explain the format.
    """
    try:
        written = create_game(Path(folder), template, language)
    except PnpgenError as error:
        _fail(error)
    out_console.print(f"wrote {len(written)} files into {escape(folder)}/; next: pnpgen check {escape(folder)} "
                      f"&& pnpgen build {escape(folder)}", soft_wrap=True)
