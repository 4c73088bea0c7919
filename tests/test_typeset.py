"""A game's body family reaches every text pnpgen prints for it (boards, sheets, labels, stamp), a text
the family cannot print whole falls back to pnpgen's own face, and add-on icons resolve in the add-on."""
from __future__ import annotations

import hashlib
import shutil

from generator.fonts import BOLD_NAME, FONT_NAME, Face, FontFamily, Typeset, register_file
from generator.layout.primitives import Text
from generator.load.game import load_game
from generator.writers.boards import draw_board
from tests.conftest import FIXTURES
from tests.drawing_lib import flat
from tests.test_fonts import TEST_FONT, _font_names

SVG = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>'


def test_demo_boards_and_score_sheet_embed_lato_only(built_game):
    out = built_game("demo-artwork")
    for pdf in ("board-map.pdf", "board-map-tiles-a4.pdf", "board-map-overview.pdf", "score-sheet.pdf",
                "score-markers.pdf"):
        names = {name.split("+")[-1] for name, embedded in _font_names(out / pdf) if embedded}
        assert names <= {"Lato-Regular", "Lato-Bold"} and "Lato-Regular" in names, pdf
    for pdf in ("demo-artwork-rules.pdf", "demo-artwork-print-and-play.pdf"):   # footers, cover and stamp too
        assert not any("IPAex" in name or "BIZ" in name for name, _ in _font_names(out / pdf)), pdf


def test_a_text_the_body_family_cannot_print_whole_is_set_in_the_default_face():
    latin = register_file(TEST_FONT)
    typeset = Typeset(FontFamily(TEST_FONT))
    assert typeset.face("Hamburg").name == latin
    assert typeset.face("Hamburg", bold=True) == Face(latin, fake_bold=True)   # no bold file: synthesised
    assert typeset.face("東京 Tokyo").name == FONT_NAME        # the whole label, not half of it
    assert typeset.face("東京", bold=True).name == BOLD_NAME
    assert typeset.width("東京", 9) == Typeset().width("東京", 9)
    assert Typeset().face("Hamburg").name == FONT_NAME        # no body family: pnpgen's own, as always


def test_board_text_is_measured_and_drawn_in_the_body_family(tmp_path):
    folder = tmp_path / "demo"
    shutil.copytree(FIXTURES.parent.parent / "content" / "demo-artwork", folder)
    game = load_game(folder)
    board = next(iter(game.boards.values()))
    lato = game.typeset.face("x").name
    texts = [i for i in draw_board(game, board).items if isinstance(i, Text)]
    assert texts and {t.font for t in texts} <= {lato, game.typeset.face("x", bold=True).name}
    board.places[0].name = "東京"    # a name Lato has no glyph for: that label alone falls back
    fonts_of = {t.text: t.font for t in draw_board(game, board).items if isinstance(t, Text)}
    assert fonts_of["東京"] == BOLD_NAME and fonts_of[board.places[1].name] != BOLD_NAME


def test_an_add_on_icon_is_resolved_in_the_add_on_folder(tmp_path):
    shutil.copytree(FIXTURES / "mini", tmp_path / "content" / "mini")
    addon = tmp_path / "content" / "mini-addon"
    shutil.copytree(FIXTURES / "mini-addon", addon)
    game_yaml = tmp_path / "content" / "mini" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(
        "  players: [2, 4]\n", "  players: [2, 4]\n  with: [../mini-addon]\n"), encoding="utf-8")
    (addon / "art").mkdir()
    (addon / "art" / "ferry.svg").write_bytes(SVG)   # only in the add-on: the game folder has no art/
    with (addon / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("icons:\n  ferry: art/ferry.svg\n")
    game = load_game(tmp_path / "content" / "mini")
    assert game.icons == {"ferry": (str((addon / "art" / "ferry.svg").resolve()), hashlib.sha256(SVG).hexdigest())}


def test_sheet_text_takes_rich_text_markup(tmp_path):
    from generator.layout.components import component_faces
    from generator.layout.primitives import Group
    folder = tmp_path / "demo"
    shutil.copytree(FIXTURES.parent.parent / "content" / "demo-artwork", folder)
    yaml = folder / "components.yaml"
    yaml.write_text(yaml.read_text(encoding="utf-8").replace(
        "    blocks:\n", "    blocks:\n      - text: \"Score **every** route :locomotive: [#cc0000]now[/], plain *too*.\"\n"
                        "      - list: {items: [{title: \"**Bold** title\", text: \"No markup here\"}]}\n", 1),
        encoding="utf-8")
    game = load_game(folder)
    (sheet, *_) = component_faces(game, game.parts["score-sheet"])
    items = list(flat(sheet.items))
    texts = {t.text: t for t in items if isinstance(t, Text)}
    bold = game.typeset.face("x", bold=True).name
    assert texts["every"].font == bold and texts["Score"].font == game.typeset.face("x").name
    assert texts["now"].fill == "#cc0000" and texts["too"].font != texts["Score"].font   # Lato-Italic
    assert "**" not in "".join(texts) and ":locomotive:" not in "".join(texts)
    plain = load_game(FIXTURES.parent.parent / "content" / "demo-artwork")
    groups = sum(isinstance(i, Group) for i in flat(component_faces(plain, plain.parts["score-sheet"])[0].items))
    assert sum(isinstance(i, Group) for i in items) == groups + 1                 # the inline locomotive
    assert texts["No markup here"].font == game.typeset.face("x").name    # plain text: one Text, as before
