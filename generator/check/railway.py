"""PNP61x — lines and stations (S鉄道で行こう): train types stop in line order, destinations are served.

The line order is the order of ``stations:`` in the content. Unknown station
or line names are load errors already (exit 2, with a "did you mean").
"""
from __future__ import annotations

from generator.check.registry import Issue, check


def _order(game) -> dict:
    return {station_id: i for i, station_id in enumerate(game.collections.get("station", {}))}


@check("PNP611", "error", "a train type's stops are not in line order (or repeat a station)")
def stops_in_line_order(game):
    order = _order(game)
    for train in game.collections.get("train_type", {}).values():
        stops = train.attrs.get("stops") or []
        for before, after in zip(stops, stops[1:]):
            if order[after.id] <= order[before.id]:
                yield Issue(train.source, f"train type '{train.id}' stops at {after.id} after {before.id}, "
                                          f"but the line runs the other way",
                            "list the stops in the order of stations:")
                break


@check("PNP612", "error", "a train type stops at fewer than two stations (it can never move)")
def train_types_can_move(game):
    for train in game.collections.get("train_type", {}).values():
        stops = train.attrs.get("stops")
        if stops is not None and len(stops) < 2:
            yield Issue(train.source, f"train type '{train.id}' has {len(stops)} stop(s)", "list at least two stops")


@check("PNP613", "error", "a card names a station where no train type stops (it can never be reached)")
def destinations_are_served(game):
    trains = game.collections.get("train_type", {}).values()
    if not trains:
        return
    served = {stop.id for train in trains for stop in train.attrs.get("stops") or []}
    for deck in game.decks.values():
        fields = [name for name in deck.fields if deck.field_type(name) == "station"]
        for card in deck.cards:
            for name in fields:
                station = card.values.get(name)
                if station is not None and station.id not in served:
                    yield Issue(card.source, f"{card.ref}: no train type stops at {station.id}",
                                "add it to a train type's stops, or choose another station")


@check("PNP614", "warning", "a declared line type that no card names")
def lines_are_used(game):
    lines = game.collections.get("line", {})
    decks = [d for d in game.decks.values() if any(d.field_type(name) == "line" for name in d.fields)]
    if not lines or not decks:
        return
    named = {value.id for deck in decks for card in deck.cards for value in card.values.values()
             if getattr(value, "kind", None) == "line"}
    for line in lines.values():
        if line.id not in named:
            yield Issue(line.source, f"no card names line type '{line.id}'", "give it cards, or remove it")
