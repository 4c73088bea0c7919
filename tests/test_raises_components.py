"""Issue 10: each mistake in a token, tile or die that no other test made is refused through
``pnpgen check`` with exit 2, its file:line, what is wrong and what to do — the components of
tests/test_components.py (``COMPONENTS``) added to tests/fixtures/mini, one line changed per case."""
from __future__ import annotations

import pytest

from generator.layout.dicenet import NetError, fold
from tests.test_components import COMPONENTS
from tests.test_limits import assert_refused

COLOURS = "    colors: [red, blue]\n    count_each: 3\n"
DIE_FACES = "    faces: {star: 3, blank: 3}\n"

CASES = {
    # pieces.py (tokens, tiles)
    "circle of two sizes": ("    size: 15\n", "    size: [15, 10]\n", 7,
                            "a circle token of component 'chips' needs one size, not [15, 10]", "use shape: rect"),
    "one-sided with a back": ("    sides: 2\n", "    sides: 1\n    back: {color: red}\n", 9,
                              "component 'chips' is one-sided but has a `back:`", "make it `sides: 2`, or remove the back"),
    "colors and faces": (COLOURS, COLOURS + "    faces: [{text: a}]\n", 9,
                         "component 'chips' has both colors: and faces:", "or list every face under faces:"),
    "count_each without colors": (COLOURS, "    count_each: 3\n    faces: [{text: a}]\n", 9,
                                  "count_each: of component 'chips' goes with colors:", "give each face its own count:"),
    "no faces": (COLOURS, "", 3, "component 'chips' has no faces", "add colors: [..] with count_each: N, or faces:"),
    "unknown icon": (COLOURS, COLOURS + "    face: {icon: stra}\n", 9,
                     "unknown icon 'stra' on component 'chips'", "did you mean 'star'"),
    "values with a count": (COLOURS, "    faces: [{text: a, values: [1, 2], count: 2}]\n", 9,
                            "a face of 'chips' with values: [1, 2] prints one copy per value",
                            "remove count: and value:"),
    # die.py
    "sticker larger than the die": (DIE_FACES, DIE_FACES + "    sticker: 20\n", 18,
                                    "stickers of 20 mm do not fit 16 mm dice", "make sticker: smaller than die_size:"),
    "label of no face": (DIE_FACES, DIE_FACES + "    labels: {stra: Star}\n", 18,
                         "label for 'stra', which is not a face of 'dice'", "did you mean 'star'"),
    # found when the nets are laid out on the paper: the message names the die's line
    "net larger than the paper": (DIE_FACES, DIE_FACES + "    net_size: 100\n", 11,
                                  "a die net of 100 mm faces does not fit on a4", "make net_size: smaller"),
}


@pytest.mark.parametrize("old,new,line,message,hint", CASES.values(), ids=CASES.keys())
def test_a_component_mistake_names_its_line_what_and_what_to_do(mini, run, old, new, line, message, hint):
    game_yaml = mini / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(
        "include: [decks.yaml]", "include: [decks.yaml, components.yaml]"), encoding="utf-8")
    assert old in COMPONENTS
    (mini / "components.yaml").write_text(COMPONENTS.replace(old, new, 1), encoding="utf-8")
    assert_refused(run("check", mini), 2, f"components.yaml:{line}", "cannot read the content: " + message,
                   "hint:", hint)


def test_a_die_net_of_other_than_six_squares_is_refused():
    """Only pnpgen's own CROSS is folded (no content names the squares): the Python API's refusal."""
    with pytest.raises(NetError, match=r"a die net needs six different squares, got 5"):
        fold(((0, 0), (1, 0), (2, 0), (3, 0), (1, 1)))
    with pytest.raises(NetError, match=r"a die net needs six different squares, got 5"):
        fold(((0, 0), (1, 0), (2, 0), (3, 0), (1, 1), (1, 1)))
