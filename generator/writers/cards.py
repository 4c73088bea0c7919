"""Card decks: sheets for duplex home printing, the print-shop PDF and its CSV, one SVG per distinct face.

The print-shop file is what the shops take: by default one page per *distinct* face followed by its back,
the copies to print stated in the PDF's outline ("… ×12") and in ``print-shop.csv`` beside it (page, deck,
card, count), as The Game Crafter and MakePlayingCards take a face and a quantity; ``per-card`` (one page per
printed card, front then back) only when the build asks for it. ``print: shop_bleed:`` redraws each card with the
shop's bleed for this file (``with_bleed``); home sheets keep theirs.
"""
from __future__ import annotations

import dataclasses
from collections import Counter

from generator.layout.deck import DeckArt, draw_deck
from generator.layout.faces import NamingFaceRenderer, add_face, document_forms
from generator.layout.primitives import Document, Page, Use, distinct_forms
from generator.layout.sheets import duplex_sheets, print_shop_pages
from generator.model.game import Card, Deck, Game
from generator.writers.context import BuildContext, csv_text

PRINT_SHOP_CSV = "print-shop.csv"
CSV_COLUMNS = ("page", "back_page", "deck", "face", "card", "count")
#: characters of one value in a card's title (a rule text is cut), and of the whole title
TITLE_VALUE_CHARS, TITLE_CHARS = 40, 120


def produce_cards(game: Game, ctx: BuildContext) -> None:
    # a large game's faces by name (``faces.FaceName``): a deck of 20,000 faces is never 20,000 Form objects at once
    renderer = NamingFaceRenderer(game, on_print_problem=ctx.print_problem_hook())
    shop = Document(f"{game.label} — print shop", forms=document_forms(game))
    rows: list[dict] = []
    dropped = 0   # print-shop faces not laid out as pages (a layout that keeps no files: ``ctx.keep``)
    for deck in printed_decks(game):
        part = f"deck:{deck.id}"
        home, svg, in_shop = ctx.wants_home(part), ctx.wants("svg", part), ctx.wants("print-shop")
        if not (home or svg or in_shop):
            continue
        ctx.progress.step(f"{deck.id}: faces")
        art = draw_deck(game, deck, renderer)
        order = art.print_order()
        doc = Document(f"{game.label} — {deck.label}", forms=document_forms(game))
        for form in [*art.faces, art.back]:
            add_face(doc, form)
        if home:
            doc.pages = duplex_sheets(order, [art.back.name] * len(order), deck.geometry, ctx.paper,
                                      game.back_offset, deck.id, deck.source, game.printer_margin, game.home_bleed,
                                      game.home_gutter, game.home_grid)
            ctx.progress.step(f"{deck.id}: {len(doc.pages)} pages")
            ctx.write_home_pdf(doc, f"{deck.id}.pdf", "cards", part, section=deck.label, component=deck.id)
        if in_shop:
            shop_art = art if game.shop_bleed is None else draw_deck(game, with_bleed(deck, game.shop_bleed), renderer)
            if ctx.keep:
                for form in [*shop_art.faces, shop_art.back]:
                    add_face(shop, form)
                shop_pages(shop, rows, shop_art, ctx.outputs.print_shop)
            else:   # a layout never written (a check's): its pages, titles and rows cannot fail, so none is made
                dropped += len(order)
        if svg:
            for n, form in enumerate(distinct_forms(art.faces), start=1):
                _write_face_svg(ctx, doc, form, deck, f"svg/{deck.id}/{n:03d}.svg")
            _write_face_svg(ctx, doc, art.back, deck, f"svg/{deck.id}/back.svg")
    if shop.pages or dropped:
        ctx.progress.step("print-shop PDF")
        ctx.write_pdf(shop, f"{game.id}-print-shop.pdf", "print shop", stamp=False)
        ctx.write_text(PRINT_SHOP_CSV, shop_csv(rows), "print-shop counts", count=len(rows), unit="rows")
    ctx.note_folder("svg", "svg")


def shop_pages(shop: Document, rows: list[dict], art: DeckArt, mode: str) -> None:
    """Append a deck to the print-shop file: per distinct face (``per-face``: front and back, the count in
    the outline) or per printed card (``per-card``); a row of ``print-shop.csv`` per front page."""
    deck = art.deck
    numbers = {form.name: n for n, form in enumerate(distinct_forms(art.faces), start=1)}
    first: dict[str, Card] = {}
    for card, form in zip(deck.cards, art.faces):
        first.setdefault(form.name, card)
    if mode == "per-card":
        printed = [(name, 1) for name in art.print_order()]
    else:
        counts = Counter(art.print_order())
        printed = [(name, counts[name]) for name in numbers if counts[name]]
    for name, count in printed:
        n = numbers[name]
        page = len(shop.pages) + 1
        title = card_title(first[name])
        if mode == "per-card":
            labels = (f"{deck.id} front", f"{deck.id} back")
        else:
            labels = (f"{deck.id} {n:03d} front", f"{deck.id} {n:03d} back")
            shop.outline.append((f"{deck.label} {n:03d} · {title} ×{count}", page - 1))
        shop.pages += print_shop_pages([(name, labels[0]), (art.back.name, labels[1])], deck.geometry)
        rows.append({"page": page, "back_page": page + 1, "deck": deck.id, "face": f"{n:03d}", "card": title,
                     "count": count})


def shop_csv(rows: list[dict]) -> str:
    return csv_text(CSV_COLUMNS, rows)


def card_title(card: Card) -> str:
    """A card as a person names it: its values (a place's, a colour's name), first lines, cut short."""
    words = []
    for value in card.values.values():
        if value is None or isinstance(value, (bool, list, tuple, dict, set)):
            continue
        text = str(getattr(value, "label", value)).strip().split("\n", 1)[0]
        if len(text) > TITLE_VALUE_CHARS:
            text = text[:TITLE_VALUE_CHARS - 1] + "…"
        if text:
            words.append(text)
    title = " · ".join(words)
    return (title[:TITLE_CHARS - 1] + "…" if len(title) > TITLE_CHARS else title) or card.ref


def with_bleed(deck: Deck, bleed: float) -> Deck:
    """``deck`` with ``bleed`` mm of bleed (a print shop's): drawn again, its backgrounds reach the new edge, as a
    layout draws them to ``-bleed`` (scaling the old bleed up would move the cut)."""
    if bleed == deck.geometry.bleed:
        return deck
    return dataclasses.replace(deck, geometry=dataclasses.replace(deck.geometry, bleed=bleed))


def printed_decks(game: Game) -> list[Deck]:
    """Every deck but those an add-on replaces (the dice expansion's train cards)."""
    return [deck for deck in game.decks.values() if deck.replaced_by is None]


def _write_face_svg(ctx: BuildContext, doc: Document, form, deck: Deck, name: str) -> None:
    g = deck.geometry
    page = Page(g.width + 2 * g.bleed, g.height + 2 * g.bleed, [Use(form.name, 0.0, 0.0)])
    page.bleed_box = (-g.bleed, -g.bleed, page.width, page.height)
    ctx.write_svg(doc, page, name)
