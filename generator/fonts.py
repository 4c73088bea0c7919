"""The one typeface pnpgen prints with, and text measurement.

IPAexGothic is a TrueType font covering Japanese, Latin and German text, so
one embedded, subset font serves every game (ReportLab cannot embed CFF/OTF,
and its built-in CID fonts are not embedded). Layout measures text with the
same metrics the PDF uses, so wrapping is identical in PDF and SVG.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from generator import FONT_DIR

FONT_NAME = "IPAexGothic"
FONT_FILE = FONT_DIR / "ipaexg.ttf"
PT_TO_MM = 25.4 / 72.0
#: bold is the one font filled and outlined; outline width in mm per pt of size (0.16 mm at 13 pt)
BOLD_STROKE = 0.012


@cache
def register() -> str:
    """Register the font with ReportLab once; returns its name."""
    pdfmetrics.registerFont(TTFont(FONT_NAME, str(FONT_FILE)))
    return FONT_NAME


@dataclass(frozen=True, slots=True)
class Face:
    """A registered face to draw with, and what the renderer must synthesise because no file has it."""

    name: str
    fake_bold: bool = False
    fake_italic: bool = False


@dataclass(frozen=True, slots=True)
class FontFamily:
    """A family a game declares (``fonts:``): TrueType files, absolute and kept inside the game."""

    regular: Path
    bold: Path | None = None
    italic: Path | None = None
    bold_italic: Path | None = None


def resolve(family: str | None = None, bold: bool = False, italic: bool = False,
            families: Mapping[str, FontFamily] | None = None) -> Face:
    """The face that prints ``family`` (None: the default) in the given style; ``families`` are
    the game's declared ones (``Game.fonts``).

    Layout measures with ``Face.name`` and puts it on the ``Text`` it makes, with
    ``bold=face.fake_bold, italic=face.fake_italic``, so every renderer draws what was measured.
    """
    register()
    return Face(FONT_NAME, fake_bold=bold, fake_italic=italic)


@lru_cache(maxsize=65536)
def text_width_mm(text: str, size_pt: float, font: str = FONT_NAME) -> float:
    """Width of ``text`` at ``size_pt`` in millimetres, in the registered face ``font``."""
    register()
    return pdfmetrics.stringWidth(text, font, size_pt) * PT_TO_MM


@cache
def _charset() -> frozenset[int]:
    register()
    font = pdfmetrics.getFont(FONT_NAME)
    assert isinstance(font, TTFont), "register() registers a TrueType font under FONT_NAME"
    face = font.face
    return frozenset(face.charToGlyph.keys())


def missing_glyphs(text: str) -> list[str]:
    """Characters of ``text`` the font cannot print (they would show as boxes)."""
    chars = _charset()
    return sorted({c for c in text if not c.isspace() and ord(c) not in chars})
