"""Tokens, tiles, dice and sheets: counts from the seeds, geometry in mm, errors with file:line."""
from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from pypdf import PdfReader

from generator.check import run_checks
from generator.layout.cardface import FaceRenderer
from generator.layout.components import KINDS, component_faces
from generator.layout.dicenet import CROSS, NetError, fold
from generator.layout.primitives import Group, Line, Use
from generator.layout.sheets import PAPERS
from generator.load.game import load_game
from generator.model.game import ComponentRow
from tests.conftest import ROOT

MM = 72 / 25.4
GAMES = ["ttr-germany", "ttr-new-york", "ttr-dice", "s-railway", "thurn-and-taxis"]


@pytest.fixture(scope="module")
def games():
    return {name: load_game(ROOT / "content" / name) for name in GAMES}


def _counts(game):
    return {c.id: (c.kind, c.count) for c in game.components() if c.kind not in ("deck", "board")}


def _per_colour(part) -> Counter:
    return Counter({face.color.id: face.count for face in part.faces})


# ---------------------------------------------------------------------- counts from the seeds

def test_every_component_has_its_declared_count(games):
    for game in games.values():
        assert not [f for f in run_checks(game, {"PNP101"})], game.id
        for entry in game.components():
            assert isinstance(entry, ComponentRow) and entry.id and entry.name and entry.kind and entry.unit
            if entry.expected is not None:  # a board has no rulebook count: it is one board
                assert entry.count == entry.expected, entry


def test_germany_pieces(games):
    g = games["ttr-germany"]
    parts = g.parts
    assert _counts(g)["passengers"] == ("token", 60)
    # seed 000: blue, red, green, yellow, black, white passengers, ten of each
    assert _per_colour(parts["passengers"]) == {c: 10 for c in ("blue", "red", "green", "yellow", "black", "white")}
    assert _counts(g)["trains"] == ("token", 225)
    assert sorted(_per_colour(parts["trains"]).values()) == [45] * 5
    assert _counts(g)["score-markers"] == ("token", 5)


def test_new_york_pieces(games):
    g = games["ttr-new-york"]
    assert _counts(g)["taxis"] == ("token", 60)
    assert sorted(_per_colour(g.parts["taxis"]).values()) == [15] * 4
    rows = next(v for k, v, _ in g.parts["score-pad"].options.blocks if k == "score")["rows"]
    assert [r["latin"] for r in rows] == ["Routes", "Tickets completed", "Tickets failed", "Tourist attractions"]


def test_dice_expansion_pieces(games):
    g = games["ttr-dice"]
    assert _counts(g) == {"white-dice": ("die", 5), "black-dice": ("die", 3), "track-tokens": ("token", 30),
                          "turn-aid": ("sheet", 5)}
    white, black = g.parts["white-dice"], g.parts["black-dice"]
    assert Counter(white.options.symbols) == {"track": 2, "double-track": 2, "station": 1, "locomotive": 1}
    assert Counter(black.options.symbols) == {"tunnel": 3, "blank": 3}
    assert Counter({f.icon: f.count for f in g.parts["track-tokens"].faces}) == {"track": 15, "double-track": 15}


def test_thurn_and_taxis_tiles(games):
    g = games["thurn-and-taxis"]
    assert _counts(g)["houses"] == ("token", 80)
    assert sorted(_per_colour(g.parts["houses"]).values()) == [20] * 4
    stacks: dict[str, list[int]] = {}
    for face in g.parts["scoring-tiles"].faces + g.parts["map2-tiles"].faces:
        stacks.setdefault(face.title + face.text, []).append(face.value)
    sizes = sorted(len(v) for v in stacks.values())
    # seed 004: 5 (2), 6 (3), 7+ (4), all areas (4), white (4), 4 × three-tile area stacks, game end (1);
    # map 2: 8+ (4), its own all-areas stack (4), its area tiles copied from map 1's colour for colour
    # (white 4, purple 3, three pairs 3), and one 1-point tile per free city
    assert sizes == sorted([2, 3, 4, 4, 4, 3, 3, 3, 3, 1] + [4, 4, 4, 3, 3, 3, 3, 1, 1, 1, 1])
    assert stacks["ルート 5長さ5で精算"] == [2, 1]   # the seed: the second finisher of route 5 scores 1
    for values in stacks.values():
        assert values == list(range(values[0], values[0] - len(values), -1)), "each later copy is worth 1 less"
    assert _counts(g)["scoring-tiles"] == ("tile", 30) and _counts(g)["map2-tiles"] == ("tile", 28)


def test_thurn_and_taxis_area_tiles_name_real_areas(games):
    g = games["thurn-and-taxis"]
    areas = g.collections["area"]
    need = {face.title.replace("\n", ""): sum(1 for p in g.collections["place"].values() if p.area in face.areas)
            for face in g.parts["scoring-tiles"].faces if face.areas and face.title != "全エリア（南）"}
    # the seed: white 8 cities, purple 3, orange + red 4, light blue + blue 3, light green + dark green 3
    assert need == {"バイエルン": 8, "バーデン": 3, "ボヘミア・ザルツブルク": 4, "スイス・チロル": 3,
                    "ヴュルテンベルク・ホーエンツォレルン": 3}
    everywhere = next(f for f in g.parts["scoring-tiles"].faces if f.title == "全エリア（南）")
    assert {a.id for a in everywhere.areas} == {a for a in areas if a != "Baiern"}  # map 1: every area but white


def test_s_railway_pieces(games):
    g = games["s-railway"]
    assert _counts(g) == {"chips": ("token", 30), "round-marker": ("token", 1), "player-pieces": ("token", 5),
                          "player-markers": ("token", 25), "player-aid": ("sheet", 5)}


def test_optional_sets_say_so(games):
    notes = {c.id: c.note for c in games["ttr-germany"].components()}
    assert notes["trains"].startswith("optional")
    assert notes["passengers"] == ""


def test_list_shows_components(run):
    result = run("list", "content/ttr-dice")
    assert result.exit_code == 0
    for words in ("白ダイス", "die", "線路トークン", "token", "30"):
        assert words in result.stdout


# ---------------------------------------------------------------------- dice nets

def test_cross_net_folds_into_a_cube_with_every_face_once():
    net = fold(CROSS)
    axes = {(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)}
    assert set(net.normals) == axes
    # opposite squares of the cross land on opposite faces
    assert net.normals[0] == tuple(-c for c in net.normals[5])   # top arm / bottom arm
    assert net.normals[1] == tuple(-c for c in net.normals[3])   # left / right of the centre
    # the 12 cube edges: 5 folds + 7 glued pairs, each exactly once
    assert len(net.folds) == 5 and len(net.tabs) == 7 and len(net.glued) == 7
    edges = [net.cube_edge(i, e) for i, e in net.folds + net.tabs]
    assert len(set(edges)) == 12 == len(edges)
    assert {net.cube_edge(i, e) for i, e in net.tabs} == {net.cube_edge(i, e) for i, e in net.glued}


@pytest.mark.parametrize("cells", [
    ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)),        # a strip wraps onto itself
    ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)),        # a 2 × 3 block
    ((0, 0), (1, 0), (2, 0), (3, 0), (0, 2), (1, 2)),        # not joined
])
def test_squares_that_are_no_cube_are_refused(cells):
    with pytest.raises(NetError):
        fold(cells)


def test_all_eleven_cube_nets_fold():
    """Every hexomino that folds into a cube is one of the 11 nets; the fold must accept exactly those."""
    def canonical(cells):
        forms = []
        for flip, turns in product((False, True), range(4)):
            pts = [(-x, y) if flip else (x, y) for x, y in cells]
            for _ in range(turns):
                pts = [(y, -x) for x, y in pts]
            mx, my = min(x for x, _ in pts), min(y for _, y in pts)
            forms.append(tuple(sorted((x - mx, y - my) for x, y in pts)))
        return min(forms)

    shapes = {((0, 0),)}
    for _ in range(5):
        shapes = {canonical(s + ((x + dx, y + dy),)) for s in shapes for x, y in s
                  for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)) if (x + dx, y + dy) not in s}
    assert len(shapes) == 35   # the free hexominoes
    folding = 0
    for shape in shapes:
        try:
            fold(shape)
            folding += 1
        except NetError:
            pass
    assert folding == 11


def test_net_pdf_places_each_face_once_on_the_cross(games, tmp_path):
    g = games["ttr-dice"]
    white = g.parts["white-dice"]
    doc = KINDS["die"].nets(g, white, FaceRenderer(g), "a4")
    assert len(doc.pages) == 1
    uses = [u for u in doc.pages[0].items if isinstance(u, Use)]
    assert len(uses) == 5 * 6
    s = white.options.net_size
    first = uses[:6]
    ox, oy = first[2].x, first[2].y   # the centre square of the cross is (1, 1)
    cells = [((u.x - ox) / s + 1, (u.y - oy) / s + 1) for u in first]
    assert cells == [pytest.approx(c) for c in CROSS]
    # the six squares carry the six symbols of faces:, in order
    symbols = white.options.symbols
    assert len({u.name for u in first}) == len(set(symbols))
    for u, symbol in zip(first, symbols):
        assert u.name.startswith(f"white-dice-{symbol}-20-")
    # nets stay inside the printable area
    tab = white.options.tab
    for u in uses:
        assert u.x - tab > 5.0 and u.x + s + tab < PAPERS["a4"][0] - 5.0


def test_stickers_fit_16_mm_dice(games):
    g = games["ttr-dice"]
    black = g.parts["black-dice"]
    assert black.options.die_size == 16.0 and black.options.sticker == 14.0
    doc = KINDS["die"].stickers(g, black, FaceRenderer(g), "a4")
    uses = [u for u in doc.pages[0].items if isinstance(u, Use)]
    assert len(uses) == 3 * 6
    xs = sorted({round(u.x, 3) for u in uses})
    assert xs[1] - xs[0] == pytest.approx(14.0 + 2 * 1.0)  # sticker + 1 mm bleed each side
    assert any(isinstance(i, Line) for i in doc.pages[0].items)  # crop marks


def test_sticker_symbols_are_drawn_at_sticker_size(games):
    """The same layout draws net faces (20 mm) and stickers (14 mm): each at its own size."""
    g = games["ttr-dice"]
    white = g.parts["white-dice"]
    renderer = FaceRenderer(g)
    KINDS["die"].nets(g, white, renderer, "a4")      # the net first, with the shared renderer
    doc = KINDS["die"].stickers(g, white, renderer, "a4")
    track = next(f for name, f in doc.forms.items() if name.startswith("white-dice-track-14-"))
    rails = [i for i in track.items if isinstance(i, Line)]
    assert rails
    for rail in rails:
        assert 0 < rail.x1 < rail.x2 < 14.0
        assert (rail.x1 + rail.x2) / 2 == pytest.approx(7.0)   # centred on the sticker


# ---------------------------------------------------------------------- tokens: duplex and fold-over

@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_duplex_token_backs_line_up_with_fronts(games, paper):
    g = games["ttr-germany"]
    part = g.parts["passengers"]
    (out,) = KINDS["token"].outputs(g, part, FaceRenderer(g), paper)
    pages = out.doc.pages
    assert len(pages) == 2  # 60 tokens of 14 mm fit one sheet: front, back
    front = [u for u in pages[0].items if isinstance(u, Use)]
    back = [u for u in pages[1].items if isinstance(u, Use)]
    assert len(front) == len(back) == 60
    width = PAPERS[paper][0]
    for f, b in zip(front, back):
        assert b.x == pytest.approx(width - f.x - part.geometry.width)
        assert b.y == pytest.approx(f.y)
        assert b.name == f.name  # the same colour on both sides


def test_fold_over_strip_turns_the_back_below_the_fold(games):
    g = games["ttr-new-york"]
    part = g.parts["taxis"]
    (out,) = KINDS["token"].outputs(g, part, FaceRenderer(g), "a4")
    doc = out.doc
    assert len(doc.pages) == 1  # one-sided paper
    uses = [u for u in doc.pages[0].items if isinstance(u, Use)]
    w, h, b = part.geometry.width, part.geometry.height, part.geometry.bleed
    fronts = [u for u in uses if u.name.endswith("-fold-top")]
    backs = [u for u in uses if u.name.endswith("-turned")]
    folds = [u for u in uses if u.name.startswith("fold-line")]
    assert len(fronts) == len(backs) == len(folds) == 60
    for f, bk, fl in zip(fronts, backs, folds):
        assert (bk.x, bk.y) == (pytest.approx(f.x), pytest.approx(f.y + h))
        assert (fl.x, fl.y) == (pytest.approx(f.x), pytest.approx(f.y + h))
    top, turned = doc.forms[fronts[0].name], doc.forms[backs[0].name]
    assert top.box == (-b, -b, w + 2 * b, h + b)        # no bleed past the fold
    assert turned.box == (-b, 0.0, w + 2 * b, h + b)
    (group,) = turned.items
    assert isinstance(group, Group) and (group.dx, group.dy, group.rotate) == (w, h, 180.0)


def test_component_faces_gives_forms_for_every_kind(games):
    g = games["thurn-and-taxis"]
    tiles = component_faces(g, g.parts["scoring-tiles"])
    assert len(tiles) == 30   # every copy has its own value, so every tile is a distinct face
    assert len(component_faces(g, g.parts["houses"])) == 4
    dice = games["ttr-dice"]
    assert len(component_faces(dice, dice.parts["white-dice"])) == 4   # distinct symbols
    (sheet,) = component_faces(g, g.parts["officials"])
    assert sheet.box[2] == 210.0


# ---------------------------------------------------------------------- built files

@pytest.fixture(scope="module")
def dice_build(built_game):
    return built_game("ttr-dice")


def test_dice_expansion_files(dice_build):
    names = sorted(p.name for p in dice_build.iterdir())
    assert names == ["black-dice-nets.pdf", "black-dice-stickers.pdf", "components.csv", "rules-img", "svg",
                     "track-tokens.pdf", "ttr-dice-print-and-play.pdf", "ttr-dice-rules.html", "ttr-dice-rules.pdf",
                     "turn-aid.pdf", "white-dice-nets.pdf", "white-dice-stickers.pdf"]
    assert sorted(p.name for p in (dice_build / "svg" / "white-dice").iterdir()) == [
        "001.svg", "002.svg", "003.svg", "004.svg"]
    reader = PdfReader(dice_build / "turn-aid.pdf")
    assert len(reader.pages) == 2   # five 63 × 88 mm card aids on one A4 sheet: its fronts, then their backs
    assert float(reader.pages[0].mediabox.width) == pytest.approx(210 * MM, abs=0.01)
    assert "白ダイス" in reader.pages[0].extract_text()


def test_sheet_fonts_are_embedded(dice_build):
    from tests.golden_lib import pdf_fonts
    from tests.test_build_output import _embedded
    fonts = pdf_fonts(PdfReader(dice_build / "turn-aid.pdf"))
    assert fonts and all(_embedded(f) for f in fonts.values())
    # pnpgen's own faces only: IPAexGothic, and BIZ UDPGothic Bold for titles and headings
    assert {name.split("+")[-1] for name in fonts} == {"IPAexGothic", "BIZUDPGothic-Bold"}


# ---------------------------------------------------------------------- mistakes

COMPONENTS = """\
components:
  chips:
    kind: token
    name: チップ
    expected: 6
    shape: circle
    size: 15
    sides: 2
    colors: [red, blue]
    count_each: 3
  dice:
    kind: die
    name: ダイス
    expected: 2
    dice: 2
    color: red
    faces: {star: 3, blank: 3}
  aid:
    kind: sheet
    name: 早見表
    expected: 1
    blocks:
      - heading: {text: 得点}
      - table: {table: scoring, header: [{name: 長さ}, {name: 点}]}
tables:
  scoring: {1: 1, 2: 2}
"""


@pytest.fixture
def parts(mini):
    text = (mini / "game.yaml").read_text(encoding="utf-8")
    (mini / "game.yaml").write_text(text.replace("include: [decks.yaml]", "include: [decks.yaml, components.yaml]"),
                                    encoding="utf-8")
    (mini / "components.yaml").write_text(COMPONENTS, encoding="utf-8")
    return mini


def test_mini_components_build(parts, run, tmp_path):
    result = run("build", parts, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    built = sorted(p.name for p in (tmp_path / "out" / "mini").iterdir())
    for name in ("chips.pdf", "dice-nets.pdf", "dice-stickers.pdf", "aid.pdf"):
        assert name in built


def test_a_legend_shows_each_die_face_with_its_label(games):
    g = games["ttr-dice"]
    front, _back = component_faces(g, g.parts["turn-aid"])   # a card aid: its front and its back
    (card,) = [i for i in front.items if isinstance(i, Group)]
    assert card.scale == pytest.approx(0.78)   # the card's text and pictures are set at 78 %
    faces = [i for i in card.items if isinstance(i, Group)]
    assert len(faces) == 4 + 2   # white: track, double track, station, locomotive; black: tunnel, blank
    texts = [i.text for i in card.items if hasattr(i, "text")]
    for label in ("単線", "複線", "駅", "トンネル", "無地"):
        assert label in texts
    # in rows, at least 20 mm + 5 mm apart before the card's scale
    xs = [f.dx for f in faces[:3]]
    assert len({f.dy for f in faces[:3]}) == 1
    assert all(b - a >= 25.0 - 1e-6 for a, b in zip(xs, xs[1:]))


MISTAKES = [
    # (old, new, exit code, line, message, hint)
    ("    kind: token\n", "    kind: tokn\n", 3, "unknown component kind 'tokn'", "did you mean 'token'", 2),
    ("    shape: circle\n", "    shape: circel\n", 6, "components.chips.shape", "use one of: circle, square, rect", 2),
    ("    count_each: 3\n", "    count_eech: 3\n", 10, "unknown key 'count_eech'", "did you mean 'count_each'", 2),
    ("    count_each: 3\n", "", 9, "lists colors: but not count_each:", "count_each: N", 2),
    ("    colors: [red, blue]\n", "    colors: [red, bleu]\n", 9, "unknown color 'bleu'", "did you mean 'blue'", 2),
    ("    faces: {star: 3, blank: 3}\n", "    faces: {star: 3, blank: 2}\n", 17, "has 5 faces, a die has 6",
     "add up to 6", 2),
    ("    faces: {star: 3, blank: 3}\n", "    faces: {stra: 3, blank: 3}\n", 17, "unknown die symbol 'stra'",
     "did you mean 'star'", 2),
    ("      - table: {table: scoring,", "      - table: {table: scorng,", 24, "shows table 'scorng'",
     "did you mean 'scoring'", 2),
    ("    expected: 6\n", "    expected: 7\n", 5, "has 6 tokens but declares expected: 7", "change `expected:`", 1),
    ("    sides: 2\n", "    sides: 1\n    print: fold\n", 9, "is one-sided", "remove `print:`", 2),
    ("    size: 15\n", "    size: [15]\n", 7, "components.chips.size: [15]", "or [width, height] with shape: rect", 2),
    ("    dice: 2\n", "    dice: 0\n", 15, "components.dice.dice: 0", "use a number ≥ 1", 2),
    ("      - heading: {text: 得点}\n", "      - legend: {component: chipz}\n", 23, "shows the faces of 'chipz'",
     "did you mean 'chips'", 2),
]


@pytest.mark.parametrize("old,new,line,message,hint,code", MISTAKES, ids=[m[3][:30] for m in MISTAKES])
def test_component_mistakes_point_at_the_line(parts, run, tmp_path, old, new, line, message, hint, code):
    text = (parts / "components.yaml").read_text(encoding="utf-8")
    assert old in text
    (parts / "components.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    result = run("build", parts, "--out", tmp_path / "out")
    assert result.exit_code == code, result.output
    err = result.stderr
    assert "Traceback" not in err
    assert message in err
    assert hint in err
    assert f"components.yaml:{line}" in err
    assert not (tmp_path / "out" / "mini").exists()


def test_sheet_that_runs_off_the_page_is_refused(parts, run, tmp_path):
    text = (parts / "components.yaml").read_text(encoding="utf-8")
    long = "      - text: " + "長い説明の文です。" * 400 + "\n"
    (parts / "components.yaml").write_text(text.replace("      - heading: {text: 得点}\n",
                                                        "      - heading: {text: 得点}\n" + long), encoding="utf-8")
    result = run("build", parts, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "sheet 'aid' needs" in result.stderr and "components.yaml:24" in result.stderr
    assert "this block runs off the bottom" in result.stderr


def test_count_check_is_the_checkers_pnp101(games):
    g = load_game(ROOT / "content" / "ttr-dice")
    g.parts["white-dice"].faces[0].count = 4
    (finding,) = run_checks(g, {"PNP101"})
    assert "die 'white-dice' has 4 dice but declares expected: 5" in finding.message
    assert str(finding.source).endswith("components.yaml:16")  # the `expected:` line
