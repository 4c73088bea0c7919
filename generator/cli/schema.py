"""``pnpgen schema``: the content files' JSON Schema for an editor."""
from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.markup import escape

from generator.cli.common import err_console
from generator.load.schema import EDITOR_SCHEMA_FILE, LAYOUT_SCHEMA_FILE, layout_schema_text, schema_text


@click.command(name="schema")
@click.option("-o", "--output", type=click.Path(), default=None,
              help=f"Write it to this file (or into this folder as {EDITOR_SCHEMA_FILE.name}), e.g. beside a game's "
                   "YAML; default: print it.")
@click.option("--layout", is_flag=True, help=f"The layouts' schema instead ({LAYOUT_SCHEMA_FILE.name}).")
def schema(output, layout):
    """Print the JSON Schema of the content files, for an editor (VS Code's YAML extension)."""
    text = layout_schema_text() if layout else schema_text()
    if output is None:
        click.echo(text, nl=False)
        return
    path = Path(output)
    if path.is_dir():
        path = path / (LAYOUT_SCHEMA_FILE if layout else EDITOR_SCHEMA_FILE).name
    try:
        path.write_text(text, encoding="utf-8", newline="\n")
    except OSError as error:
        err_console.print(f"[red]error:[/] cannot write {escape(str(path))}: {escape(error.strerror or str(error))}")
        sys.exit(2)
    err_console.print(f"wrote {escape(str(path))}")


