"""The pipeline: load → model → layout → check → write, as ``pnpgen build`` runs it.

The checker lays the game out with the writers' own producers (a dry build), so
check and build refuse the same things; ``build_game`` then writes that very
layout into the output folder (``generator.output_folder``).
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from generator.cache import GameCache
from generator.check import ChecksFailed, errors_in, run_checks
from generator.check.dry import check_only, laid_out
from generator.errors import OutputError, Source, mark_output_replaced
from generator.layout.faces import is_large, kept_with
from generator.model.game import Game
from generator.output_folder import output_lock, refuse_unsafe_target, remove_leftovers, signals_held, swap
from generator.paths import plain_name
from generator.writers import BuildResult, Outputs, Progress, fewer_collections, lay_out


def checked(game: Game, force: bool = False, findings: list | None = None) -> list:
    """The checks' findings (run now unless given); check errors refuse the build (``ChecksFailed``)
    unless ``force``. The one place that rule lives: ``pnpgen build`` and ``build_game`` both come here."""
    findings = run_checks(game) if findings is None else findings
    if errors_in(findings) and not force:
        raise ChecksFailed(game, findings)
    return findings


def build_game(game: Game, out_root: Path, paper: str = "a4", progress: Progress | None = None,
               force: bool = False, findings: list | None = None, on_checked=None,
               kept: GameCache | None = None, outputs: Outputs | None = None) -> BuildResult:
    """Check the game, then build it; check errors refuse the build (``ChecksFailed``) unless ``force``.

    ``outputs``: what to write (``generator.outputs``; its parts resolved for this game); None:
    everything. The check covers the whole game whatever is written.

    ``findings``: the checks' result when the caller ran them already. ``on_checked(game, findings)``
    is called once the checks let the build go on, before anything is written (the CLI prints the
    findings there). The layout is the checker's own when it laid this paper out
    (``generator.check.dry``): it is written, not redone.
    Another build writing the same ``OUT/<game>``, a target that is not a folder of its own, or an
    output that cannot be written is an ``OutputError`` (exit 1: the content is fine, the output folder is not).
    A ``KeyboardInterrupt`` leaves the previous output as it was, unless it came after the swap
    (then ``generator.errors.output_replaced`` says so of it).
    ``kept``: the game's build cache (``generator.incremental``): files it has are copied, not drawn again.
    """
    with fewer_collections():
        progress = progress or Progress()
        outputs = (outputs or Outputs.everything()).resolve(game)   # an unknown part is a ContentError before the check
        if findings is None and outputs != Outputs.everything():
            check_only(game)   # the check's layout of everything is not what this build writes: none of it is kept
        findings = checked(game, force, findings)
        if on_checked is not None:
            on_checked(game, findings)
        plain_name(game.id, game.source, "game id")  # loading checked it; a caller may have set it since
        try:
            return _write(game, Path(out_root), paper, progress, force, findings, kept, outputs)
        except OSError as error:
            raise OutputError(Source(Path(error.filename)) if error.filename else None,
                              f"cannot write the output: {error.strerror or error}",
                              "check that the --out folder is writable and the disk has room") from None


def _write(game: Game, out_root: Path, paper: str, progress: Progress, force: bool, findings: list,
           kept: GameCache | None, outputs: Outputs) -> BuildResult:
    final = out_root / game.id
    refuse_unsafe_target(game, out_root, final)
    out_root.mkdir(parents=True, exist_ok=True)
    with output_lock(out_root, game.id, final):
        remove_leftovers(out_root, game.id)
        staging = Path(tempfile.mkdtemp(prefix=f".{game.id}.staging-{os.getpid()}-", dir=out_root))
        staging.chmod(0o755)  # mkdtemp makes it private; output is for people
        swapped = False
        try:
            ctx = _layout(game, paper, force, outputs)
            progress.start(game, len(ctx.pending))
            result = ctx.flush(staging, final, progress, kept)
            result.findings = findings
            result.notes = list(ctx.result.notes)
            old = out_root / f".{game.id}.old-{staging.name[len(f'.{game.id}.staging-'):]}"
            with signals_held():
                replaced = swap(staging, final, old)
                swapped = True
            if replaced:
                shutil.rmtree(old, ignore_errors=True)  # a build killed now leaves it to the next one
            if kept is not None:
                kept.prune()
            progress.done()
            return result
        except BaseException as error:
            shutil.rmtree(staging, ignore_errors=True)
            if isinstance(error, KeyboardInterrupt):
                mark_output_replaced(error, swapped)
            raise


def _layout(game: Game, paper: str, force: bool, outputs: Outputs):
    """What to write: the checker's layout of every output (it refuses what a build of everything would refuse,
    whatever is chosen: check and build agree), itself when everything is written and the checker kept it (a
    game of up to ``faces.LARGE_GAME_FACES`` faces), else the chosen outputs laid out again (faces are drawn once
    per game; stamps are placed only on the files written)."""
    dry = laid_out(game, paper).buildable(force)
    if dry is not None and outputs == Outputs.everything():
        return dry
    del dry
    # the check's layout of everything is not written: let it go before laying out the chosen outputs, or a
    # large deck's print-shop pages and SVG faces stay in memory while the home PDFs are drawn
    kept_with(game, "layouts").pop(paper, None)   # generator.check.dry keeps it there
    ctx = lay_out(game, paper, force=force, outputs=outputs)
    if is_large(game):   # every face is placed: which faces were drawn is not needed again (their forms are kept)
        kept_with(game, "faces").clear()
    return ctx
