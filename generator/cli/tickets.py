"""``pnpgen tickets suggest``: propose a deck of tickets for a game's map, scored beside its own decks."""
from __future__ import annotations

import json
import re

import click

from generator.check.deckscore import deck_scores, score_tickets
from generator.check.ticketsuggest import suggest as suggest_deck
from generator.cli.common import _fail
from generator.cli.given import Given
from generator.cli.stats import print_scores
from generator.errors import ContentError, PnpgenError
from generator.load.game import load_game


@click.group()
def tickets():
    """Ticket decks for a map: `pnpgen tickets suggest GAME`."""


@tickets.command()
@click.argument("game", type=Given())
@click.option("--count", default=40, show_default=True, type=click.IntRange(1, 1000), help="Tickets in the deck.")
@click.option("--mix", default=None, metavar="SHORT:LONG",
              help="Proportion of short to long tickets (long: above the median value of all pairs), e.g. 3:1.")
@click.option("--min-value", default=1, show_default=True, type=click.IntRange(1),
              help="No ticket worth less (a 1-space ticket is rarely a good one).")
@click.option("--seed", default=0, show_default=True, type=int, help="Another seed, another deck.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def suggest(game, count, mix, min_value, seed, fmt):
    """Propose COUNT tickets valued at their shortest paths, and score them beside the game's ticket decks."""
    try:
        proportion = _mix(mix)
        loaded = load_game(game)
        rows = suggest_deck(loaded, count, proportion, seed, min_value)
        places = loaded.collections["place"]
        scores = score_tickets(loaded, [(places[a], [places[b]], 1) for a, b, _ in rows])
        existing = deck_scores(loaded)
    except PnpgenError as error:
        _fail(error)
    if fmt == "json":
        click.echo(json.dumps({"game": loaded.id, "seed": seed, "tickets": [list(row) for row in rows],
                               "scores": scores, "decks": existing}, ensure_ascii=False, indent=2))
        return
    click.echo(f"# {count} tickets for {loaded.id} (seed {seed}); paste under a deck's cards:")
    for a, b, value in rows:
        click.echo(f"- [{_yaml(a)}, {_yaml(b)}, {value}]")
    click.echo()
    print_scores([{"deck": "suggested", **scores}, *existing])


def _mix(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    match = re.fullmatch(r"\s*(\d+)\s*:\s*(\d+)\s*", text)
    if not match or not any(int(n) for n in match.groups()):
        raise ContentError(None, f"--mix {text!r} is not SHORT:LONG", "e.g. --mix 3:1 (three short tickets to one long)")
    return int(match[1]), int(match[2])


def _yaml(name: str) -> str:
    """A place id as a YAML flow item: plain when it reads back as itself, quoted otherwise."""
    if re.fullmatch(r"[^\W\d][\w .'-]*", name) and name.strip() == name and name.lower() not in (
            "yes", "no", "true", "false", "on", "off", "null", "y", "n"):
        return name
    return json.dumps(name, ensure_ascii=False)
