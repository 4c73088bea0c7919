"""Card decks: sheets for duplex home printing, the print-shop PDF, one SVG per distinct face."""
from __future__ import annotations

from generator.layout.deck import draw_deck
from generator.layout.primitives import Document, Page, Use, distinct_forms
from generator.layout.sheets import duplex_sheets, print_shop_pages
from generator.model.game import Deck, Game
from generator.writers.context import BuildContext


def produce_cards(game: Game, ctx: BuildContext) -> None:
    decks = printed_decks(game)
    renderer = ctx.face_renderer()
    shop = Document(f"{game.label} — print shop")
    for deck in decks:
        ctx.progress.step(f"{deck.id}: faces")
        art = draw_deck(game, deck, renderer)
        order = art.print_order()
        doc = Document(f"{game.label} — {deck.label}")
        for form in [*art.faces, art.back]:
            doc.add_form(form)
            shop.add_form(form)
        doc.pages = duplex_sheets(order, [art.back.name] * len(order), deck.geometry, ctx.paper,
                                  game.back_offset, deck.id, deck.source, game.printer_margin)
        ctx.progress.step(f"{deck.id}: {len(doc.pages)} pages")
        ctx.write_pdf(doc, f"{deck.id}.pdf", "cards", section=deck.label, component=deck.id)
        for name in order:
            shop.pages += print_shop_pages([(name, f"{deck.id} front"), (art.back.name, f"{deck.id} back")],
                                           deck.geometry)
        for n, form in enumerate(distinct_forms(art.faces), start=1):
            _write_face_svg(ctx, doc, form, deck, f"svg/{deck.id}/{n:03d}.svg")
        _write_face_svg(ctx, doc, art.back, deck, f"svg/{deck.id}/back.svg")
    ctx.progress.step("print-shop PDF")
    if shop.pages:
        ctx.write_pdf(shop, f"{game.id}-print-shop.pdf", "print shop", stamp=False)
    ctx.note_folder("svg", "svg")


def printed_decks(game: Game) -> list[Deck]:
    """Every deck but those an add-on replaces (the dice expansion's train cards)."""
    return [deck for deck in game.decks.values() if deck.replaced_by is None]


def _write_face_svg(ctx: BuildContext, doc: Document, form, deck: Deck, name: str) -> None:
    g = deck.geometry
    page = Page(g.width + 2 * g.bleed, g.height + 2 * g.bleed, [Use(form.name, 0.0, 0.0)])
    page.bleed_box = (-g.bleed, -g.bleed, page.width, page.height)
    ctx.write_svg(doc, page, name)
