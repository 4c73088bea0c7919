"""Build a game: model → layout → render, into output/<game>/.

Everything is written into a fresh temporary folder beside the target and
swapped in only when the whole build succeeded, so a failed build leaves the
previous output untouched and never leaves a half-written file.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import BuildError
from generator.layout.cardface import FaceRenderer
from generator.layout.primitives import Document, Page, Use
from generator.layout.sheets import duplex_sheets, print_shop_pages
from generator.model.game import Deck, Game
from generator.render.pdf import render_pdf
from generator.render.svg import render_svg


@dataclass
class Written:
    path: Path
    pages: int
    kind: str


@dataclass
class BuildResult:
    game: Game
    out_dir: Path
    files: list[Written] = field(default_factory=list)


class Progress:
    """What a build reports while it runs; the CLI shows it as a bar or lines."""

    def start(self, game: Game, steps: int) -> None: ...
    def step(self, message: str) -> None: ...
    def done(self) -> None: ...


def check_counts(game: Game) -> None:
    """Refuse to build when a component does not have its declared count."""
    for deck in game.decks.values():
        if deck.size != deck.expected:
            raise BuildError(deck.source, f"deck '{deck.id}' has {deck.size} cards but declares expected: {deck.expected}",
                             "fix the card counts, or change `expected:` if the rulebook's component list says otherwise")


@dataclass
class DeckArt:
    """A deck's faces as forms: one per distinct card, and its back."""

    deck: Deck
    faces: list  # Form per distinct card, in card order
    back: object  # Form

    def print_order(self) -> list[str]:
        return [face.name for card, face in zip(self.deck.cards, self.faces) for _ in range(card.count)]


def draw_deck(game: Game, deck: Deck, renderer: FaceRenderer) -> DeckArt:
    context = {"game": game, "deck": deck, "geometry": deck.geometry, "back": deck.back}
    faces = [renderer.face(deck.layout, dict(context, card=card), card.ref, card.source, f"{deck.id}-face",
                           deck.layout_source)
             for card in deck.cards]
    back = renderer.face(deck.back.layout, dict(context, card=None), f"the back of deck '{deck.id}'",
                         deck.back.source, f"{deck.id}-back")
    return DeckArt(deck, faces, back)


def build_game(game: Game, out_root: Path, paper: str = "a4", progress: Progress | None = None) -> BuildResult:
    progress = progress or Progress()
    check_counts(game)
    decks = list(game.decks.values())
    progress.start(game, 2 * len(decks) + 1)
    out_root.mkdir(parents=True, exist_ok=True)
    final = out_root / game.id
    staging = Path(tempfile.mkdtemp(prefix=f".{game.id}.", dir=out_root))
    staging.chmod(0o755)  # mkdtemp makes it private; output is for people
    try:
        result = BuildResult(game, final)
        renderer = FaceRenderer(game)
        shop = Document(f"{game.label} — print shop")
        for deck in decks:
            progress.step(f"{deck.id}: faces")
            art = draw_deck(game, deck, renderer)
            order = art.print_order()
            doc = Document(f"{game.label} — {deck.label}")
            for form in [*art.faces, art.back]:
                doc.add_form(form)
                shop.add_form(form)
            doc.pages = duplex_sheets(order, [art.back.name] * len(order), deck.geometry, paper,
                                      game.back_offset, deck.id)
            progress.step(f"{deck.id}: {len(doc.pages)} pages")
            path = staging / f"{deck.id}.pdf"
            render_pdf(doc, path)
            result.files.append(Written(final / path.name, len(doc.pages), "cards"))
            for name in order:
                shop.pages += print_shop_pages([(name, f"{deck.id} front"), (art.back.name, f"{deck.id} back")],
                                               deck.geometry)
            svg_dir = staging / "svg" / deck.id
            svg_dir.mkdir(parents=True)
            for n, form in enumerate(_distinct(art.faces), start=1):
                _write_svg(doc, form, deck, svg_dir / f"{n:03d}.svg")
            _write_svg(doc, art.back, deck, svg_dir / "back.svg")
        progress.step("print-shop PDF")
        if shop.pages:
            path = staging / f"{game.id}-print-shop.pdf"
            render_pdf(shop, path)
            result.files.append(Written(final / path.name, len(shop.pages), "print shop"))
        svg_count = sum(1 for _ in staging.glob("svg/*/*.svg"))
        if svg_count:
            result.files.append(Written(final / "svg", svg_count, "svg"))
        _swap(staging, final)
        progress.done()
        return result
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _distinct(forms):
    seen = set()
    for form in forms:
        if form.name not in seen:
            seen.add(form.name)
            yield form


def _write_svg(doc: Document, form, deck: Deck, path: Path) -> None:
    g = deck.geometry
    page = Page(g.width + 2 * g.bleed, g.height + 2 * g.bleed, [Use(form.name, 0.0, 0.0)])
    page.bleed_box = (-g.bleed, -g.bleed, page.width, page.height)
    render_svg(doc, page, path)


def _swap(staging: Path, final: Path) -> None:
    """Replace ``final`` by ``staging`` with renames only (no half-written state)."""
    old = None
    if final.exists():
        old = final.with_name(f".{final.name}.old-{os.getpid()}")
        final.rename(old)
    staging.rename(final)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
