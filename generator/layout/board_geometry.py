"""Where everything on a map board goes, and what is wrong with it.

Pure geometry in millimetres (y down), no drawing: ``plan_board`` turns a
``Board`` into route paths, train spaces (each an exact space-sized
rectangle turned along its path), city markers and name boxes;
``board_problems`` reports what a designer must fix — a route too short for
its spaces, routes that cross, a route over a city it does not connect,
names that collide, anything off the board. The board layout draws the plan;
the build and the checker report its problems; tests measure it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from generator import limits
from generator.errors import Source
from generator.fonts import PT_TO_MM, Typeset
from generator.layout.text import bold_width
from generator.model import dataclass_eq, dataclass_hash, dataclass_repr
from generator.model.board import Board, BoardRoute, place_points, point_key
from generator.model.game import Color, Entity

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]

MARKER_R = {"city": 5.5, "country": 8.0, "attraction": 6.5, "free-city": 7.0}
CLEARANCE = 1.2       # mm between a city marker and the first space
SPACE_GAP = (1.0, 4.0)  # min and max mm between two spaces of a route
TRACK_GAP = 1.5       # mm between parallel tracks
NAME_PT, LATIN_PT = 9.0, 6.5
AREA_PT = 11.0
BORDER = 14.0         # mm of frame kept free for the default 9 mm score track (5 mm beyond its band)
AREA_DISC = 34.0      # mm radius of the soft disc in its area's colour behind a city (areas read as regions)


@dataclass(frozen=True, repr=False, eq=False)
class Problem:
    """Something on a board a designer should fix; ``kind`` groups them for the checker."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    kind: str   # too-short | crossing | over-city | names | off-board | covered
    source: Source
    message: str
    hint: str
    #: what it concerns, for tools (``Diagnostic.subject``): routes as ``route_keys`` names them, places by id
    subject: tuple = ()


@dataclass(eq=False, repr=False)
class TrackPlan:
    """One track of a route: its path and train spaces."""

    __repr__ = dataclass_repr

    color: Color
    path: list[Point]
    spaces: list[Quad]


@dataclass(eq=False, repr=False)
class RoutePlan:
    """A route as planned: its centre line and tracks."""

    __repr__ = dataclass_repr

    route: BoardRoute
    path: list[Point]      # centre line, city centre to city centre
    tracks: list[TrackPlan]
    shortfall: float = 0.0  # mm missing to fit the spaces (0 when it fits)


@dataclass(eq=False, repr=False)
class PlacePlan:
    """A place as planned: its marker and name box."""

    __repr__ = dataclass_repr

    place: Entity
    center: Point
    radius: float
    label: tuple[float, float, float, float] | None = None   # x, y, w, h of the name box
    label_clean: bool = True
    #: False when the board's names had used up ``limits.MAX_NAME_TESTS`` before this one: set where it fits, untried
    label_tried: bool = True


@dataclass(eq=False, repr=False)
class BoardPlan:
    """Where everything on a map board goes (``plan_board``)."""

    __repr__ = dataclass_repr

    board: Board
    inner: tuple[float, float, float, float]   # the area inside the score track
    routes: list[RoutePlan]
    places: dict[str, PlacePlan]
    reserved: list[tuple[float, float, float, float]] = field(default_factory=list)  # title, legend boxes
    #: the furniture drawn over the map, by what it is ("title", "legend"): (x, y, w, h) in mm
    furniture: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    area_labels: list = field(default_factory=list)   # (area, (x, y, w, h)) of the area names that fit cleanly


# ---------------------------------------------------------------- paths

def route_path(a: Point, b: Point, bends=(), curve: float = 0.0, steps: int = 24) -> list[Point]:
    """The centre line of a route: straight, through bend points, or one quadratic curve."""
    if curve:
        (ax, ay), (bx, by) = a, b
        length = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = (ay - by) / length, (bx - ax) / length   # right of a→b as seen (y points down)
        # a quadratic Bézier's apex lies halfway to its control point
        cx, cy = (ax + bx) / 2 + 2 * curve * nx, (ay + by) / 2 + 2 * curve * ny
        return [((1 - t) ** 2 * ax + 2 * (1 - t) * t * cx + t * t * bx,
                 (1 - t) ** 2 * ay + 2 * (1 - t) * t * cy + t * t * by)
                for t in (i / steps for i in range(steps + 1))]
    return [a, *bends, b]


def offset_path(path: list[Point], d: float) -> list[Point]:
    """The path moved sideways by ``d`` (to the right of travel as seen on the board), corners mitred."""
    if not d:
        return list(path)
    normals = []
    for (x1, y1), (x2, y2) in zip(path, path[1:]):
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        normals.append(((y1 - y2) / length, (x2 - x1) / length))
    out = []
    for i, (x, y) in enumerate(path):
        if i == 0:
            nx, ny = normals[0]
            scale = 1.0
        elif i == len(path) - 1:
            nx, ny = normals[-1]
            scale = 1.0
        else:
            (ax, ay), (bx, by) = normals[i - 1], normals[i]
            nx, ny = ax + bx, ay + by
            norm = math.hypot(nx, ny) or 1.0
            nx, ny = nx / norm, ny / norm
            scale = 1.0 / max(nx * ax + ny * ay, 0.5)   # mitre, limited at sharp corners
        out.append((x + nx * d * scale, y + ny * d * scale))
    return out


def path_length(path: list[Point]) -> float:
    return sum(math.dist(p, q) for p, q in zip(path, path[1:]))


def point_at(path: list[Point], s: float, segments: list[float] | None = None) -> Point:
    """The point ``s`` mm along the path; ``segments``: its segments' lengths (``_segments``), if known."""
    last = path[-1]
    for i, seg in enumerate(segments if segments is not None else _segments(path)):
        q = path[i + 1]
        if s <= seg or q is last:
            p = path[i]
            t = 0.0 if seg == 0 else max(0.0, min(1.0, s / seg))
            return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
        s -= seg
    return last


def _segments(path: list[Point]) -> list[float]:
    """The length of each of the path's segments, in order: worked out once for the many ``point_at`` on a path."""
    return [math.dist(p, q) for p, q in zip(path, path[1:])]


def _leave(path: list[Point], center: Point, clear: float, reverse: bool, segments: list[float]) -> float:
    """Arc length where the path (from one end) first gets ``clear`` mm from ``center``."""
    total = sum(segments)   # path_length: the same lengths added in the same order
    step = 0.5
    # a point s mm along the path is at most s mm further from the centre than the path's end is, so every step
    # short of (clear - that distance) is still inside: the walk starts at the last of those (its s as the walk
    # from 0 would have it: steps of 0.5 add up exactly), with a margin far beyond any rounding
    near = math.dist(point_at(path, total if reverse else 0.0, segments), center)
    s = step * max(0, math.floor((clear - near - 1e-6) / step))
    while s <= total:
        p = point_at(path, total - s if reverse else s, segments)
        if math.dist(p, center) >= clear:
            lo, hi = max(0.0, s - step), s
            for _ in range(12):
                mid = (lo + hi) / 2
                if math.dist(point_at(path, total - mid if reverse else mid, segments), center) >= clear:
                    hi = mid
                else:
                    lo = mid
            return total - hi if reverse else hi
        s += step
    return total if not reverse else 0.0


def space_quad(center: Point, direction: Point, w: float, h: float) -> Quad:
    """A w × h rectangle centred on ``center``, its long side along ``direction`` (a unit vector)."""
    (cx, cy), (ux, uy) = center, direction
    vx, vy = -uy, ux
    hw, hh = w / 2, h / 2
    return ((cx - ux * hw - vx * hh, cy - uy * hw - vy * hh), (cx + ux * hw - vx * hh, cy + uy * hw - vy * hh),
            (cx + ux * hw + vx * hh, cy + uy * hw + vy * hh), (cx - ux * hw + vx * hh, cy - uy * hw + vy * hh))


def place_spaces(path: list[Point], n: int, w: float, h: float, s0: float, s1: float,
                 segments: list[float] | None = None) -> tuple[list[Quad], float]:
    """``n`` spaces evenly along the path between arc lengths s0 and s1; returns (quads, shortfall mm).

    Spaces are w × h rectangles placed by arc length, each turned along the
    chord it covers, so on a bend they follow the path and keep their size.
    """
    usable = s1 - s0
    gap = (usable - n * w) / (n + 1)
    shortfall = max(0.0, n * w + (n - 1) * SPACE_GAP[0] - usable)
    gap = max(SPACE_GAP[0], min(gap, SPACE_GAP[1]))
    block = n * w + (n - 1) * gap
    start = s0 + (usable - block) / 2
    quads = []
    if segments is None:
        segments = _segments(path)
    for i in range(n):
        s = start + i * (w + gap)
        p, q = point_at(path, s, segments), point_at(path, s + w, segments)
        length = math.dist(p, q) or 1.0
        u = ((q[0] - p[0]) / length, (q[1] - p[1]) / length)
        mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        quads.append(space_quad(mid, u, w, h))
    return quads, shortfall


# ---------------------------------------------------------------- plan

def marker_radius(place: Entity) -> float:
    return MARKER_R.get(place.attrs.get("kind", "city"), MARKER_R["city"])


def name_sizes(board: Board) -> tuple[float, float]:
    """The board's place-name size and its Latin line's, in pt (the Latin scales with the name)."""
    return board.name_pt, LATIN_PT * board.name_pt / NAME_PT


def label_size(place: Entity, typeset: Typeset, sizes: tuple[float, float] = (NAME_PT, LATIN_PT)) -> tuple[float, float]:
    """Width and height of a place's name box: name over its Latin form, in the faces they are drawn with."""
    name_pt, latin_pt = sizes
    name_w = bold_width(typeset, place.name, name_pt)
    latin = place.latin if place.latin and place.latin != place.name else ""
    latin_w = typeset.width(latin, latin_pt) if latin else 0.0
    height = name_pt * PT_TO_MM * 1.15 + (latin_pt * PT_TO_MM * 1.15 if latin else 0.0) + 0.8
    return max(name_w, latin_w) + 1.6, height


def border(board: Board) -> float:
    """mm of frame kept free around the map: the score track's band and 5 mm beyond it, else 4 mm."""
    return board.score_depth + BORDER - 9.0 if board.score_track else 4.0


def plan_board(board: Board, reserved=()) -> BoardPlan:
    """Paths, spaces, markers and name boxes of a map board (``reserved``: boxes names must avoid)."""
    edge = border(board)
    inner = (edge, edge, board.width - 2 * edge, board.height - 2 * edge)
    places = {point_key(p, name): PlacePlan(p, at, marker_radius(p))
              for p in board.places for name, at in place_points(p).items()}
    plan = BoardPlan(board, inner, [], places, list(reserved))
    w, h = board.space
    ends = [end_keys(broute) for broute in board.routes]
    side_by_side = _bundles(board.routes, ends)
    for broute, (ka, kb) in zip(board.routes, ends):
        r = broute.route
        a, b = places[ka], places[kb]
        path = route_path(a.center, b.center, broute.bends, broute.curve)
        rp = RoutePlan(broute, path, [])
        first, total, sign = side_by_side[id(broute)]
        for i, color in enumerate(r.colors):
            d = sign * (first + i - (total - 1) / 2) * (h + TRACK_GAP) if board.style == "track" else 0.0
            tpath = offset_path(path, d)
            if board.style == "road":
                rp.tracks.append(TrackPlan(color, tpath, []))
                break
            segments = _segments(tpath)
            s0 = _leave(tpath, a.center, a.radius + CLEARANCE + h / 2 * 0.3, False, segments)
            s1 = _leave(tpath, b.center, b.radius + CLEARANCE + h / 2 * 0.3, True, segments)
            quads, short = place_spaces(tpath, r.length, w, h, s0, s1, segments)
            rp.tracks.append(TrackPlan(color, tpath, quads))
            rp.shortfall = max(rp.shortfall, short)
        plan.routes.append(rp)
    _place_labels(plan)
    return plan


def end_keys(broute: BoardRoute) -> tuple[str, str]:
    """The plan keys (``point_key``) of the points a route joins (``BoardRoute.end_points``)."""
    na, nb = broute.end_points
    return point_key(broute.route.a, na), point_key(broute.route.b, nb)


def _bundles(routes: list[BoardRoute], ends: list[tuple[str, str]]) -> dict[int, tuple[int, int, int]]:
    """Route rows drawn on one centre line (same two points, same bends and curve: parallel routes
    written as rows of their own) share one bundle of tracks side by side: per row, the index of its
    first track in the bundle, the bundle's tracks, and ±1 as its row runs with or against the first row."""
    groups: dict[tuple, list[tuple[BoardRoute, tuple[str, str]]]] = {}
    for broute, keys in zip(routes, ends):
        straight = not broute.bends and not broute.curve   # a straight line is the same line either way
        groups.setdefault((frozenset(keys) if straight else keys, broute.bends, broute.curve), []).append((broute, keys))
    out = {}
    for rows in groups.values():
        total = sum(len(br.route.colors) for br, _ in rows)
        first, lead = 0, rows[0][1]
        for broute, keys in rows:
            sign = 1 if keys == lead else -1
            out[id(broute)] = (first, total, sign)
            first += len(broute.route.colors)
    return out


def _place_labels(plan: BoardPlan) -> None:
    """Each name at the first spot around its marker that covers nothing; else the least bad, flagged."""
    obstacles = _Obstacles()   # (bounding box, quad) by grid cell: the box is a cheap first test
    for rp in plan.routes:
        for track in rp.tracks:
            for quad in track.spaces:
                obstacles.add(quad)
            if not track.spaces:   # roads: their segments, thickened
                for p, q in zip(track.path, track.path[1:]):
                    obstacles.add(_segment_quad(p, q, 2.0))
    for pp in plan.places.values():
        obstacles.add(_rect_quad(pp.center[0] - pp.radius, pp.center[1] - pp.radius, 2 * pp.radius, 2 * pp.radius))
    for box in plan.reserved:
        obstacles.add(_rect_quad(*box))
    ix, iy, iw, ih = plan.inner
    # names larger than the default (a big board's) may also stand a ring further out, among many roads
    rings = (0.0, 4.0, 9.0) + ((15.0,) if plan.board.name_pt > NAME_PT else ())
    tests = 0   # a name's box against an obstacle's (the bundled boards: under 500 in all)
    for pp in sorted(plan.places.values(), key=lambda p: (p.center[1], p.center[0], p.place.id)):
        lw, lh = label_size(pp.place, plan.board.typeset, name_sizes(plan.board))
        cx, cy = pp.center
        r = pp.radius + 0.8
        candidates = []
        for ring in rings:
            rr = r + ring
            candidates += [(cx - lw / 2, cy + rr), (cx - lw / 2, cy - rr - lh), (cx + rr, cy - lh / 2),
                           (cx - rr - lw, cy - lh / 2), (cx + rr * 0.7, cy + rr * 0.7), (cx + rr * 0.7, cy - rr * 0.7 - lh),
                           (cx - rr * 0.7 - lw, cy + rr * 0.7), (cx - rr * 0.7 - lw, cy - rr * 0.7 - lh)]
            if plan.board.name_pt > NAME_PT:   # a long name at table size: also off-centre, above and below
                candidates += [(cx - lw / 2 + dx, y) for y in (cy + rr, cy - rr - lh) for dx in (-lw / 3, lw / 3)]
                candidates += [(x, cy - lh / 2 + dy) for x in (cx + rr, cx - rr - lw) for dy in (-lh / 2, lh / 2)]
        best = None
        if tests >= limits.MAX_NAME_TESTS:   # a crammed board's names cost places × obstacles near each: the rest
            box = next(((x, y, lw, lh) for x, y in candidates   # stand at their first spot inside, flagged
                        if x >= ix and y >= iy and x + lw <= ix + iw and y + lh <= iy + ih), (*candidates[0], lw, lh))
            pp.label, pp.label_clean, pp.label_tried = box, False, False
            obstacles.add(_rect_quad(*box))
            continue
        for x, y in candidates:
            box = (x, y, lw, lh)
            inside = x >= ix and y >= iy and x + lw <= ix + iw and y + lh <= iy + ih
            quad = _rect_quad(*box)
            bb = _bbox(quad)
            # a spot replaces the best only with fewer hits: counting stops where it can no longer (the same
            # choice; a crammed board's every spot covers dozens, and counting them all was 196 × 24 × 750 tests)
            score = 0 if inside else 100
            for obb, oq in obstacles.near(bb):
                if best is not None and score >= best[0]:
                    break
                if _bbox_overlap(bb, obb):
                    tests += 1
                    if _box_overlap(quad, oq, obb):
                        score += 1
            if best is None or score < best[0]:
                best = (score, box)
            if score == 0:
                break
        assert best is not None  # there is always a candidate
        score, box = best
        pp.label, pp.label_clean = box, score == 0
        obstacles.add(_rect_quad(*box))
    _place_area_names(plan, obstacles)


class _Obstacles:
    """What a name must not cover, by the cells of a grid its bounding box touches: a name's candidate spot is
    tested against those near it, not every train space of the board (a map has ~700; 40 names × 24 spots)."""

    CELL = 30.0   # mm

    def __init__(self) -> None:
        self._items: list[tuple[tuple[float, float, float, float], Quad]] = []
        self._cells: dict[tuple[int, int], list[int]] = {}

    def add(self, quad: Quad) -> None:
        item = _obstacle(quad)
        for cell in self._cells_of(item[0]):
            self._cells.setdefault(cell, []).append(len(self._items))
        self._items.append(item)

    def near(self, bb: tuple[float, float, float, float]) -> list[tuple[tuple[float, float, float, float], Quad]]:
        """Every obstacle whose bounding box may overlap ``bb`` (shares a cell with it), each once, in order added."""
        found: set[int] = set()
        for cell in self._cells_of(bb):
            found.update(self._cells.get(cell, ()))
        return [self._items[n] for n in sorted(found)]

    def _cells_of(self, bb: tuple[float, float, float, float]):
        x0, y0, x1, y1 = (math.floor(v / self.CELL) for v in bb)
        return ((cx, cy) for cx in range(x0, x1 + 1) for cy in range(y0, y1 + 1))


def _place_area_names(plan: BoardPlan, obstacles: _Obstacles) -> None:
    """Each area's name near the middle of its cities, where it covers nothing; left out where it cannot."""
    ix, iy, iw, ih = plan.inner
    for area in plan.board.areas:
        members = [pp.center for pp in plan.places.values() if pp.place.attrs.get("area") is area]
        if not members:
            continue
        cx = sum(p[0] for p in members) / len(members)
        cy = sum(p[1] for p in members) / len(members)
        lw, lh = bold_width(plan.board.typeset, area.name, AREA_PT) + 2.0, AREA_PT * PT_TO_MM * 1.2
        for dist in (0.0, 12.0, 18.0, 26.0, 34.0):
            found = None
            for angle in range(0, 360, 45):
                x = cx + dist * math.cos(math.radians(angle)) - lw / 2
                y = cy + dist * math.sin(math.radians(angle)) - lh / 2
                quad = _rect_quad(x, y, lw, lh)
                bb = _bbox(quad)
                inside = x >= ix and y >= iy and x + lw <= ix + iw and y + lh <= iy + ih
                if inside and not any(_bbox_overlap(bb, obb) and convex_overlap(quad, oq)
                                      for obb, oq in obstacles.near(bb)):
                    found = (x, y, lw, lh)
                    break
            if found:
                plan.area_labels.append((area, found))
                obstacles.add(_rect_quad(*found))
                break


# ---------------------------------------------------------------- shapes

def _rect_quad(x, y, w, h) -> Quad:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def _segment_quad(p: Point, q: Point, width: float) -> Quad:
    length = math.dist(p, q) or 1.0
    u = ((q[0] - p[0]) / length, (q[1] - p[1]) / length)
    return space_quad(((p[0] + q[0]) / 2, (p[1] + q[1]) / 2), u, length, width)


def _obstacle(quad: Quad) -> tuple[tuple[float, float, float, float], Quad]:
    return _bbox(quad), quad


def _bbox(points) -> tuple[float, float, float, float]:
    xs, ys = zip(*points)
    return (min(xs), min(ys), max(xs), max(ys))


def _bbox_overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def convex_overlap(p: Quad, q: Quad, tolerance: float = 0.05) -> bool:
    """True if two convex polygons overlap by more than ``tolerance`` mm (separating axis test)."""
    return not (_separated_across(p, p, q, tolerance) or _separated_across(q, p, q, tolerance))


def _separated_across(edges: Quad, p: Quad, q: Quad, tolerance: float) -> bool:
    """Whether ``p`` and ``q`` lie apart (by more than ``tolerance`` mm) along the normal of one of the edges of
    ``edges``: the separating axis test's half for one polygon."""
    for (x1, y1), (x2, y2) in zip(edges, edges[1:] + edges[:1]):
        nx, ny = y1 - y2, x2 - x1
        norm = math.hypot(nx, ny) or 1.0
        nx, ny = nx / norm, ny / norm
        pa = [x * nx + y * ny for x, y in p]
        pb = [x * nx + y * ny for x, y in q]
        if max(pa) <= min(pb) + tolerance or max(pb) <= min(pa) + tolerance:
            return True
    return False


def _box_overlap(box: Quad, q: Quad, qbb, tolerance: float = 0.05) -> bool:
    """``convex_overlap(box, q)`` for an upright rectangle ``box`` (``_rect_quad``) and ``q``'s bounding box
    ``qbb``, with the same arithmetic and so the same answer: the box's four axes are the coordinate axes, on
    which ``q`` projects to its bounding box, so they are four comparisons instead of four projections."""
    (x, y), (x2, _), (_, y2), _ = box
    if (y2 <= qbb[1] + tolerance or qbb[3] <= y + tolerance or -x <= -qbb[2] + tolerance
            or -qbb[0] <= -x2 + tolerance or -y <= -qbb[3] + tolerance or -qbb[1] <= -y2 + tolerance
            or x2 <= qbb[0] + tolerance or qbb[2] <= x + tolerance):
        return False
    return not _separated_across(q, box, q, tolerance)


def quad_circle_overlap(quad: Quad, center: Point, r: float) -> bool:
    """True if a convex polygon and a disc overlap."""
    cx, cy = center
    # the centre is inside when it lies on the same side of every edge (whichever way the quad turns)
    sides = [(x2 - x1) * (cy - y1) - (y2 - y1) * (cx - x1) for (x1, y1), (x2, y2) in zip(quad, quad[1:] + quad[:1])]
    if all(side >= 0 for side in sides) or all(side <= 0 for side in sides):
        return True
    return any(segment_distance(center, p, q) < r for p, q in zip(quad, quad[1:] + quad[:1]))


def segment_distance(c: Point, p: Point, q: Point) -> float:
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    seg = dx * dx + dy * dy
    t = 0.0 if seg == 0 else max(0.0, min(1.0, ((c[0] - px) * dx + (c[1] - py) * dy) / seg))
    return math.hypot(c[0] - px - t * dx, c[1] - py - t * dy)


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether the segments cross: each one's ends on either side of the other's line (the orientation of
    (a, b, c) is (b - a) × (c - a)). The second side is worked out only when the first says so: a board asks
    this of every pair of a curved route's 24 segments."""
    (ax, ay), (bx, by) = q1, q2
    d1 = (bx - ax) * (p1[1] - ay) - (by - ay) * (p1[0] - ax)
    d2 = (bx - ax) * (p2[1] - ay) - (by - ay) * (p2[0] - ax)
    if not d1 * d2 < 0:
        return False
    (ax, ay), (bx, by) = p1, p2
    d3 = (bx - ax) * (q1[1] - ay) - (by - ay) * (q1[0] - ax)
    d4 = (bx - ax) * (q2[1] - ay) - (by - ay) * (q2[0] - ax)
    return d3 * d4 < 0


# ---------------------------------------------------------------- problems

def route_keys(routes: list[BoardRoute]) -> list[tuple[str, str, int]]:
    """Each of a board's routes (``board.routes``, in order) as a problem's subject names it: ``(a, b, n)``,
    the two place ids as the route row gives them and ``n`` counting from 0 the routes between those two places."""
    seen: dict[frozenset, int] = {}
    keys = []
    for broute in routes:
        pair = frozenset((broute.route.a.id, broute.route.b.id))
        keys.append((broute.route.a.id, broute.route.b.id, seen.get(pair, 0)))
        seen[pair] = seen.get(pair, 0) + 1
    return keys


def board_problems(plan: BoardPlan) -> list[Problem]:
    """Everything on a map board a designer should fix, in a stable order."""
    problems: list[Problem] = []
    board = plan.board
    ix, iy, iw, ih = plan.inner
    keys = route_keys([rp.route for rp in plan.routes])
    for rp, key in zip(plan.routes, keys):
        src = rp.route.source
        if rp.shortfall > 0.05:
            problems.append(Problem("too-short", src,
                                    f"route {rp.route.name} is {rp.shortfall:.1f} mm too short for its "
                                    f"{rp.route.route.length} spaces on board '{board.id}'",
                                    "move the cities apart, or add bends/curve so the path gets longer", (key,)))
        ends = {rp.route.route.a.id, rp.route.route.b.id}
        x0, y0, x1, y1 = _bbox([*rp.path, *(point for t in rp.tracks for quad in t.spaces for point in quad)])
        over = []
        for pid, pp in plan.places.items():
            if pp.place.id in ends:
                continue
            (cx, cy), reach = pp.center, pp.radius + 1e-6
            if cx + reach <= x0 or cx - reach >= x1 or cy + reach <= y0 or cy - reach >= y1:
                continue   # the city's disc is clear of everything the route draws: the tests below cannot hit
            hit = any(segment_distance(pp.center, p, q) < pp.radius for p, q in zip(rp.path, rp.path[1:]))
            hit = hit or any(quad_circle_overlap(quad, pp.center, pp.radius) for t in rp.tracks for quad in t.spaces)
            if hit:
                over.append(pid)
        if over:
            problems.append(Problem("over-city", src,
                                    f"route {rp.route.name} passes over {', '.join(over)}, which it does not connect",
                                    "add a bend (bends: [[x, y]]) or a curve so the route goes around the city",
                                    (key, *over)))
        outside = [q for t in rp.tracks for q in t.spaces
                   if any(not (ix <= x <= ix + iw and iy <= y <= iy + ih) for x, y in q)]
        if outside:
            problems.append(Problem("off-board", src,
                                    f"route {rp.route.name} has {len(outside)} space(s) outside the playing area "
                                    f"of board '{board.id}'", "move its cities or bends inward", (key,)))
    problems += _crossings(plan, keys)
    problems += _self_overlaps(plan, keys)
    problems += _covered(plan, keys)
    for pp in plan.places.values():
        x, y = pp.center
        area = pp.place.attrs.get("area")
        disc = area is not None and "color" in area.attrs and not board.area_regions   # regions have no disc to cut off
        r = max(pp.radius, AREA_DISC) if disc else pp.radius
        if not (ix + r <= x <= ix + iw - r and iy + r <= y <= iy + ih - r):
            what = f"{pp.place.id}'s {area.id} disc (radius {AREA_DISC:g} mm)" if disc and area else pp.place.id
            problems.append(Problem("off-board", pp.place.source,
                                    f"{what} at [{x:g}, {y:g}] is off the playing area of board '{board.id}' "
                                    f"(inside {ix:g}–{ix + iw:g} × {iy:g}–{iy + ih:g} mm)", "move it inward",
                                    (pp.place.id,)))
        if not pp.label_tried:
            problems.append(Problem("names", pp.place.source,
                                    f"the name of {pp.place.id} was not placed: placing the names of board "
                                    f"'{board.id}' took more than {limits.MAX_NAME_TESTS:,} tests "
                                    f"(limits.MAX_NAME_TESTS), its places are crammed together",
                                    "spread the cities out: a board's names need room around each city",
                                    (pp.place.id,)))
        elif not pp.label_clean:
            problems.append(Problem("names", pp.place.source,
                                    f"the name of {pp.place.id} cannot be placed without covering a route, "
                                    f"a city or another name", "move the city a little, or its neighbours",
                                    (pp.place.id,)))
    return problems


def _covered(plan: BoardPlan, keys: list) -> list[Problem]:
    """Furniture (the title box, the legend) that hides a city, a name or a train space: a player cannot
    see or claim what a box is printed over, so the box moves (``title_at:``/``legend_at:``), not the map."""
    out = []
    board = plan.board
    for what, (x, y, w, h) in plan.furniture.items():
        box = _rect_quad(x, y, w, h)
        places = [pid for pid, pp in plan.places.items()
                  if quad_circle_overlap(box, pp.center, pp.radius)
                  or (pp.label is not None and convex_overlap(box, _rect_quad(*pp.label)))]
        routes = [(key, rp.route.name) for rp, key in zip(plan.routes, keys)
                  if any(convex_overlap(box, quad) for track in rp.tracks for quad in track.spaces)]
        if not places and not routes:
            continue
        hidden = [*places, *(f"spaces of {name}" for _, name in routes)]
        option = f"{what}_at" if what in ("title", "legend") else "at (under trays:)"
        out.append(Problem("covered", board.source,
                           f"the {what} box of board '{board.id}' at [{x:g}, {y:g}] ({w:.0f} × {h:.0f} mm) "
                           f"covers {', '.join(hidden)}",
                           f"place it over empty map with {option}: [x, y] (its top-left corner, mm)",
                           (*(key for key, _ in routes), *places)))
    return out


def _crossings(plan: BoardPlan, keys: list) -> list[Problem]:
    shapes = []   # (route index, bbox, quad)
    for i, rp in enumerate(plan.routes):
        for track in rp.tracks:
            if track.spaces:
                shapes += [(i, _bbox(q), q) for q in track.spaces]
            else:
                shapes += [(i, _bbox(q), q) for q in (_segment_quad(p, r, 1.0) for p, r in zip(track.path, track.path[1:]))]
    shapes.sort(key=lambda s: s[1][0])
    pairs: set[tuple[int, int]] = set()
    for n, (i, bb, quad) in enumerate(shapes):
        for j, obb, other in shapes[n + 1:]:
            if obb[0] >= bb[2]:
                break
            if i == j or (min(i, j), max(i, j)) in pairs or not _bbox_overlap(bb, obb):
                continue
            if plan.board.style == "road" and _share_end(plan.routes[i], plan.routes[j]):
                continue
            if convex_overlap(quad, other):
                pairs.add((min(i, j), max(i, j)))
    # centre lines that cross (routes without a common city): a crossing even where no spaces meet
    boxes = [_bbox(rp.path) for rp in plan.routes]   # each once, not once per pair
    for i, a in enumerate(plan.routes):
        for j in range(i + 1, len(plan.routes)):
            b = plan.routes[j]
            if (i, j) in pairs or not _bbox_overlap(boxes[i], boxes[j]) or _share_end(a, b):
                continue
            if any(segments_cross(p1, p2, q1, q2) for p1, p2 in zip(a.path, a.path[1:])
                   for q1, q2 in zip(b.path, b.path[1:])):
                pairs.add((i, j))
    out = []
    for i, j in sorted(pairs):
        a, b = plan.routes[i], plan.routes[j]
        out.append(Problem("crossing", a.route.source, f"route {a.route.name} overlaps route {b.route.name} "
                                                       f"(line {b.route.source.line})",
                           "move a city or bend one of the routes so their spaces do not overlap", (keys[i], keys[j])))
    return out


def _self_overlaps(plan: BoardPlan, keys: list) -> list[Problem]:
    """A route whose bends double back over its own path: two of its spaces (not neighbours on one track)
    overlap, or its centre line crosses itself. A player could not tell which space is which."""
    out = []
    for rp, key in zip(plan.routes, keys):
        shapes = [(t, n, _bbox(q), q) for t, track in enumerate(rp.tracks) for n, q in enumerate(track.spaces)]
        hit = any(not (t == u and abs(n - m) <= 1) and _bbox_overlap(bb, obb) and convex_overlap(q, oq)
                  for i, (t, n, bb, q) in enumerate(shapes) for u, m, obb, oq in shapes[i + 1:])
        segments = list(zip(rp.path, rp.path[1:]))
        hit = hit or any(segments_cross(p1, p2, q1, q2) for i, (p1, p2) in enumerate(segments)
                         for q1, q2 in segments[i + 2:])
        if hit:
            out.append(Problem("crossing", rp.route.source, f"route {rp.route.name} overlaps itself: its path doubles "
                                                            f"back over its own spaces",
                               "move its bends so the path runs one way (or use curve: instead)", (key,)))
    return out


def _share_end(a: RoutePlan, b: RoutePlan) -> bool:
    return bool({a.route.route.a.id, a.route.route.b.id} & {b.route.route.a.id, b.route.route.b.id})
