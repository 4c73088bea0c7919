"""Pictures (PNG, JPEG, SVG): the image element, its box maths, one embedded object per file,
the SVG output's references, and the errors and warnings about picture files.

The pictures are made here with Pillow (small, in a tmp folder); a game is a deck of cards
whose layout places them.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from PIL import Image as PILImage
from pypdf import PdfReader

from generator.errors import ContentError
from generator.layout import images
from generator.layout.board import board_form
from generator.layout.cardface import FaceRenderer
from generator.layout.deck import draw_deck
from generator.layout.primitives import Image
from generator.load.game import load_game

GAME = """game: {title: "Pictures", latin: "Pictures", language: en, players: [2, 4]}
include: [decks.yaml]
print:
  card: {size: [63, 88], bleed: 3, safe: 3}
palette:
  back: {hex: "#1d2a44", name: "back", latin: back}
"""
DECKS = """decks:
  cards:
    name: "Cards"
    latin: Cards
    expected: {n}
    layout: card
    back: {{layout: ttr-back, color: back, icon: star}}
    fields: {{value: int}}
    cards:
{rows}
"""
STAR = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">'
        '<polygon points="50,5 61,39 97,39 68,61 79,95 50,73 21,95 32,61 3,39 39,39" fill="#f5c518"/></svg>')


def picture(path: Path, size=(780, 1080), mode="RGB", color=(40, 120, 200)) -> Path:
    """A picture file; the default is 300 dpi over a 66 × 91.4 mm box."""
    path.parent.mkdir(parents=True, exist_ok=True)
    PILImage.new(mode, size, color).save(path)
    return path


def game(tmp_path: Path, elements: str, n: int = 2, background: str = "paper") -> Path:
    """A deck of ``n`` cards whose layout (layouts/card.yaml) has ``elements`` (YAML lines) after a
    text: the first picture element is on line 5 of the layout."""
    folder = tmp_path / "pics"
    (folder / "layouts").mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    rows = "\n".join(f"      - [{i}]" for i in range(1, n + 1))
    (folder / "decks.yaml").write_text(DECKS.format(n=n, rows=rows), encoding="utf-8")
    (folder / "layouts" / "card.yaml").write_text(
        f"background: {background}\nelements:\n"
        '  - text: {x: 3, y: 3, w: 30, h: 10, text: "{{ card.value }}", size: 20}\n'
        "  # pictures\n" + elements, encoding="utf-8")
    (folder / "rules.md").write_text("# Pictures\n\nA test game.\n", encoding="utf-8")
    return folder


def xobjects(pdf: Path) -> dict[str, list[str]]:
    """A PDF's XObjects by subtype (each object once), with their resource names."""
    found: dict[int, tuple[str, str]] = {}

    def walk(resources):
        if not resources or "/XObject" not in resources:
            return
        for name, ref in resources["/XObject"].items():
            if ref.idnum not in found:
                obj = ref.get_object()
                found[ref.idnum] = (str(obj["/Subtype"]), str(name))
                if obj["/Subtype"] == "/Form":
                    walk(obj.get("/Resources"))

    for page in PdfReader(pdf).pages:
        walk(page.get("/Resources"))
    result: dict[str, list[str]] = {}
    for subtype, name in found.values():
        result.setdefault(subtype, []).append(name)
    return result


# ------------------------------------------------------------------ box maths (mm)
def _box(fit="fit", crop=None):
    return Image(10, 20, 40, 40, "/x.png", "0" * 64, fit, crop)


def test_fit_shows_the_whole_picture_centred_in_proportion():
    where = images.placement(_box("fit"), 200, 100)    # 2:1 in a square 40 mm box
    assert (where.x, where.y, where.w, where.h) == (10, 30, 40, 20)
    assert where.clip is None


def test_fill_covers_the_box_and_clips_the_overflow():
    where = images.placement(_box("fill"), 200, 100)
    assert (where.x, where.y, where.w, where.h) == (-10, 20, 80, 40)
    assert where.clip == (10, 20, 40, 40)


def test_stretch_fills_the_box_out_of_proportion():
    where = images.placement(_box("stretch"), 200, 100)
    assert (where.x, where.y, where.w, where.h) == (10, 20, 40, 40)
    assert where.clip is None


def test_crop_shows_only_its_part_of_the_picture():
    # the right half of a 200 × 100 picture is square: stretched to the box, the whole picture is 80 mm wide
    where = images.placement(_box("stretch", (0.5, 0.0, 0.5, 1.0)), 200, 100)
    assert (where.x, where.y, where.w, where.h) == (-30, 20, 80, 40)
    assert where.clip == (10, 20, 40, 40)
    # fitted, the left quarter (50 × 100, 1:2) is 20 × 40 mm, centred across
    where = images.placement(_box("fit", (0.0, 0.0, 0.25, 1.0)), 200, 100)
    assert (where.x, where.y, where.w, where.h) == (20, 20, 80, 40)
    assert where.clip == (20, 20, 20, 40)


def test_dpi_is_measured_at_the_printed_size():
    pic = images.Picture("/x.png", "0" * 64, "png", 472.44, 472.44)   # 40 mm at 300 dpi
    assert images.dpi(pic, _box("fit")) == pytest.approx(300, abs=0.01)
    assert images.dpi(pic, _box("fit", (0, 0, 0.5, 0.5))) == pytest.approx(150, abs=0.01)


# ------------------------------------------------------------------ one object per file
def test_one_image_xobject_for_fifty_cards_and_one_picture_file_for_their_svgs(tmp_path, run):
    folder = game(tmp_path, '  - image: {src: art/bg.png, x: -3, y: -3, w: 69, h: 94, fit: fill, opacity: 0.8}\n', n=50)
    picture(folder / "art" / "bg.png", (815, 1110), "RGBA", (200, 40, 40, 128))
    out = tmp_path / "out"
    result = run("build", "--all", folder, "--out", out)
    assert result.exit_code == 0, result.output
    built = out / "pics"
    for pdf in ("cards.pdf", "pics-print-shop.pdf", "pics-print-and-play.pdf"):
        found = xobjects(built / pdf)
        assert len(found["/Image"]) == 1, (pdf, found)
        assert len([n for n in found["/Form"] if "img-" in n]) == 1, (pdf, found)
    # the alpha channel is the image's soft mask: transparency kept
    assert b"/SMask" in (built / "cards.pdf").read_bytes()
    # the SVGs refer to one copy of the picture, each once
    digest = images.read(folder / "art" / "bg.png", None).digest
    assert sorted(p.name for p in (built / "svg" / "cards" / "pictures").iterdir()) == [f"{digest[:16]}.png"]
    svgs = sorted((built / "svg" / "cards").glob("*.svg"))
    assert len(svgs) == 51   # 50 faces and the back
    text = svgs[0].read_text(encoding="utf-8")
    assert text.count("<image") == 1 and f'xlink:href="pictures/{digest[:16]}.png"' in text
    assert "back" not in svgs[0].name and "<image" not in (built / "svg" / "cards" / "back.svg").read_text()
    # deterministic: the same content gives the same bytes
    again = tmp_path / "again"
    assert run("build", "--all", folder, "--out", again).exit_code == 0
    assert (again / "pics" / "cards.pdf").read_bytes() == (built / "cards.pdf").read_bytes()


def test_an_svg_picture_is_one_form_of_vectors_whatever_the_uses(tmp_path, run):
    folder = game(tmp_path, '  - image: {src: art/star.svg, x: 5, y: 20, w: 20, h: 20, rotate: 15}\n'
                            '  - image: {src: art/star.svg, x: 30, y: 20, w: 20, h: 30, fit: stretch}\n', n=10)
    (folder / "art").mkdir()
    (folder / "art" / "star.svg").write_text(STAR, encoding="utf-8")
    out = tmp_path / "out"
    result = run("build", "--all", folder, "--out", out)
    assert result.exit_code == 0, result.output
    found = xobjects(out / "pics" / "cards.pdf")
    assert "/Image" not in found, found      # drawn as vectors, not as pixels
    assert len([n for n in found["/Form"] if "img-" in n]) == 1, found
    assert len(list((out / "pics" / "svg" / "cards" / "pictures").iterdir())) == 1


def test_a_picture_named_by_an_expression_per_card(tmp_path, run):
    folder = game(tmp_path, '  - image: {src: "art/{{ card.value }}.png", x: 0, y: 0, w: 20, h: 20}\n', n=2)
    picture(folder / "art" / "1.png", (240, 240), color=(255, 0, 0))
    picture(folder / "art" / "2.png", (240, 240), color=(0, 0, 255))
    out = tmp_path / "out"
    assert run("build", "--all", folder, "--out", out).exit_code == 0
    assert len(xobjects(out / "pics" / "cards.pdf")["/Image"]) == 2


# ------------------------------------------------------------------ findings and errors
def _check(run, folder):
    result = run("check", folder, "--format", "json")
    return result.exit_code, result.output


def test_a_picture_below_300_dpi_is_a_warning_naming_dpi_and_size_pnp720(tmp_path, run):
    folder = game(tmp_path, '  - image: {src: art/small.png, x: 0, y: 20, w: 50.8, h: 25.4}\n')
    picture(folder / "art" / "small.png", (200, 100))   # 100 dpi at 50.8 × 25.4 mm
    code, output = _check(run, folder)
    assert code == 0, output
    findings = [f for f in json.loads(output) if f["code"] == "PNP720"]
    assert len(findings) == 1, output
    finding = findings[0]
    assert finding["severity"] == "warning"
    assert (finding["file"].endswith("layouts/card.yaml"), finding["line"]) == (True, 5)
    assert "prints at 100 dpi" in finding["message"] and "50.8 × 25.4 mm" in finding["message"]
    assert "200 × 100 px" in finding["message"] and "600 × 300 px" in finding["hint"]
    # at 300 dpi, no finding
    picture(folder / "art" / "small.png", (600, 300))
    code, output = _check(run, folder)
    assert "PNP720" not in output


@pytest.mark.parametrize("make,message", [
    (lambda art: None, "picture 'art/x.png' not found"),
    (lambda art: (art / "x.png").write_bytes(picture(art / "y.png").read_bytes()[:200]),
     "picture 'art/x.png' is not a readable PNG image"),
    (lambda art: (art / "x.png").write_text("not a picture"), "picture 'art/x.png' is not a readable PNG image"),
    (lambda art: os.replace(picture(art / "z.jpg"), art / "x.png"), "is named .png but holds JPEG"),
], ids=["missing", "truncated", "text", "jpeg-named-png"])
def test_a_missing_or_malformed_picture_is_exit_2_at_its_line_for_check_and_build(tmp_path, run, make, message):
    folder = game(tmp_path, '  - image: {src: art/x.png, x: 0, y: 0, w: 20, h: 20}\n')
    (folder / "art").mkdir()
    make(folder / "art")
    for command in ("check", "build"):
        result = run(command, folder, "--out", tmp_path / "out") if command == "build" else run(command, folder)
        assert result.exit_code == 2, result.output
        assert "layouts/card.yaml:5" in result.output and message in result.output, result.output
        assert "Traceback" not in result.output
    assert not (tmp_path / "out" / "pics").exists()


@pytest.mark.parametrize("svg,message", [
    ("<svg xmlns='http://www.w3.org/2000/svg'><rect", "is not a readable SVG file"),
    ("<html><body/></html>", "is not an SVG file"),
    ("<svg xmlns='http://www.w3.org/2000/svg'/>", "has no size"),
], ids=["broken", "not-svg", "no-size"])
def test_a_malformed_svg_is_exit_2(tmp_path, run, svg, message):
    folder = game(tmp_path, '  - image: {src: art/x.svg, x: 0, y: 0, w: 20, h: 20}\n')
    (folder / "art").mkdir()
    (folder / "art" / "x.svg").write_text(svg, encoding="utf-8")
    result = run("build", "--all", folder, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "layouts/card.yaml:5" in result.output and message in result.output, result.output


def test_an_svg_reads_no_entity_and_no_file_outside(tmp_path, run):
    """An entity naming a file outside is not expanded (the text is not drawn) and an <image> outside
    the SVG's folder is not followed: an error naming it (round four: it was skipped silently)."""
    secret = tmp_path / "secret.png"
    picture(secret, (10, 10))
    svg = ("<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY xxe SYSTEM 'file:///etc/hostname'>]>"
           "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='10' height='10'>"
           "<text x='1' y='5'>&xxe;</text><image xlink:href='../../secret.png' width='10' height='10'/></svg>")
    folder = game(tmp_path, '  - image: {src: art/x.svg, x: 0, y: 0, w: 20, h: 20}\n')
    (folder / "art").mkdir()
    (folder / "art" / "x.svg").write_text(svg, encoding="utf-8")
    with pytest.raises(ContentError, match="is outside the game folder"):
        images.svg_drawing(str(folder / "art" / "x.svg"), "test-entities")
    (folder / "art" / "x.svg").write_text(svg.replace("<image xlink:href='../../secret.png' width='10' height='10'/>",
                                                      ""), encoding="utf-8")
    drawing = images.svg_drawing(str(folder / "art" / "x.svg"), "test-entities-2")
    texts = [getattr(n, "text", "") for n in _nodes(drawing)]
    hostname = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").exists() else "\0"
    assert not any(hostname in t for t in texts if t), texts
    assert not any(type(n).__name__ == "Image" for n in _nodes(drawing))


def _nodes(group):
    for node in getattr(group, "contents", []):
        yield node
        yield from _nodes(node)


@pytest.mark.parametrize("src", ["../outside.png", "/tmp/outside.png", "art/link.png"], ids=["dotdot", "absolute", "symlink"])
def test_a_picture_outside_the_game_folder_is_refused(tmp_path, run, src):
    folder = game(tmp_path, f'  - image: {{src: "{src}", x: 0, y: 0, w: 20, h: 20}}\n')
    outside = picture(tmp_path / "outside.png", (10, 10))
    (folder / "art").mkdir()
    (folder / "art" / "link.png").symlink_to(outside)
    result = run("build", "--all", folder, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "layouts/card.yaml:5" in result.output
    assert ("outside the game folder" in result.output or "absolute path" in result.output), result.output


def test_a_picture_with_too_many_pixels_is_refused_before_it_is_decoded(tmp_path, monkeypatch, run):
    monkeypatch.setattr(images.limits, "MAX_IMAGE_PIXELS", 100 * 100)
    folder = game(tmp_path, '  - image: {src: art/big.png, x: 0, y: 0, w: 20, h: 20}\n')
    picture(folder / "art" / "big.png", (101, 100))
    result = run("build", "--all", folder, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "more than 10,000 (limits.MAX_IMAGE_PIXELS)" in result.output, result.output


@pytest.mark.parametrize("attrs,message", [
    ("fit: cover", "image fit 'cover'"),
    ("crop: [0.5, 0, 0.6, 1]", "image crop"),
    ("opacity: 2", "image opacity 2"),
])
def test_bad_image_values_name_the_line(tmp_path, run, attrs, message):
    folder = game(tmp_path, f'  - image: {{src: art/a.png, x: 0, y: 0, w: 20, h: 20, {attrs}}}\n')
    picture(folder / "art" / "a.png", (240, 240))
    result = run("build", "--all", folder, "--out", tmp_path / "out")
    assert result.exit_code != 0 and message in result.output and "layouts/card.yaml:5" in result.output, result.output


# ------------------------------------------------------------------ boards and rule sheets
@pytest.fixture
def route_game(tmp_path, run):
    """pnpgen's starter route game with a board background, a river overlay and a picture in rules.md."""
    folder = tmp_path / "route"
    assert run("new", folder, "--language", "en").exit_code == 0
    picture(folder / "art" / "land.jpg", (600, 456), color=(150, 190, 120))
    (folder / "art" / "river.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="200" height="100">'
        '<path d="M0,50 C50,0 100,100 200,40" fill="none" stroke="#3a7bd5" stroke-width="8"/></svg>', encoding="utf-8")
    text = (folder / "map.yaml").read_text(encoding="utf-8")
    assert "    size: [500, 380]\n" in text
    (folder / "map.yaml").write_text(text.replace("    size: [500, 380]\n", "    size: [500, 380]\n"
                                                  "    background: art/land.jpg\n    overlays:\n"
                                                  "      - {src: art/river.svg, at: [40, 120], size: [420, 210], "
                                                  "fit: stretch, opacity: 0.8}\n"), encoding="utf-8")
    rules = (folder / "rules.md").read_text(encoding="utf-8")
    (folder / "rules.md").write_text(rules.replace("## Setup\n", "![The river](art/river.svg)\n\n## Setup\n", 1),
                                     encoding="utf-8")
    return folder


def test_a_board_background_and_overlays_are_drawn_under_the_routes(route_game, run, tmp_path):
    game = load_game(route_game)
    form, _plan = board_form(game, game.boards["map"])
    kinds = [type(item).__name__ for item in form.items]
    pictures = [i for i, item in enumerate(form.items) if isinstance(item, Image)]
    assert len(pictures) == 2
    background, river = (form.items[i] for i in pictures)
    assert (background.x, background.y, background.w, background.h, background.fit) == (0, 0, 500, 380, "fill")
    assert (river.x, river.y, river.w, river.h, river.opacity) == (40, 120, 420, 210, 0.8)
    assert "Polygon" not in kinds[:pictures[1]]        # every train space (a polygon) is drawn after the pictures
    # the background is 600 px over 500 mm: 30 dpi, a warning at map.yaml's background: line
    result = run("check", route_game, "--format", "json")
    assert result.exit_code == 0, result.output
    [finding] = [f for f in json.loads(result.output) if f["code"] == "PNP720"]
    line = (route_game / "map.yaml").read_text(encoding="utf-8").splitlines().index("    background: art/land.jpg") + 1
    assert (finding["file"].endswith("map.yaml"), finding["line"]) == (True, line)
    assert "prints at 30 dpi on board 'map', drawn 500.0 × 380.0 mm" in finding["message"]
    # the rule sheet draws the river picture (one form of vectors) and the HTML shows its SVG
    out = tmp_path / "out"
    assert run("build", "--all", route_game, "--out", out).exit_code == 0
    built = out / "route"
    assert len([n for n in xobjects(built / "route-rules.pdf")["/Form"] if "img-" in n]) == 1
    assert 'src="rules-img/art-river.svg-all.svg" alt="The river"' in (built / "route-rules.html").read_text()
    # shown by the HTML page with <img>, which loads no other file: the picture is inside the SVG
    assert 'xlink:href="data:image/svg+xml;base64,' in (built / "rules-img" / "art-river.svg-all.svg").read_text()
    assert '"pictures/' in (built / "board-map.svg").read_text() and len(list((built / "pictures").iterdir())) == 2
    board = xobjects(built / "board-map.pdf")
    assert len(board["/Image"]) == 1 and len([n for n in board["/Form"] if "img-" in n]) == 2


def test_a_missing_board_overlay_is_exit_2_at_its_line(route_game, run):
    (route_game / "art" / "river.svg").unlink()
    line = next(n for n, text in enumerate((route_game / "map.yaml").read_text().splitlines(), 1) if "river.svg" in text)
    result = run("check", route_game)
    assert result.exit_code == 2 and f"map.yaml:{line}" in result.output and "'art/river.svg' not found" in result.output


def test_a_missing_rule_sheet_picture_is_exit_2_at_its_line(route_game, run):
    rules = (route_game / "rules.md").read_text(encoding="utf-8").replace("art/river.svg", "art/lake.png")
    (route_game / "rules.md").write_text(rules, encoding="utf-8")
    line = rules.splitlines().index("![The river](art/lake.png)") + 1
    result = run("build", "--all", route_game, "--out", route_game.parent / "out")
    assert result.exit_code == 2 and f"rules.md:{line}" in result.output and "'art/lake.png' not found" in result.output


def test_a_layout_background_may_be_a_picture_and_the_bytes_do_not_depend_on_the_folder(tmp_path, run):
    """``background: art/bg.png`` covers the card into the bleed; the same game built from another folder
    gives byte-identical PDFs (a face's form is named by its drawing, which names the picture by its digest)."""
    first = game(tmp_path / "a", "", n=3, background='"art/{{ card.value }}.png"')
    for n in (1, 2, 3):
        picture(first / "art" / f"{n}.png", (300, 300), color=(80 * n, 40, 40))
    shutil.copytree(first, tmp_path / "b" / "pics")
    out = {}
    for name in ("a", "b"):
        folder = tmp_path / name / "pics"
        result = run("build", "--all", folder, "--out", tmp_path / f"out-{name}")
        assert result.exit_code == 0, result.output
        out[name] = next((tmp_path / f"out-{name}").iterdir())
    assert (out["a"] / "cards.pdf").read_bytes() == (out["b"] / "cards.pdf").read_bytes()
    assert len(xobjects(out["a"] / "cards.pdf")["/Image"]) == 3
    game_a = load_game(first)
    form = draw_deck(game_a, game_a.decks["cards"], FaceRenderer(game_a)).faces[0]
    [image] = [item for item in form.items if isinstance(item, Image)]
    assert (image.x, image.y, image.w, image.h, image.fit) == (-3, -3, 69, 94, "fill")


def test_a_picture_file_too_large_is_refused_before_it_is_read(tmp_path, monkeypatch, run):
    monkeypatch.setattr(images.limits, "MAX_IMAGE_BYTES", 100)
    folder = game(tmp_path, '  - image: {src: art/big.png, x: 0, y: 0, w: 20, h: 20}\n')
    picture(folder / "art" / "big.png", (64, 64))
    result = run("check", folder)
    assert result.exit_code == 2 and "more than 100 (limits.MAX_IMAGE_BYTES)" in result.output, result.output


def test_a_picture_on_tokens_is_drawn_from_their_layout(tmp_path, run):
    """Tokens (and tiles, dice faces, sheets) are drawn by layouts too: the image element works there."""
    folder = tmp_path / "route"
    assert run("new", folder, "--language", "en").exit_code == 0
    game_ = load_game(folder)
    token = next(part for part in game_.parts.values() if part.kind == "token")
    layout = folder / "layouts" / "token-art.yaml"
    layout.parent.mkdir(exist_ok=True)
    layout.write_text("elements:\n  - image: {src: art/t.png, x: 0, y: 0, w: \"{{ W }}\", h: \"{{ H }}\"}\n",
                      encoding="utf-8")
    picture(folder / "art" / "t.png", (300, 300))
    text = (folder / "components.yaml").read_text(encoding="utf-8")
    kind = "    kind: token                  # round or square pieces, printed on sheets to cut out\n"
    assert kind in text, text
    (folder / "components.yaml").write_text(text.replace(kind, kind + "    layout: token-art\n", 1), encoding="utf-8")
    out = tmp_path / "out"
    result = run("build", "--all", folder, "--out", out)
    assert result.exit_code == 0, result.output
    pdf = out / "route" / f"{token.id}.pdf"
    assert len(xobjects(pdf)["/Image"]) == 1
