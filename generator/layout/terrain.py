"""A map's ground as primitives: land, sea, lakes, rivers, parks, neighbouring regions and the game's areas.

Drawn by ``generator.layout.board`` as the board's first layer (under the score track's cells, the
routes and the names), so every tile and the overview split it like the rest. Each kind has a light
default tint, so routes and names stay readable over it; ``colour:``/``stroke:`` override them.

``kind: areas`` makes each of the game's areas one region: the Voronoi cells of its places (every
point of each place), merged per area and clipped to the shape's points (default: the map inside
its frame), computed here with shapely from the places as they are now, so a moved city takes its
border with it. shapely is imported only for a board that asks for areas.
"""
from __future__ import annotations

from generator.fonts import PT_TO_MM
from generator.layout.board_geometry import BoardPlan, border
from generator.layout.primitives import Group, Polygon
from generator.layout.text import set_text
from generator.model.board import Board, Terrain, place_points

#: each kind's (fill, stroke): light tints, so a route's colours and a name in ink stay readable over them
DEFAULTS: dict[str, tuple[str | None, str | None]] = {
    "land": ("#f4eedc", "#9b8e74"),
    "sea": ("#d3e4ec", None),
    "water": ("#d3e4ec", "#8fb2c6"),
    "river": ("#a9cbe0", None),
    "park": ("#d9e8c6", "#9dbb84"),
    "region": ("#dfdbd0", "#a2978a"),
}
AREA_TINT = 0.72        # an area's colour mixed with this much white: its region's fill
AREA_EDGE = 1.4         # mm: the band of an area's own colour just inside its border
AREA_INSET = 0.9        # mm from the border to the middle of that band
BORDER_INK = "#6f6250"  # the border line itself, over the bands


def tint(hex_color: str, amount: float) -> str:
    """``hex_color`` mixed with white (amount 0 = unchanged, 1 = white): soft area shading."""
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)


def shade(hex_color: str, amount: float) -> str:
    """``hex_color`` mixed with black (amount 0 = unchanged): a readable ink of a light colour."""
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c * (1 - amount)):02x}" for c in (r, g, b))


def terrain_items(board: Board, plan: BoardPlan) -> list:
    """The board's terrain, in the order written."""
    items: list = []
    for shape in board.terrain:
        if shape.kind == "areas":
            items += _areas(board, plan, shape)
        elif shape.kind == "river":
            items.append(Polygon(shape.points, closed=False, stroke=shape.fill or DEFAULTS["river"][0],
                                 stroke_width=shape.stroke_width))
        else:
            fill, stroke = DEFAULTS[shape.kind]
            stroke = shape.stroke or stroke
            items.append(Polygon(shape.points, fill=shape.fill or fill, stroke=stroke,
                                 stroke_width=shape.stroke_width if stroke else 0.25))
    for shape in board.terrain:   # names over every shape, under the routes
        items += [_label(board, shape, label) for label in shape.labels]
    return items


LATIN_SCALE = 0.6   # a label's Latin line, of its size


def _label(board: Board, shape: Terrain, label) -> Group:
    """A shape's name in a dark shade of its tint (its Latin form under it), centred on ``at``, turned ``angle``."""
    fill = shape.fill or DEFAULTS.get(shape.kind, (None, None))[0] or "#c9c0ad"
    ink = shade(fill, 0.55)
    name_h = label.size * PT_TO_MM * 0.7                        # about a capital's height
    latin_h = label.size * LATIN_SCALE * PT_TO_MM * 0.7 if label.latin else 0.0
    gap = name_h * 0.45 if label.latin else 0.0
    top = -(name_h + gap + latin_h) / 2                          # the lines centred on ``at``
    lines = [set_text(board.typeset, 0.0, top + name_h, label.text, label.size, fill=ink, anchor="middle")]
    if label.latin:
        lines.append(set_text(board.typeset, 0.0, top + name_h + gap + latin_h, label.latin,
                              label.size * LATIN_SCALE, fill=ink, anchor="middle"))
    return Group(tuple(lines), label.at[0], label.at[1], label.angle)


def area_regions(board: Board, within: tuple[tuple[float, float], ...] = ()) -> list[tuple[object, list]]:
    """Each area with a colour and the outlines of its region, biggest region first (a region inside
    another is drawn over it): ``[(area, [outline, …])]``, outlines as point tuples rounded to 0.01 mm."""
    import shapely
    from shapely.geometry import MultiPoint, Point
    from shapely.geometry import Polygon as ShapelyPolygon

    edge = border(board)
    clip = ShapelyPolygon(within) if within else shapely.box(edge, edge, board.width - edge, board.height - edge)
    sites: dict[tuple[float, float], object] = {}
    for place in board.places:
        for at in place_points(place).values():
            sites.setdefault((round(at[0], 3), round(at[1], 3)), place.attrs.get("area"))
    if len(sites) < 2:
        return []
    cells = shapely.voronoi_polygons(MultiPoint(sorted(sites)), extend_to=clip.envelope.buffer(10))
    by_area: dict[str, list] = {}
    areas: dict[str, object] = {}
    for cell in cells.geoms:
        site = next((s for s in sorted(sites) if cell.covers(Point(s))), None)
        area = sites.get(site) if site is not None else None
        if area is None or "color" not in area.attrs:   # type: ignore[attr-defined]
            continue
        by_area.setdefault(area.id, []).append(cell)   # type: ignore[attr-defined]
        areas[area.id] = area                          # type: ignore[attr-defined]
    regions = []
    for area_id in sorted(by_area):
        region = shapely.unary_union(by_area[area_id]).intersection(clip)
        parts = [g for g in getattr(region, "geoms", [region]) if g.geom_type == "Polygon" and not g.is_empty]
        regions.append((region.area, area_id, areas[area_id], parts))
    regions.sort(key=lambda r: (-r[0], r[1]))
    return [(area, [_outline(part) for part in parts]) for _size, _id, area, parts in regions]


def _outline(polygon) -> tuple[tuple[float, float], ...]:
    coords = list(polygon.exterior.coords)[:-1]
    return tuple((round(x, 2), round(y, 2)) for x, y in coords)


def _areas(board: Board, plan: BoardPlan, shape: Terrain) -> list:
    """Each area one region: a soft tint of its colour, a band of the colour inside its border, the border in ink."""
    import shapely
    from shapely.geometry import Polygon as ShapelyPolygon

    fills: list = []
    bands: list = []
    lines: list = []
    for area, outlines in area_regions(board, shape.points):
        hex_color = area.attrs["color"].hex   # type: ignore[attr-defined]
        for outline in outlines:
            fills.append(Polygon(outline, fill=shape.fill or tint(hex_color, AREA_TINT)))
            inner = shapely.make_valid(ShapelyPolygon(outline)).buffer(-AREA_INSET, join_style="mitre")
            for part in getattr(inner, "geoms", [inner]):
                if part.geom_type == "Polygon" and not part.is_empty:
                    bands.append(Polygon(_outline(part), stroke=shade(hex_color, 0.12), stroke_width=AREA_EDGE))
            lines.append(Polygon(outline, stroke=shape.stroke or BORDER_INK, stroke_width=shape.stroke_width))
    return fills + bands + lines
