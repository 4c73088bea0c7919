"""What an export draws: every distinct face of every deck, token and tile set, and the boards.

Faces are the build's own (``draw_deck``, ``component_faces``, ``draw_board``, through the
game's shared face renderer): an export shows exactly what the build prints. Equal faces
are one form (twelve red train cards, one image) with the number of copies printed.
"""
from __future__ import annotations

import dataclasses
import re
import unicodedata
from dataclasses import dataclass, field

from generator.errors import Source
from generator.layout.components import KINDS, component_faces
from generator.layout.deck import draw_deck
from generator.layout.faces import SharedFaceRenderer
from generator.layout.primitives import Form
from generator.model.game import Card, Game
from generator.writers import Progress
from generator.writers.boards import draw_board
from generator.writers.cards import printed_decks, with_bleed

#: characters of a face's file-name slug (after its number)
SLUG_CHARS = 40


@dataclass
class Face:
    """One distinct face: ``name`` is its file stem ("001-purple", "back"), ``count`` the copies printed."""

    name: str
    form: Form
    count: int
    cards: list[str] = field(default_factory=list)   # the cards (refs) that print this face

    def box(self, size: tuple[float, float], bleed: float, trim: bool) -> tuple[float, float, float, float]:
        """The part of the form an image shows: the trim size, or the trim size and its bleed."""
        w, h = size
        return (0.0, 0.0, w, h) if trim or not bleed else (-bleed, -bleed, w + 2 * bleed, h + 2 * bleed)


@dataclass
class Set:
    """A deck, token or tile set, or a board: its faces (and a deck's back), at one trim size."""

    id: str
    label: str
    kind: str                  # "deck", a component kind ("token", "tile"), or "board"
    size: tuple[float, float]  # trim, mm
    bleed: float               # mm
    faces: list[Face]
    back: Face | None = None
    shape: str = ""            # a token's or tile's shape (circle, square, rect); "" for decks and boards
    source: Source | None = None   # where its size is set (a deck's line), for messages

    @property
    def printed(self) -> int:
        return sum(face.count for face in self.faces)


def export_sets(game: Game, force: bool = False, card_bleed: float | None = None,
                progress: Progress | None = None) -> list[Set]:
    """Decks (as the build prints them), then token and tile sets, then boards, in content order.

    ``card_bleed`` (a print shop's, mm): decks are drawn again with that bleed, so that what a layout draws to the
    bleed edge reaches the shop's edge (``with_bleed``).
    ``progress`` gets a bar of its own, a step per set drawn (Germany's faces take 0.7 s before any image)."""
    renderer = SharedFaceRenderer(game, on_print_problem=(lambda kind, error: None) if force else None)
    progress = progress or Progress()
    decks = printed_decks(game)
    parts = [part for part in game.parts.values() if part.geometry is not None
             and KINDS[part.kind].pictured and not KINDS[part.kind].outlined_in_legend]
    boards_drawn = list(game.boards.values())
    progress.start(game, len(decks) + len(parts) + len(boards_drawn))
    try:
        return _draw_sets(game, renderer, decks, parts, boards_drawn, card_bleed, progress)
    finally:
        progress.done()


def _draw_sets(game: Game, renderer: SharedFaceRenderer, decks: list, parts: list, boards: list,
               card_bleed: float | None, progress: Progress) -> list[Set]:
    sets = []
    for deck in decks:
        progress.step(f"{deck.id}: faces")
        if card_bleed is not None:
            deck = with_bleed(deck, card_bleed)
        art = draw_deck(game, deck, renderer)
        g = deck.geometry
        back = Face("back", art.back, sum(card.count for card in deck.cards), ["back"])
        sets.append(Set(deck.id, deck.label, "deck", (g.width, g.height), g.bleed,
                        _distinct(list(zip(deck.cards, art.faces))), back, source=deck.source))
    # sheets are pages (their PDF is the export); a face with no edge of its own is a die's
    for part in parts:
        progress.step(f"{part.id}: faces")
        pairs = [(face, component_faces(game, dataclasses.replace(part, faces=[face]), renderer)[0])
                 for face in part.faces]
        g = part.geometry
        sets.append(Set(part.id, part.label, part.kind, (g.width, g.height), g.bleed, _distinct(pairs, numbers=False),
                        shape=str(getattr(part.options, "shape", ""))))
    for board in boards:
        progress.step(f"board {board.id}")
        form = draw_board(game, board)
        sets.append(Set(board.id, board.label, "board", (board.width, board.height), 0.0,
                        [Face(f"board-{board.id}", form, 1, [board.id])]))
    return sets


def _distinct(pairs: list[tuple[Card, Form]], numbers: bool = True) -> list[Face]:
    """One Face per distinct form, numbered in first-seen order, named after its first card."""
    faces: dict[str, Face] = {}
    for card, form in pairs:
        face = faces.get(form.name)
        if face is None:
            number = f"{len(faces) + 1:03d}"
            text = slug(card, numbers)
            face = faces[form.name] = Face(f"{number}-{text}" if text else number, form, 0)
        face.count += card.count
        face.cards.append(card.ref)
    return list(faces.values())


def slug(card: Card, numbers: bool = True) -> str:
    """A card's values as an ASCII file-name part ("berlin-chemnitz-6"): ids where a value has one
    (a colour, a place), text and numbers as written (a piece's numbers are its options: left out);
    what has no Latin letters is left out."""
    words = []
    for value in card.values.values():
        if value is None or isinstance(value, (list, tuple, dict, set, bool)):
            continue
        if not numbers and isinstance(value, (int, float)):
            continue
        text = unicodedata.normalize("NFKD", str(getattr(value, "id", value)))
        word = re.sub(r"[^a-z0-9]+", "-", text.encode("ascii", "ignore").decode().lower()).strip("-")
        if word:
            words.append(word)
    joined = "-".join(words)
    if len(joined) > SLUG_CHARS:
        joined = joined[:SLUG_CHARS].rsplit("-", 1)[0] if "-" in joined[:SLUG_CHARS] else joined[:SLUG_CHARS]
    return joined
