"""The print-and-play cover's "you also need" list: what the components ask for besides paper and a printer."""
from __future__ import annotations

from generator.load.game import load_game
from generator.writers.printandplay import _supplies
from tests.conftest import FIXTURES, ROOT


def test_germany_needs_a_cutter_sleeves_card_stock_glue_and_tape():
    game = load_game(ROOT / "content" / "ttr-germany")
    words = game.words
    assert _supplies(game) == [words["pnp.need.cut"], words("pnp.need.sleeves", sizes="44 × 68 mm"),
                               words["pnp.need.cardstock"], words["pnp.need.glue"], words["pnp.need.tape"]]


def test_the_dice_add_on_adds_blank_dice_and_a_game_of_cards_alone_needs_little():
    with_dice = load_game(ROOT / "content" / "ttr-germany", (ROOT / "content" / "ttr-dice",))
    assert with_dice.words["pnp.need.dice"] in _supplies(with_dice)
    mini = load_game(FIXTURES / "mini")
    assert _supplies(mini) == [mini.words["pnp.need.cut"], mini.words("pnp.need.sleeves", sizes="44 × 68 mm")]


def test_every_catalogue_says_it():
    for language in ("ja", "en", "de"):
        text = (ROOT / "templates" / "catalogues" / f"{language}.yaml").read_text(encoding="utf-8")
        for key in ("pnp.need:", "pnp.need.cut:", "pnp.need.sleeves:", "pnp.need.cardstock:", "pnp.need.glue:",
                    "pnp.need.dice:", "pnp.need.tape:"):
            assert key in text, (language, key)
