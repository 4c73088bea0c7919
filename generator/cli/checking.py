"""Reading and checking one game for ``pnpgen check``: a module of its own, so that a check with nothing
changed since the last one loads none of it (``generator.cli.check._checking``)."""
from __future__ import annotations

from pathlib import Path

from generator.check import Finding, run_checks
from generator.check.dry import check_only
from generator.load.game import load_game
from generator.load.rules import rules_of
from generator.model.game import Game


def checked_game(folder: Path, addons: tuple) -> tuple[Game, list[Finding]]:
    """The game in ``folder`` (with ``addons``) and the checks' findings; a ContentError if it cannot be read."""
    game = load_game(folder, addons)
    check_only(game)   # checked, not built: the check's layout of the build need not be kept for writing
    rules_of(game)  # rules.md is content too: a template mistake is found here, not first in a build (and kept
    # for the dry layout's rule sheet: read once)
    return game, run_checks(game)
