"""The writers: one *producer* per kind of output, in print order (``PRODUCERS``).

A producer takes the game and a ``BuildContext`` and lays its files out through
the context (``write_pdf``, ``write_svg``, ``write_text``); nothing is written
until ``BuildContext.flush`` (``generator.pipeline.build_game``). So the checker
runs the very same producers (``lay_out``) to find what a build would refuse.
Adding an output format is one producer module and one line in ``PRODUCERS``.
The producers of boards, components and the rule sheet are imported when a game has
any (``_when``): a cards-only game's build never imports their layouts and models.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from generator.collector import THRESHOLD as BUILD_GC_THRESHOLD
from generator.collector import fewer_collections
from generator.layout.deck import draw_deck
from generator.model.game import Game
from generator.model.rules import has_rules_file
from generator.outputs import Outputs
from generator.writers.cards import produce_cards
from generator.writers.context import BuildContext, BuildResult, Progress, Written
from generator.writers.printandplay import produce_printandplay

__all__ = ["PRODUCERS", "BuildContext", "BuildResult", "Outputs", "Progress", "Written", "draw_deck", "fewer_collections",
           "lay_out", "BUILD_GC_THRESHOLD"]

Producer = Callable[[Game, BuildContext], None]


def _when(module: str, has: Callable[[Game], bool], without: Producer | None = None) -> Producer:
    """The producer ``produce_<module>`` of ``generator.writers.<module>``, imported the first time a game ``has``
    what it writes; for a game without any, ``without`` (what the producer itself does then) or nothing."""
    def produce(game: Game, ctx: BuildContext) -> None:
        if has(game):
            getattr(importlib.import_module(f"{__name__}.{module}"), f"produce_{module}")(game, ctx)
        elif without is not None:
            without(game, ctx)
    produce.__name__ = produce.__qualname__ = f"produce_{module}"
    return produce


def _folders(game: Game) -> list[Path]:
    """The game's folder and each add-on's: where a rules.md is read (``generator.load.rules.load_rules``)."""
    return [game.folder, *(addon.folder for addon in game.addons)]


def _no_rules(game: Game, ctx: BuildContext) -> None:
    """``produce_rules`` of a game with no rules.md: the step is reported, nothing laid out."""
    if ctx.wants_home("rules") or ctx.wants("html", "rules"):
        ctx.progress.step("rule sheet")


produce_components = _when("components", lambda game: bool(game.parts),
                           lambda game, ctx: ctx.note_folder("svg", "svg"))   # (the cards' svg/ counted again)
produce_rules = _when("rules", lambda game: any(has_rules_file(folder) for folder in _folders(game)), _no_rules)
produce_boards = _when("boards", lambda game: bool(game.boards))

#: producers in print order: each writes its files and registers its documents
PRODUCERS = [produce_cards, produce_components, produce_rules, produce_boards]
PRODUCERS.append(produce_printandplay)  # last: it gathers what the others printed


def lay_out(game: Game, paper: str, on_print_problem=None, force: bool = False,
            outputs: Outputs | None = None, keep: bool = True) -> BuildContext:
    """Run every producer: each file of the build laid out, none written yet (``BuildContext.flush`` writes).

    ``on_print_problem(kind, error)`` receives text that would not print (and it is drawn anyway), as
    the checker collects it; without it, ``force`` draws such text and a plain layout stops at it.
    ``outputs``: what to lay out (``generator.outputs``); None: every output of the whole game.
    ``keep``: False lays out without keeping what only writing the files needs (``BuildContext.keep``).
    """
    ctx = BuildContext(game, paper, None, Path(game.id), Progress(), force=force, on_print_problem=on_print_problem,
                       outputs=outputs or Outputs.everything(), keep=keep)
    with fewer_collections():   # the checker's dry layout too (``pnpgen check``), not only a build's
        for produce in PRODUCERS:
            produce(game, ctx)
    return ctx
