"""The ``pnpgen`` command: check, build, stats, list, new.

Every error is a ``generator.errors.PnpgenError``: printed as its diagnostics (file:line,
what is wrong, what to do) — never a traceback — and the exit status is its class's
``exit_code``: 2 the content cannot be read (``ContentError``); 1 it was read but is
inconsistent (``BuildError``; ``ChecksFailed``: the checker found errors, ``pnpgen check``
lists them, ``pnpgen build`` refuses to build unless ``--force``), or the output folder is not
free or cannot be written (``OutputError``). A build stopped by Ctrl-C exits 130 (SIGTERM: 143)
with one line (``Interrupted``), the previous output left as it was.

Everything content says is printed verbatim: markup is escaped, and the
consoles neither turn ``:name:`` into emoji (``map.yaml:100:`` is not 💯) nor
highlight.
"""
from __future__ import annotations

import json
import signal
import sys
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import IO, NoReturn, cast

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichProgress
from rich.table import Table

from generator import FORMAT_VERSION, __version__
from generator import pipeline_parallel as parallel
from generator.check import ChecksFailed, Finding, catalogue, errors_in, report, run_checks
from generator.check.stats import game_stats
from generator.errors import ContentError, Interrupted, PnpgenError, Terminated, output_replaced
from generator.export import EXPORTERS
from generator.export.png import export_png, preset_names
from generator.export.tts import export_tts
from generator.load.game import load_game
from generator.load.rules import load_rules
from generator.load.schema import EDITOR_SCHEMA_FILE, LAYOUT_SCHEMA_FILE, layout_schema_text, schema_text
from generator.new import LANGUAGES, TEMPLATES, create_game
from generator.paths import folder_name
from generator.pipeline import build_game, checked
from generator.serve import serve as serve_preview
from generator.simulate import report as simulation
from generator.simulate.bots import BOTS
from generator.simulate.rules import compile_rules
from generator.writers import BuildResult, Progress

#: content text is printed as it is: no emoji codes (``:100:``), no highlighting; markup is escaped
err_console = Console(stderr=True, highlight=False, emoji=False)
out_console = Console(highlight=False, emoji=False)


def find_games(paths: tuple[str, ...]) -> list[Path]:
    """Game folders named on the command line, or every folder under content/."""
    if paths:
        return [Path(p) for p in paths]
    root = Path("content")
    if not root.is_dir():
        raise ContentError(None, "no game folder named, and no content/ folder here to take the games from",
                           "name a game folder (the folder that holds game.yaml), e.g. pnpgen build path/to/my-game; "
                           "with none named, pnpgen takes every game under content/ in the current folder "
                           "(in the pnpgen repository: the bundled games)")
    games = sorted(p for p in root.iterdir() if (p / "game.yaml").is_file())
    if not games:
        raise ContentError(None, "content/ holds no game folder (a folder with game.yaml)", "add a game folder")
    return games


def _games_for(games: tuple[str, ...], addons: tuple[str, ...]) -> list[Path]:
    """The games to load; composing add-ons needs the base games named."""
    if addons and not games:
        raise ContentError(None, "--with composes an add-on into a game: name the game too",
                           "e.g. pnpgen build content/ttr-germany --with content/ttr-dice")
    return find_games(games)


def _fail(error: PnpgenError, prefix: str = "") -> None:
    """Print the error's diagnostics and exit with its class's status: the one place an exit status is chosen
    for an error (2 content cannot be read, 1 cannot be built or the output folder is not free, 130 interrupted)."""
    _print_error(error, prefix)
    sys.exit(error.exit_code)


def _print_error(error: PnpgenError, prefix: str = "") -> None:
    for one in error.diagnostics:
        # a mistake on the command line has no file to point at: no "<content>:" placeholder
        where = f"{escape(str(one.source))}: " if one.source.file is not None else ""
        err_console.print(f"[bold red]{error.label}[/]: {where}{prefix}{escape(one.message)}", soft_wrap=True)
        if one.hint:
            err_console.print(f"  [cyan]hint[/]: {escape(one.hint)}", soft_wrap=True)


class _ConsoleProgress(Progress):
    """A progress bar on a terminal; one line per game elsewhere (CI, pipes)."""

    #: False in a build whose output is captured (``_captured``): its lines are shown later, a bar would not be
    bars = True

    def __init__(self, console: Console):
        self.console = console
        self.bar = None

    def start(self, game, steps):
        self.label = game.id
        if self.console.is_terminal and self.bars:
            self.bar = RichProgress(TextColumn("{task.description}", style="bold", markup=False), BarColumn(),
                                    MofNCompleteColumn(), TextColumn("{task.fields[step]}", markup=False),
                                    TimeElapsedColumn(), console=self.console, transient=True)
            self.bar.start()
            self.task = self.bar.add_task(game.id, total=steps, step="")
        else:
            self.console.print(f"building {escape(game.id)} …", soft_wrap=True)

    def step(self, message):
        if self.bar:
            self.bar.update(self.task, advance=1, step=message)

    def done(self):
        if self.bar:
            self.bar.stop()
            self.bar = None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnpgen",
                      message=f"%(prog)s, version %(version)s (content format {FORMAT_VERSION})")
def main():
    """pnpgen: print-and-play components from YAML game content."""


@main.command()
@click.argument("games", nargs=-1, type=click.Path())
@click.option("--paper", type=click.Choice(["a4", "letter"], case_sensitive=False), default="a4", show_default=True,
              help="Paper for everything printed at home: card sheets, rules, print-and-play file.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output", show_default=True,
              help="Folder that receives one folder per game: OUT/<game>/.")
@click.option("--force", is_flag=True, help="Build even when the checks find errors (and say so).")
@click.option("--with", "addons", multiple=True, type=click.Path(),
              help="Compose an add-on folder into each game (repeatable): OUT/<game>+<add-on>/.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Games built at once, each in a process of its own (default: the number of cores).")
def build(games, paper, out_dir, force, addons, jobs):
    """Check, then build every game under content/ (or the GAMES given) into OUT/<game>/.

    Check errors refuse the build (exit 1) unless --force; warnings are printed.
    """
    if (jobs or parallel.default_jobs()) > 1 and len(games) != 1 and parallel.available():
        _build_in_parallel(jobs or parallel.default_jobs(), click.get_current_context().params)
    building = None  # the game being read or built, for the line an interruption prints
    try:
        with _sigterm_as_interrupt():
            for folder in _games_for(games, addons):
                started = time.perf_counter()
                building = folder_name(folder)
                game = load_game(folder, tuple(addons))
                building = game.id
                progress = _ConsoleProgress(err_console)
                try:
                    result = build_game(game, Path(out_dir), paper.lower(), progress, force=force,
                                        on_checked=_report_build_findings)
                finally:
                    progress.done()
                _print_written(result, time.perf_counter() - started)  # now: a later game's error must not hide it
    except KeyboardInterrupt as interrupt:
        _fail(_interrupted(interrupt, building, Path(out_dir)))
    except ChecksFailed as failed:
        _refused(failed, "build")
    except PnpgenError as error:
        _fail(error)


def _build_in_parallel(jobs: int, params: dict) -> None:
    """``pnpgen build`` of several games in ``jobs`` processes (``generator.pipeline_parallel``): each process
    runs this command for one game, with every other option as given, and what it printed is shown
    game by game in order; the first game that fails ends the command with its exit status. Returns
    (for the ordinary loop) when there are fewer than two games, or two that would write one folder."""
    try:
        folders = _games_for(params["games"], params["addons"])
    except PnpgenError as error:
        _fail(error)
    names = [folder_name(folder) for folder in folders]
    if len(folders) < 2 or len(set(names)) < len(names):
        return
    status = 0
    built = 0   # games delivered and built, in order

    def work(folder: Path) -> tuple[list[tuple[bool, str]], int]:
        assert build.callback is not None
        return _captured(partial(build.callback, **{**params, "games": (str(folder),), "jobs": 1}))

    def deliver(folder: Path, outcome: tuple[list[tuple[bool, str]], int]) -> bool:
        nonlocal status, built
        chunks, status = outcome
        for to_stderr, text in chunks:
            stream = sys.stderr if to_stderr else sys.stdout
            stream.write(text)
            stream.flush()
        built += 0 if status else 1
        return status == 0

    with _sigterm_as_interrupt():
        try:
            parallel.run_in_order(folders, work, jobs, deliver,
                                  lambda error: signal.SIGTERM if isinstance(error, _Terminated) else signal.SIGINT)
        except KeyboardInterrupt as interrupt:   # every game delivered so far was built: the next was not
            _fail(_interrupted(interrupt, names[built] if built < len(names) else None, Path(params["out_dir"])))
        except PnpgenError as error:
            _fail(error)
    sys.exit(status)


def _captured(run) -> tuple[list[tuple[bool, str]], int]:
    """What ``run()`` prints on this module's consoles, in order ((to stderr, text), …), and its exit status:
    a build in a process of its own, whose output the parent shows when that game's turn comes. The consoles
    keep the real ones' colours and width, and draw no progress bar."""
    global err_console, out_console
    chunks: list[tuple[bool, str]] = []

    class Sink:
        def __init__(self, to_stderr: bool):
            self.to_stderr = to_stderr

        def write(self, text: str) -> int:
            chunks.append((self.to_stderr, text))
            return len(text)

        def flush(self) -> None:
            pass

    real = err_console, out_console
    err_console, out_console = (
        Console(file=cast(IO[str], Sink(console is real[0])), highlight=False, emoji=False,
                force_terminal=console.is_terminal, color_system=console.color_system,  # type: ignore[arg-type]
                width=console.width)
        for console in real)
    _ConsoleProgress.bars = False
    try:
        run()
        status = 0
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 0 if exit_.code is None else 1
    except KeyboardInterrupt as interrupt:   # before the command's own handler was reached
        _print_error(_interrupted(interrupt, None, Path(".")))
        status = 130
    finally:
        err_console, out_console = real
        _ConsoleProgress.bars = True
    return chunks, status


def _refused(failed: ChecksFailed, verb: str) -> NoReturn:
    """The check errors that stop ``build``/``export`` (without --force), and the exit code."""
    report.print_findings([f for f in failed.findings if not f.waived], err_console)
    errors = len(failed.diagnostics)
    err_console.print(f"[bold red]{verb} refused[/]: {failed.game.id} has {errors} check "
                      f"error{'s' if errors != 1 else ''}; fix {'them' if errors != 1 else 'it'}, "
                      f"or {verb} anyway with --force", soft_wrap=True)
    sys.exit(failed.exit_code)


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be, so that a build it stops cleans up the same way."""


@contextmanager
def _sigterm_as_interrupt():
    def terminate(signum, frame):
        raise _Terminated()

    try:
        previous = signal.signal(signal.SIGTERM, terminate)
    except ValueError:  # not the main thread (an embedding program): leave SIGTERM alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupted(interrupt: KeyboardInterrupt, building: str | None, out_root: Path) -> Interrupted:
    """The error for a build stopped by Ctrl-C or SIGTERM (exit 130, 143): the staging folder is
    gone and the previous output is as it was (or, stopped just after the swap, the new one is whole)."""
    if building is None:
        text = "nothing was built"
    elif output_replaced(interrupt):
        text = f"{building} was built into {out_root / building}/; the games after it were not"
    else:
        text = f"{building} was not built; previous output left as it was in {out_root / building}/"
    return (Terminated if isinstance(interrupt, _Terminated) else Interrupted)(text)


def _print_written(result: BuildResult, seconds: float) -> None:
    """What a build wrote: one table per game, file names whole (a narrow terminal wraps the kind)."""
    folder = escape(str(result.out_dir))
    table = Table(title=f"{folder}/ — {seconds:.1f} s", title_justify="left", show_edge=False, header_style="bold")
    table.add_column("file", no_wrap=True)
    table.add_column("kind", overflow="fold")
    table.add_column("contents", justify="right", no_wrap=True)
    table.add_column("size", justify="right", no_wrap=True)
    if not result.files:
        table.add_row("(nothing printable yet)", "", "", "")
    for written in result.files:
        unit = written.unit if written.pages != 1 else written.unit.removesuffix("s")
        name = written.path.name + ("/" if written.path.is_dir() else "")
        table.add_row(escape(name), escape(written.kind), f"{written.pages} {unit}", _size(written.path))
    out_console.print(table)


def _report_build_findings(game, findings: list[Finding]) -> None:
    """What the checks found before a build: errors and warnings (waived ones only count)."""
    shown = [f for f in findings if not f.waived]
    if shown:
        report.print_findings(shown, err_console)
    errors = len(errors_in(findings))
    if errors:
        err_console.print(f"[bold red]--force[/]: building {game.id} despite {errors} check "
                          f"error{'s' if errors != 1 else ''}", soft_wrap=True)
    elif shown:
        err_console.print(f"{game.id} checked: {report.tally(findings)}", soft_wrap=True)


@main.command()
@click.argument("games", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people; json: one object per finding (code, severity, file, line, message, hint).")
@click.option("--list", "list_checks", is_flag=True, help="Print the catalogue of checks and exit.")
@click.option("--with", "addons", multiple=True, type=click.Path(), help="Compose an add-on folder into each game.")
def check(games, fmt, list_checks, addons):
    """Check every game under content/ (or the GAMES given) and report every inconsistency.

    Exit status: 0 no errors (warnings allowed), 1 errors found, 2 content could not be read.
    """
    if list_checks:
        if fmt == "json":
            click.echo(report.catalogue_json(catalogue()))
        else:
            report.print_catalogue(catalogue(), out_console)
        return
    try:
        folders = _games_for(games, addons)
    except PnpgenError as error:
        _fail(error)
    findings: list[Finding] = []
    unreadable: list[PnpgenError] = []
    for folder in folders:
        try:
            game = load_game(folder, tuple(addons))
            load_rules(game)  # rules.md is content too: a template mistake is found here, not first in a build
            findings += run_checks(game)
        except PnpgenError as error:  # the content (or a layout or rules.md it names) cannot be read
            unreadable.append(error)
    if fmt == "json":
        rows = findings + [Finding.of(d) for error in unreadable for d in error.diagnostics]
        click.echo(json.dumps([row.to_json() for row in rows], ensure_ascii=False, indent=2))
    else:
        report.print_findings(findings, out_console)
        for failed in unreadable:
            _print_error(failed, "cannot read the content: ")
        text = report.summary(findings, len(folders) - len(unreadable))
        if unreadable:
            text += f"; {len(unreadable)} could not be read"
        style = "bold red" if errors_in(findings) or unreadable else "bold green"
        out_console.print(f"[{style}]{text}[/]", soft_wrap=True)
    sys.exit(max([error.exit_code for error in unreadable] + [1 if errors_in(findings) else 0]))


@main.command()
@click.argument("games", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--with", "addons", multiple=True, type=click.Path(), help="Compose an add-on folder into each game.")
def stats(games, fmt, addons):
    """Balance figures: spaces and cards per colour, ticket points, routes per place, crowding."""
    try:
        figures = [game_stats(load_game(folder, tuple(addons))) for folder in _games_for(games, addons)]
    except PnpgenError as error:
        _fail(error)
    if fmt == "json":
        click.echo(json.dumps(figures, ensure_ascii=False, indent=2))
        return
    for data in figures:
        _print_stats(data)


def _print_stats(data: dict) -> None:
    out_console.rule(f"[bold]{escape(str(data['game']))}")
    if data["colours"]:
        out_console.print("[bold]colours: train spaces on the map against cards (gray: any colour)[/]")
        table = Table(show_edge=False, header_style="bold")
        for column in ("colour", "tracks", "spaces", "cards"):
            table.add_column(column, justify="left" if column == "colour" else "right")
        for row in data["colours"]:
            table.add_row(escape(str(row["colour"])), str(row["tracks"]), str(row["spaces"]), str(row["cards"]))
        out_console.print(table)
    for deck in data["points"]:
        out_console.print(f"\n[bold]points, {escape(str(deck['deck']))}[/] ({deck['cards']} cards)", soft_wrap=True)
        for points, count in deck["histogram"].items():
            out_console.print(f"  {points:>3} {'█' * count} {count}")
    if data["routes_per_place"]:
        out_console.print("\n[bold]places by number of routes[/]")
        for count, places in data["routes_per_place"].items():
            out_console.print(f"  {count:>3}: {escape(', '.join(places))}", soft_wrap=True)
    if data["crowding"]:
        out_console.print("\n[bold]places no ticket names[/]: " + escape(", ".join(data["places_without_tickets"]) or "none"),
                          soft_wrap=True)
    if data["stops_per_station"]:
        out_console.print("\n[bold]stations by number of train types that stop there[/]")
        for count, stations in data["stops_per_station"].items():
            out_console.print(f"  {count:>3}: {escape(', '.join(stations))}", soft_wrap=True)
    if not any(data[key] for key in ("colours", "points", "routes_per_place", "stops_per_station")):
        out_console.print("nothing to count yet: no map and no cards with points")
    for entry in data["crowding"]:
        out_console.print(f"\n[bold]crowding with {entry['players']} players[/]: tickets whose shortest paths use a "
                          f"route, per track the players may use", soft_wrap=True)
        table = Table(show_edge=False, header_style="bold")
        for column in ("route", "tickets", "tracks", "per track"):
            table.add_column(column, justify="left" if column == "route" else "right")
        for row in entry["routes"]:
            table.add_row(escape(str(row["route"])), f"{row['tickets']:g}", str(row["tracks"]), f"{row['per_track']:g}")
        out_console.print(table)
    out_console.print()


def _size(path: Path) -> str:
    total = sum(p.stat().st_size for p in path.rglob("*")) if path.is_dir() else path.stat().st_size
    if total < 1024:
        return f"{total} B"
    return f"{total / 1024:.0f} KB" if total < 10 * 1024 * 1024 else f"{total / 1048576:.1f} MB"


@main.command(name="list")
@click.argument("games", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--with", "addons", multiple=True, type=click.Path(), help="Compose an add-on folder into each game.")
def list_components(games, fmt, addons):
    """List each game's components with their counts."""
    try:
        loaded = [load_game(folder, tuple(addons)) for folder in _games_for(games, addons)]
    except PnpgenError as error:
        _fail(error)
    if fmt == "json":
        data = [{"game": g.id, "title": g.label,
                 "components": [{"name": c.name, "id": c.id, "kind": c.kind, "count": c.count}
                                for c in g.components()]} for g in loaded]
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    for game in loaded:
        table = Table(title=escape(f"{game.label} ({game.id})"), show_edge=False, header_style="bold", title_justify="left")
        table.add_column("component")
        table.add_column("kind")
        table.add_column("count", justify="right")
        table.add_column("declared", justify="right")
        for c in game.components():
            table.add_row(escape(str(c.name)), escape(str(c.kind)), str(c.count), "—" if c.expected is None else str(c.expected))
        out_console.print(table)
        out_console.print()


@main.command()
@click.argument("folder", type=click.Path())
@click.option("--template", default="route", show_default=True, metavar="|".join(TEMPLATES),
              help="route: a map with cities, routes, train cards and tickets; cards: cards only; line: a line game.")
@click.option("--language", default="en", show_default=True, metavar="|".join(LANGUAGES),
              help="The language of the starter's names and rules.")
def new(folder, template, language):
    """Write a small starter game into FOLDER (a new or empty folder; its name is the game's id).

    It checks clean and builds; its files' comments explain the format.
    """
    try:
        written = create_game(Path(folder), template, language)
    except PnpgenError as error:
        _fail(error)
    out_console.print(f"wrote {len(written)} files into {escape(folder)}/; next: pnpgen check {escape(folder)} "
                      f"&& pnpgen build {escape(folder)}", soft_wrap=True)


@main.command()
@click.argument("game", type=click.Path())
@click.option("--with", "addons", multiple=True, type=click.Path(), help="Compose an add-on folder into the game.")
@click.option("--players", type=int, default=4, show_default=True, help="Players per game.")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=1000, show_default=True, help="Games to play.")
@click.option("--bots", default="greedy", show_default=True,
              help=f"Bots by seat, comma-separated ({', '.join(BOTS)}); one name seats it everywhere. Rotated each game.")
@click.option("--seed", type=int, default=0, show_default=True, help="Base seed: the same seed, the same games.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("-j", "--jobs", type=click.IntRange(1, 256), default=1, show_default=True, help="Processes to play on.")
@click.option("--validate", type=click.IntRange(0), default=100, show_default=True,
              help="Replay every n-th game with the independent referee (0: none).")
def simulate(game, addons, players, games, bots, seed, fmt, jobs, validate):
    """Play GAME many times with bots and report scores, seats, tickets, routes and colours (route games)."""
    names = [b.strip() for b in bots.split(",")]
    unknown = [b for b in names if b not in BOTS]
    if unknown:
        raise click.UsageError(f"unknown bot '{unknown[0]}': the bots are {', '.join(BOTS)}")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise click.UsageError(f"--bots names {len(names)} bots for {players} players: name one per seat, or one for all")
    try:
        rules = compile_rules(load_game(Path(game), tuple(addons)))
        if not rules.players[0] <= players <= rules.players[1]:
            raise click.UsageError(f"{rules.game} is played by {rules.players[0]}–{rules.players[1]} players, not {players}")
        results = simulation.simulate(Path(game), tuple(addons), names, games, seed, jobs, validate)
    except PnpgenError as error:
        _fail(error)
    figures = simulation.summary(rules, results, names, seed)
    if fmt == "json":
        click.echo(json.dumps(figures, ensure_ascii=False, indent=2))
    else:
        click.echo(simulation.text(figures), nl=False)


@main.command(name="schema")
@click.option("-o", "--output", type=click.Path(), default=None,
              help=f"Write it to this file (or into this folder as {EDITOR_SCHEMA_FILE.name}), e.g. beside a game's "
                   "YAML; default: print it.")
@click.option("--layout", is_flag=True, help=f"The layouts' schema instead ({LAYOUT_SCHEMA_FILE.name}).")
def schema(output, layout):
    """Print the JSON Schema of the content files, for an editor (VS Code's YAML extension)."""
    text = layout_schema_text() if layout else schema_text()
    if output is None:
        click.echo(text, nl=False)
        return
    path = Path(output)
    if path.is_dir():
        path = path / (LAYOUT_SCHEMA_FILE if layout else EDITOR_SCHEMA_FILE).name
    try:
        path.write_text(text, encoding="utf-8", newline="\n")
    except OSError as error:
        err_console.print(f"[red]error:[/] cannot write {escape(str(path))}: {escape(error.strerror or str(error))}")
        sys.exit(2)
    err_console.print(f"wrote {escape(str(path))}")


# --- pnpgen export png / tts: images for other tools (generator/export) -------------------------------------------

@main.group(name="export")
def export_group():
    """Export a game for other tools: PNG faces, Tabletop Simulator decks, CSV tables."""


def _exporter(name: str, what: str, write):
    @click.argument("game", type=click.Path())
    @click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
                  help=f"Folder to write into (made if missing); default: output/<game>-{name}.")
    @click.option("--with", "addons", multiple=True, type=click.Path(), help="Compose an add-on folder into the game.")
    def command(game, out_dir, addons):
        try:
            loaded = load_game(Path(game), tuple(addons))
            written = write(loaded, Path(out_dir) if out_dir else Path("output") / f"{loaded.id}-{name}")
        except PnpgenError as error:
            _fail(error)
        for path in written:
            out_console.print(escape(str(path)), soft_wrap=True)

    command.__doc__ = f"Write {what}."
    return export_group.command(name=name)(command)


for _name, (_what, _write) in EXPORTERS.items():
    _exporter(_name, _what, _write)


def _export_options(fn):
    fn = click.option("--with", "addons", multiple=True, type=click.Path(),
                      help="Compose an add-on folder into each game (repeatable).")(fn)
    fn = click.option("--force", is_flag=True, help="Export even when the checks find errors (and say so).")(fn)
    fn = click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output", show_default=True,
                      help="Folder that receives OUT/<game>-png/ or OUT/<game>-tts/ (beside the build's OUT/<game>/).")(fn)
    return click.argument("games", nargs=-1, type=click.Path())(fn)


@export_group.command(name="png")
@_export_options
@click.option("--dpi", type=click.FloatRange(10, 2400), default=300, show_default=True, help="Pixels per inch of faces.")
@click.option("--trim/--bleed", default=False, help="Cut at the trim line, or keep the bleed (default).")
@click.option("--board-dpi", type=click.FloatRange(10, 2400), default=100, show_default=True,
              help="Pixels per inch of boards (one image each).")
@click.option("--preset", type=click.Choice(preset_names()), default=None,
              help="A print shop's sizes: tgc = The Game Crafter (300 dpi, 1/8 in bleed; poker 825 × 1125 px).")
def export_png_command(games, out_dir, force, addons, dpi, trim, board_dpi, preset):
    """One PNG per distinct face, back and board of each game, and manifest.json with the counts."""
    _export(games, addons, force, "PNG", lambda game, progress: export_png(
        game, Path(out_dir), dpi, trim, board_dpi, preset, progress, force))


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
    def __init__(self, console: Console, what: str):
        super().__init__(console)
        self.what = what

    def start(self, game, steps):
        if self.console.is_terminal:
            super().start(game, steps)
        else:
            self.console.print(f"exporting {escape(game.id)} ({self.what}) …", soft_wrap=True)


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
                for column in ("file", "images", "what"):
                    table.add_column(column, no_wrap=column == "file", justify="right" if column == "images" else "left")
                for name, count, kind in result.lines:
                    table.add_row(escape(name), str(count), escape(kind))
                out_console.print(table)
    except KeyboardInterrupt as interrupt:
        _fail((Terminated if isinstance(interrupt, _Terminated) else Interrupted)(
            f"{exporting or 'nothing'} was not exported; a previous export was left as it was"))
    except ChecksFailed as failed:
        _refused(failed, "export")
    except PnpgenError as error:
        _fail(error)


@main.command()
@click.argument("game", type=click.Path(), default=".")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (the default answers this machine only).")
@click.option("--with", "addons", multiple=True, type=click.Path(), help="Compose an add-on folder into the game.")
def serve(game, port, host, addons):
    """Live preview: the GAME folder's faces, boards, rule sheet and check findings in the browser,
    rebuilt on every save. Ctrl-C stops it."""
    folder = Path(game)
    if not (folder / "game.yaml").is_file():
        _fail(ContentError(None, f"{folder} holds no game.yaml: not a game folder",
                           "name a game folder, e.g. pnpgen serve content/ttr-germany"))
    out_console.print(f"pnpgen serve: [bold]http://{escape(host)}:{port}/[/] — {escape(str(folder))}; Ctrl-C stops",
                      soft_wrap=True)
    try:
        serve_preview(folder, tuple(addons), host, port)
    except PnpgenError as error:
        _fail(error)


if __name__ == "__main__":
    main()
