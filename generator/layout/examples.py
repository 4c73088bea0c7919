"""A rule example (``generator.model.examples``) as one picture: a window on the game's own board with the
example player's trains on the tracks, beside the cards it spends or the ticket it completes.

The board is the board form itself, clipped to the window (so the example shows exactly what is
printed, names and all); the cards are the deck's own faces. The form lists both as ``needs``.
"""
from __future__ import annotations

import hashlib
import math

from generator.fonts import PT_TO_MM
from generator.layout import board_geometry as geo
from generator.layout import text as textfit
from generator.layout.board import board_form, shade
from generator.layout.cardface import FaceRenderer
from generator.layout.components.die import DIE
from generator.layout.components.pieces import TILE
from generator.layout.deck import draw_deck
from generator.layout.icons import ICONS
from generator.layout.primitives import Circle, Form, Group, Line, Polygon, Rect, Use
from generator.layout.text import bold_text, cap_height
from generator.model.examples import MARGIN, Example
from generator.model.game import Game

WINDOW_HEIGHT = 90.0   # mm the board window is scaled to, before the rule sheet fits the picture to its column
MIN_WINDOW = 60.0      # mm of board the window shows at least, across and down
GAP = 6.0              # mm between the window and the cards
FAN = 0.42             # of a card's width: how far each card of a fan sits from the one before
ASPECT_CARDS = 0.9    # width / height a window beside cards has at least
ASPECT_ALONE = 1.5    # and a window alone (a double route): wide, as the column is
PIECE_INSET = 1.7     # mm a train piece sits inside its space
WAGON = 5.0           # mm: the wagon drawn on each piece
STRIP_SQUARE = 17.0   # mm: a station of a move's strip
STRIP_GAP = 3.0       # mm between stations
STRIP_TAG = 17.0      # mm: the train type's tag before the stations
STRIP_ARC = 6.0       # mm the hops rise above the stations
STRIP_PT = 7.5        # station names at most
HOUSE = 14.0          # mm: the house badge on a city
DIE_MM = 24.0         # mm: a die result beside the window, at most
TILE_MM = 40.0        # mm: a scoring tile beside the window, at most
RING = 1.1             # mm: the ring around a place the example names
INK = "#2b2620"
ACCENT = "#8a2b1e"
BADGE_PT = 30.0


def example_form(game: Game, example: Example, renderer: FaceRenderer,
                 boards: dict[str, tuple[Form, geo.BoardPlan]] | None = None) -> Form:
    """The example's picture: board window, the player's trains, the cards spent or the ticket, the points.
    ``boards``: the board forms and plans already drawn for this rule sheet, by board id (a board's plan
    places every name: one per sheet, not one per example)."""
    board = example.board
    if board.kind == "line":   # a line board's squares are far apart: the move is drawn as a strip of its own
        strip, width, height = _line_strip(board, example)
        digest = hashlib.sha1(repr((example.kind, strip)).encode("utf-8")).hexdigest()[:12]
        return Form(f"example-{example.kind}-{digest}", tuple(strip), (0.0, 0.0, width, height))
    if boards is not None and board.id in boards:
        whole, plan = boards[board.id]
    else:
        whole, plan = board_form(game, board)   # the plan it was drawn from
        if boards is not None:
            boards[board.id] = (whole, plan)
    x0, y0, w, h = _window(plan, example)
    overlay: list = [Use(whole.name, 0.0, 0.0, clip=(x0, y0, w, h))]
    overlay += _trains(plan, example)
    if example.kind == "double":
        overlay += _closed_tracks(plan, example)
    overlay += [Circle(*plan.places[pid].center, plan.places[pid].radius + RING, stroke=ACCENT, stroke_width=RING)
                for pid in _ringed(example) if pid in plan.places]
    overlay += _houses(plan, example)
    scale = WINDOW_HEIGHT / h
    items: list = [Group(tuple(overlay), -x0 * scale, -y0 * scale, 0.0, scale),
                   Rect(0.0, 0.0, w * scale, h * scale, None, INK, 0.4)]
    needs = [whole]
    x = w * scale + GAP
    shown = list(example.cards) or ([example.ticket] if example.ticket is not None else [])
    if shown:
        deck = shown[0].deck
        faces = draw_deck(game, deck, renderer).faces   # type: ignore[arg-type]   # a deck's card, not a piece's
        forms = [faces[deck.cards.index(card)] for card in shown]
        needs += forms
        bleed = max(0.0, -forms[0].box[0])
        card_w, card_h = forms[0].box[2] - 2 * bleed, forms[0].box[3] - 2 * bleed   # the trimmed card
        fit = min(1.0, WINDOW_HEIGHT / card_h)
        top = (WINDOW_HEIGHT - card_h * fit) / 2
        for n, form in enumerate(forms):   # trimmed, as the card is held: the bleed is cut off
            left = x + n * FAN * card_w * fit
            items.append(Group((Use(form.name, 0.0, 0.0, clip=(0.0, 0.0, card_w, card_h)),), left, top, 0.0, fit))
            items.append(Rect(left, top, card_w * fit, card_h * fit, None, INK, 0.3))
        x += ((len(forms) - 1) * FAN + 1) * card_w * fit
    if example.die_sides:   # a claim with dice: the results used, in a row
        die = example.die
        symbols = list(dict.fromkeys(die.options.symbols))   # type: ignore[attr-defined]
        by_symbol = dict(zip(symbols, DIE.faces(game, die, renderer)))   # type: ignore[arg-type]
        forms = [by_symbol[side] for side in example.die_sides]
        needs += list(dict.fromkeys(forms))
        side_mm = min(DIE_MM, (WINDOW_HEIGHT * 1.6) / len(forms))
        top = (WINDOW_HEIGHT - side_mm) / 2
        for n, form in enumerate(forms):
            fit = side_mm / max(form.box[2], form.box[3])
            left = x + n * (side_mm + 2.0)
            items.append(Group((Use(form.name, 0.0, 0.0),), left - form.box[0] * fit, top - form.box[1] * fit, 0.0, fit))
            items.append(Rect(left, top, side_mm, side_mm, None, INK, 0.3))
        x += len(forms) * (side_mm + 2.0) - 2.0
    if example.tiles:   # the tiles taken, one above the other
        forms = [TILE.front(game, tile.deck, tile, renderer) for tile in example.tiles]   # type: ignore[arg-type]
        needs += forms
        side = min(TILE_MM, (WINDOW_HEIGHT - (len(forms) - 1) * GAP) / len(forms))
        top = (WINDOW_HEIGHT - len(forms) * side - (len(forms) - 1) * GAP) / 2
        for n, form in enumerate(forms):
            bleed = max(0.0, -form.box[0])
            w, h = form.box[2] - 2 * bleed, form.box[3] - 2 * bleed
            fit = side / max(w, h)
            y = top + n * (side + GAP)
            items.append(Group((Use(form.name, 0.0, 0.0, clip=(0.0, 0.0, w, h)),), x, y, 0.0, fit))
            items.append(Rect(x, y, w * fit, h * fit, None, INK, 0.3))
        x += side
    if example.points and example.kind == "claim":
        items += _badge(board.typeset, x + GAP, example.points)
        x += GAP + _badge_width(example.points) + 1.0
    digest = hashlib.sha1(repr((example.kind, items)).encode("utf-8")).hexdigest()[:12]
    width = x if shown or example.points or example.tiles or example.die_sides else w * scale
    return Form(f"example-{example.kind}-{digest}", tuple(items), (0.0, 0.0, width, WINDOW_HEIGHT), tuple(needs))


def _window(plan: geo.BoardPlan, example: Example) -> tuple[float, float, float, float]:
    """The part of the board the example shows: its places and tracks with a margin, at least MIN_WINDOW
    across and down, never past the board's edges."""
    points = [plan.places[pid].center for pid in example.places if pid in plan.places]
    for rp, _track in _placed_tracks(plan, example):
        points += rp.path
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, x1 = min(xs) - MARGIN, max(xs) + MARGIN
    y0, y1 = min(ys) - MARGIN, max(ys) + MARGIN
    board = plan.board
    # landscape or near it: a window beside cards at least ASPECT_CARDS as wide as high, alone ASPECT_ALONE
    aspect = ASPECT_ALONE if not (example.cards or example.ticket) else ASPECT_CARDS
    x0, x1 = _widen(x0, x1, max(MIN_WINDOW, (y1 - y0) * aspect), board.width)
    y0, y1 = _widen(y0, y1, max(MIN_WINDOW, (x1 - x0) / 2.2), board.height)
    return x0, y0, x1 - x0, y1 - y0


def _widen(a: float, b: float, least: float, limit: float) -> tuple[float, float]:
    if b - a < least:
        mid = (a + b) / 2
        a, b = mid - least / 2, mid + least / 2
    if a < 0:
        a, b = 0.0, b - a
    if b > limit:
        a, b = max(0.0, a - (b - limit)), limit
    return a, b


def _line_strip(board, example: Example) -> tuple[list, float, float]:
    """The stations from the move's start to its end in one row: the played type's tag, each station with the
    type's stop mark, the piece's hops from stop to stop above them, the piece at the start, the end framed."""
    ttype = example.train_type
    colour = ttype.attrs["color"].hex if ttype is not None else INK
    stops = {s.id for s in ttype.attrs.get("stops", [])} if ttype is not None else set(example.places)
    index = {s.id: n for n, s in enumerate(board.stations)}
    first, last = index[example.places[0]], index[example.places[-1]]
    shown = board.stations[min(first, last):max(first, last) + 1]
    top = STRIP_ARC + 2.0
    items: list = []
    if ttype is not None:   # the card's type, as a tag in its colour
        items.append(Rect(0.0, top, STRIP_TAG, STRIP_SQUARE, colour, INK, 0.3, 1.5))
        items += _centred(board.typeset, ttype.name, STRIP_TAG / 2, top + STRIP_SQUARE / 2, STRIP_TAG - 2, "#ffffff")
    left = STRIP_TAG + STRIP_GAP if ttype is not None else 0.0
    centres = {}
    mid = top + STRIP_SQUARE / 2
    items.append(Line(left, mid, left + len(shown) * (STRIP_SQUARE + STRIP_GAP) - STRIP_GAP, mid, INK, 1.2))
    for k, station in enumerate(shown):
        x = left + k * (STRIP_SQUARE + STRIP_GAP)
        centres[station.id] = (x + STRIP_SQUARE / 2, top)
        items.append(Rect(x, top, STRIP_SQUARE, STRIP_SQUARE, "#ffffff", INK, 0.4, 1.2))
        items += _centred(board.typeset, station.name, x + STRIP_SQUARE / 2, top + STRIP_SQUARE * 0.42,
                          STRIP_SQUARE - 1.6, INK)
        dot = (x + STRIP_SQUARE / 2, top + STRIP_SQUARE - 3.2)
        items.append(Circle(*dot, 1.8, colour, INK, 0.25) if station.id in stops else Circle(*dot, 0.7, "#c8c2b4"))
    for a, b in zip(example.places, example.places[1:]):   # a hop: an arc from stop to stop over those passed
        (ax, ay), (bx, by) = centres[a], centres[b]
        path = tuple(_quadratic((ax, ay), ((ax + bx) / 2, ay - STRIP_ARC * 1.6), (bx, by)))
        items.append(Polygon(path, closed=False, stroke="#ffffff", stroke_width=2.2))
        items.append(Polygon(path, closed=False, stroke=example.player, stroke_width=1.2))
        items.append(Circle(bx, by, 1.4, example.player, "#ffffff", 0.4))
    sx, sy = centres[example.places[0]]
    items.append(Circle(sx, sy, 2.6, example.player, "#ffffff", 0.6))   # the piece where it starts
    ex = centres[example.places[-1]][0]
    items.append(Rect(ex - STRIP_SQUARE / 2 - 0.9, top - 0.9, STRIP_SQUARE + 1.8, STRIP_SQUARE + 1.8, None, ACCENT, 1.0,
                      1.8))
    width = left + len(shown) * (STRIP_SQUARE + STRIP_GAP) - STRIP_GAP + 1.0
    return items, width, top + STRIP_SQUARE + 1.0


def _centred(typeset, text: str, cx: float, cy: float, width: float, fill: str) -> list:
    """``text`` in bold, as large as fits ``width`` (at most STRIP_PT, two lines), centred on (cx, cy)."""
    fitted = textfit.fit(text, width, STRIP_SQUARE * 0.6, STRIP_PT, 4.0, max_lines=2,
                         font=typeset.face(text, bold=True).name)
    if fitted is None:
        return [bold_text(typeset, cx, cy, text, 4.0, fill=fill, anchor="middle")]
    first = cy - fitted.height / 2 + cap_height(fitted.size)
    return [bold_text(typeset, cx, first + n * fitted.line_height, line, fitted.size, fill=fill, anchor="middle")
            for n, line in enumerate(fitted.lines)]


def _quadratic(a, c, b, steps: int = 16):
    """Points of the quadratic Bézier from ``a`` to ``b`` pulled towards ``c``."""
    for k in range(steps + 1):
        t = k / steps
        yield ((1 - t) ** 2 * a[0] + 2 * (1 - t) * t * c[0] + t * t * b[0],
               (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * c[1] + t * t * b[1])


def _placed_tracks(plan: geo.BoardPlan, example: Example):
    """(route plan, track plan) of every track the example covers with trains."""
    by_route = {id(rp.route.route): rp for rp in plan.routes}
    for route, track in example.placed:
        rp = by_route.get(id(route))
        if rp is not None and track < len(rp.tracks):
            yield rp, rp.tracks[track]


def _trains(plan: geo.BoardPlan, example: Example) -> list:
    """The player's trains: each space covered by a piece of the player's colour, a little inside it."""
    items: list = []
    for _rp, track in _placed_tracks(plan, example):
        for quad in track.spaces:   # inset, so the space's own colour still frames the piece
            piece = _inset(quad, PIECE_INSET)
            items.append(Polygon(piece, fill=example.player, stroke=shade(example.player, 0.5), stroke_width=0.5))
            items.append(_wagon(piece))
        if not track.spaces:   # a road board: the road drawn over in the player's colour
            items.append(Polygon(tuple(track.path), closed=False, stroke=example.player, stroke_width=2.4))
    return items


def _wagon(quad) -> Group:
    """A small white wagon on a piece, turned with it: it is a train, not one more coloured space."""
    (x0, y0), (x1, y1) = quad[0], quad[1]
    angle = math.degrees(math.atan2(y1 - y0, x1 - x0))
    if angle > 90 or angle < -90:
        angle += 180
    cx, cy = sum(p[0] for p in quad) / 4, sum(p[1] for p in quad) / 4
    return Group(tuple(ICONS["wagon"](-WAGON / 2, -WAGON / 2, WAGON, "#ffffff")), cx, cy, angle)


def _houses(plan: geo.BoardPlan, example: Example) -> list:
    """A house of the player's colour on each city where the settled route builds one."""
    items: list = []
    for pid in example.houses:
        if pid in plan.places:
            cx, cy = plan.places[pid].center
            r = plan.places[pid].radius
            items.append(Circle(cx + r * 0.9, cy - r * 0.9, HOUSE / 2 + 0.6, "#ffffff", shade(example.player, 0.5), 0.4))
            items.append(Group(tuple(ICONS["house"](-HOUSE * 0.4, -HOUSE * 0.45, HOUSE * 0.8, example.player)),
                               cx + r * 0.9, cy - r * 0.9))
    return items


def _closed_tracks(plan: geo.BoardPlan, example: Example) -> list:
    """The other tracks of a double route, crossed out: closed once one is taken (with few players)."""
    by_route = {id(rp.route.route): rp for rp in plan.routes}
    items: list = []
    for route, taken in example.placed:
        rp = by_route.get(id(route))
        for n, track in enumerate(rp.tracks if rp is not None else []):
            if n == taken:
                continue
            for quad in track.spaces:
                (ax, ay), (bx, by), (cx, cy), (dx, dy) = quad
                items.append(Line(ax, ay, cx, cy, ACCENT, 0.7))
                items.append(Line(bx, by, dx, dy, ACCENT, 0.7))
    return items


def _ringed(example: Example) -> tuple[str, ...]:
    """The places ringed: a ticket's two ends; a route's two ends."""
    return (example.places[0], example.places[-1]) if example.places else ()


def _inset(quad, by: float):
    cx = sum(p[0] for p in quad) / 4
    cy = sum(p[1] for p in quad) / 4
    out = []
    for x, y in quad:
        dx, dy = cx - x, cy - y
        d = (dx * dx + dy * dy) ** 0.5 or 1.0
        out.append((x + dx * by / d, y + dy * by / d))
    return tuple(out)


def _badge_width(points: int) -> float:
    """The badge's diameter: the number and a margin, in the ring."""
    return BADGE_PT * PT_TO_MM * (0.62 * len(f"+{points}") + 0.5)


def _badge(typeset, x: float, points: int) -> list:
    """The points the example scores, large, in a ring: what the score marker moves."""
    w = _badge_width(points)
    r = w / 2
    cx, cy = x + r, WINDOW_HEIGHT / 2
    return [Circle(cx, cy, r, "#ffffff", ACCENT, 1.2),
            bold_text(typeset, cx, cy + cap_height(BADGE_PT * 0.8) / 2, f"+{points}", BADGE_PT * 0.8, fill=ACCENT,
                      anchor="middle")]
