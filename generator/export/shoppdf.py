"""``pnpgen export shop-pdf GAME --preset dtc``: the PDFs a print shop that takes PDFs wants, with its own bleed.

DriveThruCards takes one PDF per deck, one card side per page, each printed card's back and then its front
(a card printed 12 times is 24 pages), every page the trim plus the shop's 1/8 in bleed, with TrimBox and
BleedBox set. Each deck is drawn again with the shop's bleed (``with_bleed``): a background a layout draws to
``-bleed`` reaches the new edge, with no white sliver and no cut moved. Files: ``OUT/<game>-<preset>/<deck>.pdf``
and ``manifest.json`` (pages, cards, sizes). Tokens, tiles and boards are no card product and are left out.
"""
from __future__ import annotations

import json
from pathlib import Path

from generator.errors import ContentError
from generator.export import ExportResult, export_folder
from generator.export.shops import PRESETS, preset_names, safe_notes, shop_products
from generator.layout.deck import draw_deck
from generator.layout.faces import SharedFaceRenderer
from generator.layout.primitives import Document, Page, Use
from generator.model.game import Game
from generator.render.pdf import render_pdf
from generator.writers import Progress
from generator.writers.cards import printed_decks, with_bleed

MANIFEST = "manifest.json"


def export_shop_pdf(game: Game, out_root: Path, preset: str = "dtc", progress: Progress | None = None,
                    force: bool = False) -> ExportResult:
    """Write one PDF per printed deck into ``OUT/<game>-<preset>/``; the checks have run."""
    progress = progress or Progress()
    shop = PRESETS[preset]
    if shop.takes != "pdf":
        raise ContentError(None, f"--preset {preset}: {shop.label} takes an image per card face, not PDFs",
                           f"use `pnpgen export png GAME --preset {preset}`; shop-pdf takes "
                           f"{', '.join(preset_names('pdf'))}")
    products = shop_products(game, shop)   # refused before anything is drawn
    decks = printed_decks(game)
    name = f"{game.id}-{shop.name}"
    renderer = SharedFaceRenderer(game, on_print_problem=(lambda kind, error: None) if force else None)
    progress.start(game, 2 * len(decks))
    entries: list[dict] = []
    with export_folder(game, out_root, name) as staging:
        for deck in decks:
            progress.step(f"{deck.id}: faces")
            product = products[deck.id]
            g = deck.geometry
            pw, ph = product.trim
            # a trim within the tolerance of the product's is centred on it, drawn with enough bleed to cover the page
            shop_deck = with_bleed(deck, shop.bleed + max(0.0, (pw - g.width) / 2, (ph - g.height) / 2))
            art = draw_deck(game, shop_deck, renderer)
            doc = Document(f"{game.label} — {deck.label} ({shop.label})")
            for form in [*art.faces, art.back]:
                doc.add_form(form)
            sides = []
            for n, face in enumerate(art.print_order(), start=1):
                sides += [(art.back.name, f"card {n} back"), (face, f"card {n} front")]
            doc.pages = product_pages(sides, (g.width, g.height), product.trim, shop.bleed)
            progress.step(f"{deck.id}.pdf: {len(doc.pages)} pages")
            render_pdf(doc, staging / f"{deck.id}.pdf")
            entries.append({"file": f"{deck.id}.pdf", "deck": deck.id, "label": deck.label,
                            "product": product.name, "cards": len(sides) // 2, "pages": len(doc.pages),
                            "card_trim_mm": [g.width, g.height], "trim_mm": list(product.trim),
                            "page_mm": [round(pw + 2 * shop.bleed, 3), round(ph + 2 * shop.bleed, 3)]})
        manifest = {"game": game.id, "preset": shop.name, "shop": shop.label, "bleed_mm": round(shop.bleed, 3),
                    "safe_mm": round(shop.safe, 3), "page_order": "each card's back, then its front",
                    "decks": entries}
        (staging / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    progress.done()
    result = ExportResult(Path(out_root) / name, unit="pages")
    for entry in entries:
        cards = int(entry["cards"])
        result.lines.append((str(entry["file"]), int(entry["pages"]),
                             f"deck, {cards} card{'' if cards == 1 else 's'}, back then front"))
    result.lines.append((MANIFEST, 1, "each file's deck, product, sizes and page count"))
    result.notes = safe_notes(game, shop)
    return result


def product_pages(sides: list[tuple[str, str]], card: tuple[float, float], trim: tuple[float, float],
                  bleed: float) -> list[Page]:
    """One page per (form, label): the product's trim plus ``bleed``, the card's trim centred on the product's,
    TrimBox and BleedBox set (a 63 × 88 mm card on a 63.5 × 88.9 mm product shows 0.25 and 0.45 mm more of its
    bleed; nothing is scaled)."""
    (w, h), (pw, ph) = card, trim
    width, height = pw + 2 * bleed, ph + 2 * bleed
    x, y = (width - w) / 2, (height - h) / 2
    pages = []
    for name, label in sides:
        page = Page(width, height, [Use(name, x, y)], label=label)
        page.trim_box = (bleed, bleed, pw, ph)
        page.bleed_box = (0.0, 0.0, width, height)
        pages.append(page)
    return pages
