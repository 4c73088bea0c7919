"""CSV cells that a spreadsheet program cannot take for formulas (CSV injection).

A card's name or a place's attribute is content from anyone; written unchanged into a CSV file
(``pnpgen export csv``, the build's card lists) a cell ``=HYPERLINK("http://…","click")`` or
``@SUM(…)`` is run as a formula by Excel or LibreOffice when the designer opens the file. As OWASP
advises, a text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is written
with a ``'`` before it; a number (``-3``, ``+2.5``) stays a number. pnpgen's spreadsheet reader takes
the ``'`` off again (``unguarded``), so an exported table reads back as the same values.
"""
from __future__ import annotations

import math

#: what a spreadsheet program reads as the start of a formula (or of a cell it splits: a tab, a CR)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def guarded(text: str) -> str:
    """``text`` as a CSV cell: with a ``'`` before it where it could be read as a formula."""
    if text.startswith(FORMULA_STARTS) and not _is_number(text):
        return "'" + text
    return text


def unguarded(text: str) -> str:
    """A cell as ``guarded`` wrote it, read back: the ``'`` before a formula's start taken off."""
    if text.startswith("'") and text[1:2] and text[1] in FORMULA_STARTS:
        return text[1:]
    return text
