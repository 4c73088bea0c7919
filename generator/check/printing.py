"""PNP7xx — print: what would not print right, found by laying out every card face.

The card layout itself (``generator.layout.cardface``) measures the text; the
checker asks it to lay out every face as the build does (shapes too: their
expressions can fail) and to report problems instead of stopping at the
first, so the rules for fitting text live in one place. Each deck on its own:
one deck that cannot be drawn does not hide the others. Laid out once per
game, shared by the checks below; PNP704–705 (``dry.py``) lay out the rest.
``PrintProblems`` is what the tokens, tiles, dice and sheets checks collect too.
"""
from __future__ import annotations

from contextlib import contextmanager

from generator.check.registry import Issue, check, per_game
from generator.errors import BuildError
from generator.layout.deck import draw_deck
from generator.layout.faces import NamingFaceRenderer as FaceRenderer  # drawn once for check and build, by name


class PrintProblems:
    """What a ``FaceRenderer`` reports while faces are drawn, by kind: "overflow" and "glyph"
    (through ``note``, its ``on_print_problem``) and "layout" (an expression that fails, caught
    by ``drawing``). ``once_per_line`` keeps one problem per kind and content line."""

    def __init__(self, once_per_line: bool = False):
        self.by_kind: dict[str, list[BuildError]] = {"overflow": [], "glyph": [], "layout": []}
        self._once_per_line = once_per_line
        self._seen: set = set()

    def note(self, kind: str, error: BuildError) -> None:
        if self._once_per_line:
            key = (kind, str(error.source))
            if key in self._seen:
                return
            self._seen.add(key)
        self.by_kind[kind].append(error)

    @contextmanager
    def drawing(self):
        """Draw inside: a BuildError (a layout expression fails for a face) is a "layout" problem, and
        drawing goes on with the next. A ContentError (no such layout, malformed YAML) propagates: the
        content cannot be read (exit 2), as in a build."""
        try:
            yield
        except BuildError as error:
            self.note("layout", error)

    def issues(self, kind: str):
        for error in self.by_kind[kind]:
            yield Issue(error.source, error.message, error.hint)


@per_game
def print_problems(game) -> PrintProblems:
    """Every deck's faces and back."""

    problems = PrintProblems()
    renderer = FaceRenderer(game, on_print_problem=problems.note)
    for deck in game.decks.values():
        with problems.drawing():
            draw_deck(game, deck, renderer)
    return problems


@check("PNP701", "error", "text that does not fit its box on a card, even at its smallest size")
def text_overflow(game):
    yield from print_problems(game).issues("overflow")


@check("PNP702", "error", "characters the embedded font has no glyph for (they would print as empty boxes)")
def missing_glyphs(game):
    yield from print_problems(game).issues("glyph")


@check("PNP703", "error", "a card face or back whose layout cannot be drawn")
def layout_fails(game):
    yield from print_problems(game).issues("layout")
