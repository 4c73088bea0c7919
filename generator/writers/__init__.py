"""Build a game: model → layout → render, into output/<game>/.

Each kind of output is a *producer* (``PRODUCERS`` below): a function that
takes the game and a ``BuildContext`` and writes its files through the
context. Adding a kind of component is adding one producer module and one
line here.

Everything is written into a fresh temporary folder beside the target and
swapped in only when the whole build succeeded, so a failed build leaves the
previous output untouched and never leaves a half-written file.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from generator.writers.boards import produce_boards
from generator.writers.cards import produce_cards
from generator.layout.deck import draw_deck
from generator.writers.components import produce_components
from generator.writers.context import BuildContext, BuildResult, Progress, Written
from generator.writers.printandplay import produce_printandplay
from generator.writers.rules import produce_rules
from generator.check import ChecksFailed, errors_in, run_checks
from generator.model.game import Game

__all__ = ["BuildContext", "BuildResult", "Progress", "Written", "build_game", "draw_deck",
           "PRODUCERS"]

#: producers in print order: each writes its files and registers its documents
PRODUCERS = [produce_cards, produce_components, produce_rules, produce_boards]
PRODUCERS.append(produce_printandplay)  # last: it gathers what the others printed


def build_game(game: Game, out_root: Path, paper: str = "a4", progress: Progress | None = None,
               force: bool = False, findings: list | None = None) -> BuildResult:
    """Check the game, then build it; check errors refuse the build (``ChecksFailed``) unless ``force``.

    ``findings``: the checks' result when the caller ran them already (to show them first).
    """
    progress = progress or Progress()
    findings = run_checks(game) if findings is None else findings
    if errors_in(findings) and not force:
        raise ChecksFailed(game, findings)
    out_root.mkdir(parents=True, exist_ok=True)
    final = out_root / game.id
    staging = Path(tempfile.mkdtemp(prefix=f".{game.id}.", dir=out_root))
    staging.chmod(0o755)  # mkdtemp makes it private; output is for people
    try:
        ctx = BuildContext(game, paper, staging, final, progress, force=force)
        ctx.result.findings = findings
        progress.start(game, sum(steps(game) for steps in (getattr(p, "steps", _one) for p in PRODUCERS)))
        for produce in PRODUCERS:
            produce(game, ctx)
        _swap(staging, final)
        progress.done()
        return ctx.result
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _one(game: Game) -> int:
    return 1


def _swap(staging: Path, final: Path) -> None:
    """Replace ``final`` by ``staging`` with renames only (no half-written state)."""
    old = None
    if final.exists():
        old = final.with_name(f".{final.name}.old-{os.getpid()}")
        final.rename(old)
    staging.rename(final)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
