"""Rule sheets on paper: chapters of blocks → A4 (or Letter) pages of primitives.

Two columns of 9 pt text, as Japanese rulebooks are set: lines of 26–28
characters read better than 55. Paragraphs, lists, notes and tables are cut
into pieces (a line, a table row) so they can run on into the next column;
headings stay with the line after them; a chapter title (``#``) spans both
columns and starts a page. Line breaking is ``layout.richtext``'s (bold,
italic, colour and inline icons; ``text.wrap``'s Japanese rules: no line
starts with 。、）」, none ends with 「（).
Pictures are the component's own printed artwork (forms), drawn smaller.
"""
from __future__ import annotations

import builtins
from collections.abc import Callable, Mapping
from dataclasses import replace

from generator.errors import BuildError, Source
from generator.fonts import PT_TO_MM, FontFamily, Typeset, missing_glyphs, text_width_mm
from generator.layout import richtext
from generator.layout.flow import Flow, Piece
from generator.layout.primitives import Form, Group, Line, Rect, Text, Use, register
from generator.layout.richtext import Typeface
from generator.model.rules import Chapter, Heading, ListBlock, Note, Paragraph, Picture, Rule, Span, Spans, Table, plain

BODY_PT = 9.0
LEADING = 1.6          # Japanese text wants generous line spacing
TABLE_PT = 8.5
TABLE_LEADING = 1.35
CELL_PAD_X = 1.4       # mm
CELL_PAD_Y = 1.0
PARAGRAPH_GAP = 1.8    # mm before a paragraph
INDENT = 4.5           # mm per list level
NOTE_PAD = 2.2         # mm inside a note's left edge
PICTURE_GAP = 2.5      # mm between faces
PICTURE_SIZE = 37.0    # mm: the longest side of a pictured face at most (a 44 × 68 card at half size)
FILE_PICTURE_MM = 80.0  # mm: the longest side of a picture file (``![…](art/x.png)``) at most
EXAMPLE_HEIGHT = 60.0   # mm: a rule example (``{{ example(…) }}``) at most, as wide as the column allows
PICTURE_FACES = 10     # faces shown when the rules do not say
PICTURE_ROW = 5        # faces per row at most
SHORT_TABLE = 10       # rows: a table this short is never split

INK = "#1f1f1f"
ACCENT = "#8a2b1e"
RULE_INK = "#9a948a"
HEADER_FILL = "#ebe6dc"
NOTE_FILL = "#f4f1ea"
HEADINGS = {1: (17.0, 0.0), 2: (12.0, 4.0), 3: (10.0, 3.0), 4: (9.5, 2.5)}  # level → (pt, space before mm)


PictureSource = Callable[[Picture], list[Form]]


def faces_of(families: Mapping[str, FontFamily] | None, heading: bool = False) -> Typeface:
    """Body text: the game's ``body`` family (else pnpgen's own); headings: its ``heading`` family if declared.
    Each run prints in that family's face of its style (``layout.richtext``)."""
    family = "heading" if heading and families and "heading" in families else None
    return Typeface.of(family, families)


def _bold(typeface: Typeface, bold: bool = True) -> Typeface:
    """The typeface with all of its text bold (headings, table headers), or as it is."""
    return replace(typeface, bold=True) if bold else typeface



def rule_pages(chapters: list[Chapter], paper: str, footer: str, pictures: PictureSource,
               on_print_problem=None, families: Mapping[str, FontFamily] | None = None) -> tuple[list, dict]:
    """Lay the chapters out in two columns; returns (pages, forms used by pictures)."""
    return layout_blocks([block for chapter in chapters for block in chapter.blocks], paper, footer, 2, pictures,
                         on_print_problem, families)


def layout_blocks(blocks: list, paper: str, footer: str, columns: int,
                  pictures: PictureSource | None = None, on_print_problem=None,
                  families: Mapping[str, FontFamily] | None = None) -> tuple[list, dict]:
    """Any blocks (a rule sheet, a cover page) onto numbered pages; returns (pages, forms).

    ``on_print_problem(kind, error)``, as for card faces: a glyph the font lacks is handed to it and
    drawn anyway (the checker collects them, ``build --force`` prints them); without it, it stops the layout.
    ``families``: the game's fonts (``Game.fonts``): ``body`` prints the text, ``heading`` the headings.
    """
    flow = Flow(paper, columns=columns, footer=footer, typeset=Typeset.of(families))
    forms: dict[str, Form] = {}
    layout = _Layout(flow.column_width, flow.text_width, pictures or _no_pictures, forms, on_print_problem,
                     faces_of(families), faces_of(families, heading=True))
    flow.add(layout.blocks(blocks, 0.0))
    return flow.finish(), forms


def _no_pictures(block: Picture) -> list[Form]:
    raise BuildError(block.source, "this document cannot show pictures", "remove the picture")


# --------------------------------------------------------------------------- text

def wrap_spans(spans: Spans, width: float, size: float, typeface: Typeface | None = None,
               force_bold: bool = False) -> list[tuple[Span, ...]]:
    """Lines of runs no wider than ``width`` (``layout.richtext``: each run measured in its own face); a word
    wider than the column (a long URL) breaks anywhere rather than overflowing."""
    typeface = _bold(typeface or faces_of(None), force_bold)
    lines = richtext.wrap(spans, width, size, typeface, no_orphan=True)
    return lines if lines is not None else richtext.wrap_anywhere(spans, width, size, typeface)


def draw_runs(runs: tuple[Span, ...], x: float, baseline: float, size: float, color: str = INK,
              align: str = "left", width: float = 0.0, force_bold: bool = False,
              typeface: Typeface | None = None, justify: bool = False) -> list:
    """One line of runs (``wrap_spans``) as primitives: ``layout.richtext.draw_line``."""
    return richtext.draw_line(runs, x, baseline, size, color, align, width, _bold(typeface or faces_of(None), force_bold),
                              justify=justify)


def _check_glyphs(spans: Spans, source: Source, on_print_problem=None, typeface: Typeface | None = None,
                  force_bold: bool = False) -> None:
    """A character that the face of its run lacks (bold runs: the bold face) is a print problem; icons are no text."""
    typeface = _bold(typeface or faces_of(None), force_bold)
    missing = sorted({c for span in spans if not span.icon
                      for c in missing_glyphs(span.text, typeface.face(span).name)})
    if missing:
        error = BuildError(source, f"the font has no glyph for {' '.join(missing)} in {plain(spans)[:40]!r}",
                           "replace those characters; they would print as empty boxes")
        if on_print_problem is None:
            raise error
        on_print_problem("glyph", error)


# --------------------------------------------------------------------------- blocks

class _Layout:
    def __init__(self, column: float, full: float, pictures: PictureSource, forms: dict, on_print_problem=None,
                 body: Typeface | None = None, headings: Typeface | None = None):
        self.column, self.full, self.pictures, self.forms = column, full, pictures, forms
        self.on_print_problem = on_print_problem
        self.body, self.headings = body or faces_of(None), headings or faces_of(None)

    def blocks(self, blocks: list, indent: float) -> list[Piece]:
        pieces: list[Piece] = []
        previous = None
        for block in blocks:
            placed = self.block(block, indent)
            if isinstance(block, (Table, Picture)) and isinstance(previous, Paragraph) and pieces and placed:
                pieces[-1].keep_with_next = True  # the sentence that introduces a table stays with it
            pieces += placed
            previous = block
        return pieces

    def block(self, block, indent: float) -> list[Piece]:
        if isinstance(block, Heading):
            return self.heading(block, indent)
        if isinstance(block, Paragraph):
            return self.lines(block.spans, block.source, indent, PARAGRAPH_GAP, justify=True)
        if isinstance(block, ListBlock):
            return self.list(block, indent)
        if isinstance(block, Table):
            return self.table(block, indent)
        if isinstance(block, Note):
            return self.note(block, indent)
        if isinstance(block, Picture):
            return self.picture(block, indent)
        if isinstance(block, Rule):
            width = self.column - indent
            return [Piece(3.0, lambda x, y: [Line(x + indent, y + 1.5, x + indent + width, y + 1.5, RULE_INK, 0.2)],
                          PARAGRAPH_GAP, source=block.source)]
        raise TypeError(block)

    # ------------------------------------------------------------------ text
    def lines(self, spans: Spans, source: Source, indent: float, space_before: float, size: float = BODY_PT,
              marker: str = "", marker_width: float = 0.0, bold: bool = False, color: str = INK,
              align: str = "left", faces: Typeface | None = None, justify: bool = False) -> list[Piece]:
        """One piece per line; ``marker`` (a bullet or number) hangs left of the first line; ``justify``: lines
        that do not end a paragraph fill the column (``richtext.justify_spacing``)."""
        faces = faces or self.body
        regular = faces.face(Span(""))
        _check_glyphs(spans, source, self.on_print_problem, faces, bold)
        width = self.column - indent - marker_width
        height = size * PT_TO_MM * LEADING
        baseline = (height - size * PT_TO_MM) / 2 + size * PT_TO_MM * 0.88
        pieces = []
        wrapped = wrap_spans(spans, width, size, faces, bold)
        # body text is set justified, as Japanese is printed: every line but a paragraph's last fills the column
        ends = richtext.paragraph_ends(spans, wrapped) if justify else [True] * len(wrapped)
        for n, (runs, end) in enumerate(zip(wrapped, ends)):
            def draw(x, y, runs=runs, first=(n == 0), spread=not end):
                items = draw_runs(runs, x + indent + marker_width, y + baseline, size, color, align, width,
                                  force_bold=bold, typeface=faces, justify=spread)
                if first and marker:
                    items.append(Text(x + indent + marker_width - 1.2, y + baseline, marker, size, color, "end",
                                      regular.fake_bold, regular.name))
                return items
            pieces.append(Piece(height, draw, space_before if n == 0 else 0.0, source=source))
        if len(pieces) > 1:  # no line alone at the foot or the head of a column
            pieces[0].keep_with_next = pieces[-2].keep_with_next = True
        return pieces

    def heading(self, block: Heading, indent: float) -> list[Piece]:
        size, space = HEADINGS.get(block.level, HEADINGS[4])
        _check_glyphs(block.spans, block.source, self.on_print_problem, self.headings, True)
        if block.level == 1:
            return [self._title(block, size)]
        pieces = self.lines(block.spans, block.source, indent, space, size, bold=True,
                            color=ACCENT if block.level == 2 else INK, faces=self.headings)
        if block.level == 2:
            last = pieces[-1]
            width = self.column - indent

            def underlined(x: float, y: float, d=last.draw, h=last.height) -> list:
                return d(x, y) + [Line(x + indent, y + h + 0.3, x + indent + width, y + h + 0.3, ACCENT, 0.35)]

            pieces[-1] = Piece(last.height + 1.2, underlined, last.space_before, source=block.source)
        for piece in pieces:
            piece.keep_with_next = True
        return pieces

    def _title(self, block: Heading, size: float) -> Piece:
        lines = wrap_spans(block.spans, self.full, size, self.headings, True)
        line_h = size * PT_TO_MM * 1.3
        height = line_h * len(lines) + 7.0

        def draw(x, y):
            items = []
            for n, runs in enumerate(lines):
                items += draw_runs(runs, x, y + line_h * n + size * PT_TO_MM * 0.95, size, ACCENT, force_bold=True,
                                   typeface=self.headings)
            rule_y = y + line_h * len(lines) + 1.5
            items.append(Line(x, rule_y, x + self.full, rule_y, ACCENT, 0.7))
            return items
        return Piece(height, draw, full_width=True, source=block.source)

    def list(self, block: ListBlock, indent: float) -> list[Piece]:
        pieces = []
        numbers = [f"{block.start + i}." for i in range(len(block.items))]
        marker_width = ((max(text_width_mm(n, BODY_PT, self.body.face(Span("")).name) for n in numbers) + 1.8) if block.ordered
                        else INDENT)
        for i, item in enumerate(block.items):
            marker = numbers[i] if block.ordered else "•"
            first = True
            for sub in item:
                if isinstance(sub, Paragraph) and first:
                    pieces += self.lines(sub.spans, sub.source, indent, PARAGRAPH_GAP * 0.5 if i else PARAGRAPH_GAP,
                                         marker=marker, marker_width=marker_width, justify=True)
                elif isinstance(sub, Paragraph):
                    pieces += self.lines(sub.spans, sub.source, indent + marker_width, PARAGRAPH_GAP * 0.5,
                                         justify=True)
                else:
                    inner = self.block(sub, indent + marker_width)
                    if inner and not isinstance(sub, (Table, Picture)):
                        inner[0].space_before = min(inner[0].space_before, PARAGRAPH_GAP * 0.5)
                    pieces += inner
                first = False
        return pieces

    def note(self, block: Note, indent: float) -> builtins.list[Piece]:
        """A tinted band with a bar on its left, drawn piece by piece so a note can run on into the next column."""
        inner = self.blocks(block.blocks, indent + NOTE_PAD + 0.8)
        width = self.column - indent
        out = []
        for n, piece in enumerate(inner):
            top = 1.2 if n == 0 else piece.space_before  # inside the band, the gap is tinted too
            bottom = 1.2 if n == len(inner) - 1 else 0.0
            height = top + piece.height + bottom

            def draw(x, y, piece=piece, top=top, height=height):
                return [Rect(x + indent, y, width, height, NOTE_FILL),
                        Rect(x + indent, y, 0.8, height, ACCENT)] + piece.draw(x, y + top)
            out.append(Piece(height, draw, PARAGRAPH_GAP if n == 0 else 0.0, piece.keep_with_next, source=piece.source))
        return out

    # ------------------------------------------------------------------ tables
    def table(self, block: Table, indent: float) -> builtins.list[Piece]:
        for row in [block.header, *block.rows]:
            for cell in row:
                _check_glyphs(cell, block.source, self.on_print_problem, self.body)
        available = self.column - indent
        widths = column_widths([block.header, *block.rows], available, block.source, typeface=self.body)
        header = self._row(block.header, widths, block.align, indent, header=True, source=block.source)
        pieces = [header]
        for n, row in enumerate(block.rows):
            piece = self._row(row, widths, block.align, indent, last=(n == len(block.rows) - 1), source=block.source)
            piece.header = header
            # a short table moves whole; a long one breaks between rows, never leaving one row alone
            piece.keep_with_next = len(block.rows) <= SHORT_TABLE or n == 0 or n == len(block.rows) - 2
            pieces.append(piece)
        pieces[-1].keep_with_next = False
        header.space_before = PARAGRAPH_GAP + 0.6
        header.keep_with_next = True
        return pieces

    def _row(self, cells, widths, align, indent, header=False, last=False, source=None) -> Piece:
        size = TABLE_PT
        line_h = size * PT_TO_MM * TABLE_LEADING
        wrapped = [wrap_spans(cell, w - 2 * CELL_PAD_X, size, self.body, header) for cell, w in zip(cells, widths)]
        height = max(len(lines) for lines in wrapped) * line_h + 2 * CELL_PAD_Y
        total = sum(widths)

        def draw(x, y):
            x0 = x + indent
            items = []
            if header:
                items.append(Rect(x0, y, total, height, HEADER_FILL))
                items.append(Line(x0, y, x0 + total, y, INK, 0.35))
            cx = x0
            for lines, w, how in zip(wrapped, widths, align):
                for n, runs in enumerate(lines):
                    baseline = y + CELL_PAD_Y + n * line_h + (line_h - size * PT_TO_MM) / 2 + size * PT_TO_MM * 0.88
                    items += draw_runs(runs, cx + CELL_PAD_X, baseline, size, INK, how, w - 2 * CELL_PAD_X,
                                       force_bold=header, typeface=self.body)
                cx += w
            bottom = y + height
            items.append(Line(x0, bottom, x0 + total, bottom, INK if (header or last) else RULE_INK,
                              0.35 if (header or last) else 0.15))
            return items
        return Piece(height, draw, source=source)

    # ------------------------------------------------------------------ pictures
    def picture(self, block: Picture, indent: float) -> builtins.list[Piece]:
        faces = shown_faces(self.pictures(block), block.faces)
        if not faces:
            return []
        for form in faces:
            register(self.forms, form)
        available = self.column - indent
        face_w = max(f.box[2] for f in faces)
        face_h = max(f.box[3] for f in faces)
        # no bigger than PICTURE_SIZE (half a card; a token or die at real size), in rows of up to
        # PICTURE_ROW faces, as even as they come
        rows_needed = -(-len(faces) // PICTURE_ROW)
        per_row = -(-len(faces) // rows_needed)
        largest = FILE_PICTURE_MM if block.file else PICTURE_SIZE
        if block.example is not None:   # a rule example: as wide as the column, no taller than EXAMPLE_HEIGHT
            largest = max(face_w, face_h) * EXAMPLE_HEIGHT / face_h
        scale = min(1.0, largest / max(face_w, face_h),
                    (available - (per_row - 1) * PICTURE_GAP) / (per_row * face_w))
        rows = [faces[i:i + per_row] for i in range(0, len(faces), per_row)]
        pieces = []
        for r, row in enumerate(rows):
            row_w = len(row) * face_w * scale + (len(row) - 1) * PICTURE_GAP

            def draw(x, y, row=row, row_w=row_w):
                items = []
                fx = x + indent + (available - row_w) / 2
                for form in row:
                    bx, by, _, _ = form.box
                    items.append(Group((Use(form.name, 0.0, 0.0),), fx - bx * scale, y - by * scale, 0.0, scale))
                    # a hairline frame: white tokens and dice must not vanish into the paper
                    items.append(Rect(fx, y, form.box[2] * scale, form.box[3] * scale, None, RULE_INK, 0.15))
                    fx += face_w * scale + PICTURE_GAP
                return items
            pieces.append(Piece(face_h * scale, draw, PARAGRAPH_GAP if r == 0 else PICTURE_GAP, source=block.source))
        if block.caption:  # centred under the picture
            pieces += self.lines((Span(block.caption),), block.source, indent, 1.0, size=TABLE_PT, color="#4a4a4a",
                                 align="center")
        for piece in pieces[:-1]:
            piece.keep_with_next = True
        return pieces


def shown_faces(faces: list, limit: int | None) -> list:
    """The faces a picture shows: the first ``limit``, or at most PICTURE_FACES."""
    return faces[:PICTURE_FACES if limit is None else limit]


def column_widths(rows: list[list[Spans]], available: float, source: Source | None,
                  size: float = TABLE_PT, typeface: Typeface | None = None) -> list[float]:
    """Widths that fill ``available``: natural widths if they fit, else shared out above each minimum.

    A column's minimum is its widest unbreakable piece (a Latin word, or one
    kana with the punctuation glued to it), so wrapping never splits a word.
    """
    typeface = typeface or faces_of(None)
    count = max(len(row) for row in rows)
    natural = [2 * CELL_PAD_X] * count
    minimum = [2 * CELL_PAD_X] * count
    for r, row in enumerate(rows):
        style = _bold(typeface, r == 0)  # the first row is the header, printed bold
        for c, cell in enumerate(row):
            longest, widest_piece = richtext.natural_widths(cell, size, style)
            natural[c] = max(natural[c], longest + 2 * CELL_PAD_X)
            minimum[c] = max(minimum[c], widest_piece + 2 * CELL_PAD_X)
    if sum(minimum) > available + 1e-6:
        raise BuildError(source, f"a table of {count} columns needs {sum(minimum):.0f} mm but the column is "
                                 f"{available:.0f} mm wide", "use fewer columns or shorter words in it")
    if sum(natural) <= available:
        # a small table (a few numbers) is not stretched across the column
        target = min(available, max(sum(natural) * 1.5, available * 0.6))
        return [w * target / sum(natural) for w in natural]
    # narrow columns keep their natural width (a kind, a count); only the wide ones wrap
    widths = [0.0] * count  # every column's is set below
    remaining, open_columns = available, list(range(count))
    while open_columns:
        share = remaining / len(open_columns)
        fitting = [c for c in open_columns if natural[c] <= share]
        if not fitting:
            break
        for c in fitting:
            widths[c] = natural[c]
            remaining -= natural[c]
            open_columns.remove(c)
    floor = sum(minimum[c] for c in open_columns)
    wanted = sum(natural[c] - minimum[c] for c in open_columns) or 1.0
    for c in open_columns:
        widths[c] = minimum[c] + (remaining - floor) * (natural[c] - minimum[c]) / wanted
    return widths

