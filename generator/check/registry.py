"""The catalogue of checks: each a small function registered with a stable code.

A check is ``@check("PNP301", "error", "one-line description")`` on a function
``fn(game) -> Iterable[Issue]``. The decorator gives it its code, severity and
description; the function only says *where* and *what*. Codes are grouped by
hundreds (1xx counts, 2xx tables, 3xx maps, 4xx tickets, 5xx board geometry,
6xx setup and game-specific, 7xx print, 8xx tokens/tiles/dice), and the module
a check lives in is its group.

Each check also has a *subject*: what it proves. ``rules`` checks prove the game as it is played (counts,
tables, the map, tickets, setup, pieces per player); ``print`` checks prove what is printed (layout, fonts,
board drawing, margins, artwork). A group's subject is ``GROUP_SUBJECTS``; a check of another subject than
its group says so (``@check("PNP807", "error", "…", subject="print")``). ``pnpgen simulate`` refuses a game
with a rules error and plays one with print errors (a playtest before the artwork is done).
"""
from __future__ import annotations

import functools
import re
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from generator.errors import Diagnostic, Source
from generator.model import dataclass_eq, dataclass_hash, dataclass_repr

SEVERITIES = ("error", "warning")
#: what a check proves: the game as played (``simulate`` refuses an error among these), or what is printed
SUBJECTS = ("rules", "print")
#: each check module's subject, unless a check says otherwise; a new module must be listed (a test asks)
GROUP_SUBJECTS = {
    "counts": "rules", "tables": "rules", "maps": "rules", "tickets": "rules", "setup": "rules", "railway": "rules",
    "variants": "rules", "components": "rules",
    "board": "print", "furniture": "print", "margins": "print", "terrain": "print", "printing": "print",
    "dry": "print", "colours": "print", "artwork": "print", "words": "print",
}
CODE = re.compile(r"^PNP[1-9]\d\d$")


class Issue(NamedTuple):
    """What a check function yields: where, what is wrong, what to change (and, for tools, the
    ids of what it concerns: ``Diagnostic.subject``)."""

    source: Source
    message: str
    hint: str | None = None
    subject: tuple = ()


@dataclass(frozen=True, repr=False, eq=False)
class Finding(Diagnostic):
    """One problem found in a game, ready to report: a diagnostic, the game it was found in,
    and whether the content waives it."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    game: str = ""
    #: the content comment that explains a known, accepted finding (it then neither fails nor counts)
    waived: str | None = None

    @classmethod
    def of(cls, diagnostic: Diagnostic, game: str = "", waived: str | None = None) -> Finding:
        """A diagnostic as a finding (an error that stopped a game from being read, in ``check``'s report)."""
        return cls(diagnostic.code, diagnostic.severity, diagnostic.source, diagnostic.message, diagnostic.hint,
                   game, waived, subject=diagnostic.subject)

    def sort_key(self) -> tuple:
        return (self.game, self.file, self.line or 0, self.code, self.message)

    def to_json(self) -> dict:
        return {"game": self.game, **super().to_json(), "waived": self.waived}


def display_file(source: Source) -> str:
    """The file as messages show it (relative to the working folder where it can be), without the line."""
    return str(Source(source.file))


@dataclass(frozen=True, repr=False, eq=False)
class Check:
    """A check of the catalogue: its code, severity and what it finds."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    code: str
    severity: str
    description: str
    group: str
    function: Callable
    #: what it proves: "rules" (the game as played) or "print" (what is printed); see ``SUBJECTS``
    subject: str = "rules"

    def run(self, game) -> Iterable[Issue]:
        return self.function(game)


def per_game(analysis: Callable):
    """``analysis(game)`` computed once per game and shared by the several checks that report
    parts of it (every face laid out, every board planned); forgotten with the game."""
    results: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    @functools.wraps(analysis)
    def shared(game):
        if game not in results:
            results[game] = analysis(game)
        return results[game]

    return shared


#: code → Check, filled by the ``@check`` decorators as the check modules are imported
CATALOGUE: dict[str, Check] = {}
#: ``fn(game)`` called once every check has run on a game, registered by a check module for its own
#: bookkeeping (the map's shortest paths kept for the next run: ``generator.check.tickets``)
FINISHERS: list[Callable] = []


def check(code: str, severity: str, description: str, subject: str | None = None):
    """Register ``fn(game) -> Iterable[Issue]`` as check ``code`` (``subject``: its group's unless given)."""
    if not CODE.match(code):
        raise ValueError(f"check code {code!r} should look like PNP101")
    if severity not in SEVERITIES:
        raise ValueError(f"check {code}: severity {severity!r} should be one of {SEVERITIES}")
    if subject is not None and subject not in SUBJECTS:
        raise ValueError(f"check {code}: subject {subject!r} should be one of {SUBJECTS}")

    def register(fn):
        if code in CATALOGUE and CATALOGUE[code].function.__qualname__ != fn.__qualname__:
            raise ValueError(f"check code {code} is used twice ({CATALOGUE[code].function.__name__}, {fn.__name__})")
        group = fn.__module__.rsplit(".", 1)[-1]
        kind = subject or GROUP_SUBJECTS.get(group)
        if kind is None:
            raise ValueError(f"check {code}: module '{group}' has no subject in GROUP_SUBJECTS: add it, or give "
                             f"subject= one of {SUBJECTS}")
        CATALOGUE[code] = Check(code, severity, description, group, fn, kind)
        return fn

    return register
