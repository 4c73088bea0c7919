"""Print shops' rules (``--preset``): dpi, bleed, safe zone, what file they take, and the card products they make.

Every figure is written with where it was read (``Preset.source``); what could not be read from a shop's own or a
cited page is not here (the README's export section says what is unverified). A deck whose trim is none of a
shop's products (within ``PRESET_TOLERANCE``) is refused with the products the shop offers and the nearest:
a shop's cutter makes its sizes only, and printing a card on a larger one would move every cut line.
"""
from __future__ import annotations

from dataclasses import dataclass

from generator.errors import ContentError, Source
from generator.model.game import Game
from generator.writers.cards import printed_decks

MM_PER_INCH = 25.4
#: how far (mm) a deck's trim may be from a shop product's to be printed as it (63 × 88 mm is poker, 63.5 × 88.9)
PRESET_TOLERANCE = 1.0


@dataclass(frozen=True)
class Product:
    """One card size a shop makes: trim in mm, and its image's pixels with the shop's bleed at the shop's dpi."""

    name: str
    trim: tuple[float, float]
    pixels: tuple[int, int]


@dataclass(frozen=True)
class Preset:
    """A print shop: ``takes`` "png" (an image per face) or "pdf" (a PDF per deck, one card side per page)."""

    name: str
    label: str
    dpi: int
    bleed: float               # mm on each side
    safe: float                # mm inside the trim that text keeps clear of (the shop's advice)
    takes: str
    products: tuple[Product, ...]
    source: str                # where these figures were read

    def sizes(self) -> str:
        return ", ".join(f"{p.name} {p.trim[0]:g} × {p.trim[1]:g} mm" for p in self.products)


def _inch(w: float, h: float) -> tuple[float, float]:
    return round(w * MM_PER_INCH, 3), round(h * MM_PER_INCH, 3)


#: The Game Crafter: 300 dpi, 1/8 in bleed on every side (poker: 2.5 × 3.5 in cut, 825 × 1125 px)
TGC = Preset("tgc", "The Game Crafter", 300, 3.175, 3.175, "png", (
    Product("poker", _inch(2.5, 3.5), (825, 1125)),
    Product("bridge", _inch(2.25, 3.5), (750, 1125)),
    Product("mini", _inch(1.75, 2.5), (600, 825)),
    Product("tarot", _inch(2.75, 4.75), (900, 1500)),
    Product("square", _inch(3.5, 3.5), (1125, 1125)),
    Product("jumbo", _inch(3.5, 5.75), (1125, 1800)),
), "825 × 1125 px poker with 1/8 in bleed: github.com/sffc/card-creatr-studio/issues/86; the other sizes are "
   "the same rule (trim + 1/8 in a side at 300 dpi), not read from TGC's own pages")

#: MakePlayingCards: images at 300 dpi, poker 822 × 1122 px, 36 px (3.048 mm) of bleed on each side, the trim
#: 750 × 1050 px (2.5 × 3.5 in); its pixels, not "1/8 in", are what its uploader checks
MPC = Preset("mpc", "MakePlayingCards", 300, 36 / 300 * MM_PER_INCH, 36 / 300 * MM_PER_INCH, "png", (
    Product("poker", _inch(2.5, 3.5), (822, 1122)),
), "MPC's poker image guide (822 × 1122 px, 36 px bleed at 300 dpi) as cited by third-party tools; MPC's own page "
   "was not found by the search, and its other sizes are not included")

#: DriveThruCards (OneBookShelf): one PDF per deck, each card's back then its front, 1/8 in bleed on all four sides,
#: nothing important within 1/8 in of a cut, 300 dpi images; US poker 2.5 × 3.5 in is 2.75 × 3.75 in with the bleed
DTC = Preset("dtc", "DriveThruCards", 300, 3.175, 3.175, "pdf", (
    Product("poker", _inch(2.5, 3.5), (825, 1125)),
), "help.drivethrupartners.com 'Spezifikationen für gedruckte Karten' (page order, bleed, safe zone, 300 dpi, "
   "PDF/X-1a:2003) and onebookshelfpublisherservice.zendesk.com 'Common Card Prep Issues & Solutions' (poker "
   "2.75 × 3.75 in with bleed); DTC's other card sizes were not found and are not included")

PRESETS = {preset.name: preset for preset in (TGC, MPC, DTC)}


def preset_names(takes: str | None = None) -> list[str]:
    return sorted(name for name, preset in PRESETS.items() if takes is None or preset.takes == takes)


def product_for(size: tuple[float, float], shop: Preset) -> Product | None:
    """The shop's product of this trim size (within ``PRESET_TOLERANCE`` on each side), or None."""
    w, h = size
    for product in shop.products:
        pw, ph = product.trim
        if abs(pw - w) <= PRESET_TOLERANCE and abs(ph - h) <= PRESET_TOLERANCE:
            return product
    return None


def require_product(size: tuple[float, float], shop: Preset, what: str, source: Source | None) -> Product:
    """``product_for``, or a ContentError (exit 2) at the line that sets the size, naming the shop's sizes and the
    nearest one: a shop cuts its own sizes only."""
    product = product_for(size, shop)
    if product is not None:
        return product
    w, h = size
    nearest = min(shop.products, key=lambda p: abs(p.trim[0] - w) + abs(p.trim[1] - h))
    raise ContentError(source, f"{what} is {w:g} × {h:g} mm: {shop.label} (--preset {shop.name}) makes no card of that "
                               f"size; it makes {shop.sizes()}",
                       f"give the deck one of these sizes (the nearest, {nearest.name}: size: [{nearest.trim[0]:g}, "
                       f"{nearest.trim[1]:g}], in the deck or in print: card:), or choose another --preset")


def shop_products(game: Game, shop: Preset) -> dict[str, Product]:
    """Each printed deck's product at ``shop`` (deck id → product); the first deck of another size is refused."""
    return {deck.id: require_product((deck.geometry.width, deck.geometry.height), shop, f"deck '{deck.id}'", deck.source)
            for deck in printed_decks(game)}


def safe_notes(game: Game, shop: Preset) -> list[str]:
    """A note per deck whose safe zone, measured from the shop product's cut, is narrower than the shop asks:
    text there may be cut (a warning: the layout decides what it puts there)."""
    notes = []
    for deck in printed_decks(game):
        product = product_for((deck.geometry.width, deck.geometry.height), shop)
        if product is None:
            continue
        g = deck.geometry
        safe = g.safe + min((product.trim[0] - g.width) / 2, (product.trim[1] - g.height) / 2)
        if safe < shop.safe - 0.01:
            notes.append(f"deck '{deck.id}': its safe zone is {round(safe, 3):g} mm from the cut; {shop.label} asks for "
                         f"{round(shop.safe, 3):g} mm (safe: in the deck or print: card:)")
    return notes
