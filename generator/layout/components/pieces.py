"""Tokens and tiles: small flat pieces, cut from sheets like cards.

A piece set is a mini deck: distinct faces with counts, drawn by a card
layout (``templates/layouts/token.yaml``, ``tile.yaml`` or the game's own),
imposed with the card sheets' grid and crop marks. Two-sided pieces print
either duplex (backs mirrored for long-edge duplex, exactly like card backs)
or as fold-over strips (front above, back turned below a dashed fold line,
one-sided paper). Tiles differ from tokens only in their defaults and in that
each copy of a stack usually carries its own value (``values: [4, 3, 2, 1]``).

Content, as a designer types it::

    passengers:
      kind: token
      name: 乗客コマ
      expected: 60
      shape: circle
      size: 16
      sides: 2
      colors: [blue, red, green, yellow, black, white]
      count_each: 10
      face: {icon: passenger}
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, cast

from generator import limits
from generator.errors import ContentError, Source, did_you_mean
from generator.layout.cardface import FaceRenderer
from generator.layout.components.kind import Output, register
from generator.layout.icons import ICONS
from generator.layout.primitives import Document, Form, Group, Line, Page, distinct_forms
from generator.layout.sheets import PRINTER_MARGIN, duplex_sheets, simplex_sheets
from generator.model.components import Component, counted_faces, piece_geometry
from generator.model.game import Card, CardGeometry, Game, Side
from generator.yamlsource import LDict

#: what a face may say, with its type (resolved like deck fields)
FACE_FIELDS = {
    "color": "color", "icon": "text", "title": "text", "text": "text", "latin": "text", "value": "int",
    "values": "list of int", "areas": "list of area", "cities": "list of text", "city_count": "int", "note": "text",
    # a route-length tile: settling a route of this many cities takes it (``or_longer``: this many or more)
    "route_length": "int", "or_longer": "bool",
}
BACK_FIELDS = ("layout", "color", "icon", "title", "text", "latin")
FOLD_LINE = "#808080"

_FACE_SCHEMA = {"type": "object", "additionalProperties": False,
                "properties": {**{k: {} for k in FACE_FIELDS}, "count": {"type": "integer", "minimum": 1}}}


@dataclass(frozen=True)
class PieceOptions:
    """A token or tile set's own keys, typed once by ``PieceKind.read``."""

    shape: str                # circle, square or rect
    sides: int                # 1 or 2
    print: str | None         # duplex or fold (two-sided), None (one-sided)
    layout: str               # the front layout
    same_back: bool           # the back is the front again (``back: same``)
    back: Side                # the back's layout and values
    layout_source: Source     # where the front layout is named (``layout:``, else ``kind:``)
    per_player: bool          # one colour (face) per player


@dataclass(frozen=True)
class PieceKind:
    name: str
    layout: str           # default front layout
    back_layout: str      # default back layout
    bleed: float
    safe: float
    unit: str
    label_key: str
    print_order: int
    checks: frozenset[str]
    rules_helpers: frozenset[str] = frozenset()

    papers_checked: ClassVar[tuple[str, ...]] = ("a4",)
    pictured: ClassVar[bool] = True
    outlined_in_legend: ClassVar[bool] = False
    one_sided: ClassVar[bool] = False

    @property
    def schema(self) -> dict:
        return {
            "properties": {
                "shape": {"enum": ["circle", "square", "rect"]},
                "size": {"description": "a number in mm (the diameter or side), or [width, height] with shape: rect",
                         "oneOf": [{"type": "number", "exclusiveMinimum": 0},
                                   {"type": "array", "items": {"type": "number", "exclusiveMinimum": 0},
                                    "minItems": 2, "maxItems": 2}]},
                "bleed": {"type": "number", "minimum": 0},
                "safe": {"type": "number", "minimum": 0},
                "sides": {"enum": [1, 2]},
                "print": {"enum": ["duplex", "fold"]},
                "layout": {"type": "string"},
                "back": {"description": "same (the front again), or {color, icon, title, text, latin, layout}",
                         "oneOf": [{"const": "same"},
                                   {"type": "object", "additionalProperties": False,
                                    "properties": {k: {"type": "string"} for k in BACK_FIELDS}}]},
                "colors": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "count_each": {"type": "integer", "minimum": 1},
                "per_player": {"type": "boolean", "description": "one colour (face) per player: the checker compares "
                                                                 "faces with the game's player count"},
                "face": {**_FACE_SCHEMA, "properties": {k: {} for k in FACE_FIELDS}},
                "faces": {"type": "array", "items": _FACE_SCHEMA, "minItems": 1},
            },
            "required": ["size"],
        }

    # ------------------------------------------------------------------ reading
    def read(self, component: Component[PieceOptions], spec, resolver, game: Game) -> None:
        cid = component.id
        shape = spec.get("shape", "square")
        size = spec["size"]
        if isinstance(size, list):
            width, height = float(size[0]), float(size[1])
        else:
            width = height = float(size)
        if not min(width, height) >= limits.MIN_PIECE_MM:   # 1e-300 mm passed the schema, then divided by zero
            raise ContentError(spec.src("size"), f"component '{cid}' is {size} mm: a side under {limits.MIN_PIECE_MM:g} "
                                                 f"mm cannot be cut out (limits.MIN_PIECE_MM)", "give its size in mm")
        if shape in ("circle", "square") and width != height:
            raise ContentError(spec.src("size"), f"a {shape} {self.name} of component '{cid}' needs one size, not {size}",
                               "give one number (the diameter or side in mm), or use shape: rect for [width, height]")
        sides = spec.get("sides", 1)
        mode = spec.get("print", "duplex")
        if "print" in spec and sides == 1:
            raise ContentError(spec.src("print"), f"component '{cid}' is one-sided, so `print: {mode}` means nothing",
                               "remove `print:`, or make it `sides: 2`")
        if "back" in spec and sides == 1:
            raise ContentError(spec.src("back"), f"component '{cid}' is one-sided but has a `back:`",
                               "make it `sides: 2`, or remove the back")
        back = spec.get("back", "same")
        back_vars = {k: None for k in BACK_FIELDS}
        back_source = spec.src()
        if isinstance(back, dict):
            back = cast(LDict, back)  # a mapping read from the YAML: it knows its lines
            back_source = back.src()
            back_vars.update(back)
            if "color" in back:
                back_vars["color"] = resolver.value(back["color"], "color", back.src("color"), f"the back of '{cid}'")
        component.options = PieceOptions(shape=shape, sides=sides, print=mode if sides == 2 else None,
                                         layout=spec.get("layout", self.layout), same_back=back == "same",
                                         back=Side(back_vars["layout"] or self.back_layout, back_vars, back_source),
                                         layout_source=spec.src("layout") if "layout" in spec else spec.src("kind"),
                                         per_player=bool(spec.get("per_player", False)))
        component.geometry = CardGeometry(width, height, float(spec.get("bleed", self.bleed)),
                                          float(spec.get("safe", self.safe)))
        component.faces = list(counted_faces(component, self._faces(component, spec, resolver)))

    def _faces(self, component: Component[PieceOptions], spec, resolver):
        cid = component.id
        defaults = spec.get("face", {})
        if "colors" in spec and "faces" in spec:
            raise ContentError(spec.src("colors"), f"component '{cid}' has both colors: and faces:",
                               "use colors: + count_each: for one face per colour, or list every face under faces:")
        if "colors" in spec:
            if "count_each" not in spec:
                raise ContentError(spec.src("colors"), f"component '{cid}' lists colors: but not count_each:",
                                   "add count_each: N (how many of each colour)")
            rows = [({"color": c, "count": spec["count_each"]}, spec["colors"].src(i))
                    for i, c in enumerate(spec["colors"])]
        elif "faces" in spec:
            if "count_each" in spec:
                raise ContentError(spec.src("count_each"), f"count_each: of component '{cid}' goes with colors:",
                                   "give each face its own count: instead")
            rows = [(row, spec["faces"].src(i)) for i, row in enumerate(spec["faces"])]
        else:
            raise ContentError(spec.src(), f"component '{cid}' has no faces",
                               "add colors: [..] with count_each: N, or faces: [{text: …, count: N}, …]")
        index = 0
        for row, src in rows:
            merged = {**defaults, **row}
            values = {name: None for name in FACE_FIELDS}
            for key, value in merged.items():
                if key == "count":
                    continue
                values[key] = resolver.value(value, FACE_FIELDS[key], src, f"component '{cid}' face {key}")
            if values["icon"] is not None and values["icon"] not in ICONS:
                raise ContentError(src, f"unknown icon '{values['icon']}' on component '{cid}'",
                                   did_you_mean(values["icon"], ICONS) or "icons: " + ", ".join(ICONS))
            count = merged.get("count", 1)
            copies = values.pop("values")
            if copies is None:
                yield Card(component, index, dict(values, copy=1, copies=1, stack=False), count, src)
                index += 1
                continue
            if "count" in merged or values["value"] is not None:
                raise ContentError(src, f"a face of '{cid}' with values: {copies} prints one copy per value",
                                   "remove count: and value: (the number of values is the count)")
            for copy, value in enumerate(copies, start=1):
                yield Card(component, index, dict(values, value=value, copy=copy, copies=len(copies), stack=True), 1, src)
                index += 1

    # ------------------------------------------------------------------ drawing
    def _context(self, game, component, face):
        return {"game": game, "deck": component, "geometry": component.geometry, "card": face,
                "back": component.options.back}

    def faces(self, game: Game, component: Component[PieceOptions], renderer: FaceRenderer) -> list[Form]:
        return distinct_forms(self._fronts(game, component, renderer))

    def assembly(self, component: Component[PieceOptions]) -> tuple[str, ...]:
        """Fold-over strips are folded and glued before they are cut; round pieces are cut round."""
        steps = ("pnp.step.fold",) if component.options.print == "fold" and component.options.sides == 2 else ()
        return steps + (("pnp.step.round",) if component.options.shape == "circle" else ())

    def supplies(self, component: Component[PieceOptions]) -> tuple[str, ...]:
        """Pieces want card stock (or the sheet glued onto card); fold-over strips want glue."""
        fold = component.options.print == "fold" and component.options.sides == 2
        return ("pnp.need.cardstock",) + (("pnp.need.glue",) if fold else ())

    def legend(self, game: Game, component: Component[PieceOptions], renderer: FaceRenderer) -> list[tuple[Form, str]]:
        """Each distinct face with a caption (its text, title or colour), for player aids."""
        out, seen = [], set()
        for face, form in zip(component.faces, self._fronts(game, component, renderer)):
            if form.name not in seen:
                seen.add(form.name)
                caption = face.get("text") or face.get("title") or (face.color.name if face.get("color") else "")
                out.append((form, str(caption).replace("\n", "")))
        return out

    def _fronts(self, game, component, renderer) -> list[Form]:
        return [self.front(game, component, face, renderer) for face in component.faces]

    def front(self, game: Game, component: Component[PieceOptions], face: Card, renderer: FaceRenderer) -> Form:
        """One face's front as drawn on its sheets (a rule example shows the tile a player takes)."""
        return renderer.face(component.options.layout, self._context(game, component, face), face.ref, face.source,
                             f"{component.id}-face", component.options.layout_source)

    def _backs(self, game, component, renderer) -> list[Form]:
        back = component.options.back
        return [renderer.face(back.layout, self._context(game, component, face), f"the back of {face.ref}",
                              back.source, f"{component.id}-back") for face in component.faces]

    def outputs(self, game: Game, component: Component[PieceOptions], renderer: FaceRenderer, paper: str) -> list[Output]:
        fronts = self._fronts(game, component, renderer)
        doc = Document(f"{game.label} — {component.label}")
        order = [face_form.name for face, face_form in zip(component.faces, fronts) for _ in range(face.count)]
        for form in fronts:
            doc.add_form(form)
        opts = component.options
        if opts.sides == 1:
            doc.pages = simplex_sheets(order, piece_geometry(component), paper, component.id, component.source,
                                       game.printer_margin)
        else:
            backs = fronts if opts.same_back else self._backs(game, component, renderer)
            back_order = [b.name for face, b in zip(component.faces, backs) for _ in range(face.count)]
            for form in backs:
                doc.add_form(form)
            if opts.print == "duplex":
                doc.pages = duplex_sheets(order, back_order, piece_geometry(component), paper, game.back_offset,
                                          component.id, component.source, game.printer_margin)
            else:
                doc.pages = fold_sheets(doc, order, back_order, piece_geometry(component), paper, component.id,
                                        component.source, game.printer_margin)
        return [Output(f"{component.id}.pdf", doc, component.label)]


def fold_sheets(doc: Document, fronts: list[str], backs: list[str], geometry: CardGeometry, paper: str,
                label: str, source: Source | None = None, margin: float = PRINTER_MARGIN) -> list[Page]:
    """Fold-over strips: each piece is its front with its back turned 180° below it, folded on the shared edge.

    Both halves are clipped at the fold, so neither half's bleed paints over the other.
    """
    g = geometry
    strip = CardGeometry(g.width, 2 * g.height, g.bleed, g.safe)
    pieces = []
    for front, back in zip(fronts, backs):
        top = doc.add_form(_clipped(doc.forms[front], g))
        bottom = doc.add_form(_turned(doc.forms[back], g))
        fold = doc.add_form(Form(f"fold-line-{g.width:g}", (Line(0, 0, g.width, 0, FOLD_LINE, 0.15, (1.0, 1.0)),),
                                 (0, -0.5, g.width, 1.0)))
        pieces.append(((top, 0.0, 0.0), (bottom, 0.0, g.height), (fold, 0.0, g.height)))
    return simplex_sheets(pieces, strip, paper, label, source, margin)


def _clipped(form: Form, g: CardGeometry) -> Form:
    """The front half: bleed on three sides, none past the fold (its bottom edge)."""
    return Form(f"{form.name}-fold-top", form.items, (-g.bleed, -g.bleed, g.width + 2 * g.bleed, g.height + g.bleed))


def _turned(form: Form, g: CardGeometry) -> Form:
    """The back half: the back turned 180° about its centre, no bleed past the fold (its top edge)."""
    return Form(f"{form.name}-turned", (Group(form.items, g.width, g.height, 180.0),),
                (-g.bleed, 0.0, g.width + 2 * g.bleed, g.height + g.bleed))


#: the checks every piece set gets: tile stacks (PNP802), one colour per player and equal sets (PNP805, PNP806)
PIECE_CHECKS = frozenset({"PNP802", "PNP805", "PNP806"})
#: and tiles: their areas and cities agree with the map (PNP803, PNP804, PNP810, PNP811)
MAP_TILE_CHECKS = frozenset({"PNP803", "PNP804", "PNP810", "PNP811"})

TOKEN = register(PieceKind("token", layout="token", back_layout="token-back", bleed=1.5, safe=1.0, unit="tokens",
                           label_key="kind.token", print_order=1, checks=PIECE_CHECKS))
TILE = register(PieceKind("tile", layout="tile", back_layout="tile-back", bleed=2.0, safe=1.5, unit="tiles",
                          label_key="kind.tile", print_order=2, checks=PIECE_CHECKS | MAP_TILE_CHECKS,
                          rules_helpers=frozenset({"stacks"})))
