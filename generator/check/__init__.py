"""The rules checker: prove a game consistent before it is printed.

Checks are small functions, one module per group (counts.py, tables.py,
maps.py, tickets.py, …), registered with ``@check(code, severity,
description)`` from ``registry``. Every module of this package is imported
here, so adding a check is adding one function (or one module) — nothing
else to edit. ``run_checks(game)`` runs the catalogue and returns the
findings in a stable order; ``run_checks(game, subject="rules")`` only the
checks that prove the game as played (``pnpgen simulate`` runs those first).
"""
from __future__ import annotations

import importlib

from generator.check.registry import CATALOGUE, FINISHERS, SUBJECTS, Check, Finding, Issue, check
from generator.check.waivers import Waivers
from generator.errors import PnpgenError

__all__ = ["CATALOGUE", "SUBJECTS", "Check", "ChecksFailed", "Finding", "Issue", "check", "run_checks", "catalogue",
           "errors_in", "subject_of"]

_INFRASTRUCTURE = {"registry", "waivers", "report", "stats"}


def _import_checks() -> None:
    """Import every check module (each registers its checks), once, when the catalogue is first needed: a
    command that only reads findings (a build or check recalled from the cache) loads none of them."""
    if _imported:
        return
    import pkgutil  # (not imported by a caller that registers the one check module it needs: decks_only.py)

    for module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        if module not in _INFRASTRUCTURE and not module.startswith("_"):
            importlib.import_module(f"{__name__}.{module}")
    _imported.append(True)


_imported: list[bool] = []


def catalogue() -> list[Check]:
    """Every check, by code."""
    _import_checks()
    return [CATALOGUE[code] for code in sorted(CATALOGUE)]


def subject_of(code: str) -> str | None:
    """What check ``code`` proves ("rules" or "print"); None for a code that is no check's (a read error)."""
    _import_checks()
    entry = CATALOGUE.get(code)
    return entry.subject if entry is not None else None


def run_checks(game, codes=None, subject: str | None = None) -> list[Finding]:
    """Run the catalogue (or only ``codes``, or only the checks of ``subject``) on a loaded game; findings sorted
    by file, line, code. Waivers apply whichever checks run."""
    waivers = Waivers()
    findings = []
    for entry in catalogue():
        if codes is not None and entry.code not in codes:
            continue
        if subject is not None and entry.subject != subject:
            continue
        for issue in entry.run(game):
            source = issue.source or game.source
            findings.append(Finding(entry.code, entry.severity, source, issue.message, issue.hint, game.id,
                                    waivers.reason(entry.code, source.file, source.line), subject=issue.subject))
    for finish in FINISHERS:
        finish(game)
    return sorted(findings, key=Finding.sort_key)


def errors_in(findings) -> list[Finding]:
    """The findings that fail a check or block a build: errors not waived by the content."""
    return [f for f in findings if f.severity == "error" and not f.waived]


class ChecksFailed(PnpgenError):
    """The checks found errors, so the build refuses (exit 1); ``findings`` says which, and its
    diagnostics are the errors among them."""

    exit_code = 1
    code = "CHECKS"

    def __init__(self, game, findings: list[Finding]):
        errors = errors_in(findings)
        first = errors[0]
        super().__init__(first.source, f"{game.id}: {len(errors)} check error{'s' if len(errors) != 1 else ''} "
                                       f"(first: {first.code} {first.message})",
                         "fix them (`pnpgen check` lists them all), or build anyway with --force")
        self.game = game
        self.findings = findings

    @property
    def diagnostics(self) -> list[Finding]:
        return errors_in(self.findings)
