"""``pnpgen fit GAME``: nudge a map board's places, route curves and bend points until the board checks
(PNP501–506) pass, keeping every place close to where it was; show the edits as a unified diff, and
write them only with ``--write``.

The search is the one the former ``tools/fit_board.py`` did (a seeded random search: pick a problem, move a place
it concerns, or bend a route it concerns, keep the move if the cost falls; the same weights), on the
same geometry: every cost is ``board_geometry.board_problems`` of a plan made by ``plan_board``. It is
fast because a move is priced on the part of the board it can change — the routes and places within
reach of the moved place or route, planned on their own — and the whole board is planned again only
to refresh the list of problems and at the end, where the findings reported are those of the whole
board, exactly what ``pnpgen check`` reports on the file written.

The edits are made in the text, value by value, at the positions a round-trip parse (ruamel.yaml)
gives: a number replaced by a number, ``curve: N`` added to a row's extras (or as the row's extras
before its closing bracket). Nothing else in the file changes: comments, alignment, quoting, other
extras on the row. Places or routes read from a spreadsheet are left where they are (said so).
"""
from __future__ import annotations

import dataclasses
import difflib
import os
import random
import re
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from generator import limits
from generator.check.board import CODES, board_diagnostics
from generator.errors import ContentError, Diagnostic, Source
from generator.layout import board_geometry as geo
from generator.layout.board import plan_for_drawing
from generator.load.game import load_game
from generator.model.board import Board, BoardRoute

#: the weight of each kind of problem in the cost (the former tools/fit_board.py's, with PNP506)
WEIGHT = {"PNP501": 10.0, "PNP502": 10.0, "PNP503": 12.0, "PNP504": 3.0, "PNP505": 12.0, "PNP506": 12.0}
#: mm around a move within which routes are planned again to price it (a space's width and more) …
REACH = 12.0
#: … and places (their name boxes reach this far)
NAME_REACH = 30.0
#: moves accepted between two plans of the whole board (which refresh the list of problems)
REFRESH = 8
#: moves in a row that do not help, after which the search stops (what is left needs a designer)
STALL = 150


@dataclass
class FitResult:
    """Board findings before and after, the files' texts (old, new) that changed, and notes."""

    before: list[Diagnostic]
    after: list[Diagnostic]
    texts: dict[Path, tuple[str, str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def diff(self) -> str:
        out: list[str] = []
        for path, (old, new) in self.texts.items():
            out += difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        f"a/{path.name}", f"b/{path.name}")
        return "".join(out)

    def write(self) -> list[Path]:
        """Write each edited file whole or not at all (a temporary file beside it, then renamed over it)."""
        for path, (_, new) in self.texts.items():
            temporary = path.with_name(f".{path.name}.fit-{os.getpid()}")
            try:
                temporary.write_text(new, encoding="utf-8")
                os.replace(temporary, path)
            finally:
                temporary.unlink(missing_ok=True)
        return list(self.texts)


def fit_game(folder: Path, iterations: int = 400, seed: int = 1) -> FitResult:
    """Fit every map board of the game in ``folder``; nothing is written (``FitResult.write`` does)."""
    game = load_game(Path(folder))
    boards = [b for b in game.boards.values() if b.kind == "map"]
    if not boards:
        raise ContentError(game.source, f"game '{game.id}' has no map board to fit",
                           "pnpgen fit moves the places and routes of a map board (boards: with places at: [x, y])")
    result = FitResult([], [])
    places, routes = {}, {}
    origin = {id(p): tuple(p.attrs["at"]) for board in boards for p in board.places}
    for board in boards:
        before, after = _Search(board, random.Random(seed)).run(iterations)
        result.before += before
        result.after += after
        places.update({id(p): p for p in board.places})
        routes.update({id(r): r for r in board.routes})
    moved = [p for p in places.values() if tuple(p.attrs["at"]) != origin[id(p)]]
    result.texts, result.notes = _edits(moved, list(routes.values()))
    return result


class _Search:
    def __init__(self, board: Board, rng: random.Random):
        self.board = board
        self.rng = rng
        self.origin = {p.id: tuple(p.attrs["at"]) for p in board.places}
        self.start = {id(r): (r.curve, r.bends) for r in board.routes}
        self.movable = {p.id for p in board.places if _editable(p.source)}
        self.bendable = [r for r in board.routes if _editable(r.source)]
        full = plan_for_drawing(board)
        self.reserved, self.furniture = list(full.reserved), dict(full.furniture)
        self.by_place: dict[str, list[BoardRoute]] = {}
        for route in board.routes:
            for end in (route.route.a.id, route.route.b.id):
                self.by_place.setdefault(end, []).append(route)
        self.boxes = {id(r): self._box(r) for r in board.routes}
        self.work = 0   # routes priced so far (MAX_FIT_WORK)

    def run(self, iterations: int) -> tuple[list[Diagnostic], list[Diagnostic]]:
        problems = before = board_diagnostics(plan_for_drawing(self.board))
        accepted = stalled = 0
        for _ in range(iterations):
            if not problems or stalled >= STALL or self.work > limits.MAX_FIT_WORK:
                break
            move = self._move(problems[self.rng.randrange(len(problems))])
            if move is not None and self._try(*move):
                accepted, stalled = accepted + 1, 0
                if accepted % REFRESH == 0:
                    problems = board_diagnostics(plan_for_drawing(self.board))
            else:
                stalled += 1
        return before, board_diagnostics(plan_for_drawing(self.board))

    # ---------------------------------------------------------------- moves

    def _move(self, problem: Diagnostic):
        """(what changes: places, routes), apply, undo — or None when nothing it concerns may move."""
        routes, places = concerned(problem, self.board)
        rng = self.rng
        if routes and rng.random() < 0.45:
            route = rng.choice(routes)
            if route not in self.bendable:
                return None
            if route.bends:                     # a row with bends: move one of them (bends and curve exclude)
                i = rng.randrange(len(route.bends))
                old = route.bends
                x, y = old[i]
                new = (*old[:i], (round(x + rng.gauss(0, 7)), round(y + rng.gauss(0, 7))), *old[i + 1:])
                return [], [route], partial(setattr, route, "bends", new), partial(setattr, route, "bends", old)
            old_curve = route.curve
            curve = round(old_curve + rng.choice([-1, 1]) * rng.uniform(4, 14))
            return [], [route], partial(setattr, route, "curve", curve), partial(setattr, route, "curve", old_curve)
        if routes:
            route = rng.choice(routes)
            place = rng.choice([route.route.a, route.route.b])
        else:
            place = places[0] if places else rng.choice(self.board.places)
        if place.id not in self.movable:
            return None
        old_at = place.attrs["at"]
        at = (round(old_at[0] + rng.gauss(0, 7)), round(old_at[1] + rng.gauss(0, 7)))
        return [place], [], partial(place.attrs.__setitem__, "at", at), partial(place.attrs.__setitem__, "at", old_at)

    def _try(self, places, routes, apply, undo) -> bool:
        changed = list(routes) + [r for p in places for r in self.by_place.get(p.id, [])]
        region = [self.boxes[id(r)] for r in changed] + [_point_box(p.attrs["at"]) for p in places]
        apply()
        for route in changed:
            self.boxes[id(route)] = self._box(route)
        region += [self.boxes[id(r)] for r in changed] + [_point_box(p.attrs["at"]) for p in places]
        area, names = _grow(_union(region), REACH), _grow(_union(region), NAME_REACH)
        sub_routes = [r for r in self.board.routes if _overlap(self.boxes[id(r)], area)]
        self.work += len(sub_routes)
        if len(sub_routes) > limits.MAX_FIT_REGION_ROUTES:   # a crowd: pricing it costs like planning the board
            undo()
            for route in changed:
                self.boxes[id(route)] = self._box(route)
            return False
        sub_places = {p.id: p for p in self.board.places if _inside(p.attrs["at"], names)}
        for route in sub_routes:
            sub_places.setdefault(route.route.a.id, route.route.a)
            sub_places.setdefault(route.route.b.id, route.route.b)
        after = self._cost(sub_routes, list(sub_places.values()))
        undo()
        before = self._cost(sub_routes, list(sub_places.values()))
        if after < before - 1e-9:
            apply()
            return True
        for route in changed:
            self.boxes[id(route)] = self._box(route)
        return False

    def _cost(self, routes, places) -> float:
        board = dataclasses.replace(self.board, routes=routes, places=places)
        plan = geo.plan_board(board, reserved=self.reserved)
        plan.furniture = self.furniture
        total = sum(WEIGHT[CODES[p.kind]] for p in geo.board_problems(plan))
        total += sum(rp.shortfall for rp in plan.routes) * 0.5
        total += sum(abs(p.attrs["at"][0] - self.origin[p.id][0]) + abs(p.attrs["at"][1] - self.origin[p.id][1])
                     for p in places) * 0.01
        total += sum(abs(r.curve) for r in routes) * 0.005
        return total

    def _box(self, route: BoardRoute) -> tuple[float, float, float, float]:
        a, b = route.route.a.attrs["at"], route.route.b.attrs["at"]
        path = geo.route_path(tuple(a), tuple(b), route.bends, route.curve)
        xs, ys = [p[0] for p in path], [p[1] for p in path]
        return _grow((min(xs), min(ys), max(xs), max(ys)), self.board.space[1] * len(route.route.colors))


def concerned(diagnostic: Diagnostic, board: Board) -> tuple[list[BoardRoute], list]:
    """The board's routes and places a diagnostic concerns, read from its ``subject`` (route keys
    ``(a, b, n)``, ``board_geometry.route_keys``, and place ids), never from its message."""
    by_key = dict(zip(geo.route_keys(board.routes), board.routes))
    by_id = {p.id: p for p in board.places}
    routes = [by_key[s] for s in diagnostic.subject if isinstance(s, tuple) and s in by_key]
    places = [by_id[s] for s in diagnostic.subject if isinstance(s, str) and s in by_id]
    return routes, places


def _point_box(at) -> tuple[float, float, float, float]:
    return (at[0], at[1], at[0], at[1])


def _union(boxes):
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _grow(box, d: float):
    return (box[0] - d, box[1] - d, box[2] + d, box[3] + d)


def _overlap(a, b) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _inside(at, box) -> bool:
    return box[0] <= at[0] <= box[2] and box[1] <= at[1] <= box[3]


def _editable(src: Source) -> bool:
    return src.file is not None and src.line is not None and src.file.suffix.lower() in (".yaml", ".yml")


# -------------------------------------------------------------------------------- the edits


def _edits(places, routes) -> tuple[dict[Path, tuple[str, str]], list[str]]:
    """The changed files' (old, new) texts: each changed value replaced where it stands."""
    wanted: dict[Path, list] = {}
    for place in places:
        wanted.setdefault(place.source.file, []).append(("place", place))
    for route in routes:
        original = route.route.extras
        if route.curve != float(original.get("curve", 0.0)) or tuple(route.bends) != tuple(original.get("bends", ())):
            wanted.setdefault(route.source.file, []).append(("route", route))
    from ruamel.yaml import YAML  # only when there is something to write: the command line stays quick to start
    from ruamel.yaml.error import YAMLError

    texts, notes = {}, []
    for path, items in sorted(wanted.items(), key=lambda kv: str(kv[0])):
        old = path.read_text(encoding="utf-8")
        try:
            tree = YAML().load(old)
        except YAMLError as error:
            raise ContentError(Source(path), f"cannot read the file to edit it: {error}", "check the YAML") from None
        lines = old.split("\n")
        edits: list[tuple[int, int, int, str]] = []    # (line, start column, end column, new text), 0-based
        for what, item in items:
            node = _find(tree, what, item)
            if node is None:
                notes.append(f"{item.source}: could not find the {what} in the file; change it by hand")
                continue
            if what == "place":
                edits += [_number_edit(lines, node.lc.item(i), value) for i, value in enumerate(item.attrs["at"])]
            else:
                edits += _route_edits(lines, node, item, notes)
        for line, start, end, text in sorted(edits, reverse=True):
            lines[line] = lines[line][:start] + text + lines[line][end:]
        new = "\n".join(lines)
        if new != old:
            texts[path] = (old, new)
    return texts, notes


def _find(tree, what: str, item):
    """The node of a place's ``at`` list, or of a route's row, at the item's line."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    line = item.source.line - 1
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, CommentedMap):
            for key, value in node.items():
                if what == "place" and key == item.id and node.lc.key(key)[0] == line and isinstance(value, CommentedMap):
                    at = value.get("at")
                    return at if isinstance(at, CommentedSeq) and len(at) == 2 else None
                stack.append(value)
        elif isinstance(node, CommentedSeq):
            for i, value in enumerate(node):
                if (what == "route" and isinstance(value, CommentedSeq) and node.lc.item(i)[0] == line
                        and len(value) >= 3 and [str(value[0]), str(value[1])] == [item.route.a.id, item.route.b.id]):
                    return value
                stack.append(value)
    return None


_NUMBER = re.compile(r"[-+]?(?:[0-9][0-9_]*(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def _number_edit(lines: list[str], position, value: float) -> tuple[int, int, int, str]:
    line, column = position
    found = _NUMBER.match(lines[line], column)
    end = found.end() if found else column
    return line, column, end, _mm(value)


def _mm(value: float) -> str:
    return f"{value:g}" if float(value).is_integer() or abs(value) >= 1e-4 else "0"


def _route_edits(lines: list[str], row, route: BoardRoute, notes: list[str]) -> list:
    from ruamel.yaml.comments import CommentedMap

    original = route.route.extras
    edits = []
    extras = row[4] if len(row) > 4 and isinstance(row[4], CommentedMap) else None
    if tuple(route.bends) != tuple(original.get("bends", ())):
        bends = extras.get("bends") if extras is not None else None
        if bends is None or len(bends) != len(route.bends):
            notes.append(f"{route.source}: set bends: {[list(b) for b in route.bends]} by hand")
        else:
            for i, (x, y) in enumerate(route.bends):
                edits += [_number_edit(lines, bends[i].lc.item(0), x), _number_edit(lines, bends[i].lc.item(1), y)]
    if route.curve != float(original.get("curve", 0.0)):
        if extras is not None and "curve" in extras:
            edits.append(_number_edit(lines, extras.lc.value("curve"), route.curve))
        elif extras is not None:
            line, column = _closing(lines, row.lc.item(4), "{", "}")
            edits.append((line, column, column, f", curve: {_mm(route.curve)}"))
        else:
            line, column = _closing(lines, (row.lc.line, row.lc.col), "[", "]")
            edits.append((line, column, column, f", {{curve: {_mm(route.curve)}}}"))
    return edits


def _closing(lines: list[str], start, opening: str, closing: str) -> tuple[int, int]:
    """(line, column) of the bracket that closes the flow collection opening at ``start``, quotes skipped."""
    line, column = start
    depth, quote = 0, ""
    while line < len(lines):
        text = lines[line]
        while column < len(text):
            char = text[column]
            if quote:
                if char == quote:
                    quote = ""
            elif char in "\"'":
                quote = char
            elif char == "#" and column > 0 and text[column - 1] in " \t":
                break
            elif char in "[{":
                depth += 1
            elif char in "]}":
                depth -= 1
                if depth == 0:
                    return line, column
            column += 1
        line, column = line + 1, 0
    raise ContentError(None, f"unbalanced {opening}{closing} in a YAML row", "check the YAML")
