"""What the card-layout tests share: writing a layout into a game folder and laying out a deck's faces with it."""
from __future__ import annotations

from pathlib import Path

from generator.jinja_sandbox import allow_kind
from generator.layout.cardface import FaceRenderer


def write_layout(game_dir: Path, name: str, text: str) -> None:
    (game_dir / "layouts").mkdir(exist_ok=True)
    (game_dir / "layouts" / f"{name}.yaml").write_text(text, encoding="utf-8")


def faces_of(game, layout: str, deck_id: str = "tickets", renderer: FaceRenderer | None = None) -> list:
    """Every card of ``deck_id`` laid out with ``layout`` (a new ``FaceRenderer`` unless one is given)."""
    deck = game.decks[deck_id]
    renderer = renderer or FaceRenderer(game)
    context = {"game": game, "deck": deck, "geometry": deck.geometry, "back": deck.back}
    return [renderer.face(layout, dict(context, card=card), card.ref, card.source, "t") for card in deck.cards]


class Thing:
    """A plain object with the attributes given: what a layout's expressions meet in the model."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


allow_kind(Thing)   # a stand-in for a model object: the sandboxes let templates read only the model's (and plain data)
