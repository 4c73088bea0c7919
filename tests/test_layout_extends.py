"""Layouts that extend layouts (named elements replaced, removed, inserted; vars merged), the
``background:`` key, and the content defaults of issue 10 (columns, deck backs, Latin names)."""
from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest

from generator.errors import BuildError, ContentError
from generator.layout.cardface import FaceRenderer, find_layout
from generator.layout.primitives import Circle, Rect
from generator.limits import MAX_EXTENDS
from generator.load.game import load_game
from generator.model.game import CardGeometry, Side


def _layout(game_dir, name: str, text: str) -> None:
    (game_dir / "layouts").mkdir(exist_ok=True)
    (game_dir / "layouts" / f"{name}.yaml").write_text(text, encoding="utf-8")


def _face(game, layout: str, deck_id: str = "tickets", card: int = 0):
    deck = game.decks[deck_id]
    context = {"game": game, "deck": deck, "geometry": deck.geometry, "back": deck.back, "card": deck.cards[card]}
    return FaceRenderer(game).face(layout, context, "a face", deck.source, "t").items


def _error(game, layout: str) -> ContentError:
    with pytest.raises(ContentError) as info:
        find_layout(layout, game, game.decks["tickets"].layout_source)
    return info.value


PARENT = """\
vars:
  a: 1
  b: "{{ a + 1 }}"
elements:
  - name: one
    rect: {x: 1, y: 0, w: 1, h: 1}
  - name: two
    rect: {x: 2, y: 0, w: 1, h: 1}
  - name: three
    rect: {x: 3, y: 0, w: 1, h: 1}
"""


def test_a_named_element_replaces_the_parents_in_place_and_new_ones_are_appended(mini):
    _layout(mini, "parent", PARENT)
    _layout(mini, "child", "extends: parent\nelements:\n"
                           "  - rect: {x: 9, y: 0, w: 1, h: 1}\n"
                           "  - name: two\n    circle: {cx: 0, cy: 0, r: 2}\n")
    assert _face(load_game(mini), "child") == (Rect(1, 0, 1, 1), Circle(0, 0, 2), Rect(3, 0, 1, 1), Rect(9, 0, 1, 1))


def test_remove_true_removes_the_named_element(mini):
    _layout(mini, "parent", PARENT)
    _layout(mini, "child", "extends: parent\nelements:\n  - {name: one, remove: true}\n")
    assert _face(load_game(mini), "child") == (Rect(2, 0, 1, 1), Rect(3, 0, 1, 1))


def test_before_and_after_insert_a_new_element(mini):
    _layout(mini, "parent", PARENT)
    _layout(mini, "child", "extends: parent\nelements:\n"
                           "  - before: one\n    rect: {x: 0, y: 0, w: 1, h: 1}\n"
                           "  - after: two\n    rect: {x: 2.5, y: 0, w: 1, h: 1}\n")
    assert [r.x for r in _face(load_game(mini), "child")] == [0, 1, 2, 2.5, 3]


def test_vars_merge_by_name_the_childs_value_winning_in_the_parents_order(mini):
    """The parent's b reads a: the child's a changes b too; the child's own c comes last and may read both."""
    _layout(mini, "parent", PARENT)
    _layout(mini, "child", 'extends: parent\nvars:\n  c: "{{ b * 10 }}"\n  a: 5\n'
                           'elements:\n  - rect: {x: "{{ a }}", y: "{{ b }}", w: "{{ c }}", h: 1}\n')
    game = load_game(mini)
    assert list(find_layout("child", game, game.decks["tickets"].layout_source).variables) == ["a", "b", "c"]
    assert _face(game, "child")[-1] == Rect(5, 6, 60, 1)


def test_a_child_may_extend_a_layout_that_extends_another(mini):
    _layout(mini, "parent", PARENT)
    _layout(mini, "middle", "extends: parent\nelements:\n  - {name: one, remove: true}\n")
    _layout(mini, "child", "extends: middle\nelements:\n  - name: three\n    rect: {x: 7, y: 0, w: 1, h: 1}\n")
    assert [r.x for r in _face(load_game(mini), "child")] == [2, 7]


def test_a_game_layout_extends_a_template_and_its_own_name_means_the_template(mini):
    """ttr-back's elements are named: a game's back replaces one; the game's layouts/ttr-back.yaml that
    says extends: ttr-back extends pnpgen's, the one it overrides (not itself)."""
    game = load_game(mini)
    template = _face(game, "ttr-back", "trains")
    _layout(mini, "my-back", "extends: ttr-back\nelements:\n  - {name: symbol, remove: true}\n")
    _layout(mini, "ttr-back", "extends: ttr-back\nelements:\n  - rect: {x: 0, y: 0, w: 1, h: 1}\n")
    game = load_game(mini)
    removed = _face(game, "my-back", "trains")
    assert len(removed) < len(template) and removed[:5] == template[:5]
    assert _face(game, "ttr-back", "trains") == template + (Rect(0, 0, 1, 1),)


def test_background_draws_the_full_bleed_rect_first_and_a_child_replaces_it(mini):
    _layout(mini, "parent", "background: red\nelements:\n  - rect: {x: 1, y: 0, w: 1, h: 1}\n")
    _layout(mini, "child", "extends: parent\nbackground: blue\nelements: []\n")
    game = load_game(mini)   # 44 x 68 mm cards, 3 mm bleed
    assert _face(game, "parent") == (Rect(-3, -3, 50, 74, "#cc2222"), Rect(1, 0, 1, 1))
    assert _face(game, "child") == (Rect(-3, -3, 50, 74, "#2244cc"), Rect(1, 0, 1, 1))


def test_a_wrong_background_colour_is_an_error_at_the_background_line(mini):
    _layout(mini, "parent", "description: x\nbackground: redd\nelements: []\n")
    with pytest.raises(BuildError) as info:
        _face(load_game(mini), "parent")
    assert str(info.value.source).endswith("layouts/parent.yaml:2") and "unknown colour 'redd'" in info.value.message


def test_errors_name_the_file_an_element_or_var_came_from(mini):
    _layout(mini, "parent", 'vars:\n  a: 1\nelements:\n  - name: one\n    rect: {x: "{{ 1 / 0 }}", y: 0, w: 1, h: 1}\n')
    _layout(mini, "child", 'extends: parent\nvars:\n  b: "{{ nope + 1 }}"\nelements: []\n')
    with pytest.raises(BuildError) as info:
        _face(load_game(mini), "child")
    assert str(info.value.source).endswith("layouts/child.yaml:3") and "nope" in info.value.message
    _layout(mini, "child", "extends: parent\nelements: []\n")
    with pytest.raises(BuildError) as info:
        _face(load_game(mini), "child")
    assert str(info.value.source).endswith("layouts/parent.yaml:4") and "division by zero" in info.value.message


def test_a_cycle_is_an_error_at_the_extends_line_naming_the_chain(mini):
    _layout(mini, "a", "description: a\nextends: b\nelements: []\n")
    _layout(mini, "b", "description: b\nextends: a\nelements: []\n")
    error = _error(load_game(mini), "a")
    assert str(error.source).endswith("layouts/b.yaml:2")
    assert "layouts extend each other in a circle: a → b → a" in error.message


def test_a_layout_that_extends_itself_is_an_error_unless_a_template_has_its_name(mini):
    _layout(mini, "me", "description: me\nextends: me\n")
    error = _error(load_game(mini), "me")
    assert str(error.source).endswith("layouts/me.yaml:2") and "layout 'me' extends itself" in error.message


def test_a_chain_longer_than_the_limit_is_an_error(mini):
    for i in range(MAX_EXTENDS + 1):
        _layout(mini, f"l{i}", f"extends: l{i + 1}\nelements: []\n")
    _layout(mini, f"l{MAX_EXTENDS + 1}", "elements: []\n")
    error = _error(load_game(mini), "l0")
    assert f"more than {MAX_EXTENDS} layouts" in error.message and str(error.source).endswith(f"l{MAX_EXTENDS - 1}.yaml:1")


def test_an_unknown_parent_is_an_error_with_did_you_mean(mini):
    _layout(mini, "child", "elements: []\nextends: ttr-bak\n")
    error = _error(load_game(mini), "child")
    assert str(error.source).endswith("layouts/child.yaml:2")
    assert "no layout named 'ttr-bak'" in error.message and "did you mean 'ttr-back'" in error.hint


@pytest.mark.parametrize("child,line,message,hint", [
    ("extends: parent\nelements:\n  - {name: too, remove: true}\n", 3,
     "remove: the layout this one extends has no element named 'too'", "did you mean 'two'"),
    ("extends: parent\nelements:\n  - after: tree\n    rect: {x: 0, y: 0, w: 1, h: 1}\n", 3,
     "after: no element named 'tree'", "did you mean 'three'"),
    ("extends: parent\nelements:\n  - name: two\n    before: one\n    rect: {x: 0, y: 0, w: 1, h: 1}\n", 4,
     "element 'two' replaces the parent's element of that name in place, so it takes no before:", "remove before:"),
    ("elements:\n  - {name: one, remove: true}\n", 2, "this layout has no `extends:`", "add `extends: <layout>`"),
    ("extends: parent\nelements:\n  - {name: one, remove: yes please}\n", 3, "write `remove: true`", "leave out"),
    ("extends: parent\nelements:\n  - name: one\n    remove: true\n    rect: {x: 0, y: 0, w: 1, h: 1}\n", 3,
     "names the parent's element to remove and nothing else (not rect:)", "name: <element>"),
    ("elements:\n  - name: x\n    rect: {x: 0, y: 0, w: 1, h: 1}\n  - name: x\n    rect: {x: 0, y: 0, w: 1, h: 1}\n", 4,
     "two elements of this layout are named 'x' (first at line 2)", "its own name"),
    ("background: red\nelements:\n  - name: background\n    rect: {x: 0, y: 0, w: 1, h: 1}\n", 3,
     "an element is named 'background', but the layout's `background:` (line 1)", "rename"),
    ("elements:\n  - group:\n      elements:\n        - name: x\n          rect: {x: 0, y: 0, w: 1, h: 1}\n", 4,
     "unknown key 'name' beside rect", "not those inside a group"),
    ("extends: parent\nvars: [1]\n", 2, "`vars:` of a layout is a mapping", "vars:"),
    ("extends: parent\nextend: x\n", 2, "unknown key 'extend' in layout", "did you mean 'extends'"),
])
def test_mistakes_in_merging_name_their_line(mini, child, line, message, hint):
    _layout(mini, "parent", PARENT)
    _layout(mini, "child", child)
    error = _error(load_game(mini), "child")
    assert str(error.source).endswith(f"layouts/child.yaml:{line}"), str(error)
    assert message in error.message and hint in error.hint


def test_a_mistake_in_the_parent_is_reported_in_the_parent(mini):
    _layout(mini, "parent", "elements:\n  - rect: {x: 0, y: 0, w: 1}\n")
    _layout(mini, "child", "extends: parent\n")
    error = _error(load_game(mini), "child")
    assert str(error.source).endswith("layouts/parent.yaml:2") and "rect needs 'h'" in error.message


# ------------------------------------------------------------------ token-back extends token: the same drawing
OLD_TOKEN = 'description: >\n  A token (counter, chip, marker). Round tokens are a disc of the face colour\n  that runs into the bleed, with a hairline ring on the cut line; square and\n  rectangular ones fill their bleed box. The face\'s icon sits in the middle in\n  the colour\'s ink, with its text (if any) under it.\nelements:\n  - when: "{{ deck.shape == \'circle\' }}"\n    circle: {cx: "{{ W/2 }}", cy: "{{ H/2 }}", r: "{{ W/2 + bleed }}", fill: "{{ card.color if card.color else \'paper\' }}"}\n  - when: "{{ deck.shape == \'circle\' }}"\n    circle: {cx: "{{ W/2 }}", cy: "{{ H/2 }}", r: "{{ W/2 }}", stroke: "{{ card.color.ink if card.color else \'ink\' }}",\n             stroke_width: 0.12}\n  - when: "{{ deck.shape != \'circle\' }}"\n    rect: {x: "{{ -bleed }}", y: "{{ -bleed }}", w: "{{ W + 2*bleed }}", h: "{{ H + 2*bleed }}",\n           fill: "{{ card.color if card.color else \'paper\' }}"}\n  - when: "{{ card.icon and not card.text }}"\n    icon: {name: "{{ card.icon }}", x: "{{ W/2 - [W * 0.7, H * 1.2 if deck.shape == \'rect\' else H * 0.68]|min / 2 }}",\n           y: "{{ H/2 - [W * 0.7, H * 1.2 if deck.shape == \'rect\' else H * 0.68]|min / 2 }}",\n           size: "{{ [W * 0.7, H * 1.2 if deck.shape == \'rect\' else H * 0.68]|min }}",\n           color: "{{ card.color.ink if card.color else \'ink\' }}", accent: "{{ card.color if card.color else \'paper\' }}"}\n  - when: "{{ card.icon and card.text }}"\n    icon: {name: "{{ card.icon }}", x: "{{ W/2 - [W, H]|min * 0.28 }}", y: "{{ H * 0.10 }}",\n           size: "{{ [W, H]|min * 0.56 }}", color: "{{ card.color.ink if card.color else \'ink\' }}",\n           accent: "{{ card.color if card.color else \'paper\' }}"}\n  - text: {x: "{{ W * 0.12 }}", y: "{{ H * 0.66 if card.icon else H * 0.3 }}", w: "{{ W * 0.76 }}",\n           h: "{{ H * 0.24 if card.icon else H * 0.4 }}", text: "{{ card.text or \'\' }}", size: 7, min_size: 4,\n           align: center, valign: middle, bold: true, color: "{{ card.color.ink if card.color else \'ink\' }}"}\n'
OLD_TOKEN_BACK = 'description: >\n  The back of a two-sided token whose back differs from its front: the back\'s\n  colour (or the face\'s), its icon and text; a round token keeps its disc and ring.\nelements:\n  - when: "{{ deck.shape == \'circle\' }}"\n    circle: {cx: "{{ W/2 }}", cy: "{{ H/2 }}", r: "{{ W/2 + bleed }}", fill: "{{ back.color or card.color or \'paper\' }}"}\n  - when: "{{ deck.shape == \'circle\' }}"\n    circle: {cx: "{{ W/2 }}", cy: "{{ H/2 }}", r: "{{ W/2 }}", stroke: "{{ (back.color or card.color).ink if (back.color or card.color) else \'ink\' }}",\n             stroke_width: 0.12}\n  - when: "{{ deck.shape != \'circle\' }}"\n    rect: {x: "{{ -bleed }}", y: "{{ -bleed }}", w: "{{ W + 2*bleed }}", h: "{{ H + 2*bleed }}",\n           fill: "{{ back.color or card.color or \'paper\' }}"}\n  - when: "{{ back.icon }}"\n    icon: {name: "{{ back.icon }}", x: "{{ W/2 - [W, H]|min * 0.28 }}", y: "{{ H * 0.10 if back.text else H/2 - [W, H]|min * 0.28 }}",\n           size: "{{ [W, H]|min * 0.56 }}", color: "{{ (back.color or card.color).ink if (back.color or card.color) else \'ink\' }}"}\n  - text: {x: "{{ W * 0.12 }}", y: "{{ H * 0.66 if back.icon else H * 0.3 }}", w: "{{ W * 0.76 }}",\n           h: "{{ H * 0.24 if back.icon else H * 0.4 }}", text: "{{ back.text or \'\' }}", size: 7, min_size: 4,\n           align: center, valign: middle, bold: true,\n           color: "{{ (back.color or card.color).ink if (back.color or card.color) else \'ink\' }}"}\n'


def test_token_and_token_back_draw_what_they_drew_before_they_were_merged(mini):
    """token-back is now token with the back's values; both draw exactly what the old files drew,
    for every shape and every mix of colour, icon and text on the face and on the back."""
    _layout(mini, "old-token", OLD_TOKEN)
    _layout(mini, "old-token-back", OLD_TOKEN_BACK)
    game = load_game(mini)
    renderer = FaceRenderer(game)
    red, blue = game.palette["red"], game.palette["blue"]
    geometry = CardGeometry(20, 14, 1.5, 1.0)
    compared = 0
    for shape, (color, icon, text), (bcolor, bicon, btext) in itertools.product(
            ("circle", "square", "rect"),
            itertools.product((red, None), ("chip", None), ("一", None)),
            itertools.product((blue, None), ("house", None), ("二", None))):
        deck = SimpleNamespace(shape=shape, geometry=geometry)
        back = Side("token-back", dict(color=bcolor, icon=bicon, text=btext, title=None, latin=None, layout=None), deck)
        context = {"game": game, "deck": deck, "geometry": geometry, "back": back,
                   "card": SimpleNamespace(color=color, icon=icon, text=text)}
        for new, old in (("token", "old-token"), ("token-back", "old-token-back")):
            drawn = renderer.face(new, context, "t", None, "t").items
            assert drawn == renderer.face(old, context, "t", None, "t").items, (new, shape, color, icon, text, back.vars)
            compared += 1
    assert compared == 3 * 8 * 8 * 2


# ------------------------------------------------------------------ content defaults
def test_rows_follow_the_fields_when_a_deck_has_no_columns(mini):
    decks = mini / "decks.yaml"
    decks.write_text(decks.read_text(encoding="utf-8").replace("    columns: [from, to, points]\n", ""), encoding="utf-8")
    card = load_game(mini).decks["tickets"].cards[1]
    assert (card["from"].id, card["to"].id, card["points"]) == ("Berlin", "Koeln", 12)


def test_a_row_of_the_wrong_length_without_columns_names_the_fields(mini, run, tmp_path):
    decks = mini / "decks.yaml"
    text = decks.read_text(encoding="utf-8").replace("    columns: [from, to, points]\n", "")
    decks.write_text(text.replace("      - [Berlin, Koeln, 12]\n", "      - [Berlin, Koeln]\n"), encoding="utf-8")
    result = run("check", mini)
    assert result.exit_code == 2, result.output
    assert "decks.yaml:24" in result.stderr
    assert "card row has 2 values but the deck has (its fields: in order) 3 (from, to, points)" in result.stderr


def test_a_back_without_title_or_latin_reads_the_decks_name_and_latin(mini, run, tmp_path):
    decks = mini / "decks.yaml"
    decks.write_text(decks.read_text(encoding="utf-8").replace(", title: 列車, latin: Train", ""), encoding="utf-8")
    game = load_game(mini)
    back = game.decks["trains"].back
    assert (back.title, back.latin) == ("列車カード", "Train cards")
    assert game.decks["tickets"].back.latin == "Tickets"   # written: kept
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output


def test_a_value_a_back_lacks_is_an_error_naming_the_decks_back_line(mini, run, tmp_path):
    decks = mini / "decks.yaml"
    decks.write_text(decks.read_text(encoding="utf-8").replace(", icon: wagon}", "}", 1), encoding="utf-8")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 1, result.output
    assert "the back of deck 'trains' (" in result.stderr and "decks.yaml:7) has no 'icon': add `icon: …` to it" in result.stderr
    assert "Side object" not in result.stderr and "Traceback" not in result.stderr


def test_a_latin_id_is_the_latin_name_unless_latin_says_otherwise(mini):
    game = mini / "game.yaml"
    text = game.read_text(encoding="utf-8").replace("Berlin: {name: ベルリン, latin: Berlin}", "Berlin: {name: ベルリン}")
    game.write_text(text + "stations:\n  高田馬場: {name: 高田馬場}\n  Düsseldorf Hbf: {name: デュッセルドルフ}\n",
                    encoding="utf-8")
    loaded = load_game(mini)
    places, stations = loaded.collections["place"], loaded.collections["station"]
    assert (places["Berlin"].latin, places["Koeln"].latin) == ("Berlin", "Köln")
    assert (stations["高田馬場"].latin, stations["Düsseldorf Hbf"].latin) == ("", "Düsseldorf Hbf")
