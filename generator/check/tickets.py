"""PNP4xx — tickets: each can be completed, is worth what the map says, within its deck's range.

A ticket deck is one whose cards have ``from`` and ``to`` places and ``points``
(see ``generator.model.network.has_tickets``); ``to`` may list several places (the ticket
ends at any of them: its value is the shortest of their shortest paths). Paths never pass through a
terminal (``game: terminals: [country]``): a neighbouring country is an end,
never a way through.
"""
from __future__ import annotations

from generator.check.registry import FINISHERS, Issue, check
from generator.errors import did_you_mean
from generator.model.network import alternative_set, keep_answers, network, pair, ticket_decks, ticket_ends, tickets

FINISHERS.append(keep_answers)   # the map's shortest paths, for the next check of the same map


def _name(card) -> str:
    return f"{card['from'].id}–{'/'.join(end.id for end in ticket_ends(card))}"


def _key(card):
    """What makes two tickets the same: their two ends either way round, or the start and the set of ends."""
    ends = ticket_ends(card)
    if len(ends) == 1:
        return pair(card["from"], ends[0])
    return (card["from"].id, frozenset(end.id for end in ends))


@check("PNP401", "error", "a ticket's two ends are the same place")
def ticket_ends_differ(game):
    for card in tickets(game):
        if any(card["from"].id == end.id for end in ticket_ends(card)):
            yield Issue(card.source, f"{card.ref}: ticket {_name(card)} starts where it ends", "fix one of its ends")


@check("PNP402", "warning", "two tickets join the same two places (decks that are alternatives of each other excepted)")
def duplicate_tickets(game):
    seen: dict = {}
    for deck in ticket_decks(game):
        group = alternative_set(game, deck)
        for card in deck.cards:
            if card.values.get("from") is None or not card.values.get("to"):
                continue
            key = _key(card)
            # a reprint in an alternative deck (USA 1910 beside the base tickets) is no duplicate: one is played
            first = next(((d, c) for d, c in seen.get(key, [])
                          if d is deck or not group or alternative_set(game, d) != group), None)
            if first is not None:
                other, first_card = first
                yield Issue(card.source, f"{card.ref}: ticket {_name(card)} ({card['points']} points) duplicates "
                                         f"{first_card.ref} ({first_card['points']} points, {first_card.source})",
                            "remove one, or change its ends" + ("" if other is deck else
                                                                 f"; if a game plays either deck, not both, mark this one "
                                                                 f"alternative_of: {other.id}"))
            seen.setdefault(key, []).append((deck, card))


@check("PNP403", "error", "a ticket cannot be completed without passing through a terminal (or at all)")
def tickets_can_be_completed(game):
    if not game.routes:
        return  # no map described yet: nothing to find a way on
    net = network(game)
    for card in tickets(game):
        ends = [end for end in ticket_ends(card) if end.id != card["from"].id]
        if ends and net.shortest_any(card["from"], ends) is None:
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
        ends = ticket_ends(card)
        shortest = net.shortest_any(card["from"], ends)
        if shortest is not None and shortest != card["points"]:
            diff = card["points"] - shortest
            nearest = " to the nearest of its ends" if len(ends) > 1 else ""
            yield Issue(card.source, f"{card.ref}: ticket {_name(card)} is worth {card['points']}, the shortest path"
                                     f"{nearest} is {shortest} spaces ({diff:+d})",
                        f"keep the rulebook's value (and say why in a comment), or write {shortest} "
                        f"(points: auto fills it in)")


@check("PNP406", "warning", "a deck is an alternative of a set no other deck belongs to (alternative_of: misspelt?)")
def alternatives_have_a_set(game):
    for deck in game.decks.values():
        if deck.alternative_of and not any(other is not deck and alternative_set(game, other) == deck.alternative_of
                                           for other in game.decks.values()):
            yield Issue(deck.source, f"deck '{deck.id}' is an alternative_of '{deck.alternative_of}', but no other "
                                     f"deck is in that set",
                        did_you_mean(deck.alternative_of, [d for d in game.decks if d != deck.id])
                        or "name the deck it replaces (alternative_of: tickets), or give the alternatives one set name")


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
