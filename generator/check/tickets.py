"""PNP4xx — tickets: each can be completed, is worth what the map says, within its deck's range.

A ticket deck is one whose cards have ``from`` and ``to`` places and ``points``
(see ``generator.model.network.is_ticket_deck``). Paths never pass through a
terminal (``game: terminals: [country]``): a neighbouring country is an end,
never a way through.
"""
from __future__ import annotations

from generator.check.registry import Issue, check
from generator.model.network import network, pair, tickets


def _name(card) -> str:
    return f"{card['from'].id}–{card['to'].id}"


@check("PNP401", "error", "a ticket's two ends are the same place")
def ticket_ends_differ(game):
    for card in tickets(game):
        if card["from"].id == card["to"].id:
            yield Issue(card.source, f"{card.ref}: ticket {_name(card)} starts where it ends", "fix one of its ends")


@check("PNP402", "warning", "two tickets join the same two places")
def duplicate_tickets(game):
    seen = {}
    for card in tickets(game):
        key = pair(card["from"], card["to"])
        if key in seen:
            first = seen[key]
            yield Issue(card.source, f"{card.ref}: ticket {_name(card)} ({card['points']} points) duplicates "
                                     f"{first.ref} ({first['points']} points, {first.source})",
                        "remove one, or change its ends")
        else:
            seen[key] = card


@check("PNP403", "error", "a ticket cannot be completed without passing through a terminal (or at all)")
def tickets_can_be_completed(game):
    if not game.routes:
        return  # no map described yet: nothing to find a way on
    net = network(game)
    for card in tickets(game):
        if card["from"].id != card["to"].id and net.shortest(card["from"], card["to"]) is None:
            through = f" without passing through a {'/'.join(sorted(net.terminal_kinds))}" if net.terminal_kinds else ""
            yield Issue(card.source, f"{card.ref}: ticket {_name(card)} cannot be completed{through}",
                        "add routes that join its ends, or change the ticket")


@check("PNP404", "warning", "a ticket's points differ from the shortest path between its ends (in spaces)")
def points_match_shortest_path(game):
    if not game.routes:
        return
    net = network(game)
    for card in tickets(game):
        if "points" in card.auto or card["points"] is None:
            continue
        shortest = net.shortest(card["from"], card["to"])
        if shortest is not None and shortest != card["points"]:
            diff = card["points"] - shortest
            yield Issue(card.source, f"{card.ref}: ticket {_name(card)} is worth {card['points']}, the shortest path "
                                     f"is {shortest} spaces ({diff:+d})",
                        f"keep the rulebook's value (and say why in a comment), or write {shortest} "
                        f"(points: auto fills it in)")


@check("PNP405", "error", "a card's points lie outside its deck's point_range (the rulebook's range)")
def points_in_range(game):
    for deck in game.decks.values():
        if deck.point_range is None:
            continue
        low, high = deck.point_range
        for card in deck.cards:
            points = card.values.get("points")
            if points is not None and not low <= points <= high:
                what = f"ticket {_name(card)}" if card.values.get("from") is not None else "card"
                yield Issue(card.source, f"{card.ref}: {what} is worth {points}, outside the deck's range {low}–{high} "
                                         f"(point_range, {deck.point_range_source})",
                            "check the card against the rulebook; if the printed card really says so, "
                            "explain it in a comment with `waive PNP405`")
