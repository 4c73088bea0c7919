"""Building one game for ``pnpgen build`` and ``pnpgen export``: the progress bar, and the pipeline.

A module of its own so that ``pnpgen build`` loads the pipeline (layout, renderers, checks) only when
a game must be built (``generator.cli.build._building``).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from generator.cli import common
from generator.load.game import load_game
from generator.pipeline import build_game
from generator.writers import BuildResult, Progress

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["build_one", "load_game"]


class _ConsoleProgress(Progress):
    """A progress bar on a terminal; one line per game elsewhere (CI, pipes)."""

    def __init__(self, console: Console):
        self.console = console
        self.bar = None

    def start(self, game, steps):
        self.label = game.id
        # a captured console (a build in a process of its own, ``cli.build._captured``) gets lines, shown later
        if self.console.is_terminal and not getattr(self.console.file, "captured", False):
            # rich's progress display, imported for a terminal only (CI logs and pipes get lines)
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as RichProgress
            self.bar = RichProgress(TextColumn("{task.description}", style="bold", markup=False), BarColumn(),
                                    MofNCompleteColumn(), TextColumn("{task.fields[step]}", markup=False),
                                    TimeElapsedColumn(), console=self.console, transient=True)
            self.bar.start()
            self.task = self.bar.add_task(game.id, total=steps, step="")
        else:
            from rich.markup import escape

            self.console.print(f"building {escape(game.id)} …", soft_wrap=True)

    def step(self, message):
        if self.bar:
            self.bar.update(self.task, advance=1, step=message)

    def done(self):
        if self.bar:
            self.bar.stop()
            self.bar = None


class _PlainProgress(Progress):
    """One line per game on a standard error that is not a terminal, as ``_ConsoleProgress`` prints it there,
    without rich (``common.say``)."""

    def start(self, game, steps):
        def markup() -> str:
            from rich.markup import escape

            return f"building {escape(game.id)} …"

        common.say(f"building {game.id} …", stderr=True, markup=markup)

    def step(self, message):
        pass

    def done(self):
        pass


def build_one(game, out_root: Path, paper: str, force: bool, on_checked, kept, outputs=None) -> BuildResult:
    """Check and build ``game`` into ``out_root`` with a progress bar (``generator.pipeline.build_game``);
    ``outputs``: what to write (``generator.outputs``; None: everything)."""
    progress = _PlainProgress() if common.plain_stderr() else _ConsoleProgress(common.err_console)
    try:
        return build_game(game, out_root, paper, progress, force=force, on_checked=on_checked, kept=kept,
                          outputs=outputs)
    finally:
        progress.done()
