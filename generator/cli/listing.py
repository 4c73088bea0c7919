"""``pnpgen list``: each game's components with their counts."""
from __future__ import annotations

import json

import click
from rich.markup import escape
from rich.table import Table

from generator.cli.common import _fail, out_console
from generator.cli.games import _games_for
from generator.cli.given import Given
from generator.errors import PnpgenError
from generator.load.game import load_game


@click.command(name="list")
@click.argument("games", nargs=-1, type=Given())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--with", "addons", multiple=True, type=Given(), help="Compose an add-on folder into each game.")
def list_components(games, fmt, addons):
    """List each game's components with their counts."""
    try:
        loaded = [load_game(folder, tuple(addons)) for folder in _games_for(games, addons)]
    except PnpgenError as error:
        _fail(error)
    if fmt == "json":
        data = [{"game": g.id, "title": g.label,
                 "components": [{"name": c.name, "id": c.id, "kind": c.kind, "count": c.count}
                                for c in g.components()]} for g in loaded]
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    for game in loaded:
        table = Table(title=escape(f"{game.label} ({game.id})"), show_edge=False, header_style="bold", title_justify="left")
        table.add_column("component")
        table.add_column("kind")
        table.add_column("count", justify="right")
        table.add_column("declared", justify="right")
        for c in game.components():
            table.add_row(escape(str(c.name)), escape(str(c.kind)), str(c.count), "—" if c.expected is None else str(c.expected))
        out_console.print(table)
        out_console.print()
