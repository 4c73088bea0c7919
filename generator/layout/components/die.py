"""Dice: six vector faces, printed two ways.

- a paper net per die (the cross of ``dicenet.CROSS``, folded and checked by
  ``dicenet.fold``), with a glue tab on one edge of every pair that meets;
- a sticker sheet for blank wooden or plastic dice (16 mm by default): each
  face a square a little smaller than the die's face, on the card-sheet grid
  with crop marks.

Content::

    white-dice:
      kind: die
      name: 白ダイス
      expected: 5
      dice: 5
      color: white
      faces: {track: 2, double-track: 2, station: 1, locomotive: 1}
"""
from __future__ import annotations

from dataclasses import dataclass

from generator import limits
from generator.errors import ContentError, Source, did_you_mean
from generator.layout.cardface import FaceRenderer
from generator.layout.components.kind import Output, register
from generator.layout.dicenet import CROSS, EDGES, fold
from generator.layout.icons import ICONS
from generator.layout.primitives import Document, Form, Group, Line, Page, Polygon, Use
from generator.layout.sheets import PAPERS, simplex_sheets
from generator.model.components import Component, piece_geometry
from generator.model.game import Card, CardGeometry, Game

CUT = "#000000"
FOLD = "#808080"
TAB_FILL = "#e6e6e6"
NET_GAP = 6.0  # mm between nets on a sheet


@dataclass(frozen=True)
class DieOptions:
    """A die's own keys, typed once by ``DieKind.read``."""

    net_size: float           # face side of the paper net, mm
    die_size: float           # side of the blank dice the stickers are for, mm
    sticker: float            # sticker side, mm
    tab: float                # glue tab depth, mm
    layout: str               # the face layout
    layout_source: Source     # where the layout is named (``layout:``, else ``kind:``)
    symbols: tuple[str, ...]  # the six faces, in the order of ``faces:``
    labels: dict              # symbol → its name, for rule sheets and player aids


class DieKind:
    name = "die"
    unit = "dice"
    label_key = "kind.die"
    papers_checked: tuple[str, ...] = ("a4",)
    pictured = True
    outlined_in_legend = True   # a die face is a square with no edge of its own
    print_order = 3
    one_sided = False
    checks = frozenset({"PNP801"})
    rules_helpers = frozenset({"die_faces"})
    schema = {
        "properties": {
            "dice": {"type": "integer", "minimum": 1, "description": "how many dice of this kind"},
            "color": {"type": "string"}, "ink": {"type": "string"},
            "faces": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1},
                      "description": "symbol → how many faces show it (six in all)"},
            "labels": {"type": "object", "additionalProperties": {"type": "string"},
                       "description": "symbol → its name, for rule sheets and player aids"},
            "net_size": {"type": "number", "exclusiveMinimum": 0, "description": "face side of the paper net, mm"},
            "die_size": {"type": "number", "exclusiveMinimum": 0,
                     "description": "side of the blank dice the stickers are for, mm"},
            "sticker": {"type": "number", "exclusiveMinimum": 0,
                    "description": "sticker side, mm (smaller than die_size: dice have rounded edges)"},
            "tab": {"type": "number", "exclusiveMinimum": 0, "description": "glue tab depth, mm"},
            "layout": {"type": "string"},
        },
        "required": ["dice", "faces", "color"],
    }

    def read(self, component: Component[DieOptions], spec, resolver, game: Game) -> None:
        cid = component.id
        for symbol in spec["faces"]:
            if symbol not in ICONS:
                raise ContentError(spec["faces"].src(symbol), f"unknown die symbol '{symbol}' on '{cid}'",
                                   did_you_mean(symbol, ICONS) or "symbols are icons: " + ", ".join(ICONS))
        sides = sum(spec["faces"].values())
        if sides != 6:   # checked before the faces are listed: `track: 1000000000` would fill the memory
            raise ContentError(spec.src("faces"), f"die '{cid}' has {sides:,} faces, a die has 6",
                               "make the face counts add up to 6 (use blank for an empty face)")
        symbols = [str(symbol) for symbol, n in spec["faces"].items() for _ in range(n)]
        die_size = float(spec.get("die_size", 16.0))
        sticker = float(spec.get("sticker", die_size - 2.0))
        if sticker > die_size:
            raise ContentError(spec.src("sticker"), f"stickers of {sticker:g} mm do not fit {die_size:g} mm dice",
                               "make sticker: smaller than die_size:")
        color = resolver.value(spec["color"], "color", spec.src("color"), f"die '{cid}' colour")
        ink = resolver.value(spec["ink"], "color", spec.src("ink"), f"die '{cid}' ink") if "ink" in spec else None
        labels = dict(spec.get("labels", {}))
        for symbol in labels:
            if symbol not in spec["faces"]:
                raise ContentError(spec["labels"].src(symbol), f"label for '{symbol}', which is not a face of '{cid}'",
                                   did_you_mean(symbol, spec["faces"]) or "label the symbols listed under faces:")
        net = float(spec.get("net_size", 20.0))
        for key, mm in (("die_size", die_size), ("sticker", sticker), ("net_size", net)):   # 1e-300: divided by zero
            if not mm >= limits.MIN_PIECE_MM:
                raise ContentError(spec.src(key if key in spec else "kind"), f"die '{cid}' {key}: {mm:g} mm is under "
                                   f"{limits.MIN_PIECE_MM:g} mm, too small to cut out (limits.MIN_PIECE_MM)",
                                   f"give {key}: in mm (the default die is 16 mm, its net's faces 20 mm)")
        component.options = DieOptions(net_size=net, die_size=die_size, sticker=sticker,
                                       tab=float(spec.get("tab", net * 0.22)), layout=spec.get("layout", "die-face"),
                                       layout_source=spec.src("layout") if "layout" in spec else spec.src("kind"),
                                       symbols=tuple(symbols), labels=labels)
        component.geometry = CardGeometry(net, net, 0.0, net * 0.1)
        component.faces = [Card(component, 0, {"symbols": symbols, "color": color, "ink": ink}, spec["dice"],
                                spec.src("dice"))]

    # ------------------------------------------------------------------ drawing
    def _side(self, game, component, renderer, face: Card, symbol: str, geometry: CardGeometry) -> Form:
        side = {"icon": symbol, "color": face["color"], "ink": face["ink"], "label": component.options.labels.get(symbol)}
        context = {"game": game, "deck": component, "geometry": geometry, "card": side, "back": None}
        return renderer.face(component.options.layout, context, f"{face.ref} ({symbol})", face.source,
                             f"{component.id}-{symbol}-{geometry.width:g}", component.options.layout_source)

    def faces(self, game: Game, component: Component[DieOptions], renderer: FaceRenderer) -> list[Form]:
        """One form per distinct symbol, at net size."""
        face = component.faces[0]
        symbols = list(dict.fromkeys(component.options.symbols))
        return [self._side(game, component, renderer, face, s, piece_geometry(component)) for s in symbols]

    def legend(self, game: Game, component: Component[DieOptions], renderer: FaceRenderer) -> list[tuple[Form, str]]:
        """Each distinct face with its label (``labels:``, else the symbol's name), for player aids."""
        symbols = list(dict.fromkeys(component.options.symbols))
        labels = component.options.labels
        return [(form, labels.get(symbol, symbol)) for form, symbol in zip(self.faces(game, component, renderer), symbols)]

    def assembly(self, component: Component[DieOptions]) -> tuple[str, ...]:
        """A net is cut, folded and glued into a cube; the stickers go on blank dice instead."""
        return ("pnp.step.die", "pnp.step.stickers")

    def supplies(self, component: Component[DieOptions]) -> tuple[str, ...]:
        """A net is glued; the stickers want blank dice."""
        return ("pnp.need.glue", "pnp.need.dice")

    def outputs(self, game: Game, component: Component[DieOptions], renderer: FaceRenderer, paper: str) -> list[Output]:
        stickers = game.words("pnp.stickers", name=component.label)   # in the print-and-play file too: its own choice
        return [Output(f"{component.id}-nets.pdf", self.nets(game, component, renderer, paper), component.label),
                Output(f"{component.id}-stickers.pdf", self.stickers(game, component, renderer, paper), stickers)]

    def overview(self, game: Game, component: Component[DieOptions], renderer: FaceRenderer) -> list[Form]:
        """One net as a form of its own (faces drawn in, tabs and fold lines as printed): the cover's picture."""
        face = component.faces[0]
        symbols = component.options.symbols
        geometry = component.geometry
        assert geometry is not None   # read() gives every die its net geometry
        sides = {symbol: self._side(game, component, renderer, face, symbol, geometry)
                 for symbol in dict.fromkeys(symbols)}
        s, tab = component.options.net_size, component.options.tab
        cols = max(c for c, _ in CROSS) + 1
        rows = max(r for _, r in CROSS) + 1
        items = tuple(Group(sides[item.name].items, item.x, item.y) if isinstance(item, Use) else item
                      for item in net_items(fold(CROSS), list(symbols), s, tab, tab, tab))
        return [Form(f"{component.id}-net", items, (0.0, 0.0, cols * s + 2 * tab, rows * s + 2 * tab))]

    def nets(self, game, component, renderer, paper) -> Document:
        """As many nets per page as fit, in rows, each net's six faces in the order of ``faces:``."""
        doc = Document(f"{game.label} — {component.label} (nets)")
        face = component.faces[0]
        forms = [doc.add_form(self._side(game, component, renderer, face, s, component.geometry))
                 for s in component.options.symbols]
        s, tab = component.options.net_size, component.options.tab
        folded = fold(CROSS)
        cols = max(c for c, _ in CROSS) + 1
        rows = max(r for _, r in CROSS) + 1
        net_w, net_h = cols * s + 2 * tab, rows * s + 2 * tab
        width, height = PAPERS[paper]
        margin = game.printer_margin
        usable_w, usable_h = width - 2 * (margin + 2), height - 2 * (margin + 2)
        per_row = int((usable_w + NET_GAP) // (net_w + NET_GAP))
        per_col = int((usable_h + NET_GAP) // (net_h + NET_GAP))
        if per_row < 1 or per_col < 1:
            raise ContentError(component.source, f"a die net of {s:g} mm faces does not fit on {paper}",
                               "make net_size: smaller")
        left = (width - per_row * net_w - (per_row - 1) * NET_GAP) / 2
        top = (height - per_col * net_h - (per_col - 1) * NET_GAP) / 2
        for n in range(face.count):
            slot = n % (per_row * per_col)
            if slot == 0:
                doc.pages.append(Page(width, height, label=f"{component.id} nets {len(doc.pages) + 1}", one_sided=True))
            ox = left + (slot % per_row) * (net_w + NET_GAP) + tab
            oy = top + (slot // per_row) * (net_h + NET_GAP) + tab
            doc.pages[-1].items += net_items(folded, forms, s, tab, ox, oy)
        return doc

    def stickers(self, game, component, renderer, paper) -> Document:
        """Six stickers per die, in the grid of card sheets (crop marks in the margin)."""
        doc = Document(f"{game.label} — {component.label} (stickers)")
        face = component.faces[0]
        side = component.options.sticker
        geometry = CardGeometry(side, side, 1.0, side * 0.1)
        forms = [doc.add_form(self._side(game, component, renderer, face, s, geometry))
                 for s in component.options.symbols]
        doc.pages = simplex_sheets(forms * face.count, geometry, paper, f"{component.id} stickers", component.source,
                                   game.printer_margin)
        return doc


def net_items(folded, forms: list[str], s: float, tab: float, ox: float, oy: float) -> list:
    """A net at (ox, oy): faces, glue tabs, dashed fold lines on shared edges and tab roots, solid cut outline."""
    items: list = []
    for (col, row), name in zip(folded.cells, forms):
        items.append(Use(name, ox + col * s, oy + row * s))
    for i, edge in folded.tabs:
        (x1, y1), (x2, y2) = _edge(folded.cells[i], edge, s, ox, oy)
        dx, dy = EDGES[edge]
        inset = tab  # 45° sides: the tab narrows by its depth at each end
        ux, uy = (x2 - x1) / s, (y2 - y1) / s
        p3 = (x2 + dx * tab - ux * inset, y2 + dy * tab - uy * inset)
        p4 = (x1 + dx * tab + ux * inset, y1 + dy * tab + uy * inset)
        items.append(Polygon(((x1, y1), (x2, y2), p3, p4), True, TAB_FILL, CUT, 0.2))
        items.append(Line(x1, y1, x2, y2, FOLD, 0.2, (1.0, 1.0)))
    for i, edge in folded.folds:
        (x1, y1), (x2, y2) = _edge(folded.cells[i], edge, s, ox, oy)
        items.append(Line(x1, y1, x2, y2, FOLD, 0.2, (1.0, 1.0)))
    for i, edge in folded.glued:
        (x1, y1), (x2, y2) = _edge(folded.cells[i], edge, s, ox, oy)
        items.append(Line(x1, y1, x2, y2, CUT, 0.2))
    return items


def _edge(cell, edge: str, s: float, ox: float, oy: float):
    """End points of a square's edge, in page mm, in clockwise order."""
    x, y = ox + cell[0] * s, oy + cell[1] * s
    return {"top": ((x, y), (x + s, y)), "right": ((x + s, y), (x + s, y + s)),
            "bottom": ((x + s, y + s), (x, y + s)), "left": ((x, y + s), (x, y))}[edge]


DIE = register(DieKind())
