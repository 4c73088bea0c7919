"""A table and lines written as rich writes them off a terminal, without importing rich.

``pnpgen build`` ends each game with a table of what it wrote; off a terminal (CI, a pipe, a log) rich prints it
with no colour, so the characters are all there is, and importing rich for them was ~0.02 s of a small build
(its console, table, markup, emoji modules). :func:`table_lines` writes the same characters for a table that
fits the console's width and holds plain ASCII (the title's em dash too); anything else (a wider table, which rich
shrinks; a title rich would wrap; other characters, whose cell widths are rich's to know) answers None, and rich
prints it. tests/test_startup3.py compares the two over many tables.
"""
from __future__ import annotations

import os
import re
from collections.abc import Sequence

#: characters whose width on a console is one cell and that rich prints as they are (a "[" may be markup, and rich's
#: escaping of a backslash is its own: rich prints those)
_SIMPLE = re.compile(r"[\x20-\x5a\x5d-\x7e\u2014]*")
#: rich's HEAVY_HEAD box without its edges (``show_edge=False``): header divider, rule and its crossing, body divider
_HEAD_BAR, _RULE, _CROSS, _BAR = "┃", "━", "╇", "│"


def console_width() -> int:
    """The width rich gives a console off a terminal: ``COLUMNS``, else the first of standard input, output and
    error that is a terminal (0 read as 80), else 80."""
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns)
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        return width or 80
    return 80


def table_lines(title: str, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[str]],
                width: int) -> list[str] | None:
    """The lines rich prints for ``Table(title=title, title_justify="left", show_edge=False)`` with ``columns``
    ((header, "left" or "right"), …) and ``rows`` on a console ``width`` cells wide without colour, or None
    where rich must print it."""
    cells = [[header for header, _ in columns], *rows]
    if not all(_SIMPLE.fullmatch(text) and text == text.strip() for text in (title, *(t for row in cells for t in row))):
        return None   # (rich strips a cell's spaces as it justifies it, and may wrap a title at them)
    if any(len(row) != len(columns) for row in cells):
        return None
    inner = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    total = sum(inner) + 2 * len(inner) + len(inner) - 1
    if total > width or len(title) > total:
        return None

    def line(row: Sequence[str], bar: str) -> str:
        return bar.join(" " + (text.rjust(size) if justify == "right" else text.ljust(size)) + " "
                        for text, size, (_, justify) in zip(row, inner, columns, strict=True))

    out = [title.ljust(total)] if title else []
    out.append(line(cells[0], _HEAD_BAR))
    out.append(_CROSS.join(_RULE * (size + 2) for size in inner))
    out += [line(row, _BAR) for row in rows]
    return out
