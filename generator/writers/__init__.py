"""The writers: one *producer* per kind of output, in print order (``PRODUCERS``).

A producer takes the game and a ``BuildContext`` and lays its files out through
the context (``write_pdf``, ``write_svg``, ``write_text``); nothing is written
until ``BuildContext.flush`` (``generator.pipeline.build_game``). So the checker
runs the very same producers (``lay_out``) to find what a build would refuse.
Adding an output format is one producer module and one line in ``PRODUCERS``.
"""
from __future__ import annotations

from pathlib import Path

from generator.collector import THRESHOLD as BUILD_GC_THRESHOLD
from generator.collector import fewer_collections
from generator.layout.deck import draw_deck
from generator.model.game import Game
from generator.outputs import Outputs
from generator.writers.boards import produce_boards
from generator.writers.cards import produce_cards
from generator.writers.components import produce_components
from generator.writers.context import BuildContext, BuildResult, Progress, Written
from generator.writers.printandplay import produce_printandplay
from generator.writers.rules import produce_rules

__all__ = ["PRODUCERS", "BuildContext", "BuildResult", "Outputs", "Progress", "Written", "draw_deck", "fewer_collections",
           "lay_out", "BUILD_GC_THRESHOLD"]

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
