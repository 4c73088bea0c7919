"""Rule sheets: figures from the model, Japanese line breaking, template errors, the sandbox, layout."""
from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from generator.layout.flow import COLUMN_GAP, MARGIN
from generator.layout.primitives import Group, Text
from generator.layout.rulesheet import PICTURE_SIZE, rule_pages
from generator.layout.text import NO_LINE_END, NO_LINE_START, wrap
from generator.load.game import load_game
from generator.load.rules import load_rules
from generator.model.rules import Picture, Table, plain
from generator.writers.rules import render_html
from tests.conftest import ROOT

RULES = """\
# {{ title }}

{{ players[0] }}〜{{ players[1] }}人で遊びます。

## 内容物

{{ components_table() }}

{{ picture('trains') }}
"""


def write_rules(game_dir, text: str = RULES):
    (game_dir / "rules.md").write_text(text, encoding="utf-8")


def component_rows(game) -> dict[str, str]:
    """The rule sheet's component table as {component: count}, from the laid-out chapter."""
    chapter = load_rules(game)[0]
    table = next(b for b in chapter.blocks if isinstance(b, Table))
    assert [plain(h) for h in table.header] == ["内容物", "種類", "数"]
    return {plain(row[0]): plain(row[2]) for row in table.rows}


def page_lines(pages) -> list[str]:
    """Each printed line of text: Text items on one baseline in one column, joined left to right."""
    lines = []
    for page in pages:
        rows: dict[tuple, list[Text]] = {}
        for item in page.items:
            if isinstance(item, Text):
                column = 0 if item.x < page.width / 2 else 1
                rows.setdefault((column, round(item.y, 2)), []).append(item)
        for key in sorted(rows):
            lines.append("".join(t.text for t in sorted(rows[key], key=lambda t: t.x)))
    return lines


# --------------------------------------------------------------------------- figures come from the model

def test_changing_a_count_in_content_changes_the_rule_sheets_component_list(mini):
    write_rules(mini)
    assert component_rows(load_game(mini)) == {"列車カード / Train cards": "5", "行き先チケット / Tickets": "11"}
    decks = mini / "decks.yaml"
    text = decks.read_text(encoding="utf-8")
    text = text.replace("expected: 5", "expected: 7").replace("{color: red, count: 2}", "{color: red, count: 4}")
    decks.write_text(text, encoding="utf-8")
    assert component_rows(load_game(mini)) == {"列車カード / Train cards": "7", "行き先チケット / Tickets": "11"}


def test_the_printed_rule_sheet_shows_the_new_count(mini, run, tmp_path):
    write_rules(mini)
    decks = mini / "decks.yaml"
    decks.write_text(decks.read_text(encoding="utf-8").replace("expected: 11", "expected: 12")
                     .replace("- [Hamburg, Berlin, 11]", "- [Hamburg, Berlin, 11]\n      - [Berlin, Koeln, 13]"),
                     encoding="utf-8")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    text = PdfReader(tmp_path / "out" / "mini" / "mini-rules.pdf").pages[0].extract_text()
    assert re.search(r"行き先チケット / Tickets\s*カード\s*12", text), text


def test_scoring_and_count_tables_of_a_bundled_game_come_from_its_tables_and_decks():
    game = load_game(ROOT / "content/ttr-germany")
    blocks = load_rules(game)[0].blocks
    tables = [b for b in blocks if isinstance(b, Table)]
    scoring = next(t for t in tables if plain(t.header[0]) == "ルートの長さ")
    assert [plain(c) for c in scoring.header[1:]] == [str(k) for k in game.tables["route_scoring"]]
    assert [plain(c) for c in scoring.rows[0][1:]] == [str(v) for v in game.tables["route_scoring"].values()]
    colours = next(t for t in tables if plain(t.header[0]) == "色")
    assert [plain(r[1]) for r in colours.rows[-1:]] == [str(game.decks["train-cards"].size)]
    assert {plain(r[0]): plain(r[1]) for r in colours.rows}["SL"] == "14"   # the rulebook's word (seed 000)


# --------------------------------------------------------------------------- Japanese line breaking

def test_kinsoku_forbids_these_line_starts_and_ends():
    assert set("。、）」") <= NO_LINE_START
    assert set("「（") <= NO_LINE_END


def test_wrapped_rule_text_never_starts_a_line_with_closing_or_ends_with_opening_punctuation():
    text = ("表向きの機関車カード（SL）を取ると、取れるのはその1枚だけです。「グローブ・トロッター」（15点）は、"
            "達成したチケットの枚数が最多の人が受け取ります。同数なら全員が受け取ります。")
    for width in [w / 2 for w in range(30, 180)]:
        lines = wrap(text, width, 9.0)
        assert lines and "".join(lines) == text
        for line in lines[1:]:
            assert line[0] not in "。、）」", (width, lines)
        for line in lines[:-1]:
            assert line[-1] not in "「（", (width, lines)


@pytest.mark.parametrize("game", ["ttr-germany", "ttr-new-york", "ttr-dice", "s-railway", "thurn-and-taxis"])
def test_no_printed_line_of_a_bundled_rule_sheet_breaks_the_kinsoku_rules(game):
    from generator.writers.rules import ComponentPictures
    loaded = load_game(ROOT / "content" / game)
    pages, _ = rule_pages(load_rules(loaded), "a4", "footer", ComponentPictures(loaded).for_block)
    lines = page_lines(pages)
    assert len(lines) > 40
    assert not [line for line in lines if line[0] in "。、）」"]
    assert not [line for line in lines if line[-1] in "「（"]


# --------------------------------------------------------------------------- errors and the sandbox

@pytest.mark.parametrize("text, line, words", [
    ("# T\n\n{{ nosuch }}\n", 3, "'nosuch' is undefined"),
    ("# T\n\nok\n{% for x in %}\n", 4, "syntax"),
    ("# T\n\n\n\n{{ picture('trainz') }}\n", 5, "did you mean 'trains'"),
    ("# T\n\n{{ scoring_table('route_points') }}\n", 3, "table 'route_points'"),
    ("# T\n\n![x](component:tickets?faces=²)\n", 3, "faces= is not a number"),  # "²".isdigit() is true
])
def test_a_jinja_mistake_in_rules_md_points_at_its_line(mini, run, tmp_path, text, line, words):
    write_rules(mini, text)
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert f"rules.md:{line}" in result.output
    assert words in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out" / "mini").exists()  # nothing half-written


def test_a_mistake_inside_a_macro_names_both_lines(mini, run, tmp_path):
    write_rules(mini, "# T\n\n{{ card_counts('trains', 'colour') }}\n")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert re.search(r"rules\.md:3 \(in .*templates/rules/macros\.md\.j2:\d+\)", result.output), result.output
    assert "did you mean 'color'" in result.output


@pytest.mark.parametrize("unsafe", ["{{ ''.__class__.__mro__ }}", "{{ game.__init__.__globals__ }}",
                                    "{{ decks.clear() }}", "{{ tables.update({'x': 1}) }}"])
def test_rules_cannot_reach_python_or_change_the_model(mini, run, tmp_path, unsafe):
    write_rules(mini, f"# T\n\n{unsafe}\n")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "rules.md:3" in result.output
    assert "rules may only read the game model" in result.output
    assert len(load_game(mini).decks) == 2


def test_a_picture_must_be_a_component(mini, run, tmp_path):
    write_rules(mini, "# T\n\ntext\n\n![x](http://example.com/a.png)\n")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "rules.md:5" in result.output and "is not a component" in result.output


def test_html_is_escaped(mini):
    write_rules(mini, "# T <i>\n\n<script>alert(1)</script>\n\n{{ picture('trains') }}\n")
    game = load_game(mini)
    html = render_html(game, load_rules(game), {"trains-all": "rules-img/trains-all.svg"})
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "T &lt;i&gt;" in html
    assert '<img src="rules-img/trains-all.svg"' in html


# --------------------------------------------------------------------------- layout

def test_rule_sheet_layout_two_columns_in_mm_and_numbered_pages():
    game = load_game(ROOT / "content/ttr-germany")
    from generator.writers.rules import ComponentPictures
    pages, forms = rule_pages(load_rules(game), "a4", "ドイツ — ルール", ComponentPictures(game).for_block)
    column = (210 - 2 * MARGIN - COLUMN_GAP) / 2
    assert len(pages) >= 2 and all((p.width, p.height) == (210, 297) for p in pages)
    lefts = {round(t.x, 2) for p in pages for t in p.items if isinstance(t, Text) and t.anchor == "start"}
    assert MARGIN in lefts and round(MARGIN + column + COLUMN_GAP, 2) in lefts
    body = [t for p in pages for t in p.items if isinstance(t, Text) and t.y < 297 - MARGIN]
    assert all(MARGIN - 1e-6 <= t.x <= 210 - MARGIN for t in body)
    footers = [t.text for p in pages for t in p.items if isinstance(t, Text) and t.anchor == "end" and t.y > 280]
    assert footers == [f"{n} / {len(pages)}" for n in range(1, len(pages) + 1)]
    # the picture of the train cards: the deck's own faces, at most half size
    groups = [g for p in pages for g in p.items if isinstance(g, Group) and g.scale != 1.0
              and g.items[0].name.startswith("train-cards")]   # not the rule examples (example-…)
    assert len(groups) == len(game.decks["train-cards"].cards)
    face = game.decks["train-cards"].geometry
    assert all(0 < g.scale <= PICTURE_SIZE / (face.height + 2 * face.bleed) + 1e-9 for g in groups)
    assert all(g.items[0].name in forms for g in groups)


def test_picture_blocks_know_their_component_and_face_limit():
    game = load_game(ROOT / "content/s-railway")
    pictures = [b for b in load_rules(game)[0].blocks if isinstance(b, Picture)]
    assert [(p.component, p.faces) for p in pictures] == [
        ("train-cards", 5), ("example:move", None), ("example:move?type=local&sections=3", None),
        ("example:move?at=saginomiya&type=rapid", None)]
    assert pictures[0].example is None and [p.example.kind for p in pictures[1:]] == ["move"] * 3


def test_a_character_the_font_lacks_points_at_its_rules_line_after_generated_tables(mini, run, tmp_path):
    write_rules(mini, "# T\n\n{{ components_table() }}\n\n{{ card_counts('trains', 'color') }}\n\nおはよう😀です。\n")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "rules.md:7" in result.output and "no glyph for 😀" in result.output


def test_a_game_folder_overrides_the_rules_templates(mini):
    (mini / "rules").mkdir()
    (mini / "rules" / "macros.md.j2").write_text(
        "{% macro components_table() %}部品は{{ components | length }}種類。{% endmacro %}\n", encoding="utf-8")
    write_rules(mini, "# T\n\n{{ components_table() }}\n")
    assert load_rules(load_game(mini))[0].markdown == "# T\n\n部品は2種類。\n"


@pytest.mark.parametrize("page, words", [("<html>{{ nosuch.x }}</html>\n", "'nosuch' is undefined"),
                                         ("<html>{% for %}</html>\n", "rules template syntax")])
def test_a_mistake_in_a_games_own_html_page_template_points_at_its_line(mini, run, tmp_path, page, words):
    (mini / "rules").mkdir()
    (mini / "rules" / "rules.html.j2").write_text(page, encoding="utf-8")
    write_rules(mini, "# T\n\nテキスト\n")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "rules.html.j2:1" in result.output and words in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out" / "mini").exists()


def test_rules_may_include_files_of_their_folder_but_not_themselves(mini, run, tmp_path):
    (mini / "setup.md").write_text("準備の章\n", encoding="utf-8")
    write_rules(mini, '# T\n\n{% include "setup.md" %}\n')
    assert "準備の章" in load_rules(load_game(mini))[0].markdown
    write_rules(mini, '# T\n\n{% include "rules.md" %}\n')
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "include themselves" in result.output
    write_rules(mini, '# T\n\n{% include "../mini/decks.yaml" %}\n')
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "no rules template named" in result.output


def _table(chapter, first_header):
    return next(b for b in chapter.blocks if isinstance(b, Table) and plain(b.header[0]) == first_header)


def test_dice_faces_and_tile_stacks_in_the_rules_come_from_the_components(tmp_path):
    import shutil
    dice = tmp_path / "ttr-dice"
    shutil.copytree(ROOT / "content/ttr-dice", dice)
    faces = _table(load_rules(load_game(dice))[0], "白ダイスの面")
    assert {plain(r[0]): plain(r[1]) for r in faces.rows} == {"単線": "2", "複線": "2", "駅": "1", "機関車（万能）": "1"}
    yaml = dice / "components.yaml"
    yaml.write_text(yaml.read_text(encoding="utf-8").replace("track: 2, double-track: 2", "track: 3, double-track: 1"),
                    encoding="utf-8")
    faces = _table(load_rules(load_game(dice))[0], "白ダイスの面")
    assert {plain(r[0]): plain(r[1]) for r in faces.rows} == {"単線": "3", "複線": "1", "駅": "1", "機関車（万能）": "1"}
    tiles = _table(load_rules(load_game(ROOT / "content/thurn-and-taxis"))[0], "タイル")
    rows = {plain(r[0]): (plain(r[2]), plain(r[3])) for r in tiles.rows}
    assert rows["ルート 7+"] == ("4", "4・3・2・1") and rows["ゲーム終了"] == ("1", "1")


def test_tokens_and_dice_are_pictured_with_their_own_faces():
    from generator.layout.components import component_faces
    from generator.writers.rules import ComponentPictures
    game = load_game(ROOT / "content/ttr-dice")
    pages, forms = rule_pages(load_rules(game), "a4", "f", ComponentPictures(game).for_block)
    for part in ("white-dice", "track-tokens"):
        assert {f.name for f in component_faces(game, game.parts[part])} <= set(forms)
