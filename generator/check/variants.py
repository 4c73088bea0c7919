"""PNP62x — map variants: every map board of a game can be played with the game's cards.

A game whose cards name cities (Thurn and Taxis' city cards: a deck with a
``place`` field that is not a ticket deck) can only be played on a board whose
cities those cards name. A second map with places of its own (``boards: <id>:
places:``) needs a deck of its own (``board: <id>`` on the deck); without one
it prints, but nobody can build a route on it.
"""
from __future__ import annotations

from generator.check.registry import Issue, check
from generator.model.network import has_tickets

#: the places a route of city cards runs through (countries and attractions are not played as cards)
CARDED_KINDS = ("city", "free-city")


def city_decks(game) -> list:
    """The decks whose cards each name a place (city cards), not tickets; decks an add-on replaces are left out."""
    return [deck for deck in game.decks.values()
            if deck.replaced_by is None and not has_tickets(deck)
            and any(type_name.rstrip("?") == "place" for type_name in deck.fields.values())]


def _named(decks) -> set[int]:
    """The places the cards name, by identity: a board's own places are its own entities, even where an id
    repeats one of another map."""
    named: set[int] = set()
    for deck in decks:
        place_fields = [name for name, type_name in deck.fields.items() if type_name.rstrip("?") == "place"]
        for card in deck.cards:
            named.update(id(card.values[name]) for name in place_fields if card.values.get(name) is not None)
    return named


@check("PNP621", "error", "a map board whose cities no city card names (a map variant that cannot be played)")
def boards_have_city_cards(game):
    decks = city_decks(game)
    if not decks:  # the game's cards do not name cities (tickets, train colours): nothing promised
        return
    named = _named(decks)
    for board in game.boards.values():
        if board.kind != "map":
            continue
        cities = [place for place in board.places if place.attrs.get("kind", "city") in CARDED_KINDS]
        missing = [place for place in cities if id(place) not in named]
        if not missing:
            continue
        shown = ", ".join(place.latin or place.id for place in missing[:8]) + (" …" if len(missing) > 8 else "")
        listed = ", ".join(repr(deck.id) for deck in decks)
        which = (f"none of its {len(cities)} cities is on a card of {listed}" if len(missing) == len(cities) else
                 f"{len(missing)} of its {len(cities)} cities {'is' if len(missing) == 1 else 'are'} on no card of {listed}")
        yield Issue(board.source, f"board '{board.id}': {which} ({shown})",
                    f"add a deck of city cards for this map (board: {board.id}, a field of type place), "
                    f"or cards for the missing cities", subject=(board.id, *(place.id for place in missing)))
