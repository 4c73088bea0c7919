"""Rich text: ``**bold**``, ``*italic*``, ``[red]colour[/]`` and ``:icon:`` inside any text a designer writes.

One module parses the markup into styled spans (``model.rules.Span``), measures each span in its own
face (``fonts.resolve``: a bold face may be wider than the regular one), wraps them with
``layout.text``'s rules (Latin at spaces, Japanese anywhere but kinsoku; an icon is one unbreakable
wide character), shrinks them to fit, and draws them as ``Text`` primitives, built-in icons and
``Image`` icons. Card text elements and the rule sheet both use it, so a line breaks the same way in
a card and in the rules, in PDF and in SVG.

Markup that does not close is text: a lone ``*``, an unclosed ``**``, a ``[red]`` with no ``[/]``, a
``:name:`` that names no icon (``10:30``). A backslash before punctuation (``\\*``, ``\\:``, ``\\[``)
prints it as it is.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import cast

from generator import fonts
from generator.fonts import PT_TO_MM, text_width_mm
from generator.layout import text as textfit
from generator.layout.icons import ICONS
from generator.layout.primitives import Group, Image, Text
from generator.model import dataclass_eq, dataclass_hash, dataclass_repr
from generator.model.spans import Span, Spans

ICON_CHAR = "\ue000"      # an icon while wrapping: one wide character (private use: never in real text)
ICON_ADVANCE = 1.15       # em: the width an inline icon takes in its line, a little air on each side
ICON_SIZE = 1.1           # em: the side of a built-in icon's square (its drawing fills ~0.2–0.9 of it)
#: a line short of its width by more than this many em is not justified (a break before a long Latin word)
JUSTIFY_MAX_EM = 4.0
PICTURE_SIZE = 0.88       # em: an SVG icon's box, as high as a capital, standing on the baseline
ESCAPABLE = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_HEX = re.compile(r"#[0-9a-fA-F]{6}")
_ICON = re.compile(r":([A-Za-z0-9][A-Za-z0-9_-]*):")
_SPECIAL = re.compile(r"[\\*\[:]")
_SPECIAL_NO_STARS = re.compile(r"[\\\[:]")
_TAG = re.compile(r"\[(/|#[0-9a-fA-F]{6}|[A-Za-z0-9][A-Za-z0-9_-]*)\]")


@dataclass(frozen=True, repr=False)
class Markup:
    """What markup can name: palette colours (name → ``#rrggbb``) and the game's own icon files
    (name → (absolute path, sha256)); built-in icons (``layout.icons``) are always known."""

    __repr__ = dataclass_repr

    colors: Mapping[str, str] = field(default_factory=dict)
    pictures: Mapping[str, tuple[str, str]] = field(default_factory=dict)

    def icon(self, name: str) -> tuple[str, tuple[str, str] | None] | None:
        """(name, picture or None for a built-in icon), or None if ``name`` is no icon; the game's own wins."""
        if name in self.pictures:
            return name, self.pictures[name]
        if name in ICONS:
            return name, None
        return None


PLAIN = Markup()


def markup_of(game) -> Markup:
    """The colours and icons a game's text may name."""
    return Markup({name: color.hex for name, color in game.palette.items()}, dict(getattr(game, "icons", {}) or {}))


# --------------------------------------------------------------------------- parsing

@dataclass(repr=False, eq=False)
class _Tok:
    """A piece of marked-up text while it is parsed."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    kind: str                 # text | star | open | close | icon
    raw: str                  # what the designer wrote (printed if the token pairs with nothing)
    bold: bool = False        # the style a segment brings (Markdown emphasis, decided before)
    italic: bool = False
    value: object = None      # star: "b"/"i"; open: a colour; icon: (name, picture)
    can_open: bool = False
    can_close: bool = False
    literal: bool = False     # pairs with nothing: printed as written


def parse(text: str, markup: Markup = PLAIN) -> Spans:
    """A card text (``**bold**``, ``*italic*``, ``[red]…[/]``, ``:icon:``, ``\\`` escapes) → spans."""
    return _resolve(_lex(text, markup, False, False, stars=True))


def parse_segments(segments: Iterable[tuple[str, bool, bool]], markup: Markup = PLAIN) -> Spans:
    """Segments whose bold and italic are already decided (Markdown's emphasis) → spans; colours and icons
    are parsed across them, so ``[red]a **b**[/]`` is red throughout. Backslash escapes still apply."""
    toks: list[_Tok] = []
    for text, bold, italic in segments:
        toks += _lex(text, markup, bold, italic, stars=False)
    return _resolve(toks)


def _lex(text: str, markup: Markup, bold: bool, italic: bool, stars: bool) -> list[_Tok]:
    toks: list[_Tok] = []

    def add_text(s: str) -> None:
        if toks and toks[-1].kind == "text" and not toks[-1].literal:
            toks[-1].raw += s
        else:
            toks.append(_Tok("text", s, bold, italic))

    i, n = 0, len(text)
    special = _SPECIAL if stars else _SPECIAL_NO_STARS
    while i < n:
        mark = special.search(text, i)
        if mark is None or mark.start() > i:  # plain text up to the next character markup starts with
            end = n if mark is None else mark.start()
            add_text(text[i:end])
            i = end
            continue
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in ESCAPABLE:
            add_text(text[i + 1])
            i += 2
            continue
        if ch == "*" and stars:
            j = i
            while j < n and text[j] == "*":
                j += 1
            before, after = text[i - 1] if i else "", text[j] if j < n else ""
            can_open, can_close = bool(after) and not after.isspace(), bool(before) and not before.isspace()
            run = j - i
            for kind in ["b"] * (run // 2) + ["i"] * (run % 2):
                toks.append(_Tok("star", "**" if kind == "b" else "*", bold, italic, kind, can_open, can_close))
            i = j
            continue
        if ch == "[":
            tag = _TAG.match(text, i)
            if tag:
                name = tag.group(1)
                if name == "/":
                    toks.append(_Tok("close", tag.group(0), bold, italic))
                    i = tag.end()
                    continue
                color = name.lower() if _HEX.fullmatch(name) else markup.colors.get(name)
                if color is not None:
                    toks.append(_Tok("open", tag.group(0), bold, italic, color))
                    i = tag.end()
                    continue
        if ch == ":":
            icon = _ICON.match(text, i)
            known = markup.icon(icon.group(1)) if icon else None
            if icon and known:
                toks.append(_Tok("icon", icon.group(0), bold, italic, known))
                i = icon.end()
                continue
        add_text(ch)
        i += 1
    return toks


def _resolve(toks: list[_Tok]) -> Spans:
    """Pair the markers (an unpaired one is text), then cut the text into styled spans."""
    for kind in ("b", "i"):
        pending = None
        for tok in toks:
            if tok.kind != "star" or tok.value != kind:
                continue
            if pending is not None and tok.can_close:
                pending = None
            elif tok.can_open:
                if pending is not None:
                    pending.literal = True
                pending = tok
            else:
                tok.literal = True
        if pending is not None:
            pending.literal = True
    stack: list[_Tok] = []
    for tok in toks:
        if tok.kind == "open":
            stack.append(tok)
        elif tok.kind == "close":
            if stack:
                stack.pop()
            else:
                tok.literal = True
    for tok in stack:
        tok.literal = True

    spans: list[Span] = []
    bold = italic = False
    colors: list[str] = []

    def add(span: Span) -> None:
        last = spans[-1] if spans else None
        if last is not None and not last.icon and not span.icon and _style(last) == _style(span):
            spans[-1] = Span(last.text + span.text, last.bold, last.italic, last.color)
        elif span.text:
            spans.append(span)

    for tok in toks:
        color = colors[-1] if colors else None
        if tok.kind == "text" or tok.literal:
            add(Span(tok.raw, bold or tok.bold, italic or tok.italic, color))
        elif tok.kind == "star":
            if tok.value == "b":
                bold = not bold
            else:
                italic = not italic
        elif tok.kind == "open":
            colors.append(str(tok.value))
        elif tok.kind == "close":
            colors.pop()
        else:
            icon, picture = cast("tuple[str, tuple[str, str] | None]", tok.value)
            add(Span(tok.raw, bold or tok.bold, italic or tok.italic, color, icon, picture))
    return tuple(spans)


def _style(span: Span) -> tuple:
    return span.bold, span.italic, span.color


def glyph_text(spans: Spans) -> str:
    """The characters the font must print: the text without markup and without icons."""
    return "".join(span.text for span in spans if not span.icon)


def is_plain(spans: Spans) -> bool:
    """One unstyled run: laid out exactly as text without markup always was."""
    return len(spans) <= 1 and not any(s.bold or s.italic or s.color or s.icon for s in spans)


# --------------------------------------------------------------------------- measuring and wrapping

@dataclass(frozen=True, repr=False)
class Typeface:
    """The family text is set in, and the game's declared families (``Game.fonts``) to resolve it in."""

    __repr__ = dataclass_repr

    family: str | None = None
    families: tuple = ()      # ((name, FontFamily), …): hashable, so laid-out text can be cached
    bold: bool = False        # the whole text (a heading, ``bold: true`` on an element)
    italic: bool = False

    @staticmethod
    def of(family: str | None = None, families: Mapping | None = None, bold: bool = False,
           italic: bool = False) -> Typeface:
        return Typeface(family, tuple(sorted((families or {}).items())), bold, italic)

    def face(self, span: Span) -> fonts.Face:
        return _face(self, span.bold or self.bold, span.italic or self.italic)


@lru_cache(maxsize=1024)
def _face(typeface: Typeface, bold: bool, italic: bool) -> fonts.Face:
    return fonts.resolve(typeface.family, bold, italic, families=dict(typeface.families))


def span_width(span: Span, size: float, typeface: Typeface) -> float:
    """mm a span takes at ``size`` pt in its own face (an icon: ICON_ADVANCE em)."""
    if span.icon:
        return ICON_ADVANCE * size * PT_TO_MM
    return text_width_mm(span.text, size, typeface.face(span).name)


def _flat(spans: Spans) -> tuple[str, list[tuple[int, int]]]:
    """The spans as one string for ``layout.text`` (an icon one ICON_CHAR) and each span's (start, end) in it."""
    parts, bounds, pos = [], [], 0
    for span in spans:
        piece = ICON_CHAR if span.icon else span.text
        parts.append(piece)
        bounds.append((pos, pos + len(piece)))
        pos += len(piece)
    return "".join(parts), bounds


def _slice(spans: Spans, bounds: list[tuple[int, int]], a: int, b: int) -> tuple[Span, ...]:
    """The runs of flat range [a, b)."""
    out = []
    first = max(0, bisect.bisect_right(bounds, (a, a)) - 1)   # the run that holds a, not the paragraph's first
    for span, (s, e) in zip(spans[first:], bounds[first:]):
        if s >= b:
            break
        lo, hi = max(a, s), min(b, e)
        if lo >= hi:
            continue
        out.append(span if span.icon or (lo, hi) == (s, e) else
                   Span(span.text[lo - s:hi - s], span.bold, span.italic, span.color))
    return tuple(out)


def _measure(spans: Spans, bounds: list[tuple[int, int]], size: float, typeface: Typeface):
    """width(start, end) of a range of the flat text: each run's part in its own face, icons their advance."""
    names = [typeface.face(span).name for span in spans]
    icon = ICON_ADVANCE * size * PT_TO_MM
    if len(spans) == 1 and not spans[0].icon:   # one run (most text): measured as plain text always was
        text, name = spans[0].text, names[0]
        return lambda a, b: text_width_mm(text[a:b], size, name)

    starts = [s for s, _ in bounds]

    def width(a: int, b: int) -> float:
        total = 0.0
        # from the run that holds a (a paragraph of 10,000 runs measured from its first run each time: minutes)
        for i in range(max(0, bisect.bisect_right(starts, a) - 1), len(spans)):
            span, name, (s, e) = spans[i], names[i], bounds[i]
            if e <= a:
                continue
            if s >= b:
                break
            total += icon if span.icon else text_width_mm(span.text[max(a, s) - s:min(b, e) - s], size, name)
        return total
    return width


def wrap(spans: Spans, width: float, size: float, typeface: Typeface = Typeface(),
         no_orphan: bool = False) -> list[tuple[Span, ...]] | None:
    """Lines of runs no wider than ``width`` mm at ``size`` pt; None if one piece cannot fit.

    Break points and kinsoku are ``layout.text``'s, across span boundaries: a 。 after a bold word
    stays on its line. Each run is measured in its own face. ``no_orphan``: as ``layout.text.wrap_ranges``.
    """
    flat, bounds = _flat(spans)
    if not flat:
        return [()]
    measure = _measure(spans, bounds, size, typeface)
    ranges = textfit.wrap_ranges(flat, width, measure, no_orphan)
    if ranges is None:
        return None
    return [_slice(spans, bounds, a, b) for a, b in ranges]


def paragraph_ends(spans: Spans, lines: list[tuple[Span, ...]]) -> list[bool]:
    """For each line of ``wrap``/``wrap_anywhere``: does its paragraph end with it (the text's end or a hard
    line break after it)? Those lines stay ragged; the others may be justified."""
    flat, _ = _flat(spans)
    ends, pos = [], 0
    for line in lines:   # the lines are the text's pieces in order, less the spaces and breaks between them
        piece = _flat(line)[0]
        if piece:
            pos = flat.find(piece, pos) + len(piece)
        rest = flat[pos:].lstrip(" ")
        ends.append(not rest or rest.startswith("\n"))
    return ends


def justify_spacing(runs: tuple[Span, ...], width: float, size: float, typeface: Typeface = Typeface()) -> float:
    """mm to add after each character so a line of Japanese fills ``width`` exactly, as Japanese type is set
    (両端揃え); 0 for a line with no wide character (Latin lines stay ragged: letter-spaced words read badly)
    and for a line short by more than ``JUSTIFY_MAX_EM`` (a break before a long word: spread, it would gape)."""
    chars = sum(1 if run.icon else len(run.text) for run in runs)
    if chars < 2 or not any(not run.icon and any(textfit.is_wide(c) for c in run.text) for run in runs):
        return 0.0
    slack = width - line_width(runs, size, typeface)
    if slack <= 1e-6 or slack > JUSTIFY_MAX_EM * size * PT_TO_MM:
        return 0.0
    return round(slack / (chars - 1), 4)


def wrap_anywhere(spans: Spans, width: float, size: float, typeface: Typeface = Typeface()) -> list[tuple[Span, ...]]:
    """Last resort for a word wider than its column (a long URL): lines break between any two characters."""
    flat, bounds = _flat(spans)
    lines: list[tuple[Span, ...]] = []
    start = 0
    for paragraph in flat.split("\n"):
        a, end = start, start + len(paragraph)
        measure = _measure(spans, bounds, size, typeface)
        for k in range(start, end):
            if k > a and measure(a, k + 1) > width:
                lines.append(_slice(spans, bounds, a, k))
                a = k
        lines.append(_slice(spans, bounds, a, end))
        start = end + 1
    return lines


def natural_widths(spans: Spans, size: float, typeface: Typeface = Typeface()) -> tuple[float, float]:
    """(longest paragraph unwrapped, widest unbreakable piece) in mm: what a table column wants and needs."""
    flat, bounds = _flat(spans)
    measure = _measure(spans, bounds, size, typeface)
    longest = widest = 0.0
    start = 0
    for paragraph in flat.split("\n"):
        longest = max(longest, measure(start, start + len(paragraph)))
        pos = start
        for tok in textfit.tokens(paragraph):
            lead = len(tok) - len(tok.lstrip())
            widest = max(widest, measure(pos + lead, pos + lead + len(tok.strip())))
            pos += len(tok)
        start += len(paragraph) + 1
    return longest, widest


@dataclass(frozen=True, repr=False, eq=False)
class Fitted:
    """Rich text set in a box: lines of runs, the size it was set at, mm between baselines."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    lines: tuple[tuple[Span, ...], ...]
    size: float
    line_height: float

    @property
    def height(self) -> float:
        """mm from the top of the first line to the last baseline (as ``layout.text.Fitted``)."""
        return textfit.cap_height(self.size) + self.line_height * (len(self.lines) - 1)


@lru_cache(maxsize=16384)
def fit(spans: Spans, width: float, height: float, size: float, min_size: float | None = None,
        leading: float = 1.2, max_lines: int | None = None, typeface: Typeface = Typeface()) -> Fitted | None:
    """Largest size from ``size`` down to ``min_size`` (0.5 pt steps) that fits, as ``layout.text.fit``."""
    floor = min_size if min_size is not None else size
    while size >= floor - 1e-9:
        lines = wrap(spans, width, size, typeface)
        if lines is not None and (max_lines is None or len(lines) <= max_lines):
            fitted = Fitted(tuple(lines), size, size * PT_TO_MM * leading)
            if fitted.height <= height + 1e-6:
                return fitted
        size = round(size - 0.5, 2)
    return None


# --------------------------------------------------------------------------- drawing

def line_width(runs: Iterable[Span], size: float, typeface: Typeface = Typeface()) -> float:
    return sum(span_width(run, size, typeface) for run in runs)


def draw_line(runs: tuple[Span, ...], x: float, baseline: float, size: float, color: str | None,
              align: str = "left", width: float = 0.0, typeface: Typeface = Typeface(),
              whole: bool = False, justify: bool = False) -> list:
    """One line's primitives, its box starting at ``x`` and ``width`` wide, aligned left, center or right.

    Each run is a ``Text`` anchored at its start, in its face and colour; an icon is drawn in the text's
    colour, its square on the baseline. ``whole``: a line that is one text run is anchored as a whole
    (middle, end) as plain card text always was, so text without markup lays out unchanged. ``justify``
    (left-aligned lines that do not end a paragraph): ``justify_spacing`` spreads the line to ``width``.
    """
    spacing = justify_spacing(runs, width, size, typeface) if justify and align == "left" else 0.0
    if spacing:
        return _spaced_line(runs, x, baseline, size, color, typeface, spacing)
    if whole and len(runs) <= 1 and not (runs and runs[0].icon):
        text = runs[0].text if runs else ""
        face = typeface.face(runs[0]) if runs else typeface.face(Span(""))
        fill = runs[0].color if runs and runs[0].color else color
        anchor, tx = {"left": ("start", x), "center": ("middle", x + width / 2), "right": ("end", x + width)}[align]
        return [Text(tx, baseline, text, size, fill, anchor, face.fake_bold, font=face.name, italic=face.fake_italic)]
    total = line_width(runs, size, typeface)
    if align == "right":
        x += width - total
    elif align == "center":
        x += (width - total) / 2
    items: list = []
    for run in runs:
        advance = span_width(run, size, typeface)
        fill = run.color or color
        if run.icon:
            items.append(icon_item(run, x, baseline, size, fill or "#000000"))
        elif run.text.strip():
            # a run's spaces are not drawn but stepped over: SVG collapses a text's leading white space
            face = typeface.face(run)
            lead = run.text[:len(run.text) - len(run.text.lstrip())]
            start = x + (text_width_mm(lead, size, face.name) if lead else 0.0)
            items.append(Text(start, baseline, run.text.strip(), size, fill, "start", face.fake_bold, font=face.name,
                              italic=face.fake_italic))
        x += advance
    return items


def _spaced_line(runs: tuple[Span, ...], x: float, baseline: float, size: float, color: str | None,
                 typeface: Typeface, spacing: float) -> list:
    """``draw_line`` for a justified line: every character, an icon too, is followed by ``spacing`` mm."""
    items: list = []
    for run in runs:
        fill = run.color or color
        if run.icon:
            items.append(icon_item(run, x, baseline, size, fill or "#000000"))
            x += span_width(run, size, typeface) + spacing
            continue
        face = typeface.face(run)
        text = run.text.strip()
        if text:
            lead = run.text[:len(run.text) - len(run.text.lstrip())]
            start = x + (text_width_mm(lead, size, face.name) + spacing * len(lead) if lead else 0.0)
            items.append(Text(start, baseline, text, size, fill, "start", face.fake_bold, font=face.name,
                              italic=face.fake_italic, spacing=spacing))
        x += span_width(run, size, typeface) + spacing * len(run.text)
    return items


def icon_item(run: Span, x: float, baseline: float, size: float, color: str):
    """An inline icon in the ICON_ADVANCE em after ``x``, centred. A game's picture stands on the baseline,
    a capital high. A built-in icon draws in about 0.2–0.88 of its square's height, so the square is
    placed with 0.88 of its side on the baseline: the drawing stands on it, about a capital high."""
    em = size * PT_TO_MM
    if run.picture is not None:
        side = PICTURE_SIZE * em
        path, digest = run.picture
        return Image(x + (ICON_ADVANCE * em - side) / 2, baseline - side, side, side, path, digest)
    side = ICON_SIZE * em
    left = x + (ICON_ADVANCE * em - side) / 2
    return Group(tuple(ICONS[run.icon](left, baseline - textfit.CAP * side, side, color)))
