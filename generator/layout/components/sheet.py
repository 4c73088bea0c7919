"""Sheets: score pads and player aids, drawn as a column of blocks on paper.

A sheet is a list of blocks, each one of
- ``heading: {text, latin}`` — a title;
- ``text: …`` — a paragraph (wrapped with the card text rules, Japanese line breaking);
- ``list: {items: [{title, text}], numbered: true}`` — e.g. a turn summary or the four officials;
- ``table: {table: <name in tables:>, header: [{name, latin}, {name, latin}]}`` — a
  game table (route scoring…) read from the model, so its figures are typed once;
- ``legend: {component: <id> or [<id>, …]}`` — the faces of token, tile or die sets at real size,
  each with its caption (a die's ``labels:``, a face's text or colour);
- ``score: {rows: [{name, latin, color?, sign?}], total: {name, latin}, players: N, games: M}``
  — a score grid, one column per player, repeated ``games`` times (by default as
  many times as the paper holds).

``format: page`` fills the paper; ``format: half`` prints two copies per
page (cut on the dashed line); ``format: card`` makes a duplex card, as the
published games' player aids are: ``size:`` is a deck's id (its size and bleed)
or ``[width, height]`` mm, ``blocks:`` its front and ``back:`` its back, both set
smaller (``CARD_SCALE``) and printed on card sheets with crop marks, each front
with its back behind it (the decks' ``duplex_sheets``). ``copies:`` is the count
the build checks against ``expected:``.
"""
from __future__ import annotations

from dataclasses import dataclass

from generator.errors import BuildError, ContentError, did_you_mean
from generator.fonts import PT_TO_MM, Typeset, missing_glyphs
from generator.layout import richtext
from generator.layout import text as textfit
from generator.layout.cardface import FaceRenderer
from generator.layout.components.kind import KINDS, Output, register
from generator.layout.primitives import Document, Form, Group, Line, Page, Rect, Text, Use
from generator.layout.sheets import PAPERS, duplex_sheets, paper_name
from generator.model.components import Component
from generator.model.game import Card, CardGeometry, Game

MARGIN = 12.0     # mm around the sheet's content (outside the printer's 5 mm)
GAP = 5.0         # mm between blocks
INK = "#222222"
RULE = "#555555"
HEAD_FILL = "#e9e4d8"
LABEL_SHARE = 0.42  # of the width, for a score grid's row labels
CARD_SCALE = 0.78   # a card-sized aid is set at 78 %: 9 pt text prints at 7 pt, as on the published aids
CARD_MARGIN = 4.0   # mm from a card's trim to its text (the decks' safe area is 3 mm)
CARD_BLEED = 0.0    # mm of bleed of a card sized in mm: its pale ground needs none, and 63 × 88 mm cards go 9 to A4
CARD_PAPER = "#fbf8f1"  # a card's ground, to its bleed edge

_NAMED = {"type": "object", "additionalProperties": False, "required": ["name"],
          "properties": {"name": {"type": "string"}, "latin": {"type": "string"}, "color": {"type": "string"},
                         "sign": {"enum": ["+", "-"]}}}
_BLOCK = {
    "description": "a block is one key: heading, text, list, table, legend or score",
    "type": "object", "minProperties": 1, "maxProperties": 1,
    "properties": {
        "heading": {"type": "object", "additionalProperties": False, "required": ["text"],
                    "properties": {"text": {"type": "string"}, "latin": {"type": "string"}}},
        "text": {"type": "string"},
        "list": {"type": "object", "additionalProperties": False, "required": ["items"],
                 "properties": {"numbered": {"type": "boolean"},
                                "items": {"type": "array", "minItems": 1, "items": {
                                    "type": "object", "additionalProperties": False, "required": ["text"],
                                    "properties": {"title": {"type": "string"}, "text": {"type": "string"}}}}}},
        "table": {"type": "object", "additionalProperties": False, "required": ["table", "header"],
                  "properties": {"table": {"type": "string"},
                                 "header": {"type": "array", "items": _NAMED, "minItems": 2, "maxItems": 2}}},
        "legend": {"type": "object", "additionalProperties": False, "required": ["component"],
                   "properties": {"component": {"oneOf": [{"type": "string"},
                                                          {"type": "array", "items": {"type": "string"}, "minItems": 1}]}}},
        "score": {"type": "object", "additionalProperties": False, "required": ["rows", "players"],
                  "properties": {"rows": {"type": "array", "items": _NAMED, "minItems": 1},
                                 "total": _NAMED, "players": {"type": "integer", "minimum": 1, "maximum": 8},
                                 "games": {"type": "integer", "minimum": 1, "maximum": 6}}},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class SheetOptions:
    """A sheet's own keys, typed once by ``SheetKind.read``."""

    format: str       # page, half (two copies per page) or card (duplex, ``size``)
    blocks: tuple     # (block kind, value, Source) per block, in order
    title: str
    subtitle: str
    back: tuple = ()  # a card's back: blocks as above
    card: CardGeometry | None = None   # format: card — its trim size and bleed
    frame: str = RULE                   # format: card — the colour of its frame and title band


class SheetKind:
    name = "sheet"
    unit = "sheets"
    label_key = "kind.sheet"
    papers_checked: tuple[str, ...] = ("letter", "a4")   # it fills its page: Letter, the shorter, first
    pictured = False                    # a page, not a piece: no SVG faces, no picture() in rules, no legend
    outlined_in_legend = False
    print_order = 4
    one_sided = False
    checks: frozenset[str] = frozenset()
    rules_helpers: frozenset[str] = frozenset()
    schema = {
        "properties": {
            "format": {"enum": ["page", "half", "card"]},
            "size": {"description": "format: card — a deck's id (its size and bleed), or [width, height] in mm",
                     "oneOf": [{"type": "string"},
                               {"type": "array", "items": {"type": "number", "minimum": 30, "maximum": 150},
                                "minItems": 2, "maxItems": 2}]},
            "color": {"type": "string", "description": "format: card — the colour of its frame and title band"},
            "copies": {"type": "integer", "minimum": 1},
            "title": {"type": "string"}, "subtitle": {"type": "string"},
            "blocks": {"type": "array", "items": _BLOCK, "minItems": 1},
            "back": {"type": "array", "items": _BLOCK, "minItems": 1,
                     "description": "format: card — the blocks of the card's back"},
        },
        "required": ["blocks"],
    }

    def read(self, component: Component[SheetOptions], spec, resolver, game: Game) -> None:
        fmt = spec.get("format", "page")
        for key in ("size", "back", "color"):
            if key in spec and fmt != "card":
                raise ContentError(spec.src(key), f"sheet '{component.id}' has `{key}:`, which only a card has",
                                   "add `format: card`, or remove it")
        card, frame = None, RULE
        if fmt == "card":
            if "size" not in spec:
                raise ContentError(spec.src("format"), f"sheet '{component.id}' is a card but has no `size:`",
                                   "add `size: <deck id>` (that deck's size) or `size: [63, 88]` (mm)")
            card = self._card_size(component, spec, game)
            if "color" in spec:
                frame = resolver.value(spec["color"], "color", spec.src("color"), f"the frame of '{component.id}'").hex
        blocks = self._blocks(component, spec, "blocks", game, resolver)
        back = self._blocks(component, spec, "back", game, resolver) if "back" in spec else ()
        component.options = SheetOptions(format=fmt, blocks=blocks,
                                         title=spec.get("title", component.name),
                                         subtitle=spec.get("subtitle", component.latin),
                                         back=back, card=card, frame=frame)
        component.faces = [Card(component, 0, {}, spec.get("copies", 1), spec.src("blocks"))]

    @staticmethod
    def _card_size(component, spec, game: Game) -> CardGeometry:
        """A card aid's geometry: a deck's (its size, bleed and safe area) or ``[width, height]`` mm."""
        size = spec["size"]
        if isinstance(size, str):
            deck = game.decks.get(size)
            if deck is None:
                raise ContentError(spec.src("size"), f"sheet '{component.id}' takes the size of deck '{size}', "
                                                     "which the game lacks",
                                   did_you_mean(size, game.decks) or "decks: " + ", ".join(game.decks))
            return deck.geometry
        return CardGeometry(float(size[0]), float(size[1]), CARD_BLEED, CARD_MARGIN)

    def _blocks(self, component, spec, key, game: Game, resolver) -> tuple:
        blocks = []
        for i, block in enumerate(spec[key]):
            src = spec[key].src(i)
            kind, value = next(iter(block.items()))
            if kind == "table" and value["table"] not in game.tables:
                raise ContentError(src, f"sheet '{component.id}' shows table '{value['table']}', which the game lacks",
                                   did_you_mean(value["table"], game.tables)
                                   or "define it under `tables:` (the figures live there, typed once)")
            if kind == "legend":
                value = {"components": [value["component"]] if isinstance(value["component"], str)
                         else list(value["component"])}
                others = game.sections.get("components", {})
                pieces = [k for k, (v, _) in others.items() if _pictured(v.get("kind"))]
                for name in value["components"]:
                    if name not in pieces:
                        raise ContentError(src, f"sheet '{component.id}' shows the faces of '{name}', "
                                                f"which is no {_pictured_kinds()} of this game",
                                           did_you_mean(name, pieces) or "pieces: " + ", ".join(pieces))
            if kind == "score":
                value = dict(value, rows=[self._row(r, src, resolver, component.id) for r in value["rows"]])
            blocks.append((kind, value, src))
        return tuple(blocks)

    @staticmethod
    def _row(row, src, resolver, cid):
        row = dict(row)
        if "color" in row:
            row["color"] = resolver.value(row["color"], "color", src, f"a score row of '{cid}'")
        return row

    # ------------------------------------------------------------------ drawing
    def faces(self, game: Game, component: Component[SheetOptions], renderer: FaceRenderer) -> list[Form]:
        if component.options.format == "card":
            return list(self.card_forms(game, component, renderer))
        return [self._form(game, component, renderer, "a4")]

    def legend(self, game: Game, component: Component[SheetOptions], renderer: FaceRenderer) -> list[tuple[Form, str]]:
        """None: a sheet is a page, not a piece (``pictured`` is False), so no legend shows it."""
        return []

    def _form(self, game: Game, component: Component[SheetOptions], renderer: FaceRenderer, paper: str) -> Form:
        """One copy of the sheet: the page, or its top half with ``format: half``."""
        width, height = PAPERS[paper]
        if component.options.format == "half":
            height /= 2
        # named by its paper: the cover's picture shows the A4 sheet beside a Letter build's own
        name = f"{component.id}-sheet" if paper == "a4" else f"{component.id}-sheet-{paper}"
        return Form(name, tuple(self.draw(game, component, width, height, renderer, paper)), (0, 0, width, height))

    def card_forms(self, game: Game, component: Component[SheetOptions], renderer: FaceRenderer) -> tuple[Form, Form]:
        """A card aid's front and back (trim box origin at 0, 0; the box adds the bleed), drawn at ``CARD_SCALE``."""
        opts = component.options
        g = opts.card
        assert g is not None   # format: card always has its geometry (read)
        forms = []
        for side, blocks in (("front", opts.blocks), ("back", opts.back)):
            items: list = [Rect(-g.bleed, -g.bleed, g.width + 2 * g.bleed, g.height + 2 * g.bleed, fill=CARD_PAPER)]
            s = CARD_SCALE
            drawn = self.draw(game, component, g.width / s, g.height / s, renderer, blocks=blocks,
                              margin=CARD_MARGIN / s, side=side)
            items.append(Group(tuple(drawn), 0.0, 0.0, scale=s))
            items += _card_frame(g, opts.frame)
            forms.append(Form(f"{component.id}-card-{side}", tuple(items), (-g.bleed, -g.bleed, g.width + 2 * g.bleed,
                                                                           g.height + 2 * g.bleed)))
        return forms[0], forms[1]

    def outputs(self, game: Game, component: Component[SheetOptions], renderer: FaceRenderer, paper: str) -> list[Output]:
        if component.options.format == "card":
            return [self._card_output(game, component, renderer, paper)]
        width, height = PAPERS[paper]
        form = self._form(game, component, renderer, paper)
        ch = form.box[3]
        doc = Document(f"{game.label} — {component.label}")
        doc.add_form(form)
        copies = component.count
        per_page = 2 if component.options.format == "half" else 1
        for start in range(0, copies, per_page):
            page = Page(width, height, label=f"{component.id} {start // per_page + 1}")
            for k in range(min(per_page, copies - start)):
                page.items.append(Use(form.name, 0.0, k * ch))
            if per_page == 2:
                # cut here: the dashes stop at the printer's margin, where it would leave them off (PNP509)
                page.items.append(Line(game.printer_margin, ch, width - game.printer_margin, ch, RULE, 0.2, (2.0, 1.5)))
            doc.pages.append(page)
        return [Output(f"{component.id}.pdf", doc, component.label)]

    def _card_output(self, game: Game, component: Component[SheetOptions], renderer: FaceRenderer,
                     paper: str) -> Output:
        """Card sheets as a deck's: fronts, then their backs mirrored for long-edge duplex, with crop marks."""
        front, back = self.card_forms(game, component, renderer)
        doc = Document(f"{game.label} — {component.label}")
        doc.add_form(front)
        doc.add_form(back)
        copies = component.count
        assert component.options.card is not None
        doc.pages = duplex_sheets([front.name] * copies, [back.name] * copies, component.options.card, paper,
                                  game.back_offset, component.id, component.source, game.printer_margin,
                                  game.home_bleed)
        return Output(f"{component.id}.pdf", doc, component.label)

    def draw(self, game: Game, component: Component[SheetOptions], width: float, height: float,
             renderer: FaceRenderer | None = None, paper: str = "a4", blocks: tuple | None = None,
             margin: float = MARGIN, side: str = "") -> list:
        """The sheet's items in a box of ``width`` × ``height`` mm (``blocks``: the front's by default).

        Content that runs off the bottom, or characters the font lacks, stop the
        build — or, when the renderer collects print problems (the checker,
        ``build --force``), are reported to it and drawn anyway. ``side`` names a
        card's side (front or back): its box is drawn at ``CARD_SCALE``.
        """
        report = renderer.on_print_problem if renderer is not None else None
        faces = renderer or FaceRenderer(game)   # draws the pieces a legend block shows
        blocks = component.options.blocks if blocks is None else blocks

        def problem(kind, error):
            if report is None:
                raise error
            report(kind, error)

        x, w = margin, width - 2 * margin
        items: list = []
        y = margin
        if side:   # a card: the title reversed out of a band of the card's colour, to the bleed edge
            bleed = component.options.card.bleed / CARD_SCALE if component.options.card else 0.0
            y = _title(items, game.typeset, component.options.title, component.options.subtitle, "", x, y - margin / 2,
                       w, component.options.frame, bleed)
        else:
            y = _title(items, game.typeset, component.options.title, component.options.subtitle, game.label, x, y, w)
        overflow = None
        for kind, value, src in blocks:
            y += GAP
            start = len(items)
            y = DRAW[kind](items, value, game, x, y, w, src, height - margin, faces)
            if overflow is None and y > height - margin + 1e-6:
                overflow = src
            for item in items[start:]:
                missing = missing_glyphs(item.text, item.font) if isinstance(item, Text) else None
                if missing:
                    problem("glyph", BuildError(src, f"sheet '{component.id}': the font has no glyph for "
                                                     f"{' '.join(missing)} in {item.text!r}",
                                                "replace those characters; they would print as empty boxes"))
        if overflow is not None:
            if side:
                scale = CARD_SCALE
                problem("overflow", BuildError(
                    overflow, f"card '{component.id}' needs {(y + margin) * scale:.0f} mm on its {side} but is "
                              f"{height * scale:.0f} mm tall; this block runs off the bottom",
                    "shorten this block or the ones before it, move a block to the other side "
                    "(blocks: is the front, back: the back), or give the card a larger size:"))
            else:
                half = component.options.format == "half"
                problem("overflow", BuildError(
                    overflow, f"sheet '{component.id}' needs {y + margin:.0f} mm but its {'half ' if half else ''}page "
                              f"is {height:.0f} mm tall on {paper_name(paper)}; "
                              f"this block runs off the bottom",
                    "shorten this block or the ones before it" + (", or use format: page" if half else
                                                                 ", or split the sheet in two components")))
        return items


def _card_frame(g: CardGeometry, color: str) -> list:
    """A card aid's frame: a thin rule inside the trim, in the card's colour (a cut a little off stays clean)."""
    inset = 1.6
    return [Rect(inset, inset, g.width - 2 * inset, g.height - 2 * inset, stroke=color, stroke_width=0.5, radius=1.5)]


# ---------------------------------------------------------------------- blocks

def _lines(items, ts: Typeset, text, x, y, w, size, bold=False, color=INK, leading=1.3, anchor="start") -> float:
    """Wrapped text from ``y`` (top) in the game's face ``ts`` gives it; returns the y below it."""
    face = ts.face(text, bold=bold)
    fitted = textfit.Fitted(tuple(textfit.wrap(text, w, size, face.name) or [text]), size, size * PT_TO_MM * leading)
    tx = {"start": x, "middle": x + w / 2, "end": x + w}[anchor]
    items += fitted.texts(tx, y, anchor, color, face.fake_bold, face.name)
    return y + fitted.height + size * PT_TO_MM * 0.35


def _rich(items, game, text, x, y, w, size, bold=False, color=INK, leading=1.3) -> float:
    """A designer's paragraph with rich text (``**bold**``, ``*italic*``, ``[red]…[/]``, ``:icon:``), wrapped
    like card text from ``y`` (top); returns the y below it. Text without markup is laid out by ``_lines``,
    exactly as before (its face falls back per text; a rich run's missing glyph is a finding, as on cards)."""
    spans = richtext.parse(str(text), richtext.markup_of(game))
    if richtext.is_plain(spans):
        return _lines(items, game.typeset, "".join(s.text for s in spans), x, y, w, size, bold, color, leading)
    typeface = richtext.Typeface.of(None, game.fonts, bold=bold)
    lines = richtext.wrap(spans, w, size, typeface) or richtext.wrap_anywhere(spans, w, size, typeface)
    cap, line_height = textfit.cap_height(size), size * PT_TO_MM * leading
    for i, runs in enumerate(lines):
        items += richtext.draw_line(runs, x, y + cap + i * line_height, size, color, "left", w, typeface)
    return y + cap + line_height * (len(lines) - 1) + size * PT_TO_MM * 0.35


def _title(items, ts: Typeset, title, subtitle, game_label, x, y, w, band: str | None = None, bleed: float = 0.0) -> float:
    """The sheet's title, latin subtitle and game name; ``band``: a card's title reversed out of a band of that
    colour, which runs to the card's bleed edge."""
    start = len(items)
    ink, sub = ("#ffffff", "#f3efe6") if band else (INK, "#555555")
    y = _lines(items, ts, title, x, y, w, 16, bold=True, color=ink)
    if subtitle and subtitle != title:
        y = _lines(items, ts, subtitle, x, y + 1, w, 9, color=sub)
    if game_label:   # a card aid leaves the game's name off: it is in the box with the game
        y = _lines(items, ts, game_label, x, y + 0.5, w, 7, color="#777777")
    if band:
        items.insert(start, Rect(-bleed, -bleed, x * 2 + w + 2 * bleed, y + 1.5 + bleed, fill=band))
        return y + 1.5
    items.append(Line(x, y + 1.5, x + w, y + 1.5, INK, 0.4))
    return y + 1.5


def _heading(items, value, game, x, y, w, src, bottom, renderer) -> float:
    y = _rich(items, game, value["text"], x, y, w, 12, bold=True)
    if value.get("latin"):
        y = _lines(items, game.typeset, value["latin"], x, y + 0.5, w, 8, color="#555555")
    return y


def _text(items, value, game, x, y, w, src, bottom, renderer) -> float:
    return _rich(items, game, value, x, y, w, 9)


def _list(items, value, game, x, y, w, src, bottom, renderer) -> float:
    indent = 7.0
    for n, item in enumerate(value["items"], start=1):
        mark = f"{n}." if value.get("numbered") else "•"
        items.append(textfit.bold_text(game.typeset, x + indent - 2, y + textfit.cap_height(9), mark, 9, INK, "end"))
        if item.get("title"):
            y = _rich(items, game, item["title"], x + indent, y, w - indent, 9.5, bold=True)
            y += 0.6
        y = _rich(items, game, item["text"], x + indent, y, w - indent, 9) + 1.8
    return y


def _cell(items, ts: Typeset, text, x, y, w, h, size=9, bold=False, anchor="middle", fill=None, color=INK):
    if fill:
        items.append(Rect(x, y, w, h, fill=fill))
    # too long even at 5 pt: drawn at 5 pt on one line (the sheet's overflow check reports what runs off)
    face = ts.face(str(text), bold=bold)
    fitted = (textfit.fit(str(text), w - 2, h - 0.8, size, 5, font=face.name) or
              textfit.Fitted((str(text),), 5, 5 * PT_TO_MM * 1.2))
    tx = {"start": x + 1.5, "middle": x + w / 2, "end": x + w - 1.5}[anchor]
    items += fitted.texts(tx, y + (h - fitted.height) / 2, anchor, color, face.fake_bold, face.name)


def _named(value) -> str:
    return f"{value['name']} / {value['latin']}" if value.get("latin") else value["name"]


def _table(items, value, game, x, y, w, src, bottom, renderer) -> float:
    """A game table drawn across: the keys on the first row, the values under them."""
    table = game.tables[value["table"]]
    keys = list(table)
    head = value["header"]
    label_w = min(38.0, w * 0.3)
    col_w = (w - label_w) / len(keys)
    row_h = 8.0
    for r, (label, cells) in enumerate(((head[0], keys), (head[1], [table[k] for k in keys]))):
        ry = y + r * row_h
        _cell(items, game.typeset, _named(label), x, ry, label_w, row_h, 8, True, "start", HEAD_FILL)
        for c, cell in enumerate(cells):
            _cell(items, game.typeset, cell, x + label_w + c * col_w, ry, col_w, row_h, 11, r == 1,
                  fill=HEAD_FILL if r == 0 else None)
    _grid(items, x, y, [label_w] + [col_w] * len(keys), [row_h, row_h])
    return y + 2 * row_h


def _score(items, value, game, x, y, w, src, bottom, renderer) -> float:
    players = value["players"]
    rows = list(value["rows"]) + ([dict(value["total"], total=True)] if value.get("total") else [])
    label_w = w * LABEL_SHARE
    col_w = (w - label_w) / players
    head_h, row_h = 9.0, 9.5
    grid_h = head_h + row_h * len(rows)
    # without games:, as many grids as the paper holds (A4 and Letter differ), at least one
    games = value.get("games") or max(1, int((bottom - y + GAP) // (grid_h + GAP)))
    for g in range(games):
        if g:
            y += GAP
        _cell(items, game.typeset, game.words["sheet.player"], x, y, label_w, head_h, 8, True, "start", HEAD_FILL)
        for p in range(players):
            items.append(Rect(x + label_w + p * col_w, y, col_w, head_h, fill="#f6f3ec"))
        for r, row in enumerate(rows):
            ry = y + head_h + r * row_h
            text = _named(row)
            if row.get("sign"):
                text = f"({row['sign']}) {text}"
            pad = 0.0
            if row.get("color") is not None:
                items.append(Rect(x + 1.5, ry + 2.5, 4.5, row_h - 5, fill=row["color"].hex, stroke=INK, stroke_width=0.15))
                pad = 5.5
            _cell(items, game.typeset, text, x + pad, ry, label_w - pad, row_h, 8.5, bool(row.get("total")), "start",
                  HEAD_FILL if row.get("total") else None)
        heights = [head_h] + [row_h] * len(rows)
        _grid(items, x, y, [label_w] + [col_w] * players, heights)
        if value.get("total"):
            ty = y + head_h + (len(rows) - 1) * row_h
            items.append(Line(x, ty, x + w, ty, INK, 0.6))
        y += sum(heights)
    return y


def _legend(items, value, game, x, y, w, src, bottom, renderer) -> float:
    """A row (or rows) of a component's faces at real size, each with its caption under it."""
    # the sheet's renderer: under build --force and in the checker a piece's text problem is reported
    # (once, as the piece's own), not raised again from the sheet that pictures it
    entries = [(game.parts[name], form, caption) for name in value["components"]
               for form, caption in KINDS[game.parts[name].kind].legend(game, game.parts[name], renderer)]
    gap, caption_h = 5.0, 5.0
    cx, row_top, row_h = x, y, 0.0
    for part, form, caption in entries:
        fx, fy, fw, fh = form.box
        tw, th = fw + 2 * fx, fh + 2 * fy   # the trim size (the box adds the bleed on both sides)
        cell_w = max(tw, min(game.typeset.width(caption, 8), 3 * tw))
        if cx > x and cx + cell_w > x + w:
            cx, row_top = x, row_top + row_h + gap
            row_h = 0.0
        left = cx + (cell_w - tw) / 2
        items.append(Group(form.items, left, row_top))
        if KINDS[part.kind].outlined_in_legend:   # e.g. a die face: a square with no edge of its own
            items.append(Rect(left, row_top, tw, th, stroke="#bbbbbb", stroke_width=0.15))
        _lines(items, game.typeset, caption, cx, row_top + th + 1.0, cell_w, 8, anchor="middle")
        row_h = max(row_h, th + 1.0 + caption_h)
        cx += cell_w + gap
    return row_top + row_h


def _pictured(kind_name) -> bool:
    """Whether a legend block may show components of this kind (pieces, not pages)."""
    kind = KINDS.get(kind_name)
    return kind is not None and kind.pictured


def _pictured_kinds() -> str:
    """The kinds a legend block shows, for messages: "token, tile or die"."""
    names = [kind.name for kind in sorted(KINDS.values(), key=lambda k: k.print_order) if kind.pictured]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


def _grid(items, x, y, widths, heights):
    total_w, total_h = sum(widths), sum(heights)
    cy = y
    for h in [0.0] + heights:
        cy += h
        items.append(Line(x, cy, x + total_w, cy, RULE, 0.25))
    cx = x
    for wdt in [0.0] + widths:
        cx += wdt
        items.append(Line(cx, y, cx, y + total_h, RULE, 0.25))


DRAW = {"heading": _heading, "text": _text, "list": _list, "table": _table, "score": _score, "legend": _legend}

SHEET = register(SheetKind())
