"""``pnpgen simulate``: play a game many times with bots (route family: heatmap, two versions compared, Dask;
line family: S鉄道で行こう's line game). A game whose rules-subject checks find an error is not played
(``generator.simulate.admit``): its findings are printed as ``pnpgen check`` prints them, exit 2."""
from __future__ import annotations

import json
from pathlib import Path

import click
from rich.markup import escape

from generator.check import report
from generator.cli.common import _fail, err_console
from generator.cli.given import Given
from generator.errors import PnpgenError
from generator.limits import MAX_SIMULATE_GAMES
from generator.load.game import load_game
from generator.simulate import compare as versions
from generator.simulate import line_report
from generator.simulate import report as simulation
from generator.simulate.admit import NotPlayable, admit
from generator.simulate.bots import BOTS
from generator.simulate.family import bots_for, compile_game
from generator.simulate.heatmap import write_heatmap
from generator.simulate.line_bots import LINE_BOTS
from generator.simulate.line_rules import LineRules


@click.command()
@click.argument("game", type=Given(), required=False)
@click.option("--with", "addons", multiple=True, type=Given(), help="Compose an add-on folder into the game.")
@click.option("--players", type=int, default=4, show_default=True, help="Players per game.")
@click.option("--games", type=click.IntRange(1, MAX_SIMULATE_GAMES), default=1000, show_default=True,
              help="Games to play.")
@click.option("--bots", default="greedy", show_default=True,
              help=f"Bots by seat, comma-separated (route games: {', '.join(BOTS)}; line games: {', '.join(LINE_BOTS)}); "
                   "one name seats it everywhere. Rotated each game.")
@click.option("--seed", type=int, default=0, show_default=True, help="Base seed: the same seed, the same games.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("-j", "--jobs", type=click.IntRange(1, 256), default=1, show_default=True, help="Processes to play on.")
@click.option("--validate", type=click.IntRange(0), default=100, show_default=True,
              help="Replay every n-th game with the independent referee (0: none).")
@click.option("--heatmap", type=click.Path(dir_okay=False), default=None,
              help="Also draw the board with its routes by claim frequency and places by visits (.pdf, .svg or .png).")
@click.option("--compare", nargs=2, type=str, default=None, metavar="A B",
              help="Play the same seeds on two versions of a game (folders, or FOLDER@REV for a git revision) "
                   "and print what changed beyond chance (instead of GAME).")
@click.option("--dask", default=None, metavar="ADDRESS",
              help="Play on Dask (pip install 'pnpgen[dask]'): a scheduler's address, or 'local' for -j processes "
                   "here. The same results as without.")
def simulate(game, addons, players, games, bots, seed, fmt, jobs, validate, heatmap, compare, dask):
    """Play GAME many times with bots and report scores, seats and what the game is made of (route or line games)."""
    names = [b.strip() for b in bots.split(",")]
    if compare:
        names = _check_bots(names, BOTS, players)
        if game or heatmap:
            raise click.UsageError("--compare A B names both games: leave out GAME and --heatmap")
        _simulate_compare(compare, addons, players, names, games, seed, fmt, jobs, validate, dask)
        return
    if not game:
        raise click.UsageError("name the game to play (its folder), or --compare A B")
    try:
        model, rules = _simulation_rules(game, addons, players)
        names = _check_bots(names, bots_for(rules), players)
        line = isinstance(rules, LineRules)
        if heatmap and line:
            raise click.UsageError("--heatmap draws route maps: a line game has none (its report lists visits per station)")
        results = simulation.simulate(Path(game), tuple(addons), names, games, seed, jobs, validate, dask)
        if heatmap:
            with_ = "".join(f" + {Path(a).name}" for a in addons)
            caption = f"{model.label}{with_}: {games} games, {players} players, bots {','.join(names)}, seed {seed}"
            err_console.print(f"wrote {escape(str(write_heatmap(model, rules, results, caption, Path(heatmap))))}")
    except PnpgenError as error:
        _refuse(error)
    family = line_report if line else simulation
    figures = family.summary(rules, results, names, seed)
    if fmt == "json":
        click.echo(json.dumps(figures, ensure_ascii=False, indent=2))
    else:
        click.echo(family.text(figures), nl=False)


def _check_bots(names: list[str], known: dict, players: int) -> list[str]:
    """The bots by seat: names the family knows, one per seat (one name: every seat)."""
    unknown = [b for b in names if b not in known]
    if unknown:
        raise click.UsageError(f"unknown bot '{unknown[0]}': the bots are {', '.join(known)}")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise click.UsageError(f"--bots names {len(names)} bots for {players} players: name one per seat, or one for all")
    return names


def _refuse(error: PnpgenError) -> None:
    """Exit with ``error``; a game refused for its rules errors has its findings printed first, as ``check`` does."""
    if isinstance(error, NotPlayable):
        report.print_findings(error.findings, err_console)
    _fail(error)


def _simulation_rules(game: str, addons, players: int):
    model = load_game(Path(game), tuple(addons))
    admit(model, game)
    rules = compile_game(model)
    simulation.remember(Path(game), tuple(addons), model, rules)
    if not rules.players[0] <= players <= rules.players[1]:
        raise click.UsageError(f"{rules.game} is played by {rules.players[0]}–{rules.players[1]} players, not {players}")
    return model, rules


def _simulate_compare(specs, addons, players, names, games, seed, fmt, jobs, validate, dask):
    try:
        figures = versions.run(specs, tuple(addons), names, games, seed, jobs, validate, dask)
    except PnpgenError as error:
        _refuse(error)
    if fmt == "json":
        click.echo(json.dumps({"a": specs[0], "b": specs[1], "seed": seed, "bots": names, **figures},
                              ensure_ascii=False, indent=2))
    else:
        click.echo(versions.text(figures, specs[0], specs[1]), nl=False)
