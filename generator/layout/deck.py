"""A deck's faces as forms: what the card sheets, the print-shop file and the checker all draw."""
from __future__ import annotations

from dataclasses import dataclass

from generator.layout.cardface import FaceRenderer
from generator.layout.faces import SharedFaceRenderer, deck_keys
from generator.layout.primitives import Form
from generator.model import dataclass_eq, dataclass_repr
from generator.model.game import Deck, Game


@dataclass(repr=False, eq=False)
class DeckArt:
    """A deck's faces as forms: one per distinct card, and its back."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    deck: Deck
    faces: list  # Form per distinct card, in card order
    back: Form

    def print_order(self) -> list[str]:
        return [face.name for card, face in zip(self.deck.cards, self.faces) for _ in range(card.count)]


def draw_deck(game: Game, deck: Deck, renderer: FaceRenderer) -> DeckArt:
    context = {"game": game, "deck": deck, "geometry": deck.geometry, "back": deck.back}
    prefix = f"{deck.id}-face"
    if isinstance(renderer, SharedFaceRenderer):   # each face found by its key, worked out once per deck
        keys = deck_keys(game, deck, context, prefix)
        faces = [renderer.face(deck.layout, dict(context, card=card), card.ref, card.source, prefix,
                               deck.layout_source, key)
                 for card, key in zip(deck.cards, keys)]
    else:
        faces = [renderer.face(deck.layout, dict(context, card=card), card.ref, card.source, prefix,
                               deck.layout_source)
                 for card in deck.cards]
    back = renderer.face(deck.back.layout, dict(context, card=None), f"the back of deck '{deck.id}'",
                         deck.back.source, f"{deck.id}-back")
    return DeckArt(deck, faces, back)
