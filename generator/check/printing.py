"""PNP7xx — print: what would not print right, found by laying out every card face.

The card layout itself (``generator.layout.cardface``) measures the text; the
checker asks it to lay out the text alone (shapes cannot overflow) and to
report problems instead of stopping at the first, so the rules for fitting
text live in one place. Laid out once per game, shared by the checks below.
"""
from __future__ import annotations

import weakref

from generator.check.registry import Issue, check
from generator.errors import BuildError

_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _print_problems(game) -> dict[str, list[BuildError]]:
    """kind ("overflow", "glyph", "layout") → errors, from drawing every deck's faces and back.

    A layout that cannot be read (no such layout, malformed YAML) is a ContentError
    and propagates: the content cannot be read (exit 2), as in a build.
    """
    problems = _CACHE.get(game)
    if problems is None:
        from generator.build.cards import draw_deck  # late: generator.build imports the checker
        from generator.layout.cardface import FaceRenderer

        problems = {"overflow": [], "glyph": [], "layout": []}
        renderer = FaceRenderer(game, on_print_problem=lambda kind, error: problems[kind].append(error), text_only=True)
        for deck in game.decks.values():
            try:
                draw_deck(game, deck, renderer)
            except BuildError as error:  # an expression in the layout fails for a card
                problems["layout"].append(error)
        _CACHE[game] = problems
    return problems


def _issues(game, kind):
    for error in _print_problems(game)[kind]:
        yield Issue(error.source, error.message, error.hint)


@check("PNP701", "error", "text that does not fit its box on a card, even at its smallest size")
def text_overflow(game):
    yield from _issues(game, "overflow")


@check("PNP702", "error", "characters the embedded font has no glyph for (they would print as empty boxes)")
def missing_glyphs(game):
    yield from _issues(game, "glyph")


@check("PNP703", "error", "a card face or back whose layout cannot be drawn")
def layout_fails(game):
    yield from _issues(game, "layout")

