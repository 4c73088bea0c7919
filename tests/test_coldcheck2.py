"""A cold check's last costs (issue 14, branch coldcheck2): pnpgen's own faces measured without ReportLab
(``fonts._Metrics``), so a check of a game without fonts or pictures of its own imports neither ReportLab nor PIL.
Every width and every "has a glyph" answer is ReportLab's, compared here character by character."""
from __future__ import annotations

import dataclasses
import functools
import math
import random
import sys
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics

from generator import fonts
from generator.layout import board_geometry as geo
from tests.conftest import ROOT
from tests.test_startup import _imported, _loaded
from tests.test_startup2 import COLD

OWN = [fonts.FONT_NAME, fonts.BOLD_NAME]


def _reportlab(name: str):
    fonts.register()
    return pdfmetrics.getFont(name).face


@pytest.mark.parametrize("name", OWN)
def test_every_character_measures_as_reportlab_measures_it(name):
    face, own = _reportlab(name), fonts._Metrics(fonts._OWN_FILES[name].read_bytes())
    mapped = set(face.charToGlyph) | set(face.charWidths)
    # every character the face maps, and around each of its cmap's groups (where a search goes wrong), and a
    # sample of the rest of Unicode
    edges = {c + d for start, end in zip(own._starts, own._ends) for c in (start, end) for d in (-1, 0, 1)}
    codes = sorted({c for c in mapped | edges | set(range(0, 0x110000, 97)) | {0x20, 0xA0, 0xFFFF, 0x10FFFF}
                    if 0 <= c < 0x110000})
    assert len(codes) > 12000
    wrong = [hex(c) for c in codes
             if own.width(chr(c)) != face.charWidths.get(c, face.defaultWidth) or own.has(chr(c)) != (c in face.charToGlyph)]
    assert wrong == []
    assert face.charWidths.get(0x10FFF0, face.defaultWidth) == own.width("\U0010fff0") == own.default


@pytest.mark.parametrize("name", OWN)
def test_the_cmap_groups_run_in_order_without_overlapping(name):
    """The binary search relies on it (it is not checked when a process reads the face)."""
    own = fonts._Metrics(fonts._OWN_FILES[name].read_bytes())
    assert all(a <= b for a, b in zip(own._starts, own._ends))
    assert all(b < a for a, b in zip(own._starts[1:], own._ends))


@pytest.mark.parametrize("name", OWN)
def test_a_string_is_as_wide_as_reportlab_says_to_the_last_bit(name):
    """ReportLab's C accelerator adds the widths in order, divides by 1000, then scales: another order of the
    same operations differs in the last bit for one string in ten."""
    face = _reportlab(name)
    chars = [*map(chr, sorted(face.charWidths)[:3000]), "\U0010fff0", " ", "\xa0"]
    rnd = random.Random(14)
    for _ in range(3000):
        text = "".join(rnd.choice(chars) for _ in range(rnd.randint(0, 40)))
        size = rnd.choice([6.5, 7.5, 9.0, 11.3, 13, 30.0])
        assert fonts._own_metrics(name).string_width(text, size) == pdfmetrics.stringWidth(text, name, size)
        assert fonts.text_width_mm(text, size, name) == pdfmetrics.stringWidth(text, name, size) * fonts.PT_TO_MM


def test_missing_glyphs_of_an_own_face_as_its_charset_says():
    text = "Köln – 東京 \u2603\U0001f600 x\xa0y\ue000"
    for name in OWN:
        chars = fonts.charset(name)
        assert fonts.missing_glyphs(text, name) == sorted({c for c in text if not c.isspace() and ord(c) not in chars})
    assert fonts.missing_glyphs(text) == ["\ue000", "\U0001f600"]


def test_own_faces_are_named_at_once_and_registered_when_asked():
    """``register_file`` of pnpgen's own files only names them (the cold check's imports above say ReportLab is
    not reached); ``register`` (the PDF writer, SVG's CSS, a subset's file) registers them with ReportLab."""
    assert fonts.register_file(fonts.FONT_FILE) == fonts.FONT_NAME
    assert fonts.register_file(fonts.BOLD_FILE) == fonts.BOLD_NAME
    assert fonts.resolve(None, bold=True) == fonts.Face(fonts.BOLD_NAME)
    assert fonts.register() == fonts.FONT_NAME
    assert pdfmetrics.getFont(fonts.BOLD_NAME).face.charWidths
    assert fonts.face_file(fonts.BOLD_NAME) == fonts.BOLD_FILE
    assert fonts.css(fonts.FONT_NAME) == ("IPAexGothic", False, False)


@pytest.mark.parametrize("game", ["ttr-germany", "ttr-new-york"])
def test_a_cold_check_of_a_game_without_fonts_or_pictures_imports_neither_reportlab_nor_pil(game):
    modules = _imported("check", str(ROOT / "content" / game), env=COLD)
    assert "generator.check.dry" in modules   # the check ran, and measured text
    assert not [m for m in ("reportlab", "PIL", "generator.fontparse") if _loaded(modules, m)]


SHARED_REPR_MODULES = ("generator.model", "generator.layout.board_geometry", "generator.layout.richtext",
                       "generator.layout.text", "generator.check.registry")


def _shared(method: str) -> list[type]:
    """The classes whose ``method`` is the shared one of ``generator.model`` (``dataclass_repr`` …)."""
    import generator.check.registry
    import generator.layout.board_geometry
    import generator.layout.richtext
    import generator.layout.text
    import generator.model.board
    import generator.model.components
    import generator.model.examples
    import generator.model.game
    import generator.model.maprules
    import generator.model.rules  # noqa: F401
    shared = getattr(sys.modules["generator.model"], f"dataclass_{method}")
    return [cls for name, module in sorted(sys.modules.items()) if name.startswith(SHARED_MODULES)
            for cls in vars(module).values()
            if isinstance(cls, type) and cls.__module__ == name and cls.__dict__.get(f"__{method}__") is shared]


SHARED_MODULES = ("generator.model", "generator.layout.board_geometry", "generator.layout.richtext",
                  "generator.layout.text", "generator.check.registry")


@functools.cache
def _shown() -> list:
    """Every bundled game's model (its decks, cards, boards, routes, components, rules and their examples), its
    boards' plans, findings, the catalogue, and rich text set in a box."""
    from generator.check import catalogue
    from generator.check.board import board_diagnostics
    from generator.check.registry import Finding
    from generator.errors import Diagnostic, Source
    from generator.layout import richtext, text
    from generator.layout.board import plan_for_drawing
    from generator.load.game import load_game
    from generator.load.rules import rules_of

    found = Diagnostic("PNP501", "error", Source(Path("map.yaml"), 12), "route A – B is 3.0 mm too short", "move",
                       subject=(("A", "B", 0),))
    shown: list = [catalogue()[:3], Finding.of(found, "g"), Finding.of(found, "g", waived="a reason")]
    for folder in sorted((ROOT / "content").iterdir()):
        game = load_game(folder)
        plans = [plan_for_drawing(board) for board in game.boards.values() if board.kind == "map"]
        shown.append((game, rules_of(game), plans, [Finding.of(d, game.id) for p in plans for d in board_diagnostics(p)]))
    spans = richtext.parse("**Köln** [red]und[/] *Berlin* :train: 東京", richtext.Markup({"red": "#ff0000"}))
    shown += [spans, richtext.Markup({"red": "#ff0000"}), richtext._lex("a **b** [red]c[/]", richtext.PLAIN, False, False,
                                                                        True), richtext.Typeface(),
              richtext.fit(spans, 30.0, 20.0, 9.0), text.fit("Hamburg Bremen Köln", 20.0, 20.0, 9.0),
              text.fit("Hamburg Bremen Köln", 20.0, 20.0, 8.0)]
    return shown


def _instances(shown) -> dict[type, list]:
    """Every dataclass instance reachable from ``shown``, by class, each once."""
    found: dict[type, list] = {}
    seen: set[int] = set()
    todo = [shown]
    while todo:
        value = todo.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, (list, tuple, set, frozenset)):
            todo.extend(value)
        elif isinstance(value, dict):
            todo.extend(value.values())
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            found.setdefault(type(value), []).append(value)
            todo.extend(getattr(value, f.name) for f in dataclasses.fields(value))
    return found


def test_the_shared_reprs_are_the_ones_dataclass_writes(monkeypatch):
    """The preview's and the cache's keys are these reprs: all of ``_shown`` printed with the shared repr and
    with ``@dataclass``'s own."""
    classes = _shared("repr")
    assert {"Game", "Board", "Deck", "Example", "Chapter", "Span", "BoardPlan", "Problem", "Finding", "Check", "_Tok",
            "Typeface", "Fitted"} <= {c.__name__ for c in classes} and len(classes) >= 40
    shared = repr(_shown())
    for cls in classes:
        made = dataclasses._repr_fn([f for f in dataclasses.fields(cls) if f.repr],   # what @dataclass compiles
                                    sys.modules[cls.__module__].__dict__)
        monkeypatch.setattr(cls, "__repr__", made)
    assert repr(_shown()) == shared
    for name in ("Game(", "Board(", "Deck(", "Route(", "Example(", "Span(", "Component(", "BoardPlan(", "RoutePlan(",
                 "TrackPlan(", "PlacePlan(", "Finding(", "Check(", "_Tok(", "Typeface(", "Fitted(", "Markup("):
        assert name in shared, name


def test_the_shared_eq_and_hash_are_the_ones_dataclass_writes():
    """Each class with the shared ``__eq__`` (and ``__hash__``), its instances in ``_shown`` compared pairwise (and
    with a copy, and with another class's) and hashed, against what ``@dataclass`` compiles for it."""
    classes = _shared("eq")
    hashed = set(_shared("hash"))
    assert {"Chapter", "Example", "MapRules", "Terrain", "Finding", "Check", "Problem", "Fitted", "_Tok"} <= \
        {c.__name__ for c in classes}
    assert {c for c in classes if c.__dataclass_params__.frozen} == hashed and all(
        c.__hash__ is None for c in classes if c not in hashed)   # unhashable, as a non-frozen dataclass with eq
    instances = _instances(_shown())
    tried = 0
    for cls in classes:
        made_eq = dataclasses._cmp_fn("__eq__", "==", dataclasses._tuple_str("self", dataclasses.fields(cls)),
                                      dataclasses._tuple_str("other", dataclasses.fields(cls)),
                                      sys.modules[cls.__module__].__dict__)
        made_hash = dataclasses._hash_fn(dataclasses.fields(cls), sys.modules[cls.__module__].__dict__)
        some = instances.get(cls, [])[:12]
        some += [dataclasses.replace(one) for one in some[:3]]   # equal, not the same
        for a in some:
            for b in [*some, object(), "x"]:
                assert cls.__eq__(a, b) is made_eq(a, b) or cls.__eq__(a, b) == made_eq(a, b)
                tried += 1
            if cls in hashed:   # the same hash, or the same TypeError (a field of a class with no hash: Source)
                assert _outcome(hash, a) == _outcome(made_hash, a)
    assert tried > 500


def _outcome(function, *args):
    try:
        return function(*args)
    except TypeError as error:
        return str(error)


def test_an_object_inside_its_own_repr_is_shown_as_dots():
    from generator.model.rules import Note

    note = Note([], None)
    note.blocks.append(note)
    assert repr(note) == "Note(blocks=[...], source=None)"


def _segments_cross_as_before(p1, p2, q1, q2) -> bool:
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return d1 * d2 < 0 and d3 * d4 < 0


def _leave_as_before(path, center, clear, reverse):
    total = geo.path_length(path)
    step = 0.5
    s = 0.0
    while s <= total:
        p = geo.point_at(path, total - s if reverse else s)
        if math.dist(p, center) >= clear:
            lo, hi = max(0.0, s - step), s
            for _ in range(12):
                mid = (lo + hi) / 2
                if math.dist(geo.point_at(path, total - mid if reverse else mid), center) >= clear:
                    hi = mid
                else:
                    lo = mid
            return total - hi if reverse else hi
        s += step
    return total if not reverse else 0.0


def test_segments_cross_as_before_with_collinear_and_touching_ones():
    rnd = random.Random(5)
    grid = [(float(x), float(y)) for x in range(4) for y in range(4)]   # many collinear and touching cases
    for _ in range(20000):
        if rnd.random() < 0.5:
            points = [rnd.choice(grid) for _ in range(4)]
        else:
            points = [(rnd.uniform(-50, 50), rnd.uniform(-50, 50)) for _ in range(4)]
        assert geo.segments_cross(*points) == _segments_cross_as_before(*points)


def test_the_walk_from_a_city_ends_where_it_did():
    """``_leave`` starts its walk where the path can first be clear of the centre: the same arc length as the walk
    from the path's end, on straight, bent, curved and offset paths, near and far centres."""
    rnd = random.Random(14)
    for _ in range(400):
        a, b = (rnd.uniform(0, 300), rnd.uniform(0, 300)), (rnd.uniform(0, 300), rnd.uniform(0, 300))
        bends = tuple((rnd.uniform(0, 300), rnd.uniform(0, 300)) for _ in range(rnd.choice([0, 0, 1, 2])))
        path = geo.route_path(a, b, bends, rnd.choice([0.0, 0.0, rnd.uniform(-40, 40)]))
        path = geo.offset_path(path, rnd.choice([0.0, 5.25, -5.25, 10.5]))
        for reverse in (False, True):
            center = b if reverse else a
            clear = rnd.choice([8.05, 9.55, rnd.uniform(0.1, 40.0), 500.0])
            assert geo._leave(path, center, clear, reverse, geo._segments(path)) == \
                _leave_as_before(path, center, clear, reverse)


def test_board_points_follow_a_moved_place():
    """``Board.points`` is kept, and made again once a place has another ``at`` (``pnpgen fit`` moves one so)."""
    from generator.load.game import load_game

    board = next(b for b in load_game(ROOT / "content" / "ttr-germany").boards.values() if b.kind == "map")
    first = board.points
    assert board.points == first and board.points is not first   # a list of its own each time
    first.append((0.0, 0.0))
    assert board.points == first[:-1]
    place = board.places[3]
    place.attrs["at"] = (1.5, 2.5)
    assert board.points[3] == (1.5, 2.5) and board.points[:3] == first[:3]
    board.places = board.places[:5]
    assert len(board.points) == 5
