"""Build a game: model → layout → render, into output/<game>/.

Each kind of output is a *producer* (``PRODUCERS`` below): a function that
takes the game and a ``BuildContext`` and writes its files through the
context. Adding a kind of component is adding one producer module and one
line here.

Producers lay out and record (``lay_out``); ``build_game`` then writes it all
(``BuildContext.flush``) into a fresh temporary folder beside the target, which
is swapped in only when the whole build succeeded, so a failed build leaves the
previous output untouched and never leaves a half-written file.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from generator.build.boards import produce_boards
from generator.build.cards import draw_deck, produce_cards
from generator.build.components import produce_components
from generator.build.context import BuildContext, BuildResult, Progress, Written
from generator.build.printandplay import produce_printandplay
from generator.build.rules import produce_rules
from generator.check import ChecksFailed, errors_in, run_checks
from generator.model.game import Game

__all__ = ["BuildContext", "BuildResult", "Progress", "Written", "build_game", "draw_deck", "lay_out",
           "PRODUCERS"]

#: producers in print order: each writes its files and registers its documents
PRODUCERS = [produce_cards, produce_components, produce_rules, produce_boards]
PRODUCERS.append(produce_printandplay)  # last: it gathers what the others printed


def lay_out(game: Game, paper: str, on_print_problem=None, force: bool = False) -> BuildContext:
    """Run every producer: each file of the build laid out, none written yet (``BuildContext.flush`` writes).

    ``on_print_problem(kind, error)`` receives text that would not print (and it is drawn anyway), as
    the checker collects it; without it, ``force`` draws such text and a plain layout stops at it.
    """
    ctx = BuildContext(game, paper, None, Path(game.id), Progress(), force=force, on_print_problem=on_print_problem)
    for produce in PRODUCERS:
        produce(game, ctx)
    return ctx


def build_game(game: Game, out_root: Path, paper: str = "a4", progress: Progress | None = None,
               force: bool = False, findings: list | None = None) -> BuildResult:
    """Check the game, then build it; check errors refuse the build (``ChecksFailed``) unless ``force``.

    ``findings``: the checks' result when the caller ran them already (to show them first). The layout is
    the checker's own when it laid this paper out (``generator.check.dry``): it is written, not redone.
    """
    from generator.check.dry import laid_out  # late: the checker's module imports this package

    progress = progress or Progress()
    findings = run_checks(game) if findings is None else findings
    if errors_in(findings) and not force:
        raise ChecksFailed(game, findings)
    ctx = laid_out(game, paper).buildable(force)
    out_root.mkdir(parents=True, exist_ok=True)
    final = out_root / game.id
    staging = Path(tempfile.mkdtemp(prefix=f".{game.id}.", dir=out_root))
    staging.chmod(0o755)  # mkdtemp makes it private; output is for people
    try:
        progress.start(game, len(ctx.pending))
        result = ctx.flush(staging, final, progress)
        result.findings = findings
        _swap(staging, final)
        progress.done()
        return result
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _swap(staging: Path, final: Path) -> None:
    """Replace ``final`` by ``staging`` with renames only (no half-written state)."""
    old = None
    if final.exists():
        old = final.with_name(f".{final.name}.old-{os.getpid()}")
        final.rename(old)
    staging.rename(final)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
