"""``pnpgen serve``: the live preview in the browser."""
from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from generator.cli.common import _fail, out_console
from generator.cli.given import Given
from generator.errors import ContentError, PnpgenError
from generator.serve import serve as serve_preview


@click.command()
@click.argument("game", type=Given(), default=".")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (the default answers this machine only).")
@click.option("--with", "addons", multiple=True, type=Given(), help="Compose an add-on folder into the game.")
def serve(game, port, host, addons):
    """Live preview: the GAME folder's faces, boards, rule sheet and check findings in the browser,
    rebuilt on every save. Ctrl-C stops it."""
    folder = Path(game)
    if not (folder / "game.yaml").is_file():
        _fail(ContentError(None, f"{folder} holds no game.yaml: not a game folder",
                           "name a game folder, e.g. pnpgen serve content/ttr-germany"))
    out_console.print(f"pnpgen serve: [bold]http://{escape(host)}:{port}/[/] — {escape(str(folder))}; Ctrl-C stops",
                      soft_wrap=True)
    try:
        serve_preview(folder, tuple(addons), host, port)
    except PnpgenError as error:
        _fail(error)
