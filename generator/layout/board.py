"""Map boards as primitives: the whole board at real size, as one ``Form``.

Draws a ``BoardPlan`` (generator.layout.board_geometry): the terrain (generator.layout.terrain),
area shading, route guide lines, train spaces (grey, coloured, tunnel outline, ferry
locomotives), city markers with their setup passengers, names, the score
track around the edge, the route-scoring legend and the title. The same Form
is placed on the full-size page, on every tile and, scaled, on the overview.
"""
from __future__ import annotations

import functools
import math
import weakref
from pathlib import Path

from generator.fonts import PT_TO_MM, Typeset
from generator.layout import board_geometry as geo
from generator.layout import images
from generator.layout.faces import kept_with
from generator.layout.icons import ICONS
from generator.layout.primitives import Circle, Form, Group, Image, Polygon, Rect
from generator.layout.symbols import hatching, symbol
from generator.layout.terrain import shade, terrain_items, tint
from generator.layout.text import bold_text, bold_width, cap_height, set_text
from generator.model.board import Board, BoardPicture, place_points
from generator.model.game import Game

INK = "#2b2620"
LAND = "#f1ead6"
FRAME = "#5a4632"
ROAD = "#8b5a2b"
TRACK_CELL = 9.0   # depth of the score-track band, mm


def plan_for_drawing(board: Board) -> geo.BoardPlan:
    """The board's plan with the title and legend boxes reserved, exactly as ``board_form`` draws it.

    Planned once per board and geometry: the board check, the board's drawing and the rule examples all ask
    (0.1 s each for Germany, most of it placing names). ``pnpgen fit`` moves places and bends routes of the
    same board between asks, so the plan kept is keyed on what it is made from (``_plan_key``), not on the
    board's identity alone. A plan is not changed by those who read it."""
    boxes = {"title": _title_box(board), "legend": _legend_box(board)}
    boxes.update({f"tray '{tray.label}'": tray.box() for tray in board.trays})
    key = _plan_key(board, boxes)
    kept = _PLANS.get(board)
    if kept is not None and kept[0] == key:
        return kept[1]
    plan = geo.plan_board(board, reserved=[b for b in boxes.values() if b])
    plan.furniture = {what: box for what, box in boxes.items() if box}
    _PLANS[board] = (key, plan)
    return plan


#: board → (``_plan_key``, its plan): forgotten with the board
_PLANS: weakref.WeakKeyDictionary[Board, tuple[tuple, geo.BoardPlan]] = weakref.WeakKeyDictionary()


def _plan_key(board: Board, boxes: dict) -> tuple:
    """Everything ``plan_board`` reads, as plain values copied now (a later edit in place cannot reach the key):
    the frame, the places (points, kind, names, area), the routes (ends, path, tracks) and the reserved boxes."""
    places = tuple((p.id, p.name, p.latin, p.attrs.get("kind"), id(p.attrs.get("area")),
                    tuple((n, float(x), float(y)) for n, (x, y) in place_points(p).items())) for p in board.places)
    routes = tuple((id(r), r.route.a.id, r.route.b.id, r.route.ends, r.route.length, tuple(r.route.colors),
                    tuple(tuple(b) for b in r.bends), r.curve) for r in board.routes)
    areas = tuple((id(a), a.name, a.attrs.get("color")) for a in board.areas)
    return (tuple(boxes.items()), board.width, board.height, board.space, board.style, board.name_pt, board.typeset,
            board.score_track, board.score_depth, places, routes, areas)


def board_form(game: Game, board: Board) -> tuple[Form, geo.BoardPlan]:
    """The board's artwork (a Form of board size) and the plan it was drawn from.

    Drawn once per game, board and plan: the build's board files and the rule examples' windows onto it (and the
    check's layout of both) ask for the same board. A board edited in place between asks (``pnpgen fit``) has a
    new plan, and is drawn again."""
    plan = plan_for_drawing(board)
    kept = kept_with(game, "board-forms")
    found = kept.get(board.id)
    if found is None or found[1] is not plan or found[0] is not board:
        found = kept[board.id] = (board, plan, _board_form(game, board, plan))
    return found[2], plan


def _board_form(game: Game, board: Board, plan: geo.BoardPlan) -> Form:
    title_box, legend_box = _title_box(board), _legend_box(board)
    items: list = [Rect(0, 0, board.width, board.height, fill=LAND)]
    track = (score_track(board.width, board.height, board.score_track, board.typeset, board.score_depth)
             if board.score_track else [])
    if board.background is not None or board.terrain:
        # over the track's paper (its first two rects), under its cells and everything else
        items += track[:2]
        track = track[2:]
    if board.background is not None:
        items.append(_picture(game, board, board.background))
    items += terrain_items(board, plan)
    if not board.area_regions:
        items += _areas(board, plan)
    items += track
    items += [_picture(game, board, overlay) for overlay in board.overlays]
    items += _routes(game, board, plan)
    items += _area_names(plan)
    items += _places(plan)
    if title_box:
        items += _title(board, title_box)
    if legend_box:
        items += _legend(board, legend_box)
    items += _trays(board)
    return Form(f"board-{board.id}", tuple(items), (0.0, 0.0, board.width, board.height))


# ---------------------------------------------------------------- pieces

def _picture(game: Game, board: Board, spec: BoardPicture) -> Image:
    """A board picture as drawn, its use kept for the resolution check (PNP720)."""
    picture = images.read(Path(spec.path), spec.source, spec.shown)
    image = Image(*spec.box, picture.path, picture.digest, spec.fit, spec.crop, spec.opacity, spec.rotate)
    images.record_use(game, images.PictureUse(spec.source, f"board '{board.id}'", spec.shown, picture, image))
    return image


def _areas(board: Board, plan: geo.BoardPlan) -> list:
    """Each city of an area sits on a soft disc of the area's colour: the provinces read as regions."""
    items = []
    for pp in plan.places.values():
        area = pp.place.attrs.get("area")
        if area is not None and "color" in area.attrs:
            items.append(Circle(*pp.center, geo.AREA_DISC, fill=tint(area.attrs["color"].hex, 0.72)))
    return items


def _area_names(plan: geo.BoardPlan) -> list:
    """Province names in a dark shade of their colour, where the plan found them a clean spot."""
    items = []
    for area, (x, y, w, h) in plan.area_labels:
        color = area.attrs["color"].hex if "color" in area.attrs else INK
        items.append(bold_text(plan.board.typeset, x + w / 2, y + h * 0.8, area.name, geo.AREA_PT,
                               fill=shade(color, 0.45), anchor="middle"))
    return items


def _routes(game: Game, board: Board, plan: geo.BoardPlan) -> list:
    items = []
    for rp in plan.routes:   # guide lines under everything: a route with slack still reads as one
        if board.style == "road":
            pts = tuple(rp.path)
            items.append(Polygon(pts, closed=False, stroke="#fdf8ea", stroke_width=3.2))
            items.append(Polygon(pts, closed=False, stroke=ROAD, stroke_width=1.6))
        else:
            items.append(Polygon(tuple(rp.path), closed=False, stroke="#b9ad93", stroke_width=0.5))
    for rp in plan.routes:
        for t, track in enumerate(rp.tracks):   # tunnel, ferry and style per track (a double ferry: 2 and 1)
            color = track.color.hex
            tunnel, ferry, style = rp.route.tunnel_of(t), rp.route.ferry_of(t), rp.route.style_of(t)
            for n, quad in enumerate(track.spaces):
                items.append(Polygon(quad, fill=color, stroke=INK, stroke_width=0.35))
                if tunnel:
                    items.append(Polygon(quad, stroke=INK, stroke_width=1.0))
                    items.append(Polygon(_shrink(quad, 0.8), stroke="#ffffff", stroke_width=0.3))
                items += _colour_mark(quad, track.color, ferry=n < ferry or bool(style))
                if n < ferry:
                    items.append(_ferry_mark(quad, track.color.ink))
                if style:
                    items.append(_style_mark(board, quad, style, track.color.ink))
    return items


STYLE_PT = 6.5          # a track's style letter (a mountain track's "M"), at the start of each space


def _style_mark(board: Board, quad, letter: str, ink: str):
    """A track's style letter, upright, at the end of the space the colour symbol leaves free."""
    (x0, y0), (x1, y1) = quad[0], quad[1]
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    cx = sum(p[0] for p in quad) / 4 - (x1 - x0) / length * FERRY_SHIFT
    cy = sum(p[1] for p in quad) / 4 - (y1 - y0) / length * FERRY_SHIFT
    return bold_text(board.typeset, cx, cy + cap_height(STYLE_PT) / 2, letter, STYLE_PT, fill=ink, anchor="middle")


SPACE_SYMBOL = 4.0      # mm: a colour's symbol in a train space (9 mm deep), upright so a square never turns diamond
FERRY_SHIFT = 6.2       # mm along the space: beside a ferry's locomotive (7 mm, centred) rather than under it
ANY_COLOUR = "gray"     # the route colour any set of cards may claim: hatched, not one more colour


def _colour_mark(quad, color, ferry: bool) -> list:
    """What tells a space's colour without colour: the colour's symbol (palette ``symbol:``), upright
    at the centre (beside the locomotive of a ferry space), or the hatching of a gray space."""
    (x0, y0), (x1, y1), (x2, y2) = quad[0], quad[1], quad[2]
    cx, cy = sum(p[0] for p in quad) / 4, sum(p[1] for p in quad) / 4
    length, depth = math.hypot(x1 - x0, y1 - y0), math.hypot(x2 - x1, y2 - y1)
    if color.symbol:
        if ferry:
            ux, uy = (x1 - x0) / (length or 1.0), (y1 - y0) / (length or 1.0)
            cx, cy = cx + ux * FERRY_SHIFT, cy + uy * FERRY_SHIFT
        return [Group(_symbol(color.symbol, SPACE_SYMBOL, color.ink), cx, cy, 0.0)]   # as ``symbols.placed``
    if color.id == ANY_COLOUR:
        angle = math.degrees(math.atan2(y1 - y0, x1 - x0))
        return [Group(_hatching(length - 1.6, depth - 1.6, shade(color.hex, 0.35)), cx, cy, angle)]
    return []


#: a colour's symbol and a gray space's hatching, each made once for all the spaces that show it (primitives are
#: frozen: one tuple is shared by every Group that places it)
_symbol = functools.lru_cache(maxsize=256)(symbol)
_hatching = functools.lru_cache(maxsize=1024)(hatching)


def _shrink(quad, by: float):
    cx = sum(p[0] for p in quad) / 4
    cy = sum(p[1] for p in quad) / 4
    out = []
    for x, y in quad:
        d = math.hypot(x - cx, y - cy) or 1.0
        out.append((x + (cx - x) * by / d, y + (cy - y) * by / d))
    return tuple(out)


def _ferry_mark(quad, ink: str):
    """A locomotive in the space, turned with it: one locomotive card needed."""
    (x0, y0), (x1, y1) = quad[0], quad[1]
    angle = math.degrees(math.atan2(y1 - y0, x1 - x0))
    if angle > 90 or angle < -90:
        angle += 180
    cx = sum(p[0] for p in quad) / 4
    cy = sum(p[1] for p in quad) / 4
    size = 7.0
    return Group(tuple(ICONS["locomotive"](-size / 2, -size / 2, size, ink)), cx, cy, angle)


def _places(plan: geo.BoardPlan) -> list:
    items = []
    for pp in plan.places.values():
        items += marker(pp.place, pp.center, pp.radius, plan.board.typeset)
    for pp in plan.places.values():
        if pp.label:
            items += _label(pp, plan.board)
    return items


def marker(place, center, r: float, typeset: Typeset) -> list:
    """A place's marker: city ring, country shield, attraction star, free city double ring."""
    cx, cy = center
    kind = place.attrs.get("kind", "city")
    area = place.attrs.get("area")
    fill = area.attrs["color"].hex if area is not None and "color" in area.attrs else "#ffffff"
    items: list = []
    if kind == "country":
        pts = tuple((cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in range(-90, 270, 60))
        items += [Polygon(pts, fill="#7c1f1f", stroke=INK, stroke_width=0.6),
                  Polygon(tuple((cx + (p[0] - cx) * 0.7, cy + (p[1] - cy) * 0.7) for p in pts),
                          stroke="#f3e3b5", stroke_width=0.5)]
    elif kind == "attraction":
        items += [Circle(cx, cy, r, fill="#fff6d8", stroke=INK, stroke_width=0.7)]
        items += ICONS["star"](cx - r * 0.8, cy - r * 0.8, r * 1.6, "#d9a400")
    elif kind == "free-city":
        items += [Circle(cx, cy, r, fill="#ffffff", stroke=INK, stroke_width=0.7),
                  Circle(cx, cy, r * 0.62, fill=fill if area is not None else "#c9a227", stroke=INK, stroke_width=0.5)]
    else:
        items += [Circle(cx, cy, r, fill=fill, stroke=INK, stroke_width=0.8),
                  Circle(cx, cy, r * 0.45, fill=INK)]
    passengers = place.attrs.get("passengers")
    if passengers:
        bx, by = cx + r * 0.75, cy - r * 0.75
        items += [Circle(bx, by, 2.6, fill="#ffffff", stroke=INK, stroke_width=0.35),
                  bold_text(typeset, bx, by + 1.05, str(passengers), 7.5, fill=INK, anchor="middle")]
    return items


def _label(pp: geo.PlacePlan, board: Board) -> list:
    """A place's name over its Latin form: on a paper plate, or (``halo``) ringed in paper so the map shows round it."""
    assert pp.label is not None  # the plan places every label
    typeset = board.typeset
    x, y, w, h = pp.label
    place = pp.place
    name_pt, latin_pt = geo.name_sizes(board)
    name_h = name_pt * PT_TO_MM
    lines = [(name_pt, y + 0.4 + name_h * 0.92, place.name, True)]
    if place.latin and place.latin != place.name:
        lines.append((latin_pt, y + h - 0.9 * name_pt / geo.NAME_PT, place.latin, False))
    items: list = [] if board.halo else [Rect(x, y, w, h, fill="#fffdf5", stroke=None, radius=1.0)]
    for size, baseline, text, bold in lines:
        draw = bold_text if bold else set_text
        if board.halo:
            ring = size * 0.045   # mm: about a twentieth of the letter height
            items += [draw(typeset, x + w / 2 + dx * ring, baseline + dy * ring, text, size, fill=HALO, anchor="middle")
                      for dx, dy in HALO_RING]
        items.append(draw(typeset, x + w / 2, baseline, text, size, fill=INK, anchor="middle"))
    return items


HALO = "#fffdf5"
#: the eight directions a halo is drawn in, under the name (a stroke the renderers share without text outlines)
HALO_RING = ((1, 0), (-1, 0), (0, 1), (0, -1), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7))


def track_cells(width: float, height: float, cells: int, depth: float = TRACK_CELL) -> list[tuple[float, float, float, float]]:
    """The (x, y, w, h) of each score-track cell, 0 at the top-left corner, clockwise; ``depth`` across the band."""
    d = depth
    # corners are cells; the rest are shared between the sides in proportion to their length
    inner = cells - 4
    along = inner * (width - 2 * d) / (2 * (width - 2 * d) + 2 * (height - 2 * d))
    nx = max(1, round(along))
    ny = max(1, (inner - 2 * nx) // 2)
    nx = (inner - 2 * ny) // 2
    extra = inner - 2 * nx - 2 * ny   # 0 or 1: the odd cell goes to the top row
    top_n, bottom_n = nx + extra, nx
    boxes = [(0.0, 0.0, d, d)]
    boxes += _row(d, 0.0, width - 2 * d, d, top_n, horizontal=True)
    boxes.append((width - d, 0.0, d, d))
    boxes += _row(width - d, d, d, height - 2 * d, ny, horizontal=False)
    boxes.append((width - d, height - d, d, d))
    boxes += list(reversed(_row(d, height - d, width - 2 * d, d, bottom_n, horizontal=True)))
    boxes.append((0.0, height - d, d, d))
    boxes += list(reversed(_row(0.0, d, d, height - 2 * d, ny, horizontal=False)))
    return boxes


def _trays(board: Board) -> list:
    """Each tray: its name, and an outline per place (a card display, the stacks of tiles)."""
    items: list = []
    name_pt = max(9.0, board.name_pt)
    for tray in board.trays:
        x, y, _w, _h = tray.box()
        label = f"{tray.label} / {tray.latin}" if tray.latin else tray.label
        items.append(bold_text(board.typeset, x, y + name_pt * PT_TO_MM * 0.8, label, name_pt, fill=FRAME))
        for px, py in tray.places():
            items.append(Rect(px, py, tray.size[0], tray.size[1], fill="#fbf6e8", stroke=FRAME, stroke_width=0.5,
                              radius=min(3.0, tray.size[0] * 0.08)))
    return items


def score_track(width: float, height: float, cells: int, typeset: Typeset, depth: float = TRACK_CELL) -> list:
    """A loop of ``cells`` numbered cells around the board's edge, 0 at the top-left corner, clockwise."""
    d = depth
    boxes = track_cells(width, height, cells, depth)
    scale = min(1.6, d / TRACK_CELL)   # numbers grow with a deeper band, so they still read at a glance
    items: list = [Rect(0, 0, width, height, fill="#e7dcc0"),
                   Rect(d, d, width - 2 * d, height - 2 * d, fill=LAND, stroke=FRAME, stroke_width=0.6)]
    for n, (x, y, w, h) in enumerate(boxes):
        fill = "#fbf6e8" if n % 5 else "#d9c69c"   # every fifth cell darker, to count by fives
        items.append(Rect(x, y, w, h, fill=fill, stroke=FRAME, stroke_width=0.25))
        label = f"{n}" if n else f"0/{cells}"   # the track's own range: 0/50 on a 50-cell track
        size = (6.0 if n % 5 else 7.0) * scale
        if not n:
            size = 4.6 * scale
        baseline = y + h / 2 + size * PT_TO_MM * 0.35
        items.append(set_text(typeset, x + w / 2, baseline, label, size, fill=INK, anchor="middle", bold=n % 5 == 0))
    return items


def _row(x, y, w, h, n, horizontal):
    if horizontal:
        step = w / n
        return [(x + i * step, y, step, h) for i in range(n)]
    step = h / n
    return [(x, y + i * step, w, step) for i in range(n)]


# ---------------------------------------------------------------- title and legend

TITLE_PT, TITLE_LATIN_PT = 30.0, 14.0


def _title_box(board: Board):
    if not board.name:
        return None
    w = max(bold_width(board.typeset, board.name, TITLE_PT), board.typeset.width(board.latin, TITLE_LATIN_PT)) + 12
    h = TITLE_PT * PT_TO_MM + TITLE_LATIN_PT * PT_TO_MM + 10
    x, y = board.title_at if board.title_at else (geo.border(board) + 4, geo.border(board) + 4)
    return (x, y, w, h)


def _title(board: Board, box) -> list:
    x, y, w, h = box
    items = [Rect(x, y, w, h, fill="#fffdf5", stroke=FRAME, stroke_width=0.8, radius=3),
             bold_text(board.typeset, x + w / 2, y + 4 + cap_height(TITLE_PT), board.name, TITLE_PT, fill=FRAME, anchor="middle")]
    if board.latin and board.latin != board.name:
        items.append(set_text(board.typeset, x + w / 2, y + h - 4, board.latin, TITLE_LATIN_PT, fill=FRAME, anchor="middle"))
    return items


LEGEND_ROW = 7.0
KEY_ROW = 6.5
KEY_PT = 6.5



def key_text(board: Board, entry: str) -> str:
    """What the key says for a kind of marker that is not a plain city, or for setup passengers."""
    return board.words[f"board.key.{entry}"]


def _key_entries(board: Board) -> list[str]:
    """The marker kinds this board shows (besides plain cities), in a fixed order."""
    kinds = {p.attrs.get("kind", "city") for p in board.places}
    entries = [k for k in ("country", "attraction", "free-city") if k in kinds]
    if any(p.attrs.get("passengers") for p in board.places):
        entries.append("passengers")
    return entries


def _legend_box(board: Board):
    entries = _key_entries(board)
    if not board.legend and not entries:
        return None
    table_w = 10 + len(board.legend) * 11.0 if board.legend else 0.0
    key_w = max((board.typeset.width(key_text(board, e), KEY_PT) + 14 for e in entries), default=0.0)
    w = max(table_w, key_w)
    h = (8 + 2 * LEGEND_ROW + 2 if board.legend else 2.0) + KEY_ROW * len(entries) + (1.5 if entries else 0)
    edge = geo.border(board) + 4
    x, y = board.legend_at if board.legend_at else (board.width - edge - w, board.height - edge - h)
    return (x, y, w, h)


def _legend(board: Board, box) -> list:
    """The route scoring table (one column per length: a space stub over its points), then the marker key."""
    x, y, w, h = box
    ts = board.typeset
    items: list = [Rect(x, y, w, h, fill="#fffdf5", stroke=FRAME, stroke_width=0.6, radius=2)]
    top = y + 2.0
    if board.legend:
        items.append(bold_text(ts, x + w / 2, y + 5, board.words["board.scoring"], 7.5, fill=FRAME, anchor="middle"))
        for i, (length, points) in enumerate(board.legend):
            cx = x + 10 + i * 11.0 + 0.5
            row1, row2 = y + 8, y + 8 + LEGEND_ROW
            items += [Rect(cx - 5, row1, 10, LEGEND_ROW - 1, fill="#9a9a9a", stroke=INK, stroke_width=0.25, radius=0.6),
                      bold_text(ts, cx, row1 + 4.5, str(length), 8, fill="#ffffff", anchor="middle"),
                      bold_text(ts, cx, row2 + 4.7, str(points), 9, fill=INK, anchor="middle")]
        items += [set_text(ts, x + 2, y + 8 + 4.5, board.words["board.length"], 6.5, fill=INK),
                  set_text(ts, x + 2, y + 8 + LEGEND_ROW + 4.7, board.words["board.points"], 6.5, fill=INK)]
        top = y + 8 + 2 * LEGEND_ROW + 2
    for n, entry in enumerate(_key_entries(board)):
        cy = top + KEY_ROW * n + KEY_ROW / 2
        if entry == "passengers":
            items += [Circle(x + 6, cy, 2.6, fill="#ffffff", stroke=INK, stroke_width=0.35),
                      bold_text(ts, x + 6, cy + 1.05, "1", 7.5, fill=INK, anchor="middle")]
        else:
            sample = _KeyPlace(entry)
            items += [Group(tuple(marker(sample, (0.0, 0.0), geo.MARKER_R[entry], ts)), x + 6, cy,
                            scale=2.6 / geo.MARKER_R[entry])]
        items.append(set_text(ts, x + 12, cy + KEY_PT * PT_TO_MM * 0.35, key_text(board, entry), KEY_PT, fill=INK))
    return items


class _KeyPlace:
    """A stand-in place for drawing a marker in the key."""

    def __init__(self, kind: str):
        self.attrs = {"kind": kind}
