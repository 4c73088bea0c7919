"""``pnpgen simulate``: play a route game many times with bots."""
from __future__ import annotations

import json
from pathlib import Path

import click

from generator.cli.common import _fail
from generator.errors import PnpgenError
from generator.load.game import load_game
from generator.simulate import report as simulation
from generator.simulate.bots import BOTS
from generator.simulate.rules import compile_rules


@click.command()
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
