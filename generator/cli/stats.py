"""``pnpgen stats``: balance figures of each game."""
from __future__ import annotations

import json

import click
from rich.markup import escape
from rich.table import Table

from generator.check.deckscore import deck_scores
from generator.check.stats import game_stats
from generator.cli.common import _fail, out_console
from generator.cli.games import _games_for
from generator.cli.given import Given
from generator.errors import PnpgenError
from generator.load.game import load_game


@click.command()
@click.argument("games", nargs=-1, type=Given())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--with", "addons", multiple=True, type=Given(), help="Compose an add-on folder into each game.")
def stats(games, fmt, addons):
    """Balance figures: spaces and cards per colour, ticket points, routes per place, crowding, ticket-deck scores."""
    try:
        figures = [_figures(load_game(folder, tuple(addons))) for folder in _games_for(games, addons)]
    except PnpgenError as error:
        _fail(error)
    if fmt == "json":
        click.echo(json.dumps(figures, ensure_ascii=False, indent=2))
        return
    for data in figures:
        _print_stats(data)


def _figures(game) -> dict:
    return {**game_stats(game), "deck_scores": deck_scores(game)}


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
    if data.get("map_rules"):
        rules = "; ".join(f"{key}: {value}" for key, value in data["map_rules"].items())
        out_console.print("\n[bold]map rules[/]: " + escape(rules), soft_wrap=True)
    for entry in data["crowding"]:
        chosen = f" (tickets: {escape(entry['decks'])})" if entry.get("decks") else ""
        out_console.print(f"\n[bold]crowding with {entry['players']} players{chosen}[/]: tickets whose shortest paths use a "
                          f"route, per track the players may use", soft_wrap=True)
        table = Table(show_edge=False, header_style="bold")
        for column in ("route", "tickets", "tracks", "per track"):
            table.add_column(column, justify="left" if column == "route" else "right")
        for row in entry["routes"]:
            table.add_row(escape(str(row["route"])), f"{row['tickets']:g}", str(row["tracks"]), f"{row['per_track']:g}")
        out_console.print(table)
    if data["deck_scores"]:
        out_console.print("\n[bold]ticket decks scored[/] (as `pnpgen tickets suggest` scores a deck)")
        print_scores(data["deck_scores"])
    out_console.print()


def print_scores(decks: list[dict]) -> None:
    """The scores of ticket decks side by side (``pnpgen stats`` prints them too)."""
    table = Table(show_edge=False, header_style="bold")
    table.add_column("score")
    for deck in decks:
        table.add_column(escape(str(deck["deck"])), justify="right")
    rows = [
        ("tickets", lambda d: str(d["tickets"])),
        ("values (min–max)", lambda d: f"{d['lengths']['min']}–{d['lengths']['max']}"),
        ("distinct values", lambda d: str(d["lengths"]["distinct"])),
        ("spread of values (sd)", lambda d: f"{d['lengths']['spread']:g}"),
        ("routes reached", lambda d: f"{d['routes_reached']}/{d['routes']}"),
        ("routes no ticket needs", lambda d: str(len(d["routes_unneeded"]))),
        ("places no ticket names", lambda d: str(len(d["places_without_tickets"]))),
        ("near-duplicate pairs", lambda d: str(d["near_duplicates"])),
        ("busiest route, per track", lambda d: f"{d['crowding_max']:g}"),
        ("crowding unevenness (cv)", lambda d: f"{d['crowding_spread']:g}"),
    ]
    for label, cell in rows:
        table.add_row(label, *(cell(deck) for deck in decks))
    out_console.print(table)
