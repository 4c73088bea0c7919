"""The print-and-play file, components.csv, and composing an add-on into a game."""
from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.errors import BuildError
from generator.fonts import Typeset
from generator.layout.primitives import Document, Form, Rect
from generator.load.game import load_game
from generator.load.rules import load_rules
from generator.writers.context import Printable
from generator.writers.printandplay import merge_forms, rank
from tests.conftest import FIXTURES, ROOT
from tests.golden_lib import pdf_fonts
from tests.test_build_output import _embedded

MINI_RULES = "# {{ title }}\n\n{{ components_table() }}\n\n{{ picture('trains') }}\n"


def pages(pdf: Path) -> int:
    return len(PdfReader(pdf).pages)


def read_csv(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture
def built(mini, run, tmp_path):
    (mini / "rules.md").write_text(MINI_RULES, encoding="utf-8")
    result = run("build", "--all", mini, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    return tmp_path / "out" / "mini"


def test_print_and_play_is_the_cover_then_every_part_each_from_an_odd_page(built):
    pnp = built / "mini-print-and-play.pdf"
    parts = [built / "mini-rules.pdf", built / "trains.pdf", built / "tickets.pdf"]  # print order: rules, cards
    sizes = [pages(p) for p in parts]
    assert sizes == [1, 2, 4]
    cover = 1  # one page of checklist, padded to 2 so the rules start on a front side
    assert pages(pnp) == (cover + 1) + sum(n + n % 2 for n in sizes) == 10
    rows = read_csv(built / "components.csv")
    assert [r["pages"] for r in rows] == ["3", "5-6", "7-10"]
    # the part's pages are the part's own: the same text lands on the page the list names
    reader = PdfReader(pnp)
    assert "内容物" in reader.pages[0].extract_text() and "mini-rules.pdf" in reader.pages[0].extract_text()
    assert reader.pages[2].extract_text() == PdfReader(parts[0]).pages[0].extract_text()
    assert "白紙" in reader.pages[3].extract_text()
    # a viewer's bookmarks lead to each part
    assert [(o.title, reader.get_destination_page_number(o) + 1) for o in reader.outline] == [
        ("内容物と印刷の手引き", 1), ("ルール / Rules", 3), ("列車カード / Train cards", 5),
        ("行き先チケット / Tickets", 7)]


def test_components_csv_lists_every_component_with_its_count_file_and_pages(built):
    rows = read_csv(built / "components.csv")
    assert list(rows[0]) == ["component", "kind", "count", "file", "pages"]
    assert [(r["component"], r["kind"], r["count"], r["file"]) for r in rows] == [
        ("ルール / Rules", "rules", "1", "mini-rules.pdf"),
        ("列車カード / Train cards", "deck", "5", "trains.pdf"),
        ("行き先チケット / Tickets", "deck", "11", "tickets.pdf"),
    ]
    total = pages(built / "mini-print-and-play.pdf")
    for row in rows:
        assert (built / row["file"]).is_file()
        first, _, last = row["pages"].partition("-")
        assert 1 < int(first) <= int(last or first) <= total
        assert int(first) % 2 == 1  # every part starts on a front side


def test_print_and_play_fonts_are_embedded_and_the_build_is_byte_identical(built, mini, run, tmp_path):
    for pdf in ("mini-print-and-play.pdf", "mini-rules.pdf"):
        fonts = pdf_fonts(PdfReader(built / pdf))
        assert fonts and all(_embedded(f) and "+" in name for name, f in fonts.items())
    again = run("build", "--all", mini, "--out", tmp_path / "again")
    assert again.exit_code == 0
    for name in ("mini-print-and-play.pdf", "mini-rules.pdf", "mini-rules.html", "components.csv"):
        assert (built / name).read_bytes() == (tmp_path / "again" / "mini" / name).read_bytes(), name


def test_a_game_without_rules_still_gets_its_print_and_play_file(mini, run, tmp_path):
    result = run("build", "--all", mini, "--out", tmp_path / "out")
    assert result.exit_code == 0
    out = tmp_path / "out" / "mini"
    assert not (out / "mini-rules.pdf").exists()
    assert pages(out / "mini-print-and-play.pdf") == 2 + 2 + 4
    assert [r["component"] for r in read_csv(out / "components.csv")] == ["列車カード / Train cards",
                                                                         "行き先チケット / Tickets"]


def test_parts_are_ordered_by_kind():
    kinds = ["cards", "die", "rules", "token", "board tiles", "sheet", "print shop", "tile"]
    assert sorted(kinds, key=rank) == ["rules", "board tiles", "cards", "token", "tile", "die", "sheet", "print shop"]


def test_a_form_name_drawn_two_ways_is_refused():
    merged = Document("all")
    one = Form("face-1", (Rect(0, 0, 1, 1, "#000000"),), (0, 0, 1, 1))
    merge_forms(merged, Printable("a", Document("a", forms={"face-1": one}), "cards", Path("a.pdf")))
    same = Form("face-1", (Rect(0, 0, 1, 1, "#000000"),), (0, 0, 1, 1))
    merge_forms(merged, Printable("b", Document("b", forms={"face-1": same}), "cards", Path("b.pdf")))
    other = Form("face-1", (Rect(0, 0, 2, 1, "#000000"),), (0, 0, 1, 1))
    with pytest.raises(BuildError, match="draw form 'face-1' differently"):
        merge_forms(merged, Printable("c", Document("c", forms={"face-1": other}), "cards", Path("c.pdf")))


@pytest.mark.parametrize("game", ["ttr-germany", "ttr-new-york", "ttr-dice", "s-railway", "thurn-and-taxis"])
def test_every_bundled_game_builds_its_rule_sheet_and_print_and_play_file(built_game, game):
    out = built_game(game)
    assert pages(out / f"{game}-rules.pdf") >= 1
    assert (out / f"{game}-rules.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    rows = read_csv(out / "components.csv")
    components = load_game(ROOT / "content" / game).components()
    assert {r["component"] for r in rows} >= {c.name for c in components}
    printed = [r for r in rows if r["pages"]]
    last = max(int(span.rpartition("-")[2]) for r in printed for span in r["pages"].split())
    assert last <= pages(out / f"{game}-print-and-play.pdf") <= last + 1


# --------------------------------------------------------------------------- composition

def test_with_composes_an_add_on_into_its_own_output_folder(mini, run, tmp_path):
    (mini / "rules.md").write_text(MINI_RULES, encoding="utf-8")
    result = run("build", "--all", mini, "--with", FIXTURES / "mini-addon", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    out = tmp_path / "out" / "mini+mini-addon"
    assert not (tmp_path / "out" / "mini").exists()  # the plain game's output is another folder
    assert (out / "bonus.pdf").is_file()
    rows = read_csv(out / "components.csv")
    assert ("ボーナスカード / Bonus cards", "2") in [(r["component"], r["count"]) for r in rows]
    text = "".join(p.extract_text() for p in PdfReader(out / "mini+mini-addon-rules.pdf").pages)
    assert "ミニ拡張" in text and "ミニゲームの列車カードは使いません" in text


def test_each_chapter_lists_its_own_components(mini):
    (mini / "rules.md").write_text(MINI_RULES, encoding="utf-8")
    game = load_game(mini, (str(FIXTURES / "mini-addon"),))
    assert game.id == "mini+mini-addon"
    base, addon = load_rules(game)
    assert [c.title for c in (base, addon)] == ["ミニゲーム", "ミニ拡張"]
    assert base.component_ids == ("trains", "tickets") and addon.component_ids == ("bonus",)


def test_an_add_on_declared_in_game_yaml_is_part_of_the_game(tmp_path, run):
    shutil.copytree(FIXTURES / "mini", tmp_path / "content" / "mini")
    shutil.copytree(FIXTURES / "mini-addon", tmp_path / "content" / "mini-addon")
    game_yaml = tmp_path / "content" / "mini" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(
        "  players: [2, 4]\n", "  players: [2, 4]\n  with: [../mini-addon]\n"), encoding="utf-8")
    game = load_game(tmp_path / "content" / "mini")
    assert game.id == "mini" and [a.id for a in game.addons] == ["mini-addon"]
    assert list(game.decks) == ["trains", "tickets", "bonus"]
    result = run("list", tmp_path / "content" / "mini")
    assert "ボーナスカード" in result.output


@pytest.mark.parametrize("declared, message", [
    ("[../../elsewhere]", "is outside content/"),
    ("[../nosuch]", "is not a game folder"),
    ("[../mini]", "composed twice (or into itself)"),
])
def test_bad_add_on_declarations_are_clear_errors(tmp_path, run, declared, message):
    shutil.copytree(FIXTURES / "mini", tmp_path / "content" / "mini")
    (tmp_path / "elsewhere").mkdir()
    game_yaml = tmp_path / "content" / "mini" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8").replace("  players: [2, 4]\n", f"  players: [2, 4]\n  with: {declared}\n")
    game_yaml.write_text(text, encoding="utf-8")
    result = run("build", "--all", tmp_path / "content" / "mini", "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "game.yaml:6" in result.output and message in result.output


def test_an_add_on_that_redefines_a_key_differently_is_refused(mini, tmp_path, run):
    addon = tmp_path / "addon"
    shutil.copytree(FIXTURES / "mini-addon", addon)
    decks = addon / "decks.yaml"
    decks.write_text(decks.read_text(encoding="utf-8").replace('"#cc2222"', '"#ff0000"'), encoding="utf-8")
    result = run("build", "--all", mini, "--with", addon, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "decks.yaml:2" in result.output and "defines 'red' in palette differently" in result.output


def test_with_needs_a_game(run):
    result = run("build", "--all", "--with", "content/ttr-dice")
    assert result.exit_code == 2 and "name the game too" in result.output


def test_dice_composed_into_germany_says_train_cards_are_not_used():
    game = load_game(ROOT / "content/ttr-germany", (str(ROOT / "content/ttr-dice"),))
    dice = load_rules(game)[-1]
    assert dice.title == "チケット・トゥ・ライド ダイス拡張"
    assert "チケット・トゥ・ライド ドイツの列車カード（110枚）は使いません" in dice.markdown
    alone = load_rules(load_game(ROOT / "content/ttr-dice"))[0]
    assert "列車カード（乗り物カード）は使いません" in alone.markdown


def test_a_component_printed_in_several_files_is_one_row_and_unclaimed_parts_get_their_own(mini):
    from generator.layout.primitives import Page
    from generator.writers.printandplay import checklist

    def doc(n):
        return Document("d", [Page(210, 297) for _ in range(n)])
    # parts belong to the component their producer names, whatever their files are called:
    # a deck 'trains' does not claim 'trains-other.pdf' printed for nobody
    parts = [Printable("列車カード / Train cards", doc(2), "cards", Path("trains.pdf"), "trains"),
             Printable("ステッカー", doc(1), "cards", Path("stickers.pdf"), "trains"),
             Printable("ボード", doc(1), "board", Path("trains-board.pdf"))]
    rows = checklist(load_game(mini), parts, [(3, 4), (5, 5), (7, 7)])
    assert rows == [
        {"component": "列車カード / Train cards", "kind": "deck", "count": 5, "file": "trains.pdf stickers.pdf",
         "pages": "3-4 5"},
        {"component": "ボード", "kind": "board", "count": 1, "file": "trains-board.pdf", "pages": "7"},
        {"component": "行き先チケット / Tickets", "kind": "deck", "count": 11, "file": "", "pages": ""},
    ]


def test_board_tiles_get_blank_backs_so_the_whole_file_prints_double_sided():
    from generator.layout.primitives import Page
    from generator.model.words import Words
    from generator.writers.printandplay import place_parts

    def doc(n):
        return Document("d", [Page(210, 297, [Rect(0, 0, 1, 1, "#000000")]) for _ in range(n)])
    parts = [Printable("ルール", doc(3), "rules", Path("r.pdf")), Printable("ボード", doc(3), "board tiles", Path("b.pdf")),
             Printable("カード", doc(2), "cards", Path("c.pdf"))]
    spans, pages = place_parts(parts, 2, Words(), Typeset())
    assert spans == [(3, 5), (7, 11), (13, 14)]
    printed = [i + 3 for i, page in enumerate(pages) if page.items and isinstance(page.items[0], Rect)]
    assert printed == [3, 4, 5, 7, 9, 11, 13, 14]  # board tiles only on front sides (odd pages)
    assert len(pages) == 12


def test_the_dice_replace_the_train_deck_which_is_then_not_printed(run, tmp_path):
    """ttr-dice declares replaces: [train]; the train deck (role: train) stays in the model, off the paper."""
    game = load_game(ROOT / "content/ttr-new-york", (str(ROOT / "content/ttr-dice"),))
    assert game.decks["transport-cards"].replaced_by.id == "ttr-dice"
    assert "transport-cards" not in {c.id for c in game.components()}
    assert "乗り物カード（44枚）は使いません" in load_rules(game)[-1].markdown
    assert run("build", "--all", "content/ttr-new-york", "--with", "content/ttr-dice", "--out", tmp_path).exit_code == 0
    out = tmp_path / "ttr-new-york+ttr-dice"
    assert not (out / "transport-cards.pdf").exists() and (out / "tickets.pdf").exists()
    rows = list(csv.DictReader((out / "components.csv").open(encoding="utf-8")))
    assert not [r for r in rows if "transport" in r["file"]]
    assert {"white-dice-nets.pdf", "tickets.pdf"} <= {f for r in rows for f in r["file"].split()}


def test_replacing_a_role_no_deck_has_is_a_clear_error(mini, tmp_path, run):
    addon = tmp_path / "dice"
    shutil.copytree(ROOT / "content/ttr-dice", addon)
    result = run("check", mini, "--with", addon)
    assert result.exit_code == 2
    assert "dice/game.yaml:9" in result.output
    assert "replaces the 'train' deck, but ミニゲーム has no deck with role: train" in result.output
    assert "add `role: train`" in result.output
