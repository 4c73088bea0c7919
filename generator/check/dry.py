"""PNP704–705 — the build itself, laid out: whatever the build would refuse, the check finds.

The other checks look at parts (each deck's faces, each piece, the map). Here
every producer of the build runs, as ``pnpgen build`` runs it, against a
context that lays everything out and writes nothing (``generator.writers.lay_out``):
faces with their shapes, card sheets, the rule sheet, board tiles, the
print-and-play file. Text that would not print is handed to a collector (and
drawn anyway, as ``--force`` draws it); a BuildError that stops the layout is
a finding; a ContentError (a mistake in rules.md, a missing layout) propagates,
so the check exits 2 as the build would. What another check reported already
at the same place is not reported twice.

The layout is kept per game and paper: ``build_game`` writes it rather than
laying the game out again.
"""
from __future__ import annotations

from dataclasses import dataclass

from generator.check import components, printing
from generator.check.registry import Issue, check
from generator.errors import BuildError
from generator.layout.faces import kept_with
from generator.writers import lay_out

#: the paper ``pnpgen check`` lays out (the build's default; card sizes are checked against Letter at load)
CHECK_PAPER = "a4"


@dataclass
class DryLayout:
    """A game laid out for one paper: the context to write, or the error that stopped it."""

    paper: str
    ctx: object | None            # the BuildContext, every file recorded (None if the layout stopped)
    problems: list                # (kind, BuildError): text that would not print, once per kind, place and message
    error: BuildError | None = None

    def buildable(self, force: bool):
        """The context to write; the error that stopped the layout, or (without ``force``) the first text
        that would not print, is raised as the build's own would be."""
        if self.error is not None:
            raise self.error
        if self.problems and not force:
            raise self.problems[0][1]
        return self.ctx


def laid_out(game, paper: str = CHECK_PAPER) -> DryLayout:
    """The game laid out by the build's producers for ``paper``, once per game and paper."""
    by_paper = kept_with(game, "layouts")
    if paper not in by_paper:
        by_paper[paper] = _lay_out(game, paper)
    return by_paper[paper]


def _lay_out(game, paper: str) -> DryLayout:
    problems, seen = [], set()

    def note(kind: str, error: BuildError) -> None:
        key = (kind, str(error.source), error.message)
        if key not in seen:
            seen.add(key)
            problems.append((kind, error))

    try:
        return DryLayout(paper, lay_out(game, paper, on_print_problem=note), problems)
    except BuildError as error:
        return DryLayout(paper, None, problems, error)


def _reported_elsewhere(game) -> tuple[set, set]:
    """What the card and piece checks (PNP701–703, PNP807–809) found: print problems by (kind, place),
    layout failures by (place, message)."""
    problems, failures = set(), set()
    for found in (printing.print_problems(game), components.print_problems(game)):
        for kind, errors in found.by_kind.items():
            problems |= {(kind, str(e.source)) for e in errors}
            failures |= {(str(e.source), e.message) for e in errors}
    return problems, failures


@check("PNP704", "error", "text elsewhere in the build (the rule sheet, the print-and-play file) that would not "
                          "print: a glyph the font lacks, text that does not fit")
def build_print_problems(game):
    elsewhere, _ = _reported_elsewhere(game)
    for kind, error in laid_out(game).problems:
        if (kind, str(error.source)) not in elsewhere:
            yield Issue(error.source, error.message, error.hint)


@check("PNP705", "error", "the build would refuse this: laying out every file as the build does fails")
def build_refuses(game):
    error = laid_out(game).error
    if error is not None and (str(error.source), error.message) not in _reported_elsewhere(game)[1]:
        yield Issue(error.source if error.source.file is not None else None, error.message, error.hint)
