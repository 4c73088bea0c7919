"""Fit text into a box: wrap, shrink, and refuse what still does not fit.

Wrapping is done here, with the PDF font's own metrics, so PDF and SVG break
lines at the same places. Latin text breaks at spaces; Japanese may break
between any two characters, except that no line may start with closing
punctuation (。、）」 …) nor end with opening punctuation (「（ …): kinsoku
shori, which ReportLab's own CJK wrapping applies only in part.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from generator.fonts import FONT_NAME, PT_TO_MM, Typeset, text_width_mm
from generator.layout.primitives import Text
from generator.model import dataclass_eq, dataclass_hash, dataclass_repr

NO_LINE_START = set("、。，．,.）)」』】〕〉》]}！？!?：；:;ー・ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々〜…‥")
NO_LINE_END = set("「『（(【〔〈《[{")
CAP = 0.88   # of the size: the height of a capital or kanji, from a text box's top to the first baseline


def cap_height(size_pt: float) -> float:
    """mm from the top of a line of ``size_pt`` text to its baseline (text is placed by baseline)."""
    return size_pt * PT_TO_MM * CAP


def set_text(typeset: Typeset, x: float, y: float, text: str, size: float, fill="#000000", anchor: str = "start",
             bold: bool = False) -> Text:
    """A line in the face ``typeset`` gives ``text`` (the game's body family, or pnpgen's own), measured as drawn."""
    face = typeset.face(text, bold)
    return Text(x, y, text, size, fill, anchor, face.fake_bold, face.name, face.fake_italic)


def bold_text(typeset: Typeset, x: float, y: float, text: str, size: float, fill="#000000",
              anchor: str = "start") -> Text:
    """A line in the bold face (names, titles, numbers): the family's bold file, measured as drawn."""
    return set_text(typeset, x, y, text, size, fill, anchor, bold=True)


def bold_width(typeset: Typeset, text: str, size_pt: float) -> float:
    """Width in mm of ``text`` in the face ``bold_text`` draws it with."""
    return typeset.width(text, size_pt, bold=True)


def is_wide(ch: str) -> bool:
    """A character that is set on its own em square (CJK, kana, full-width forms)."""
    return ord(ch) >= 0x2E80  # CJK, kana and full-width forms


def tokens(text: str) -> list[str]:
    """Unbreakable pieces: Latin words (with their trailing space) or single CJK chars."""
    out: list[str] = []
    word = ""
    for ch in text:
        if is_wide(ch):
            if word:
                out.append(word)
                word = ""
            out.append(ch)
        elif ch == " ":
            word += ch
            out.append(word)
            word = ""
        else:
            word += ch
    if word:
        out.append(word)
    # kinsoku: glue forbidden starters to the token before, openers to the token after
    glued: list[str] = []
    carry = ""
    for tok in out:
        tok = carry + tok
        carry = ""
        if glued and tok[0] in NO_LINE_START:
            glued[-1] += tok
        elif tok[-1] in NO_LINE_END:
            carry = tok
        else:
            glued.append(tok)
    if carry:
        glued.append(carry)
    return glued


def wrap(text: str, width_mm: float, size_pt: float, font: str = FONT_NAME) -> list[str] | None:
    """Lines of ``text`` no wider than ``width_mm`` in the face ``font``; None if a piece cannot fit."""
    ranges = wrap_ranges(text, width_mm, lambda a, b: text_width_mm(text[a:b], size_pt, font))
    return None if ranges is None else [text[a:b] for a, b in ranges]


def wrap_ranges(text: str, width_mm: float, measure: Callable[[int, int], float],
                no_orphan: bool = False) -> list[tuple[int, int]] | None:
    """Lines of ``text`` as (start, end) indices, each no wider than ``width_mm``; None if a piece cannot fit.

    ``measure(start, end)`` is the width of ``text[start:end]`` in mm: one face for plain text, a sum
    of runs in their own faces for rich text (``layout.richtext``, where an icon is one character).
    Widths add up (the font has no kerning), so each piece is measured once. ``no_orphan`` (running text):
    a paragraph's last line of a single character and its punctuation ("す。") takes the piece before it
    down with it, as Japanese typesetting avoids.
    """
    lines: list[tuple[int, int, int]] = []   # start, end, where the line's last piece starts
    limit = width_mm + 1e-6
    start = 0
    for paragraph in text.split("\n"):
        first_line = len(lines)
        line_start, line_end, used = start, start, 0.0
        last_piece = start   # where the current line's last piece starts
        pos = start
        for tok in tokens(paragraph):
            a, b = pos, pos + len(tok)
            pos = b
            tok_width = measure(a, b)
            trailing = measure(b - 1, b) if tok.endswith(" ") else 0.0
            if used + tok_width - trailing <= limit:
                line_end, used, last_piece = b, used + tok_width, a
                continue
            if line_end == line_start:
                return None  # a single piece wider than the box
            lines.append((*_rstrip(text, line_start, line_end), last_piece))
            line_start = a + (len(tok) - len(tok.lstrip()))
            line_end, used, last_piece = b, measure(line_start, b), line_start
            if used - trailing > limit:
                return None
        lines.append((*_rstrip(text, line_start, line_end), last_piece))
        if no_orphan and len(lines) - first_line >= 2:
            _pull_down(text, lines, measure, limit)
        start += len(paragraph) + 1
    return [(a, b) for a, b, _ in lines]


def _pull_down(text: str, lines: list[tuple[int, int, int]], measure: Callable[[int, int], float], limit: float) -> None:
    """``wrap_ranges``'s ``no_orphan``: move the second-last line's last piece onto a lone-character last line."""
    (pa, _, piece), (la, lb, last_piece) = lines[-2], lines[-1]
    alone = [c for c in text[la:lb] if not c.isspace() and c not in NO_LINE_START]
    if len(alone) > 1 or piece <= pa or measure(piece, lb) > limit:
        return
    lines[-2:] = [(*_rstrip(text, pa, piece), pa), (piece, lb, last_piece)]


def _rstrip(text: str, start: int, end: int) -> tuple[int, int]:
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


@dataclass(frozen=True, repr=False, eq=False)
class Fitted:
    """Lines of text fitted to a box, at the size they fit."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    lines: tuple[str, ...]
    size: float        # pt
    line_height: float  # mm between baselines

    @property
    def height(self) -> float:
        """mm from the top of the first line to the last baseline: what a box must hold."""
        return cap_height(self.size) + self.line_height * (len(self.lines) - 1)

    def texts(self, x: float, top: float, anchor: str, color, bold: bool, font: str = FONT_NAME) -> list[Text]:
        """The lines as Text items in the face ``font`` (``bold``: synthesised), the first line's top at
        ``top``, anchored at ``x``."""
        cap = cap_height(self.size)
        return [Text(x, top + cap + i * self.line_height, line, self.size, color, anchor, bold, font)
                for i, line in enumerate(self.lines)]


@lru_cache(maxsize=65536)
def fit(text: str, width_mm: float, height_mm: float, size_pt: float,
        min_size_pt: float | None = None, leading: float = 1.2, max_lines: int | None = None,
        font: str = FONT_NAME) -> Fitted | None:
    """Largest size from ``size_pt`` down to ``min_size_pt`` (0.5 pt steps) that fits in the face ``font``; else None."""
    size = size_pt
    floor = min_size_pt if min_size_pt is not None else size_pt
    while size >= floor - 1e-9:
        lines = wrap(text, width_mm, size, font)
        if lines is not None and (max_lines is None or len(lines) <= max_lines):
            line_height = size * PT_TO_MM * leading
            fitted = Fitted(tuple(lines), size, line_height)
            if fitted.height <= height_mm + 1e-6:
                return fitted
        size = round(size - 0.5, 2)
    return None
