"""The type of every path a command is given (``click.Path`` that refuses a named pipe, a socket or a device):
a module of its own, so that ``pnpgen --version`` does not load ``generator.paths``."""
from __future__ import annotations

import click

from generator.paths import special_kind


class Given(click.Path):
    """A folder or file named on the command line (a game, ``--with``, ``--out``, ``pnpgen new``'s folder, a map
    to import): a named pipe, a socket or a device there is a usage error (exit 2) saying what it is. Asked with
    ``stat``, nothing opened; without it a named pipe was "no such game folder", "does not exist" or "File exists",
    or became an output folder's name, and a map file that is a pipe would be opened and waited on."""

    def __init__(self, role: str = "folder", **kwargs):
        super().__init__(**kwargs)
        self.role = role

    def convert(self, value, param, ctx):
        kind = special_kind(value)
        if kind is not None:
            self.fail(f"'{value}' is {kind}, not a {self.role}: pnpgen reads and writes only folders and regular "
                      f"files (opening a named pipe or a device could wait forever); name another path", param, ctx)
        return super().convert(value, param, ctx)
