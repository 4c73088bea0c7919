"""Which games the simulator plays: one whose rules-subject checks find no error.

A playtest of a game that contradicts itself as played (a ticket from a city to itself, a route of a colour no
card has, a scoring table without a length the map uses) measures nothing, so ``pnpgen simulate`` runs the
checks whose subject is ``rules`` (``generator.check.registry``) first and refuses such a game (exit 2) with the
findings as ``pnpgen check`` prints them. Print-subject errors (text that overflows a card, a missing glyph,
artwork) do not stop a playtest: the rules can be tried before the artwork is done. Warnings never stop it, and
a finding the content waives (``# waive PNP401: why``) is waived here as in ``check``.
"""
from __future__ import annotations

from generator.check import Finding, errors_in, run_checks
from generator.errors import PnpgenError
from generator.model.game import Game

#: the subject of the checks a game must pass to be played
PLAYED = "rules"


class NotPlayable(PnpgenError):
    """The rules-subject checks found errors: the game is not played (exit 2, as content that cannot be used)."""

    exit_code = 2
    code = "RULES"

    def __init__(self, game: Game, findings: list[Finding], folder: str = ""):
        errors = errors_in(findings)
        s = "s" if len(errors) != 1 else ""
        super().__init__(None, f"{game.id}: {len(errors)} rules error{s}: pnpgen simulate does not play a game "
                               "that contradicts itself as played",
                         f"fix the error{s} above (`pnpgen check {folder or game.id}` lists every finding); "
                         "layout and print errors do not stop a playtest")
        self.game = game
        self.findings = findings


def admit(game: Game, folder: str = "") -> list[Finding]:
    """The rules-subject findings on ``game`` (warnings, waived errors), or ``NotPlayable`` if any is an error."""
    findings = run_checks(game, subject=PLAYED)
    if errors_in(findings):
        raise NotPlayable(game, findings, folder)
    return findings
