"""``pnpgen export png / tts / …``: images and files for other tools (generator/export)."""
from __future__ import annotations

import time
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from generator.check import ChecksFailed
from generator.cli.build import _refused, _report_build_findings
from generator.cli.building import _ConsoleProgress
from generator.cli.common import _fail, _sigterm_as_interrupt, _Terminated, err_console, out_console
from generator.cli.games import _games_for
from generator.cli.given import Given
from generator.errors import Interrupted, PnpgenError, Terminated
from generator.export import EXPORTERS
from generator.export.png import export_png
from generator.export.shoppdf import export_shop_pdf
from generator.export.shops import PRESETS, preset_names
from generator.export.tts import export_tts
from generator.load.game import load_game
from generator.paths import folder_name
from generator.pipeline import checked


@click.group(name="export")
def export_group():
    """Export a game for other tools: PNG faces, Tabletop Simulator decks, CSV tables."""


def _exporter(name: str, what: str, write):
    @click.argument("game", type=Given())
    @click.option("--out", "out_dir", type=Given(file_okay=False), default=None,
                  help=f"Folder to write into (made if missing); default: output/<game>-{name}.")
    @click.option("--with", "addons", multiple=True, type=Given(), help="Compose an add-on folder into the game.")
    def command(game, out_dir, addons):
        # quick (no bar), but stopped as the build is: Ctrl-C exits 130, SIGTERM 143, each file whole or not written
        try:
            with _sigterm_as_interrupt():
                loaded = load_game(Path(game), tuple(addons))
                written = write(loaded, Path(out_dir) if out_dir else Path("output") / f"{loaded.id}-{name}")
        except KeyboardInterrupt as interrupt:
            _fail((Terminated if isinstance(interrupt, _Terminated) else Interrupted)(
                f"{folder_name(Path(game))} was not exported; a previous export was left as it was"))
        except PnpgenError as error:
            _fail(error)
        for path in written:
            out_console.print(escape(str(path)), soft_wrap=True)

    command.__doc__ = f"Write {what}."
    return export_group.command(name=name)(command)


for _name, (_what, _write) in EXPORTERS.items():
    _exporter(_name, _what, _write)


def _export_options(fn):
    fn = click.option("--with", "addons", multiple=True, type=Given(),
                      help="Compose an add-on folder into each game (repeatable).")(fn)
    fn = click.option("--force", is_flag=True, help="Export even when the checks find errors (and say so).")(fn)
    fn = click.option("--out", "out_dir", type=Given(file_okay=False), default="output", show_default=True,
                      help="Folder that receives OUT/<game>-png/, -tts/ or -<preset>/ (beside the build's OUT/<game>/).")(fn)
    return click.argument("games", nargs=-1, type=Given())(fn)


@export_group.command(name="png")
@_export_options
@click.option("--dpi", type=click.FloatRange(10, 2400), default=300, show_default=True, help="Pixels per inch of faces.")
@click.option("--trim/--bleed", default=False, help="Cut at the trim line, or keep the bleed (default).")
@click.option("--board-dpi", type=click.FloatRange(10, 2400), default=100, show_default=True,
              help="Pixels per inch of boards (one image each).")
@click.option("--preset", type=click.Choice(preset_names()), default=None,
              help="A print shop's dpi, bleed and card sizes: " + "; ".join(
                  f"{p.name} = {p.label}" for p in PRESETS.values()) + " (each deck must be one of its sizes).")
def export_png_command(games, out_dir, force, addons, dpi, trim, board_dpi, preset):
    """One PNG per distinct face, back and board of each game, and manifest.json with the counts."""
    _export(games, addons, force, "PNG", lambda game, progress: export_png(
        game, Path(out_dir), dpi, trim, board_dpi, preset, progress, force))


@export_group.command(name="shop-pdf")
@_export_options
@click.option("--preset", type=click.Choice(preset_names("pdf")), default="dtc", show_default=True,
              help="The shop: dtc = DriveThruCards (a PDF per deck, each card's back then front, 1/8 in bleed).")
def export_shop_pdf_command(games, out_dir, force, addons, preset):
    """A print shop's PDFs: one per deck, one card side per page, drawn with the shop's own bleed."""
    _export(games, addons, force, PRESETS[preset].label, lambda game, progress: export_shop_pdf(
        game, Path(out_dir), preset, progress, force))


@export_group.command(name="tts")
@_export_options
@click.option("--base-url", default=None, help="Image URLs are this plus the file name (default: file:// paths).")
@click.option("--dpi", type=click.FloatRange(10, 2400), default=300, show_default=True,
              help="Card pixels per inch on the sheets, at most (a sheet stays within 4096 px).")
def export_tts_command(games, out_dir, force, addons, base_url, dpi):
    """Tabletop Simulator deck sheets, backs and boards, and a saved object (<game>.json) that loads them."""
    _export(games, addons, force, "Tabletop Simulator", lambda game, progress: export_tts(
        game, Path(out_dir), base_url, dpi, progress, force))


class _ExportProgress(_ConsoleProgress):
    """A bar per stage (the faces drawn, then the images or files written); one line per game elsewhere."""

    def __init__(self, console: Console, what: str):
        super().__init__(console)
        self.what = what
        self.announced = False

    def start(self, game, steps):
        if self.console.is_terminal:
            super().start(game, steps)
        elif not self.announced:
            self.console.print(f"exporting {escape(game.id)} ({self.what}) …", soft_wrap=True)
        self.announced = True


def _export(games, addons, force: bool, what: str, run) -> None:
    """Load and check each game as ``build`` does (same refusals, same exit codes), then export it."""
    exporting = None
    try:
        with _sigterm_as_interrupt():
            for folder in _games_for(games, addons):
                started = time.perf_counter()
                exporting = folder_name(folder)
                game = load_game(folder, tuple(addons))
                exporting = game.id
                _report_build_findings(game, checked(game, force))
                progress = _ExportProgress(err_console, what)
                try:
                    result = run(game, progress)
                finally:
                    progress.done()
                table = Table(title=f"{escape(str(result.folder))}/ — {time.perf_counter() - started:.1f} s",
                              title_justify="left", show_edge=False, header_style="bold")
                for column in ("file", result.unit, "what"):
                    table.add_column(column, no_wrap=column == "file", justify="right" if column == result.unit else "left")
                for name, count, kind in result.lines:
                    table.add_row(escape(name), str(count), escape(kind))
                out_console.print(table)
                for note in result.notes:
                    err_console.print(f"[yellow]note:[/yellow] {escape(note)}", soft_wrap=True)
    except KeyboardInterrupt as interrupt:
        _fail((Terminated if isinstance(interrupt, _Terminated) else Interrupted)(
            f"{exporting or 'nothing'} was not exported; a previous export was left as it was"))
    except ChecksFailed as failed:
        _refused(failed, "export")
    except PnpgenError as error:
        _fail(error)
