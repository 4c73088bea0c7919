"""``pnpgen export FORMAT``: a game's data written in another format, one module per format.

``EXPORTERS`` maps a format's name to ``write(game, out_dir) -> list[Path]``: the CLI makes one
``pnpgen export <name>`` subcommand per entry, so a new format is one module and one line here.
"""
from __future__ import annotations

from generator.export import tables

#: format name → (what it writes, for the command's help; the function that writes it)
EXPORTERS = {
    "csv": ("each deck's cards and the game's places, routes … as CSV files, to edit in a spreadsheet "
            "and read back with {from: file.csv}", tables.write_csv),
}
